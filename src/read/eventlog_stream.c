/* eventlog_stream.c -- the event stream after the header: each event framed
 * by the size its type declares (an IPE event by its content), checked
 * against its block and the times before it, gathered or skipped across
 * feeds, and handed whole to its handler (eventlog_events.c); runs of
 * census entries and skipped events read in one loop (event_run).  It stops at
 * the first event that fails; recovering from a corrupt one is
 * eventlog_resync.c's.
 */
#include "eventlog_entry.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

/* An event that hp2x reads is parsed in place when it lies whole in the
 * caller's buffer, else gathered in ev->partial first, so any split of the
 * bytes gives the same result.  Events are framed one by one from the
 * sizes the header declares; an event may not run past the end of its
 * block (GHC 9.2 and later count the data-end marker in the last block's
 * size, which only makes it larger).  Every GHC from 8.0 on is read this
 * way. */

/* Calls `handle` on the whole event at e (header of `head` bytes, then
 * `payload` bytes).  An error of the model (a limit, memory) is given the
 * event's byte offset. */
static hp2x_status dispatch_event(evl_parser *ev, evl_handler handle,
                                  const unsigned char *e, size_t head,
                                  size_t payload, hp2x_err *err) {
  evl_event event = {evl_be16(e), (double)evl_be64(e + 2) / 1e9,
                     evl_be64(e + 2), e + head, payload};
  hp2x_status st = handle(ev, &event, err);
  if (st != HP2X_OK) {
    if (err && err->offset < 0) err->offset = ev->event_start;
    ev->status = st;
  }
  return st;
}

/* Consumes the data-end marker at ev->event_start: nothing after it is
 * read. */
static void consume_data_end(evl_parser *ev, int gathered, size_t *pos) {
  ev->at_end = 1;
  if (!gathered) {
    *pos += 2;
    ev->offset += 2;
  }
  ev->partial_len = 0;
}

/* Keeps the latest timestamp read, for resynchronising (a plausible
 * event's time is not far past it). */
static HPX_ALWAYS_INLINE void note_time(evl_parser *ev,
                                        const unsigned char *e) {
  uint64_t t = evl_be64(e + 2);
  if (t > ev->last_time_ns) ev->last_time_ns = t;
  if (ev->n_recent && t >= ev->recent_ns[(ev->n_recent - 1) % RECENT_TIMES])
    ev->recent_rising++;
  else
    ev->recent_rising = 1;
  ev->recent_ns[ev->n_recent++ % RECENT_TIMES] = t;
}

/* The median time of the last events read in the enclosing block (one
 * corrupt timestamp among them does not move it), from the clock's counts:
 * n_recent events pushed into the ring, the last `rising` of them each no
 * earlier than the one before; 0 when none. */
static uint64_t sorted_recent_time(const evl_parser *ev, size_t n);

static HPX_ALWAYS_INLINE uint64_t recent_from(const evl_parser *ev,
                                              size_t n_recent, size_t rising) {
  size_t n = n_recent < RECENT_TIMES ? n_recent : RECENT_TIMES;
  /* The common case, every event a check: the ring's times rise in the
   * order they came, so that order is the sorted one. */
  if (n && rising >= n)
    return ev->recent_ns[(n_recent - n + n / 2) % RECENT_TIMES];
  return sorted_recent_time(ev, n);
}

static inline uint64_t recent_time(const evl_parser *ev) {
  return recent_from(ev, ev->n_recent, ev->recent_rising);
}

uint64_t hpx_evl_stream_recent_time(const evl_parser *ev) {
  return recent_time(ev);
}

/* recent_time's median of the n last times when they did not come in
 * order. */
static uint64_t sorted_recent_time(const evl_parser *ev, size_t n) {
  uint64_t t[RECENT_TIMES];
  for (size_t i = 0; i < n; i++) { /* insertion sort: a few values */
    size_t j = i;
    for (; j > 0 && t[j - 1] > ev->recent_ns[i]; j--) t[j] = t[j - 1];
    t[j] = ev->recent_ns[i];
  }
  return n ? t[n / 2] : 0;
}

/* Could an event of type `type` be timed t_ns, read in the flow of its
 * block, after n_recent events of which the last `rising` rose (the
 * clock's counts: ev's, or event_run's copies of them)?  GHC's clock does
 * not go back: within a block an event is not older than the last ones (a
 * second is allowed; a block marker starts a block of its own time), nor
 * absurdly later.  What a misread event takes for a time is mostly
 * neither.  The one definition of the check: plausible_time and event_run
 * (run_plausible) both call it. */
