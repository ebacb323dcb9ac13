/* live_fixture.h -- shared by the unit tests of the live updates
 * (write/test_html_held.c, write/test_html_live.c): a profile of censuses
 * whose values wiggle, and a JSON member's number in an update's text. */
#ifndef HPX_LIVE_FIXTURE_H
#define HPX_LIVE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hp2x.h"
#include "test_options.h"

/* The profile and bands (default options) of n censuses, 0.01 s apart
 * (census `back` + 1 at census `back`'s time, when not 0), of three
 * labels whose values wiggle. */
static inline void make_profile(size_t n, size_t back, hp2x_profile **p,
                                hp2x_bands **b) {
  char *text = malloc(200 + n * 120);
  assert_non_null(text);
  size_t at = (size_t)sprintf(text, "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT "
                                    "\"seconds\"\nVALUE_UNIT \"bytes\"\n");
  for (size_t s = 0; s < n; s++) {
    double t = (double)s * 0.01 - (back && s > back ? 0.01 : 0.0);
    at += (size_t)sprintf(text + at,
                          "BEGIN_SAMPLE %.3f\na\t%zu\nb\t%zu\nc\t%zu\n"
                          "END_SAMPLE %.3f\n",
                          t, 1000 + (s * 37) % 500, 2000 + (s * 91) % 700,
                          3000 + (s * s) % 300, t);
  }
  assert_int_equal(test_profile_bands(text, at, NULL, p, b), HP2X_OK);
  free(text);
}

/* The number of JSON member `key` in text. */
static inline double number_of(const char *text, const char *key) {
  char k[64];
  snprintf(k, sizeof k, "\"%s\":", key);
  const char *at = strstr(text, k);
  assert_non_null(at);
  return strtod(at + strlen(k), NULL);
}

#endif
