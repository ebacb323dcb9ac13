/* test_parts.c -- reading on several threads from memory (parts.c, with
 * hp_parts.c, eventlog_parts.c and model/profile_append.c): .hp text and
 * eventlogs made here to reach every case (censuses across blocks and
 * parts, kept lines and events among the samples, naming events before
 * and after the entries, repeated labels, several capabilities' blocks,
 * GHC before 8.10 and streams joined mid-run, bounded and --last
 * profiles, errors, corruption and limits in any part), and every real
 * eventlog of the repository, read on 2, 3 and 7 threads in parts down to
 * one block or one sample, fed whole or in random chunks, give a profile
 * identical to one thread's field by field (its storage included), the
 * same status and the same error; parts are merged, not only read as they
 * are; allocation failures end in HP2X_E_NOMEM; a feed of pack_bytes or
 * more packs its censuses, on any threads, and they read as unpacked.
 * Reading from a file (hp2x_parser_feed_fd, parts_src) is
 * test_parts_file.c's.
 */
#define TEST_RNG_SEED 0x9e3779b97f4a7c15ull
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "parse_helpers.h"
#include "test_rng.h"
#include "read/parts.h"
#define SAME_CHECK(c) assert_true(c)
#include "profile_same.h"
#include "parts_fixture.h"

static void hp_text_identical(void **state) {
  (void)state;
  static const unsigned kinds[] = {0,
                                   HP_MARKS,
                                   HP_MID_HEADER | HP_REPEATS,
                                   HP_CRLF | HP_MARKS,
                                   HP_WIDE | HP_REPEATS,
                                   HP_SAME_ORDER,
                                   HP_NO_RTS | HP_MARKS};
  hp2x_parse_options o = options_plain();
  size_t merged = 0;
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
    text t = make_hp(400, kinds[k]);
    outcome one = read_with((unsigned char *)t.s, t.n, &o, 1, 0, 0);
    assert_int_equal(one.st, HP2X_OK);
    assert_int_equal(one.p->n_samples, 400);
    hp2x_profile_free(one.p);
    merged += check_threads((unsigned char *)t.s, t.n, &o);
    /* cut short anywhere: the same warning, the same samples */
    for (int cut = 0; cut < 4; cut++) {
      size_t at = t.n / 2 + rnd((uint32_t)(t.n / 2));
      check_threads((unsigned char *)t.s, at, &o);
    }
    free(t.s);
  }
  assert_true(merged > 1000);
}

/* Replaces the first `what` after byte `from` by `with` (same length). */
static void plant(text *t, size_t from, const char *what, const char *with) {
  char *at = strstr(t->s + from, what);
  assert_non_null(at);
  memcpy(at, with, strlen(with));
}

static void hp_text_errors(void **state) {
  (void)state;
  hp2x_parse_options o = options_plain();
  for (int round = 0; round < 6; round++) {
    text base = make_hp(300, HP_MARKS);
    base.s = realloc(base.s, base.n + 1);
    base.s[base.n] = '\0';
    size_t from = rnd((uint32_t)base.n);
    static const char *const faults[][2] = {
        {"END_SAMPLE", "END_SAMPLX"},         /* a sample left open */
        {"BEGIN_SAMPLE 0", "BEGIN_SAMPLE 9"}, /* late: the next is early */
        {"\t", " "},                          /* still an entry */
        {"main\t", "main\tx"},                /* not a number */
        {"MARK", "MARX"},                     /* no keyword outside a sample */
    };
    for (size_t f = 0; f < sizeof faults / sizeof *faults; f++) {
      text t = {malloc(base.n + 1), base.n, base.n + 1};
      memcpy(t.s, base.s, base.n + 1);
      if (strstr(t.s + from, faults[f][0])) {
        plant(&t, from, faults[f][0], faults[f][1]);
        check_threads((unsigned char *)t.s, t.n, &o);
      }
      free(t.s);
    }
    free(base.s);
  }
}

