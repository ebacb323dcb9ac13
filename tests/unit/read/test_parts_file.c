/* test_parts_file.c -- reading a file on several threads (parts.c's
 * hp2x_parser_feed_fd and the stretch a file is read through, parts_src):
 * a file read with pread (its parts into the readers' buffers) on 1 and 3
 * threads, in pieces and from a pipe gives the profile read from memory,
 * also with an allocation failing anywhere; a file's part that cannot be
 * merged is read again when it is fed; parts_src gives a file's bytes
 * across its windows and pieces, and says where a file that shrank ends
 * (before its first bytes or after them) and where a read failed.  The
 * inputs are made by parts_fixture.h, as test_parts.c's are.
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(file_descriptors),
      cmocka_unit_test(file_part_fed_again),
      cmocka_unit_test(file_source),
      cmocka_unit_test(file_shrank),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
