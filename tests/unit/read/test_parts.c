/* test_parts.c -- reading on several threads (parts.c, with hp_parts.c,
 * eventlog_parts.c and model/profile_append.c): .hp text and eventlogs
 * made here to reach every case (censuses across blocks and parts, kept
 * lines and events among the samples, naming events before and after the
 * entries, repeated labels, several capabilities' blocks, GHC before 8.10
 * and streams joined mid-run, bounded and --last profiles, errors,
 * corruption and limits in any part), and every real eventlog of the
 * repository, read on 2, 3 and 7 threads in parts down to one block or one
 * sample, fed whole or in random chunks, give a profile identical to one
 * thread's field by field (its storage included), the same status and the
 * same error; parts are merged, not only read as they are; allocation
 * failures end in HP2X_E_NOMEM; hp2x_parser_feed_fd reads a file mapped,
 * in pieces and from a pipe alike, and a mapped part let go of once read
 * reads again the same when it is fed.
 */
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
#define SAME_CHECK(c) assert_true(c)
#include "profile_same.h"

/* ---------------------------------------------------------- reading */

typedef struct outcome {
  hp2x_status st;
  hp2x_err err;
  hp2x_profile *p;
  parts_count parts;
} outcome;

/* Reads buf as o says, on `threads` threads in parts of part_bytes, fed
 * whole (chunk 0) or in pieces of 1..chunk bytes. */
static outcome read_with(const unsigned char *buf, size_t len,
                         const hp2x_parse_options *o, size_t threads,
                         size_t part_bytes, size_t chunk) {
  hp2x_parse_options opt = *o;
  opt.threads = threads;
  opt.part_bytes = part_bytes;
  outcome r = {HP2X_OK, {0}, NULL, {0, 0}};
  hp2x_err_init(&r.err);
  hp2x_parser *ps = hp2x_parser_new("parts", &opt, &r.err);
  if (!ps) {
    r.st = r.err.code;
    return r;
  }
  for (size_t pos = 0; r.st == HP2X_OK && pos < len;) {
    size_t k = chunk ? 1 + rnd((uint32_t)chunk) : len;
    if (k > len - pos) k = len - pos;
    r.st = hp2x_parser_feed(ps, buf + pos, k, &r.err);
    pos += k;
  }
  r.parts = hpx_parser_parts(ps);
  if (r.st == HP2X_OK) r.st = hp2x_parser_finish(ps, &r.p, &r.err);
  hp2x_parser_free(ps);
  return r;
}

static void same_outcome(const outcome *a, const outcome *b) {
  assert_int_equal(a->st, b->st);
  assert_int_equal(a->err.code, b->err.code);
  assert_int_equal(a->err.line, b->err.line);
  assert_true(a->err.offset == b->err.offset);
  assert_string_equal(a->err.msg, b->err.msg);
  if (a->p) same_profile_exactly(a->p, b->p);
}

/* Every way of reading buf on several threads gives one thread's outcome;
 * returns the parts merged in all. */
static size_t check_threads(const unsigned char *buf, size_t len,
                            const hp2x_parse_options *o) {
  static const size_t threads[] = {2, 3, 7};
  static const size_t parts[] = {1, 300, 4000, 0};
  static const size_t chunks[] = {0, 5000};
  outcome one = read_with(buf, len, o, 1, 0, 0);
  size_t merged = 0;
  for (size_t t = 0; t < 3; t++)
    for (size_t p = 0; p < 4; p++)
      for (size_t c = 0; c < 2; c++) {
        outcome r = read_with(buf, len, o, threads[t], parts[p], chunks[c]);
        same_outcome(&one, &r);
        merged += r.parts.merged;
        hp2x_profile_free(r.p);
      }
  hp2x_profile_free(one.p);
  return merged;
}

static hp2x_parse_options options_plain(void) {
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  return o;
}

/* ---------------------------------------------------------- .hp text */

typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char line[512];
  int k = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (t->n + (size_t)k + 1 > t->cap) {
    t->cap = 2 * (t->n + (size_t)k + 1);
    t->s = realloc(t->s, t->cap);
    assert_non_null(t->s);
  }
  memcpy(t->s + t->n, line, (size_t)k);
  t->n += (size_t)k;
}

enum {
  HP_MARKS = 1,       /* MARK lines between samples */
  HP_MID_HEADER = 2,  /* JOB and VALUE_UNIT again among the samples */
  HP_REPEATS = 4,     /* a label twice in some samples */
  HP_CRLF = 8,        /* lines end in CR LF, blank lines among them */
  HP_WIDE = 16,       /* a value past 4 GiB, not a whole word */
  HP_SAME_ORDER = 32, /* every sample lists its labels in one order */
  HP_NO_RTS = 64      /* JOB without +RTS, so the labels' shapes tell the
                         breakdown: -hc's until a closure type comes late */
};

