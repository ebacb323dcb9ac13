/* eventlog_parse.c -- the eventlog front end's byte reader: GHC's binary
 * eventlog (rts/include/rts/EventLogFormat.h) into the sample model,
 * streaming.  Owns the header's event-type table, the framing of events by
 * the sizes it declares (IPE events by their content), and the recovery
 * from a corrupt event: skipping to where events frame plausibly again.
 * Events of the types hp2x reads go to their handlers (eventlog_events.c),
 * the others are skipped, across feeds.
 */
#include "eventlog_int.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

#define UNDECLARED (-2)
#define VARIABLE (-1)
#define MAX_HEADER_BYTES (1u << 22) /* the event-type table: 4 MiB */

/* The largest payload a variable-size heap sample event may claim: a
 * 255-deep stack plus room for appended fields. */
#define MAX_STACK_EVENT (10 + 4 * 255 + 1024)

/* The declared payload size of event type `id`: VARIABLE, UNDECLARED or
 * bytes.  Entries hold size + 2, so a page fresh from calloc says
 * "undeclared".  Paged (GHC's ids are all below 256: one 1 KiB page)
 * rather than one 256 KiB table for every parser. */
static int32_t declared_size(const evl_parser *ev, unsigned id) {
  const int32_t *page = ev->size_of[id >> 8];
  return page ? page[id & 255] - 2 : UNDECLARED;
}

evl_parser *evl_parse_new(const char *file, hp2x_profile *p,
                          const hp2x_parse_options *o, hp2x_err *err) {
  evl_parser *ev = hpx_calloc(1, sizeof *ev);
  if (!ev) {
    hpx_nomem(err);
    return NULL;
  }
  ev->p = p;
  ev->file = file;
  label_track_init(&ev->track);
  ev->ccs_length = o ? o->ccs_length : 0;
  ev->in_header = 1;
  ev->profiled = -1;
  ev->block_end = -1;
  /* Until PROGRAM_ARGS says otherwise, JOB is the file's name. */
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file ? file : "";
  size_t bl = strlen(base);
  if (bl > 9 && !strcmp(base + bl - 9, ".eventlog")) bl -= 9;
  if (profile_set_header(p, PROFILE_JOB, base, bl, err) != HP2X_OK ||
      profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, err) !=
          HP2X_OK ||
      profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, err) != HP2X_OK) {
    evl_parse_free(ev);
    return NULL;
  }
  return ev;
}

void evl_parse_free(evl_parser *ev) {
  if (!ev) return;
  evl_free_cost_centres(ev);
  evl_ipe_free(&ev->ipe);
  hpx_free(ev->hdr);
  for (size_t i = 0; i < 256; i++) hpx_free(ev->size_of[i]);
  hpx_free(ev->declared);
  hpx_free(ev->ev);
  hpx_free(ev->rs);
  hpx_free(ev->resumed);
  hpx_free(ev->pv);
  label_track_free(&ev->track);
  hpx_free(ev->name);
  hpx_free(ev->args);
  hpx_free(ev);
}

int evl_parse_at_end(const evl_parser *ev) { return ev->at_end; }

/* ------------------------------------------------------------- header */

/* Records event type `id` of payload size `size`, declared at byte `at`.
 * Returns 0, or -1 with the error recorded. */