static void hp_text_limits_and_bounds(void **state) {
  (void)state;
  text t = make_hp(2000, HP_MARKS | HP_REPEATS);
  hp2x_parse_options o = options_plain();
  o.max_labels = 30; /* met in some part: the error at its line */
  check_threads((unsigned char *)t.s, t.n, &o);
  o = options_plain();
  o.max_samples = 1500;
  check_threads((unsigned char *)t.s, t.n, &o);
  o = options_plain();
  o.picture_columns = 40; /* thinned as the samples come */
  assert_true(check_threads((unsigned char *)t.s, t.n, &o) > 0);
  o.last_s = 0.5; /* and a window */
  assert_true(check_threads((unsigned char *)t.s, t.n, &o) > 0);
  free(t.s);
}

static void eventlogs_identical(void **state) {
  (void)state;
  static const unsigned kinds[] = {EV_STACKS | EV_STATS,
                                   EV_IPE | EV_STATS | EV_REPEATS,
                                   EV_IPE | EV_IPE_LATE | EV_QUIRK,
                                   EV_OLD | EV_STACKS,
                                   EV_MID_RUN | EV_REPEATS,
                                   EV_STATS,
                                   EV_OLD | EV_MID_RUN | EV_STATS,
                                   EV_LATE_BEGIN | EV_STACKS};
  static const size_t blocks[] = {300, 2000, 1 << 16, 0};
  hp2x_parse_options o = options_plain();
  o.ccs_length = 25;
  size_t merged = 0;
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    for (size_t b = 0; b < 4; b++) {
      bytes x = make_eventlog(300, kinds[k], blocks[b]);
      outcome one = read_with(x.b, x.n, &o, 1, 0, 0); /* a real profile */
      assert_int_equal(one.st, HP2X_OK);
      assert_int_equal(one.p->n_samples, 300);
      assert_int_equal(one.p->began_mid_run,
                       (kinds[k] & (EV_MID_RUN | EV_LATE_BEGIN)) != 0);
      hp2x_profile_free(one.p);
      merged += check_threads(x.b, x.n, &o);
      check_threads(x.b, x.n - 2, &o); /* no data end: the same warning */
      check_threads(x.b, x.n / 2 + rnd((uint32_t)(x.n / 2)), &o);
      free(x.b);
    }
  assert_true(merged > 1000);
}

static void eventlogs_corrupt(void **state) {
  (void)state;
  hp2x_parse_options o = options_plain();
  for (int round = 0; round < 40; round++) {
    bytes x = make_eventlog(200, round % 2 ? EV_STACKS | EV_STATS : EV_IPE,
                            round % 3 ? 500 : 3000);
    size_t at = 400 + rnd((uint32_t)(x.n - 420)), n = 1 + rnd(6);
    for (size_t i = 0; i < n && at + i < x.n; i++)
      x.b[at + i] = (unsigned char)rnd(256);
    check_threads(x.b, x.n, &o);
    free(x.b);
  }
}

static void eventlogs_limits_and_bounds(void **state) {
  (void)state;
  bytes x = make_eventlog(2000, EV_STACKS | EV_STATS, 700);
  hp2x_parse_options o = options_plain();
  o.max_labels = 20;
  check_threads(x.b, x.n, &o);
  o = options_plain();
  o.max_samples = 1200;
  check_threads(x.b, x.n, &o);
  o = options_plain();
  o.picture_columns = 30;
  assert_true(check_threads(x.b, x.n, &o) > 0);
  o.last_s = 0.05;
  assert_true(check_threads(x.b, x.n, &o) > 0);
  free(x.b);
}

/* Every real eventlog here, each of its blocks a part of its own. */
static void real_eventlogs(void **state) {
  (void)state;
  static const char *const files[] = {
      "samples/profiles/leak.hc.eventlog",
      "samples/profiles/manycc.ipehi.eventlog",
      "samples/profiles/markers.hT.eventlog",
      "tests/data/ghc-modern/ghc-9.10.3/markers.hc.eventlog",
      "tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.eventlog",
      "tests/data/live/ghc9.10.3-longrun.from-start.eventlog",
      "tests/data/eventlogs/ghc92-live.eventlog",
      "tests/data/eventlogs/ghc910-hi-ipe-after.eventlog"};
  hp2x_parse_options o = options_plain();
  size_t merged = 0;
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    size_t len;
    unsigned char *buf = read_repo_file(files[f], &len);
    assert_non_null(buf);
    for (size_t t = 2; t <= 3; t++) {
      outcome one = read_with(buf, len, &o, 1, 0, 0);
      outcome r = read_with(buf, len, &o, t, 1, 0);
      same_outcome(&one, &r);
      merged += r.parts.merged;
      hp2x_profile_free(one.p);
      hp2x_profile_free(r.p);
    }
    free(buf);
  }
  assert_true(merged >= 2 * sizeof files / sizeof *files);
}

