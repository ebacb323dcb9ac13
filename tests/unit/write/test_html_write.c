/* test_html_write.c -- the HTML report's writer: hp2x_write_output writes what
 * hp2x_write_html writes; the censuses the page holds (in each time
 * bucket the largest total, the first and last kept; the buckets a power
 * of two seconds wide, nesting as the run grows and over a bounded
 * profile's, whose report holds what every sample's does), their
 * exact times where the CSV's are not; its JSON
 * strings never hold '<', '>', '&' or a raw control character, and its
 * page holds no label as markup; a failing sink is HP2X_E_IO.  The live
 * page and the waiting page (hp2x_write_live_waiting_html) carry the same
 * scripts (the report's too), may connect to their server, and say which redraw
 * they show; a live update (hp2x_write_live_update) carries the newest
 * censuses, the band set and the run's figures as the page's data has them, no
 * label; the lean live page is the live page without its PNG and scripts,
 * with the same budget (test_html_held.c: the budget, the censuses held
 * from update to update).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hp2x.h"
#include "write/html_int.h"
#include "test_options.h"
#include "mem_sink.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n samples 0.0, 0.1, ... of two labels: a's value wiggles, "<b>" grows. */
/* The profile and bands (default options) of .hp text. */
static void profile_of(const char *text, size_t len, hp2x_profile **p,
                       hp2x_bands **b) {
  assert_int_equal(test_profile_bands(text, len, NULL, p, b), HP2X_OK);
}

static void make_profile(size_t n, hp2x_profile **p, hp2x_bands **b) {
  char *text = malloc(200 + n * 120);
  assert_non_null(text);
  size_t at = (size_t)sprintf(text, "JOB \"</script><script>x=1</script>\"\n"
                                    "DATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
                                    "VALUE_UNIT \"bytes\"\n");
  for (size_t s = 0; s < n; s++)
    at += (size_t)sprintf(text + at,
                          "BEGIN_SAMPLE %zu.%zu\na\t%zu\n<b>&\"\t%zu\n"
                          "END_SAMPLE %zu.%zu\n",
                          s / 10, s % 10, 100 + (s * 37) % 50, 10 * s, s / 10,
                          s % 10);
  profile_of(text, at, p, b);
  free(text);
}

