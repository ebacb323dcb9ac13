/* test_outfile.c -- the tool's io/outfile.c: temp file in the target
 * directory, rename on commit, nothing left on abort or failure, devices
 * written in place, the file a commit replaces let go of, a file written
 * over another written back as it is written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "io/outfile.h"
#include "util/tuning.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#include <sys/vfs.h>
#define HOLDS 1 /* outfile.c's seam: O_PATH on Linux */
#else
#define HOLDS 0
#endif

static char dir[] = "/tmp/hp2x-outfile-XXXXXX";

static int count_entries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(d);
  return n;
}

static void path_in(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

static void commit_renames_into_place(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "a.txt");
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  const char *tmp = outfile_temp_path(f);
  assert_non_null(tmp);
  assert_non_null(strstr(tmp, dir));           /* same directory */
  assert_int_not_equal(access(path, F_OK), 0); /* target not yet there */
  for (int i = 0; i < 20000; i++)              /* several buffer flushes */
    assert_int_equal(outfile_write(f, "0123456789", 10), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_size, 200000);
  assert_int_equal(count_entries(), 1);
  unlink(path);
}

static void abort_leaves_nothing_and_keeps_old(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "b.txt");
  FILE *old = fopen(path, "w");
  fputs("old", old);
  fclose(old);
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  assert_int_equal(outfile_write(f, "new", 3), 0);
  outfile_abort(f);
  outfile_abort(NULL);
  char buf[8] = {0};
  FILE *in = fopen(path, "r");
  assert_int_equal(fread(buf, 1, sizeof buf - 1, in), 3);
  fclose(in);
  assert_string_equal(buf, "old");
  assert_int_equal(count_entries(), 1);
  unlink(path);
}

static void full_device_reports_io(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open("/dev/full", &f, &err), HP2X_OK);
  assert_null(outfile_temp_path(f)); /* a device: written in place */
  char block[70000];
  memset(block, 'x', sizeof block);
  (void)outfile_write(f, block, sizeof block);
  assert_int_equal(outfile_commit(f, &err), HP2X_E_IO);
  assert_non_null(strstr(err.msg, "No space"));
}

/* finish writes and closes without renaming; commit then renames.  A
 * failure at finish (the last buffered bytes on a full device) is
 * reported there, and commit reports it again instead of renaming. */
static void finish_then_commit(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "b.txt");
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  assert_int_equal(outfile_write(f, "abc", 3), 0);
  assert_int_equal(outfile_finish(f, &err), HP2X_OK);
  assert_int_equal(outfile_finish(f, &err), HP2X_OK); /* no-op */
  struct stat st;
  assert_int_equal(stat(outfile_temp_path(f), &st), 0);
  assert_int_equal(st.st_size, 3);             /* written out, */
  assert_int_not_equal(access(path, F_OK), 0); /* not yet in place */
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_size, 3);
  unlink(path);

  hp2x_err_init(&err);
  assert_int_equal(outfile_open("/dev/full", &f, &err), HP2X_OK);
  assert_int_equal(outfile_write(f, "abc", 3), 0); /* buffered */
  assert_int_equal(outfile_finish(f, &err), HP2X_E_IO);
  assert_non_null(strstr(err.msg, "No space"));
  hp2x_err_init(&err);
  assert_int_equal(outfile_commit(f, &err), HP2X_E_IO);
  assert_int_equal(count_entries(), 0);
}

static void missing_directory_reports_io(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "no/such/dir/x.pdf");
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f = NULL;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_E_IO);
  assert_null(f);
  assert_true(err.msg[0] != '\0');
}

/* The handle holds the target's path and the temporary one in its own
 * allocation: a long name (the temporary adds 8 bytes to its base, 247 +
 * 8 = 255, the most a name may have) is written whole and renamed into
 * place, with nothing left beside it. */
