/* frontends.h -- private to libhp2x: the two front ends' streaming trio
 * (new, feed, finish), which the generic parser (parser.c) drives:
 * .hp text (hp_parse.c) and GHC eventlogs (eventlog_parse.c), and the
 * per-sample label tracking both share (label_track.c).
 */
#ifndef HPX_FRONTENDS_H
#define HPX_FRONTENDS_H

#include "model/model.h"

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
/* Records label `id` in the open sample of `p` (which counts repeats in its
 * warnings; *repeated says whether this one was) and appends the entry. */
hp2x_status hpx_label_track_add(label_track *t, hp2x_profile *p, uint32_t id,
                                int64_t value, int *repeated, hp2x_err *err);

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
