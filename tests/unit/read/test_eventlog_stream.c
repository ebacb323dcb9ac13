/* test_eventlog_stream.c -- events taken in runs (eventlog_stream.c's
 * event_run, the string samples' and skipped events' loop) read as the
 * general framing reads them one by one: eventlogs made here and real
 * ones, whole and a byte a feed, clean and damaged inside a run; the
 * recent times' median the framing checks each event's time against; and
 * that check's limits, the run's decisions against one by one's. */
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
 * sorted (an insertion sort of the n): rings of few distinct times
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

/* --------------------------------------------- the time check's limits */

/* An eventlog of a census, then one census block: its sample's
 * begin, `lead` string samples at times[0..lead), then the probe at
 * `probe_ns` (a string sample labelled PROBE, or with skipped an event of
 * a type hp2x does not read: 0, 4 bytes), a last entry and the sample's
 * end; *probe_at gets the probe's offset. */
static bytes probe_eventlog(uint64_t start_ns, const uint64_t *times,
                            size_t lead, uint64_t probe_ns, int skipped,
                            size_t *probe_at) {
  evlog g = {0};
  g.block_max = (size_t)1 << 30; /* blocks flushed here */
  add(&g.out, "hdrbhetb", 8);
  static const int sizes[][2] = {{0, 4},    {18, 14}, {29, -1},  {30, -1},
                                 {160, -1}, {162, 8}, {164, -1}, {165, 8}};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    declare(&g.out, (unsigned)sizes[i][0], sizes[i][1]);
  add(&g.out, "hetehdredatb", 12);
  run_start(&g, 0);
  bytes pl = {0};
  be(&pl, 0, 8);
  event(&g, GLOBAL, 162, start_ns / 2, &pl, 0, 0); /* a whole census first */
  string_payload(&pl, 80, "C0");
  event(&g, GLOBAL, 164, start_ns / 2, &pl, 1, pl.n);
  pl.n = 0;
  be(&pl, 0, 8);
  event(&g, GLOBAL, 165, start_ns / 2, &pl, 0, 0);
  flush_block(&g, GLOBAL, 0);
  pl.n = 0;
  be(&pl, 1, 8);
  event(&g, GLOBAL, 162, start_ns, &pl, 0, 0);
  char label[16];
  for (size_t i = 0; i < lead; i++) {
    snprintf(label, sizeof label, "L%zu", i);
    string_payload(&pl, 8 * (i + 1), label);
    event(&g, GLOBAL, 164, times[i], &pl, 1, pl.n);
  }
  *probe_at = g.out.n + 24 + g.buf[GLOBAL].n; /* past the block marker */
  if (skipped) {
    pl.n = 0;
    be(&pl, 7, 4);
    event(&g, GLOBAL, 0, probe_ns, &pl, 0, 0);
  } else {
    string_payload(&pl, 800, "PROBE");
    event(&g, GLOBAL, 164, probe_ns, &pl, 1, pl.n);
  }
  uint64_t last = lead ? times[lead - 1] : start_ns;
  string_payload(&pl, 8000, "AFTER");
  event(&g, GLOBAL, 164, last, &pl, 1, pl.n);
  pl.n = 0;
  be(&pl, 0, 8);
  event(&g, GLOBAL, 165, last, &pl, 0, 0);
  flush_block(&g, GLOBAL, 2);
  be(&g.out, 0xffff, 2);
  free(pl.b);
  free(g.buf[0].b);
  free(g.buf[1].b);
  return g.out;
}

/* The check's definition: the median of the last (at most 8) times before
 * the probe in its block (ring: n of them), the probe no more than a
 * second before it, and not past it by a fortnight unless within 64
 * times it; any time when fewer than 3 came before. */
static uint64_t median_last(const uint64_t *ring, size_t n) {
  size_t k = n < 8 ? n : 8;
  uint64_t m[8];
  memcpy(m, ring + n - k, k * sizeof *m);
  qsort(m, k, sizeof *m, cmp_u64);
  return m[k / 2];
}

