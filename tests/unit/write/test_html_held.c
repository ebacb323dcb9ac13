/* test_html_held.c -- what changed in the censuses a live page holds
 * (hp2x_write_live_step, html_held.c): while the report holds every
 * census, no change is said and the sums are the run's; once it thins,
 * the runs of the previous update's censuses kept and the censuses added
 * give, applied to the previous held times, exactly this redraw's held
 * censuses (the report's "t" and count); an older redraw, or none before,
 * is written against none (base -1) and leaves the held set; times that
 * do not increase leave no base for the next; a failing sink leaves the
 * held set.  The buckets only merge as the run grows, so every census
 * added is newer than the previous update's last, past a doubling of
 * their width too.  With --heap, each update carries the heap lines whole,
 * as the report of its redraw writes them (thinned over the time axis);
 * none without --heap.  (The marks: test_html_live.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hp2x.h"
#include "write/html_int.h"
#include "test_options.h"
#include "mem_sink.h"
#include "live_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The numbers of JSON member `key`'s array (strings read as numbers too)
 * after `from` in text, into v (room for `most`); returns how many, or -1
 * when there is no such member. */
static long numbers_of(const char *text, const char *key, double *v,
                       size_t most) {
  char k[64];
  snprintf(k, sizeof k, "\"%s\":[", key);
  const char *at = strstr(text, k);
  if (!at) return -1;
  at += strlen(k);
  size_t n = 0;
  for (int depth = 1; *at && depth > 0;) {
    if (*at == '[' || *at == ']' || *at == ',' || *at == '"') {
      depth += *at == '[' ? 1 : *at == ']' ? -1 : 0;
      at++;
      continue;
    }
    char *end;
    double x = strtod(at, &end);
    assert_true(end > at);
    assert_true(n < most);
    v[n++] = x;
    at = end;
  }
  return (long)n;
}

/* Each band's sum over the report's held censuses as the update says
 * them: the sums of the "v" arrays of the page's data. */