static HPX_ALWAYS_INLINE int plausible_from(const evl_parser *ev, unsigned type,
                                            uint64_t t_ns, size_t n_recent,
                                            size_t rising) {
  const uint64_t s_ns = 1000000000u, fortnight_ns = 14 * 86400 * s_ns;
  uint64_t recent;
  if (rising >= RECENT_TIMES && n_recent >= RECENT_TIMES) {
    /* the common case first: recent_from's median, a full ring that rose
     * (its fourth newest time) */
    recent = ev->recent_ns[(n_recent - RECENT_TIMES / 2) % RECENT_TIMES];
  } else {
    if (n_recent < 3) return 1;
    recent = recent_from(ev, n_recent, rising);
  }
  if (type != EV_BLOCK_MARKER && t_ns + s_ns < recent) return 0;
  return t_ns <= recent + fortnight_ns || t_ns / 64 <= recent;
}

static HPX_ALWAYS_INLINE int plausible_time(const evl_parser *ev, unsigned type,
                                            uint64_t t_ns) {
  return plausible_from(ev, type, t_ns, ev->n_recent, ev->recent_rising);
}

int hpx_evl_stream_plausible(const evl_parser *ev, unsigned type,
                             uint64_t t_ns) {
  return plausible_time(ev, type, t_ns);
}

/* How the event at e (avail bytes) is framed: *head gets its header's
 * length (2 while the type is unread, then 10 or 12) and, once the header
 * is there, *payload its payload's.  Returns HP2X_OK, or an error for an
 * undeclared type or an impossible size. */
static hp2x_status frame_event(evl_parser *ev, const unsigned char *e,
                               size_t avail, size_t *head, uint64_t *payload,
                               hp2x_err *err) {
  char msg[160];
  unsigned type = evl_be16(e);
  int32_t size = evl_declared_size(ev, type);
  if (size == EVL_UNDECLARED) {
    hpx_fmt(msg, sizeof msg,
            "event type %u is not declared in the header (corrupt "
            "eventlog?)",
            type);
    return evl_corrupt_event(ev, err, msg);
  }
  *head = size == EVL_VARIABLE ? 12 : 10;
  if (avail < *head) return HP2X_OK;
  /* Both sizes are 16-bit: an event is at most 64 KiB. */
  *payload = size == EVL_VARIABLE ? evl_be16(e + 10) : (uint64_t)size;
  if (type == EV_HEAP_PROF_SAMPLE_COST_CENTRE &&
      *payload > EVL_MAX_STACK_EVENT) {
    hpx_fmt(msg, sizeof msg,
            "HEAP_PROF_SAMPLE_COST_CENTRE claims %u bytes; a 255-deep "
            "stack needs %d",
            (unsigned)*payload, 10 + 4 * 255);
    return evl_corrupt_event(ev, err, msg);
  }
  if (!plausible_time(ev, type, evl_be64(e + 2))) {
    hpx_fmt(msg, sizeof msg,
            "event type %u is timed %.6f s, far from the events before it "
            "(%.6f s)",
            type, (double)evl_be64(e + 2) / 1e9,
            (double)hpx_evl_stream_recent_time(ev) / 1e9);
    return evl_corrupt_event(ev, err, msg);
  }
  /* GHC's block sizes are exact (from 9.2 on the last one also counts the
   * data-end marker): an event cannot run past its block. */
  size_t slack = type == EV_IPE; /* declared one byte long: see below */
  if (type != EV_BLOCK_MARKER && ev->block_end >= 0 &&
      ev->event_start + (long long)(*head + *payload - slack) > ev->block_end) {
    hpx_fmt(msg, sizeof msg,
            "event type %u claims %u bytes, past the end of its block at "
            "byte %lld",
            type, (unsigned)*payload, ev->block_end);
    return evl_corrupt_event(ev, err, msg);
  }
  return HP2X_OK;
}

/* The payload length an IPE event (169) really has, from its content: the
 * info pointer (8 bytes), then six NUL-terminated strings.  GHC 9.2 declares
 * exactly that; GHC 9.6 and 9.10 declare one byte more than they write (the
 * size counts a NUL after the file name that is never posted), so the next
 * event starts one byte before the declared end.  A declared size larger
 * still keeps its bytes (fields a later runtime may append).  -1 when the
 * six strings do not fit in the `declared` bytes at pl. */