/* A .hp profile of n samples of labels from a pool of 50, as `flags` say. */
static text make_hp(size_t n, unsigned flags) {
  text t = {0};
  const char *eol = flags & HP_CRLF ? "\r\n" : "\n";
  put(&t, "JOB \"parts%s\"%sDATE \"Thu Nov 26 12:00 2026\"%s",
      flags & HP_NO_RTS ? "" : " +RTS -hc", eol, eol);
  put(&t, "SAMPLE_UNIT \"seconds\"%sVALUE_UNIT \"bytes\"%s", eol, eol);
  double time = 0.0;
  size_t late = n - 1 - rnd((uint32_t)(n / 4)); /* HP_NO_RTS's ARR_WORDS */
  for (size_t s = 0; s < n; s++) {
    time += 0.001 * (1 + rnd(30));
    if ((flags & HP_MARKS) && rnd(4) == 0) put(&t, "MARK %.6f%s", time, eol);
    if ((flags & HP_MID_HEADER) && rnd(40) == 0)
      put(&t, "JOB \"again %zu\"%sVALUE_UNIT \"bytes\"%s", s, eol, eol);
    if ((flags & HP_CRLF) && rnd(10) == 0) put(&t, "%s", eol);
    put(&t, "BEGIN_SAMPLE %.6f%s", time, eol);
    size_t k = rnd(12), first = rnd(50);
    for (size_t i = 0; i < k; i++) {
      size_t l = flags & HP_SAME_ORDER ? i : (first + rnd(50)) % 50;
      unsigned long long v = 8ull * (1 + rnd(100000));
      if ((flags & HP_WIDE) && rnd(500) == 0) v = (1ull << 33) + 3;
      put(&t, "(%zu)lab%zu/%s/main\t%llu%s", 100 + l, l, l % 3 ? "go" : "CAF",
          v, eol);
      if ((flags & HP_REPEATS) && rnd(20) == 0)
        put(&t, "(%zu)lab%zu/%s/main\t%llu%s", 100 + l, l, l % 3 ? "go" : "CAF",
            v, eol);
    }
    if ((flags & HP_NO_RTS) && s == late)
      put(&t, "ARR_WORDS\t%u%s", 8 * (1 + rnd(100)), eol);
    put(&t, "END_SAMPLE %.6f%s", time, eol);
  }
  return t;
}

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

/* ---------------------------------------------------------- eventlogs */

typedef struct bytes {
  unsigned char *b;
  size_t n, cap;
} bytes;

static void add(bytes *x, const void *p, size_t n) {
  if (x->n + n > x->cap) {
    x->cap = 2 * (x->n + n) + 64;
    x->b = realloc(x->b, x->cap);
    assert_non_null(x->b);
  }
  if (n) memcpy(x->b + x->n, p, n);
  x->n += n;
}

static void be(bytes *x, uint64_t v, int n) {
  unsigned char b[8];
  for (int i = n - 1; i >= 0; i--, v >>= 8) b[i] = (unsigned char)v;
  add(x, b, (size_t)n);
}

/* An eventlog as GHC writes one: a header, then blocks of at most
 * block_max bytes, one buffer per capability (the global one, 0xffff,
 * holds the heap profile; capability 0 the heap statistics and
 * markers), each written out when its next event does not fit. */
typedef struct evlog {
  bytes out;
  bytes buf[2]; /* [0]: global; [1]: capability 0 */
  uint64_t t0[2], t1[2];
  size_t block_max;
  int data_end_in_block; /* GHC >= 9.2 */
} evlog;

enum { GLOBAL, CAP0 };

static void flush_block(evlog *g, int c, size_t tail) {
  if (!g->buf[c].n && !tail) return;
  be(&g->out, 18, 2);
  be(&g->out, g->t0[c], 8);
  be(&g->out, 24 + g->buf[c].n + tail, 4);
  be(&g->out, g->t1[c], 8);
  be(&g->out, c == GLOBAL ? 0xffff : 0, 2);
  add(&g->out, g->buf[c].b, g->buf[c].n);
  g->buf[c].n = 0;
}

/* An event of `type` at time t, with payload pl (n bytes; variable-size
 * types get their size, `declared` bytes: one more than n in GHC 9.6's
 * IPE events). */
