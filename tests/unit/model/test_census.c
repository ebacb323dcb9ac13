/* test_census.c -- model/census.c: hp2x_census_choose picks the peak (the
 * earliest of equal totals, every label counted, a label written twice in
 * a census summed), the census nearest a time (the earlier of two as
 * near), the last, each within a window; an --at outside the run or the
 * window, a window that ends before it starts, no census, the peak of a
 * profile whose entries were dropped: each its error, naming the ranges;
 * the nearest and the last of such a profile, from its times; the run's
 * range as its message writes it taken for --at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/model.h"

#include <math.h>
#include <string.h>

/* Censuses at 0, 1, 2, 3, 4 s of totals 10, 50, 30, 50, 20 (two labels;
 * the census at 2 s holds label a twice). */
static hp2x_profile *five(void) {
  static const int64_t a[] = {10, 30, 10, 25, 20}, b[] = {0, 20, 10, 25, 0};
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  uint32_t ia, ib;
  assert_int_equal(hpx_profile_intern(p, "a", 1, NULL, 0, &ia, &err), HP2X_OK);
  assert_int_equal(hpx_profile_intern(p, "b", 1, NULL, 0, &ib, &err), HP2X_OK);
  for (int s = 0; s < 5; s++) {
    hpx_profile_begin_sample(p, (double)s);
    assert_int_equal(profile_add_entry(p, ia, a[s], &err), HP2X_OK);
    if (s == 2) assert_int_equal(profile_add_entry(p, ia, 10, &err), HP2X_OK);
    if (b[s]) assert_int_equal(profile_add_entry(p, ib, b[s], &err), HP2X_OK);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  return p;
}

static size_t choose(const hp2x_profile *p, hp2x_census_rule rule, double at,
                     double from, double to) {
  hp2x_census_choice c;
  hp2x_census_choice_init(&c);
  c.rule = rule;
  c.at_s = at;
  c.from_s = from;
  c.to_s = to;
  hp2x_err err;
  hp2x_err_init(&err);
  size_t s = 99;
  if (hp2x_census_choose(p, &c, &s, &err) != HP2X_OK)
    fail_msg("choose: %s", err.msg);
  return s;
}

static void peak_at_last(void **state) {
  (void)state;
  hp2x_profile *p = five();
  hp2x_census_choice c;
  hp2x_census_choice_init(&c);
  assert_int_equal(c.rule, HP2X_CENSUS_PEAK);
  assert_true(isinf(c.from_s) && c.from_s < 0 && isinf(c.to_s) && c.to_s > 0);
  /* 50 at 1 s and at 3 s: the earlier */
  assert_int_equal(choose(p, HP2X_CENSUS_PEAK, 0, -INFINITY, INFINITY), 1);
  /* within [2, 4]: 3 s's 50 (2 s's is 30: a counted twice, 10 + 10 + 10) */
  assert_int_equal(choose(p, HP2X_CENSUS_PEAK, 0, 2, 4), 3);
  assert_int_equal(choose(p, HP2X_CENSUS_PEAK, 0, 1.5, 2.5), 2);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 2.2, -INFINITY, INFINITY), 2);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 2.5, -INFINITY, INFINITY), 2);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 2.51, -INFINITY, INFINITY), 3);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 0, -INFINITY, INFINITY), 0);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 4, -INFINITY, INFINITY), 4);
  /* nearest within the window, not in the whole run */
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 2.9, 1, 2.9), 2);
  assert_int_equal(choose(p, HP2X_CENSUS_LAST, 0, -INFINITY, INFINITY), 4);
  assert_int_equal(choose(p, HP2X_CENSUS_LAST, 0, 0.5, 3.5), 3);
  hp2x_profile_free(p);
}

static hp2x_status refused(const hp2x_profile *p, hp2x_census_rule rule,
                           double at, double from, double to, char *msg) {
  hp2x_census_choice c = {rule, at, from, to};
  hp2x_err err;
  hp2x_err_init(&err);
  size_t s = 99;
  hp2x_status st = hp2x_census_choose(p, &c, &s, &err);
  assert_int_equal(s, 99);
  strcpy(msg, err.msg);
  return st;
}

