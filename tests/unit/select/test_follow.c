/* test_follow.c -- follow.c and the drawing it speeds up: a follower fed a
 * profile chunk by chunk returns, after every chunk, the bands that
 * hp2x_bands_select returns for the same samples (every field, every
 * value), whether its selection held or changed; drawing a follower's bands
 * from its index gives the same bytes as drawing them sample by sample;
 * the index's extremes and the column runs agree with brute force and with
 * hpx_thin_curve, and its band_walk with the values' walk; room
 * follows the samples; a different or shrunk profile starts over; a failed
 * allocation leaves a follower that still answers right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "test_options.h"

#include "draw/layout.h"
#include "select/thin.h"
#include "parse_helpers.h"
#include "select/bands_int.h"
#include "test_hooks.h"

#include <math.h>

#define TEST_RNG_SEED 88172645463325252ull
#include "test_rng.h"

/* A long .hp text: `labels` labels that come and go in runs, values on a
 * coarse grid (so heights tie), some samples at the same time, and growth
 * rates that make labels overtake one another (the selection changes). */
static char *synthetic(size_t samples, size_t labels, size_t *len) {
  size_t cap = 256 + samples * (labels * 24 + 64);
  char *t = malloc(cap);
  assert_non_null(t);
  size_t n =
      (size_t)snprintf(t, cap,
                       "JOB \"synthetic\"\nDATE \"Mon Nov 23 2026\"\n"
                       "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
  double time_s = 0.0;
  for (size_t s = 0; s < samples; s++) {
    if (rnd(10)) time_s += 0.01 * (1 + rnd(3));
    n += (size_t)snprintf(t + n, cap - n, "BEGIN_SAMPLE %.2f\n", time_s);
    for (size_t l = 0; l < labels; l++) {
      if ((s / (50 + 13 * l) + l) % 4 == 0) continue; /* absent for a run */
      uint64_t v =
          (uint64_t)(1000 * ((s * (l + 1)) % 97 + l * s / 200 + rnd(3)));
      n += (size_t)snprintf(t + n, cap - n, "label_%zu\t%llu\n", l,
                            (unsigned long long)v);
    }
    n += (size_t)snprintf(t + n, cap - n, "END_SAMPLE %.2f\n", time_s);
  }
  *len = n;
  return t;
}

/* synthetic() parsed whole. */
static hp2x_profile *synthetic_profile(size_t samples, size_t labels) {
  size_t len;
  char *t = synthetic(samples, labels, &len);
  hp2x_profile *p;
  hp2x_err err;
  assert_int_equal(
      parse_chunked((unsigned char *)t, len, 0, HP2X_INPUT_HP, &p, &err),
      HP2X_OK);
  free(t);
  return p;
}

static void assert_same_bands(const hp2x_bands *a, const hp2x_bands *b) {
  assert_int_equal(a->n_bands, b->n_bands);
  assert_int_equal(a->n_samples, b->n_samples);
  assert_int_equal(a->is_other, b->is_other);
  assert_int_equal(a->is_signed, b->is_signed);
  assert_int_equal(a->x_span_ticks, b->x_span_ticks);
  for (size_t k = 0; k < a->n_bands; k++) {
    assert_string_equal(a->names[k], b->names[k]);
    assert_memory_equal(&a->shades[k], &b->shades[k], sizeof(double));
    for (size_t s = 0; s < a->n_samples; s++)
      assert_int_equal(a->values[k * a->stride + s],
                       b->values[k * b->stride + s]);
  }
  assert_memory_equal(&a->x0, &b->x0, sizeof(double));
  assert_memory_equal(&a->xrange, &b->xrange, sizeof(double));
  assert_memory_equal(&a->yrange, &b->yrange, sizeof(double));
  assert_memory_equal(&a->ymin, &b->ymin, sizeof(double));
  assert_memory_equal(&a->area, &b->area, sizeof(double));
}

/* Draws b; cairo numbers SVG surfaces from a counter of the process, so
 * the digits after "surface" are dropped. */
static mem draw(const hp2x_profile *p, const hp2x_bands *b,
                const hp2x_options *o) {
  mem m = {NULL, 0, 0, 0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_render(p, b, o, mem_write, &m, &err), HP2X_OK);
  size_t out = 0;
  for (size_t i = 0; i < m.len;) {
    if (m.len - i > 7 && !memcmp(m.buf + i, "surface", 7)) {
      memmove(m.buf + out, m.buf + i, 7);
      out += 7, i += 7;
      while (i < m.len && m.buf[i] >= '0' && m.buf[i] <= '9') i++;
    } else {
      m.buf[out++] = m.buf[i++];
    }
  }
  m.len = out;
  return m;
}

/* Draws b (follower f's) from its index and again with the index hidden,
 * and the bands of hp2x_bands_select: all three the same bytes.  Returns
 * whether the index could be used at this size. */
static int assert_same_drawing(const hp2x_follower *f, const hp2x_profile *p,
                               const hp2x_bands *b, const hp2x_bands *ref,
                               const hp2x_options *o) {
  size_t before = hpx_follow_index_walks(f);
  mem fast = draw(p, b, o);
  int indexed = hpx_follow_index_walks(f) > before;
  assert_true(hpx_follow_index_walks(f) - before <= 1);
  hp2x_bands hidden = *b; /* the same values, no index */
  hidden.points = NULL;
  mem slow = draw(p, &hidden, o);
  assert_int_equal(hpx_follow_index_walks(f), before + (size_t)indexed);
  mem plain = draw(p, ref, o);
  assert_int_equal(fast.len, slow.len);
  assert_memory_equal(fast.buf, slow.buf, fast.len);
  assert_int_equal(fast.len, plain.len);
  assert_memory_equal(fast.buf, plain.buf, fast.len);
  free(fast.buf), free(slow.buf), free(plain.buf);
  return indexed;
}

/* Feeds buf in `chunks` uneven pieces; after each, the follower's bands
 * must be hp2x_bands_select's, and every `draw_every`th time (0 = never)
 * their drawings must agree.  Returns how many drawings used the index. */
static int follow_file(const unsigned char *buf, size_t len, size_t chunks,
                       const hp2x_options *o, size_t draw_every) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  hp2x_parser *ps = hp2x_parser_new("test", &po, &err);
  assert_non_null(ps);
  hp2x_follower *f = hp2x_follower_new(&err);
  assert_non_null(f);
  int indexed = 0;
  size_t pos = 0;
  for (size_t c = 0; pos < len; c++) {
    size_t step = len / chunks + rnd((uint32_t)(len / chunks + 1));
    if (step == 0 || step > len - pos) step = len - pos;
    assert_int_equal(hp2x_parser_feed(ps, buf + pos, step, &err), HP2X_OK);
    pos += step;
    const hp2x_profile *p = hp2x_parser_peek(ps);
    if (hp2x_profile_job(p)[0] == '\0') continue;
    const hp2x_bands *b;
    hp2x_bands *ref;
    assert_int_equal(hp2x_follower_select(f, p, o, &b, &err), HP2X_OK);
    assert_int_equal(hp2x_bands_select(p, o, &ref, &err), HP2X_OK);
    assert_same_bands(b, ref);
    if (draw_every && (c % draw_every == 0 || pos == len))
      indexed += assert_same_drawing(f, p, b, ref, o);
    hp2x_bands_free(ref);
  }
  /* The finished profile (the same samples): the follower goes on. */
  hp2x_profile *done;
  assert_int_equal(hp2x_parser_finish(ps, &done, &err), HP2X_OK);
  const hp2x_bands *b;
  hp2x_bands *ref;
  assert_int_equal(hp2x_follower_select(f, done, o, &b, &err), HP2X_OK);
  assert_int_equal(hp2x_bands_select(done, o, &ref, &err), HP2X_OK);
  assert_same_bands(b, ref);
  hp2x_bands_free(ref);
  hp2x_profile_free(done);
  hp2x_parser_free(ps);
  hp2x_follower_free(f);
  return indexed;
}