long hpx_evl_stream_ipe_length(const unsigned char *pl, size_t declared) {
  size_t pos = 8;
  if (declared < pos) return -1;
  for (int i = 0; i < 6; i++) {
    const unsigned char *z =
        pos < declared ? memchr(pl + pos, '\0', declared - pos) : NULL;
    if (!z) return -1;
    pos = (size_t)(z - pl) + 1;
  }
  return declared - pos <= 1 ? (long)pos : (long)declared;
}

/* Frames the whole IPE event at e by its content (hpx_evl_stream_ipe_length):
 * *payload becomes its real length.  An error when its strings run past
 * its declared size. */
static hp2x_status frame_ipe_event(evl_parser *ev, const unsigned char *e,
                                   size_t head, uint64_t *payload,
                                   hp2x_err *err) {
  long real = hpx_evl_stream_ipe_length(e + head, (size_t)*payload);
  if (real < 0) {
    char msg[160];
    hpx_fmt(msg, sizeof msg,
            "IPE event declares %u bytes, fewer than its info pointer and "
            "six strings",
            (unsigned)*payload);
    return evl_fail_at(ev, err, ev->event_start, msg);
  }
  *payload = (uint64_t)real;
  return HP2X_OK;
}

/* Keeps the first `have` bytes of the event just read at e (of `total`
 * bytes; the rest arrive as a skipped payload) when its size is variable
 * (its header, `head` bytes, is 12 long), else forgets the last one kept.
 * An event whole in the caller's buffer (`avail` bytes there from e; 0
 * when gathered) is only pointed at: it is copied when the feed ends
 * (keep_previous_bytes), if it is still the last one then. */
static hp2x_status keep_previous(evl_parser *ev, const unsigned char *e,
                                 size_t have, size_t avail, size_t total,
                                 size_t head, hp2x_err *err) {
  ev->prev_len = 0;
  ev->prev_ref = NULL;
  if (head != 12) return HP2X_OK; /* fixed size: its header has no size */
  ev->prev_need = total;
  ev->prev_offset = ev->event_start;
  if (avail >= total) {
    ev->prev_ref = e;
    return HP2X_OK;
  }
  if (hpx_grow((void **)&ev->prev, &ev->prev_cap, total, 1, err) != HP2X_OK)
    return ev->status = err->code;
  if (have > total) have = total;
  memcpy(ev->prev, e, have);
  ev->prev_len = have;
  return HP2X_OK;
}

/* Copies the last event pointed at (keep_previous) before its buffer goes
 * back to the caller. */
static hp2x_status keep_previous_bytes(evl_parser *ev, hp2x_err *err) {
  const unsigned char *e = ev->prev_ref;
  if (!e) return HP2X_OK;
  ev->prev_ref = NULL;
  if (hpx_grow((void **)&ev->prev, &ev->prev_cap, ev->prev_need, 1, err) !=
      HP2X_OK)
    return ev->status = err->code;
  memcpy(ev->prev, e, ev->prev_need);
  ev->prev_len = ev->prev_need;
  return HP2X_OK;
}

/* Skips the payload of an event that hp2x does not read, without copying
 * it: what is here now, the rest (ev->skip) as later feeds bring it; an
 * event whole here is passed over at once. */
static void skip_payload(evl_parser *ev, size_t head, uint64_t payload,
                         size_t avail, int gathered, size_t *pos) {
  ev->partial_len = 0;
  if (!gathered && avail >= head + payload) {
    *pos += head + (size_t)payload;
    ev->offset += (long long)(head + payload);
    ev->skip = 0;
    return;
  }
  ev->skip = gathered ? payload - (avail - head) : payload;
  if (!gathered) {
    *pos += head;
    ev->offset += (long long)head;
  }
}

/* Starts gathering an event of `need` bytes whose first avail bytes are
 * at e (a part of buf, or ev->partial already). */
static hp2x_status gather_event(evl_parser *ev, const unsigned char *e,
                                size_t avail, size_t need, int gathered,
                                size_t *pos, hp2x_err *err) {
  if (hpx_grow((void **)&ev->partial, &ev->partial_cap, need, 1, err) !=
      HP2X_OK)
    return ev->status = err->code;
  if (!gathered) {
    size_t k = avail < need ? avail : need;
    memcpy(ev->partial, e, k);
    ev->partial_len = k;
    *pos += k;
    ev->offset += (long long)k;
  }
  ev->partial_need = need;
  return HP2X_OK;
}

