/* eventlog_header.c -- the eventlog's header: the magic, then the list of
 * event types with the payload size each declares (a fixed size, or
 * variable), which the event stream is framed by (eventlog_stream.c).  The
 * header is parsed again from its start as its bytes arrive (and copied
 * a doubling step at a time from a feed that holds more), so any split of
 * the input reads it alike; its size rules for the types hp2x reads are
 * eventlog_events.c's (hpx_evl_declared_size_ok).
 */
#include "eventlog_int.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

#define MAX_HEADER_BYTES (1u << 22) /* the event-type table: 4 MiB */

/* Records event type `id` of payload size `size`, declared at byte `at`.
 * Returns 0, or -1 with the error recorded. */
static int declare_event_type(evl_parser *ev, unsigned id, int size, size_t at,
                              hp2x_err *err) {
  assert(id <= 0xffff);
  char msg[160];
  if (id == EV_DATA_END)
    return evl_fail_at(ev, err, (long long)at,
                       "event type 65535 is reserved for the data end"),
           -1;
  if (evl_declared_size(ev, id) != EVL_UNDECLARED) {
    hpx_fmt(msg, sizeof msg, "event type %u is declared twice", id);
    return evl_fail_at(ev, err, (long long)at, msg), -1;
  }
  if (size < -1)
    return evl_fail_at(ev, err, (long long)at + 6,
                       "event size must be -1 (variable) or >= 0"),
           -1;
  if (!hpx_evl_declared_size_ok(id, size)) {
    hpx_fmt(msg, sizeof msg,
            "event type %u is declared %d bytes long; GHC writes it much "
            "shorter (at most %d accepted)",
            id, size, EVL_FIXED_SIZE_CAP);
    return evl_fail_at(ev, err, (long long)at + 6, msg), -1;
  }
  if (hpx_grow((void **)&ev->declared, &ev->declared_cap, ev->n_declared + 1,
               sizeof *ev->declared, err) != HP2X_OK)
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
                       "event type description longer than 64 KiB"),
           -1;
  if (n - p < (size_t)dlen + 4) return 0;
  p += dlen;
  uint32_t elen = evl_be32(h + p);
  p += 4;
  if (elen > 65536)
    return evl_fail_at(ev, err, (long long)p - 4,
                       "event type extra info longer than 64 KiB"),
           -1;
  if (n - p < (size_t)elen + 4) return 0;
  p += elen;
  if (memcmp(h + p, "ete\0", 4) != 0)
    return evl_fail_at(ev, err, (long long)p,
                       "expected 'ete' (end of an event type)"),
           -1;
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
  int r =
      expect_tag(ev, &pos, "hdrb", "expected the eventlog magic 'hdrb'", err);
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
                   "('hete')",
                   err);
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

/* Header bytes are copied and parsed a step at a time, the step doubling
 * from HEADER_STEP: a header is a few KB, and a feed may be a whole mapped
 * file, whose first 4 MiB would otherwise be copied (and faulted in) for
 * it. */
#define HEADER_STEP ((size_t)16 << 10)

/* Takes header bytes; once the header is whole, says where in buf the
 * events start. */
hp2x_status hpx_evl_header_feed(evl_parser *ev, const unsigned char *buf,
                                size_t len, size_t *used, hp2x_err *err) {
  size_t before = ev->hdr_len, given = 0, header_len = 0;
  for (;;) {
    size_t take = ev->hdr_len > HEADER_STEP ? ev->hdr_len : HEADER_STEP;
    if (take > len - given) take = len - given;
    if (ev->hdr_len + take > MAX_HEADER_BYTES)
      take = MAX_HEADER_BYTES - ev->hdr_len;
    if (hpx_grow((void **)&ev->hdr, &ev->hdr_cap, ev->hdr_len + take, 1, err) !=
        HP2X_OK)
      return ev->status = err->code;
    if (take) memcpy(ev->hdr + ev->hdr_len, buf + given, take);
    given += take;
    ev->hdr_len += take;
    int r = parse_header(ev, &header_len, err);
    if (r < 0) return ev->status;
    if (r > 0) break;
    if (ev->hdr_len >= MAX_HEADER_BYTES)
      return evl_fail_at(ev, err, (long long)ev->hdr_len,
                         "eventlog header larger than 4 MiB");
    if (given == len) return HP2X_OK;
  }
  ev->in_header = 0;
  ev->offset = (long long)header_len;
  *used = header_len - before; /* the header ends inside this buffer */
  hpx_free(ev->hdr);
  ev->hdr = NULL;
  ev->hdr_len = ev->hdr_cap = 0;
  return HP2X_OK;
}
