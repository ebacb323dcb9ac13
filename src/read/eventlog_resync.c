/* eventlog_resync.c -- recovering from a corrupt event: the census it cuts
 * is dropped, its bytes and those after it are kept, and reading resumes
 * where events frame plausibly again (the stretch skipped goes into the
 * profile's warnings).  The front end feeds events through it
 * (hpx_evl_feed_events), on to the event stream (eventlog_stream.c).
 */
#include "eventlog_int.h"
#include "base/textout.h"

#include <string.h>

/* A corrupt event (evl_corrupt_event: an undeclared type, a size past its
 * block, a time far from its block's, a payload that contradicts itself)
 * costs the census it is in, not the file.  Its bytes and those after it
 * (and, right after an event of variable size, that event's: its size may
 * be what was wrong) are kept, and reading resumes at the first later byte
 * where events frame plausibly again: RESYNC_EVENTS events in a row (or
 * fewer that end the input with the data-end marker, or two or more that
 * end it exactly once it is finished; or a block marker where the
 * enclosing block ends) of declared types, with sizes their payloads agree
 * with and times that run forward from the last ones read in the block and
 * stay near them.  Whether a place is plausible depends only on the bytes,
 * so any chunking of the input resumes at the same place. */
#define RESYNC_EVENTS 4

enum { CHAIN_REJECT, CHAIN_ACCEPT, CHAIN_MORE };

/* Does the payload of an event of type `type` (*n bytes at pl) agree with
 * itself?  An IPE event's *n becomes its real length. */
static int plausible_payload(unsigned type, const unsigned char *pl,
                             size_t *n) {
  switch (type) {
  case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
    return *n >= 10 && *n <= EVL_MAX_STACK_EVENT &&
           10 + 4 * (size_t)pl[9] <= *n;
  case EV_HEAP_PROF_SAMPLE_STRING:
    return *n >= 10 && memchr(pl + 9, '\0', *n - 9) != NULL;
  case EV_BLOCK_MARKER: return *n >= 4 && evl_be32(pl) >= 10 + *n;
  case EV_IPE: {
    long real = hpx_evl_stream_ipe_length(pl, *n);
    if (real < 0) return 0;
    *n = (size_t)real;
    return 1;
  }
  default: return 1;
  }
}

/* Could reading resume at b, `off` (n bytes kept from there), given the
 * recent time read (hpx_evl_stream_recent_time)?  CHAIN_MORE when that needs
 * bytes not yet fed (`final`: none will come): *need of them from b at
 * least.  Within a block, times do not go back (but for a few
 * microseconds where the runtime's timer interrupted a write: a
 * millisecond is allowed), so an event there is not older than the last
 * ones read before the fault. */
static int plausible_events(const evl_parser *ev, const unsigned char *b,
                            size_t n, long long off, uint64_t recent, int final,
                            size_t *need) {
  const uint64_t minute_ns = 60000000000u, ms_ns = 1000000u;
  uint64_t t_hi = recent + (recent > minute_ns ? recent : minute_ns);
  if (ev->last_time_ns > t_hi) t_hi = ev->last_time_ns;
  int at_block_end = off == ev->block_end;
  int in_block = ev->block_end < 0 || off < ev->block_end;
  uint64_t t_lo = !in_block        ? ev->block_time_ns
                  : recent > ms_ns ? recent - ms_ns
                                   : 0;
  int more = final ? CHAIN_REJECT : CHAIN_MORE;
  size_t pos = 0;
  for (int count = 0; count < RESYNC_EVENTS; count++) {
    *need = pos + 2;
    if (n - pos < 2)
      return final && count >= 2 && pos == n ? CHAIN_ACCEPT : more;
    unsigned type = evl_be16(b + pos);
    *need = pos + 3;
    if (type == EV_DATA_END) /* GHC writes nothing after it */
      return n - pos > 2 ? CHAIN_REJECT : final ? CHAIN_ACCEPT : CHAIN_MORE;
    int32_t size = evl_declared_size(ev, type);
    if (size == EVL_UNDECLARED) return CHAIN_REJECT;
    size_t head = size == EVL_VARIABLE ? 12 : 10;
    *need = pos + head;
    if (n - pos < head) return more;
    uint64_t t = evl_be64(b + pos + 2);
    if (t > t_hi || (type != EV_BLOCK_MARKER && t < t_lo)) return CHAIN_REJECT;
    t_lo = t;
    size_t payload = size == EVL_VARIABLE ? evl_be16(b + pos + 10)
                                          : (size_t)size;
    *need = pos + head + payload;
    if (n - pos - head < payload) return more;
    if (!plausible_payload(type, b + pos + head, &payload)) return CHAIN_REJECT;
    if (type == EV_BLOCK_MARKER && at_block_end && count == 0)
      return CHAIN_ACCEPT;
    pos += head + payload;
  }
  return CHAIN_ACCEPT;
}