/* Consumes the event at buf[*pos] (or the one gathered in ev->partial): hands
 * it to its handler when it is whole, skips the payload of a type hp2x does
 * not read, or gathers what there is of it.  Advances *pos. */
static hp2x_status consume_event(evl_parser *ev, const unsigned char *buf,
                                 size_t len, size_t *pos, hp2x_err *err) {
  int gathered = ev->partial_len > 0;
  const unsigned char *e = gathered ? ev->partial : buf + *pos;
  size_t avail = gathered ? ev->partial_len : len - *pos;
  if (!gathered) ev->event_start = ev->offset;
  size_t head = 2;
  uint64_t payload = 0;
  if (avail < 2) return gather_event(ev, e, avail, head, gathered, pos, err);
  if (evl_be16(e) == EV_DATA_END) {
    consume_data_end(ev, gathered, pos);
    return HP2X_OK;
  }
  if (frame_event(ev, e, avail, &head, &payload, err) != HP2X_OK)
    return err->code;
  if (avail < head) return gather_event(ev, e, avail, head, gathered, pos, err);
  unsigned type = evl_be16(e);
  evl_handler handle = type < 256 ? ev->handler_of[type]
                                  : hpx_evl_handler_for(type);
  size_t total = head + (size_t)payload;
  if (!handle) {
    note_time(ev, e);
    if (keep_previous(ev, e, head, gathered ? 0 : avail, total, head, err) !=
        HP2X_OK)
      return err->code;
    skip_payload(ev, head, payload, avail, gathered, pos);
    return HP2X_OK;
  }
  if (avail < total)
    return gather_event(ev, e, avail, total, gathered, pos, err);
  if (type == EV_IPE) {
    uint64_t declared = payload;
    if (frame_ipe_event(ev, e, head, &payload, err) != HP2X_OK)
      return err->code;
    total = head + (size_t)payload;
    /* A gathered event took its declared bytes, the last of them from this
     * buffer: give back those the next event starts with. */
    if (gathered) {
      size_t back = (size_t)(declared - payload);
      assert(back <= *pos);
      *pos -= back;
      ev->offset -= (long long)back;
    }
  }
  if (dispatch_event(ev, handle, e, head, (size_t)payload, err) != HP2X_OK)
    return err->code;
  note_time(ev, e);
  if (keep_previous(ev, e, total, gathered ? 0 : avail, total, head, err) !=
      HP2X_OK)
    return err->code;
  if (!gathered) {
    *pos += total;
    ev->offset += (long long)total;
  }
  ev->partial_len = 0;
  return HP2X_OK;
}

/* What event_run may take, made with the handlers: the census entries
 * as a mask (run_mask, bit t - 163): stack and string samples declared of
 * variable size and read by their own handlers (not a part's deferral);
 * and per type below 256 whether it is passed over (declared, no handler:
 * run_skip holds its header's length, 10 or 12, else 0). */
static void run_plan_make(evl_parser *ev) {
  ev->run_mask = 0;
  for (unsigned t = EV_HEAP_PROF_SAMPLE_COST_CENTRE;
       t <= EV_HEAP_PROF_SAMPLE_STRING; t++)
    if (evl_declared_size(ev, t) == EVL_VARIABLE && ev->handler_of[t] &&
        ev->handler_of[t] == hpx_evl_handler_for(t))
      ev->run_mask |= 1 << (t - EV_HEAP_PROF_SAMPLE_COST_CENTRE);
  for (unsigned t = 0; t < 256; t++) {
    int32_t size = evl_declared_size(ev, t);
    ev->run_skip[t] = size == EVL_UNDECLARED || ev->handler_of[t] ? 0
                      : size == EVL_VARIABLE                      ? 12
                                                                  : 10;
  }
}

/* event_run's own copy of the reader's clock (note_time's fields) and of
 * what it checks each event, held in locals (a store into the profile's
 * arrays would otherwise make the compiler load them again each event):
 * the ring itself (recent_ns) is written as it goes, the counts and latest
 * time back into ev before a handler runs and when the run ends
 * (run_state_save), and all of it read again from ev after a handler ran.
 * prev_ns is the newest time in the ring when n_recent is not 0. */
typedef struct run_state {
  size_t n_recent, rising;
  uint64_t last_ns, prev_ns;
  long long block_end;
  int in_sample;
} run_state;

