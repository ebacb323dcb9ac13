/* band_stats.c -- each band's figures for the summary and the report:
 * total, peak and when, the least-squares growth slope and its R^2, the
 * area under the band (trapezoids over the samples' times), and the
 * "leak suspect" verdict, whose rule is documented in man/hp2x.1
 * (SUMMARY) and lives in is_leak_suspect below; and their text, written
 * locale-free (fmt.c); and the cells of one census's moment table.  The
 * report's script (report_stats.js) repeats this arithmetic operation for
 * operation, in the same order, so that a zoomed table is --summary
 * --from --to's to the last digit: keep the two in step.
 */
#include "band_stats.h"

#include <math.h>

/* A band is a leak suspect when it grows steadily: a positive slope, a
 * linear fit explaining at least HPX_SUSPECT_R2 of its variance, and
 * fitted growth over the run of at least HPX_SUSPECT_SHARE of the
 * total's peak (so a few bytes growing in a straight line are not
 * reported). */
#define MIN_FIT_POINTS 3

/* Least squares of band k's values against sample times over the samples
 * in `use` (those where the total is not 0): sets st's fitted, slope, r2
 * and growth. */
static void fit_growth(const hp2x_profile *p, const hp2x_bands *b, size_t k,
                       const unsigned char *use, band_stats *st) {
  size_t N = b->n_samples, m = 0;
  double sx = 0, sy = 0;
  const int64_t *v = b->values + k * b->stride;
  for (size_t s = 0; s < N; s++)
    if (use[s]) sx += p->times[s], sy += (double)v[s], m++;
  st->fitted = m >= MIN_FIT_POINTS;
  if (!st->fitted) return;
  double mx = sx / (double)m, my = sy / (double)m;
  double sxx = 0, sxy = 0, syy = 0, lo = INFINITY, hi = -INFINITY;
  for (size_t s = 0; s < N; s++) {
    if (!use[s]) continue;
    double dx = p->times[s] - mx, dy = (double)v[s] - my;
    sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
    if (p->times[s] < lo) lo = p->times[s];
    if (p->times[s] > hi) hi = p->times[s];
  }
  if (!(sxx > 0.0)) {
    st->fitted = 0;
    return;
  }
  st->slope = sxy / sxx;
  st->r2 = syy > 0.0 ? (sxy * sxy) / (sxx * syy) : 0.0;
  st->growth = st->slope * (hi - lo);
  /* Times far beyond any run's (1e150 s and up) overflow the sums. */
  if (!isfinite(st->slope) || !isfinite(st->r2) || !isfinite(st->growth))
    st->fitted = 0;
}

static int is_leak_suspect(const band_stats *st, double total_peak,
                           int is_other) {
  return !is_other && st->fitted && st->slope > 0.0 &&
         st->r2 >= HPX_SUSPECT_R2 &&
         st->growth >= HPX_SUSPECT_SHARE * total_peak;
}

/* The total (the sum of all bands) at each sample: marks in use[s] the
 * samples where it is not 0 (GHC's empty first and last samples take no
 * part in the fits) and returns its peak and the peak's sample. */
static void find_total_peak(const hp2x_bands *b, unsigned char *use,
                            int64_t *top, size_t *top_at) {
  size_t N = b->n_samples, nb = b->n_bands;
  *top = -1;
  *top_at = 0;
  for (size_t s = 0; s < N; s++) {
    int64_t sum = 0;
    for (size_t k = 0; k < nb; k++)
      sum = hpx_add_sat(sum, b->values[k * b->stride + s]);
    use[s] = sum != 0;
    if (sum > *top) *top = sum, *top_at = s;
  }
}

/* Fills st for band k: total, peak, area, fit and suspect flag. */
static void band_figures(const hp2x_profile *p, const hp2x_bands *b, size_t k,
                         const unsigned char *use, int64_t total_peak,
                         band_stats *st) {
  const int64_t *v = b->values + k * b->stride;
  st->band = k;
  st->peak = -1;
  for (size_t s = 0; s < b->n_samples; s++) {
    st->total += (double)v[s];
    if (v[s] > st->peak) st->peak = v[s], st->peak_at = s;
    if (s > 0)
      st->area += ((double)v[s] + (double)v[s - 1]) / 2.0 *
                  (p->times[s] - p->times[s - 1]);
  }
  fit_growth(p, b, k, use, st);
  st->suspect = is_leak_suspect(st, (double)total_peak, b->is_other && k == 0);
}

