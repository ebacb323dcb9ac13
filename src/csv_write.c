/* csv_write.c -- the selected bands as CSV (RFC 4180): a header
 * "time,<band>,..." in the key's order (top of the key first, so OTHER,
 * hp2ps's bottom band, comes last), then one row per complete sample with
 * the time in seconds and each band's value as an integer in VALUE_UNIT.
 */
#include "hp2x_int.h"

#include <errno.h>
#include <string.h>

enum { CSV_BUF = 1 << 16 };

typedef struct csv_out {
  hp2x_write_fn write;
  void *closure;
  char *buf;      /* pending bytes; owned by the caller of csv_* */
  size_t used;
  int failed;     /* the sink failed; errno kept in saved_errno */
  int saved_errno;
} csv_out;

static void csv_flush(csv_out *o) {
  if (!o->failed && o->used && o->write(o->closure, o->buf, o->used) != 0) {
    o->failed = 1;
    o->saved_errno = errno;
  }
  o->used = 0;
}

static void csv_put(csv_out *o, const char *s, size_t len) {
  while (len) {
    if (o->used == CSV_BUF) csv_flush(o);
    size_t room = CSV_BUF - o->used;
    size_t n = len < room ? len : room;
    memcpy(o->buf + o->used, s, n);
    o->used += n;
    s += n;
    len -= n;
  }
}

/* A field is quoted when it holds a comma, quote, CR or LF, or starts or
 * ends with a space (RFC 4180 allows quoting any field). */
static void csv_field(csv_out *o, const char *s) {
  size_t len = strlen(s);
  int quote = len && (s[0] == ' ' || s[len - 1] == ' ');
  for (size_t i = 0; i < len && !quote; i++)
    quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
  if (!quote) {
    csv_put(o, s, len);
    return;
  }
  csv_put(o, "\"", 1);
  for (const char *q; (q = memchr(s, '"', len)) != NULL;) {
    csv_put(o, s, (size_t)(q - s) + 1);
    csv_put(o, "\"", 1);
    len -= (size_t)(q - s) + 1;
    s = q + 1;
  }
  csv_put(o, s, len);
  csv_put(o, "\"", 1);
}

hp2x_status hp2x_write_csv(const hp2x_profile *p, const hp2x_bands *b,
                           hp2x_write_fn write, void *closure,
                           hp2x_err *err) {
  csv_out o = {write, closure, hp2x_malloc(CSV_BUF), 0, 0, 0};
  if (!o.buf) return hp2x_nomem(err);
  csv_put(&o, "time", 4);
  for (size_t k = b->n_bands; k-- > 0;) {
    csv_put(&o, ",", 1);
    csv_field(&o, b->names[k]);
  }
  csv_put(&o, "\r\n", 2);
  char num[64];
  for (size_t s = 0; s < b->n_samples && !o.failed; s++) {
    int n = hp2x_fmt(num, sizeof num, "%.6f", p->times[s]);
    csv_put(&o, num, (size_t)n);
    for (size_t k = b->n_bands; k-- > 0;) {
      n = hp2x_fmt(num, sizeof num, ",%lld",
                   (long long)b->values[k * b->n_samples + s]);
      csv_put(&o, num, (size_t)n);
    }
    csv_put(&o, "\r\n", 2);
  }
  csv_flush(&o);
  hp2x_free(o.buf);
  if (o.failed)
    return hp2x_fail(err, HP2X_E_IO, 0, -1, "write failed: %s",
                     strerror(o.saved_errno));
  return HP2X_OK;
}