static void long_names_fit(void **state) {
  (void)state;
  char base[248], path[1024];
  memset(base, 'n', sizeof base - 1);
  base[sizeof base - 1] = '\0';
  path_in(path, sizeof path, base);
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f = NULL;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  assert_int_equal(strlen(outfile_temp_path(f)), strlen(path) + 8);
  assert_int_equal(outfile_write(f, "long", 4), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  assert_int_equal(st.st_size, 4);
  assert_int_equal(count_entries(), 1);
  unlink(path);
}

/* Writes "x" to `path` through an outfile and returns the mode (0777 bits)
 * the committed file has. */
static mode_t committed_mode(const char *path) {
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  assert_int_equal(outfile_write(f, "x", 1), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  return st.st_mode & 07777;
}

/* A new target gets what open(2) gives a new file: 0666 less the umask;
 * the umask itself is left as it was. */
static void new_file_gets_umask_mode(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "new.txt");
  mode_t saved = umask(027);
  mode_t got = committed_mode(path);
  mode_t after = umask(saved);
  assert_int_equal(got, 0640);
  assert_int_equal(after, 027);
  unlink(path);
  umask(077);
  got = committed_mode(path);
  umask(saved);
  assert_int_equal(got, 0600);
  unlink(path);
}

/* Replacing a file keeps its mode, whatever the umask says. */
static void existing_file_keeps_its_mode(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "old.txt");
  static const mode_t modes[] = {0640, 0604, 0755, 0400};
  mode_t saved = umask(022);
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    FILE *old = fopen(path, "w");
    fputs("old", old);
    fclose(old);
    assert_int_equal(chmod(path, modes[i]), 0);
    assert_int_equal(committed_mode(path), modes[i]);
    assert_int_equal(count_entries(), 1);
    unlink(path);
  }
  umask(saved);
}

/* A block of a buffer's size or more goes out as it is, after the bytes
 * buffered before it and before those written after it. */
static void blocks_keep_their_order(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "blocks.txt");
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  enum { BIG = 200003 };
  char *block = malloc(BIG), *want = malloc(2 * BIG + 6),
       *got = malloc(2 * BIG + 7);
  assert_non_null(block);
  assert_non_null(want);
  assert_non_null(got);
  for (size_t i = 0; i < BIG; i++) block[i] = (char)('a' + i % 26);
  assert_int_equal(outfile_write(f, "<<", 2), 0);
  assert_int_equal(outfile_write(f, block, BIG), 0);
  assert_int_equal(outfile_write(f, "||", 2), 0);
  assert_int_equal(outfile_write(f, block, BIG), 0);
  assert_int_equal(outfile_write(f, ">>", 2), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  memcpy(want, "<<", 2);
  memcpy(want + 2, block, BIG);
  memcpy(want + 2 + BIG, "||", 2);
  memcpy(want + 4 + BIG, block, BIG);
  memcpy(want + 4 + 2 * BIG, ">>", 2);
  FILE *in = fopen(path, "rb");
  assert_non_null(in);
  assert_int_equal(fread(got, 1, 2 * BIG + 7, in), 2 * BIG + 6);
  fclose(in);
  assert_memory_equal(got, want, 2 * BIG + 6);
  free(block);
  free(want);
  free(got);
  unlink(path);
}

/* The descriptors open: the lowest free one (POSIX gives the lowest). */
static int lowest_free_fd(void) {
  int fd = dup(0);
  assert_true(fd >= 0);
  close(fd);
  return fd;
}

/* Writes `text` to path through an outfile, committed. */
static void commit_text(const char *path, const char *text) {
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  assert_int_equal(outfile_write(f, text, strlen(text)), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
}

/* A commit over an old file (and over a second link to it): the new bytes
 * are in place, a reader of the old file still reads the old ones, and
 * the reference held to the file replaced (outfile.c's hold_replaced) is
 * let go of (closed here: no run lets go beside it) -- no descriptor
 * left open. */
static void commit_over_old_lets_it_go(void **state) {
  (void)state;
  char path[512], link2[512];
  path_in(path, sizeof path, "old.txt");
  path_in(link2, sizeof link2, "old-link.txt");
  for (int linked = 0; linked < 2; linked++) {
    FILE *old = fopen(path, "w");
    assert_non_null(old);
    fputs("old bytes", old);
    for (int i = 0; i < (2 << 20) / 16; i++) /* big enough to be held */
      fputs("0123456789abcdef", old);
    fclose(old);
    if (linked) assert_int_equal(link(path, link2), 0);
    FILE *reader = fopen(path, "r");
    assert_non_null(reader);
    int free_before = lowest_free_fd();
    commit_text(path, "new");
    assert_int_equal(lowest_free_fd(), free_before);
    char got[16] = {0};
    assert_int_equal(fread(got, 1, 9, reader), 9);
    assert_string_equal(got, "old bytes");
    fclose(reader);
    FILE *now = fopen(path, "r");
    memset(got, 0, sizeof got);
    assert_int_equal(fread(got, 1, sizeof got - 1, now), 3);
    assert_string_equal(got, "new");
    fclose(now);
    unlink(path);
    unlink(link2);
  }
  assert_int_equal(count_entries(), 0);
}

/* Writes a file of `bytes` bytes at path. */
static void write_bytes(const char *path, long bytes) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  for (long i = 0; i < bytes / 16; i++) fputs("0123456789abcdef", f);
  fclose(f);
}