static int declare_event_type(evl_parser *ev, unsigned id, int size, size_t at,
                              hp2x_err *err) {
  assert(id <= 0xffff);
  char msg[160];
  if (id == EV_DATA_END)
    return evl_fail_at(ev, err, (long long)at,
                       "event type 65535 is reserved for the data end"), -1;
  if (declared_size(ev, id) != UNDECLARED) {
    hpx_fmt(msg, sizeof msg, "event type %u is declared twice", id);
    return evl_fail_at(ev, err, (long long)at, msg), -1;
  }
  if (size < -1)
    return evl_fail_at(ev, err, (long long)at + 6,
                       "event size must be -1 (variable) or >= 0"), -1;
  if (!evl_declared_size_ok(id, size)) {
    hpx_fmt(msg, sizeof msg,
             "event type %u is declared %d bytes long; GHC writes it much "
             "shorter (at most %d accepted)",
             id, size, EVL_FIXED_SIZE_CAP);
    return evl_fail_at(ev, err, (long long)at + 6, msg), -1;
  }
  if (hpx_grow((void **)&ev->declared, &ev->declared_cap,
                ev->n_declared + 1, sizeof *ev->declared, err) != HP2X_OK)
    return ev->status = err->code, -1;
  int32_t **page = &ev->size_of[id >> 8];
  if (!*page && !(*page = hpx_calloc(256, sizeof **page)))
    return ev->status = hpx_nomem(err), -1;
  ev->declared[ev->n_declared++] = (uint16_t)id;
  (*page)[id & 255] = size + 2;
  if (id == EV_HEAP_PROF_SAMPLE_END) ev->has_sample_end = 1;
  return 0;
}

/* Reads one "etb" ... "ete" event type at h[*pos] (the "etb" checked).
 * Returns 1 when read (advances *pos), 0 when more bytes are needed, -1 on
 * error. */
static int parse_event_type(evl_parser *ev, size_t *pos, hp2x_err *err) {
  const unsigned char *h = ev->hdr;
  size_t n = ev->hdr_len, at = *pos, p = at + 4;
  if (n - p < 8) return 0;
  unsigned id = evl_be16(h + p);
  int size = (int16_t)evl_be16(h + p + 2);
  uint32_t dlen = evl_be32(h + p + 4);
  p += 8;
  if (dlen > 65536)
    return evl_fail_at(ev, err, (long long)p - 4,
                       "event type description longer than 64 KiB"), -1;
  if (n - p < (size_t)dlen + 4) return 0;
  p += dlen;
  uint32_t elen = evl_be32(h + p);
  p += 4;
  if (elen > 65536)
    return evl_fail_at(ev, err, (long long)p - 4,
                       "event type extra info longer than 64 KiB"), -1;
  if (n - p < (size_t)elen + 4) return 0;
  p += elen;
  if (memcmp(h + p, "ete\0", 4) != 0)
    return evl_fail_at(ev, err, (long long)p,
                       "expected 'ete' (end of an event type)"), -1;
  if (declare_event_type(ev, id, size, at, err) < 0) return -1;
  *pos = p + 4;
  return 1;
}

/* Checks the 4-byte tag `tag` at h[*pos]: 1 (advanced), 0 (more bytes
 * needed), -1 (error `what`). */
static int expect_tag(evl_parser *ev, size_t *pos, const char *tag,
                      const char *what, hp2x_err *err) {
  if (ev->hdr_len - *pos < 4) return 0;
  if (memcmp(ev->hdr + *pos, tag, 4) != 0)
    return evl_fail_at(ev, err, (long long)*pos, what), -1;
  *pos += 4;
  return 1;
}

/* Parses the whole header from ev->hdr.  Returns 1 when complete (sets
 * *used to its length), 0 when more bytes are needed, -1 on error. */
static int parse_header(evl_parser *ev, size_t *used, hp2x_err *err) {
  /* The header is parsed again from its start as bytes arrive: forget
   * what the previous, incomplete attempt declared. */
  for (size_t i = 0; i < ev->n_declared; i++)
    ev->size_of[ev->declared[i] >> 8][ev->declared[i] & 255] = 0;
  ev->n_declared = 0;
  ev->has_sample_end = 0;
  size_t pos = 0;
  int r = expect_tag(ev, &pos, "hdrb", "expected the eventlog magic 'hdrb'",
                     err);
  if (r == 1)
    r = expect_tag(ev, &pos, "hetb",
                   "expected 'hetb' (start of the event-type list)", err);
  while (r == 1) {
    if (ev->hdr_len - pos < 4) return 0;
    if (memcmp(ev->hdr + pos, "hete", 4) == 0) {
      pos += 4;
      break;
    }
    r = expect_tag(ev, &pos, "etb\0",
                   "expected an event type ('etb') or the end of the list "
                   "('hete')", err);
    if (r == 1) {
      pos -= 4;
      r = parse_event_type(ev, &pos, err);
    }
  }
  if (r == 1)
    r = expect_tag(ev, &pos, "hdre", "expected 'hdre' (end of the header)",
                   err);
  if (r == 1)
    r = expect_tag(ev, &pos, "datb", "expected 'datb' (start of the data)",
                   err);
  if (r == 1) *used = pos;
  return r;
}