static void refusals(void **state) {
  (void)state;
  hp2x_profile *p = five();
  char msg[256];
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 4.5, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  assert_string_equal(msg, "time 4.5 s is outside the run: the run's "
                           "censuses are from 0.000 to 4.000 seconds");
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 3, 0.5, 2, msg), HP2X_E_ARG);
  assert_string_equal(msg, "time 3 s is outside the window, from 0.5 to 2 s "
                           "(the run's censuses are from 0.000 to 4.000 "
                           "seconds)");
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 1, 2, INFINITY, msg), HP2X_E_ARG);
  assert_string_equal(msg, "time 1 s is outside the window, from 2 s (the "
                           "run's censuses are from 0.000 to 4.000 seconds)");
  assert_int_equal(refused(p, HP2X_CENSUS_AT, NAN, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  assert_int_equal(refused(p, HP2X_CENSUS_PEAK, 0, 1.2, 1.8, msg),
                   HP2X_E_NO_CENSUS);
  assert_string_equal(msg, "no census in the window, from 1.2 to 1.8 s (the "
                           "run's censuses are from 0.000 to 4.000 seconds)");
  assert_int_equal(refused(p, HP2X_CENSUS_PEAK, 0, -INFINITY, -1, msg),
                   HP2X_E_NO_CENSUS);
  assert_string_equal(msg, "no census in the window, up to -1 s (the run's "
                           "censuses are from 0.000 to 4.000 seconds)");
  assert_int_equal(refused(p, HP2X_CENSUS_PEAK, 0, 3, 2, msg), HP2X_E_ARG);
  assert_int_equal(refused(p, HP2X_CENSUS_PEAK, 0, NAN, 2, msg), HP2X_E_ARG);
  hp2x_profile_drop_entries(p);
  assert_int_equal(refused(p, HP2X_CENSUS_PEAK, 0, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  /* The nearest and the last read the times alone: the tool chooses them
   * once the bands hold the values (--summary --at, CSV --at). */
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 2.6, -INFINITY, INFINITY), 3);
  assert_int_equal(choose(p, HP2X_CENSUS_LAST, 0, -INFINITY, 1.5), 1);
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 9, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  hp2x_profile_free(p);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *empty = hpx_profile_new(&err);
  assert_int_equal(
      refused(empty, HP2X_CENSUS_LAST, 0, -INFINITY, INFINITY, msg),
      HP2X_E_NO_CENSUS);
  assert_string_equal(msg, "no complete census in the profile");
  hp2x_profile_free(empty);
}

/* The run's range as its message writes it (three decimals, rounded
 * outwards) is what --at takes: a time read off it, or off the CSV (six
 * decimals), picks the first or last census; beyond it is refused. */
static void range_as_written(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  uint32_t a;
  assert_int_equal(hpx_profile_intern(p, "a", 1, NULL, 0, &a, &err), HP2X_OK);
  static const double t[] = {0.0139271, 0.7, 1.4520001};
  for (int s = 0; s < 3; s++) {
    hpx_profile_begin_sample(p, t[s]);
    assert_int_equal(profile_add_entry(p, a, 10, &err), HP2X_OK);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 0.013927, -INFINITY, INFINITY), 0);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 0.013, -INFINITY, INFINITY), 0);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 1.453, -INFINITY, INFINITY), 2);
  char msg[256];
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 0.0129, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  assert_string_equal(msg, "time 0.0129 s is outside the run: the run's "
                           "censuses are from 0.013 to 1.453 seconds");
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 1.4531, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  /* a broken input's time going back: the range is its earliest to its
   * latest census */
  hpx_profile_begin_sample(p, 0.5);
  assert_int_equal(profile_add_entry(p, a, 10, &err), HP2X_OK);
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  assert_int_equal(choose(p, HP2X_CENSUS_AT, 1.0, -INFINITY, INFINITY), 1);
  assert_int_equal(refused(p, HP2X_CENSUS_AT, 2, -INFINITY, INFINITY, msg),
                   HP2X_E_ARG);
  assert_string_equal(msg, "time 2 s is outside the run: the run's "
                           "censuses are from 0.013 to 1.453 seconds");
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(peak_at_last),
      cmocka_unit_test(refusals),
      cmocka_unit_test(range_as_written),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
