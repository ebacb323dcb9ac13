/* diff_chart.c -- the diff chart of two runs (--diff): both runs' bands,
 * from one shared selection, resampled over normalised time (0 to 100 % of
 * each run's sample span) and subtracted, as a profile of the grid times
 * and signed bands that render_bands.c draws diverging from zero.  The
 * shared selection itself is select_many.c's; drawing is the render
 * files'.
 */
#include "bands_int.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#define DIFF_POINTS 201 /* every half per cent of the run */

/* Band k of b at fraction u (0..1) of p's sample span, interpolated
 * linearly; *cursor walks forward with increasing u. */
static double band_value_at(const hp2x_profile *p, const hp2x_bands *b,
                            size_t k, double u, size_t *cursor) {
  size_t N = b->n_samples;
  const int64_t *v = b->values + k * b->stride;
  if (N == 1) return (double)v[0];
  double t0 = p->times[0], span = p->times[N - 1] - t0;
  double t = t0 + u * span;
  size_t i = *cursor;
  while (i + 2 < N && p->times[i + 1] <= t) i++;
  *cursor = i;
  double ta = p->times[i], tb = p->times[i + 1];
  if (!(tb > ta)) return (double)v[i + 1];
  double f = (t - ta) / (tb - ta);
  if (f < 0.0) f = 0.0;
  if (f > 1.0) f = 1.0;
  return (double)v[i] + f * ((double)v[i + 1] - (double)v[i]);
}

/* The diff chart's profile: JOB "B minus A", B's date and value unit,
 * "% of run" as sample unit, and DIFF_POINTS empty samples at 0, 0.5, ...
 * 100 per cent. */
static hp2x_status make_diff_profile(const hp2x_profile *a,
                                     const hp2x_profile *b, hp2x_profile **out,
                                     hp2x_err *err) {
  hp2x_profile *d = hpx_profile_new(err);
  if (!d) return err->code;
  char job[512];
  snprintf(job, sizeof job, "%s minus %s", b->job, a->job);
  hp2x_status st =
      hpx_profile_set_header(d, PROFILE_JOB, job, strlen(job), err);
  if (st == HP2X_OK)
    st = hpx_profile_set_header(d, PROFILE_DATE, b->date, strlen(b->date), err);
  if (st == HP2X_OK)
    st = hpx_profile_set_header(d, PROFILE_SAMPLE_UNIT, "% of run", 8, err);
  if (st == HP2X_OK)
    st = hpx_profile_set_header(d, PROFILE_VALUE_UNIT, b->value_unit,
                                strlen(b->value_unit), err);
  for (size_t j = 0; j < DIFF_POINTS && st == HP2X_OK; j++) {
    hpx_profile_begin_sample(d, 100.0 * (double)j / (DIFF_POINTS - 1));
    st = hpx_profile_end_sample(d, err);
  }
  if (st != HP2X_OK) {
    hp2x_profile_free(d);
    return st;
  }
  *out = d;
  return HP2X_OK;
}

/* Band k of d: run b's band k minus run a's at each grid point, rounded;
 * adds each value to pos[j] or neg[j], the grid point's stacked heights
 * above and below zero. */
static void subtract_band(hp2x_bands *d, size_t k, const hp2x_profile *pa,
                          const hp2x_bands *ba, const hp2x_profile *pb,
                          const hp2x_bands *bb, double *pos, double *neg) {
  size_t G = d->n_samples, ca = 0, cb = 0;
  assert(k < d->n_bands && d->stride == G);
  for (size_t j = 0; j < G; j++) {
    double u = (double)j / (double)(G - 1);
    double v = band_value_at(pb, bb, k, u, &cb) -
               band_value_at(pa, ba, k, u, &ca);
    int64_t iv = hpx_bands_round(v);
    d->values[k * G + j] = iv;
    if (iv >= 0)
      pos[j] += (double)iv;
    else
      neg[j] += (double)iv;
  }
}

