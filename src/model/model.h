/* model.h -- private to libhp2x: the sample model's fields (model.c owns
 * them) and how the front ends build it: opening, filling and closing
 * samples, marks and the eventlog's heap series.  Its labels (what one
 * is; interning, renaming, finding them) are profile_labels.h's.  Readers
 * of a profile use its fields directly; writers go through these
 * functions.
 */
#ifndef HPX_MODEL_H
#define HPX_MODEL_H

#include "base/base.h" /* for its users too: every file that builds or
                       writes a model allocates and records errors */
#include "cost_centres.h"
#include "profile_bound.h"
#include "profile_labels.h"

typedef struct hpx_series {
  size_t n, cap;
  double *time_s; /* owned */
  int64_t *bytes; /* owned */
  series_bound bound;
} hpx_series;

/* The eventlog's heap series, in the order --heap draws and keys them
 * (their looks: layout.c's hpx_layout_heap_lines). */
typedef enum hpx_heap_kind {
  HPX_HEAP_SIZE,
  HPX_HEAP_BLOCKS,
  HPX_HEAP_LIVE,
  HPX_N_HEAP
} hpx_heap_kind;

struct hp2x_profile {
  char *job, *date, *sample_unit, *value_unit; /* owned, never NULL */

  /* labels, interned: index = label id, in order of first appearance */
  hpx_label *labels; /* owned array */
  size_t n_labels, cap_labels;
  uint32_t *label_index; /* open-addressing table of id+1 (0 = empty) */
  size_t index_cap;      /* power of two */

  /* complete samples: entries of sample s are [start[s], start[s+1]) */
  size_t n_samples, cap_samples;
  double *times;  /* [n_samples] seconds; owned */
  size_t *start;  /* [n_samples + 1]; owned */
  size_t *run_of; /* [n_samples]: where in run_ids the labels of
                     sample s begin (entry e's label is
                     run_ids[run_of[s] + e - start[s]]);
                     cap_samples slots; owned */
  size_t cap_start;

  /* values (bytes, VALUE_UNIT) of the entries not packed (below: the
   * open sample's, or every one of a profile that does not pack): 32 bits each
   * while every value is in 0..UINT32_MAX, as in nearly every profile (it takes
   * 4 GiB in one cost centre at one sample to exceed it); the first value that
   * is not widens them all to 64 bits.  Read them with hpx_values_of. */
  size_t n_entries, cap_entries; /* cap_entries: usable (prefaulted) */
  size_t alloc_entries;          /* allocated capacity, >= cap_entries */
  bool wide_values;              /* value64 in use, not value32 */
  /* value32 holds a value >> value_shift: 0, or 3 (words of 8 bytes, as GHC
   * counts them) once a value past UINT32_MAX came while every value was a
   * multiple of 8: 32 bits then reach 32 GiB */
  unsigned value_shift;
  uint32_t low_bits; /* the low 3 bits of every value stored in the tail
                        (packed censuses copied from a part add none),
                        or'ed */
  uint32_t *value32; /* owned; NULL once wide */
  int64_t *value64;  /* owned; NULL until wide */
  /* Packed censuses (values_pack.c): a plain profile's complete samples
   * [0, n_packed_samples) are coded in blocks of bytes (census s's from
   * packed_at[s]); value32/value64 hold the entries from value_base on
   * (value32[e - value_base] is entry e's), with value_base the first
   * entry not packed.  Read entries with a census reader (hpx_values_of). */
  size_t value_base;
  size_t n_packed_samples;
  const uint8_t **packed_at; /* [n_packed_samples]; owned (not the bytes) */
  size_t cap_packed_at;
  uint8_t **blocks; /* owned, each owned */
  size_t n_blocks, cap_blocks;
  uint8_t *fill;       /* where the next census's bytes go, in the last block */
  size_t fill_left;    /* bytes from fill to the last block's end */
  size_t packed_bytes; /* every packed census's bytes */
  size_t pack_key;     /* the census the next one may be coded against */
  uint64_t *key_units; /* its values as packed, when key_known; owned */
  size_t cap_key_units;
  bool key_known;
  uint8_t *pack_scratch; /* a census too big for the last block's room,
                            encoded before it is copied; owned */
  size_t cap_pack_scratch;
  /* Pack censuses as they close: set, before the first census, for an
   * input fed at once that is HPX_PACK_FROM_BYTES long or longer, or
   * hp2x_parse_options's pack_bytes (parser.c), and for its parts.  Packing
   * saves memory (about 2.4 bytes a value for 4) at some 50 instructions a
   * value, written and read: paid only where the values would take tens of
   * megabytes. */
  bool pack_values;
  /* Label runs: a sample's labels in order, shared with the sample before
   * or (plain) a run in the run table (profile_labels.h) of the same
   * labels.  The open sample's labels are at the end, from open_run on. */
  uint32_t *run_ids; /* label ids; owned */
  size_t n_run_ids, cap_run_ids;
  hpx_run_slot *run_slots; /* the run table; owned */
  size_t cap_run_slots, n_run_slots, open_run;
  bool run_slots_full; /* a run found no room: equal runs may be apart */
  size_t n_committed;  /* complete samples ever, kept or not */
  bool sample_open;    /* a BEGIN has been seen without its END */
  double open_time;    /* time of the open sample, seconds */