static int accepts(const uint64_t *ring, size_t n, uint64_t t) {
  const uint64_t s_ns = 1000000000u, fortnight_ns = 14 * 86400 * s_ns;
  if (n < 3) return 1;
  uint64_t med = median_last(ring, n);
  if (t + s_ns < med) return 0;
  return t <= med + fortnight_ns || t / 64 <= med;
}

static int has_label(const hp2x_profile *p, const char *name) {
  for (size_t i = 0; p && i < hp2x_profile_label_count(p); i++)
    if (!strcmp(hp2x_profile_label(p, i), name)) return 1;
  return 0;
}

/* The run's time check (event_run) decides as the one-by-one framing's
 * (frame_event) and as its definition: an event timed at the check's
 * limits, after 0 to 11 others in its block (fewer than 3: no check; a
 * ring not full; full), rising or one out of order (the sorted median),
 * at times where the fortnight or the 64-times bound is the nearer, read
 * whole (in a run) and a byte a feed (one by one): a string sample's
 * probe taken into the profile, or a skipped one passed over, exactly
 * when the definition accepts its time; else a corrupt stretch from it. */
static void run_time_limits(void **state) {
  (void)state;
  const uint64_t s_ns = 1000000000u, fortnight_ns = 14 * 86400 * s_ns;
  static const uint64_t starts[] = {10 * 1000000000ull, 20000000000000ull};
  hp2x_parse_options o = options_plain();
  size_t rejected = 0, accepted = 0;
  for (size_t b = 0; b < 2; b++)
    for (size_t lead = 0; lead < 12; lead++)
      for (int order = 0; order < 4; order++)
        for (int probe = 0; probe < 12; probe++) {
          uint64_t ring[16], start = starts[b];
          ring[0] = ring[1] = start; /* the block marker, the sample begin */
          for (size_t i = 0; i < lead; i++)
            ring[2 + i] = start + 1000 * (i + 1);
          if (order == 1 && lead >= 2) ring[2 + lead / 2] -= 1500;
          if (order == 2 && lead >= 1) ring[2 + lead - 1] += 3 * s_ns;
          if (order == 3 && lead >= 8) ring[lead - 6] += 2 * s_ns;
          size_t n = 2 + lead;
          uint64_t med = median_last(ring, n);
          const uint64_t near[] = {med - s_ns - 1,     med - s_ns,
                                   med + fortnight_ns, med + fortnight_ns + 1,
                                   64 * med + 63,      64 * med + 64};
          uint64_t t = near[probe % 6];
          int skipped = probe >= 6;
          size_t at;
          bytes x = probe_eventlog(start, ring + 2, lead, t, skipped, &at);
          outcome whole = read_with(x.b, x.n, &o, 1, 0, 0);
          outcome one_by_one = read_with(x.b, x.n, &o, 1, 0, 1);
          same_outcome(&whole, &one_by_one);
          assert_int_equal(whole.st, HP2X_OK);
          const hp2x_warnings *w = hp2x_profile_warnings(whole.p);
          int ok = accepts(ring, n, t);
          if (ok) {
            accepted++;
            assert_int_equal(w->corrupt_regions, 0);
          } else {
            rejected++;
            assert_int_equal(w->corrupt_regions, 1);
            assert_true(w->corrupt_from == (long long)at);
            assert_non_null(strstr(w->corrupt_reason, "far from"));
          }
          if (!skipped) assert_int_equal(has_label(whole.p, "PROBE"), ok);
          hp2x_profile_free(whole.p);
          hp2x_profile_free(one_by_one.p);
          free(x.b);
        }
  assert_true(rejected > 50 && accepted > 50);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(string_runs),
      cmocka_unit_test(recent_median),
      cmocka_unit_test(run_time_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