static const char *const inputs[] = {
    "samples/profiles/longrun.hc.hp",    "samples/profiles/manycc.hc.hp",
    "samples/profiles/mapwave.hd.hp",    "samples/profiles/markers.hy.hp",
    "samples/profiles/leak.hT.eventlog", "samples/profiles/manycc.hc.eventlog",
};

/* Option sets: hp2ps's defaults, few bands without trace removal, -d, -i,
 * -i reversed, a filter (OTHER incl. filtered), no limit. */
static void option_sets(hp2x_options *os, size_t *n) {
  for (size_t i = 0; i < 7; i++) test_options_init(&os[i]);
  os[1].max_bands = 4, os[1].trace_pct = 0.0;
  os[2].sort = HP2X_SORT_STDDEV;
  os[3].name_order = 1, os[3].max_bands = 6;
  os[4].name_order = -1;
  os[5].exclude_re = "^(MAIN|label_1)";
  os[6].max_bands = 0;
  *n = 7;
}

static void follows_real_profiles(void **state) {
  (void)state;
  hp2x_options os[7];
  size_t n_os;
  option_sets(os, &n_os);
  for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
    size_t len;
    unsigned char *buf = read_repo_file(inputs[i], &len);
    assert_non_null(buf);
    for (size_t k = 0; k < n_os; k++) follow_file(buf, len, 23, &os[k], 0);
    free(buf);
  }
}

