/* test_chart.c -- chart.c's chart kinds as numbers: each kind's y axis
 * (range, units, legend) and ticks (layout.c's rule, look.c's ladder), and
 * each band's curves: a percent chart's top edge exactly 100 at every
 * census with a total, a census of total 0 a gap; a streamgraph's stack
 * centred on 0; a line at 100 at its band's peak and never above; what
 * hpx_chart_check refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "draw/chart.h"
#include "draw/layout.h"
#include "draw/look.h"
#include "test_options.h"

#include <math.h>
#include <string.h>

/* Three bands over five samples, the fourth of total 0:
 * a = 100, 300, 0, 0, 50; b = 200, 100, 600, 0, 50; c = 700, 600, 400, 0,
 * 900. */
static void make(hp2x_profile **pp, hp2x_bands **bp) {
  static const int64_t v[3][5] = {
      {100, 300, 0, 0, 50}, {200, 100, 600, 0, 50}, {700, 600, 400, 0, 900}};
  static const char *const names[3] = {"a", "b", "c"};
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  hpx_profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, &err);
  hpx_profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, &err);
  for (size_t s = 0; s < 5; s++) {
    hpx_profile_begin_sample(p, (double)s);
    for (size_t k = 0; k < 3; k++) {
      uint32_t id;
      assert_int_equal(hpx_profile_intern(p, names[k], 1, NULL, 0, &id, &err),
                       HP2X_OK);
      if (v[k][s])
        assert_int_equal(profile_add_entry(p, id, v[k][s], &err), HP2X_OK);
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  assert_int_equal(hp2x_bands_select(p, &o, bp, &err), HP2X_OK);
  *pp = p;
}

static void axes(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make(&p, &b);
  chart_axis a;
  hpx_chart_axis(b, HP2X_CHART_STACKED, &a);
  assert_true(a.ymin == b->ymin && a.yrange == b->yrange);
  assert_true(a.units == CHART_VALUE && a.legend == NULL);
  assert_string_equal(hpx_layout_legend(&a, p), "bytes");
  hpx_chart_axis(b, HP2X_CHART_PERCENT, &a);
  assert_true(a.ymin == 0.0 && a.yrange == 100.0 && a.units == CHART_PERCENT);
  assert_string_equal(a.legend, "% of total");
  hpx_chart_axis(b, HP2X_CHART_LINES, &a);
  assert_string_equal(hpx_layout_legend(&a, p), "% of peak");
  hpx_chart_axis(b, HP2X_CHART_STREAMGRAPH, &a);
  assert_true(a.yrange == 1000.0 && a.ymin == -500.0);
  assert_true(a.units == CHART_DISTANCE);
  assert_string_equal(hpx_chart_name(HP2X_CHART_STREAMGRAPH), "streamgraph");
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* The ticks of axis a on a 350 pt graph with a 30 pt legend, as text. */
static void ticks_of(const chart_axis *a, char *out, size_t size) {
  hp2x_err err;
  hp2x_err_init(&err);
  layout_tick *t = NULL;
  size_t n = 0;
  assert_int_equal(hpx_layout_y_ticks(a, 350.0, 30.0, &t, &n, &err), HP2X_OK);
  out[0] = '\0';
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s@%.0f", i ? " " : "", t[i].label,
             t[i].pos);
  }
  free(t);
}

static void ticks(void **state) {
  (void)state;
  char s[512];
  chart_axis a = {HP2X_CHART_PERCENT, 0.0, 100.0, CHART_PERCENT, "% of total"};
  ticks_of(&a, s, sizeof s); /* a step of 20; none where the legend goes */
  assert_string_equal(s, "0@0 20@70 40@140 60@210 80@280");
  /* A streamgraph's: the step's multiples about the middle line, each
   * side labelled with its distance from it. */
  chart_axis st = {HP2X_CHART_STREAMGRAPH, -3.6e6, 7.2e6, CHART_DISTANCE, NULL};
  ticks_of(&st, s, sizeof s);
  assert_string_equal(s, "2M@78 0M@175 2M@272");
  /* Bytes, as hp2ps labels them (its step for a range of 7000 is 500). */
  chart_axis by = {HP2X_CHART_STACKED, 0.0, 7000.0, CHART_VALUE, NULL};
  ticks_of(&by, s, sizeof s);
  assert_string_equal(s, "0@0 500@25 1,000@50 1,500@75 2,000@100 2,500@125 "
                         "3,000@150 3,500@175 4,000@200 4,500@225 5,000@250 "
                         "5,500@275 6,000@300");
  /* The rule's ladder is look.c's: 1, 2 or 5 times a power of ten. */
  assert_true(hpx_look.tick_ladder[0][0] == 4.0 &&
              hpx_look.tick_ladder[0][1] == 5.0);
  assert_true(fabs(hpx_layout_round125(0.3) - 0.2) < 1e-12);
}