/* -------------------------------------------------------------- events */

/* An event that hp2x reads is parsed in place when it lies whole in the
 * caller's buffer, else gathered in ev->ev first, so any split of the bytes
 * gives the same result.  Events are framed one by one from the sizes the
 * header declares; an event may not run past the end of its block (GHC 9.2
 * and later count the data-end marker in the last block's size, which only
 * makes it larger).  Every GHC from 8.0 on is read this way. */

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
  ev->ev_len = 0;
}

/* Keeps the latest timestamp read, for resynchronising (a plausible
 * event's time is not far past it). */
static void note_time(evl_parser *ev, const unsigned char *e) {
  uint64_t t = evl_be64(e + 2);
  if (t > ev->last_time_ns) ev->last_time_ns = t;
  ev->recent_ns[ev->n_recent++ % RECENT_TIMES] = t;
}

/* The median time of the last events read in the enclosing block (one
 * corrupt timestamp among them does not move it); 0 when none. */
static uint64_t recent_time(const evl_parser *ev) {
  uint64_t t[RECENT_TIMES];
  size_t n = ev->n_recent < RECENT_TIMES ? ev->n_recent : RECENT_TIMES;
  for (size_t i = 0; i < n; i++) { /* insertion sort: a few values */
    size_t j = i;
    for (; j > 0 && t[j - 1] > ev->recent_ns[i]; j--) t[j] = t[j - 1];
    t[j] = ev->recent_ns[i];
  }
  return n ? t[n / 2] : 0;
}

/* Could an event of type `type` be timed t_ns, read in the flow of its
 * block?  GHC's clock does not go back: within a block an event is not
 * older than the last ones (a second is allowed; a block marker starts a
 * block of its own time), nor absurdly later.  What a misread event takes
 * for a time is mostly neither. */
