/* textout.h -- private to libhp2x: locale-free number formatting (fmt.c),
 * used wherever the library turns a number into text (messages, the
 * readers' errors, layout's ticks, every writer), and the buffered byte
 * sink (writebuf.c) of write/'s text outputs: CSV, .hp, the summary,
 * the HTML report and the metrics.
 */
#ifndef HPX_TEXTOUT_H
#define HPX_TEXTOUT_H

#include "base.h" /* the writers allocate and record errors */

/* fmt.c: snprintf under the C numeric locale, whatever the process locale
 * is (a '.' decimal point, no grouping).  Returns the length written: at
 * most size - 1, so a result cut short never reads past buf. */
int hpx_fmt(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* hpx_fmt with a va_list (err.c's messages). */
int hpx_vfmt(char *buf, size_t size, const char *fmt, va_list ap)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 0)))
#endif
    ;
/* Writes v with ',' every three digits (1234567 -> "1,234,567"); returns
 * the length. */
size_t hpx_fmt_thousands(char *buf, size_t size, int64_t v);
/* Writes v in plain decimal, without a NUL, into buf (room for 20 bytes,
 * any of which it may write: the bytes after the length returned are not
 * kept); returns the length.  The writers' hot path: no printf, no
 * locale. */
size_t hpx_fmt_int(char *buf, int64_t v);
/* ",value" at d, as hpx_fmt_int writes each value, for col[(k - 1) *
 * stride] down to col[(k - n) * stride] (n <= k): a row of a matrix
 * stored by columns, its last value first (room for 21 bytes a value);
 * returns the end. */
char *hpx_fmt_int_fields(char *d, const int64_t *col, size_t stride, size_t k,
                         size_t n);
/* Writes v as printf's "%.6f" would in the C locale (the same bytes,
 * rounding included) and a NUL; returns the length.  Times in the text
 * writers: no printf below 9e12 seconds.  Any double fits in
 * HPX_FIXED6_SIZE bytes (DBL_MAX has 309 digits). */
#define HPX_FIXED6_SIZE 330
size_t hpx_fmt_fixed6(char *buf, double v);
/* A CSV row at d: t as hpx_fmt_fixed6 writes it (without its NUL), the
 * values as hpx_fmt_int_fields writes them, then "\r\n" (room for
 * HPX_FIXED6_SIZE + 21 * n + 2 bytes); returns the end. */
char *hpx_fmt_row(char *d, double t, const int64_t *col, size_t stride,
                  size_t k, size_t n);

/* writebuf.c: buffered output for write/'s text outputs. */
typedef struct writebuf {
  hp2x_write_fn write; /* the caller's sink */
  void *closure;
  char *buf; /* pending bytes; owned until finish */
  size_t used;
  int failed; /* the sink failed; errno kept in saved_errno */
  int saved_errno;
} writebuf;

#define HPX_WRITEBUF_SIZE ((size_t)1 << 16) /* bytes pending at most */

hp2x_status hpx_writebuf_init(writebuf *w, hp2x_write_fn write, void *closure,
                              hp2x_err *err);
void hpx_writebuf_put(writebuf *w, const char *s, size_t n);
/* Room for n <= HPX_WRITEBUF_SIZE bytes at the end of the pending ones
 * (handing those to the sink first when there is not): the writers'
 * hot path formats into it, then counts what it wrote in w->used. */
void hpx_writebuf_flush(writebuf *w);
static inline char *writebuf_room(writebuf *w, size_t n) {
  if (n > HPX_WRITEBUF_SIZE - w->used) hpx_writebuf_flush(w);
  return w->buf + w->used;
}
/* hpx_writebuf_put of the NUL-terminated string s. */
void hpx_writebuf_puts(writebuf *w, const char *s);
/* Flushes and frees; HP2X_E_IO when the sink failed at any point. */
hp2x_status hpx_writebuf_finish(writebuf *w, hp2x_err *err);

#endif