/* Writes `bytes` bytes (a pattern a 64 KiB block) over path through an
 * outfile, then reads them back. */
static void write_over(const char *path, long bytes) {
  static char block[1 << 16];
  for (size_t i = 0; i < sizeof block; i++) block[i] = (char)('a' + i % 26);
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(path, &f, &err), HP2X_OK);
  for (long n = 0; n < bytes; n += (long)sizeof block)
    assert_int_equal(outfile_write(f, block, sizeof block), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  FILE *in = fopen(path, "rb");
  assert_non_null(in);
  static char got[1 << 16];
  long total = 0;
  for (size_t n; (n = fread(got, 1, sizeof got, in)) > 0; total += (long)n)
    assert_memory_equal(got, block, n);
  fclose(in);
  assert_int_equal(total, bytes);
}

/* Whether the test's folder is on a filesystem outfile.c holds on (a few
 * local ones; the test's oracle, not outfile.c's list). */
static int dir_is_local(void) {
#if HOLDS
  struct statfs fs;
  assert_int_equal(statfs(dir, &fs), 0);
  return fs.f_type == 0xEF53 || fs.f_type == 0x01021994 ||
         fs.f_type == 0x58465342 || fs.f_type == 0x794C7630;
#else
  return 0;
#endif
}

/* The file a commit replaces is held (outfile_hold_replaced) only when
 * the run lets go beside it, and only a regular file of one link of 1 MiB
 * or more; then a commit over it hands it to the let-go thread, whose
 * close tuning_finish waits for, as it does for the writebacks the
 * thread starts.  Last: tuning_apply is once a process. */
static void holds_only_when_planned(void **state) {
  (void)state;
  char big[512], small[512], link2[512];
  path_in(big, sizeof big, "big.txt");
  path_in(small, sizeof small, "small.txt");
  path_in(link2, sizeof link2, "big-link.txt");
  write_bytes(big, 1 << 20);
  write_bytes(small, (1 << 20) - 16);
  assert_int_equal(outfile_hold_replaced(big), -1); /* not planned */
  tuning_plan plan = {0};
  plan.let_go_beside = 1;
  tuning_apply(&plan);
  int fd = outfile_hold_replaced(big);
  if (!HOLDS || !dir_is_local()) {
    assert_int_equal(fd, -1);
    tuning_finish();
    unlink(big);
    unlink(small);
    if (HOLDS) skip(); /* a filesystem the test does not know */
    return;
  }
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(outfile_hold_replaced(small), -1);
  assert_int_equal(link(big, link2), 0);
  assert_int_equal(outfile_hold_replaced(big), -1); /* two links */
  unlink(link2);
  assert_int_equal(outfile_hold_replaced(dir), -1);
  int free_before = lowest_free_fd();
  /* Over a file, written back as it is written (20 MiB: three of
   * outfile.c's steps, on the let-go thread with copies of its
   * descriptor): the same bytes, and no descriptor left once
   * tuning_finish has waited for the thread. */
  write_over(small, 20 << 20);
  commit_text(big, "new");
  tuning_finish();
  assert_int_equal(lowest_free_fd(), free_before);
  unlink(big);
  unlink(small);
  assert_int_equal(count_entries(), 0);
}

static void put_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void assert_file_is(const char *path, const char *text) {
  char buf[64] = {0};
  FILE *in = fopen(path, "r");
  assert_non_null(in);
  assert_int_equal(fread(buf, 1, sizeof buf - 1, in), strlen(text));
  fclose(in);
  assert_string_equal(buf, text);
}

/* An output named by a symbolic link replaces the file the link names,
 * through a temporary file beside it; the link stays a link.  A link
 * naming no file yet gets the file made through it. */