static void event(evlog *g, int c, unsigned type, uint64_t t, const bytes *pl,
                  int variable, size_t declared) {
  size_t size = 10 + (variable ? 2 : 0) + pl->n;
  if (!g->block_max) { /* no blocks: the events as they come */
    be(&g->out, type, 2);
    be(&g->out, t, 8);
    if (variable) be(&g->out, declared, 2);
    add(&g->out, pl->b, pl->n);
    return;
  }
  if (24 + g->buf[c].n + size > g->block_max) flush_block(g, c, 0);
  if (!g->buf[c].n) g->t0[c] = t;
  g->t1[c] = t;
  be(&g->buf[c], type, 2);
  be(&g->buf[c], t, 8);
  if (variable) be(&g->buf[c], declared, 2);
  add(&g->buf[c], pl->b, pl->n);
}

static void declare(bytes *h, unsigned type, int size) {
  add(h, "etb\0", 4);
  be(h, type, 2);
  be(h, (uint16_t)(int16_t)size, 2);
  be(h, 4, 4);
  add(h, "test", 4);
  be(h, 0, 4);
  add(h, "ete\0", 4);
}

enum {
  EV_STACKS = 1,       /* -hc: stack entries, cost centres declared */
  EV_IPE = 2,          /* -hi: addresses, IPE records before the entries */
  EV_IPE_LATE = 4,     /* and more IPE records after some entries */
  EV_OLD = 8,          /* GHC < 8.10: no sample-end event */
  EV_MID_RUN = 16,     /* no HEAP_PROF_BEGIN */
  EV_STATS = 32,       /* heap statistics and markers in capability 0 */
  EV_REPEATS = 64,     /* a label twice in some censuses */
  EV_QUIRK = 128,      /* IPE events declared a byte longer (GHC 9.6) */
  EV_LATE_BEGIN = 256, /* HEAP_PROF_BEGIN inside the first census */
  EV_ORDERED = 512     /* labels in the last census's order, mostly */
};

static void string_payload(bytes *pl, uint64_t v, const char *label) {
  pl->n = 0;
  be(pl, 0, 1);
  be(pl, v, 8);
  add(pl, label, strlen(label) + 1);
}

static void ipe_event(evlog *g, uint64_t t, unsigned a, unsigned flags) {
  bytes pl = {0};
  char s[64];
  be(&pl, 0x400000 + 16 * a, 8);
  snprintf(s, sizeof s, "Con%u_con_info", a);
  add(&pl, s, strlen(s) + 1);
  add(&pl, "2", 2);
  add(&pl, "T", 2);
  add(&pl, "", 1);
  add(&pl, "Main", 5);
  snprintf(s, sizeof s, "m.hs:%u:1-9", a);
  add(&pl, s, strlen(s) + 1);
  event(g, GLOBAL, 169, t, &pl, 1, pl.n + (flags & EV_QUIRK ? 1 : 0));
  free(pl.b);
}

static void census_entry(evlog *g, uint64_t t, unsigned l, unsigned flags) {
  bytes pl = {0};
  char s[64];
  uint64_t v = 8ull * (1 + rnd(50000));
  if (flags & EV_STACKS) {
    be(&pl, 0, 1);
    be(&pl, v, 8);
    be(&pl, 1 + l % 3, 1);
    for (unsigned d = 0; d <= l % 3; d++) be(&pl, 1 + (l + d) % 30, 4);
    event(g, GLOBAL, 163, t, &pl, 1, pl.n);
  } else {
    if (flags & EV_IPE)
      snprintf(s, sizeof s, "0x%x", 0x400000 + 16 * l);
    else
      snprintf(s, sizeof s, "TYPE_%u", l);
    string_payload(&pl, v, s);
    event(g, GLOBAL, 164, t, &pl, 1, pl.n);
  }
  free(pl.b);
}

/* The run's start: arguments, cost centres, IPE records, the heap
 * profile's beginning. */
static void prof_begin(evlog *g, unsigned flags);
static void run_start(evlog *g, unsigned flags) {
  bytes pl = {0};
  be(&pl, 0, 4);
  add(&pl, "prog\0+RTS\0-hc\0-RTS", 18);
  event(g, GLOBAL, 30, 1000, &pl, 1, pl.n);
  pl.n = 0;
  be(&pl, 0, 4);
  add(&pl, "GHC-9.6.6 rts_p", 15);
  event(g, GLOBAL, 29, 1000, &pl, 1, pl.n);
  for (unsigned c = 1; (flags & EV_STACKS) && c < 28; c++) {
    char s[32];
    pl.n = 0;
    be(&pl, c, 4);
    snprintf(s, sizeof s, "cc%u", c);
    add(&pl, s, strlen(s) + 1);
    add(&pl, c % 7 ? "Main" : "Data.Map", c % 7 ? 5 : 9);
    add(&pl, "m.hs:1:1", 9);
    be(&pl, 0, 1);
    event(g, GLOBAL, 161, 2000, &pl, 1, pl.n);
  }
  for (unsigned a = 0; (flags & EV_IPE) && a < 20; a++)
    ipe_event(g, 2500, a, flags);
  if (!(flags & (EV_MID_RUN | EV_LATE_BEGIN))) prof_begin(g, flags);
  free(pl.b);
}

