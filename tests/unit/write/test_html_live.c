/* test_html_live.c -- the marks in a live page's updates
 * (hp2x_write_live_update, hp2x_write_live_step, html_live.c): the
 * stateless update carries them whole, as the report writes them, labels
 * escaped; a step says their count and fingerprint ("markSum", the
 * report's too) always, and carries them only while one of the last
 * HP2X_LIVE_MARK_WINDOW updates said others (new ones, others of the same
 * count, none after some): those after the fewest any of those held, for
 * the pages whose markSum is one those said ("marksBase"), when the marks
 * each said begin the new ones, a state several updates back as well as
 * the last, none older than the window; whole when marks were dropped
 * (as thinning or --last drop them); none past the cap of their JSON, the
 * count alone moving.  Their JSON, escapes counted, stays within
 * HPX_PAGE_MARK_BYTES.
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

/* n bytes at `at`, copied and NUL-ended. */
static char *copy_n(const char *at, size_t n) {
  char *out = malloc(n + 1);
  assert_non_null(out);
  memcpy(out, at, n), out[n] = 0;
  return out;
}

/* The JSON member "marks":[...] of text (its brackets matched outside
 * strings), copied; NULL when there is none. */
static char *marks_of(const char *text) {
  const char *at = strstr(text, "\"marks\":[");
  if (!at) return NULL;
  const char *c = at + strlen("\"marks\":");
  int depth = 0, in_str = 0;
  for (; *c; c++) {
    if (in_str) {
      if (*c == '\\')
        c++;
      else if (*c == '"')
        in_str = 0;
    } else if (*c == '"') {
      in_str = 1;
    } else if (*c == '[' || *c == ']') {
      depth += *c == '[' ? 1 : -1;
      if (depth == 0) break;
    }
  }
  assert_int_equal(*c, ']');
  return copy_n(at, (size_t)(c + 1 - at));
}

/* The update's marks: the report's, whole, labels escaped (no '<' nor a
 * raw newline); their count; "[]" without marks. */