/* The smallest EPS width the library takes gives the fewest device
 * columns (~1 200): the real profiles draw alike at it (their 1 467
 * samples at most stay under the index's 2 per column), and a long one
 * draws through the index; SVG adds the tooltip paths (both edges of every
 * band). */
static void draws_real_profiles_alike(void **state) {
  (void)state;
  hp2x_options o;
  test_options_init(&o);
  o.eps_width_pt = HP2X_EPS_WIDTH_MIN_PT + 1.0;
  for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
    size_t len;
    unsigned char *buf = read_repo_file(inputs[i], &len);
    assert_non_null(buf);
    o.format = HP2X_FORMAT_EPS;
    follow_file(buf, len, 7, &o, 2);
    o.format = HP2X_FORMAT_SVG;
    follow_file(buf, len, 5, &o, 2);
    free(buf);
  }
  size_t len;
  char *t = synthetic(6000, 12, &len);
  o.format = HP2X_FORMAT_EPS;
  int indexed = follow_file((unsigned char *)t, len, 5, &o, 2);
  o.format = HP2X_FORMAT_SVG;
  indexed += follow_file((unsigned char *)t, len, 5, &o, 2);
  free(t);
  assert_true(indexed >= 2); /* 6 000 samples, > 2 x ~1 200 columns */
}

static void follows_long_synthetic(void **state) {
  (void)state;
  size_t len;
  char *t = synthetic(12000, 30, &len);
  hp2x_options os[7];
  size_t n_os;
  option_sets(os, &n_os);
  for (size_t k = 0; k < n_os; k++)
    follow_file((unsigned char *)t, len, 17, &os[k], 0);
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_SVG;
  int indexed = follow_file((unsigned char *)t, len, 9, &o, 4);
  o.format = HP2X_FORMAT_PS;
  o.max_bands = 7;
  indexed += follow_file((unsigned char *)t, len, 9, &o, 4);
  assert_true(indexed >= 2); /* 12 000 samples, > 2 x ~3 800 columns */
  free(t);
}

/* The follower's index (hpx_follow_index_extremes) against a scan over every
 * range of a small stack (ties on purpose), and hpx_thin_runs +
 * hpx_thin_column_runs against hpx_thin_curve. */
