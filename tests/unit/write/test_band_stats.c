/* test_band_stats.c -- band_stats.c's moment cells (the moment table of
 * --summary --at, which the report's script writes again): a census's
 * total, saturating; each band's value as the CSV writes it; its share
 * with one decimal, ties to even as printf rounds (the page's script
 * rounds so too); "-" for a total not above 0 and for no census before;
 * the change, signed and saturating.  And hp2x_write_moment's table:
 * rows in key order, the first census, a census past the last. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "write/band_stats.h"
#include "mem_sink.h"

#include <stdint.h>
#include <string.h>

/* Bands bottom..top "low", "high", over censuses of values v (column
 * major: band k's n values at v + k * n), at times 0, 1, 2, ... */
static void make(hp2x_profile **pp, hp2x_bands *b, char **names, int64_t *v,
                 size_t n) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  assert_int_equal(
      hpx_profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, &err),
      HP2X_OK);
  assert_int_equal(
      hpx_profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, &err), HP2X_OK);
  for (size_t s = 0; s < n; s++) {
    hpx_profile_begin_sample(p, (double)s);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  memset(b, 0, sizeof *b);
  b->n_bands = 2;
  b->n_samples = n;
  b->stride = n;
  names[0] = (char *)(uintptr_t) "low";
  names[1] = (char *)(uintptr_t) "high";
  b->names = names;
  b->values = v;
  *pp = p;
}

static void cells_of_a_census(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands b;
  char *names[2];
  /* censuses: 0 | 49 of 400 (12.25 %: a tie, to even) | 63 of 400
   * (15.75 %) | INT64_MAX twice (the total saturates) | a negative */
  int64_t v[10] = {0, 49, 63, INT64_MAX, -5, 0, 351, 337, INT64_MAX, 3};
  make(&p, &b, names, v, 5);
  moment_cells c;
  assert_int_equal(hpx_band_census_total(&b, 0), 0);
  hpx_moment_cells(&b, 0, 0, HPX_NO_CENSUS, 0, &c);
  assert_string_equal(c.value, "0");
  assert_string_equal(c.share, "-");
  assert_string_equal(c.change, "-");
  assert_int_equal(hpx_band_census_total(&b, 1), 400);
  hpx_moment_cells(&b, 0, 1, 0, 400, &c);
  assert_string_equal(c.share, "12.2%");
  assert_string_equal(c.change, "+49");
  hpx_moment_cells(&b, 0, 2, 1, 400, &c);
  assert_string_equal(c.share, "15.8%");
  assert_string_equal(c.change, "+14");
  hpx_moment_cells(&b, 1, 2, 1, 400, &c);
  assert_string_equal(c.value, "337");
  assert_string_equal(c.change, "-14");
  assert_int_equal(hpx_band_census_total(&b, 3), INT64_MAX);
  hpx_moment_cells(&b, 0, 3, 2, INT64_MAX, &c);
  assert_string_equal(c.value, "9223372036854775807");
  assert_string_equal(c.share, "100.0%");
  hpx_moment_cells(&b, 0, 4, 3, hpx_band_census_total(&b, 4), &c);
  assert_string_equal(c.value, "-5");
  assert_string_equal(c.share, "-"); /* the total, -2, is not above 0 */
  assert_string_equal(c.change, "-9223372036854775808"); /* saturated */
  char change[24];
  hpx_change_text(change, INT64_MAX, INT64_MIN);
  assert_string_equal(change, "+9223372036854775807");
  hpx_change_text(change, -1, INT64_MIN);
  assert_string_equal(change, "+9223372036854775807");
  hpx_change_text(change, 7, 7);
  assert_string_equal(change, "0");
  hp2x_profile_free(p);
}

static void moment_table(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands b;
  char *names[2];
  int64_t v[6] = {0, 49, 63, 0, 351, 337};
  make(&p, &b, names, v, 3);
  hp2x_err err;
  hp2x_err_init(&err);
  const hp2x_profile *ps[1] = {p};
  const hp2x_bands *bs[1] = {&b};
  const char *in[1] = {"in"};
  size_t s = 0;
  mem first = {0}, later = {0}, none = {0};
  assert_int_equal(
      hp2x_write_moment(ps, bs, in, &s, 1, mem_write, &first, &err), HP2X_OK);
  assert_non_null(strstr(first.buf, "== in: \ncensus at 0.000000 seconds "
                                    "(sample 0 of 3): 0 bytes in all\nthe "
                                    "first census: no change to show\n"));
  assert_non_null(strstr(first.buf, "\n               0       -                "
                                    "-  high\n"));
  s = 2;
  assert_int_equal(
      hp2x_write_moment(ps, bs, in, &s, 1, mem_write, &later, &err), HP2X_OK);
  assert_non_null(strstr(later.buf, "census at 2.000000 seconds (sample 2 of "
                                    "3): 400 bytes in all\nchange since the "
                                    "census before, at 1.000000 seconds: 0 "
                                    "bytes\n"));
  const char *high = strstr(later.buf, "337   84.2%              -14  high\n");
  const char *low = strstr(later.buf, "63   15.8%              +14  low\n");
  assert_non_null(high);
  assert_non_null(low);
  assert_true(high < low); /* key order: the top band first */
  s = 3;
  assert_int_equal(hp2x_write_moment(ps, bs, in, &s, 1, mem_write, &none, &err),
                   HP2X_E_ARG);
  assert_int_equal(none.len, 0);
  free(first.buf), free(later.buf);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cells_of_a_census),
      cmocka_unit_test(moment_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