static void test_marks(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(30, 0, &p, &b);
  mem none = {0}, up = {0}, report = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &none, &err),
                   HP2X_OK);
  char *empty = marks_of(none.buf);
  assert_string_equal(empty, "\"marks\":[]");
  free(empty);
  assert_true(number_of(none.buf, "markCount") == 0);
  const char *labels[] = {"", "say \"hi\"", "<script>x</script>", "two\nlines"};
  for (size_t m = 0; m < 4; m++)
    assert_int_equal(hpx_profile_add_mark(p, 0.05 + 0.07 * (double)m, labels[m],
                                          strlen(labels[m]), &err),
                     HP2X_OK);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, 1, &held, mem_write, &up, &err),
      HP2X_OK);
  hp2x_options o;
  test_options_init(&o);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &report, &err),
                   HP2X_OK);
  char *got = marks_of(up.buf), *want = marks_of(report.buf);
  assert_non_null(got);
  assert_non_null(want);
  assert_string_equal(got, want);
  assert_true(number_of(up.buf, "markCount") == 4);
  assert_non_null(strstr(got, "\"say \\\"hi\\\"\""));
  assert_null(strchr(got, '<'));
  assert_null(strchr(got, '\n'));
  assert_non_null(strstr(got, "\\u003cscript"));
  hp2x_live_held_clear(&held);
  free(got), free(want);
  free(none.buf), free(up.buf), free(report.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The text of string member `key` of text (copied; NULL: none). */
static char *member_text(const char *text, const char *key) {
  char k[64];
  snprintf(k, sizeof k, "\"%s\":\"", key);
  const char *at = strstr(text, k);
  if (!at) return NULL;
  at += strlen(k);
  const char *end = strchr(at, '"');
  assert_non_null(end);
  return copy_n(at, (size_t)(end - at));
}

/* The "markSum" string of text (16 hex digits), into sum[17]. */
static void mark_sum_of(const char *text, char sum[17]) {
  char *at = member_text(text, "markSum");
  assert_non_null(at);
  assert_int_equal(strlen(at), 16);
  memcpy(sum, at, 17);
  free(at);
}

/* p's update of redraw r against held: into *out (freed by the caller),
 * its markSum into sum; whether it carries the marks. */
static int step_marks(const hp2x_profile *p, const hp2x_bands *b, long r,
                      hp2x_live_held *held, mem *out, char sum[17]) {
  hp2x_err err;
  hp2x_err_init(&err);
  free(out->buf);
  *out = (mem){0};
  assert_int_equal(
      hp2x_write_live_step(p, b, NULL, 3, r, held, mem_write, out, &err),
      HP2X_OK);
  mark_sum_of(out->buf, sum);
  return strstr(out->buf, "\"marks\":") != NULL;
}

/* How many fingerprints the update's "marksBase" lists (-1: none). */
static int bases_of(const char *text) {
  const char *at = strstr(text, "\"marksBase\":[");
  if (!at) return -1;
  int n = 0;
  for (at += strlen("\"marksBase\":["); *at != ']'; at++) n += *at == '"';
  return n / 2;
}

/* Whether fingerprint sum is among the update's "marksBase". */
static int in_bases(const char *text, const char *sum) {
  const char *at = strstr(text, "\"marksBase\":[");
  if (!at) return 0;
  const char *end = strchr(at, ']'), *found = strstr(at, sum);
  return found && found < end;
}

/* A step carries the marks while one of the last HP2X_LIVE_MARK_WINDOW
 * updates said others (new ones, others of the same count, none after
 * some), then no more; its markSum is the report's of its profile; an
 * older redraw leaves held. */
static void test_marks_on_change(void **state) {
  (void)state;
  hp2x_profile *p, *q, *bare;
  hp2x_bands *b, *bq, *bb;
  make_profile(30, 0, &p, &b);
  make_profile(30, 0, &q, &bq);
  make_profile(30, 0, &bare, &bb);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0}, report = {0};
  char s0[17], s1[17], s2[17], s3[17], rs[17];
  assert_true(step_marks(p, b, 1, &held, &up, s0)); /* none said before */
  assert_false(step_marks(p, b, 2, &held, &up, s1));
  assert_string_equal(s0, s1);
  assert_true(number_of(up.buf, "markCount") == 0);
  assert_int_equal(hpx_profile_add_mark(p, 0.1, "a", 1, &err), HP2X_OK);
  assert_int_equal(hpx_profile_add_mark(q, 0.1, "b", 1, &err), HP2X_OK);
  assert_true(step_marks(p, b, 3, &held, &up, s1)); /* a new mark */
  assert_string_not_equal(s0, s1);
  assert_true(number_of(up.buf, "markCount") == 1);
  hp2x_options o;
  test_options_init(&o);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &report, &err),
                   HP2X_OK);
  mark_sum_of(report.buf, rs); /* the report's data says the same */
  assert_string_equal(rs, s1);
  /* updates 1 and 2 said none: the marks ride (whole: a page with none
   * keeps none) until they are out of the window, the 35th */
  long r = 4;
  for (; r <= 34; r++) {
    assert_true(step_marks(p, b, r, &held, &up, s2));
    assert_null(strstr(up.buf, "\"marksFrom\""));
  }
  assert_false(step_marks(p, b, r++, &held, &up, s2));
  assert_string_equal(s1, s2);
  assert_true(step_marks(q, bq, r++, &held, &up, s2)); /* same count, other */
  assert_string_not_equal(s1, s2);
  assert_true(number_of(up.buf, "markCount") == 1);
  assert_null(strstr(up.buf, "\"marksFrom\"")); /* not after "a" */
  char *got = marks_of(up.buf);
  assert_non_null(strstr(got, "\"b\""));
  free(got);
  assert_true(step_marks(bare, bb, r++, &held, &up, s3)); /* none after some */
  assert_string_equal(s3, s0);
  got = marks_of(up.buf);
  assert_string_equal(got, "\"marks\":[]");
  free(got);
  /* an older redraw: against held's marks, held kept */
  long last = held.redraw;
  assert_true(step_marks(p, b, 2, &held, &up, s2));
  assert_int_equal(held.redraw, last);
  hp2x_live_held_clear(&held);
  assert_int_equal(held.marks_said, 0);
  free(up.buf), free(report.buf);
  hp2x_bands_free(b), hp2x_bands_free(bq), hp2x_bands_free(bb);
  hp2x_profile_free(p), hp2x_profile_free(q), hp2x_profile_free(bare);
}

