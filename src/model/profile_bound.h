/* profile_bound.h -- private to libhp2x: what a profile keeps so that its
 * memory is bounded by the picture (profile_bound.c) and the --last span
 * (profile_recent.c): the labels' sums, the bounds of the samples, heap
 * series and marks, and the span's ring of slot sums.  model.h includes
 * it: the profile holds these.
 */
#ifndef HPX_PROFILE_BOUND_H
#define HPX_PROFILE_BOUND_H

#include "base/base.h"

/* What band selection needs of a label over every complete sample ever
 * committed, kept as samples come (profile_bound.c): a bounded profile
 * drops samples, its selection does not change. */
typedef struct label_sums {
  int64_t total;    /* sum of the label's values (saturating), in the
                       order bands.c's selection adds them */
  uint64_t entries; /* entries it has had: it is present (has an entry in
                       a complete sample, label_present) when not 0 */
  /* Kept only for a bounded or --last profile: */
  long double sum;    /* of its values (-d) */
  long double sum_sq; /* of their squares (-d) */
  double area;        /* trapezoid area of its values over time, value-
                         unit seconds: half of each step on either side */
} label_sums;

/* Has the label of sums l an entry in a complete sample (that its sums
 * cover)? */
static inline bool label_present(const label_sums *l) {
  return l->entries != 0;
}

/* How many points of a time series a bounded profile keeps
 * (profile_bound.c): 0 columns = every point. */
typedef struct series_bound {
  size_t columns;      /* device columns of the picture drawn; 0 = unbounded */
  size_t thin_at;      /* thin when this many points are held */
  double t_min, t_max; /* the times seen */
  double from;         /* --last: points before this time are dropped;
                          -INFINITY = none */
  double span;         /* --last: the span's length, which buckets split
                          (anchored at 0); 0 = the points' span */
} series_bound;

/* A profile bounded by the picture (profile_bound.c): it keeps, of the
 * samples, the first, the last, and in each time bucket (at most a device
 * column wide) the one of the largest and of the smallest total; of the
 * heap series the same by value, of the marks the first per bucket. */
typedef struct profile_bound {
  series_bound samples;  /* columns 0: every sample is kept */
  int64_t *sample_total; /* [cap_samples]: each kept sample's total */
  size_t cap_total;
  bool thinned;        /* some sample was dropped */
  uint64_t generation; /* counts thinnings: a follower starts over */
  series_bound marks;
  size_t summed; /* samples the labels' sums cover: every one
                    committed, or those in the --last span */
  bool no_sums;  /* a part read for a bounded profile, which sums its
                    samples as they are appended: none here */
  /* Dense samples (profile_bound.c's densify): once thinned, a sample
   * holding most labels, on a label run of its own, is stored with every
   * label's value in id order (0 where absent) on the canonical run, the
   * ids 0, 1, 2, ... that every dense sample shares as a prefix. */
  size_t canon_run; /* where it starts in run_ids */
  size_t canon_len; /* its length; 0 = none yet */
  int64_t *row;     /* [cap_row]: a dense row being built; owned */
  size_t cap_row;
} profile_bound;

/* --last: the labels' sums cover only the most recent SECONDS, in
 * RECENT_SLOTS slots of SECONDS / RECENT_SLOTS (profile_recent.c); a slot
 * that leaves the span is taken out of the sums. */
#define RECENT_SLOTS 256
typedef struct recent_ring {
  double last_s;         /* SECONDS; 0: the whole run */
  double slot_s;         /* last_s / RECENT_SLOTS */
  int64_t first_slot;    /* the span's first slot (time / slot_s) */
  int64_t *slot_of;      /* [RECENT_SLOTS]: the slot each ring entry
                            holds, or INT64_MIN; owned */
  size_t *slot_samples;  /* [RECENT_SLOTS]: samples in each; owned */
  label_sums *slot_sums; /* [RECENT_SLOTS * cap_labels]; owned */
  size_t cap_labels;
} recent_ring;

struct hpx_series; /* model.h */

/* profile_bound.c: bounds p by a picture `columns` device columns wide
 * (0: keeps every sample), before any sample is added. */
void hpx_profile_bound_set(hp2x_profile *p, size_t columns);
/* Keeps only the most recent last_s seconds (> 0), before any sample is
 * added.  HP2X_E_NOMEM. */
hp2x_status hpx_profile_bound_last(hp2x_profile *p, double last_s,
                                   hp2x_err *err);
/* Folds complete sample s (the newest) into its labels' sums, then, for a
 * bounded profile, thins the samples when they reach the bound.
 * HP2X_E_NOMEM. */
hp2x_status hpx_profile_bound_commit(hp2x_profile *p, size_t s, hp2x_err *err);
/* profile_recent.c: the span's sums.  hpx_recent_enter: the sample s (the
 * newest) has come: the span moves up to it (slots that leave it are
 * taken out of the labels' sums) and *slot receives the ring entry whose
 * sums take s's, or NULL when s is older than the span.  HP2X_E_NOMEM
 * (room for the labels' slot sums). */
hp2x_status hpx_recent_enter(hp2x_profile *p, size_t s, label_sums **slot,
                             hp2x_err *err);
/* The sums of the span's slot of time t, or NULL when t is not in the
 * window. */
label_sums *hpx_recent_slot(hp2x_profile *p, double t);
/* The window's first time; -INFINITY without --last. */
double hpx_recent_from(const hp2x_profile *p);
void hpx_recent_free(recent_ring *w);

/* Thins series s when it reaches its bound (after an append). */
void hpx_profile_bound_series(struct hpx_series *s);
/* Thins p's marks when they reach their bound (after an append). */
void hpx_profile_bound_marks(hp2x_profile *p);

#endif
