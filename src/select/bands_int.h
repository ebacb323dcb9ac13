/* bands_int.h -- private to libhp2x: the chosen bands' fields (bands.c
 * owns them) and the steps of hp2x_bands_select that the follower
 * (follow.c) reuses to keep a growing profile's bands up to date.
 */
#ifndef HPX_BANDS_INT_H
#define HPX_BANDS_INT_H

#include "model/model.h"

struct hp2x_bands {
  size_t n_bands;
  size_t n_samples;
  char **names;      /* [n_bands] owned; index 0 = bottom */
  label_text *texts; /* [n_bands] what each name leaves out and how the
                        key shortens it (profile_labels.h; details
                        owned), or NULL when no band has any */
  int is_other;      /* 1 when band 0 is the merged OTHER band */
  int64_t *values;   /* band-major: band k's value at sample s is
                        values[k * stride + s]; owned */
  size_t stride;     /* >= n_samples: room per band (a follower's bands
                        grow in place) */
  /* how drawing gets the bands' points when not from values (band_walk.h): a
   * follower's index, borrowed from it; NULL */
  const struct band_walk_source *points;
  double xrange;    /* seconds: the samples' time span, or the .aux
                       X_RANGE when larger; 1.0 instead of 0 */
  double yrange;    /* VALUE_UNIT: the largest stacked height (and
                       --heap point), or the .aux Y_RANGE when larger,
                       or with a shared axis the profiles' largest;
                       1.0 instead of 0 */
  double area;      /* VALUE_UNIT x seconds: the stacked heights'
                       trapezoid area over time */
  double *shades;   /* [n_bands] aux SHADE value or -1 if none; owned */
  double x0;        /* seconds at the graph's left edge: the first
                       sample's time, or with a shared time axis the
                       earliest first sample of all the profiles */
  int x_span_ticks; /* x ticks run to x0 + xrange (a shared axis), not
                       only to the last sample (hp2ps) */
  double ymin;      /* VALUE_UNIT at the graph's bottom: 0, or below 0
                       for a diff chart; yrange spans ymin .. top */
  int is_signed;    /* values may be negative (diff chart): drawn
                       diverging from zero */
  int breakdown;    /* the profile's breakdown when it arranges the
                       bands (breakdown.h: -hb, or -he with era
                       numbers for labels), else 0 */
};

/* label_filter.c: *filtered[id] for every label of p, 1 when o->include_re
 * matches neither its name nor its detail or o->exclude_re matches either;
 * *filtered NULL (nothing filtered) when neither is given.  Owned by the
 * caller (hpx_free).  HP2X_E_ARG for a regex that does not compile,
 * HP2X_E_NOMEM. */
hp2x_status hpx_labels_filter(const hp2x_profile *p, const hp2x_options *o,
                              unsigned char **filtered, hp2x_err *err);

/* bands.c, the steps of hp2x_bands_select for follow.c. */
hp2x_status hpx_bands_check_options(const hp2x_options *o, hp2x_err *err);
/* hp2ps's selection over p's labels, from their sums (profile_labels.h):
 * sets b's n_bands, is_other, names and shades (owned by b), and
 * band_of[id] for each of p's labels: its band, or -1. */
hp2x_status hpx_bands_plan(const hp2x_profile *p, const hp2x_options *o,
                           hp2x_bands *b, int32_t *band_of, hp2x_err *err);
/* Adds the values of p's samples [from, b->n_samples) to b->values (zero
 * there before), label id l going to band band_of[to_names ? to_names[l] :
 * l]. */
void hpx_bands_fill(hp2x_bands *b, const int32_t *band_of,
                    const uint32_t *to_names, const hp2x_profile *p,
                    size_t from);
/* Running figures over the samples' stacked heights: the y range and the
 * area in the title. */
typedef struct bands_heights {
  double ymax; /* largest stacked height, VALUE_UNIT */
  double area; /* trapezoid area so far */
  double prev; /* the last sample's stacked height */
} bands_heights;
/* Folds samples [from, b->n_samples) of b into h, in order. */
void hpx_bands_heights_scan(const hp2x_bands *b, const hp2x_profile *p,
                            size_t from, bands_heights *h);
/* Fills b->values (zero, n_samples and stride set) from all of p's
 * samples, on up to `threads` threads, and folds their stacked heights
 * into h. */
void hpx_bands_fill_all(hp2x_bands *b, const int32_t *band_of,
                        const uint32_t *to_names, const hp2x_profile *p,
                        size_t threads, bands_heights *h);
/* The area of the labels drawn (band_of[to_names ? to_names[id] : id] >= 0)
 * from their sums: a thinned profile's area figure. */
double hpx_bands_label_area(const hp2x_profile *p, const int32_t *band_of,
                            const uint32_t *to_names);
/* b's x0, xrange, yrange and area from h, the --heap lines and the .aux. */
void hpx_bands_set_ranges(hp2x_bands *b, const hp2x_profile *p,
                          const hp2x_options *o, const bands_heights *h);

/* bands.c: gives b (n_bands set, texts NULL) band k's text t (copied)
 * when t has any, making b->texts on first use.  HP2X_E_NOMEM. */
hp2x_status hpx_bands_set_text(hp2x_bands *b, size_t k, const label_text *t,
                               hp2x_err *err);

/* bands.c, for select_many.c: hp2ps's selection over the labels of
 * `names` (the profiles ps[0..n) combined; to_names[i][id] is the id in
 * names of ps[i]'s label id), then out[i] (made here) holds ps[i]'s
 * values in those bands.  On failure the caller frees out[0..n) (NULL
 * where not made). */
hp2x_status hpx_bands_select_shared(const hp2x_profile *names,
                                    uint32_t *const *to_names,
                                    const hp2x_profile *const *ps, size_t n,
                                    const hp2x_options *o, hp2x_bands **out,
                                    hp2x_err *err);

/* bands.c: v rounded to the nearest int64, saturating (NaN: 0). */
int64_t hpx_bands_round(double v);

/* ---------------------------------------- the follower, for tests only */

/* How many pictures have been drawn from f's index (its band_walk_source
 * opened a walk rather than declining). */
size_t hpx_follow_index_walks(const hp2x_follower *f);

/* The first sample of the smallest and of the largest stacked upper edge of
 * f's band k among samples [lo, hi) (lo < hi <= samples selected), from the
 * index; k == (size_t)-1 is the axis.  f's last selection was a picture's. */
void hpx_follow_index_extremes(const hp2x_follower *f, size_t k, size_t lo,
                               size_t hi, size_t *min_at, size_t *max_at);

#endif
