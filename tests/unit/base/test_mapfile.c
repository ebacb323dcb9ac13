/* test_mapfile.c -- mapfile.c's file mappings: a file mapped from an
 * offset, its pages prefetched and let go of (hpx_map_drop) in whole and
 * unaligned ranges, its bytes the file's after each, its pages out of
 * the process's resident set once dropped (Linux), let go of from the
 * front (hpx_map_let_go: dropped, still mapped, on Linux) and released
 * from the front and closed; a length of 0 refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "base/base.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_BYTES ((size_t)5 << 20) /* more than the 1 MiB prefetch step */

/* The resident kB of the mapping holding address a, from
 * /proc/self/smaps; -1 when it cannot be read. */
static long mapping_rss_kb(const void *a) {
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f) return -1;
  char line[512];
  int inside = 0;
  long kb = -1;
  uintptr_t x = (uintptr_t)a;
  while (kb < 0 && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
      inside = x >= lo && x < hi;
    else if (inside && sscanf(line, "Rss: %ld kB", &kb) == 1)
      break;
  }
  fclose(f);
  return kb;
}

/* A temporary file of n bytes, each from its offset; *fd open on it. */
static unsigned char *make_file(size_t n, int *fd, char *path) {
  unsigned char *b = malloc(n);
  assert_non_null(b);
  for (size_t i = 0; i < n; i++) b[i] = (unsigned char)(i * 2654435761u >> 13);
  *fd = mkstemp(path);
  assert_true(*fd >= 0);
  assert_int_equal(write(*fd, b, n), (ssize_t)n);
  return b;
}

static void dropped_pages_read_again(void **state) {
  (void)state;
  char path[] = "/tmp/hp2x-test-mapfile-XXXXXX";
  int fd;
  unsigned char *want = make_file(FILE_BYTES, &fd, path);
  hpx_mapped m;
  const long long offset = 12345; /* not a page's start */
  assert_int_equal(hpx_map_file(fd, offset, FILE_BYTES - offset, &m), 0);
  assert_int_equal(m.data_len, FILE_BYTES - offset);
  const unsigned char *d = m.data;
  hpx_map_prefetch(d, m.data_len);
  assert_memory_equal(d, want + offset, m.data_len);
  /* Ranges of every alignment: whole pages, less than a page, a page's
   * end to another's middle; the bytes are the file's after each. */
  static const size_t ranges[][2] = {
      {0, 4096}, {1, 100}, {5000, 3 << 20}, {4095, 2}, {100000, 1 << 20}};
  for (size_t r = 0; r < sizeof ranges / sizeof *ranges; r++) {
    hpx_map_drop(d + ranges[r][0], ranges[r][1]);
    assert_memory_equal(d, want + offset, m.data_len);
  }
  /* All of it: the pages leave the process (on Linux, where the drop is
   * madvise's; a no-op elsewhere), then read it again. */
  hpx_map_prefetch(d, m.data_len);
  assert_memory_equal(d, want + offset, m.data_len);
  long before = mapping_rss_kb(d);
  hpx_map_drop(d, m.data_len);
  long after = mapping_rss_kb(d);
#if defined(__linux__) && !defined(HP2X_PORTABLE)
  if (before >= 0) {
    assert_true(before >= (long)(m.data_len >> 10) - 8);
    assert_true(after <= 8); /* at most the partial pages at its ends */
  }
#else
  (void)before, (void)after;
#endif
  assert_memory_equal(d, want + offset, m.data_len);
  /* Let go of from the front, twice as far the second time, then less
   * far (nothing): the pages before the cut leave the process, and every
   * byte still reads as the file's (on Linux they stay mapped; elsewhere
   * they are unmapped, so only what is past the cut is read there). */
  hpx_map_prefetch(d, m.data_len);
  size_t go = (size_t)1 << 20;
  hpx_map_let_go(&m, d + go);
  hpx_map_let_go(&m, d + 2 * go);
  hpx_map_let_go(&m, d + go);
#if defined(__linux__) && !defined(HP2X_PORTABLE)
  assert_int_equal(m.released, 0);
  assert_true(m.let_go > 2 * go - 4096 && m.let_go <= 2 * go + (size_t)offset);
  long kept = mapping_rss_kb(d);
  if (before >= 0) /* the pages before the cut are gone (and, where the
                      file's pages are mapped 2 MiB at a time, those that
                      shared a huge mapping with them: read again, they
                      come back) */
    assert_true(kept >= 0 && kept <= (long)((m.data_len - 2 * go) >> 10) + 8);
  assert_memory_equal(d, want + offset, m.data_len);
#else
  assert_memory_equal(d + 2 * go, want + offset + 2 * go, m.data_len - 2 * go);
#endif
  /* Released from the front: what is past the cut still reads. */
  size_t cut = (size_t)3 << 20;
  hpx_map_release(&m, d + cut);
  assert_true(m.released > 2 * go && m.released <= cut + (size_t)offset);
  assert_memory_equal(d + cut, want + offset + cut, m.data_len - cut);
  hpx_map_close(&m);
  assert_null(m.base);
  hpx_map_close(&m); /* twice: nothing */
  /* Nothing to map. */
  errno = 0;
  assert_int_equal(hpx_map_file(fd, 0, 0, &m), -1);
  assert_int_equal(errno, EINVAL);
  close(fd);
  unlink(path);
  free(want);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dropped_pages_read_again),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
