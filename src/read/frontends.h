/* frontends.h -- private to libhp2x: the two front ends' streaming trio
 * (new, feed, finish), which the generic parser (parser.c) drives:
 * .hp text (hp_parse.c) and GHC eventlogs (eventlog_parse.c), and the
 * per-sample label tracking both share (label_track.c).
 */
#ifndef HPX_FRONTENDS_H
#define HPX_FRONTENDS_H

#include "model/model.h"

/* ------------------------------------------- the readers' hot paths */

/* The 8 bytes at s as a little-endian number (one load where the machine
 * is little-endian; the same value anywhere). */
static HPX_ALWAYS_INLINE uint64_t read_le64(const char *s) {
  const unsigned char *b = (const unsigned char *)s;
  return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
         (uint64_t)b[3] << 24 | (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 |
         (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
}

/* Do the n bytes at a and b agree?  Eight at a time: the label compare
 * of every entry, .hp line or eventlog event. */
static HPX_ALWAYS_INLINE bool read_same_bytes(const char *a, const char *b,
                                              size_t n) {
  if (n < 8) {
    for (size_t i = 0; i < n; i++)
      if (a[i] != b[i]) return false;
    return true;
  }
  for (size_t i = 0; i + 8 <= n; i += 8)
    if (read_le64(a + i) != read_le64(b + i)) return false;
  return read_le64(a + n - 8) == read_le64(b + n - 8);
}

/* The labels of the sample being parsed, for both front ends: labels
 * repeated within a sample (counted for one warning), and the label that
 * followed each label last time.  GHC writes a sample's labels in much the
 * same order every time, so the guess spares most lookups. */
#define LABEL_NONE UINT32_MAX
typedef struct label_track {
  size_t *seen_in; /* per label: the mark of the last sample it was in
                      (1 + the samples committed and dropped
                      unfinished before it) */
  size_t dropped;  /* samples dropped unfinished (label_track_drop) */
  uint32_t *next;  /* per label: the label after it last time */
  size_t cap;      /* slots in both arrays */
  uint32_t first;  /* the first label of the previous sample */
  uint32_t prev;   /* the open sample's last label, or LABEL_NONE */
} label_track;

void hpx_label_track_init(label_track *t);
void hpx_label_track_free(label_track *t);
/* The open sample is dropped: what it held no longer counts as seen. */
static inline void label_track_drop(label_track *t) { t->dropped++; }
/* A new sample begins. */
static inline void label_track_begin(label_track *t) { t->prev = LABEL_NONE; }
/* The label expected next, or LABEL_NONE. */
static inline uint32_t label_track_guess(const label_track *t) {
  return t->prev == LABEL_NONE ? t->first : t->next[t->prev];
}
/* Makes room in t for label `id` (label_track.c). */
hp2x_status hpx_label_track_grow(label_track *t, uint32_t id, hp2x_err *err);
/* Records label `id` in the open sample of `p` (which counts repeats in its
 * warnings; *repeated says whether this one was) and appends the entry.
 * Inline: it runs once per entry. */
static HPX_ALWAYS_INLINE hp2x_status
hpx_label_track_add(label_track *t, hp2x_profile *p, uint32_t id, int64_t value,
                    int *repeated, hp2x_err *err) {
  *repeated = 0;
  if (id >= t->cap && hpx_label_track_grow(t, id, err) != HP2X_OK)
    return err->code;
  size_t mark = p->n_committed + 1 + t->dropped;
  *repeated = t->seen_in[id] == mark;
  if (*repeated) p->warn.duplicate_labels++;
  t->seen_in[id] = mark;
  if (t->prev == LABEL_NONE)
    t->first = id;
  else
    t->next[t->prev] = id;
  t->prev = id;
  return profile_add_entry(p, id, value, err);
}

/* Parts read so far, for tests (hpx_parser_parts): merged, and read as
 * they are (the reader's state did not allow a merge). */
typedef struct parts_count {
  size_t merged, fed;
} parts_count;

/* How a feed is read on several threads (parts.c): on `threads` threads,
 * in parts of about part_bytes (0: chosen from the feed's length). */
typedef struct feed_plan {
  size_t threads;
  size_t part_bytes;
  parts_count *count; /* counts the parts; NULL: not counted */
} feed_plan;

/* The parts a parser has read (parser.c), for tests: a test of threads
 * that never merged a part would test nothing. */
parts_count hpx_parser_parts(const hp2x_parser *ps);

/* Below this many bytes a feed is read on one thread, unless a part size
 * is set (hpx_parser_set_part_bytes). */
#define HPX_PARTS_MIN_FEED ((size_t)1 << 20)

/* Each front end implements the streaming trio for the generic parser in
 * parser.c; the state is opaque to it. */
typedef struct hp_parser hp_parser;
hp_parser *hpx_hp_parse_new(const char *file, hp2x_profile *p, hp2x_err *err);
hp2x_status hpx_hp_parse_feed(hp_parser *hp, const char *buf, size_t len,
                              hp2x_err *err);
hp2x_status hpx_hp_parse_finish(hp_parser *hp, hp2x_err *err);
void hpx_hp_parse_free(hp_parser *hp);

typedef struct evl_parser evl_parser;
evl_parser *hpx_evl_parse_new(const char *file, hp2x_profile *p,
                              const hp2x_parse_options *o, hp2x_err *err);
hp2x_status hpx_evl_parse_feed(evl_parser *ev, const unsigned char *buf,
                               size_t len, hp2x_err *err);
hp2x_status hpx_evl_parse_finish(evl_parser *ev, hp2x_err *err);
int hpx_evl_parse_at_end(const evl_parser *ev);
/* Bytes up to the end of the last whole event read (whole_events.c). */
long long hpx_evl_parse_whole_bytes(const evl_parser *ev);
void hpx_evl_parse_free(evl_parser *ev);

#endif