/* Finds where to resume in ev->kept, trying places from kept_next on.  Returns
 * 1 with *at set, or 0 when that needs more bytes (`final`: there is no
 * such place).  Bytes before the places still to try are let go. */
static int find_resume(evl_parser *ev, int final, size_t *at) {
  uint64_t recent = hpx_evl_stream_recent_time(ev);
  for (; ev->kept_next < ev->kept_len; ev->kept_next++) {
    size_t c = ev->kept_next;
    /* an event type's first byte (GHC's types are all below 256): none
     * declared with it, and not the data end's, is rejected at once */
    if (ev->kept[c] != 0xff && !ev->size_of[ev->kept[c]]) continue;
    if (!final && ev->kept_len < ev->kept_need) break; /* still too few */
    ev->kept_need = 0;
    size_t need = 0;
    int v = plausible_events(ev, ev->kept + c, ev->kept_len - c,
                             ev->kept_base + (long long)c, recent, final,
                             &need);
    if (v == CHAIN_ACCEPT) {
      *at = c;
      return 1;
    }
    if (v == CHAIN_MORE) {
      ev->kept_need = c + need;
      break;
    }
  }
  /* Rarely (the bytes tried are at least half of those kept): moving the
   * rest down costs no more than what has been tried. */
  if (ev->kept_next > 0 && ev->kept_next >= ev->kept_len - ev->kept_next) {
    memmove(ev->kept, ev->kept + ev->kept_next, ev->kept_len - ev->kept_next);
    ev->kept_len -= ev->kept_next;
    ev->kept_base += (long long)ev->kept_next;
    ev->kept_need =
        ev->kept_need > ev->kept_next ? ev->kept_need - ev->kept_next : 0;
    ev->kept_next = 0;
  }
  return 0;
}

/* Keeps buf for the search of where to resume. */
static hp2x_status keep_for_resync(evl_parser *ev, const unsigned char *buf,
                                   size_t len, hp2x_err *err) {
  if (hpx_grow((void **)&ev->kept, &ev->kept_cap, ev->kept_len + len, 1, err) !=
      HP2X_OK)
    return ev->status = err->code;
  if (len) memcpy(ev->kept + ev->kept_len, buf, len);
  ev->kept_len += len;
  ev->offset += (long long)len;
  return HP2X_OK;
}

/* The corrupt event at ev->event_start (its bytes gathered in ev->partial, or
 * starting at rest) has just been met: drops the census it is in and keeps
 * its bytes and the n of rest to look for where to resume. */
