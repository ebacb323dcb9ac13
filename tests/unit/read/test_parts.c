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
 * failures end in HP2X_E_NOMEM; hp2x_parser_feed_fd reads a file with
 * pread (its parts into the readers' buffers), in pieces and from a pipe
 * alike, and a file's part that cannot be merged is read again when it is
 * fed; the stretch a file is read through (parts_src) gives its bytes
 * across its windows and says where a file that shrank ends; a feed of
 * pack_bytes or more packs its censuses, on any threads, and they read as
 * unpacked.
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
#include "read/parts.h"
#define SAME_CHECK(c) assert_true(c)
#include "profile_same.h"
#include "parts_fixture.h"

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

/* A temporary file (path: its mkstemp template) holding x's bytes: its
 * descriptor, at the file's end. */
static int temp_file_of(const bytes *x, char *path) {
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, x->b, x->n), (ssize_t)x->n);
  return fd;
}

/* fd read by hp2x_parser_feed_fd as o says, with the nth allocation
 * failing (0: none), and every one after it until the end, or (heal) until
 * the feed returns: its status; *p its profile when HP2X_OK. */
static hp2x_status read_fd(int fd, unsigned flags, const hp2x_parse_options *o,
                           long nth, bool heal, hp2x_profile **p,
                           size_t *merged) {
  assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
  hp2x_err err;
  hp2x_err_init(&err);
  *p = NULL;
  hpx_alloc_fail_at(nth);
  hp2x_parser *ps = hp2x_parser_new("parts", o, &err);
  hp2x_status st = ps ? hp2x_parser_feed_fd(ps, fd, flags, &err) : err.code;
  if (heal) hpx_alloc_fail_at(0);
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, p, &err);
  hpx_alloc_fail_at(0);
  if (ps) *merged = hpx_parser_parts(ps).merged;
  hp2x_parser_free(ps);
  return st;
}

/* x's bytes read from a file by hp2x_parser_feed_fd, on 1 thread and in
 * parts on 3, and read in pieces (HP2X_FEED_NO_MAP): one thread's profile
 * from memory, and parts merged; with an allocation failing anywhere,
 * that profile or HP2X_E_NOMEM, also when allocations work again once the
 * feed has returned (a feed that let a failure pass would show here). */
static void file_read_alike(const bytes *x) {
  char path[] = "/tmp/hp2x-test-parts-XXXXXX";
  int fd = temp_file_of(x, path);
  hp2x_parse_options o = options_plain();
  outcome one = read_with(x->b, x->n, &o, 1, 0, 0);
  assert_int_equal(one.st, HP2X_OK);
  for (unsigned run = 0; run < 3; run++) {
    o.threads = run == 0 ? 1 : 3;
    o.part_bytes = 700;
    hp2x_profile *p;
    size_t merged = 0;
    assert_int_equal(
        read_fd(fd, run == 2 ? HP2X_FEED_NO_MAP : 0, &o, 0, false, &p, &merged),
        HP2X_OK);
    assert_true(lseek(fd, 0, SEEK_CUR) == (off_t)x->n);
    assert_true(run == 0 || merged > 0);
    same_profile_exactly(one.p, p);
    hp2x_profile_free(p);
  }
  for (long n = 1; n < 4000; n += 1 + n / 8) {
    for (int heal = 0; heal < 2; heal++) {
      hp2x_profile *p;
      size_t merged;
      hp2x_status st = read_fd(fd, 0, &o, n, heal, &p, &merged);
      if (st == HP2X_OK)
        same_profile_exactly(one.p, p);
      else
        assert_int_equal(st, HP2X_E_NOMEM);
      hp2x_profile_free(p);
    }
  }
  close(fd);
  unlink(path);
  hp2x_profile_free(one.p);
}

/* hp2x_parser_feed_fd: a file read with pread (on 1 and 3 threads), read
 * in pieces, and a pipe; an eventlog and .hp text whose parts keep events
 * and lines (header and MARK lines) for the real reader, which the
 * readers' reused buffers must not hold. */
static void file_descriptors(void **state) {
  (void)state;
  text t = make_hp(300, HP_MARKS | HP_MID_HEADER);
  bytes h = {(unsigned char *)t.s, t.n, t.cap};
  file_read_alike(&h);
  free(t.s);
  bytes x = make_eventlog(500, EV_IPE | EV_STATS, 800);
  file_read_alike(&x);
  hp2x_parse_options o = options_plain();
  outcome one = read_with(x.b, x.n, &o, 1, 0, 0);
  o.threads = 3;
  o.part_bytes = 700;
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
  hp2x_profile_free(one.p);
  free(x.b);
}

/* A file read in parts, each into its reader's buffer: a part that cannot
 * be merged (a corrupt event in it) is read again from the file when it
 * is fed. */
