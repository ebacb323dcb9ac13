/* band_walk.h -- how drawing asks a picture's stacked bands for the points
 * of their upper edges: for band k, the samples to draw (per device column
 * at most the first, the lowest, the highest and the last, as hpx_thin_curve
 * keeps them) and the edge's heights.  Two implementations: over the bands'
 * values (thin.c, sample by sample) and over a follower's index of the
 * stacked curves (follow.c, per device column).  The render files only draw.
 */
#ifndef HPX_BAND_WALK_H
#define HPX_BAND_WALK_H

#include "bands_int.h"

/* Where a picture's graph lies and how finely it is drawn. */
typedef struct band_frame {
  const hp2x_profile *p;   /* borrowed: the samples' times */
  const hp2x_bands *b;     /* borrowed: the bands drawn */
  double x0_pt, width_pt;  /* the graph's left edge and width, points */
  double y0_pt, height_pt; /* the axis and the graph's height, points */
  size_t columns;          /* device columns across the graph */
  int all_samples;         /* every sample is drawn (columns >= samples) */
} band_frame;

/* Sample s's x in points. */
static inline double band_frame_x(const band_frame *f, size_t s) {
  return f->x0_pt + (f->p->times[s] - f->b->x0) / f->b->xrange * f->width_pt;
}

/* Points per VALUE_UNIT of height. */
static inline double band_frame_yscale(const band_frame *f) {
  return f->height_pt / f->b->yrange;
}

/* Band k's upper edge, as a walk gives it. */
typedef struct band_edge {
  const int64_t *height; /* [n_samples]: the edge's stacked height at each
                            sample, VALUE_UNIT; NULL = 0 everywhere (the
                            axis under a follower's band 0); borrowed
                            from the walk */
  const size_t *keep;    /* samples to draw, increasing; borrowed */
  size_t n_keep;
} band_edge;

/* An open walk over one picture's band edges, asked from the top band
 * down: each k is the one asked before or below it. */
typedef struct band_walk band_walk;
typedef struct band_walk_ops {
  /* Band k's upper edge (k == (size_t)-1: the lower edge of band 0), valid
   * until the next call.  HP2X_E_NOMEM. */
  hp2x_status (*edge)(band_walk *w, size_t k, band_edge *out, hp2x_err *err);
  /* Frees the walk and what it holds. */
  void (*close)(band_walk *w);
} band_walk_ops;
struct band_walk {
  const band_walk_ops *ops; /* an implementation's walk begins with it */
};

/* What bands may carry to be drawn from something faster than their values
 * (hp2x_bands.points; a follower's index). */
typedef struct band_walk_source {
  /* Opens a walk over frame f's bands, or sets *out to NULL (HP2X_OK) when
   * this source cannot give hpx_thin_curve's exact points for f; the caller
   * then walks the values.  HP2X_E_NOMEM. */
  hp2x_status (*open)(const struct band_walk_source *src, const band_frame *f,
                      band_walk **out, hp2x_err *err);
  /* The first sample of band k's largest value. */
  size_t (*peak)(const struct band_walk_source *src, size_t k);
  void *ctx; /* the implementation's state (a follower); borrowed */
} band_walk_source;

#endif