static const double *g_x;
static const int64_t *g_top;
static double x_of(const void *ctx, size_t i) { return (void)ctx, g_x[i]; }
static void brute(const void *ctx, size_t a, size_t e, size_t *lo, size_t *hi) {
  (void)ctx;
  *lo = *hi = a;
  for (size_t s = a; s < e; s++) {
    if (g_top[s] < g_top[*lo]) *lo = s;
    if (g_top[s] > g_top[*hi]) *hi = s;
  }
}

/* The stacked heights of b, band-major [n_bands * n_samples] (malloc). */
static int64_t *stacked_heights(const hp2x_bands *b) {
  size_t N = b->n_samples;
  int64_t *top = malloc((b->n_bands ? b->n_bands : 1) * N * sizeof *top);
  assert_non_null(top);
  for (size_t k = 0; k < b->n_bands; k++)
    for (size_t s = 0; s < N; s++)
      top[k * N + s] = b->values[k * b->stride + s] +
                       (k ? top[(k - 1) * N + s] : 0);
  return top;
}

static void index_agrees_with_scans(void **state) {
  (void)state;
  hp2x_profile *p = synthetic_profile(700, 3);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0.0;
  hp2x_follower *f = hp2x_follower_new(&err);
  const hp2x_bands *b;
  assert_int_equal(hp2x_follower_select(f, p, &o, &b, &err), HP2X_OK);
  assert_non_null(b->points);
  size_t N = b->n_samples;
  int64_t *top = stacked_heights(b);
  for (size_t k = 0; k < b->n_bands; k++) {
    g_top = top + k * N;
    for (size_t a = 0; a < N; a += 1 + a / 40)
      for (size_t e = a + 1; e <= N; e += 1 + (e - a) / 3) {
        size_t lo, hi, blo, bhi;
        hpx_follow_index_extremes(f, k, a, e, &lo, &hi);
        brute(NULL, a, e, &blo, &bhi);
        assert_int_equal(lo, blo);
        assert_int_equal(hi, bhi);
      }
  }
  /* Runs: x with repeats, y with ties; the thinning is hpx_thin_curve's. */
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  size_t *keep = malloc(N * sizeof *keep), *keep2 = malloc(N * sizeof *keep2);
  size_t *starts = malloc((N + 2) * sizeof *starts);
  g_top = top + (b->n_bands - 1) * N;
  g_x = x;
  for (size_t s = 0; s < N; s++) {
    x[s] = 45.0 + (p->times[s] - b->x0) / b->xrange * 500.0;
    y[s] = 20.0 + (double)g_top[s] * (400.0 / b->yrange);
  }
  for (size_t columns = 1; 2 * columns + 2 < N; columns = columns * 3 + 1) {
    size_t want = hpx_thin_curve(x, y, N, 45.0, 545.0, columns, keep);
    size_t runs = hpx_thin_column_runs(x_of, NULL, N, 45.0, 545.0, columns,
                                       starts, columns + 2);
    assert_true(runs <= columns + 1);
    size_t got = hpx_thin_runs(starts, runs, N, brute, NULL, keep2);
    assert_int_equal(got, want);
    assert_memory_equal(keep, keep2, want * sizeof *keep);
    assert_int_equal(hpx_thin_column_runs(x_of, NULL, N, 45.0, 545.0, columns,
                                          starts, runs - 1),
                     (size_t)-1);
  }
  free(x), free(y), free(keep), free(keep2), free(starts), free(top);
  hp2x_follower_free(f);
  hp2x_profile_free(p);
}

/* Asks walk w for band k's edge and copies it into *heights and *keep
 * (malloc); returns how many points are kept. */
static size_t copy_edge(band_walk *w, size_t k, size_t N, int64_t **heights,
                        size_t **keep) {
  band_edge e;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(w->ops->edge(w, k, &e, &err), HP2X_OK);
  *keep = malloc((e.n_keep ? e.n_keep : 1) * sizeof **keep);
  *heights = malloc(N * sizeof **heights);
  assert_true(*keep && *heights);
  memcpy(*keep, e.keep, e.n_keep * sizeof **keep);
  for (size_t s = 0; s < N; s++) (*heights)[s] = e.height ? e.height[s] : 0;
  return e.n_keep;
}

