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

/* A front end's side of the parts: fe is the real reader (hp_parser or
 * evl_parser), cfg what its parts need of it, fixed while they are read. */
typedef struct parts_front {
  void *fe;
  const void *cfg;
  /* Where the part that starts at buf[start] ends: the first place to
   * start afresh at or after start + want, or len.  On the thread that
   * cuts the parts (one at a time); it reads buf from start on only. */
  size_t (*part_end)(const void *cfg, const unsigned char *buf, size_t len,
                     size_t start, size_t want);
  /* Reads the part: its bytes (len of them, at `offset` in the input) into
   * a result of its own; NULL when out of memory (its bytes are then
   * fed in order).  On any thread, several at once; it reads cfg only.
   * `spare`, when not NULL, is an earlier part's profile, taken and done
   * with: read owns it (hpx_part_profile_new reuses its memory). */
  void *(*read)(const void *cfg, const unsigned char *bytes, size_t len,
                long long offset, hp2x_profile *spare);
  /* Takes the result into fe, in order, on the calling thread: *merged
   * says whether it could (else its bytes are fed).  Errors are fe's. */
  hp2x_status (*merge)(void *fe, void *result, int *merged, hp2x_err *err);
  /* Feeds bytes to fe as the one-thread reader does. */
  hp2x_status (*feed)(void *fe, const unsigned char *bytes, size_t len,
                      hp2x_err *err);
  /* Frees a result but its profile, which it returns (NULL: none). */
  hp2x_profile *(*release)(void *result);
} parts_front;

/* Reads buf[0..len), at `offset` in the input, starting afresh at buf[0],
 * through f as `plan` says (frontends.h): on plan->threads threads (the
 * caller's and the others started for the call), in parts of about
 * plan->part_bytes.  The first error stops the reading and is returned
 * (err, and fe's own sticky status).  Threads that cannot be started are
 * not an error: fewer read. */
hp2x_status hpx_parts_read(const parts_front *f, const unsigned char *buf,
                           size_t len, long long offset, const feed_plan *plan,
                           hp2x_err *err);

/* The part size for `len` bytes on `threads` threads when the parser sets
 * none: enough parts to keep every thread busy, each big enough that
 * starting a part afresh costs little. */
size_t hpx_parts_auto_bytes(size_t len, size_t threads);

#endif
