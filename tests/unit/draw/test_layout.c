/* test_layout.c -- layout.c's numbers against hp2ps's geometry (GHC's
 * utils/hp2ps): the 1-2-5 rounding, title box rule, graph height, key
 * centres, y labels, x ticks, and the output-bounding thinning.  Text is
 * measured with hp2ps's own character-unit table so the numbers are
 * exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "draw/layout.h"
#include "select/thin.h"
#include "test_options.h"
#include "select/bands_int.h"
#include "test_hooks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The title's area text of p with bands b starts with figure `num`. */
static void assert_area_title(const hp2x_profile *p, const hp2x_bands *b,
                              const char *num) {
  char got[HPX_LAYOUT_AREA_SIZE], want[HPX_LAYOUT_AREA_SIZE];
  hpx_layout_area_title(got, sizeof got, p, b);
  snprintf(want, sizeof want, "%s %s x %s", num, p->value_unit, p->sample_unit);
  assert_string_equal(got, want);
}
static double ss_measure(void *ctx, const char *s, size_t len, double size) {
  (void)ctx;
  (void)size;
  double units = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c > 0x7e) continue;
    if (strchr("!\"',.:;^Iil|`", c))
      units += 1;
    else if (strchr("*?[]jrt{}~", c))
      units += 2;
    else if (c >= '0' && c <= '9')
      units += 4;
    else if ((c >= 'A' && c <= 'Z') || c == 'm')
      units += 5;
    else
      units += 3;
  }
  return units * 1.7007876;
}

static void round125(void **state) {
  (void)state;
  assert_true(fabs(hpx_layout_round125(0.0357) - 0.02) < 1e-12);
  assert_true(fabs(hpx_layout_round125(0.714) - 0.5) < 1e-12);
  assert_true(hpx_layout_round125(1406343) == 2e6);
  assert_true(fabs(hpx_layout_round125(0.2857) - 0.2) < 1e-12);
  assert_true(hpx_layout_round125(1.0) == 1.0);
  assert_true(hpx_layout_round125(7.0) == 5.0);
}