/* HEAP_PROF_BEGIN: the sampling period and the breakdown. */
static void prof_begin(evlog *g, unsigned flags) {
  bytes pl = {0};
  be(&pl, 0, 1);
  be(&pl, 10000000, 8);
  be(&pl, flags & EV_STACKS ? 1 : flags & EV_IPE ? 8 : 7, 4);
  add(&pl, "\0\0\0\0\0\0\0", 7);
  event(g, GLOBAL, 160, flags & EV_LATE_BEGIN ? 100000 : 3000, &pl, 1, pl.n);
  free(pl.b);
}

static void heap_stats(evlog *g, uint64_t t, size_t s) {
  bytes pl = {0};
  static const unsigned types[] = {50, 51, 91};
  for (size_t k = 0; k < 3; k++) {
    pl.n = 0;
    be(&pl, 0, 4);
    be(&pl, 4096 * (1 + rnd(1000)), 8);
    event(g, CAP0, types[k], t - 500, &pl, 0, 0);
  }
  if (s % 17 == 3) {
    char m[32];
    pl.n = 0;
    snprintf(m, sizeof m, "phase %zu", s);
    add(&pl, m, strlen(m));
    event(g, CAP0, 58, t - 100, &pl, 1, pl.n);
  }
  free(pl.b);
}

/* An eventlog of n censuses as `flags` say, in blocks of at most
 * block_max bytes (0: no block markers, as some writers leave them out). */