static void allocation_failures(void **state) {
  (void)state;
  text t = make_hp(200, HP_MARKS);
  bytes x = make_eventlog(200, EV_STACKS | EV_STATS, 600);
  hp2x_parse_options o = options_plain();
  for (int which = 0; which < 2; which++) {
    const unsigned char *buf = which ? x.b : (unsigned char *)t.s;
    size_t len = which ? x.n : t.n;
    for (long n = 1;; n += 1 + n / 8) {
      hpx_alloc_fail_at(n);
      outcome r = read_with(buf, len, &o, 3, 500, 0);
      hpx_alloc_fail_at(0);
      hp2x_profile_free(r.p);
      if (r.st == HP2X_OK) break;
      assert_int_equal(r.st, HP2X_E_NOMEM);
      assert_true(n < 1000000);
    }
  }
  free(t.s);
  free(x.b);
}

/* a and b hold the same censuses: times, labels and values, whether each
 * has them packed or not. */
static void same_censuses(const hp2x_profile *a, const hp2x_profile *b) {
  assert_int_equal(a->n_samples, b->n_samples);
  for (size_t s = 0; s < a->n_samples; s++) {
    assert_true(a->times[s] == b->times[s]);
    assert_int_equal(a->start[s + 1], b->start[s + 1]);
    hpx_values va, vb;
    hpx_values_of(a, s, &va);
    hpx_values_of(b, s, &vb);
    for (size_t e = a->start[s]; e < a->start[s + 1]; e++) {
      assert_int_equal(profile_entry_label(a, s, e),
                       profile_entry_label(b, s, e));
      assert_true(hpx_values_next(&va) == hpx_values_next(&vb));
    }
  }
}

/* buf read with o's pack_bytes on 1, 2 and 7 threads, whole or in
 * chunks: every census packed, the censuses unpacked reading gives. */
static void check_packed(const unsigned char *buf, size_t len,
                         hp2x_parse_options o) {
  outcome plain = read_with(buf, len, &o, 1, 0, 0);
  assert_int_equal(plain.st, HP2X_OK);
  assert_int_equal(plain.p->n_packed_samples, 0); /* under 512 MiB */
  o.pack_bytes = 1;
  static const size_t ways[][3] = {
      {1, 0, 0}, {1, 0, 5000}, {2, 700, 0}, {7, 1, 0}, {2, 4000, 0}};
  for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
    outcome r = read_with(buf, len, &o, ways[w][0], ways[w][1], ways[w][2]);
    assert_int_equal(r.st, HP2X_OK);
    assert_int_equal(r.p->n_packed_samples, r.p->n_samples);
    same_censuses(plain.p, r.p);
    hp2x_profile_free(r.p);
  }
  hp2x_profile_free(plain.p);
}

/* Parts whose packed censuses fill more than one block (256 KiB: about
 * 13,000 of these censuses): the merge copies each census's bytes, told
 * by where the next one begins in the same block, counted at a block's
 * end. */
static void packed_parts_of_blocks(void **state) {
  (void)state;
  hp2x_parse_options o = options_plain();
  text t = make_hp(60000, HP_MARKS | HP_REPEATS);
  outcome plain = read_with((unsigned char *)t.s, t.n, &o, 1, 0, 0);
  assert_int_equal(plain.st, HP2X_OK);
  o.pack_bytes = 1;
  static const size_t ways[][3] = {
      {2, (size_t)6 << 20, 0}, {3, (size_t)4 << 20, 0}, {2, 0, 0}};
  for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
    outcome r =
        read_with((unsigned char *)t.s, t.n, &o, ways[w][0], ways[w][1], 0);
    assert_int_equal(r.st, HP2X_OK);
    assert_int_equal(r.p->n_packed_samples, r.p->n_samples);
    same_censuses(plain.p, r.p);
    hp2x_profile_free(r.p);
  }
  hp2x_profile_free(plain.p);
  free(t.s);
}