static int plausible_time(const evl_parser *ev, unsigned type, uint64_t t_ns) {
  const uint64_t s_ns = 1000000000u, fortnight_ns = 14 * 86400 * s_ns;
  if (ev->n_recent < 3) return 1;
  uint64_t recent = recent_time(ev);
  if (type != EV_BLOCK_MARKER && t_ns + s_ns < recent) return 0;
  return t_ns <= recent + fortnight_ns || t_ns / 64 <= recent;
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
  int32_t size = declared_size(ev, type);
  if (size == UNDECLARED) {
    hpx_fmt(msg, sizeof msg,
             "event type %u is not declared in the header (corrupt "
             "eventlog?)",
             type);
    return evl_corrupt_event(ev, err, msg);
  }
  *head = size == VARIABLE ? 12 : 10;
  if (avail < *head) return HP2X_OK;
  /* Both sizes are 16-bit: an event is at most 64 KiB. */
  *payload = size == VARIABLE ? evl_be16(e + 10) : (uint64_t)size;
  if (type == EV_HEAP_PROF_SAMPLE_COST_CENTRE && *payload > MAX_STACK_EVENT) {
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
             (double)recent_time(ev) / 1e9);
    return evl_corrupt_event(ev, err, msg);
  }
  /* GHC's block sizes are exact (from 9.2 on the last one also counts the
   * data-end marker): an event cannot run past its block. */
  size_t slack = type == EV_IPE; /* declared one byte long: see below */
  if (type != EV_BLOCK_MARKER && ev->block_end >= 0 &&
      ev->event_start + (long long)(*head + *payload - slack) >
          ev->block_end) {
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
static long ipe_payload_length(const unsigned char *pl, size_t declared) {
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

/* Frames the whole IPE event at e by its content (ipe_payload_length):
 * *payload becomes its real length.  An error when its strings run past
 * its declared size. */
static hp2x_status frame_ipe_event(evl_parser *ev, const unsigned char *e,
                                   size_t head, uint64_t *payload,
                                   hp2x_err *err) {
  long real = ipe_payload_length(e + head, (size_t)*payload);
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
 * bytes; the rest arrive as a skipped payload) when its size is variable,
 * else forgets the last one kept. */
static hp2x_status keep_previous(evl_parser *ev, const unsigned char *e,
                                 size_t have, size_t total, hp2x_err *err) {
  ev->pv_len = 0;
  if (declared_size(ev, evl_be16(e)) != VARIABLE) return HP2X_OK;
  if (hpx_grow((void **)&ev->pv, &ev->pv_cap, total, 1, err) != HP2X_OK)
    return ev->status = err->code;
  if (have > total) have = total;
  memcpy(ev->pv, e, have);
  ev->pv_len = have;
  ev->pv_need = total;
  ev->pv_offset = ev->event_start;
  return HP2X_OK;
}

/* Skips the payload of an event that hp2x does not read, without copying
 * it: what is here now, the rest (ev->skip) as later feeds bring it. */
static void skip_payload(evl_parser *ev, size_t head, uint64_t payload,
                         size_t avail, int gathered, size_t *pos) {
  ev->ev_len = 0;
  ev->skip = gathered ? payload - (avail - head) : payload;
  if (!gathered) {
    *pos += head;
    ev->offset += (long long)head;
  }
}

/* Starts gathering an event of `need` bytes whose first avail bytes are
 * at e (a part of buf, or ev->ev already). */
static hp2x_status gather_event(evl_parser *ev, const unsigned char *e,
                                size_t avail, size_t need, int gathered,
                                size_t *pos, hp2x_err *err) {
  if (hpx_grow((void **)&ev->ev, &ev->ev_cap, need, 1, err) != HP2X_OK)
    return ev->status = err->code;
  if (!gathered) {
    size_t k = avail < need ? avail : need;
    memcpy(ev->ev, e, k);
    ev->ev_len = k;
    *pos += k;
    ev->offset += (long long)k;
  }
  ev->ev_need = need;
  return HP2X_OK;
}

/* Consumes the event at buf[*pos] (or the one gathered in ev->ev): hands
 * it to its handler when it is whole, skips the payload of a type hp2x does
 * not read, or gathers what there is of it.  Advances *pos. */
static hp2x_status consume_event(evl_parser *ev, const unsigned char *buf,
                                 size_t len, size_t *pos, hp2x_err *err) {
  int gathered = ev->ev_len > 0;
  const unsigned char *e = gathered ? ev->ev : buf + *pos;
  size_t avail = gathered ? ev->ev_len : len - *pos;
  if (!gathered) ev->event_start = ev->offset;
  size_t head = 2;
  uint64_t payload = 0;
  if (avail < 2)
    return gather_event(ev, e, avail, head, gathered, pos, err);
  if (evl_be16(e) == EV_DATA_END) {
    consume_data_end(ev, gathered, pos);
    return HP2X_OK;
  }
  if (frame_event(ev, e, avail, &head, &payload, err) != HP2X_OK)
    return err->code;
  if (avail < head)
    return gather_event(ev, e, avail, head, gathered, pos, err);
  unsigned type = evl_be16(e);
  evl_handler handle = evl_handler_for(type);
  size_t total = head + (size_t)payload;
  if (!handle) {
    note_time(ev, e);
    if (keep_previous(ev, e, head, total, err) != HP2X_OK) return err->code;
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
  if (keep_previous(ev, e, total, total, err) != HP2X_OK) return err->code;
  if (!gathered) {
    *pos += total;
    ev->offset += (long long)total;
  }
  ev->ev_len = 0;
  return HP2X_OK;
}

/* Takes bytes into a partly gathered event or a skipped payload.
 * Returns whether the event being gathered is now whole. */
static int take_pending_bytes(evl_parser *ev, const unsigned char *buf,
                              size_t len, size_t *pos) {
  size_t room = len - *pos;
  if (ev->skip) {
    size_t k = ev->skip < room ? (size_t)ev->skip : room;
    if (ev->pv_len && ev->pv_len + k <= ev->pv_need) {
      memcpy(ev->pv + ev->pv_len, buf + *pos, k);
      ev->pv_len += k;
    }
    ev->skip -= k;
    *pos += k;
    ev->offset += (long long)k;
    return 0;
  }
  size_t k = ev->ev_need - ev->ev_len;
  if (k > room) k = room;
  memcpy(ev->ev + ev->ev_len, buf + *pos, k);
  ev->ev_len += k;
  *pos += k;
  ev->offset += (long long)k;
  if (ev->ev_len < ev->ev_need) return 0;
  ev->ev_need = 0;
  return 1;
}

static hp2x_status enter_resync(evl_parser *ev, const unsigned char *rest,
                                size_t n, hp2x_err *err);
static hp2x_status keep_for_resync(evl_parser *ev, const unsigned char *buf,
                                   size_t len, hp2x_err *err);

/* Consumes events from buf, all of it unless an error; bytes after the
 * data-end marker are counted but not read.  From a corrupt event on, the
 * bytes are kept to resynchronise (see below). */
static hp2x_status consume_events(evl_parser *ev, const unsigned char *buf,
                                  size_t len, hp2x_err *err) {
  if (ev->resyncing) return keep_for_resync(ev, buf, len, err);
  size_t pos = 0;
  while (pos < len && !ev->at_end) {
    if ((ev->skip || ev->ev_need) && !take_pending_bytes(ev, buf, len, &pos))
      continue;
    if (consume_event(ev, buf, len, &pos, err) != HP2X_OK) {
      if (!ev->corrupt || err->code != HP2X_E_SYNTAX) return err->code;
      return enter_resync(ev, buf + pos, len - pos, err);
    }
  }
  if (ev->at_end) ev->offset += (long long)(len - pos);
  return HP2X_OK;
}

/* ---------------------------------------------------- resynchronising */

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
    return *n >= 10 && *n <= MAX_STACK_EVENT && 10 + 4 * (size_t)pl[9] <= *n;
  case EV_HEAP_PROF_SAMPLE_STRING:
    return *n >= 10 && memchr(pl + 9, '\0', *n - 9) != NULL;
  case EV_BLOCK_MARKER:
    return *n >= 4 && evl_be32(pl) >= 10 + *n;
  case EV_IPE: {
    long real = ipe_payload_length(pl, *n);
    if (real < 0) return 0;
    *n = (size_t)real;
    return 1;
  }
  default: return 1;
  }
}

/* Could reading resume at b, `off` (n bytes kept from there), given the
 * recent time read (recent_time)?  CHAIN_MORE when that needs bytes not
 * yet fed (`final`: none will come): *need of them from b at least.  Within a
 * block, times do not go back (but for a few microseconds where the
 * runtime's timer interrupted a write: a millisecond is allowed), so an
 * event there is not older than the last ones read before the fault. */
static int plausible_events(const evl_parser *ev, const unsigned char *b,
                            size_t n, long long off, uint64_t recent,
                            int final, size_t *need) {
  const uint64_t minute_ns = 60000000000u, ms_ns = 1000000u;
  uint64_t t_hi = recent + (recent > minute_ns ? recent : minute_ns);
  if (ev->last_time_ns > t_hi) t_hi = ev->last_time_ns;
  int at_block_end = off == ev->block_end;
  int in_block = ev->block_end < 0 || off < ev->block_end;
  uint64_t t_lo = !in_block         ? ev->block_time_ns
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
    int32_t size = declared_size(ev, type);
    if (size == UNDECLARED) return CHAIN_REJECT;
    size_t head = size == VARIABLE ? 12 : 10;
    *need = pos + head;
    if (n - pos < head) return more;
    uint64_t t = evl_be64(b + pos + 2);
    if (t > t_hi || (type != EV_BLOCK_MARKER && t < t_lo)) return CHAIN_REJECT;
    t_lo = t;
    size_t payload = size == VARIABLE ? evl_be16(b + pos + 10) : (size_t)size;
    *need = pos + head + payload;
    if (n - pos - head < payload) return more;
    if (!plausible_payload(type, b + pos + head, &payload)) return CHAIN_REJECT;
    if (type == EV_BLOCK_MARKER && at_block_end && count == 0)
      return CHAIN_ACCEPT;
    pos += head + payload;
  }
  return CHAIN_ACCEPT;
}