/* The two band_walk implementations give the same edges, band by band
 * down to the axis, at every resolution: the follower's walk where it
 * accepts the frame, the values' walk for the same bands without it; the
 * follower declines every sample (all_samples) and counts what it drew. */
static void walks_agree(void **state) {
  (void)state;
  hp2x_profile *p = synthetic_profile(2000, 6);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options o;
  test_options_init(&o);
  hp2x_follower *f = hp2x_follower_new(&err);
  const hp2x_bands *b;
  assert_int_equal(hp2x_follower_select(f, p, &o, &b, &err), HP2X_OK);
  hp2x_bands plain = *b;
  plain.points = NULL;
  size_t N = b->n_samples, accepted = 0;
  for (size_t columns = 1; columns < N; columns = columns * 2 + 3) {
    band_frame fi = {p, b, 45.0, 500.0, 20.0, 380.0, columns, 0};
    band_frame fv = fi;
    fv.b = &plain;
    band_walk *wi, *wv;
    size_t before = hpx_follow_index_walks(f);
    assert_int_equal(hpx_thin_open_band_walk(&fi, &wi, &err), HP2X_OK);
    assert_int_equal(hpx_thin_open_band_walk(&fv, &wv, &err), HP2X_OK);
    accepted += hpx_follow_index_walks(f) - before;
    assert_true(hpx_follow_index_walks(f) - before ==
                (N > 2 * columns + 2 ? 1u : 0u));
    for (size_t k = b->n_bands; k-- > 0;)
      for (size_t j = 0; j < 2; j++) { /* band k, then the one below it */
        int64_t *hi, *hv;
        size_t *ki, *kv;
        size_t ni = copy_edge(wi, k - j, N, &hi, &ki);
        size_t nv = copy_edge(wv, k - j, N, &hv, &kv);
        assert_int_equal(ni, nv);
        assert_memory_equal(ki, kv, ni * sizeof *ki);
        for (size_t i = 0; i < ni; i++) assert_int_equal(hi[ki[i]], hv[kv[i]]);
        free(hi), free(hv), free(ki), free(kv);
      }
    wi->ops->close(wi);
    wv->ops->close(wv);
    assert_int_equal(hpx_layout_band_peak(b, b->n_bands - 1),
                     hpx_layout_band_peak(&plain, b->n_bands - 1));
  }
  assert_true(accepted >= 3);
  band_frame all = {p, b, 45.0, 500.0, 20.0, 380.0, N, 1};
  band_walk *w;
  size_t before = hpx_follow_index_walks(f);
  assert_int_equal(hpx_thin_open_band_walk(&all, &w, &err), HP2X_OK);
  assert_int_equal(hpx_follow_index_walks(f), before);
  w->ops->close(w);
  hp2x_follower_free(f);
  hp2x_profile_free(p);
}

/* A different profile, a shrunk one, an explicit reset: each starts over
 * and answers as hp2x_bands_select does. */