static HPX_ALWAYS_INLINE void run_state_load(const evl_parser *ev,
                                             run_state *c) {
  c->n_recent = ev->n_recent;
  c->rising = ev->recent_rising;
  c->last_ns = ev->last_time_ns;
  c->prev_ns = ev->recent_ns[(ev->n_recent - 1) % RECENT_TIMES];
  c->block_end = ev->block_end;
  c->in_sample = ev->in_sample;
}

static HPX_ALWAYS_INLINE void run_state_save(evl_parser *ev,
                                             const run_state *c) {
  ev->n_recent = c->n_recent;
  ev->recent_rising = c->rising;
  ev->last_time_ns = c->last_ns;
}

/* plausible_time from c's counts (the ring itself is ev's). */
static HPX_ALWAYS_INLINE int run_plausible(const evl_parser *ev,
                                           const run_state *c, unsigned type,
                                           uint64_t t_ns) {
  return plausible_from(ev, type, t_ns, c->n_recent, c->rising);
}

/* How event_run takes the event at e (avail >= 22 bytes there): as a
 * census entry of the mask (RUN_STACK, RUN_STRING), passed over (RUN_SKIP: a
 * type hp2x does not read), or not at all (RUN_STOP: left to consume_event).  A
 * whole event whose size, time and place in its block frame_event
 * accepts (at: its offset); *total gets its length, *head its header's. */
typedef enum { RUN_STOP, RUN_STACK, RUN_STRING, RUN_SKIP } run_kind;
static HPX_ALWAYS_INLINE run_kind run_frame(const evl_parser *ev,
                                            const run_state *c, long long at,
                                            const unsigned char *e,
                                            size_t avail, size_t *head,
                                            size_t *total) {
  unsigned type = evl_be16(e);
  unsigned k = type - EV_HEAP_PROF_SAMPLE_COST_CENTRE;
  if (k < 2 &&
      ((unsigned)ev->run_mask >> k & 1u)) { /* declared of variable size */
    size_t n = 12 + (size_t)evl_be16(e + 10);
    *head = 12;
    *total = n;
    return c->in_sample && n >= 22 && (k || n - 12 <= EVL_MAX_STACK_EVENT) &&
                   n <= avail &&
                   run_plausible(ev, c, EV_HEAP_PROF_SAMPLE_STRING,
                                 evl_be64(e + 2)) && /* (no block marker) */
                   (c->block_end < 0 || at + (long long)n <= c->block_end)
               ? (k ? RUN_STRING : RUN_STACK)
               : RUN_STOP;
  }
  if (type >= 256 || !ev->run_skip[type])
    return RUN_STOP; /* the data end too */
  *head = ev->run_skip[type];
  *total = *head + (*head == 12 ? evl_be16(e + 10)
                                : (size_t)evl_declared_size(ev, type));
  if (*total > avail || !run_plausible(ev, c, type, evl_be64(e + 2)) ||
      (type != EV_BLOCK_MARKER && c->block_end >= 0 &&
       at + (long long)*total > c->block_end))
    return RUN_STOP;
  return RUN_SKIP;
}

/* After the event at e is taken: its time noted as note_time notes it. */
static HPX_ALWAYS_INLINE void run_taken(evl_parser *ev, run_state *c,
                                        const unsigned char *e) {
  uint64_t t = evl_be64(e + 2);
  if (t > c->last_ns) c->last_ns = t;
  c->rising = c->n_recent && t >= c->prev_ns ? c->rising + 1 : 1;
  c->prev_ns = t;
  ev->recent_ns[c->n_recent++ % RECENT_TIMES] = t;
}

/* keep_previous's record of the last event a run took (`last`, NULL when
 * none): kept when it is of variable size (`var`, at offset base + (var -
 * buf)). */
static void run_prev_write(evl_parser *ev, const unsigned char *last,
                           const unsigned char *var, long long base,
                           const unsigned char *buf) {
  if (!last) return;
  ev->prev_len = 0;
  ev->prev_ref = NULL;
  if (last != var) return;
  ev->prev_ref = var;
  ev->prev_need = 12 + (size_t)evl_be16(var + 10);
  ev->prev_offset = base + (long long)(var - buf);
}

/* Reads the events from buf[*pos] on that are whole in buf, framed as
 * frame_event allows, and either census entries (HEAP_PROF_SAMPLE_COST_
 * CENTRE and _STRING of the mask, in an open sample) or of a type hp2x
 * does not read: the bulk of every eventlog, taken as consume_event
 * takes them without its general framing; a string sample of the label
 * guessed for it without its handler either.  Stops before any other
 * event (left to consume_event) or at an error.  The offset of buf[i] is
 * base + i. */
