/* writebuf.c -- a buffered byte sink over an hp2x_write_fn, shared by
 * write/'s text outputs (CSV, .hp, the summary, the HTML report, the
 * metrics): output goes out in 64 KiB pieces (a block as long passed on
 * whole, not copied), and the first failure of the sink is kept with its
 * errno.
 */
#include "textout.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

#define WRITEBUF_SIZE HPX_WRITEBUF_SIZE

hp2x_status hpx_writebuf_init(writebuf *w, hp2x_write_fn write, void *closure,
                              hp2x_err *err) {
  memset(w, 0, sizeof *w);
  w->write = write;
  w->closure = closure;
  w->buf = hpx_malloc(WRITEBUF_SIZE);
  return w->buf ? HP2X_OK : hpx_nomem(err);
}

/* Hands n bytes at s to the sink unless it has failed before. */
static void sink(writebuf *w, const char *s, size_t n) {
  if (!w->failed && n && w->write(w->closure, s, n) != 0) {
    w->failed = 1;
    w->saved_errno = errno ? errno : EIO;
  }
}

/* Hands the pending bytes to the sink. */
static void flush_pending(writebuf *w) {
  assert(w->used <= WRITEBUF_SIZE);
  sink(w, w->buf, w->used);
  w->used = 0;
}

void hpx_writebuf_flush(writebuf *w) { flush_pending(w); }

void hpx_writebuf_put(writebuf *w, const char *s, size_t n) {
  if (n >= WRITEBUF_SIZE) { /* a block (rows formatted at once) as it is */
    flush_pending(w);
    sink(w, s, n);
    return;
  }
  while (n) {
    if (w->used == WRITEBUF_SIZE) flush_pending(w);
    size_t k = WRITEBUF_SIZE - w->used < n ? WRITEBUF_SIZE - w->used : n;
    memcpy(w->buf + w->used, s, k);
    w->used += k;
    s += k;
    n -= k;
  }
}

void hpx_writebuf_puts(writebuf *w, const char *s) {
  hpx_writebuf_put(w, s, strlen(s));
}

hp2x_status hpx_writebuf_finish(writebuf *w, hp2x_err *err) {
  flush_pending(w);
  hpx_free(w->buf);
  w->buf = NULL;
  if (w->failed)
    return hpx_fail(err, HP2X_E_IO, 0, -1, "write failed: %s",
                    strerror(w->saved_errno));
  return HP2X_OK;
}