/* hp2x_parse_options.pack_bytes (the tool's HP2X_PACK_BYTES): .hp text
 * and eventlogs read packed on any threads hold what they hold unpacked;
 * a feed packs when it is pack_bytes long or longer, the kind's first
 * bytes included, and only before the first census. */
static void packed_reading(void **state) {
  (void)state;
  hp2x_parse_options o = options_plain();
  text t = make_hp(400, HP_MARKS | HP_REPEATS);
  check_packed((unsigned char *)t.s, t.n, o);
  bytes x = make_eventlog(300, EV_STACKS | EV_STATS | EV_REPEATS, 2000);
  check_packed(x.b, x.n, o);
  free(x.b);
  o.pack_bytes = t.n; /* the feed's length exactly: packed */
  outcome r = read_with((unsigned char *)t.s, t.n, &o, 1, 0, 0);
  assert_int_equal(r.p->n_packed_samples, 400);
  hp2x_profile_free(r.p);
  o.pack_bytes = t.n + 1; /* a byte more: not */
  r = read_with((unsigned char *)t.s, t.n, &o, 1, 0, 0);
  assert_int_equal(r.p->n_packed_samples, 0);
  hp2x_profile_free(r.p);
  /* a first feed with a census whole, then the rest at once: not packed */
  size_t first = (size_t)(strstr(strstr(t.s, "END_SAMPLE"), "\n") + 1 - t.s);
  o.pack_bytes = t.n - first;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("packed", &o, &err);
  assert_non_null(ps);
  assert_int_equal(hp2x_parser_feed(ps, t.s, first, &err), HP2X_OK);
  assert_int_equal(hp2x_parser_peek(ps)->n_samples, 1);
  assert_int_equal(hp2x_parser_feed(ps, t.s + first, t.n - first, &err),
                   HP2X_OK);
  hp2x_profile *p;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  hp2x_parser_free(ps);
  assert_int_equal(p->n_samples, 400);
  assert_int_equal(p->n_packed_samples, 0);
  hp2x_profile_free(p);
  free(t.s);
}

/* Runs that recur out of turn are shared through the profile's run table
 * (model.c), and an appended part's runs each placed once
 * (profile_append.c): when the table has no room left (more distinct runs
 * than it takes, as in this profile of random runs), reading looks no run
 * up there any more, and neither do the appends, on any threads, packed
 * or not. */
static void runs_past_the_table(void **state) {
  (void)state;
  hp2x_parse_options o = options_plain();
  text t = make_hp(50000, 0);
  for (int packed = 0; packed < 2; packed++) {
    o.pack_bytes = packed ? 1 : 0;
    outcome one = read_with((unsigned char *)t.s, t.n, &o, 1, 0, 0);
    assert_int_equal(one.st, HP2X_OK);
    assert_true(one.p->run_slots_full);
    size_t shared = 0; /* with a sample not the one before */
    for (size_t s = 2; s < one.p->n_samples; s++)
      shared += one.p->run_of[s] < one.p->run_of[s - 1];
    /* (only until the table is full: 154 of 50,000 here) */
    assert_true(shared > 50);
    static const size_t threads[] = {2, 7}, parts[] = {0, 100000};
    for (size_t i = 0; i < 2; i++)
      for (size_t j = 0; j < 2; j++) {
        outcome r =
            read_with((unsigned char *)t.s, t.n, &o, threads[i], parts[j], 0);
        same_outcome(&one, &r);
        assert_true(r.parts.merged > 0);
        hp2x_profile_free(r.p);
      }
    hp2x_profile_free(one.p);
  }
  free(t.s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hp_text_identical),
      cmocka_unit_test(hp_text_errors),
      cmocka_unit_test(hp_text_limits_and_bounds),
      cmocka_unit_test(eventlogs_identical),
      cmocka_unit_test(eventlogs_corrupt),
      cmocka_unit_test(eventlogs_limits_and_bounds),
      cmocka_unit_test(real_eventlogs),
      cmocka_unit_test(allocation_failures),
      cmocka_unit_test(packed_reading),
      cmocka_unit_test(packed_parts_of_blocks),
      cmocka_unit_test(runs_past_the_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
