/* profile_recent.c -- --last SECONDS: the labels' sums over the most recent
 * SECONDS of the run only, so that band selection, -d and the area figure
 * describe the span the picture shows.  The span is RECENT_SLOTS
 * slots of SECONDS / RECENT_SLOTS, counted from time 0 (its start snaps to
 * a slot boundary); each slot keeps its own sums in a ring, and a slot
 * that leaves the span is taken out of the running sums.  Memory: the
 * ring, RECENT_SLOTS sums per label.
 */
#include "model.h"

#include <math.h>
#include <string.h>

static bool has_recent(const hp2x_profile *p) { return p->recent.last_s > 0.0; }

double hpx_recent_from(const hp2x_profile *p) {
  if (!has_recent(p) || p->recent.first_slot == INT64_MIN) return -INFINITY;
  return (double)p->recent.first_slot * p->recent.slot_s;
}

void hpx_recent_free(recent_ring *w) {
  hpx_free(w->slot_of);
  hpx_free(w->slot_samples);
  hpx_free(w->slot_sums);
  memset(w, 0, sizeof *w);
}

hp2x_status hpx_profile_bound_last(hp2x_profile *p, double last_s,
                                   hp2x_err *err) {
  recent_ring *w = &p->recent;
  w->slot_of = hpx_malloc(RECENT_SLOTS * sizeof *w->slot_of);
  w->slot_samples = hpx_calloc(RECENT_SLOTS, sizeof *w->slot_samples);
  if (!w->slot_of || !w->slot_samples) {
    hpx_recent_free(w);
    return hpx_nomem(err);
  }
  for (size_t r = 0; r < RECENT_SLOTS; r++) w->slot_of[r] = INT64_MIN;
  w->last_s = last_s;
  p->from_zero = last_s > 0.0;
  w->slot_s = last_s / RECENT_SLOTS;
  w->first_slot = INT64_MIN;
  p->bound.samples.span = last_s;
  p->bound.marks.span = last_s;
  for (size_t k = 0; k < HPX_N_HEAP; k++) p->heap[k].bound.span = last_s;
  return HP2X_OK;
}

/* Room for n_labels sums in every slot. */
static hp2x_status grow_slot_sums(recent_ring *w, size_t n_labels,
                                  hp2x_err *err) {
  if (n_labels <= w->cap_labels) return HP2X_OK;
  size_t cap = w->cap_labels ? w->cap_labels : 16;
  while (cap < n_labels) cap *= 2;
  label_sums *sums = hpx_calloc(RECENT_SLOTS * cap, sizeof *sums);
  if (!sums) return hpx_nomem(err);
  for (size_t r = 0; r < RECENT_SLOTS && w->cap_labels; r++)
    memcpy(sums + r * cap, w->slot_sums + r * w->cap_labels,
           w->cap_labels * sizeof *sums);
  hpx_free(w->slot_sums);
  w->slot_sums = sums;
  w->cap_labels = cap;
  return HP2X_OK;
}

/* Takes ring entry r's sums out of the labels' and empties it. */
static void leave_recent(hp2x_profile *p, size_t r) {
  recent_ring *w = &p->recent;
  label_sums *slot = w->slot_sums + r * w->cap_labels;
  for (size_t id = 0; id < p->n_labels && id < w->cap_labels; id++) {
    label_sums *l = &p->labels[id].sums, *d = &slot[id];
    /* a label without entries in the slot may still have area there:
     * the step to its value in the next slot */
    if (!d->entries && d->area == 0.0) continue;
    l->total -= d->total;
    l->entries -= d->entries;
    l->sum -= d->sum;
    l->sum_sq -= d->sum_sq;
    l->area -= d->area;
    memset(d, 0, sizeof *d);
  }
  p->bound.summed -= w->slot_samples[r];
  w->slot_samples[r] = 0;
  w->slot_of[r] = INT64_MIN;
}

/* The slot number of time t, or INT64_MIN beyond any. */
static int64_t slot_number(const recent_ring *w, double t) {
  double q = floor(t / w->slot_s);
  return q > -0x1p62 && q < 0x1p62 ? (int64_t)q : INT64_MIN;
}

static size_t ring_entry(int64_t slot) {
  return (size_t)(((slot % RECENT_SLOTS) + RECENT_SLOTS) % RECENT_SLOTS);
}

label_sums *hpx_recent_slot(hp2x_profile *p, double t) {
  recent_ring *w = &p->recent;
  int64_t at = slot_number(w, t);
  if (at == INT64_MIN || at < w->first_slot) return NULL;
  size_t r = ring_entry(at);
  return w->slot_of[r] == at ? w->slot_sums + r * w->cap_labels : NULL;
}

hp2x_status hpx_recent_enter(hp2x_profile *p, size_t s, label_sums **slot,
                             hp2x_err *err) {
  *slot = NULL;
  if (!has_recent(p)) return HP2X_OK;
  recent_ring *w = &p->recent;
  /* room for one label at least: *slot is never NULL for a sample in the
   * span, even before any label */
  if (grow_slot_sums(w, p->n_labels ? p->n_labels : 1, err) != HP2X_OK)
    return err->code;
  int64_t at = slot_number(w, p->times[s]);
  if (at == INT64_MIN) return HP2X_OK; /* beyond any span */
  int64_t first = at - (RECENT_SLOTS - 1);
  if (w->first_slot == INT64_MIN || first > w->first_slot) {
    w->first_slot = first;
    for (size_t r = 0; r < RECENT_SLOTS; r++)
      if (w->slot_of[r] != INT64_MIN && w->slot_of[r] < first)
        leave_recent(p, r);
  }
  if (at < w->first_slot) return HP2X_OK; /* older than the span */
  size_t r = ring_entry(at);
  w->slot_of[r] = at;
  w->slot_samples[r]++;
  *slot = w->slot_sums + r * w->cap_labels;
  return HP2X_OK;
}
