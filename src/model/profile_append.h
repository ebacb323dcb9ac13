/* profile_append.h -- private to libhp2x: appending to a profile the samples
 * that a later stretch of the same input was read into, on another thread,
 * as a profile of its own (a part: read/parts.c), with the same result as
 * reading that stretch into the profile itself (profile_append.c).
 */
#ifndef HPX_PROFILE_APPEND_H
#define HPX_PROFILE_APPEND_H

#include "model.h"

/* What a part's profile takes of the profile it is for (read before the
 * parts are, as the part readers may not look at it). */
typedef struct hpx_part_limits {
  size_t max_labels, max_samples;
  bool plain; /* neither bounded by a picture nor by --last */
  bool pack;  /* the whole packs its censuses (pack_values) */
} hpx_part_limits;
hpx_part_limits hpx_part_limits_of(const hp2x_profile *p);

/* Gives *id, the profile's label for label `local` of the part: the front
 * end finds it or interns it (and names it) as its reader would have on
 * meeting it.  Errors as hpx_profile_intern's. */
typedef hp2x_status (*hpx_label_map_fn)(void *ctx, const hp2x_profile *part,
                                        uint32_t local, uint32_t *id,
                                        hp2x_err *err);

/* The part's labels as the profile's.  A part interns its labels in the
 * order of their first entry, so those mapped so far are a prefix: ids
 * 0 .. n-1. */
typedef struct hpx_part_map {
  const hp2x_profile *part; /* borrowed */
  uint32_t *id;             /* [n]: the profile's label of each; owned */
  size_t n, cap;
  hpx_label_map_fn fn; /* how a label is mapped */
  void *ctx;           /* fn's */
  size_t blocks_met;   /* the part's packed blocks whose first census the
                          appends have reached (they take its samples in
                          order, from its first) */
  double parts_left;   /* the input from the part's first byte on, in
                          parts of its size (hpx_part_map_expect); 0:
                          unknown */
  size_t *run_to;      /* [part->n_run_ids]: where in the profile's run_ids
                          the part's run at each place went, SIZE_MAX: not
                          yet (allocated at the first bulk append); owned */
  size_t n_run_to;
} hpx_part_map;

/* A profile for a part of `bytes` bytes: plain (every sample, no
 * window), with the limits of the profile `whole` it is for; when that is
 * not plain, the part's samples are summed as they are appended, not
 * here.  Its entry arrays are allocated for the entries so many bytes
 * hold at most (HPX_PART_BYTES_PER_ENTRY), untouched; `spare`, when not
 * NULL, is an earlier part's profile done with, freed here, whose arrays'
 * memory the new one takes (empty).  NULL when out of memory.  Reads only
 * whole's limits and bounds, fixed while it is read. */
hp2x_profile *hpx_part_profile_new(const hpx_part_limits *whole, size_t bytes,
                                   hp2x_profile *spare);

/* The fewest bytes an entry takes in practice in either format (a .hp
 * entry line, an eventlog's sample event): a part holding more entries
 * grows its arrays as reading one thread does. */
#define HPX_PART_BYTES_PER_ENTRY 16

void hpx_part_map_init(hpx_part_map *m, const hp2x_profile *part,
                       hpx_label_map_fn fn, void *ctx);
void hpx_part_map_free(hpx_part_map *m);
/* Tells m that the part is `bytes` bytes of input and that `left` bytes
 * are left from its first on (itself included).  A plain profile that has
 * to grow to take the part then grows at once for what all of that input
 * holds at the part's density (samples, entries, label runs, packed
 * censuses' places), and an eighth more: the parts after it take that
 * room without growing the arrays again, each step of which copies or
 * moves them (realloc) while the other threads read.  The room is
 * allocated, not touched: pages it does not use are never faulted in. */
void hpx_part_map_expect(hpx_part_map *m, size_t bytes, size_t left);
/* Maps the part's labels below `upto` (its first `upto` labels). */
hp2x_status hpx_part_map_upto(hpx_part_map *m, size_t upto, hp2x_err *err);

/* Could p take the part whole without passing its label or sample limits?
 * Counts the part's labels p does not have (by key, as interning would
 * find them).  A part that might not fit is read in order instead, so that
 * the limit's error comes where reading meets it. */
bool hpx_profile_append_fits(const hp2x_profile *p, const hp2x_profile *part);

/* Appends the part's complete samples [from, to) to p, which has no sample
 * open, as if they had been read into it: labels mapped through m as the
 * samples come, values, label runs shared as reading shares them, each
 * sample committed (for a profile bounded by a picture or by --last, one
 * at a time, with its thinning and sums).  A plain profile (neither) takes
 * them in bulk; its labels' sums then come from hpx_profile_append_sums,
 * once every sample of the part is in.  HP2X_E_NOMEM. */
hp2x_status hpx_profile_append(hp2x_profile *p, hpx_part_map *m, size_t from,
                               size_t to, hp2x_err *err);
/* For a plain profile: adds to p's labels the sums of the part's (over all
 * its complete samples, every one appended), all mapped. */
void hpx_profile_append_sums(hp2x_profile *p, const hpx_part_map *m);

#endif