static void test_output_is_the_writer(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(40, &p, &b);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  mem got = {0}, want = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_output(p, b, "in", &o, mem_write, &got, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &want, &err), HP2X_OK);
  assert_true(got.len > 1000);
  assert_int_equal(got.len, want.len);
  assert_memory_equal(got.buf, want.buf, got.len);
  /* Labels and JOB only as escaped text. */
  assert_null(strstr(got.buf, "<b>&"));
  assert_null(strstr(got.buf, "x=1</script>"));
  assert_non_null(strstr(got.buf, "\\u003cb\\u003e\\u0026\\\""));
  assert_non_null(strstr(got.buf, "&lt;/script&gt;"));
  assert_int_equal(strncmp(got.buf, "<!DOCTYPE html>", 15), 0);
  /* A sink that fills up. */
  mem full = {0};
  full.fail_after = 4000;
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &full, &err),
                   HP2X_E_IO);
  free(got.buf), free(want.buf), free(full.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The values' total at sample s. */
static int64_t total_at(const hp2x_bands *b, size_t s) {
  int64_t t = 0;
  for (size_t k = 0; k < b->n_bands; k++) t += b->values[k * b->stride + s];
  return t;
}

/* hpx_html_choose over buckets k: the first of the largest total of each
 * bucket's censuses, and the first and last censuses; nothing past cap. */
static void check_choice(const hp2x_profile *p, const hp2x_bands *b,
                         const int64_t *total, const hpx_html_buckets *k,
                         const size_t *held, size_t n) {
  size_t N = b->n_samples;
  assert_int_equal(held[0], 0);
  assert_int_equal(held[n - 1], N - 1);
  for (size_t i = 1; i < n; i++) assert_true(held[i] > held[i - 1]);
  size_t i = 0;
  for (size_t s = 0; s < N;) {
    double q = floor((p->times[s] - k->origin) / k->width);
    size_t best = s, e = s + 1;
    for (; e < N && floor((p->times[e] - k->origin) / k->width) == q; e++)
      if (total[e] > total[best]) best = e;
    if (s == 0 && best != 0) assert_int_equal(held[i++], 0);
    assert_int_equal(held[i++], best);
    if (e == N && best != N - 1) assert_int_equal(held[i++], N - 1);
    s = e;
  }
  assert_int_equal(i, n);
}

static void test_censuses_held(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(1000, &p, &b);
  size_t N = b->n_samples;
  int64_t *total = malloc(N * sizeof *total);
  size_t *held = malloc(N * sizeof *held);
  assert_non_null(total), assert_non_null(held);
  for (size_t s = 0; s < N; s++) total[s] = total_at(b, s);
  /* buckets of 1/4 s from 0.05 s: 400 of them, 2 or 3 censuses each */
  hpx_html_buckets k = {0.05, 0.25};
  size_t n = hpx_html_choose(p, b, total, &k, N, held);
  assert_true(n >= 400 && n <= 403);
  check_choice(p, b, total, &k, held, n);
  /* (room for 10: how many there are, the first 10 written) */
  size_t few_room[10];
  assert_int_equal(hpx_html_choose(p, b, total, &k, 10, few_room), n);
  assert_memory_equal(few_room, held, sizeof few_room);
  /* Within a budget: buckets a power of two seconds wide from the first
   * census, fewer than 3,200 across. */
  size_t *few = NULL, n_few = 0, cols = 0;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hpx_html_censuses(p, b, 2000, &few, &n_few, &cols, &err),
                   HP2X_OK);
  assert_true(cols < HPX_PAGE_COLUMNS && n_few <= cols + 3 && n_few < N);
  int found = 0; /* a power of two seconds from the first census */
  for (int e = -10; e <= 10 && !found; e++) {
    k = (hpx_html_buckets){p->times[0], ldexp(1.0, e)};
    found = hpx_html_choose(p, b, total, &k, N, held) == n_few &&
            !memcmp(held, few, n_few * sizeof *few) &&
            ceil(b->xrange / k.width) == (double)cols;
  }
  assert_true(found);
  check_choice(p, b, total, &k, few, n_few);
  free(total), free(held), hpx_free(few);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* Past 3,200 censuses: between 1,600 and 3,200 buckets across the axis,
 * and as the run grows, a held census is never one the shorter run had
 * and did not hold (a bucket only merges with its neighbour). */
static void test_censuses_nest(void **state) {
  (void)state;
  size_t *before = NULL, n_before = 0, N_before = 0;
  for (size_t N = 3201; N < 7000; N += 397) {
    hp2x_profile *p;
    hp2x_bands *b;
    make_profile(N, &p, &b);
    size_t *held = NULL, n = 0, cols = 0;
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(hpx_html_censuses(p, b, SIZE_MAX, &held, &n, &cols, &err),
                     HP2X_OK);
    assert_true(cols > HPX_PAGE_COLUMNS / 2 && cols <= HPX_PAGE_COLUMNS);
    assert_true(n < N && n > cols / 2);
    for (size_t i = 0, j = 0; i < n && held[i] < N_before; i++) {
      while (j < n_before && before[j] < held[i]) j++;
      assert_true(j < n_before && before[j] == held[i]);
    }
    hpx_free(before);
    before = held, n_before = n, N_before = N;
    hp2x_bands_free(b);
    hp2x_profile_free(p);
  }
  hpx_free(before);
}

/* The profile of n censuses 0.01 s apart from 0.37 s, values that wiggle,
 * read bounded by a picture of `columns` device columns (0: every
 * sample), and its bands. */
static void wiggle(size_t n, size_t columns, hp2x_profile **p, hp2x_bands **b) {
  char *text = malloc(200 + n * 80);
  assert_non_null(text);
  size_t at = (size_t)sprintf(text, "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT "
                                    "\"seconds\"\nVALUE_UNIT \"bytes\"\n");
  for (size_t s = 0; s < n; s++)
    at += (size_t)sprintf(
        text + at, "BEGIN_SAMPLE %.2f\na\t%zu\nb\t%zu\nEND_SAMPLE %.2f\n",
        0.37 + (double)s * 0.01, 100 + (s * 37) % 101, 50 + (s * s) % 53,
        0.37 + (double)s * 0.01);
  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  po.picture_columns = columns;
  assert_int_equal(test_profile_bands(text, at, &po, p, b), HP2X_OK);
  free(text);
}

/* The buckets nest over the bounded profile's (a watched run's, thinned
 * to its picture): the report of the thinned profile holds the censuses
 * and values of the report of every sample. */
static void test_censuses_over_bounded(void **state) {
  (void)state;
  hp2x_profile *p[2];
  hp2x_bands *b[2];
  size_t *held[2], n[2], cols[2];
  hp2x_err err;
  hp2x_err_init(&err);
  for (int i = 0; i < 2; i++) {
    wiggle(30000, i ? 5401 : 0, &p[i], &b[i]);
    assert_int_equal(hpx_html_censuses(p[i], b[i], SIZE_MAX, &held[i], &n[i],
                                       &cols[i], &err),
                     HP2X_OK);
  }
  assert_true(b[1]->n_samples < b[0]->n_samples); /* it thinned */
  assert_int_equal(n[0], n[1]);
  assert_int_equal(cols[0], cols[1]);
  for (size_t j = 0; j < n[0]; j++) {
    assert_true(p[0]->times[held[0][j]] == p[1]->times[held[1][j]]);
    for (size_t k = 0; k < b[0]->n_bands; k++)
      assert_true(b[0]->values[k * b[0]->stride + held[0][j]] ==
                  b[1]->values[k * b[1]->stride + held[1][j]]);
  }
  for (int i = 0; i < 2; i++) {
    hpx_free(held[i]);
    hp2x_bands_free(b[i]);
    hp2x_profile_free(p[i]);
  }
}

/* While they fit, every census is held, even censuses closer than a column
 * (a loaded runtime writes some a few milliseconds apart). */
static void test_censuses_all_held(void **state) {
  (void)state;
  static const char text[] =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
      "VALUE_UNIT \"bytes\"\n"
      "BEGIN_SAMPLE 0.000000\na\t5\nEND_SAMPLE 0.000000\n"
      "BEGIN_SAMPLE 0.000100\na\t9\nEND_SAMPLE 0.000100\n"
      "BEGIN_SAMPLE 0.000200\na\t7\nEND_SAMPLE 0.000200\n"
      "BEGIN_SAMPLE 10.000000\na\t6\nEND_SAMPLE 10.000000\n";
  hp2x_profile *p;
  hp2x_bands *b;
  profile_of(text, sizeof text - 1, &p, &b);
  size_t *held = NULL, n = 0, cols = 0;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(
      hpx_html_censuses(p, b, HPX_PAGE_BYTES, &held, &n, &cols, &err), HP2X_OK);
  assert_int_equal(n, b->n_samples);
  for (size_t i = 0; i < n; i++) assert_int_equal(held[i], i);
  hpx_free(held);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The censuses' exact times: the fewest decimals (6 to 9) that read back
 * as the time, else 17 digits; needed only where the CSV's six decimals
 * do not read back (a time of 9 decimals, an eventlog's), and then in the
 * page's JSON as "tx". */
static void test_exact_times(void **state) {
  (void)state;
  char num[64];
  assert_int_equal(hpx_html_exact_time(num, sizeof num, 0.5), 8);
  assert_string_equal(num, "0.500000");
  hpx_html_exact_time(num, sizeof num, 0.200678648);
  assert_string_equal(num, "0.200678648");
  hpx_html_exact_time(num, sizeof num, 1.0 / 3.0);
  assert_string_equal(num, "0.33333333333333331");
  hpx_html_exact_time(num, sizeof num, 1e300);
  assert_string_equal(num, "1.0000000000000001e+300");
  static const char six[] = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
                            "VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.123456789\n"
                            "a\t6\nEND_SAMPLE 0.123456789\nBEGIN_SAMPLE "
                            "0.25\na\t5\nEND_SAMPLE 0.25\n";
  hp2x_profile *p;
  hp2x_bands *b;
  profile_of(six, sizeof six - 1, &p, &b);
  size_t held[2] = {1, 0};
  assert_false(hpx_html_needs_exact_times(p, held, 1));
  assert_true(hpx_html_needs_exact_times(p, held, 2));
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  mem page = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &page, &err), HP2X_OK);
  assert_non_null(strstr(page.buf, "\"t\":[\"0.123457\",\"0.250000\"],"
                                   "\"tx\":[0.123456789,0.250000]"));
  free(page.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void test_json_strings(void **state) {
  (void)state;
  mem m = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  writebuf w;
  assert_int_equal(hpx_writebuf_init(&w, mem_write, &m, &err), HP2X_OK);
  hpx_html_json_str(&w, "a<\"\\>&\n\x01\xe2\x80\xa8z");
  hpx_html_text(&w, " <i a='b'>&");
  assert_int_equal(hpx_writebuf_finish(&w, &err), HP2X_OK);
  assert_string_equal(m.buf, "\"a\\u003c\\\"\\\\\\u003e\\u0026\\u000a\\u0001"
                             "\\u2028z\" &lt;i a=&#39;b&#39;&gt;&amp;");
  free(m.buf);
}

/* The text from the last "<script>" of page up to its end. */
static const char *last_script(const char *page) {
  const char *at = NULL;
  for (const char *k = strstr(page, "<script>"); k;
       k = strstr(k + 1, "<script>"))
    at = k;
  return at;
}

static void test_live_pages(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(10, &p, &b);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  mem live = {0}, waiting = {0}, since = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_live_html(p, b, &o, 3, mem_write, &live, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_write_live_waiting_html(-1, mem_write, &waiting, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_write_live_waiting_html(7, mem_write, &since, &err),
                   HP2X_OK);
  assert_non_null(
      strstr(live.buf, "<html lang=\"en\" data-hp2x-redraw=\"3\">"));
  assert_non_null(
      strstr(since.buf, "<html lang=\"en\" data-hp2x-redraw=\"7\">"));
  assert_non_null(strstr(waiting.buf, "<html lang=\"en\">"));
  const mem *pages[] = {&live, &waiting, &since};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(strncmp(pages[i]->buf, "<!DOCTYPE html>", 15), 0);
    assert_non_null(strstr(pages[i]->buf, "connect-src 'self'"));
    assert_non_null(strstr(pages[i]->buf, "id=\"hp2x-live-status\""));
    assert_non_null(strstr(pages[i]->buf, "navigator.locks.request"));
    assert_non_null(strstr(pages[i]->buf, "</html>\n"));
  }
  /* no report on the waiting pages; their script is the live page's */
  assert_null(strstr(waiting.buf, "id=\"hp2x-report\""));
  assert_null(strstr(since.buf, "id=\"hp2x-report\""));
  assert_non_null(strstr(live.buf, "id=\"hp2x-report\""));
  assert_string_equal(last_script(waiting.buf), last_script(live.buf));
  /* and the report's, to show the report it fetches in place */
  for (int i = 0; i < 3; i++)
    assert_non_null(strstr(pages[i]->buf, "hp2x.report = function"));
  assert_non_null(strstr(waiting.buf, "<title>hp2x</title>"));
  /* A sink that fails. */
  mem full = {0};
  full.fail_after = 100;
  assert_int_equal(hp2x_write_live_waiting_html(-1, mem_write, &full, &err),
                   HP2X_E_IO);
  free(live.buf), free(waiting.buf), free(since.buf), free(full.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The text of "key": in j up to the next ',"' or '}' at the same depth. */
static void json_member(const char *j, const char *key, char *out,
                        size_t size) {
  char k[64];
  snprintf(k, sizeof k, "\"%s\":", key);
  const char *at = strstr(j, k);
  assert_non_null(at);
  at += strlen(k);
  size_t n = 0;
  int depth = 0, str = 0;
  for (; at[n]; n++) {
    char c = at[n];
    if (str) {
      if (c == '\\')
        n++;
      else if (c == '"')
        str = 0;
      continue;
    }
    if (c == '"')
      str = 1;
    else if (c == '[' || c == '{')
      depth++;
    else if ((c == ']' || c == '}') && depth-- == 0)
      break;
    else if (c == ',' && depth == 0)
      break;
  }
  assert_true(n < size);
  memcpy(out, at, n);
  out[n] = '\0';
}

static void test_live_update(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(10, &p, &b);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  mem up = {0}, page = {0}, all = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &up, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_write_live_html(p, b, &o, 1, mem_write, &page, &err),
                   HP2X_OK);
  char got[4096], want[4096];
  /* the newest three censuses: times as the CSV's, each band's values
   * (bands bottom up: "<b>&\"" of 10 s, then "a" of 100 + 37 s % 50) */
  json_member(up.buf, "t", got, sizeof got);
  assert_string_equal(got, "[\"0.700000\",\"0.800000\",\"0.900000\"]");
  json_member(up.buf, "v", got, sizeof got);
  assert_string_equal(got, "[[70,80,90],[109,146,133]]");
  assert_null(strstr(up.buf, "\"tx\":")); /* the .hp's times read back */
  json_member(up.buf, "samples", got, sizeof got);
  assert_string_equal(got, "10");
  /* the band set and the run's figures as the page's data has them */
  const char *data = strstr(page.buf, "id=\"hp2x-data\">");
  assert_non_null(data);
  const char *keys[] = {"set",    "x0",      "xrange",  "ymin",
                        "yrange", "tickEnd", "topPeak", "topPeakAt"};
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    json_member(up.buf, keys[i], got, sizeof got);
    json_member(data, keys[i], want, sizeof want);
    assert_string_equal(got, want);
  }
  json_member(up.buf, "set", got, sizeof got);
  assert_int_equal(strlen(got), 18); /* 16 hex digits, quoted */
  json_member(up.buf, "axes", got, sizeof got);
  assert_non_null(strstr(got, "\"percent\":[0,100]"));
  json_member(data, "total", want, sizeof want); /* the first band's */
  json_member(up.buf, "total", got, sizeof got);
  assert_string_equal(got, want);
  /* labels are not in it: the page has them */
  assert_null(strstr(up.buf, "<b>"));
  assert_null(strstr(up.buf, "script"));
  /* a tail beyond the censuses (or 64) is all of them */
  assert_int_equal(hp2x_write_live_update(p, b, 1000, mem_write, &all, &err),
                   HP2X_OK);
  json_member(all.buf, "t", got, sizeof got);
  assert_int_equal(strncmp(got, "[\"0.000000\",\"0.100000\",", 23), 0);
  /* no tail, no census, a failing sink */
  assert_int_equal(hp2x_write_live_update(p, b, 0, mem_write, &all, &err),
                   HP2X_E_ARG);
  assert_int_equal(hp2x_write_live_update(p, NULL, 3, mem_write, &all, &err),
                   HP2X_E_ARG);
  mem full = {0};
  full.fail_after = 50;
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &full, &err),
                   HP2X_E_IO);
  free(up.buf), free(page.buf), free(all.buf), free(full.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* A new band set's key (hp2x_write_live_key): its set as the update's,
 * the bands' names and colours and the key's and graph's places as the
 * page's data has them; labels escaped. */
static void test_live_key(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(10, &p, &b);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  mem key = {0}, up = {0}, page = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_live_key(p, b, &o, mem_write, &key, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &up, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_write_live_html(p, b, &o, 1, mem_write, &page, &err),
                   HP2X_OK);
  const char *data = strstr(page.buf, "id=\"hp2x-data\">");
  assert_non_null(data);
  char got[4096], want[4096];
  json_member(key.buf, "set", got, sizeof got);
  json_member(up.buf, "set", want, sizeof want);
  assert_string_equal(got, want);
  const char *same[] = {"graph",    "xRoom", "keyX",   "keyW",  "keyC",
                        "keyNames", "name",  "colour", "detail"};
  for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
    json_member(key.buf, same[i], got, sizeof got);
    json_member(data, same[i], want, sizeof want);
    assert_string_equal(got, want);
  }
  json_member(key.buf, "keyNames", got, sizeof got);
  assert_non_null(strstr(got, "\\u003cb\\u003e")); /* "<b>&\"", escaped */
  assert_null(strstr(key.buf, "<b>"));
  json_member(data, "keyTextDx", got, sizeof got);
  assert_string_equal(got, "24");
  /* no bands, a failing sink */
  assert_int_equal(hp2x_write_live_key(p, NULL, &o, mem_write, &key, &err),
                   HP2X_E_ARG);
  mem full = {0};
  full.fail_after = 20;
  assert_int_equal(hp2x_write_live_key(p, b, &o, mem_write, &full, &err),
                   HP2X_E_IO);
  free(key.buf), free(up.buf), free(page.buf), free(full.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The budget member of a page's data, as a number. */
static long budget_of(const char *page) {
  const char *m = strstr(page, "\"budget\":");
  assert_non_null(m);
  return strtol(m + 9, NULL, 10);
}

/* The lean live page (hp2x_write_live_lean_html): the live page without
 * its PNG (never drawn) and scripts, its budget the live page's, the
 * censuses held within it past 60 KB as below. */
static void test_live_lean(void **state) {
  (void)state;
  static const size_t sizes[] = {10, 8000}; /* ~0.3 KB, past 60 KB held */
  for (size_t t = 0; t < 2; t++) {
    hp2x_profile *p;
    hp2x_bands *b;
    make_profile(sizes[t], &p, &b);
    hp2x_options o;
    test_options_init(&o);
    o.format = HP2X_FORMAT_HTML;
    mem live = {0}, lean = {0};
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(hp2x_write_live_html(p, b, &o, 4, mem_write, &live, &err),
                     HP2X_OK);
    assert_int_equal(
        hp2x_write_live_lean_html(p, b, &o, 4, mem_write, &lean, &err),
        HP2X_OK);
    static const char png[] = "src=\"data:image/png;base64,";
    const char *a = strstr(live.buf, png), *l = strstr(lean.buf, png);
    assert_non_null(a), assert_non_null(l);
    /* the same page up to the PNG, which the lean one leaves out */
    assert_int_equal(a - live.buf, l - lean.buf);
    assert_memory_equal(live.buf, lean.buf, (size_t)(a - live.buf));
    assert_int_equal(l[sizeof png - 1], '"');
    assert_int_not_equal(a[sizeof png - 1], '"');
    /* the same picture and data, no script */
    const char *sa = strstr(a, "<svg"), *sl = strstr(l, "<svg");
    const char *da = strstr(a, "id=\"hp2x-data\">");
    const char *dl = strstr(l, "id=\"hp2x-data\">");
    assert_non_null(sa), assert_non_null(sl);
    assert_int_equal(da - sa, dl - sl);
    assert_memory_equal(sa, sl, (size_t)(da - sa));
    assert_non_null(strstr(live.buf, "hp2x.report = function"));
    assert_null(strstr(lean.buf, "hp2x.report = function"));
    assert_null(strstr(lean.buf, "navigator.locks"));
    assert_non_null(strstr(lean.buf, "</script>\n</body>\n</html>\n"));
    /* the same budget: the censuses held do not depend on the PNG */
    assert_int_equal(budget_of(lean.buf), budget_of(live.buf));
    assert_int_equal(budget_of(live.buf),
                     (long)hpx_html_census_budget(p, b, NULL));
    assert_true(budget_of(live.buf) > HPX_PAGE_MIN_VALUE_BYTES);
    assert_int_equal(
        hp2x_write_live_lean_html(p, b, &o, -1, mem_write, &lean, &err),
        HP2X_E_ARG);
    free(live.buf), free(lean.buf);
    hp2x_bands_free(b);
    hp2x_profile_free(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_output_is_the_writer),
      cmocka_unit_test(test_censuses_held),
      cmocka_unit_test(test_censuses_nest),
      cmocka_unit_test(test_censuses_over_bounded),
      cmocka_unit_test(test_censuses_all_held),
      cmocka_unit_test(test_exact_times),
      cmocka_unit_test(test_json_strings),
      cmocka_unit_test(test_live_pages),
      cmocka_unit_test(test_live_update),
      cmocka_unit_test(test_live_key),
      cmocka_unit_test(test_live_lean),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
