/* mapfile.c -- a regular file mapped for reading once (base.h's
 * hpx_map_*): mmap and munmap are POSIX; the page size comes from
 * sysconf.  The prefetch seam: Linux's madvise(MADV_POPULATE_READ)
 * (kernel 5.14 on) maps a part's pages in one call; elsewhere, and under
 * PORTABLE=1, nothing: they fault in as they are read.  The drop seam:
 * madvise(MADV_DONTNEED) lets go of a part's pages once it is read (the
 * file's bytes stay readable: a page read again faults in from the page
 * cache), and of the pages before a place (hpx_map_let_go); elsewhere, and
 * under PORTABLE=1, nothing, and those before a place are unmapped.
 */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define _DEFAULT_SOURCE /* madvise, MADV_POPULATE_READ, MADV_DONTNEED */
#endif
#include <sys/mman.h>
#include <unistd.h>

#include "base.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

static size_t page_bytes(void) {
  long n = sysconf(_SC_PAGESIZE);
  return n > 0 ? (size_t)n : 4096;
}

int hpx_map_file(int fd, long long offset, size_t len, hpx_mapped *m) {
  memset(m, 0, sizeof *m);
  size_t page = page_bytes();
  long long at = offset - offset % (long long)page;
  size_t lead = (size_t)(offset - at);
  if (len == 0 || offset < 0 || len > SIZE_MAX - lead) {
    errno = EINVAL;
    return -1;
  }
  void *p = mmap(NULL, len + lead, PROT_READ, MAP_PRIVATE, fd, (off_t)at);
  if (p == MAP_FAILED) return -1;
  m->base = p;
  m->len = len + lead;
  m->data = m->base + lead;
  m->data_len = len;
  return 0;
}

void hpx_map_release(hpx_mapped *m, const unsigned char *upto) {
  if (!m->base || upto < m->base) return;
  size_t page = page_bytes(), at = (size_t)(upto - m->base);
  if (at > m->len) at = m->len;
  at -= at % page;
  if (at <= m->released) return;
  (void)munmap(m->base + m->released, at - m->released);
  m->released = at;
}

void hpx_map_let_go(hpx_mapped *m, const unsigned char *upto) {
#if defined(__linux__) && !defined(HP2X_PORTABLE) && defined(MADV_DONTNEED)
  if (!m->base || upto < m->base) return;
  size_t page = page_bytes(), at = (size_t)(upto - m->base);
  if (at > m->len) at = m->len;
  at -= at % page;
  size_t from = m->let_go > m->released ? m->let_go : m->released;
  if (at <= from) return;
  (void)madvise(m->base + from, at - from, MADV_DONTNEED);
  m->let_go = at;
#else
  hpx_map_release(m, upto);
#endif
}

void hpx_map_close(hpx_mapped *m) {
  if (m->base && m->released < m->len)
    (void)munmap(m->base + m->released, m->len - m->released);
  memset(m, 0, sizeof *m);
}

void hpx_map_prefetch(const void *p, size_t n) {
#if defined(MADV_POPULATE_READ)
  size_t page = page_bytes();
  uintptr_t a = (uintptr_t)p & ~(uintptr_t)(page - 1);
  uintptr_t e = (uintptr_t)p + n;
  if (n >= ((size_t)1 << 20))
    (void)madvise((void *)a, e - a, MADV_POPULATE_READ);
#else
  (void)p, (void)n;
#endif
}

void hpx_map_drop(const void *p, size_t n) {
#if defined(__linux__) && !defined(HP2X_PORTABLE) && defined(MADV_DONTNEED)
  size_t page = page_bytes();
  uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
  uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
  if (e > a) (void)madvise((void *)a, e - a, MADV_DONTNEED);
#else
  (void)p, (void)n;
#endif
}