static hp2x_status enter_resync(evl_parser *ev, const unsigned char *rest,
                                size_t n, hp2x_err *err) {
  ev->corrupt = 0;
  ev->status = HP2X_OK;
  if (err) hp2x_err_init(err);
  ev->fault_offset = ev->event_start;
  if (ev->in_sample) {
    hp2x_warnings *w = &ev->p->warn;
    if (!w->censuses_lost++) w->first_lost_census_s = ev->sample_time_s;
    hpx_profile_abort_sample(ev->p);
    label_track_drop(&ev->track);
    ev->in_sample = 0;
    ev->cut = CUT_DROPPING;
  } else if (ev->cut == CUT_NONE) {
    ev->cut = CUT_DROPPING_UNSEEN; /* else still in the census cut before */
  }
  size_t gathered = ev->partial_len;
  ev->partial_len = ev->partial_need = 0;
  ev->skip = 0;
  ev->resyncing = 1;
  ev->kept_len = 0;
  ev->kept_base = ev->event_start;
  ev->kept_next = 1;
  ev->kept_need = 0;
  /* Right after an event of variable size: its size may be what is wrong
   * (it swallowed what followed it), so the search starts inside it. */
  size_t before = 0;
  ev->prev_type = 0;
  if (ev->prev_len && ev->prev_len == ev->prev_need &&
      ev->prev_offset + (long long)ev->prev_len == ev->event_start) {
    ev->prev_type = evl_be16(ev->prev);
    ev->kept_base = ev->prev_offset;
    before = ev->prev_len;
  }
  ev->kept_from = ev->kept_base;
  /* While reading kept bytes after resuming, the fault lies in them: keep
   * them where they are rather than copy the rest each time. */
  if (ev->resumed && !gathered && ev->event_start >= ev->resumed_base &&
      ev->kept_base >= ev->resumed_base) {
    size_t from = (size_t)(ev->kept_base - ev->resumed_base);
    ev->kept = ev->resumed;
    ev->kept_len = ev->resumed_len;
    ev->kept_cap = ev->resumed_cap;
    ev->kept_base = ev->resumed_base;
    ev->kept_next = from + 1;
    ev->kept_need = 0;
    ev->resumed = NULL;
    ev->prev_len = 0;
    ev->offset = ev->kept_base + (long long)ev->kept_len;
    (void)rest;
    (void)n;
    return HP2X_OK;
  }
  ev->offset = ev->kept_base;
  if (keep_for_resync(ev, ev->prev, before, err) != HP2X_OK ||
      keep_for_resync(ev, ev->partial, gathered, err) != HP2X_OK)
    return err->code;
  ev->prev_len = 0;
  return keep_for_resync(ev, rest, n, err);
}

/* Consumes events from buf, all of it unless an error; bytes after the
 * data-end marker are counted but not read.  From a corrupt event on, the
 * bytes are kept to resynchronise. */
static hp2x_status consume_events(evl_parser *ev, const unsigned char *buf,
                                  size_t len, hp2x_err *err) {
  if (ev->resyncing) return keep_for_resync(ev, buf, len, err);
  size_t used;
  if (hpx_evl_stream_consume(ev, buf, len, &used, err) == HP2X_OK)
    return HP2X_OK;
  if (!ev->corrupt || err->code != HP2X_E_SYNTAX) return err->code;
  return enter_resync(ev, buf + used, len - used, err);
}

/* Resumes reading at ev->kept[at]: records the stretch skipped, then reads
 * the bytes kept from there on. */
static hp2x_status resume_at(evl_parser *ev, size_t at, hp2x_err *err) {
  hp2x_warnings *w = &ev->p->warn;
  long long to = ev->kept_base + (long long)at;
  if (to < ev->fault_offset) { /* the event before it was the wrong one */
    size_t k = strlen(ev->fault_msg);
    hpx_fmt(ev->fault_msg + k, sizeof ev->fault_msg - k,
            ", after an event of type %u claiming %lld bytes", ev->prev_type,
            ev->fault_offset - ev->kept_from);
    ev->fault_offset = ev->kept_from; /* not kept_base: it moved on */
  }
  if (!w->corrupt_regions++) {
    w->corrupt_from = ev->fault_offset;
    w->corrupt_to = to;
    memcpy(w->corrupt_reason, ev->fault_msg, sizeof w->corrupt_reason);
    w->corrupt_reason[sizeof w->corrupt_reason - 1] = '\0';
  }
  ev->resumed = ev->kept;
  ev->resumed_len = ev->kept_len;
  ev->resumed_cap = ev->kept_cap;
  ev->resumed_base = ev->kept_base;
  ev->kept = NULL;
  ev->kept_len = ev->kept_cap = ev->kept_next = 0;
  ev->resyncing = 0;
  ev->offset = to;
  hp2x_status st =
      consume_events(ev, ev->resumed + at, ev->resumed_len - at, err);
  hpx_free(ev->resumed); /* NULL when a new fault kept them */
  ev->resumed = NULL;
  return st;
}

/* Consumes buf as events, resuming after each corrupt stretch as soon as
 * the place to resume is known. */
hp2x_status hpx_evl_feed_events(evl_parser *ev, const unsigned char *buf,
                                size_t len, int final, hp2x_err *err) {
  hp2x_status st = consume_events(ev, buf, len, err);
  size_t at;
  while (st == HP2X_OK && ev->resyncing && find_resume(ev, final, &at))
    st = resume_at(ev, at, err);
  return st;
}
