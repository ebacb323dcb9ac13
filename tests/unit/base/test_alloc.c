/* test_alloc.c -- alloc.c's pre-faulting seam (hpx_prefault,
 * hpx_prefault_all) on a block at no page's start: on Linux, the whole
 * pages inside the range mapped and no page outside it, nothing under
 * the size each asks for, and never a huge page: the block's mapping
 * keeps the flags it was given (no MADV_HUGEPAGE, no huge page mapped),
 * the band matrix's two shares of 4 MiB and more too; under PORTABLE=1
 * nothing mapped.  Off Linux, skipped (the pages are seen through
 * Linux's mincore and /proc/self/smaps). */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* mincore, MAP_ANONYMOUS, MADV_NOHUGEPAGE */
#endif
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "base/base.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define SEAM 1
#else
#define SEAM 0
#endif
/* The test's own view of the pages (mincore, smaps) is Linux's. */
#if defined(__linux__)
#define LINUX 1
#if !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 on; older headers lack it */
#endif
#if !defined(MADV_NOHUGEPAGE)
#define MADV_NOHUGEPAGE 15 /* Linux 2.6.38 on */
#endif
#else
#define LINUX 0
#endif

#if LINUX
#define PAGE ((uintptr_t)4096)
#define HUGE ((uintptr_t)2 << 20)
#define MIB ((size_t)1 << 20)
#define MAP_BYTES ((size_t)24 << 20)

/* A fresh private anonymous mapping, none of its pages mapped in; its
 * block starts 3 pages and 16 bytes after a 2 MiB boundary.  No huge
 * pages (MADV_NOHUGEPAGE): where the system makes every mapping huge, a
 * page faulted in would map its neighbours too, and a seam asking for
 * huge pages would have to change the flag. */
typedef struct fresh {
  unsigned char *map, *block;
} fresh;

static fresh fresh_block(void) {
  fresh f;
  f.map = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(f.map != MAP_FAILED);
  (void)madvise(f.map, MAP_BYTES, MADV_NOHUGEPAGE);
  uintptr_t b = ((uintptr_t)f.map + HUGE - 1) & ~(HUGE - 1);
  f.block = (unsigned char *)(b + 3 * PAGE + 16);
  return f;
}

/* Whether the system takes an advice (MADV_POPULATE_WRITE: Linux 5.14
 * on; MADV_NOHUGEPAGE: transparent huge pages built in): probed on a
 * mapping of the test's own. */
static int probe(int advice) {
  size_t n = 2 * HUGE;
  void *m =
      mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(m != MAP_FAILED);
  int ok = madvise(m, n, advice) == 0;
  munmap(m, n);
  return ok;
}

/* Asserts that the pages of f's mapping in [lo, hi) are mapped in and
 * no other, but for the one holding `gap` (0: none). */
static void mapped_exactly(const fresh *f, uintptr_t lo, uintptr_t hi,
                           uintptr_t gap) {
  static unsigned char vec[MAP_BYTES / 4096];
  assert_int_equal(mincore(f->map, MAP_BYTES, vec), 0);
  for (size_t i = 0; i < MAP_BYTES / PAGE; i++) {
    uintptr_t p = (uintptr_t)f->map + i * PAGE;
    int want = p >= lo && p < hi && !(gap >= p && gap < p + PAGE);
    if ((vec[i] & 1) != want)
      fail_msg("page %zu of the mapping %s mapped", i, want ? "not" : "");
  }
}

/* Asserts from /proc/self/smaps that f's mapping is still one area
 * (MADV_HUGEPAGE on part of it would split it), not marked for huge
 * pages (VmFlags "hg") and holding none (AnonHugePages); where the
 * system took fresh_block's MADV_NOHUGEPAGE, still marked so ("nh") and
 * not THPeligible. */