static void percent_reaches_the_top(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make(&p, &b);
  hp2x_err err;
  hp2x_err_init(&err);
  chart_curves c;
  assert_int_equal(hpx_chart_open(b, HP2X_CHART_PERCENT, &c, &err), HP2X_OK);
  assert_true(c.has_gaps);
  double share[5] = {0};
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_chart_next_band(&c);
    for (size_t s = 0; s < 5; s++) {
      assert_true(c.hi[s] >= c.lo[s]);
      if (k == 0) assert_true(c.lo[s] == 0.0);
      share[s] = c.hi[s];
    }
  }
  for (size_t s = 0; s < 5; s++) {
    if (s == 3) {
      assert_false(chart_drawn(&c, s)); /* a total of 0: a gap */
      continue;
    }
    assert_true(chart_drawn(&c, s));
    assert_true(share[s] == 100.0); /* exactly */
  }
  hpx_chart_close(&c);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void streamgraph_is_centred(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make(&p, &b);
  hp2x_err err;
  hp2x_err_init(&err);
  chart_curves c;
  assert_int_equal(hpx_chart_open(b, HP2X_CHART_STREAMGRAPH, &c, &err),
                   HP2X_OK);
  double bottom[5], top[5];
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_chart_next_band(&c);
    for (size_t s = 0; s < 5; s++) {
      if (k == 0) bottom[s] = c.lo[s];
      top[s] = c.hi[s];
      assert_true(chart_drawn(&c, s));
    }
  }
  static const double totals[5] = {1000, 1000, 1000, 0, 1000};
  for (size_t s = 0; s < 5; s++) {
    assert_true(bottom[s] == -top[s]);
    assert_true(top[s] - bottom[s] == totals[s]);
  }
  hpx_chart_close(&c);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void lines_reach_their_peak(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make(&p, &b);
  hp2x_err err;
  hp2x_err_init(&err);
  chart_curves c;
  assert_int_equal(hpx_chart_open(b, HP2X_CHART_LINES, &c, &err), HP2X_OK);
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_chart_next_band(&c);
    double top = 0.0;
    for (size_t s = 0; s < 5; s++) {
      assert_true(c.lo[s] == c.hi[s]);
      assert_true(c.hi[s] >= 0.0 && c.hi[s] <= 100.0);
      if (c.hi[s] > top) top = c.hi[s];
      if (b->values[k * b->stride + s] == hpx_chart_band_peak(b, k))
        assert_true(c.hi[s] == 100.0);
    }
    assert_true(top == 100.0);
  }
  hpx_chart_close(&c);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void refused(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands *b;
  make(&p, &b);
  hp2x_err err;
  hp2x_options o;
  test_options_init(&o);
  for (int kind = 0; kind <= HP2X_CHART_LINES; kind++) {
    o.chart = (hp2x_chart)kind;
    o.heap_overlay = 1;
    hp2x_err_init(&err);
    int refused_heap = kind == HP2X_CHART_PERCENT || kind == HP2X_CHART_LINES;
    assert_int_equal(hpx_chart_check(b, &o, &err),
                     refused_heap ? HP2X_E_ARG : HP2X_OK);
    if (refused_heap) assert_non_null(strstr(err.msg, "--heap"));
    o.heap_overlay = 0;
    b->is_signed = 1; /* a diff chart's bands: stacked alone */
    hp2x_err_init(&err);
    assert_int_equal(hpx_chart_check(b, &o, &err), kind ? HP2X_E_ARG : HP2X_OK);
    b->is_signed = 0;
  }
  o.chart = (hp2x_chart)7;
  hp2x_err_init(&err);
  assert_int_equal(hpx_chart_check(b, &o, &err), HP2X_E_ARG);
  /* hp2x_render refuses them too, before writing a byte. */
  o.chart = HP2X_CHART_LINES;
  o.heap_overlay = 1;
  o.format = HP2X_FORMAT_SVG;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_render(p, b, &o, NULL, NULL, &err), HP2X_E_ARG);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(axes),
      cmocka_unit_test(ticks),
      cmocka_unit_test(percent_reaches_the_top),
      cmocka_unit_test(streamgraph_is_centred),
      cmocka_unit_test(lines_reach_their_peak),
      cmocka_unit_test(refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