/* Adds n marks to p, 0.01 s apart from `from` on, each of a label that
 * escaping makes six times longer (2,000 '<', "\u003c" each). */
static void add_long_marks(hp2x_profile *p, int from, int n) {
  char label[2001];
  memset(label, '<', 2000), label[2000] = 0;
  hp2x_err err;
  hp2x_err_init(&err);
  for (int m = from; m < from + n; m++)
    assert_int_equal(hpx_profile_add_mark(p, 0.01 * m, label, 2000, &err),
                     HP2X_OK);
}

/* Labels that escaping makes six times longer: the marks' JSON stays
 * within HPX_PAGE_MARK_BYTES, as many marks as fit in it. */
static void test_marks_cap(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(30, 0, &p, &b);
  add_long_marks(p, 0, 10);
  mem up = {0};
  assert_int_equal(hp2x_write_live_update(p, b, 3, mem_write, &up, &err),
                   HP2X_OK);
  char *got = marks_of(up.buf);
  size_t n = strlen(got), marks = 0;
  for (const char *c = got; (c = strstr(c, "[")); c++) marks++;
  assert_true(n - strlen("\"marks\":") <= HPX_PAGE_MARK_BYTES);
  assert_int_equal(marks - 1, HPX_PAGE_MARK_BYTES / 12020); /* 4 */
  assert_true(number_of(up.buf, "markCount") == 10);
  free(got), free(up.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* New marks after those said before: the update carries those alone,
 * after "marksFrom" (how many it leaves out) and "marksBase" (the
 * fingerprints said before, the update before's markSum); said before and
 * these make the report's. */
static void test_marks_appended(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(30, 0, &p, &b);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0}, report = {0};
  char s1[17], s2[17];
  assert_int_equal(hpx_profile_add_mark(p, 0.1, "a<", 2, &err), HP2X_OK);
  assert_true(step_marks(p, b, 1, &held, &up, s1));
  assert_null(strstr(up.buf, "\"marksFrom\""));
  char *first = marks_of(up.buf);
  assert_int_equal(hpx_profile_add_mark(p, 0.2, "b\"", 2, &err), HP2X_OK);
  assert_int_equal(hpx_profile_add_mark(p, 0.25, "", 0, &err), HP2X_OK);
  assert_true(step_marks(p, b, 2, &held, &up, s2));
  assert_true(number_of(up.buf, "marksFrom") == 1);
  char *more = marks_of(up.buf);
  assert_true(bases_of(up.buf) == 1 && in_bases(up.buf, s1));
  assert_string_equal(more, "\"marks\":[[0.2,\"b\\\"\"],[0.25,\"\"]]");
  hp2x_options o;
  test_options_init(&o);
  assert_int_equal(hp2x_write_html(p, b, &o, mem_write, &report, &err),
                   HP2X_OK);
  char *whole = marks_of(report.buf), joined[256];
  /* the first's "]" then ",", and the new ones after their "[" */
  snprintf(joined, sizeof joined, "%.*s,%s", (int)strlen(first) - 1, first,
           more + strlen("\"marks\":["));
  assert_string_equal(joined, whole);
  hp2x_live_held_clear(&held);
  free(first), free(more), free(whole);
  free(up.buf), free(report.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* Adds mark k (of time 0.001 k, label "mk") to p. */
static void add_mark(hp2x_profile *p, int k) {
  char label[16];
  int n = snprintf(label, sizeof label, "m%d", k);
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hpx_profile_add_mark(p, 0.001 * k, label, (size_t)n, &err),
                   HP2X_OK);
}

/* A mark a census, 40 updates: each after the first carries the marks
 * after the fewest the window's updates said, for a page in any of their
 * states (several back, the last), none older than the window. */
static void test_marks_window(void **state) {
  (void)state;
  char sums[41][17]; /* each update's markSum */
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0};
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(30, 0, &p, &b);
  for (int k = 1; k <= 40; k++) {
    add_mark(p, k);
    assert_true(step_marks(p, b, k, &held, &up, sums[k]));
    assert_true(number_of(up.buf, "markCount") == k);
    if (k == 1) {
      assert_null(strstr(up.buf, "\"marksFrom\"")); /* whole */
      continue;
    }
    int from = k - 1 - HP2X_LIVE_MARK_WINDOW + 1;
    from = from < 1 ? 1 : from; /* the fewest of the window's */
    assert_true(number_of(up.buf, "marksFrom") == from);
    assert_int_equal(bases_of(up.buf), k - from);
    for (int j = from; j < k; j++) assert_true(in_bases(up.buf, sums[j]));
    char *more = marks_of(up.buf), first[32];
    snprintf(first, sizeof first, ",\"m%d\"]", from + 1);
    assert_non_null(strstr(more, first));
    assert_ptr_equal(strstr(more, first), strstr(more, ",\"m"));
    free(more);
  }
  assert_true(in_bases(up.buf, sums[34])); /* 6 updates back */
  for (int j = 1; j < 8; j++)              /* older than the window */
    assert_false(in_bases(up.buf, sums[j]));
  hp2x_live_held_clear(&held);
  free(up.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* Marks dropped (the first, as thinning or --last drops them): the
 * window's marks do not begin the new ones, which come whole. */
static void test_marks_dropped(void **state) {
  (void)state;
  hp2x_profile *p, *q;
  hp2x_bands *b, *bq;
  make_profile(30, 0, &p, &b);
  make_profile(30, 0, &q, &bq);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0};
  char sum[17];
  for (int k = 1; k <= 5; k++) {
    add_mark(p, k);
    if (k > 1) add_mark(q, k);
    assert_true(step_marks(p, b, k, &held, &up, sum));
  }
  add_mark(q, 6);
  assert_true(step_marks(q, bq, 6, &held, &up, sum));
  assert_null(strstr(up.buf, "\"marksFrom\""));
  assert_int_equal(bases_of(up.buf), -1);
  char *got = marks_of(up.buf);
  assert_non_null(strstr(got, "[[0.002,\"m2\"]"));
  assert_non_null(strstr(got, "\"m6\"]]"));
  free(got);
  hp2x_live_held_clear(&held);
  free(up.buf);
  hp2x_bands_free(b), hp2x_bands_free(bq);
  hp2x_profile_free(p), hp2x_profile_free(q);
}

/* Past the cap of the marks' JSON, a new mark moves the count alone: the
 * update carries no mark, from all the report holds (marksFrom == 4). */
static void test_marks_past_cap(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make_profile(30, 0, &p, &b);
  add_long_marks(p, 0, 5);
  hp2x_live_held held = HP2X_LIVE_HELD_INIT;
  mem up = {0};
  char s1[17], s2[17];
  assert_true(step_marks(p, b, 1, &held, &up, s1));
  assert_int_equal(held.marks[0].shown, HPX_PAGE_MARK_BYTES / 12020); /* 4 */
  add_long_marks(p, 6, 1);
  assert_true(step_marks(p, b, 2, &held, &up, s2));
  assert_string_not_equal(s1, s2);
  assert_true(number_of(up.buf, "markCount") == 6);
  assert_true(number_of(up.buf, "marksFrom") == 4);
  assert_true(bases_of(up.buf) == 1 && in_bases(up.buf, s1));
  char *got = marks_of(up.buf);
  assert_string_equal(got, "\"marks\":[]");
  free(got);
  hp2x_live_held_clear(&held);
  free(up.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_marks),
      cmocka_unit_test(test_marks_on_change),
      cmocka_unit_test(test_marks_cap),
      cmocka_unit_test(test_marks_appended),
      cmocka_unit_test(test_marks_window),
      cmocka_unit_test(test_marks_dropped),
      cmocka_unit_test(test_marks_past_cap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