static void file_part_fed_again(void **state) {
  (void)state;
  bytes x = make_eventlog(20000, EV_ORDERED | EV_STATS, 1 << 16);
  assert_true(x.n > ((size_t)2 << 20));
  size_t at = string_event_at(&x, x.n / 2);
  assert_true(at > 0);
  x.b[at + 10] += 1; /* its size 256 bytes more: past its block */
  char path[] = "/tmp/hp2x-test-parts-XXXXXX";
  int fd = temp_file_of(&x, path);
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

/* Collects what hpx_src_feed gives, in order. */
static hp2x_status collect(void *fe, const unsigned char *b, size_t n,
                           hp2x_err *err) {
  (void)err;
  bytes *got = fe;
  assert_true(got->n + n <= got->cap);
  memcpy(got->b + got->n, b, n);
  got->n += n;
  return HP2X_OK;
}

/* parts_src over a file: bytes across its windows and pieces as they are
 * in the file, from an offset in it; a file shorter than the stretch (it
 * shrank while read) an error at the byte where it ends; a read that
 * fails an error at its byte. */
static void file_source(void **state) {
  (void)state;
  bytes x = {malloc(700000), 700000, 700000};
  assert_non_null(x.b);
  for (size_t i = 0; i < x.n; i++) x.b[i] = (unsigned char)rnd(256);
  char path[] = "/tmp/hp2x-test-parts-XXXXXX";
  int fd = temp_file_of(&x, path);
  parts_src src;
  hpx_src_fd(&src, fd, 1000, x.n - 1000, 50);
  size_t avail;
  static const size_t at[] = {0, 65530, 65540, 3, 698990, 698999, 400000};
  for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
    const unsigned char *p = hpx_src_at(&src, at[k], 14, &avail);
    assert_non_null(p);
    assert_true(avail >= 1 &&
                avail >= (x.n - 1000 - at[k] < 14 ? x.n - 1000 - at[k] : 14));
    assert_memory_equal(p, x.b + 1000 + at[k], avail);
  }
  assert_null(hpx_src_at(&src, x.n - 1000, 1, &avail));
  bytes got = {malloc(x.n), 0, x.n};
  parts_buf b = {NULL, 0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hpx_src_feed(&src, 7, x.n - 1007, collect, &got, &b, &err),
                   HP2X_OK);
  assert_int_equal(got.n, x.n - 1007);
  assert_memory_equal(got.b, x.b + 1007, got.n);
  hpx_src_skip(&src, 10);
  const unsigned char *p = hpx_src_bytes(&src, 5, 100, &b, &err);
  assert_non_null(p);
  assert_memory_equal(p, x.b + 1015, 100);
  hpx_src_free(&src);
  /* the stretch longer than the file: it shrank */
  hpx_src_fd(&src, fd, 0, x.n + 4096, 50);
  assert_null(hpx_src_bytes(&src, x.n - 100, 300, &b, &err));
  assert_int_equal(err.code, HP2X_E_IO);
  assert_true(err.offset == 50 + (long long)x.n);
  char want[128];
  snprintf(want, sizeof want, "shrank while read (it had %zu bytes)",
           x.n + 4096);
  assert_non_null(strstr(err.msg, want));
  hpx_src_free(&src);
  /* a descriptor that cannot be read */
  int dir = open("/tmp", O_RDONLY);
  hpx_src_fd(&src, dir, 0, 100, 0);
  hp2x_err_init(&err);
  assert_null(hpx_src_at(&src, 0, 1, &avail));
  assert_null(hpx_src_bytes(&src, 20, 10, &b, &err));
  assert_int_equal(err.code, HP2X_E_IO);
  assert_true(err.offset == 20);
  assert_non_null(strstr(err.msg, "read failed"));
  hpx_src_free(&src);
  close(dir);
  hpx_free(b.p);
  free(got.b);
  close(fd);
  unlink(path);
  free(x.b);
}

/* A file that shrank while read, before its first bytes (those its kind
 * is told by) or after them: hp2x_parser_feed_fd's stretch, as long as the
 * file was, is an error at the byte where the file ends, never an input
 * ending there (which read as empty). */
static void file_shrank(void **state) {
  (void)state;
  text t = make_hp(40, 0);
  static const size_t kept[] = {0, 2, 3000};
  for (size_t k = 0; k < sizeof kept / sizeof *kept; k++) {
    assert_true(t.n > kept[k] + 100);
    bytes x = {(unsigned char *)t.s, kept[k], t.cap};
    char path[] = "/tmp/hp2x-test-parts-XXXXXX";
    int fd = temp_file_of(&x, path);
    for (unsigned threads = 1; threads <= 3; threads += 2) {
      hp2x_parse_options o = options_plain();
      o.threads = threads;
      o.part_bytes = 700;
      hp2x_err err;
      hp2x_err_init(&err);
      hp2x_parser *ps = hp2x_parser_new("parts", &o, &err);
      assert_non_null(ps);
      parts_src src;
      hpx_src_fd(&src, fd, 0, t.n, 0);
      assert_int_equal(hpx_parser_feed_src(ps, &src, &err), HP2X_E_IO);
      hpx_src_free(&src);
      assert_true(err.offset == (long long)kept[k]);
      char want[96];
      snprintf(want, sizeof want, "shrank while read (it had %zu bytes)", t.n);
      assert_non_null(strstr(err.msg, want));
      hp2x_parser_free(ps);
    }
    close(fd);
    unlink(path);
  }
  free(t.s);
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
  assert_int_equal(plain.p->n_packed_samples, 0); /* under 256 MiB */
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
      cmocka_unit_test(file_descriptors),
      cmocka_unit_test(file_part_fed_again),
      cmocka_unit_test(file_source),
      cmocka_unit_test(file_shrank),
      cmocka_unit_test(packed_reading),
      cmocka_unit_test(packed_parts_of_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
