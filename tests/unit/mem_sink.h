/* mem_sink.h -- shared by the unit tests that draw or write into memory: a
 * growing buffer and the hp2x_write_fn that fills it (NUL-terminated for
 * text checks; fail_after simulates a sink that fills up). */
#ifndef HPX_MEM_SINK_H
#define HPX_MEM_SINK_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct mem {
  char *buf;
  size_t len, cap;
  int fail_after; /* fail once this many bytes were written; 0 = never */
} mem;

static inline int mem_write(void *closure, const void *b, size_t n) {
  mem *m = closure;
  if (m->fail_after && m->len + n > (size_t)m->fail_after) {
    errno = ENOSPC;
    return -1;
  }
  if (m->len + n + 1 > m->cap) {
    m->cap = (m->len + n + 1) * 2;
    m->buf = realloc(m->buf, m->cap);
  }
  memcpy(m->buf + m->len, b, n);
  m->len += n;
  m->buf[m->len] = '\0';
  return 0;
}

#endif