/* d's axes from the stacked heights above (pos) and below (neg) zero:
 * x over 0..100 per cent, y from the lowest to the highest point, and the
 * trapezoid area of the net height. */
static void set_diff_ranges(hp2x_bands *d, const double *pos,
                            const double *neg) {
  size_t G = d->n_samples;
  double top = 0.0, bottom = 0.0, area = 0.0;
  for (size_t j = 0; j < G; j++) {
    if (pos[j] > top) top = pos[j];
    if (neg[j] < bottom) bottom = neg[j];
    if (j > 0)
      area += (pos[j] + neg[j] + pos[j - 1] + neg[j - 1]) / 2.0 *
              (100.0 / (double)(G - 1));
  }
  d->x0 = 0.0;
  d->xrange = 100.0;
  d->x_span_ticks = 1;
  d->ymin = bottom;
  d->yrange = top - bottom > 0.0 ? top - bottom : 1.0;
  d->area = area;
  d->is_signed = 1;
}

/* The diff chart's bands: ba's names and shades, values of run b minus
 * run a on the DIFF_POINTS grid.  NULL with HP2X_E_NOMEM recorded. */
static hp2x_bands *make_diff_bands(const hp2x_profile *pa, const hp2x_bands *ba,
                                   const hp2x_profile *pb, const hp2x_bands *bb,
                                   hp2x_err *err) {
  size_t nb = ba->n_bands, G = DIFF_POINTS;
  hp2x_bands *d = hpx_calloc(1, sizeof *d);
  if (!d) {
    hpx_nomem(err);
    return NULL;
  }
  d->n_bands = nb;
  d->n_samples = G;
  d->stride = G;
  d->is_other = ba->is_other;
  d->names = hpx_calloc(nb ? nb : 1, sizeof *d->names);
  d->shades = hpx_malloc((nb ? nb : 1) * sizeof *d->shades);
  d->values = hpx_calloc((nb ? nb : 1) * G, sizeof *d->values);
  double *pos = hpx_calloc(G, sizeof *pos), *neg = hpx_calloc(G, sizeof *neg);
  int ok = d->names && d->shades && d->values && pos && neg;
  for (size_t k = 0; ok && k < nb; k++) {
    d->names[k] = hpx_strndup(ba->names[k], strlen(ba->names[k]));
    ok =
        d->names[k] != NULL &&
        (!ba->texts || hpx_bands_set_text(d, k, &ba->texts[k], err) == HP2X_OK);
    d->shades[k] = ba->shades[k];
    if (ok) subtract_band(d, k, pa, ba, pb, bb, pos, neg);
  }
  if (ok) set_diff_ranges(d, pos, neg);
  hpx_free(pos), hpx_free(neg);
  if (!ok) {
    hp2x_bands_free(d);
    hpx_nomem(err);
    return NULL;
  }
  return d;
}

hp2x_status hp2x_diff_new(const hp2x_profile *a, const hp2x_bands *ba,
                          const hp2x_profile *b, const hp2x_bands *bb,
                          hp2x_profile **out_p, hp2x_bands **out_b,
                          hp2x_err *err) {
  *out_p = NULL;
  *out_b = NULL;
  if (!ba->n_samples || !bb->n_samples)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%s profile has no samples to compare",
                    ba->n_samples ? "the second" : "the first");
  int same = ba->n_bands == bb->n_bands;
  for (size_t k = 0; same && k < ba->n_bands; k++)
    same = strcmp(ba->names[k], bb->names[k]) == 0;
  if (!same)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "the two profiles have different bands: select them "
                    "together (hp2x_bands_select_many)");
  hp2x_profile *dp = NULL;
  if (make_diff_profile(a, b, &dp, err) != HP2X_OK) return err->code;
  hp2x_bands *db = make_diff_bands(a, ba, b, bb, err);
  if (!db) {
    hp2x_profile_free(dp);
    return err->code;
  }
  *out_p = dp;
  *out_b = db;
  return HP2X_OK;
}