static void test_every_census_held(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(30, 0, &p, &b);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 7, &held, mem_write, &up, &err),
      HP2X_OK);
  assert_null(strstr(up.buf, "\"thin\"")); /* the report holds every one */
  assert_true(number_of(up.buf, "held") == 30);
  assert_true(number_of(up.buf, "columns") == HPX_PAGE_MIN_COLUMNS);
  assert_int_equal(held.redraw, 7);
  assert_int_equal(held.n, 30);
  /* the first band's sum: over every census */
  uint64_t sum = 0;
  for (size_t s = 0; s < 30; s++) sum += (uint64_t)b->values[s];
  char want[40];
  snprintf(want, sizeof want, "\"sum\":\"%llu\"", (unsigned long long)sum);
  assert_non_null(strstr(up.buf, want));
  /* the stateless update says the same */
  mem plain = {0};
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &plain, &err),
                   HP2X_OK);
  assert_int_equal(plain.len, up.len);
  assert_memory_equal(plain.buf, up.buf, up.len);
  hp2x_live_held_clear(&held);
  hp2x_live_held_clear(&held); /* twice: nothing held */
  hp2x_live_held_clear(NULL);
  free(up.buf), free(plain.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* A thinned report's update of n censuses against `held`, checked: its
 * change applied to the previous held times gives the report's "t". */
static void step_and_check(size_t n, long redraw, hp2x_live_held *held) {
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(n, 0, &p, &b);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  size_t nb = held->n, most = 4 * n + 16;
  double *before = malloc((nb + 1) * sizeof *before);
  double *runs = malloc(most * sizeof *runs), *added = malloc(most * 8);
  double *want = malloc(most * sizeof *want), *got = malloc(most * 8);
  assert_true(before && runs && added && want && got);
  if (nb) memcpy(before, held->times, nb * sizeof *before);
  long base = held->redraw;
  mem up = {0}, page = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, redraw, held, mem_write, &up, &err),
      HP2X_OK);
  assert_int_equal(
      hp2x_write_live_html(p, b, &o, redraw, mem_write, &page, &err), HP2X_OK);
  const char *data = strstr(page.buf, "id=\"hp2x-data\">");
  assert_non_null(data);
  long nw = numbers_of(data, "t", want, most);
  assert_true(nw > 0 && (size_t)nw < n); /* it thins */
  assert_true(number_of(up.buf, "held") == (double)nw);
  assert_true(number_of(up.buf, "columns") == number_of(data, "columns"));
  assert_int_equal(held->redraw, redraw);
  assert_int_equal(held->n, (size_t)nw);
  const char *thin = strstr(up.buf, "\"thin\":{");
  assert_non_null(thin);
  assert_true(number_of(thin, "base") == (double)base);
  if (base >= 0) {
    assert_true(number_of(thin, "of") == (double)nb);
    long nr = numbers_of(thin, "runs", runs, most);
    long na = numbers_of(thin, "t", added, most);
    assert_true(nr >= 3 && nr % 3 == 0 && na >= 0);
    size_t g = 0, a = 0;
    for (long r = 0; r < nr; r += 3) {
      size_t from = (size_t)runs[r], keep = (size_t)runs[r + 1],
             more = (size_t)runs[r + 2];
      assert_true(from + keep <= nb);
      for (size_t i = from; i < from + keep; i++) got[g++] = before[i];
      for (size_t i = 0; i < more; i++) got[g++] = added[a++];
    }
    assert_int_equal(a, (size_t)na); /* every census added placed */
    assert_int_equal(g, (size_t)nw);
    for (size_t i = 0; i < g; i++)
      assert_true(got[i] > want[i] - 5e-7 && got[i] < want[i] + 5e-7);
    /* fewer added than held: the rest was the page's; every one added
     * newer than the page's last (the buckets nest) */
    assert_true((size_t)na < g);
    for (long i = 0; i < na; i++) assert_true(added[i] > before[nb - 1]);
  }
  for (size_t i = 0; i < held->n; i++)
    assert_true(held->times[i] > want[i] - 5e-7 &&
                held->times[i] < want[i] + 5e-7);
  free(before), free(runs), free(added), free(want), free(got);
  free(up.buf), free(page.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void test_thinned_steps(void **state) {
  (void)state;
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  step_and_check(3300, 1, &held); /* none before: base -1 */
  step_and_check(3301, 2, &held); /* one census more */
  step_and_check(3320, 3, &held); /* several */
  step_and_check(3500, 5, &held); /* a gap of redraws: against the last */
  step_and_check(6000, 6, &held); /* the buckets twice as wide (at 5,001) */
  step_and_check(6005, 7, &held);
  hp2x_live_held_clear(&held);
}

/* An older redraw than held's, a failing sink: written against none or
 * failed, held left as it was; times that do not increase: no base
 * next. */
static void test_no_base(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(3300, 0, &p, &b);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0}, old = {0}, full = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 9, &held, mem_write, &up, &err),
      HP2X_OK);
  size_t n = held.n;
  /* the stateless update: against none, and no reason (times increase) */
  mem plain = {0};
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &plain, &err),
                   HP2X_OK);
  assert_non_null(strstr(plain.buf, "\"thin\":{\"base\":-1}"));
  free(plain.buf);
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 8, &held, mem_write, &old, &err),
      HP2X_OK);
  assert_non_null(strstr(old.buf, "\"thin\":{\"base\":-1}"));
  assert_int_equal(held.redraw, 9);
  assert_int_equal(held.n, n);
  full.fail_after = 100;
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 10, &held, mem_write, &full, &err),
      HP2X_E_IO);
  assert_int_equal(held.redraw, 9);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  /* (every census held: two of one time both are, in one column) */
  make_profile(100, 50, &p, &b); /* census 51 at census 50's time */
  mem same = {0}, back = {0};
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 11, &held, mem_write, &same, &err),
      HP2X_OK);
  assert_int_equal(held.redraw, -1); /* the next is written against none */
  assert_null(strstr(same.buf, "\"thin\"")); /* (every census held) */
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  make_profile(3300, 0, &p, &b);
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 12, &held, mem_write, &back, &err),
      HP2X_OK);
  assert_non_null(strstr(back.buf, "\"thin\":{\"base\":-1}"));
  assert_int_equal(held.redraw, 12);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  hp2x_live_held_clear(&held);
  free(up.buf), free(old.buf), free(full.buf), free(same.buf), free(back.buf);
}

/* The budget: a function of the data alone, the same for the live page,
 * the lean one and the update (the pictures at a fixed allowance). */
