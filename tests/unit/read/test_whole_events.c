/* test_whole_events.c -- whole_events.c, behind hp2x_parser_whole_bytes,
 * which hp2x --tee cuts its copy of a stream back to: on a real GHC 9.10
 * stream fed byte by byte, its values are exactly the event boundaries a
 * walk of the container format here finds (the end of the header, then the
 * end of each event, the end-of-data marker's included), each reached as
 * the event's last byte comes; bytes after the marker are not counted; for
 * .hp text it is the end of the last whole line; on a stream with corrupt
 * stretches, fed byte by byte, they equal a fresh parse's of each prefix,
 * and the error a corrupt stream ends with is the same in any chunking.
 */
#include "parse_helpers.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static const char *STREAM =
    "tests/data/live/ghc9.10.3-longrun.from-start.eventlog";

enum { MAX_BOUNDARIES = 1 << 16 };

/* The walk: the offsets where the header and each event end, into
 * at[0..*n); GHC's format: "hdrb" "hetb", per event type "etb\0" u16 id,
 * i16 size (-1 variable), u32 length + description, u32 length + extra,
 * "ete\0"; "hete" "hdre" "datb"; events u16 type, u64 time, [u16 size]
 * payload; 0xffff ends the data. */
static void walk_events(const unsigned char *b, size_t len, long long *at,
                        size_t *n) {
  static int size_of[65536];
  size_t pos = 8;
  assert_memory_equal(b, "hdrbhetb", 8);
  while (memcmp(b + pos, "hete", 4) != 0) {
    assert_memory_equal(b + pos, "etb\0", 4);
    unsigned id = (unsigned)b[pos + 4] << 8 | b[pos + 5];
    size_of[id] = (int16_t)((unsigned)b[pos + 6] << 8 | b[pos + 7]);
    pos += 8;
    size_t dlen = (size_t)b[pos] << 24 | (size_t)b[pos + 1] << 16 |
                  (size_t)b[pos + 2] << 8 | b[pos + 3];
    pos += 4 + dlen;
    size_t elen = (size_t)b[pos] << 24 | (size_t)b[pos + 1] << 16 |
                  (size_t)b[pos + 2] << 8 | b[pos + 3];
    pos += 4 + elen + 4;
  }
  assert_memory_equal(b + pos, "hetehdredatb", 12);
  pos += 12;
  *n = 0;
  at[(*n)++] = (long long)pos;
  while (pos + 2 <= len) {
    unsigned type = (unsigned)b[pos] << 8 | b[pos + 1];
    size_t size = type == 0xffff ? 0 : (size_t)size_of[type];
    size_t head = type == 0xffff ? 2 : 10;
    if (type != 0xffff && size_of[type] < 0) {
      size = (size_t)b[pos + 10] << 8 | b[pos + 11];
      head = 12;
    }
    pos += head + size;
    assert_true(pos <= len && *n < MAX_BOUNDARIES);
    at[(*n)++] = (long long)pos;
    if (type == 0xffff) break;
  }
}

/* whole_bytes of a fresh parser fed buf[0, n). */
static long long whole_of_prefix(const unsigned char *buf, size_t n) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("prefix", NULL, &err);
  assert_non_null(ps);
  assert_int_equal(hp2x_parser_feed(ps, buf, n, &err), HP2X_OK);
  long long w = hp2x_parser_whole_bytes(ps);
  hp2x_parser_free(ps);
  return w;
}

static void eventlog_boundaries(void **state) {
  (void)state;
  size_t len;
  unsigned char *buf = read_repo_file(STREAM, &len);
  assert_non_null(buf);
  assert_true(len > 100000);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("stream", NULL, &err);
  assert_non_null(ps);
  static long long at[MAX_BOUNDARIES];
  size_t n_at = 0;
  walk_events(buf, len, at, &n_at);
  assert_true(n_at > 1000);
  assert_int_equal(at[n_at - 1], (long long)len); /* the marker ends it */
  long long prev = 0;
  size_t next = 0; /* the boundary expected next */
  for (size_t i = 0; i < len; i++) {
    assert_int_equal(hp2x_parser_feed(ps, buf + i, 1, &err), HP2X_OK);
    long long w = hp2x_parser_whole_bytes(ps);
    if (w != prev) {
      assert_true(next < n_at);
      assert_int_equal(w, at[next]);
      assert_int_equal(w, (long long)(i + 1)); /* whole as its last byte came */
      next++;
    }
    prev = w;
  }
  assert_int_equal(next, n_at); /* every boundary seen */
  /* A fresh parser fed a prefix agrees, whatever the chunking. */
  for (size_t k = 1; k < n_at; k += 97) {
    assert_int_equal(whole_of_prefix(buf, (size_t)at[k]), at[k]);
    assert_int_equal(whole_of_prefix(buf, (size_t)at[k] - 1), at[k - 1]);
  }
  assert_true(hp2x_parser_at_end(ps));
  /* Bytes after the marker are not whole events. */
  assert_int_equal(hp2x_parser_feed(ps, "junk", 4, &err), HP2X_OK);
  assert_int_equal(hp2x_parser_whole_bytes(ps), (long long)len);
  hp2x_parser_free(ps);
  /* Nothing whole inside the header. */
  assert_int_equal(whole_of_prefix(buf, 3), 0);
  assert_int_equal(whole_of_prefix(buf, 200), 0);
  free(buf);
}

