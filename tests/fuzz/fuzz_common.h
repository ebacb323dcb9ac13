/* fuzz_common.h -- helpers shared by the libFuzzer targets: parse an input
 * whole and in chunks through the streaming API, and check that both agree.
 * Test code: a broken invariant traps.
 */
#ifndef HPX_FUZZ_COMMON_H
#define HPX_FUZZ_COMMON_H

#include "hp2x.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(c)  \
  do {                 \
    if (!(c)) abort(); \
  } while (0)

/* An output in memory, any size (the fuzzers' hp2x_write_fn). */
typedef struct blob {
  char *data;
  size_t len, cap;
} blob;

static int blob_write(void *closure, const void *buf, size_t len) {
  blob *b = closure;
  if (b->len + len > b->cap) {
    size_t cap = (b->len + len) * 2;
    char *d = realloc(b->data, cap);
    if (!d) return -1;
    b->data = d, b->cap = cap;
  }
  memcpy(b->data + b->len, buf, len);
  b->len += len;
  return 0;
}

/* The input kind a fuzzer's option byte names (its bits 0-1): guessed,
 * .hp, eventlog, guessed. */
static inline hp2x_input_kind fuzz_kind(uint8_t byte) {
  static const hp2x_input_kind kinds[] = {HP2X_INPUT_AUTO, HP2X_INPUT_HP,
                                          HP2X_INPUT_EVENTLOG, HP2X_INPUT_AUTO};
  return kinds[byte & 3];
}

/* A parser of `kind` with the fuzzers' options (stacks cut at 25),
 * bounded by a picture `columns` wide (0: not) and keeping the last
 * `last_s` seconds (0: all). */
static hp2x_parser *fuzz_parser_bounded(hp2x_input_kind kind, size_t columns,
                                        double last_s, hp2x_err *err) {
  hp2x_err_init(err);
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.kind = kind;
  o.ccs_length = 25;
  o.picture_columns = columns;
  o.last_s = last_s;
  return hp2x_parser_new("fuzz", &o, err);
}

static inline hp2x_parser *fuzz_parser(hp2x_input_kind kind, hp2x_err *err) {
  return fuzz_parser_bounded(kind, 0, 0.0, err);
}

/* Parses data[0..size) fed in chunks whose sizes come from `seed` (0 =
 * whole).  Returns the status; *out gets the profile on success. */
static hp2x_status fuzz_parse(const uint8_t *data, size_t size,
                              hp2x_input_kind kind, uint32_t seed,
                              hp2x_profile **out) {
  hp2x_err err;
  *out = NULL;
  hp2x_parser *ps = fuzz_parser(kind, &err);
  if (!ps) return err.code;
  hp2x_status st = HP2X_OK;
  size_t pos = 0;
  uint32_t x = seed | 1u;
  size_t last_samples = 0;
  while (st == HP2X_OK && pos < size) {
    size_t n = size - pos;
    if (seed) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      size_t want = 1 + x % 64;
      if (want < n) n = want;
    }
    st = hp2x_parser_feed(ps, data + pos, n, &err);
    pos += n;
    /* Watch mode's view: complete samples never decrease. */
    size_t now = hp2x_profile_sample_count(hp2x_parser_peek(ps));
    FUZZ_CHECK(st != HP2X_OK || now >= last_samples);
    last_samples = now;
  }
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, out, &err);
  if (st != HP2X_OK) FUZZ_CHECK(err.code == st && err.msg[0] != '\0');
  hp2x_parser_free(ps);
  return st;
}

/* a and b are the same profile: header, samples, labels, marks, the
 * warnings and (for the first `limit` x `limit`) values. */
static void fuzz_check_same_profile(const hp2x_profile *a,
                                    const hp2x_profile *b, size_t limit) {
  size_t n = hp2x_profile_sample_count(a);
  FUZZ_CHECK(n == hp2x_profile_sample_count(b));
  FUZZ_CHECK(hp2x_profile_label_count(a) == hp2x_profile_label_count(b));
  for (size_t s = 0; s < n; s++)
    FUZZ_CHECK(hp2x_profile_sample_time(a, s) ==
               hp2x_profile_sample_time(b, s));
  for (size_t l = 0; l < hp2x_profile_label_count(a); l++)
    FUZZ_CHECK(strcmp(hp2x_profile_label(a, l), hp2x_profile_label(b, l)) == 0);
  for (size_t s = 0; s < n && s < limit; s++)
    for (size_t l = 0; l < hp2x_profile_label_count(a) && l < limit; l++)
      FUZZ_CHECK(hp2x_profile_value(a, s, l) == hp2x_profile_value(b, s, l));
  FUZZ_CHECK(hp2x_profile_mark_count(a) == hp2x_profile_mark_count(b));
  for (size_t m = 0; m < hp2x_profile_mark_count(a); m++)
    FUZZ_CHECK(hp2x_profile_mark_time(a, m) == hp2x_profile_mark_time(b, m));
  FUZZ_CHECK(strcmp(hp2x_profile_job(a), hp2x_profile_job(b)) == 0);
  FUZZ_CHECK(strcmp(hp2x_profile_date(a), hp2x_profile_date(b)) == 0);
  FUZZ_CHECK(hp2x_profile_warnings(a)->truncated ==
             hp2x_profile_warnings(b)->truncated);
}

/* Whole and chunked parses agree on status, header, samples, labels,
 * marks, the truncation warning and (for the first 64 x 64) values. */
static void fuzz_parse_both_ways(const uint8_t *data, size_t size,
                                 hp2x_input_kind kind) {
  uint32_t seed = 0x9e3779b9u;
  for (size_t i = 0; i < size && i < 16; i++) seed = seed * 31u + data[i];
  hp2x_profile *a = NULL, *b = NULL;
  hp2x_status sa = fuzz_parse(data, size, kind, 0, &a);
  hp2x_status sb = fuzz_parse(data, size, kind, seed ? seed : 1, &b);
  FUZZ_CHECK(sa == sb);
  if (sa == HP2X_OK) fuzz_check_same_profile(a, b, 64);
  hp2x_profile_free(a);
  hp2x_profile_free(b);
}

#endif