hp2x_status hpx_band_stats_compute(const hp2x_profile *p, const hp2x_bands *b,
                                   band_stats **out, int64_t *top,
                                   size_t *top_at, hp2x_err *err) {
  size_t nb = b->n_bands;
  band_stats *st = hpx_calloc(nb ? nb : 1, sizeof *st);
  unsigned char *use = hpx_calloc(b->n_samples ? b->n_samples : 1, 1);
  if (!st || !use) {
    hpx_free(st), hpx_free(use);
    return hpx_nomem(err);
  }
  find_total_peak(b, use, top, top_at);
  for (size_t k = 0; k < nb; k++) band_figures(p, b, k, use, *top, &st[k]);
  hpx_free(use);
  *out = st;
  return HP2X_OK;
}

const char *hpx_band_time(char *buf, size_t size, double t) {
  hpx_fmt(buf, size, "%.3f", t);
  return buf;
}

const char *hpx_band_thousands(char *buf, size_t size, double v) {
  char num[48];
  if (!(fabs(v) < 9e18)) { /* past int64: an area over times of 1e300 s */
    hpx_fmt(buf, size, "%.3e", v);
    return buf;
  }
  hpx_fmt_thousands(num, sizeof num, (int64_t)llround(fabs(v)));
  hpx_fmt(buf, size, "%s%s", v < 0 ? "-" : "", num);
  return buf;
}

void hpx_band_cells(const hp2x_profile *p, const band_stats *st,
                    band_cells *c) {
  hpx_band_thousands(c->total, sizeof c->total, st->total);
  hpx_band_thousands(c->peak, sizeof c->peak, (double)st->peak);
  hpx_band_time(c->peak_at, sizeof c->peak_at, p->times[st->peak_at]);
  hpx_band_thousands(c->area, sizeof c->area, st->area);
  if (st->fitted) {
    hpx_band_thousands(c->slope, sizeof c->slope, st->slope);
    hpx_fmt(c->r2, sizeof c->r2, "%.2f", st->r2);
  } else {
    hpx_fmt(c->slope, sizeof c->slope, "-");
    hpx_fmt(c->r2, sizeof c->r2, "-");
  }
}

int64_t hpx_band_census_total(const hp2x_bands *b, size_t s) {
  int64_t sum = 0;
  for (size_t k = 0; k < b->n_bands; k++)
    sum = hpx_add_sat(sum, b->values[k * b->stride + s]);
  return sum;
}

/* a - b, saturating. */
static int64_t sub_sat(int64_t a, int64_t b) {
  if (b == INT64_MIN) return a >= 0 ? INT64_MAX : a - INT64_MIN;
  return hpx_add_sat(a, -b);
}

void hpx_change_text(char buf[24], int64_t now, int64_t before) {
  int64_t d = sub_sat(now, before);
  size_t o = 0;
  if (d > 0) buf[o++] = '+';
  buf[o + hpx_fmt_int(buf + o, d)] = '\0';
}

void hpx_moment_cells(const hp2x_bands *b, size_t k, size_t s, size_t before,
                      int64_t total, moment_cells *c) {
  const int64_t *v = b->values + k * b->stride;
  c->value[hpx_fmt_int(c->value, v[s])] = '\0';
  if (total > 0)
    hpx_fmt(c->share, sizeof c->share, "%.1f%%",
            (double)v[s] * 100.0 / (double)total);
  else
    hpx_fmt(c->share, sizeof c->share, "-");
  if (before == HPX_NO_CENSUS) {
    hpx_fmt(c->change, sizeof c->change, "-");
    return;
  }
  hpx_change_text(c->change, v[s], v[before]);
}