static void test_budget(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(100, 0, &p, &b);
  size_t budget = hpx_html_census_budget(p, b, NULL);
  assert_true(budget >= HPX_PAGE_MIN_VALUE_BYTES);
  assert_true(budget <= HPX_PAGE_VALUE_BYTES);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_HTML;
  mem live = {0}, lean = {0}, report = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_live_html(p, b, &o, 1, mem_write, &live, &err),
                   HP2X_OK);
  assert_int_equal(
      hp2x_write_live_lean_html(p, b, &o, 1, mem_write, &lean, &err), HP2X_OK);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &report, &err),
                   HP2X_OK);
  assert_true(number_of(live.buf, "budget") == (double)budget);
  assert_true(number_of(lean.buf, "budget") == (double)budget);
  assert_true(number_of(report.buf, "budget") == (double)budget);
  free(live.buf), free(lean.buf), free(report.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The update's --heap lines: each the report's line's points, after its
 * name; none without --heap (o NULL, or o->heap_overlay 0). */
static void test_heap_lines(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  hp2x_err err;
  hp2x_err_init(&err);
  make_profile(30, 0, &p, &b);
  hp2x_bands_free(b);
  /* heap size: more points than the line's columns (thinned); live bytes:
   * a few */
  for (size_t i = 0; i < 8 * HPX_PAGE_LINE_COLUMNS; i++)
    assert_int_equal(
        hpx_profile_series_add(&p->heap[HPX_HEAP_SIZE],
                               0.29 * (double)i / (8.0 * HPX_PAGE_LINE_COLUMNS),
                               9000 + (int64_t)((i * 7919) % 4001), &err),
        HP2X_OK);
  for (size_t i = 0; i < 5; i++)
    assert_int_equal(hpx_profile_series_add(&p->heap[HPX_HEAP_LIVE],
                                            0.07 * (double)i,
                                            5000 + (int64_t)i * 10, &err),
                     HP2X_OK);
  hp2x_options o;
  test_options_init(&o);
  o.heap_overlay = 1;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0}, report = {0}, plain = {0}, off = {0};
  assert_int_equal(
      hp2x_write_live_step(p, b, &o, 3, 1, &held, mem_write, &up, &err),
      HP2X_OK);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &report, &err),
                   HP2X_OK);
  const char *names[] = {"heap size", "live bytes"};
  const char *lines = strstr(up.buf, "\"lines\":[{");
  assert_non_null(lines);
  assert_null(strstr(lines + 1, "\"lines\":")); /* one member */
  for (size_t i = 0; i < 2; i++) {
    /* the report's "t" and "y", after its name, rgb and dash */
    char name[40];
    snprintf(name, sizeof name, "{\"name\":\"%s\",", names[i]);
    const char *r = strstr(report.buf, name);
    assert_non_null(r);
    r = strstr(r, "\"t\":[");
    const char *end = strstr(r, "]}");
    assert_non_null(end);
    size_t n = (size_t)(end + 2 - r);
    char *want = malloc(strlen(name) + n + 1);
    assert_non_null(want);
    sprintf(want, "%s%.*s", name, (int)n, r);
    assert_non_null(strstr(lines, want));
    free(want);
  }
  double t[8 * HPX_PAGE_LINE_COLUMNS];
  long kept =
      numbers_of(strstr(lines, "heap size"), "t", t, sizeof t / sizeof *t);
  assert_true(kept > 5 && kept < 8 * HPX_PAGE_LINE_COLUMNS); /* thinned */
  /* none without --heap (the axes have a "lines" chart kind: not a line) */
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &plain, &err),
                   HP2X_OK);
  assert_null(strstr(plain.buf, "\"lines\":[{"));
  o.heap_overlay = 0;
  assert_int_equal(
      hp2x_write_live_step(p, b, &o, 3, 2, &held, mem_write, &off, &err),
      HP2X_OK);
  assert_null(strstr(off.buf, "\"lines\":[{"));
  hp2x_live_held_clear(&held);
  free(up.buf), free(report.buf), free(plain.buf), free(off.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_census_held),
      cmocka_unit_test(test_thinned_steps),
      cmocka_unit_test(test_no_base),
      cmocka_unit_test(test_budget),
      cmocka_unit_test(test_heap_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
