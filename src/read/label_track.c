/* label_track.c -- the labels of the sample being parsed, for both front
 * ends: which labels the open sample has seen (a repeat is warned about)
 * and the order they came in last time, so that the next sample's labels
 * are guessed before they are looked up (frontends.h declares it, and
 * holds the per-entry part, inline).
 */
#include "frontends.h"

#include <string.h>

void hpx_label_track_init(label_track *t) {
  memset(t, 0, sizeof *t);
  t->first = t->prev = LABEL_NONE;
}

void hpx_label_track_free(label_track *t) {
  hpx_free(t->seen_in);
  hpx_free(t->next);
  hpx_label_track_init(t);
}

hp2x_status hpx_label_track_grow(label_track *t, uint32_t id, hp2x_err *err) {
  size_t old = t->cap, cap = t->cap;
  if (hpx_grow((void **)&t->seen_in, &cap, (size_t)id + 1, sizeof *t->seen_in,
               err) != HP2X_OK)
    return err->code;
  cap = old;
  if (hpx_grow((void **)&t->next, &cap, (size_t)id + 1, sizeof *t->next, err) !=
      HP2X_OK)
    return err->code;
  memset(t->seen_in + old, 0, (cap - old) * sizeof *t->seen_in);
  memset(t->next + old, 0xff, (cap - old) * sizeof *t->next); /* NONE */
  t->cap = cap;
  return HP2X_OK;
}
