/* parts.h -- private to libhp2x: reading a stretch of input on several
 * threads (parts.c).  The stretch is cut into parts where the front end can
 * start afresh (.hp text: a BEGIN_SAMPLE line; an eventlog: a block
 * marker), the parts are read on every thread at once, each into a profile
 * of its own, and the calling thread takes them into the real reader in
 * order: merged when the part fits the reader's state (the same result
 * as reading its bytes), else its bytes fed to the reader as they are.
 */
#ifndef HPX_PARTS_H
#define HPX_PARTS_H

#include "frontends.h"

/* Where a stretch of input is: bytes in memory, or a regular file read
 * once with pread, a piece at a time, into buffers its readers own and
 * reuse (parser.c's hp2x_parser_feed_fd; never mapped).  Positions are
 * from the stretch's first byte; `offset` is that byte's in the input,
 * for messages. */
typedef struct parts_src {
  const unsigned char *mem; /* the bytes; NULL: read from fd */
  int fd;
  long long at;     /* fd: the file offset of byte 0 */
  long long offset; /* byte 0's offset in the input */
  size_t len;
  unsigned char *win; /* fd: bytes [win_from, win_from + win_len); owned */
  size_t win_from, win_len, win_cap;
} parts_src;

/* A buffer a reader owns and reuses (grown as needed). */
typedef struct parts_buf {
  unsigned char *p;
  size_t cap;
} parts_buf;

void hpx_src_mem(parts_src *s, const unsigned char *buf, size_t len,
                 long long offset);
void hpx_src_fd(parts_src *s, int fd, long long at, size_t len,
                long long offset);
/* Leaves out s's first n bytes: the stretch starts after them. */
void hpx_src_skip(parts_src *s, size_t n);
void hpx_src_free(parts_src *s);
/* The bytes from pos on, at least min(need, len - pos) of them (*avail
 * says how many there are); NULL at the end, or where the file cannot be
 * read (the reading of those bytes then says why).  Moves s's window:
 * one caller at a time. */
const unsigned char *hpx_src_at(parts_src *s, size_t pos, size_t need,
                                size_t *avail);
/* Bytes [pos, pos + n) of s: in memory where they are, else read into b
 * (grown to n).  NULL on error: err names the byte offset (a read that
 * fails, or a file that ends early: it shrank while read). */
const unsigned char *hpx_src_bytes(const parts_src *s, size_t pos, size_t n,
                                   parts_buf *b, hp2x_err *err);
/* Feeds bytes [pos, pos + n) of s to feed(fe, ...): at once when in
 * memory, else a piece at a time read into b. */
hp2x_status hpx_src_feed(const parts_src *s, size_t pos, size_t n,
                         hp2x_status (*feed)(void *fe, const unsigned char *,
                                             size_t, hp2x_err *),
                         void *fe, parts_buf *b, hp2x_err *err);

/* hp2x_parser_feed of src's bytes (parser.c): hp2x_parser_feed_fd's
 * file, and for tests a stretch longer than its file (one that shrank
 * while read). */
hp2x_status hpx_parser_feed_src(hp2x_parser *ps, parts_src *src, hp2x_err *err);

/* A part's bytes as its reader takes them (parts.c): a piece at a time,
 * each its reader's until the next is asked for. */
typedef struct parts_pieces parts_pieces;
/* The next piece (*n bytes), or NULL at the part's end or where its bytes
 * cannot be had (hpx_pieces_failed: the part is then fed in order, which
 * says why). */
const unsigned char *hpx_pieces_next(parts_pieces *in, size_t *n);
int hpx_pieces_failed(const parts_pieces *in);

/* A front end's side of the parts: fe is the real reader (hp_parser or
 * evl_parser), cfg what its parts need of it, fixed while they are read. */
typedef struct parts_front {
  void *fe;
  const void *cfg;
  /* Where the part that starts at `start` in src ends: the first place to
   * start afresh at or after start + want, or src->len.  On the thread
   * that cuts the parts (one at a time); it reads src from start on only
   * (hpx_src_at). */
  size_t (*part_end)(const void *cfg, parts_src *src, size_t start,
                     size_t want);
  /* Reads the part: its bytes (len of them, at `offset` in the input, a
   * piece at a time from `in`) into a result of its own, which must not
   * point into them; NULL when out of memory or its bytes cannot be had
   * (they are then fed in order).  On any thread, several at once; it
   * reads cfg only.
   * `spare`, when not NULL, is an earlier part's profile, taken and done
   * with: read owns it (hpx_part_profile_new reuses its memory). */
  void *(*read)(const void *cfg, parts_pieces *in, size_t len, long long offset,
                hp2x_profile *spare);
  /* Takes the result into fe, in order, on the calling thread: *merged
   * says whether it could (else its bytes are fed).  Errors are fe's. */
  hp2x_status (*merge)(void *fe, void *result, int *merged, hp2x_err *err);
  /* Feeds bytes to fe as the one-thread reader does. */
  hp2x_status (*feed)(void *fe, const unsigned char *bytes, size_t len,
                      hp2x_err *err);
  /* Frees a result but its profile, which it returns (NULL: none). */
  hp2x_profile *(*release)(void *result);
} parts_front;

/* Reads src from `from` to its end, starting afresh at `from`, through f
 * as `plan` says (frontends.h): on plan->threads threads (the caller's and
 * the others started for the call), in parts of about plan->part_bytes.
 * The first error stops the reading and is returned (err, and fe's own
 * sticky status).  Threads that cannot be started are not an error: fewer
 * read. */
hp2x_status hpx_parts_read(const parts_front *f, parts_src *src, size_t from,
                           const feed_plan *plan, hp2x_err *err);

/* hpx_hp_parse_feed and hpx_evl_parse_feed of src's bytes on several
 * threads (hp_parts.c, eventlog_parts.c): the same result. */
hp2x_status hpx_hp_parse_feed_parts(hp_parser *hp, parts_src *src,
                                    const feed_plan *plan, hp2x_err *err);
hp2x_status hpx_evl_parse_feed_parts(evl_parser *ev, parts_src *src,
                                     const feed_plan *plan, hp2x_err *err);

/* The part size for `len` bytes on `threads` threads when the parser sets
 * none: enough parts to keep every thread busy, each big enough that
 * starting a part afresh costs little. */
size_t hpx_parts_auto_bytes(size_t len, size_t threads);

#endif
