/* thin.c -- the thinning that bounds a picture's size: per device column
 * of the final picture at most the first, lowest, highest and last point
 * of a curve, so no peak is lost (hpx_thin_curve); the same split into column
 * runs and their extremes for a follower's index (hpx_thin_column_runs,
 * hpx_thin_runs); and the walk over the bands' values that thins each band's
 * upper edge (band_walk.h), used when the bands carry no faster source.
 */
#include "thin.h"

#include <assert.h>

/* Appends index v unless it is already the last one kept. */
static void keep_index(size_t *keep, size_t *out, size_t v) {
  if (*out == 0 || keep[*out - 1] != v) keep[(*out)++] = v;
}

size_t hpx_thin_curve(const double *x, const double *y, size_t n, double x0,
                      double x1, size_t columns, size_t *keep) {
  if (n <= 2 * columns + 2 || !(x1 > x0)) {
    for (size_t i = 0; i < n; i++) keep[i] = i;
    return n;
  }
  size_t out = 0;
  double scale = (double)columns / (x1 - x0);
  keep_index(keep, &out, 0); /* the ends stay exact */
  for (size_t i = 0; i < n;) {
    double c = thin_column(x[i], x0, scale);
    size_t lo = i, hi = i, j = i;
    for (; j < n && thin_column(x[j], x0, scale) == c; j++) {
      if (y[j] < y[lo]) lo = j;
      if (y[j] > y[hi]) hi = j;
    }
    keep_index(keep, &out, lo < hi ? lo : hi);
    keep_index(keep, &out, lo < hi ? hi : lo);
    i = j;
  }
  keep_index(keep, &out, n - 1);
  return out;
}

size_t hpx_thin_column_runs(thin_x_fn x_at, const void *ctx, size_t n,
                            double x0, double x1, size_t columns,
                            size_t *starts, size_t max_runs) {
  double scale = (double)columns / (x1 - x0);
  size_t runs = 0;
  for (size_t i = 0; i < n;) {
    if (runs == max_runs) return (size_t)-1;
    double c = thin_column(x_at(ctx, i), x0, scale);
    starts[runs++] = i;
    /* Gallop to a sample past the run, then halve: lo is in the run, hi
     * is n or past it. */
    size_t lo = i, hi = i + 1, step = 1;
    while (hi < n && thin_column(x_at(ctx, hi), x0, scale) == c) {
      lo = hi;
      step *= 2;
      hi = n - i > step ? i + step : n;
    }
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (thin_column(x_at(ctx, mid), x0, scale) == c)
        lo = mid;
      else
        hi = mid;
    }
    i = hi;
  }
  return runs;
}

size_t hpx_thin_runs(const size_t *starts, size_t runs, size_t n,
                     thin_extremes_fn extremes, const void *ctx, size_t *keep) {
  size_t out = 0;
  if (n == 0) return 0;
  keep_index(keep, &out, 0);
  for (size_t r = 0; r < runs; r++) {
    size_t lo, hi;
    extremes(ctx, starts[r], r + 1 < runs ? starts[r + 1] : n, &lo, &hi);
    keep_index(keep, &out, lo < hi ? lo : hi);
    keep_index(keep, &out, lo < hi ? hi : lo);
  }
  keep_index(keep, &out, n - 1);
  return out;
}

/* ------------------------------------------------ band edges from values */

/* A walk over the bands' values: the stacked heights summed over every
 * band, then, as lower edges are asked for, the bands above taken off one
 * by one (saturating, as the heights are summed: a band's lower edge is
 * its upper edge less its own values, never a fresh sum), and each edge
 * thinned by hpx_thin_curve. */
typedef struct value_walk {
  band_walk base;
  band_frame f;
  double *x;    /* [n_samples] points; owned */
  double *y;    /* [n_samples] points; owned */
  int64_t *cum; /* [n_samples] stacked heights of bands [0, level); owned */
  size_t *keep; /* [n_samples]; owned */
  size_t level; /* bands summed in cum */
} value_walk;

static void close_value_walk(band_walk *w) {
  value_walk *vw = (value_walk *)w;
  hpx_free(vw->x), hpx_free(vw->y), hpx_free(vw->cum);
  hpx_free(vw->keep), hpx_free(vw);
}

static hp2x_status value_edge(band_walk *w, size_t k, band_edge *out,
                              hp2x_err *err) {
  (void)err;
  value_walk *vw = (value_walk *)w;
  const hp2x_bands *b = vw->f.b;
  size_t N = b->n_samples;
  assert(k + 1 <= vw->level); /* top down; (size_t)-1 + 1 == 0 */
  while (vw->level > k + 1) {
    const int64_t *v = b->values + --vw->level * b->stride;
    for (size_t s = 0; s < N; s++) vw->cum[s] = hpx_add_sat(vw->cum[s], -v[s]);
  }
  double axis = vw->f.y0_pt, yscale = band_frame_yscale(&vw->f);
  for (size_t s = 0; s < N; s++) vw->y[s] = axis + (double)vw->cum[s] * yscale;
  out->height = vw->cum;
  out->keep = vw->keep;
  out->n_keep = hpx_thin_curve(vw->x, vw->y, N, vw->f.x0_pt,
                               vw->f.x0_pt + vw->f.width_pt, vw->f.columns,
                               vw->keep);
  return HP2X_OK;
}

static const band_walk_ops value_walk_ops = {value_edge, close_value_walk};

/* A walk over f's bands' values. */
static hp2x_status open_value_walk(const band_frame *f, band_walk **out,
                                   hp2x_err *err) {
  const hp2x_bands *b = f->b;
  size_t N = b->n_samples, room = N ? N : 1;
  value_walk *vw = hpx_calloc(1, sizeof *vw);
  if (vw) {
    vw->x = hpx_malloc(room * sizeof *vw->x);
    vw->y = hpx_malloc(room * sizeof *vw->y);
    vw->cum = hpx_calloc(room, sizeof *vw->cum);
    vw->keep = hpx_malloc(room * sizeof *vw->keep);
  }
  if (!vw || !vw->x || !vw->y || !vw->cum || !vw->keep) {
    if (vw) close_value_walk(&vw->base);
    return hpx_nomem(err);
  }
  vw->base.ops = &value_walk_ops;
  vw->f = *f;
  for (size_t s = 0; s < N; s++) vw->x[s] = band_frame_x(f, s);
  for (size_t k = 0; k < b->n_bands; k++) {
    const int64_t *v = b->values + k * b->stride;
    for (size_t s = 0; s < N; s++) vw->cum[s] = hpx_add_sat(vw->cum[s], v[s]);
  }
  vw->level = b->n_bands;
  *out = &vw->base;
  return HP2X_OK;
}

hp2x_status hpx_thin_open_band_walk(const band_frame *f, band_walk **out,
                                    hp2x_err *err) {
  *out = NULL;
  const band_walk_source *src = f->b->points;
  if (src && src->open(src, f, out, err) != HP2X_OK) return err->code;
  return *out ? HP2X_OK : open_value_walk(f, out, err);
}