/* Finds where to resume in ev->rs, trying places from rs_next on.  Returns
 * 1 with *at set, or 0 when that needs more bytes (`final`: there is no
 * such place).  Bytes before the places still to try are let go. */
static int find_resume(evl_parser *ev, int final, size_t *at) {
  uint64_t recent = recent_time(ev);
  for (; ev->rs_next < ev->rs_len; ev->rs_next++) {
    size_t c = ev->rs_next;
    /* an event type's first byte (GHC's types are all below 256): none
     * declared with it, and not the data end's, is rejected at once */
    if (ev->rs[c] != 0xff && !ev->size_of[ev->rs[c]]) continue;
    if (!final && ev->rs_len < ev->rs_need) break; /* still too few */
    ev->rs_need = 0;
    size_t need = 0;
    int v = plausible_events(ev, ev->rs + c, ev->rs_len - c,
                             ev->rs_base + (long long)c, recent, final,
                             &need);
    if (v == CHAIN_ACCEPT) {
      *at = c;
      return 1;
    }
    if (v == CHAIN_MORE) {
      ev->rs_need = c + need;
      break;
    }
  }
  /* Rarely (the bytes tried are at least half of those kept): moving the
   * rest down costs no more than what has been tried. */
  if (ev->rs_next > 0 && ev->rs_next >= ev->rs_len - ev->rs_next) {
    memmove(ev->rs, ev->rs + ev->rs_next, ev->rs_len - ev->rs_next);
    ev->rs_len -= ev->rs_next;
    ev->rs_base += (long long)ev->rs_next;
    ev->rs_need = ev->rs_need > ev->rs_next ? ev->rs_need - ev->rs_next : 0;
    ev->rs_next = 0;
  }
  return 0;
}

