/* fuzz_threads.c -- libFuzzer target: reading on several threads
 * (src/read/parts.c).  The input is read once on one thread, fed whole,
 * and once on 2 to 9 threads in parts as small as the input chooses, fed
 * in chunks of random sizes; both must end alike: the same status, error
 * message, line and byte offset, and on success the same profile field by
 * field (labels, their sums and details, samples and how they are stored,
 * marks, heap series, warnings: tests/unit/profile_same.h).
 *
 *   byte 0  kind (bits 0-1: auto, .hp, eventlog, auto); threads - 2
 *           (bits 2-4); the profile's bound (bits 5-7, as fuzz_stream.c's
 *           byte 1: 0-3 none, 4-5 a picture 2 columns wide, 6 the same and
 *           --last 0.5 s, 7 --last 0.05 s alone)
 *   byte 1  the part size: 2^(b % 13) bytes (1 B to 4 KiB); bit 7: fed
 *           whole rather than in chunks
 *   byte 2-3  the seed of the chunk sizes (1 B to 4 KiB); fed whole, bit 0
 *           of byte 2 set: read from a file instead, as hp2x reads one
 *           (hp2x_parser_feed_fd: pread a piece at a time), after byte 3's
 *           first bytes fed from memory (the file's offset moved past them)
 *   byte 4- the input
 */
#include "fuzz_common.h"

#define SAME_CHECK(c) FUZZ_CHECK(c)
#include "../unit/profile_same.h"

#include <stdio.h>
#include <unistd.h>

typedef struct threads_read {
  hp2x_status st;
  hp2x_err err;
  hp2x_profile *p;
} threads_read;

/* Reads data as o says from a temporary file: its first `first` bytes fed
 * from memory, the rest read from the file where its offset then stands
 * (hp2x_parser_feed_fd). */
static hp2x_status feed_from_file(hp2x_parser *ps, const uint8_t *data,
                                  size_t size, size_t first, hp2x_err *err) {
  FILE *f = tmpfile();
  FUZZ_CHECK(f && fwrite(data, 1, size, f) == size && fflush(f) == 0);
  if (first > size) first = size;
  hp2x_status st = hp2x_parser_feed(ps, data, first, err);
  FUZZ_CHECK(lseek(fileno(f), (off_t)first, SEEK_SET) == (off_t)first);
  if (st == HP2X_OK) st = hp2x_parser_feed_fd(ps, fileno(f), 0, err);
  fclose(f);
  return st;
}

/* Reads data as o says, fed whole (seed 0) or in chunks. */
static threads_read read_on(const uint8_t *data, size_t size,
                            const hp2x_parse_options *o, uint32_t seed,
                            long from_file) {
  threads_read r = {HP2X_OK, {0}, NULL};
  hp2x_err_init(&r.err);
  hp2x_parser *ps = hp2x_parser_new("fuzz", o, &r.err);
  if (!ps) {
    r.st = r.err.code;
    return r;
  }
  uint32_t x = seed | 1u;
  if (from_file >= 0)
    r.st = feed_from_file(ps, data, size, (size_t)from_file, &r.err);
  for (size_t pos = from_file >= 0 ? size : 0; r.st == HP2X_OK && pos < size;) {
    size_t n = size - pos;
    if (seed) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      if (1 + x % 4096 < n) n = 1 + x % 4096;
    }
    r.st = hp2x_parser_feed(ps, data + pos, n, &r.err);
    pos += n;
  }
  if (r.st == HP2X_OK) r.st = hp2x_parser_finish(ps, &r.p, &r.err);
  hp2x_parser_free(ps);
  return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.kind = fuzz_kind(data[0]);
  o.ccs_length = 25;
  unsigned bound = data[0] >> 5;
  if (bound >= 4 && bound <= 6) o.picture_columns = 2;
  if (bound == 6) o.last_s = 0.5;
  if (bound == 7) o.last_s = 0.05;
  threads_read one = read_on(data + 4, size - 4, &o, 0, -1);
  o.threads = 2 + ((data[0] >> 2) & 7);
  o.part_bytes = (size_t)1 << ((data[1] & 127) % 13);
  uint32_t seed = data[1] & 128 ? 0 : ((uint32_t)data[2] << 8 | data[3]) + 1;
  long from_file = seed == 0 && (data[2] & 1) ? (long)data[3] : -1;
  threads_read many = read_on(data + 4, size - 4, &o, seed, from_file);
  FUZZ_CHECK(one.st == many.st && one.err.code == many.err.code);
  FUZZ_CHECK(one.err.line == many.err.line &&
             one.err.offset == many.err.offset);
  FUZZ_CHECK(strcmp(one.err.msg, many.err.msg) == 0);
  if (one.st == HP2X_OK) same_profile_exactly(one.p, many.p);
  hp2x_profile_free(one.p);
  hp2x_profile_free(many.p);
  return 0;
}
