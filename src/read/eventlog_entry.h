/* eventlog_entry.h -- private to the eventlog front end: a census entry
 * added to the open sample, and the string sample whose label is the one
 * guessed for it, inline: the handlers (eventlog_events.c) and the byte
 * reader's runs of string samples (eventlog_stream.c) take every entry
 * through here.
 */
#ifndef HPX_EVENTLOG_ENTRY_H
#define HPX_EVENTLOG_ENTRY_H

#include "eventlog_part_read.h"

/* Adds (label id, bytes) to the open sample. */
static HPX_ALWAYS_INLINE hp2x_status evl_add_sample_entry(evl_parser *ev,
                                                          uint32_t id,
                                                          uint64_t bytes,
                                                          hp2x_err *err) {
  if (bytes > (uint64_t)INT64_MAX)
    return evl_corrupt_event(ev, err,
                             "residency does not fit in 64 signed bits");
  if (ev->part) ev->part->entries++;
  if (evl_in_lead(ev)) return hpx_evl_part_lead(ev, id, (int64_t)bytes, err);
  int repeated;
  return hpx_label_track_add(&ev->track, ev->p, id, (int64_t)bytes, &repeated,
                             err);
}

/* The common case of a string sample, before its NUL is looked for: the
 * label expected (`id`, a string label), whole in the `room` bytes at
 * label and followed by its NUL; then it is the label whatever the rest
 * holds (an interned label has no NUL byte, nor is it empty). */
static HPX_ALWAYS_INLINE int evl_guessed_string(const evl_parser *ev,
                                                uint32_t id, const char *label,
                                                size_t room) {
  if (id == LABEL_NONE) return 0;
  const hpx_label *l = &ev->p->labels[id];
  if (l->kind == LABEL_STACK) return 0;
  size_t klen = l->key ? l->key_len : l->name_len;
  const char *k = l->key ? l->key : l->name;
  return klen < room && label[klen] == '\0' && read_same_bytes(k, label, klen);
}

/* The string sample (HEAP_PROF_SAMPLE_STRING) with payload pl (n >= 10
 * bytes) read as its handler reads it in an open sample, when its label is
 * the one guessed for it: 1, and *st says how adding it went (an error
 * sticky in ev->status, at ev->event_start); else 0 and nothing done. */
static HPX_ALWAYS_INLINE int evl_take_guessed_string(evl_parser *ev,
                                                     const unsigned char *pl,
                                                     size_t n, hp2x_status *st,
                                                     hp2x_err *err) {
  uint32_t id = label_track_guess(&ev->track);
  if (!evl_guessed_string(ev, id, (const char *)pl + 9, n - 9)) return 0;
  *st = evl_add_sample_entry(ev, id, evl_be64(pl + 1), err);
  return 1;
}

#endif