static bytes make_eventlog(size_t n, unsigned flags, size_t block_max) {
  evlog g = {0};
  g.block_max = block_max;
  g.data_end_in_block = !(flags & EV_OLD);
  add(&g.out, "hdrbhetb", 8);
  static const int sizes[][2] = {
      {18, 14},  {29, -1},  {30, -1}, {50, 12},  {51, 12},  {58, -1}, {91, 12},
      {160, -1}, {161, -1}, {162, 8}, {163, -1}, {164, -1}, {169, -1}};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
    declare(&g.out, (unsigned)sizes[i][0], sizes[i][1]);
  if (!(flags & EV_OLD)) declare(&g.out, 165, 8);
  add(&g.out, "hetehdredatb", 12);
  run_start(&g, flags);
  bytes pl = {0};
  for (size_t s = 0; s < n; s++) {
    uint64_t t = 100000 * (s + 1);
    if (flags & EV_STATS) heap_stats(&g, t, s);
    if ((flags & EV_IPE_LATE) && s % 40 == 39)
      ipe_event(&g, t - 10, 20 + (unsigned)(s / 40), flags);
    pl.n = 0;
    be(&pl, s, 8);
    event(&g, GLOBAL, 162, t, &pl, 0, 0);
    if ((flags & EV_LATE_BEGIN) && s == 0) prof_begin(&g, flags);
    int ordered = (flags & EV_ORDERED) != 0;
    size_t k = ordered ? 6 + (s % 11 == 5) : rnd(9);
    size_t first = ordered ? (s % 13 == 0) : rnd(30);
    for (size_t i = 0; i < k; i++) {
      unsigned l = (unsigned)((first + (ordered ? 7 * i : rnd(30))) % 30);
      census_entry(&g, t, l, flags);
      if ((flags & EV_REPEATS) && rnd(15) == 0) census_entry(&g, t, l, flags);
    }
    if (!(flags & EV_OLD)) event(&g, GLOBAL, 165, t, &pl, 0, 0);
  }
  if (block_max) {
    flush_block(&g, CAP0, 0);
    flush_block(&g, GLOBAL, g.data_end_in_block ? 2 : 0);
  }
  be(&g.out, 0xffff, 2);
  free(pl.b);
  free(g.buf[0].b);
  free(g.buf[1].b);
  return g.out;
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

/* The first string sample at or after `from` whose label begins "TYPE_"
 * or "0x4": its offset, or 0 when there is none. */
static size_t string_event_at(const bytes *x, size_t from) {
  for (size_t i = from < 21 ? 21 : from; i + 4 < x->n; i++)
    if ((!memcmp(x->b + i, "TYPE_", 5) || !memcmp(x->b + i, "0x4", 3)) &&
        x->b[i - 21] == 0 && x->b[i - 20] == 164)
      return i - 21;
  return 0;
}

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

/* hp2x_parser_feed_fd: a file mapped, read in pieces, and a pipe. */
static void file_descriptors(void **state) {
  (void)state;
  bytes x = make_eventlog(500, EV_IPE | EV_STATS, 800);
  char path[] = "/tmp/hp2x-test-parts-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, x.b, x.n), (ssize_t)x.n);
  hp2x_parse_options o = options_plain();
  outcome one = read_with(x.b, x.n, &o, 1, 0, 0);
  o.threads = 3;
  o.part_bytes = 700;
  for (unsigned flags = 0; flags <= HP2X_FEED_NO_MAP; flags++) {
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_parser *ps = hp2x_parser_new("parts", &o, &err);
    assert_int_equal(hp2x_parser_feed_fd(ps, fd, flags, &err), HP2X_OK);
    assert_true(lseek(fd, 0, SEEK_CUR) == (off_t)x.n);
    assert_true(hpx_parser_parts(ps).merged > 0);
    hp2x_profile *p;
    assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
    same_profile_exactly(one.p, p);
    hp2x_profile_free(p);
    hp2x_parser_free(ps);
  }
  int pipe_fd[2];
  assert_int_equal(pipe(pipe_fd), 0);
  pid_t child = fork();
  if (child == 0) {
    (void)!write(pipe_fd[1], x.b, x.n);
    _exit(0);
  }
  close(pipe_fd[1]);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("parts", &o, &err);
  assert_int_equal(hp2x_parser_feed_fd(ps, pipe_fd[0], 0, &err), HP2X_OK);
  hp2x_profile *p;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  same_profile_exactly(one.p, p);
  hp2x_profile_free(p);
  hp2x_parser_free(ps);
  close(pipe_fd[0]);
  /* a directory cannot be read: HP2X_E_IO */
  int dir = open("/tmp", O_RDONLY);
  ps = hp2x_parser_new("parts", &o, &err);
  assert_int_equal(hp2x_parser_feed_fd(ps, dir, 0, &err), HP2X_E_IO);
  hp2x_parser_free(ps);
  close(dir);
  close(fd);
  unlink(path);
  hp2x_profile_free(one.p);
  free(x.b);
}

/* A mapped file read in parts big enough to let go of whole pages once
 * read (parts.c drops them): a part that cannot be merged (a corrupt
 * event in it) is read again from its bytes, which are the file's. */
static void mapped_parts_let_go(void **state) {
  (void)state;
  bytes x = make_eventlog(20000, EV_ORDERED | EV_STATS, 1 << 16);
  assert_true(x.n > ((size_t)2 << 20));
  size_t at = string_event_at(&x, x.n / 2);
  assert_true(at > 0);
  x.b[at + 10] += 1; /* its size 256 bytes more: past its block */
  char path[] = "/tmp/hp2x-test-parts-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, x.b, x.n), (ssize_t)x.n);
  hp2x_parse_options o = options_plain();
  outcome one = read_with(x.b, x.n, &o, 1, 0, 0);
  assert_int_equal(one.st, HP2X_OK);
  assert_int_equal(hp2x_profile_warnings(one.p)->corrupt_regions, 1);
  o.threads = 2;
  o.part_bytes = (size_t)1 << 17;
  assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("parts", &o, &err);
  assert_int_equal(hp2x_parser_feed_fd(ps, fd, 0, &err), HP2X_OK);
  parts_count n = hpx_parser_parts(ps);
  assert_true(n.merged > 4 && n.fed > 0);
  hp2x_profile *p;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  same_profile_exactly(one.p, p);
  hp2x_profile_free(p);
  hp2x_parser_free(ps);
  close(fd);
  unlink(path);
  hp2x_profile_free(one.p);
  free(x.b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hp_text_identical),
      cmocka_unit_test(hp_text_errors),
      cmocka_unit_test(hp_text_limits_and_bounds),
      cmocka_unit_test(eventlogs_identical),
      cmocka_unit_test(eventlogs_corrupt),
      cmocka_unit_test(string_runs),
      cmocka_unit_test(eventlogs_limits_and_bounds),
      cmocka_unit_test(real_eventlogs),
      cmocka_unit_test(allocation_failures),
      cmocka_unit_test(file_descriptors),
      cmocka_unit_test(mapped_parts_let_go),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
