/* eventlog_part_read.h -- private to the eventlog front end: what the
 * reader of one part of an eventlog, on a thread of its own, keeps for the
 * real reader besides its profile (eventlog_part_read.c, called from the
 * byte reader and the handlers), which eventlog_parts.c merges from.
 */
#ifndef HPX_EVENTLOG_PART_READ_H
#define HPX_EVENTLOG_PART_READ_H

#include "eventlog_int.h"

/* An event a part's reader leaves to the real reader (eventlog_parts.c):
 * one that is not a census's, with where it came among the part's
 * samples. */
typedef struct evl_deferred {
  evl_event e;         /* its payload in `copy` */
  unsigned char *copy; /* the payload's bytes (the part's input is its
                          reader's a piece at a time); owned */
  long long offset;    /* the event's byte offset */
  size_t samples;      /* samples the part had completed before it */
  bool open;           /* a sample of the part was open at it */
} evl_deferred;

/* What a part's reader keeps for the real reader besides its profile
 * (eventlog_parts.c).  The census open where a part begins is unknown to
 * its reader: the entries before the part's first census event (its
 * lead) are kept apart, and that event is not checked against what came
 * before; the merge does both. */
struct evl_part {
  evl_deferred *deferred; /* owned */
  size_t n_deferred, cap_deferred;
  uint32_t *lead_ids; /* the lead's labels (the part's) and values;
                         owned */
  int64_t *lead_values;
  size_t n_lead, cap_lead;
  bool seen_bound;      /* a census began or ended in the part */
  unsigned first_bound; /* the first such event's type */
  size_t lead_deferred; /* events deferred before it */
  size_t entries;       /* census entries read, the lead's included */
  long dups_open;       /* repeated labels counted before the sample
                           open at the part's end began */
};

/* eventlog_part_read.c: a part's reader (ev->part set) in the handlers.
 * hpx_evl_part_defer is the handler of every type it leaves to the real
 * reader (hpx_evl_part_defers says which); hpx_evl_part_bound notes a
 * census's first or last event; hpx_evl_part_lead keeps an entry of the
 * lead. */
int hpx_evl_part_defers(unsigned type);
hp2x_status hpx_evl_part_defer(evl_parser *ev, const evl_event *e,
                               hp2x_err *err);
void hpx_evl_part_bound(evl_parser *ev, unsigned type);
hp2x_status hpx_evl_part_lead(evl_parser *ev, uint32_t id, int64_t bytes,
                              hp2x_err *err);
/* Is the reader in a part's lead (no census event yet, none open)? */
static inline bool evl_in_lead(const evl_parser *ev) {
  return ev->part && !ev->part->seen_bound && !ev->in_sample;
}

#endif