/* Keeps buf for the search of where to resume. */
static hp2x_status keep_for_resync(evl_parser *ev, const unsigned char *buf,
                                   size_t len, hp2x_err *err) {
  if (hpx_grow((void **)&ev->rs, &ev->rs_cap, ev->rs_len + len, 1, err) !=
      HP2X_OK)
    return ev->status = err->code;
  if (len) memcpy(ev->rs + ev->rs_len, buf, len);
  ev->rs_len += len;
  ev->offset += (long long)len;
  return HP2X_OK;
}

/* The corrupt event at ev->event_start (its bytes gathered in ev->ev, or
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
    profile_abort_sample(ev->p);
    label_track_drop(&ev->track);
    ev->in_sample = 0;
    ev->dropping = 1;
  } else if (!ev->dropping) {
    ev->dropping = 2; /* else still in the census cut before */
  }
  size_t gathered = ev->ev_len;
  ev->ev_len = ev->ev_need = 0;
  ev->skip = 0;
  ev->resyncing = 1;
  ev->rs_len = 0;
  ev->rs_base = ev->event_start;
  ev->rs_next = 1;
  ev->rs_need = 0;
  /* Right after an event of variable size: its size may be what is wrong
   * (it swallowed what followed it), so the search starts inside it. */
  size_t before = 0;
  ev->pv_type = 0;
  if (ev->pv_len && ev->pv_len == ev->pv_need &&
      ev->pv_offset + (long long)ev->pv_len == ev->event_start) {
    ev->pv_type = evl_be16(ev->pv);
    ev->rs_base = ev->pv_offset;
    before = ev->pv_len;
  }
  ev->rs_from = ev->rs_base;
  /* While reading kept bytes after resuming, the fault lies in them: keep
   * them where they are rather than copy the rest each time. */
  if (ev->resumed && !gathered && ev->event_start >= ev->resumed_base &&
      ev->rs_base >= ev->resumed_base) {
    size_t from = (size_t)(ev->rs_base - ev->resumed_base);
    ev->rs = ev->resumed;
    ev->rs_len = ev->resumed_len;
    ev->rs_cap = ev->resumed_cap;
    ev->rs_base = ev->resumed_base;
    ev->rs_next = from + 1;
    ev->rs_need = 0;
    ev->resumed = NULL;
    ev->pv_len = 0;
    ev->offset = ev->rs_base + (long long)ev->rs_len;
    (void)rest;
    (void)n;
    return HP2X_OK;
  }
  ev->offset = ev->rs_base;
  if (keep_for_resync(ev, ev->pv, before, err) != HP2X_OK ||
      keep_for_resync(ev, ev->ev, gathered, err) != HP2X_OK)
    return err->code;
  ev->pv_len = 0;
  return keep_for_resync(ev, rest, n, err);
}

