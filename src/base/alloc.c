/* alloc.c -- every allocation of libhp2x: the malloc family's wrappers,
 * geometric growth (hpx_grow) and prefaulting.  Built with
 * -DHPX_TEST_HOOKS (the test builds only: the unit tests and
 * BUILD/hp2x-faults), it also has the fault-injection hook that fails the
 * nth allocation (hpx_alloc_fail_at); the shipped library and binary do
 * not contain it.  Callers own what they allocate.
 */
/* The pre-faulting seam: Linux's madvise(MADV_POPULATE_WRITE) (kernel 5.14
 * on; glibc declares it under _DEFAULT_SOURCE, which this branch alone
 * asks for); elsewhere, and under PORTABLE=1, nothing: pages fault in
 * as they are first written.  Huge pages (MADV_HUGEPAGE) are not asked
 * for: on a VM that hands freed memory back to its host, a fresh huge
 * page a few seconds after the last run costs more than its 4 KiB pages,
 * and marked ranges may be compacted at fault time (bench/RESULTS.md,
 * 14ai). */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define _DEFAULT_SOURCE /* madvise, MADV_POPULATE_WRITE */
#include <sys/mman.h>
#endif

#include "base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef HPX_TEST_HOOKS
#include <stdatomic.h>

/* Atomic so that a threaded test's allocations do not race on them; the
 * fault tests that set a failure are single-threaded. */
static atomic_long alloc_count;    /* allocations since the last
                                      hpx_alloc_fail_at */
static atomic_long alloc_fail_nth; /* fail this one (1-based); 0 = never */

long hpx_alloc_fail_at(long nth) {
  long made = atomic_exchange(&alloc_count, 0);
  atomic_store(&alloc_fail_nth, nth > 0 ? nth : 0);
  return made;
}

static int should_fail(void) {
  long count = atomic_fetch_add(&alloc_count, 1) + 1;
  long nth = atomic_load(&alloc_fail_nth);
  return nth != 0 && count >= nth;
}
#else
static int should_fail(void) { return 0; }
#endif

void *hpx_malloc(size_t n) {
  if (should_fail()) return NULL;
  return malloc(n ? n : 1);
}

void *hpx_calloc(size_t count, size_t size) {
  if (should_fail()) return NULL;
  return calloc(count ? count : 1, size ? size : 1);
}

void *hpx_realloc(void *ptr, size_t n) {
  if (should_fail()) return NULL;
  return realloc(ptr, n ? n : 1);
}

void hpx_free(void *ptr) { free(ptr); }

char *hpx_strndup(const char *s, size_t len) {
  char *d = hpx_malloc(len + 1);
  if (!d) return NULL;
  if (len) memcpy(d, s, len);
  d[len] = '\0';
  return d;
}

/* Maps the whole pages of bytes [from, to) of ptr's block when they are
 * `least` bytes or more. */
static void prefault_least(void *ptr, size_t from, size_t to, size_t least) {
#if defined(MADV_POPULATE_WRITE)
  const uintptr_t page = 4096;
  if (to < from + least) return; /* not worth a system call */
  uintptr_t a = ((uintptr_t)ptr + from + page - 1) & ~(page - 1);
  uintptr_t e = ((uintptr_t)ptr + to) & ~(page - 1);
  if (e > a) (void)madvise((void *)a, e - a, MADV_POPULATE_WRITE);
#else
  (void)ptr, (void)from, (void)to, (void)least;
#endif
}

void hpx_prefault(void *ptr, size_t from, size_t to) {
  prefault_least(ptr, from, to, (size_t)1 << 20);
}

void hpx_prefault_all(void *ptr, size_t from, size_t to) {
  prefault_least(ptr, from, to, (size_t)64 << 10);
}

hp2x_status hpx_grow(void **ptr, size_t *cap, size_t need, size_t elem,
                     hp2x_err *err) {
  if (need <= *cap) return HP2X_OK;
  size_t ncap = *cap ? *cap : 16;
  while (ncap < need) {
    if (ncap > ((size_t)-1 / 2) / elem) return hpx_nomem(err);
    ncap *= 2;
  }
  void *np = hpx_realloc(*ptr, ncap * elem);
  if (!np) return hpx_nomem(err);
  *ptr = np;
  *cap = ncap;
  return HP2X_OK;
}