/* An eventlog with 24 corrupt stretches (a fuzz input: tests/fuzz-regress/
 * stream/resync-whole-bytes, behind fuzz_stream.c's 4 option bytes): fed
 * byte by byte, after every byte its whole bytes are those of a fresh
 * parser fed that prefix at once.  While a corrupt stretch is skipped
 * they are where the search for the place to resume began, not where the
 * bytes kept for it start now (those are let go as they are tried, at
 * moments that depend on the chunks: 2725 against 2826 at the end). */
static void corrupt_stream_any_chunking(void **state) {
  (void)state;
  size_t len;
  unsigned char *file =
      read_repo_file("tests/fuzz-regress/stream/resync-whole-bytes", &len);
  assert_non_null(file);
  assert_true(len > 3000);
  const unsigned char *buf = file + 4;
  len -= 4;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("stream", NULL, &err);
  assert_non_null(ps);
  for (size_t i = 0; i < len; i++) {
    assert_int_equal(hp2x_parser_feed(ps, buf + i, 1, &err), HP2X_OK);
    assert_int_equal(hp2x_parser_whole_bytes(ps), whole_of_prefix(buf, i + 1));
  }
  hp2x_profile *p = NULL;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  assert_int_equal(hp2x_profile_warnings(p)->corrupt_regions, 24);
  hp2x_profile_free(p);
  hp2x_parser_free(ps);
  free(file);
}

/* Another (tests/fuzz-regress/stream/resync-fault-offset): a corrupt
 * event right after one of variable size, which is taken to be the wrong
 * one when reading resumes inside it.  The error (no census outside the
 * corrupt bytes) names the same place and size in any chunking: it was
 * byte 498, "claiming 11 bytes", fed byte by byte, against 462 and 47 in
 * one feed. */
static void corrupt_error_any_chunking(void **state) {
  (void)state;
  size_t len;
  unsigned char *file =
      read_repo_file("tests/fuzz-regress/stream/resync-fault-offset", &len);
  assert_non_null(file);
  const unsigned char *buf = file + 4;
  len -= 4;
  hp2x_err want;
  hp2x_err_init(&want);
  hp2x_profile *p = NULL;
  assert_int_equal(parse_chunked(buf, len, 0, HP2X_INPUT_EVENTLOG, &p, &want),
                   HP2X_E_SYNTAX);
  assert_int_equal(want.offset, 462);
  assert_non_null(strstr(want.msg, "claiming 47 bytes"));
  for (size_t step = 1; step <= 64; step++) {
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(
        parse_chunked(buf, len, step, HP2X_INPUT_EVENTLOG, &p, &err),
        HP2X_E_SYNTAX);
    assert_int_equal(err.offset, want.offset);
    assert_string_equal(err.msg, want.msg);
  }
  free(file);
}

static void hp_text_lines(void **state) {
  (void)state;
  const char *text = "JOB \"x\"\nDATE \"y\"\nSAMPLE_UNIT \"s\"\nVALUE_U";
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("t.hp", NULL, &err);
  assert_non_null(ps);
  assert_int_equal(hp2x_parser_feed(ps, text, 2, &err), HP2X_OK);
  assert_int_equal(hp2x_parser_whole_bytes(ps), 0); /* kind not known yet */
  assert_int_equal(hp2x_parser_feed(ps, text + 2, strlen(text) - 2, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_parser_whole_bytes(ps),
                   (long long)(strrchr(text, '\n') - text + 1));
  hp2x_parser_free(ps);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(eventlog_boundaries),
      cmocka_unit_test(hp_text_lines),
      cmocka_unit_test(corrupt_stream_any_chunking),
      cmocka_unit_test(corrupt_error_any_chunking),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