/* Resumes reading at ev->rs[at]: records the stretch skipped, then reads
 * the bytes kept from there on. */
static hp2x_status resume_at(evl_parser *ev, size_t at, hp2x_err *err) {
  hp2x_warnings *w = &ev->p->warn;
  long long to = ev->rs_base + (long long)at;
  if (to < ev->fault_offset) { /* the event before it was the wrong one */
    size_t k = strlen(ev->fault_msg);
    hpx_fmt(ev->fault_msg + k, sizeof ev->fault_msg - k,
             ", after an event of type %u claiming %lld bytes", ev->pv_type,
             ev->fault_offset - ev->rs_from);
    ev->fault_offset = ev->rs_from; /* not rs_base: it moved on */
  }
  if (!w->corrupt_regions++) {
    w->corrupt_from = ev->fault_offset;
    w->corrupt_to = to;
    memcpy(w->corrupt_reason, ev->fault_msg, sizeof w->corrupt_reason);
    w->corrupt_reason[sizeof w->corrupt_reason - 1] = '\0';
  }
  ev->resumed = ev->rs;
  ev->resumed_len = ev->rs_len;
  ev->resumed_cap = ev->rs_cap;
  ev->resumed_base = ev->rs_base;
  ev->rs = NULL;
  ev->rs_len = ev->rs_cap = ev->rs_next = 0;
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
static hp2x_status feed_events(evl_parser *ev, const unsigned char *buf,
                               size_t len, int final, hp2x_err *err) {
  hp2x_status st = consume_events(ev, buf, len, err);
  size_t at;
  while (st == HP2X_OK && ev->resyncing && find_resume(ev, final, &at))
    st = resume_at(ev, at, err);
  return st;
}

/* Takes header bytes; once the header is whole, consumes the rest of buf
 * as events. */
static hp2x_status feed_header(evl_parser *ev, const unsigned char *buf,
                               size_t len, hp2x_err *err) {
  size_t take = len;
  if (ev->hdr_len + take > MAX_HEADER_BYTES)
    take = MAX_HEADER_BYTES - ev->hdr_len;
  if (hpx_grow((void **)&ev->hdr, &ev->hdr_cap, ev->hdr_len + take, 1,
                err) != HP2X_OK)
    return ev->status = err->code;
  memcpy(ev->hdr + ev->hdr_len, buf, take);
  size_t before = ev->hdr_len;
  ev->hdr_len += take;
  size_t used = 0;
  int r = parse_header(ev, &used, err);
  if (r < 0) return ev->status;
  if (r == 0) {
    if (ev->hdr_len >= MAX_HEADER_BYTES)
      return evl_fail_at(ev, err, (long long)ev->hdr_len,
                         "eventlog header larger than 4 MiB");
    return HP2X_OK;
  }
  ev->in_header = 0;
  ev->offset = (long long)used;
  size_t from = used - before; /* the header ends inside this buffer */
  hpx_free(ev->hdr);
  ev->hdr = NULL;
  ev->hdr_len = ev->hdr_cap = 0;
  return feed_events(ev, buf + from, len - from, 0, err);
}

hp2x_status evl_parse_feed(evl_parser *ev, const unsigned char *buf,
                           size_t len, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  if (ev->in_header) return feed_header(ev, buf, len, err);
  return feed_events(ev, buf, len, 0, err);
}

/* ------------------------------------------------------------- the end */

/* HP2X_E_NO_PROFILE for an eventlog without HEAP_PROF_BEGIN: the program
 * ran without -h, or (cut short) was killed before its runtime wrote the
 * heap profile out. */
static hp2x_status fail_no_heap_profile(evl_parser *ev, hp2x_err *err) {
  const char *msg =
      ev->at_end
          ? "no heap profile in this eventlog (run the program with +RTS "
            "-hT -l, or another -h option)"
          : "no heap profile in this eventlog, which ends early (a killed "
            "program's runtime may not have written it yet; run the "
            "program with +RTS -hT -l, or another -h option, to its end)";
  return ev->status = hpx_fail(err, HP2X_E_NO_PROFILE, 0, -1, "%s", msg);
}

static hp2x_status finish_samples(evl_parser *ev, hp2x_err *err);

hp2x_status evl_parse_finish(evl_parser *ev, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  if (ev->in_header) {
    if (ev->hdr_len == 0)
      return ev->status = hpx_fail(err, HP2X_E_SYNTAX, 0, 0,
                                    "empty input: expected an eventlog");
    return evl_fail_at(ev, err, (long long)ev->hdr_len,
                       "the file ends inside the eventlog header");
  }
  /* A corrupt stretch still open: resume where the end of the input
   * allows, else nothing readable follows it. */
  if (ev->resyncing && feed_events(ev, NULL, 0, 1, err) != HP2X_OK)
    return ev->status;
  if (ev->resyncing)
    return ev->status = hpx_fail(err, HP2X_E_SYNTAX, 0, ev->fault_offset,
                                  "%s; no readable event follows",
                                  ev->fault_msg);
  if (!ev->p->heap_profile) return fail_no_heap_profile(ev, err);
  hp2x_status st = finish_samples(ev, err);
  /* Corrupt bytes are skipped only to draw the samples around them. */
  const hp2x_warnings *w = &ev->p->warn;
  if (st == HP2X_OK && w->corrupt_regions && ev->p->n_samples == 0)
    return ev->status = hpx_fail(
               err, HP2X_E_SYNTAX, 0, w->corrupt_from,
               "%s; no complete heap sample outside the corrupt bytes",
               w->corrupt_reason);
  return st;
}

/* Closes the profile at the end of the input: the last sample (GHC < 8.10
 * ends it with the data end), or the warning that the input stops short. */
static hp2x_status finish_samples(evl_parser *ev, hp2x_err *err) {
  if (ev->at_end) {
    /* Without SAMPLE_END (GHC < 8.10) the data end closes a sample. */
    if (ev->in_sample && !ev->has_sample_end) {
      ev->in_sample = 0;
      hp2x_status st = profile_end_sample(ev->p, err);
      if (st != HP2X_OK && err && err->offset < 0) err->offset = ev->offset;
      return st;
    }
    if (!ev->in_sample) return HP2X_OK;
  }
  /* No data-end marker: the program was killed or is still running. */
  ev->p->warn.truncated = 1;
  ev->p->warn.truncated_between = !ev->in_sample && !ev->ev_len && !ev->skip;
  ev->p->warn.truncated_offset = ev->in_sample ? ev->sample_offset
                                 : ev->ev_len || ev->skip ? ev->event_start
                                                          : ev->offset;
  if (ev->in_sample) profile_abort_sample(ev->p);
  ev->in_sample = 0;
  return HP2X_OK;
}
