/* parts_fixture.h -- shared by the tests of reading on several threads
 * (tests/unit/read/test_parts.c, test_parts_file.c,
 * test_eventlog_stream.c): a buffer read on N threads in parts, fed whole
 * or in chunks, and compared with one thread's reading; eventlogs and .hp
 * text made to reach every case (the EV_ and HP_ flags).  The includer
 * includes cmocka, test_rng.h (with its TEST_RNG_SEED), parse_helpers.h,
 * read/frontends.h and profile_same.h first. */
#ifndef HPX_PARTS_FIXTURE_H
#define HPX_PARTS_FIXTURE_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- reading */

typedef struct outcome {
  hp2x_status st;
  hp2x_err err;
  hp2x_profile *p;
  parts_count parts;
} outcome;

/* Reads buf as o says, on `threads` threads in parts of part_bytes, fed
 * whole (chunk 0) or in pieces of 1..chunk bytes. */
static inline outcome read_with(const unsigned char *buf, size_t len,
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

static inline void same_outcome(const outcome *a, const outcome *b) {
  assert_int_equal(a->st, b->st);
  assert_int_equal(a->err.code, b->err.code);
  assert_int_equal(a->err.line, b->err.line);
  assert_true(a->err.offset == b->err.offset);
  assert_string_equal(a->err.msg, b->err.msg);
  if (a->p) same_profile_exactly(a->p, b->p);
}

/* Every way of reading buf on several threads gives one thread's outcome;
 * returns the parts merged in all. */
static inline size_t check_threads(const unsigned char *buf, size_t len,
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

static inline hp2x_parse_options options_plain(void) {
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  return o;
}

/* ---------------------------------------------------------- eventlogs */

typedef struct bytes {
  unsigned char *b;
  size_t n, cap;
} bytes;

static inline void add(bytes *x, const void *p, size_t n) {
  if (x->n + n > x->cap) {
    x->cap = 2 * (x->n + n) + 64;
    x->b = realloc(x->b, x->cap);
    assert_non_null(x->b);
  }
  if (n) memcpy(x->b + x->n, p, n);
  x->n += n;
}

static inline void be(bytes *x, uint64_t v, int n) {
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

static inline void flush_block(evlog *g, int c, size_t tail) {
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
static inline void event(evlog *g, int c, unsigned type, uint64_t t,
                         const bytes *pl, int variable, size_t declared) {
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

static inline void declare(bytes *h, unsigned type, int size) {
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

static inline void string_payload(bytes *pl, uint64_t v, const char *label) {
  pl->n = 0;
  be(pl, 0, 1);
  be(pl, v, 8);
  add(pl, label, strlen(label) + 1);
}

static inline void ipe_event(evlog *g, uint64_t t, unsigned a, unsigned flags) {
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

static inline void census_entry(evlog *g, uint64_t t, unsigned l,
                                unsigned flags) {
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
static inline void prof_begin(evlog *g, unsigned flags);
static inline void run_start(evlog *g, unsigned flags) {
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
static inline void prof_begin(evlog *g, unsigned flags) {
  bytes pl = {0};
  be(&pl, 0, 1);
  be(&pl, 10000000, 8);
  be(&pl, flags & EV_STACKS ? 1 : flags & EV_IPE ? 8 : 7, 4);
  add(&pl, "\0\0\0\0\0\0\0", 7);
  event(g, GLOBAL, 160, flags & EV_LATE_BEGIN ? 100000 : 3000, &pl, 1, pl.n);
  free(pl.b);
}

static inline void heap_stats(evlog *g, uint64_t t, size_t s) {
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
static inline bytes make_eventlog(size_t n, unsigned flags, size_t block_max) {
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

/* The first string sample at or after `from` whose label begins "TYPE_"
 * or "0x4": its offset, or 0 when there is none. */
static inline size_t string_event_at(const bytes *x, size_t from) {
  for (size_t i = from < 21 ? 21 : from; i + 4 < x->n; i++)
    if ((!memcmp(x->b + i, "TYPE_", 5) || !memcmp(x->b + i, "0x4", 3)) &&
        x->b[i - 21] == 0 && x->b[i - 20] == 164)
      return i - 21;
  return 0;
}

/* ---------------------------------------------------------- .hp text */

typedef struct text {
  char *s;
  size_t n, cap;
} text;

static inline void put(text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static inline void put(text *t, const char *fmt, ...) {
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
static inline text make_hp(size_t n, unsigned flags) {
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

#endif
