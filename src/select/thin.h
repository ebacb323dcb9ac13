/* thin.h -- the drawing's thinning of curves (thin.c): per device column
 * at most the first, lowest, highest and last point, for a curve given as
 * arrays (hpx_thin_curve) or as column runs whose extremes an index finds
 * (hpx_thin_column_runs, hpx_thin_runs: a follower's bands, follow.c), and the
 * walk over the bands' values that gives each band's thinned edge
 * (band_walk.h).  Used by the render files and follow.c. */
#ifndef HPX_THIN_H
#define HPX_THIN_H

#include "band_walk.h"

#include <math.h>

/* Sample thinning for bounded output: for a curve y[0..n) at x[0..n)
 * (increasing), writes the indices to draw into keep (size >= n) and returns
 * how many: per device column (of `columns` over x range [x0, x1]) at most
 * the first, min, max and last points, in order, so no peak is lost. */
size_t hpx_thin_curve(const double *x, const double *y, size_t n, double x0,
                      double x1, size_t columns, size_t *keep);

/* The device column of x, as hpx_thin_curve counts them (scale: columns per
 * point).  Never decreases as x grows. */
static inline double thin_column(double x, double x0, double scale) {
  return floor((x - x0) * scale);
}

/* hpx_thin_curve's work split in two, for curves whose x never decreases and
 * whose extremes per run come from an index (a follower's bands).  First
 * the runs of samples in one device column: writes the first sample of
 * each run to starts (at most max_runs; (size_t)-1 if there are more) and
 * returns how many, with O(log run) calls of x_at per run. */
typedef double (*thin_x_fn)(const void *ctx, size_t i);
size_t hpx_thin_column_runs(thin_x_fn x_at, const void *ctx, size_t n,
                            double x0, double x1, size_t columns,
                            size_t *starts, size_t max_runs);
/* Then the points to keep, as hpx_thin_curve keeps them when it thins (n >
 * 2 * columns + 2): extremes(ctx, a, e, &lo, &hi) gives the first
 * smallest and the first largest y among samples [a, e).  keep needs 2 *
 * runs + 2 slots. */
typedef void (*thin_extremes_fn)(const void *ctx, size_t a, size_t e,
                                 size_t *lo, size_t *hi);
size_t hpx_thin_runs(const size_t *starts, size_t runs, size_t n,
                     thin_extremes_fn extremes, const void *ctx, size_t *keep);

/* A walk over frame f's band edges: from the source f->b carries when it
 * can draw f, else over the bands' values (every sample, hpx_thin_curve).
 * Close it with (*out)->ops->close.  HP2X_E_NOMEM. */
hp2x_status hpx_thin_open_band_walk(const band_frame *f, band_walk **out,
                                    hp2x_err *err);

#endif