/* A profile of n bands over `samples` samples, selected with o. */
static void make(size_t n, size_t samples, const char *job, hp2x_profile **pp,
                 hp2x_bands **bp, const hp2x_options *o) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  hpx_profile_set_header(p, PROFILE_JOB, job, strlen(job), &err);
  hpx_profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, &err);
  hpx_profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, &err);
  for (size_t s = 0; s < samples; s++) {
    hpx_profile_begin_sample(p, 0.1 * (double)s);
    for (size_t k = 0; k < n; k++) {
      char name[16];
      snprintf(name, sizeof name, "band%02zu", k);
      uint32_t id;
      assert_int_equal(
          hpx_profile_intern(p, name, strlen(name), NULL, 0, &id, &err),
          HP2X_OK);
      profile_add_entry(p, id, (int64_t)(1000 * (k + 1) + 10 * s), &err);
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  assert_int_equal(hp2x_bands_select(p, o, bp, &err), HP2X_OK);
  *pp = p;
}

static void title_graph_key(void **state) {
  (void)state;
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  hp2x_profile *p;
  hp2x_bands *b;
  make(20, 10, "12345678901234567890123456789012345", &p, &b, &o); /* 35 */
  layout l;
  hp2x_err err;
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_false(l.big_title);
  assert_true(l.graph_h == 382.0);
  /* key boxes: dc = 382/21, first box (centre - 7) at y = 31.190476 */
  assert_true(fabs(hpx_layout_key_centre(&l, 0, 20, 0) - 7 - 31.190476) < 1e-6);
  /* key width: widest name + 15 + 14, name "band19" */
  assert_true(fabs(l.key_w - (ss_measure(NULL, "band19", 6, 10) + 29)) < 1e-9);
  assert_true(fabs(l.graph_w - (593 - l.key_w)) < 1e-9);
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
  make(3, 10, "123456789012345678901234567890123456", &p, &b, &o); /* 36 */
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_true(l.big_title && l.graph_h == 362.0);
  hpx_layout_free(&l);
  o.title_box = 0; /* -s */
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_false(l.big_title);
  hpx_layout_free(&l);
  o.max_bands = 0; /* -m0: no key, full width */
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_true(l.key_w == 0.0 && l.graph_w == 593.0);
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
}

/* Every byte 5 pt wide: key widths as plain numbers. */
static double byte_measure(void *ctx, const char *s, size_t len, double size) {
  (void)ctx, (void)s, (void)size;
  return 5.0 * (double)len;
}

/* The key's text cap with band 1 named `len` bytes of 'x', its ends
 * head and tail bytes kept (a -hi band's what and location; 0, 0: a
 * plain label). */
static double key_cap(size_t len, uint32_t head, uint32_t tail) {
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  hp2x_profile *p;
  hp2x_bands *b;
  make(2, 3, "job", &p, &b, &o);
  hp2x_err err;
  hp2x_err_init(&err);
  hpx_free(b->names[1]);
  b->names[1] = hpx_malloc(len + 1);
  memset(b->names[1], 'x', len);
  b->names[1][len] = '\0';
  label_text t = {NULL, 0, head, tail};
  assert_int_equal(hpx_bands_set_text(b, 1, &t, &err), HP2X_OK);
  layout l;
  assert_int_equal(
      hpx_layout_compute(p, b, &o, 0, byte_measure, NULL, &l, &err), HP2X_OK);
  double cap = l.key_label_max_w;
  assert_true(
      fabs(l.key_w - ((5.0 * (double)len < cap ? 5.0 * (double)len : cap) +
                      29.0)) < 1e-9);
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
  return cap;
}

/* The key gives long names 40% of the 593 pt (less its box and gaps:
 * 208.2 pt); a -hi name with kept ends up to half (267.5 pt), whole; its
 * kept ends alone up to 60% (326.8 pt). */
static void kept_ends_widen_the_key(void **state) {
  (void)state;
  assert_true(fabs(key_cap(45, 0, 0) - 208.2) < 1e-9);
  assert_true(fabs(key_cap(30, 2, 16) - 208.2) < 1e-9);   /* fits anyway */
  assert_true(fabs(key_cap(45, 2, 16) - 225.0) < 1e-9);   /* whole */
  assert_true(fabs(key_cap(80, 5, 40) - 267.5) < 1e-9);   /* half */
  assert_true(fabs(key_cap(80, 5, 50) - 280.0) < 1e-9);   /* 25+250+5 */
  assert_true(fabs(key_cap(100, 10, 80) - 326.8) < 1e-9); /* 60% */
}

static void ticks(void **state) {
  (void)state;
  hp2x_options o;
  test_options_init(&o);
  hp2x_profile *p;
  hp2x_bands *b;
  make(3, 11, "job", &p, &b, &o); /* times 0.0 .. 1.0 */
  layout l;
  hp2x_err err;
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  /* x: inc = R(1/7) = 0.2, from 0.0 while < 1.0 and before the legend */
  assert_true(l.n_xticks >= 4 && l.n_xticks <= 5);
  assert_string_equal(l.xticks[0].label, "0.0");
  assert_string_equal(l.xticks[1].label, "0.2");
  /* y: yrange = 6000 + 3*100 = 6300; inc = R(900) = 500: plain labels */
  assert_true(b->yrange == 6300.0);
  assert_string_equal(l.yticks[0].label, "0");
  assert_string_equal(l.yticks[1].label, "500");
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
  make(3, 11, "job", &p, &b, &o);
  b->yrange = 2.5e7; /* inc = R(3.57e6) = 2e6: M labels */
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_string_equal(l.yticks[0].label, "0M");
  assert_string_equal(l.yticks[1].label, "2M");
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
  make(3, 1, "job", &p, &b, &o); /* one sample: no x ticks */
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_int_equal(l.n_xticks, 0);
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
}

static void multipage(void **state) {
  (void)state;
  hp2x_options o;
  test_options_init(&o);
  o.max_bands = 25;
  o.trace_pct = 0;
  hp2x_profile *p;
  hp2x_bands *b;
  make(24, 5, "job", &p, &b, &o);
  layout l;
  hp2x_err err;
  assert_int_equal(hpx_layout_compute(p, b, &o, 1, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_int_equal(l.key_pages, 2); /* 20 + 4 keys, then the graph */
  assert_true(l.graph_w == 593.0);
  assert_true(fabs(hpx_layout_key_centre(&l, 0, 24, 1) - 382.0 / 20) < 1e-9);
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
}

static void thinning_bounds_points(void **state) {
  (void)state;
  size_t n = 1000000, columns = 1000;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  size_t *keep = malloc(n * sizeof *keep);
  for (size_t i = 0; i < n; i++) {
    x[i] = (double)i / (double)n * 100.0;
    y[i] = sin((double)i / 997.0) * 50.0 + (i == 500123 ? 1000.0 : 0.0);
  }
  size_t k = hpx_thin_curve(x, y, n, 0.0, 100.0, columns, keep);
  assert_true(k <= 2 * columns + 2);
  int peak = 0;
  for (size_t i = 0; i < k; i++) {
    if (keep[i] == 500123) peak = 1;
    if (i) assert_true(keep[i] > keep[i - 1]);
  }
  assert_true(peak); /* no peak is lost */
  assert_int_equal(keep[0], 0);
  assert_int_equal(keep[k - 1], n - 1);
  free(x);
  free(y);
  free(keep);
}

/* The walk over the bands' values (band_walk.h): band k's edge is the
 * sum of bands 0..k, then the axis under band 0, each thinned as
 * hpx_thin_curve thins it; the peaks are each band's first largest value; a
 * failed allocation gives HP2X_E_NOMEM and nothing to close. */
static void values_walk(void **state) {
  (void)state;
  hp2x_options o;
  test_options_init(&o);
  hp2x_profile *p;
  hp2x_bands *b;
  make(3, 500, "walk", &p, &b, &o);
  assert_null(b->points); /* hp2x_bands_select's: drawn from values */
  hp2x_err err;
  hp2x_err_init(&err);
  size_t N = b->n_samples, columns = 40;
  band_frame f = {p, b, 45.0, 400.0, 20.0, 300.0, columns, 0};
  band_walk *w;
  assert_int_equal(hpx_thin_open_band_walk(&f, &w, &err), HP2X_OK);
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  size_t *keep = malloc(N * sizeof *keep);
  int64_t *sum = malloc(N * sizeof *sum);
  for (size_t s = 0; s < N; s++) x[s] = band_frame_x(&f, s);
  for (size_t k = b->n_bands + 1; k-- > 0;) { /* k - 1 == (size_t)-1: axis */
    for (size_t s = 0; s < N; s++) {
      sum[s] = 0;
      for (size_t j = 0; j < k; j++) sum[s] += b->values[j * b->stride + s];
      y[s] = 20.0 + (double)sum[s] * band_frame_yscale(&f);
    }
    band_edge e;
    assert_int_equal(w->ops->edge(w, k - 1, &e, &err), HP2X_OK);
    size_t n = hpx_thin_curve(x, y, N, 45.0, 445.0, columns, keep);
    assert_true(n < N); /* thinned */
    assert_int_equal(e.n_keep, n);
    assert_memory_equal(e.keep, keep, n * sizeof *keep);
    assert_memory_equal(e.height, sum, N * sizeof *sum);
  }
  w->ops->close(w);
  for (size_t k = 0; k < b->n_bands; k++)
    assert_int_equal(hpx_layout_band_peak(b, k), N - 1); /* values grow */
  for (long at = 1; at <= 5; at++) {
    hpx_alloc_fail_at(at);
    assert_int_equal(hpx_thin_open_band_walk(&f, &w, &err), HP2X_E_NOMEM);
    hpx_alloc_fail_at(0);
  }
  free(x), free(y), free(keep), free(sum);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* Fuzzer find (tests/fuzz-regress/pipeline/area-overflow): two samples of
 * residency near INT64_MAX, ten seconds apart, have an area of ~9e19
 * byte-seconds, which does not fit the integer hp2ps prints; it used to be
 * converted with undefined behaviour.  Clamped now, and NaN prints 0. */
static void area_beyond_int64(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  uint32_t id;
  assert_int_equal(hpx_profile_intern(p, "big", 3, NULL, 0, &id, &err),
                   HP2X_OK);
  for (int s = 0; s < 2; s++) {
    hpx_profile_begin_sample(p, 10.0 * s);
    profile_add_entry(p, id, INT64_MAX - 1, &err);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  hp2x_options o;
  test_options_init(&o);
  hp2x_bands *b;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  layout l;
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_area_title(p, b, "9,223,372,036,854,775,807");
  hpx_layout_free(&l);
  b->area = -1e30; /* times running backwards */
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_area_title(p, b, "-9,223,372,036,854,775,808");
  hpx_layout_free(&l);
  b->area = NAN;
  assert_int_equal(hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err),
                   HP2X_OK);
  assert_area_title(p, b, "0");
  hpx_layout_free(&l);
  hp2x_profile_free(p);
  hp2x_bands_free(b);
}

/* Every allocation of hpx_layout_compute failed in turn: HP2X_E_NOMEM with
 * nothing left to free.  make valgrind found the x ticks leaked when the
 * y ticks' allocation failed (test_faults.sh, through the binary). */
static void allocation_failures(void **state) {
  (void)state;
  hp2x_options o;
  test_options_init(&o);
  hp2x_profile *p;
  hp2x_bands *b;
  make(3, 10, "job", &p, &b, &o);
  hp2x_err err;
  layout l;
  for (long n = 1;; n++) {
    hpx_alloc_fail_at(n);
    hp2x_err_init(&err);
    hp2x_status st =
        hpx_layout_compute(p, b, &o, 0, ss_measure, NULL, &l, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      assert_true(n > 2); /* x ticks, y ticks */
      hpx_layout_free(&l);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_null(l.xticks);
    assert_null(l.yticks);
  }
  hp2x_profile_free(p);
  hp2x_bands_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round125),
      cmocka_unit_test(title_graph_key),
      cmocka_unit_test(kept_ends_widen_the_key),
      cmocka_unit_test(ticks),
      cmocka_unit_test(multipage),
      cmocka_unit_test(thinning_bounds_points),
      cmocka_unit_test(values_walk),
      cmocka_unit_test(area_beyond_int64),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
