/* eventlog_part_read.c -- what the reader of one part of an eventlog (on a
 * thread of its own: eventlog_parts.c) keeps for the real reader besides
 * its profile: every event that is not a census's, with where it came; the
 * entries of a census begun before the part (its lead); the part's first
 * census event.  The byte reader (eventlog_stream.c) and the handlers
 * (eventlog_events.c) call it while ev->part is set.
 */
#include "eventlog_part_read.h"

int hpx_evl_part_defers(unsigned type) {
  switch (type) {
  case EV_BLOCK_MARKER:
  case EV_HEAP_PROF_SAMPLE_BEGIN:
  case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
  case EV_HEAP_PROF_SAMPLE_STRING:
  case EV_HEAP_PROF_SAMPLE_END:
  case EV_HEAP_BIO_PROF_SAMPLE_BEGIN: return 0;
  default: return 1;
  }
}

hp2x_status hpx_evl_part_defer(evl_parser *ev, const evl_event *e,
                               hp2x_err *err) {
  evl_part *k = ev->part;
  /* A name is given when its label is first met: an event naming labels
   * after the part's first entry would be handled too late. */
  if ((e->type == EV_HEAP_PROF_COST_CENTRE || e->type == EV_IPE) && k->entries)
    return evl_fail_at(ev, err, ev->event_start,
                       "naming event after a census entry in a part");
  if (hpx_grow((void **)&k->deferred, &k->cap_deferred, k->n_deferred + 1,
               sizeof *k->deferred, err) != HP2X_OK)
    return ev->status = err->code;
  unsigned char *copy = (unsigned char *)hpx_strndup((const char *)e->pl, e->n);
  if (!copy) return ev->status = hpx_nomem(err);
  evl_deferred d = {*e, copy, ev->event_start, ev->p->n_samples, ev->in_sample};
  d.e.pl = copy;
  k->deferred[k->n_deferred++] = d;
  return HP2X_OK;
}

void hpx_evl_part_bound(evl_parser *ev, unsigned type) {
  evl_part *k = ev->part;
  if (!k->seen_bound) {
    k->seen_bound = true;
    k->first_bound = type;
    k->lead_deferred = k->n_deferred;
  }
  if (type != EV_HEAP_PROF_SAMPLE_END)
    k->dups_open = ev->p->warn.duplicate_labels;
}

hp2x_status hpx_evl_part_lead(evl_parser *ev, uint32_t id, int64_t bytes,
                              hp2x_err *err) {
  evl_part *k = ev->part;
  size_t cap = k->cap_lead;
  if (hpx_grow((void **)&k->lead_ids, &cap, k->n_lead + 1, sizeof *k->lead_ids,
               err) != HP2X_OK)
    return ev->status = err->code;
  cap = k->cap_lead;
  if (hpx_grow((void **)&k->lead_values, &cap, k->n_lead + 1,
               sizeof *k->lead_values, err) != HP2X_OK)
    return ev->status = err->code;
  k->cap_lead = cap;
  k->lead_ids[k->n_lead] = id;
  k->lead_values[k->n_lead++] = bytes;
  return HP2X_OK;
}