  /* marks */
  size_t n_marks, cap_marks;
  double *mark_time; /* seconds; owned */
  char **mark_label; /* owned strings, "" for .hp MARKs */

  /* eventlog extras (for overlays); empty for .hp input */
  hpx_series heap[HPX_N_HEAP]; /* by hpx_heap_kind */
  int breakdown;               /* HEAP_PROF_BEGIN breakdown code; 0 = unknown */
  int text_breakdown;          /* .hp text: the breakdown its JOB's +RTS flag
                                  or its labels' shape tell (read/
                                  hp_breakdown.c); an eventlog: the one its
                                  program's +RTS arguments ask for, which a
                                  stream joined mid-run has instead of
                                  HEAP_PROF_BEGIN's; 0 = unknown.  Not in the
                                  title, which stays hp2ps's for a .hp and
                                  says "breakdown not in stream" mid-run */
  bool heap_profile;           /* the input holds a heap profile: .hp text
                                  always, an eventlog from HEAP_PROF_BEGIN or
                                  its first census on */
  bool began_mid_run;          /* an eventlog's census came before any
                                  HEAP_PROF_BEGIN: a stream a client joined
                                  mid-run (the runtime does not post that event
                                  again when logging restarts), whose breakdown
                                  and sampling period are not in it */
  uint64_t interval_ns;        /* sampling period; 0 = unknown */
  hpx_cost_centres ccs;        /* an eventlog's cost centres (-hc) */
  bool has_wall_clock;         /* an eventlog's WALL_CLOCK_TIME was read: */
  int64_t wall_unix_ns;        /* the Unix time, in ns, it gave ... */
  double wall_at_s;            /* ... at this time of the x axis, seconds */

  profile_bound bound; /* what is kept when the picture bounds it */
  recent_ring recent;  /* --last: the most recent SECONDS */
  bool from_zero;      /* --last, kept by a copy: the report's buckets from 0 */

  hp2x_warnings warn;
  bool entries_dropped; /* hp2x_profile_drop_entries was called */

  /* limits this profile is read with (HPX_MAX_* or lower) */
  size_t max_labels, max_samples;
};

hp2x_profile *hpx_profile_new(hp2x_err *err);

/* Header field setters; copy `len` bytes of `s`. */
typedef enum {
  PROFILE_JOB,
  PROFILE_DATE,
  PROFILE_SAMPLE_UNIT,
  PROFILE_VALUE_UNIT
} profile_field;
hp2x_status hpx_profile_set_header(hp2x_profile *p, profile_field f,
                                   const char *s, size_t len, hp2x_err *err);

/* HP2X_E_ARG once hp2x_profile_drop_entries (hp2x.h) has freed p's entries. */
hp2x_status hpx_profile_require_entries(const hp2x_profile *p, hp2x_err *err);

/* Sample building: begin (opens), add entries, end (commits) or abort
 * (drops the open sample's entries). */
void hpx_profile_begin_sample(hp2x_profile *p, double time_s);
#include "profile_values.h" /* appending and reading entries' values */
/* The label of entry e of complete sample s. */
static inline uint32_t profile_entry_label(const hp2x_profile *p, size_t s,
                                           size_t e) {
  return p->run_ids[p->run_of[s] + (e - p->start[s])];
}
hp2x_status hpx_profile_end_sample(hp2x_profile *p, hp2x_err *err);
void hpx_profile_abort_sample(hp2x_profile *p);
/* Room for n more samples' times, runs and ends (HP2X_E_NOMEM). */
hp2x_status hpx_profile_reserve_samples(hp2x_profile *p, size_t n,
                                        hp2x_err *err);

hp2x_status hpx_profile_add_mark(hp2x_profile *p, double time_s,
                                 const char *label, size_t len, hp2x_err *err);
hp2x_status hpx_profile_series_add(hpx_series *s, double time_s, int64_t bytes,
                                   hp2x_err *err);

/* How the profile is broken down, in words for the title's second line
 * and --summary: the HEAP_PROF_BEGIN code's ("by era, -he"), "breakdown
 * not in stream" for a stream joined mid-run, else NULL (.hp text does not
 * say). */
static inline const char *profile_breakdown_words(const hp2x_profile *p) {
  const char *words = hp2x_breakdown_text((hp2x_breakdown)p->breakdown);
  if (!words && p->began_mid_run) words = "breakdown not in stream";
  return words;
}

/* Entries of complete samples only (excludes an open sample). */
static inline size_t profile_complete_entries(const hp2x_profile *p) {
  return p->start[p->n_samples];
}

#endif