static hp2x_status event_run(evl_parser *ev, const unsigned char *buf,
                             size_t len, size_t *pos, hp2x_err *err) {
  size_t p = *pos, head, total;
  const long long base = ev->offset - (long long)p;
  const unsigned char *last = NULL, *var = NULL;
  hp2x_status st = HP2X_OK;
  run_kind kind;
  run_state c;
  run_state_load(ev, &c);
  while (len - p >= 22 &&
         (kind = run_frame(ev, &c, base + (long long)p, buf + p, len - p, &head,
                           &total)) != RUN_STOP) {
    const unsigned char *e = buf + p;
    ev->event_start = base + (long long)p;
    if (kind != RUN_SKIP) {
      if (kind == RUN_STACK ||
          !evl_take_guessed_string(ev, e + 12, total - 12, &st, err)) {
        run_state_save(ev, &c);
        ev->offset = base + (long long)p;
        st = dispatch_event(ev, ev->handler_of[evl_be16(e)], e, 12, total - 12,
                            err);
        run_state_load(ev, &c);
      }
      if (st != HP2X_OK) {
        if (err && err->offset < 0) err->offset = ev->event_start;
        ev->status = st;
        break;
      }
    }
    last = e;
    if (head == 12) var = e;
    run_taken(ev, &c, e);
    p += total;
  }
  run_state_save(ev, &c);
  ev->offset = base + (long long)p;
  run_prev_write(ev, last, var, base, buf);
  *pos = p;
  return st;
}

/* Takes bytes into a partly gathered event or a skipped payload.
 * Returns whether the event being gathered is now whole. */
static int take_pending_bytes(evl_parser *ev, const unsigned char *buf,
                              size_t len, size_t *pos) {
  size_t room = len - *pos;
  if (ev->skip) {
    size_t k = ev->skip < room ? (size_t)ev->skip : room;
    if (ev->prev_len && ev->prev_len + k <= ev->prev_need) {
      memcpy(ev->prev + ev->prev_len, buf + *pos, k);
      ev->prev_len += k;
    }
    ev->skip -= k;
    *pos += k;
    ev->offset += (long long)k;
    return 0;
  }
  size_t k = ev->partial_need - ev->partial_len;
  if (k > room) k = room;
  memcpy(ev->partial + ev->partial_len, buf + *pos, k);
  ev->partial_len += k;
  *pos += k;
  ev->offset += (long long)k;
  if (ev->partial_len < ev->partial_need) return 0;
  ev->partial_need = 0;
  return 1;
}

/* Consumes events until buf is used up, the data end is read or an event
 * fails (see eventlog_int.h). */
/* The handlers of the types below 256, at hand for every event; a part's
 * reader hands the types it leaves to the real reader to
 * hpx_evl_part_defer. */
static void set_handlers(evl_parser *ev) {
  for (unsigned type = 0; type < 256; type++) {
    evl_handler h = hpx_evl_handler_for(type);
    if (h && ev->part && hpx_evl_part_defers(type)) h = hpx_evl_part_defer;
    ev->handler_of[type] = h;
  }
  ev->handlers_set = 1;
  run_plan_make(ev);
}

hp2x_status hpx_evl_stream_consume(evl_parser *ev, const unsigned char *buf,
                                   size_t len, size_t *used, hp2x_err *err) {
  size_t pos = 0;
  if (!ev->handlers_set) set_handlers(ev);
  hp2x_status st = HP2X_OK;
  while (pos < len && !ev->at_end) {
    if ((ev->skip || ev->partial_need) &&
        !take_pending_bytes(ev, buf, len, &pos))
      continue;
    if (!ev->partial_len && event_run(ev, buf, len, &pos, err) != HP2X_OK) {
      st = err->code;
      break;
    }
    if (pos == len && !ev->partial_len) break; /* nothing gathered to take */
    if (consume_event(ev, buf, len, &pos, err) != HP2X_OK) {
      st = err->code;
      break;
    }
  }
  if (st == HP2X_OK && ev->at_end) ev->offset += (long long)(len - pos);
  *used = pos;
  if (keep_previous_bytes(ev, err) != HP2X_OK && st == HP2X_OK) st = err->code;
  return st;
}