static void starts_over(void **state) {
  (void)state;
  hp2x_profile *pa = synthetic_profile(400, 8);
  hp2x_profile *pb = synthetic_profile(300, 5);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options o;
  test_options_init(&o);
  hp2x_follower *f = hp2x_follower_new(&err);
  const hp2x_bands *b;
  hp2x_bands *ref;
  const hp2x_profile *seq[] = {pa, pb, pa, pa};
  for (size_t i = 0; i < 4; i++) {
    if (i == 3) hp2x_follower_reset(f);
    assert_int_equal(hp2x_follower_select(f, seq[i], &o, &b, &err), HP2X_OK);
    assert_int_equal(hp2x_bands_select(seq[i], &o, &ref, &err), HP2X_OK);
    assert_same_bands(b, ref);
    hp2x_bands_free(ref);
  }
  /* Fewer samples than last time (a profile cut short in place). */
  size_t n = pa->n_samples;
  pa->n_samples = n / 2;
  assert_int_equal(hp2x_follower_select(f, pa, &o, &b, &err), HP2X_OK);
  assert_int_equal(hp2x_bands_select(pa, &o, &ref, &err), HP2X_OK);
  assert_same_bands(b, ref);
  hp2x_bands_free(ref);
  pa->n_samples = n;
  /* Bad options are refused, as by hp2x_bands_select. */
  o.trace_pct = 7.0;
  assert_int_equal(hp2x_follower_select(f, pa, &o, &b, &err), HP2X_E_ARG);
  hp2x_follower_free(f);
  hp2x_follower_free(NULL);
  hp2x_profile_free(pa), hp2x_profile_free(pb);
}

/* Room follows the samples, not a fixed minimum: many bands of few
 * samples (-m 0) take little more than their values; outputs that are
 * not pictures keep no index. */
static void room_follows_samples(void **state) {
  (void)state;
  hp2x_profile *p = synthetic_profile(3, 400);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options o;
  test_options_init(&o);
  o.max_bands = 0;
  o.trace_pct = 0.0;
  hp2x_follower *f = hp2x_follower_new(&err);
  const hp2x_bands *b;
  assert_int_equal(hp2x_follower_select(f, p, &o, &b, &err), HP2X_OK);
  assert_true(b->n_bands > 200);
  assert_int_equal(b->stride, 16);
  assert_non_null(b->points);
  o.format = HP2X_FORMAT_CSV;
  assert_int_equal(hp2x_follower_select(f, p, &o, &b, &err), HP2X_OK);
  assert_null(b->points);
  hp2x_bands *ref;
  assert_int_equal(hp2x_bands_select(p, &o, &ref, &err), HP2X_OK);
  assert_same_bands(b, ref);
  hp2x_bands_free(ref);
  hp2x_follower_free(f);
  hp2x_profile_free(p);
}

/* Every allocation of an update failed in turn: HP2X_E_NOMEM, nothing
 * leaked (ASan), and the next call is right again. */
static void allocation_failures(void **state) {
  (void)state;
  hp2x_profile *p = synthetic_profile(3000, 12);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options o;
  test_options_init(&o);
  hp2x_bands *ref;
  assert_int_equal(hp2x_bands_select(p, &o, &ref, &err), HP2X_OK);
  size_t n = p->n_samples;
  int failed = 0;
  for (long at = 1; at < 200; at++) {
    hp2x_follower *f = hp2x_follower_new(&err);
    assert_non_null(f);
    const hp2x_bands *b;
    p->n_samples = n / 3; /* a first part, then the rest */
    hp2x_status st0 = hp2x_follower_select(f, p, &o, &b, &err);
    p->n_samples = n;
    hpx_alloc_fail_at(at);
    hp2x_status st = st0 == HP2X_OK ? hp2x_follower_select(f, p, &o, &b, &err)
                                    : HP2X_E_NOMEM;
    hpx_alloc_fail_at(0);
    assert_true(st == HP2X_OK || st == HP2X_E_NOMEM);
    failed += st != HP2X_OK;
    assert_int_equal(hp2x_follower_select(f, p, &o, &b, &err), HP2X_OK);
    assert_same_bands(b, ref);
    hp2x_follower_free(f);
  }
  assert_true(failed > 5);
  hp2x_bands_free(ref);
  hp2x_profile_free(p);
}

int main(void) {
  setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(follows_real_profiles),
      cmocka_unit_test(draws_real_profiles_alike),
      cmocka_unit_test(follows_long_synthetic),
      cmocka_unit_test(index_agrees_with_scans),
      cmocka_unit_test(walks_agree),
      cmocka_unit_test(starts_over),
      cmocka_unit_test(room_follows_samples),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
