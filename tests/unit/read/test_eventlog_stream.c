/* test_eventlog_stream.c -- events taken in runs (eventlog_stream.c's
 * event_run, the string samples' and skipped events' loop) read as the
 * general framing reads them one by one: eventlogs made here and real
 * ones, whole and a byte a feed, clean and damaged inside a run; and the
 * recent times' median the framing checks each event's time against. */
#define TEST_RNG_SEED 0x9e3779b97f4a7c15ull
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>

#include "parse_helpers.h"
#include "test_rng.h"
#include "read/frontends.h"
/* (its EV_IPE under another name: parts_fixture.h's kinds have one) */
#define EV_IPE EVL_TYPE_IPE
#include "read/eventlog_int.h"
#undef EV_IPE
#define SAME_CHECK(c) assert_true(c)
#include "profile_same.h"

#include "parts_fixture.h"

/* Damages the first GC start's event at or after byte from in an
 * eventlog: its time far off (fixed size), or, with undeclared, the type
 * of the event after it one not declared; 0 when there is none. */
static int damage_gc_start(unsigned char *buf, size_t len, size_t from,
                           int undeclared) {
  for (size_t i = from; i + 24 < len; i++)
    if (buf[i] == 0 && buf[i + 1] == 9 && buf[i + 2] == 0 && buf[i + 3] == 0 &&
        buf[i + 10] == 0) {
      if (undeclared)
        buf[i + 11] = 250;
      else
        buf[i + 2] = 0x40;
      return 1;
    }
  return 0;
}

/* Events taken in runs (eventlog_stream.c's event_run) as one by one:
 * read whole, and a byte a feed (no event is ever whole in a feed then),
 * with labels in the last census's order (the guess hits) and out of it,
 * repeated, and one string sample inside a run damaged: its time far off,
 * its value past 63 bits, its size past its block; and real eventlogs,
 * whose runs are mostly of events hp2x does not read, whole and with one
 * of those damaged. */
static void string_runs(void **state) {
  (void)state;
  static const unsigned kinds[] = {
      EV_ORDERED | EV_STATS, EV_ORDERED | EV_IPE | EV_REPEATS,
      EV_ORDERED | EV_OLD | EV_MID_RUN, EV_REPEATS,
      EV_ORDERED | EV_STACKS | EV_STATS}; /* stacks: not damaged */
  static const size_t blocks[] = {300, 2000, 0};
  hp2x_parse_options o = options_plain();
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    for (size_t b = 0; b < 3; b++) {
      bytes x = make_eventlog(300, kinds[k], blocks[b]);
      for (int round = -1; round < (kinds[k] & EV_STACKS ? 0 : 9); round++) {
        bytes y = {0};
        add(&y, x.b, x.n);
        size_t at = round < 0 ? 0
                              : string_event_at(&y, y.n * (size_t)round / 9);
        if (round >= 0) assert_true(at > 0);
        if (round % 3 == 0) y.b[at + 2] = 0x7f;  /* 0x7f.. ns */
        if (round % 3 == 1) y.b[at + 13] = 0xff; /* value >= 2^63 */
        if (round % 3 == 2) y.b[at + 10] += 1;   /* 256 bytes more */
        outcome whole = read_with(y.b, y.n, &o, 1, 0, 0);
        outcome one_by_one = read_with(y.b, y.n, &o, 1, 0, 1);
        if (round < 0) assert_int_equal(whole.st, HP2X_OK);
        same_outcome(&whole, &one_by_one);
        hp2x_profile_free(whole.p);
        hp2x_profile_free(one_by_one.p);
        free(y.b);
      }
      free(x.b);
    }
  static const char *const real[] = {
      "tests/data/ghc-modern/ghc-9.10.3/markers.hc.eventlog",
      "tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.eventlog",
      "samples/profiles/manycc.ipehi.eventlog"};
  for (size_t f = 0; f < sizeof real / sizeof *real; f++) {
    size_t len;
    unsigned char *buf = read_repo_file(real[f], &len);
    assert_non_null(buf);
    for (int round = 0; round < 4; round++) {
      /* rounds 1-2 damage the first GC start from a third or two of the
       * file on (from its start when none is there), round 3 the first */
      size_t from = round < 3 ? len / 3 * (size_t)round : 0;
      int damaged = !round || damage_gc_start(buf, len, from, round == 3) ||
                    damage_gc_start(buf, len, 0, round == 3);
      assert_true(damaged); /* else a clean round again */
      outcome whole = read_with(buf, len, &o, 1, 0, 0);
      outcome one_by_one = read_with(buf, len, &o, 1, 0, 1);
      if (!round) assert_int_equal(whole.st, HP2X_OK);
      same_outcome(&whole, &one_by_one);
      hp2x_profile_free(whole.p);
      hp2x_profile_free(one_by_one.p);
    }
    free(buf);
  }
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* hpx_evl_stream_recent_time against its definition: the median (the
 * (n / 2)th smallest) of the n = min(n_recent, 8) times in the ring's
 * first n slots, read in place when the last n came in rising order, else
 * sorted (a network of compare-exchanges): rings of few distinct times
 * (ties) and of any, every count of pushes and of rising ones. */
static void recent_median(void **state) {
  (void)state;
  evl_parser *ev = calloc(1, sizeof *ev);
  assert_non_null(ev);
  for (int round = 0; round < 200000; round++) {
    uint32_t spread = round % 3 == 0 ? 3 : round % 3 == 1 ? 1000 : UINT32_MAX;
    for (size_t i = 0; i < RECENT_TIMES; i++)
      ev->recent_ns[i] = (uint64_t)rnd(spread) << (round % 5 == 0 ? 31 : 0);
    ev->n_recent = rnd(20);
    ev->recent_rising = rnd(12);
    size_t n = ev->n_recent < RECENT_TIMES ? ev->n_recent : RECENT_TIMES;
    uint64_t want = 0;
    if (n && ev->recent_rising >= n) {
      want = ev->recent_ns[(ev->n_recent - n + n / 2) % RECENT_TIMES];
    } else if (n) {
      uint64_t t[RECENT_TIMES];
      memcpy(t, ev->recent_ns, n * sizeof *t);
      qsort(t, n, sizeof *t, cmp_u64);
      want = t[n / 2];
    }
    assert_true(hpx_evl_stream_recent_time(ev) == want);
  }
  free(ev);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(string_runs),
      cmocka_unit_test(recent_median),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
