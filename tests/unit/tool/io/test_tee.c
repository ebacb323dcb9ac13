/* test_tee.c -- the tool's io/tee.c, --tee: the bytes kept as they come
 * and cut back to the last whole event at the end; no --tee does nothing;
 * a file that cannot be made is said, and a write that fails is said
 * once and ends the keeping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "io/tee.h"
#include "util/status.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/hp2x-tee-XXXXXX";

static long long size_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static void kept_then_cut_back(void **state) {
  (void)state;
  char path[600];
  snprintf(path, sizeof path, "%s/kept.eventlog", dir);
  tee t;
  assert_int_equal(tee_open(&t, path), EXIT_OK);
  tee_bytes(&t, (const unsigned char *)"0123456789", 10);
  tee_bytes(&t, (const unsigned char *)"abcdef", 6);
  assert_int_equal(t.bytes, 16);
  assert_int_equal(size_of(path), 16); /* written as it comes */
  tee_close(&t, 12);                   /* the last whole event ends at 12 */
  assert_false(t.failed);
  assert_int_equal(size_of(path), 12);
  tee_close(&t, 0); /* closed: nothing more */
  assert_int_equal(size_of(path), 12);
  unlink(path);
}

static void no_tee_does_nothing(void **state) {
  (void)state;
  tee t;
  assert_int_equal(tee_open(&t, NULL), EXIT_OK);
  tee_bytes(&t, (const unsigned char *)"x", 1);
  assert_int_equal(t.bytes, 0);
  tee_close(&t, 0);
  assert_false(t.failed);
}

static void failures_are_said(void **state) {
  (void)state;
  char path[600];
  snprintf(path, sizeof path, "%s/no/such/dir.eventlog", dir);
  tee t;
  assert_int_equal(tee_open(&t, path), EXIT_BAD_INPUT);
  tee_close(&t, 0);
  if (access("/dev/full", W_OK) != 0) return; /* no full device here */
  assert_int_equal(tee_open(&t, "/dev/full"), EXIT_OK);
  tee_bytes(&t, (const unsigned char *)"abc", 3);
  assert_true(t.failed);
  tee_bytes(&t, (const unsigned char *)"def", 3); /* not tried again */
  assert_int_equal(t.bytes, 0);
  tee_close(&t, 0);
  assert_true(t.failed);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kept_then_cut_back),
      cmocka_unit_test(no_tee_does_nothing),
      cmocka_unit_test(failures_are_said),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  rmdir(dir);
  return rc;
}