static void never_huge(const fresh *f, int nohuge) {
  FILE *in = fopen("/proc/self/smaps", "r");
  assert_non_null(in);
  char line[512];
  int areas = 0, inside = 0;
  unsigned long a, e, kb = 0, eligible = 0;
  uintptr_t m0 = (uintptr_t)f->map, m1 = m0 + MAP_BYTES;
  while (fgets(line, sizeof line, in)) {
    if (sscanf(line, "%lx-%lx ", &a, &e) == 2) {
      inside = a < m1 && e > m0;
      areas += inside;
    } else if (inside && sscanf(line, "AnonHugePages: %lu", &kb) == 1) {
      if (kb) fail_msg("%lu kB of huge pages mapped", kb);
    } else if (inside && sscanf(line, "THPeligible: %lu", &eligible) == 1) {
      if (nohuge && eligible) fail_msg("the block is THPeligible");
    } else if (inside && !strncmp(line, "VmFlags:", 8)) {
      if (strstr(line, " hg")) fail_msg("marked for huge pages: %s", line);
      if (nohuge && !strstr(line, " nh"))
        fail_msg("its \"nh\" is gone: %s", line);
    }
  }
  fclose(in);
  assert_int_equal(areas, 1);
}

static uintptr_t up(uintptr_t x, uintptr_t to) {
  return (x + to - 1) & ~(to - 1);
}
static uintptr_t down(uintptr_t x, uintptr_t to) { return x & ~(to - 1); }

/* Below each function's least size, nothing; above it, the range's whole
 * pages and no others (the first and last bytes' pages are the block's
 * neighbours' too); never a huge page, 4 MiB and more too. */
static void whole_pages_only(void **state) {
  (void)state;
  int maps = SEAM && probe(MADV_POPULATE_WRITE);
  int nohuge = probe(MADV_NOHUGEPAGE);
  struct {
    int all;
    size_t from, len;
    int maps;
  } c[] = {{0, 100, 512 << 10, 0},   {0, 100, 3 * MIB + 5000, 1},
           {1, 100, 32 << 10, 0},    {1, 100, 512 << 10, 1},
           {1, 4000, 200 << 10, 1},  {1, 100, 9 * MIB + 12345, 1},
           {1, 2 * MIB, 16 * MIB, 1}};
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    fresh f = fresh_block();
    (c[i].all ? hpx_prefault_all : hpx_prefault)(f.block, c[i].from,
                                                 c[i].from + c[i].len);
    uintptr_t a = (uintptr_t)f.block + c[i].from, e = a + c[i].len;
    if (maps && c[i].maps)
      mapped_exactly(&f, up(a, PAGE), down(e, PAGE), 0);
    else
      mapped_exactly(&f, 0, 0, 0);
    never_huge(&f, nohuge);
    munmap(f.map, MAP_BYTES);
  }
}

/* A block's two shares, split inside a 2 MiB page, each given to
 * hpx_prefault_all as the band matrix's fill does: every whole 4 KiB
 * page of each share mapped (the one holding the split, in neither
 * share whole, is left to fault in), none outside, and no huge page
 * asked for or mapped. */
static void shares_mapped_never_huge(void **state) {
  (void)state;
  int maps = SEAM && probe(MADV_POPULATE_WRITE);
  fresh f = fresh_block();
  size_t from = 100, mid = 9 * MIB + 12345, to = 19 * MIB + 777;
  hpx_prefault_all(f.block, from, mid);
  hpx_prefault_all(f.block, mid, to);
  uintptr_t b = (uintptr_t)f.block;
  never_huge(&f, probe(MADV_NOHUGEPAGE));
  if (maps)
    mapped_exactly(&f, up(b + from, PAGE), down(b + to, PAGE), b + mid);
  else
    mapped_exactly(&f, 0, 0, 0);
  memset(f.block + from, 7, to - from); /* still the block's to write */
  munmap(f.map, MAP_BYTES);
}

#else
static void whole_pages_only(void **state) {
  (void)state;
  skip(); /* pages seen through Linux's mincore and smaps only */
}
static void shares_mapped_never_huge(void **state) {
  (void)state;
  skip();
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(whole_pages_only),
      cmocka_unit_test(shares_mapped_never_huge),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