static void symlink_keeps_the_link(void **state) {
  (void)state;
  char real[512], link[512], dangling[512], made[512];
  path_in(real, sizeof real, "real.txt");
  path_in(link, sizeof link, "link.txt");
  path_in(dangling, sizeof dangling, "dangling.txt");
  path_in(made, sizeof made, "made.txt");
  put_file(real, "old");
  assert_int_equal(symlink("real.txt", link), 0);
  commit_text(link, "new");
  struct stat st;
  assert_int_equal(lstat(link, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_file_is(real, "new");
  assert_int_equal(symlink("made.txt", dangling), 0);
  commit_text(dangling, "made");
  assert_int_equal(lstat(dangling, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_file_is(made, "made");
  assert_int_equal(count_entries(), 4); /* no temporary file left */
  unlink(link);
  unlink(real);
  unlink(dangling);
  unlink(made);
}

/* A dangling link's file is made through a temporary file renamed to the
 * name the link leads to (relative to the link's directory, through a
 * second link): an aborted output leaves no file there, half-written or
 * empty, and the links stay. */
static void dangling_link_aborted_makes_nothing(void **state) {
  (void)state;
  char first[512], second[512], made[512];
  path_in(first, sizeof first, "first.txt");
  path_in(second, sizeof second, "second.txt");
  path_in(made, sizeof made, "made.txt");
  assert_int_equal(symlink("second.txt", first), 0);
  assert_int_equal(symlink("./made.txt", second), 0);
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(first, &f, &err), HP2X_OK);
  assert_non_null(outfile_temp_path(f));
  assert_int_equal(outfile_write(f, "half", 4), 0);
  outfile_abort(f);
  struct stat st;
  assert_int_equal(lstat(made, &st), -1);
  assert_int_equal(count_entries(), 2);
  commit_text(first, "whole");
  assert_file_is(made, "whole");
  assert_int_equal(lstat(first, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(lstat(second, &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(count_entries(), 3);
  unlink(first);
  unlink(second);
  unlink(made);
}

/* The file the standard error (or output) already writes to is written
 * through it, at its offset: not replaced (the shell's redirection would
 * see nothing) nor truncated. */
static void std_output_written_through(void **state) {
  (void)state;
  char path[512];
  path_in(path, sizeof path, "std.txt");
  put_file(path, "");
  struct stat before, after;
  assert_int_equal(stat(path, &before), 0);
  int fd = open(path, O_WRONLY | O_APPEND);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "head\n", 5), 5);
  int saved = dup(2);
  assert_true(saved >= 0);
  assert_int_equal(dup2(fd, 2), 2);
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  hp2x_status st = outfile_open(path, &f, &err);
  int in_place = st == HP2X_OK && outfile_temp_path(f) == NULL;
  if (st == HP2X_OK) {
    (void)outfile_write(f, "body", 4);
    st = outfile_commit(f, &err);
  }
  dup2(saved, 2);
  close(saved);
  close(fd);
  assert_int_equal(st, HP2X_OK);
  assert_true(in_place);
  assert_int_equal(stat(path, &after), 0);
  assert_int_equal(after.st_ino, before.st_ino);
  assert_file_is(path, "head\nbody");
  unlink(path);
}

/* A path spelt /proc/self/fd/N (or /dev/fd/N) for a descriptor open for
 * writing on a file is written through that descriptor (a shell's
 * `3>> log` appends), not the file replaced, its contents lost. */
static void fd_path_written_through(void **state) {
  (void)state;
  char path[512], spelt[64];
  path_in(path, sizeof path, "fd.txt");
  put_file(path, "head\n");
  int fd = open(path, O_WRONLY | O_APPEND);
  assert_true(fd > 2);
  snprintf(spelt, sizeof spelt, "/proc/self/fd/%d", fd);
  hp2x_err err;
  hp2x_err_init(&err);
  outfile *f;
  assert_int_equal(outfile_open(spelt, &f, &err), HP2X_OK);
  assert_null(outfile_temp_path(f));
  assert_int_equal(outfile_write(f, "body", 4), 0);
  assert_int_equal(outfile_commit(f, &err), HP2X_OK);
  close(fd);
  assert_file_is(path, "head\nbody");
  assert_int_equal(count_entries(), 1);
  unlink(path);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(commit_renames_into_place),
      cmocka_unit_test(abort_leaves_nothing_and_keeps_old),
      cmocka_unit_test(full_device_reports_io),
      cmocka_unit_test(finish_then_commit),
      cmocka_unit_test(missing_directory_reports_io),
      cmocka_unit_test(long_names_fit),
      cmocka_unit_test(new_file_gets_umask_mode),
      cmocka_unit_test(existing_file_keeps_its_mode),
      cmocka_unit_test(blocks_keep_their_order),
      cmocka_unit_test(commit_over_old_lets_it_go),
      cmocka_unit_test(holds_only_when_planned),
      cmocka_unit_test(symlink_keeps_the_link),
      cmocka_unit_test(dangling_link_aborted_makes_nothing),
      cmocka_unit_test(std_output_written_through),
      cmocka_unit_test(fd_path_written_through),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  rmdir(dir);
  return rc;
}
