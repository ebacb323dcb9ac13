/* csv_write.c -- the selected bands as CSV (RFC 4180): a header
 * "time,<band>,..." in the key's order (top of the key first, so OTHER,
 * hp2ps's bottom band, comes last), then one row per complete sample with
 * the time in seconds and each band's value as an integer in VALUE_UNIT.
 */
#include "hp2x_int.h"

#include <string.h>

/* A field is quoted when it holds a comma, quote, CR or LF, or starts or
 * ends with a space (RFC 4180 allows quoting any field). */
static void csv_field(writebuf *o, const char *s) {
  size_t len = strlen(s);
  int quote = len && (s[0] == ' ' || s[len - 1] == ' ');
  for (size_t i = 0; i < len && !quote; i++)
    quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
  if (!quote) {
    writebuf_put(o, s, len);
    return;
  }
  writebuf_put(o, "\"", 1);
  for (const char *q; (q = memchr(s, '"', len)) != NULL;) {
    writebuf_put(o, s, (size_t)(q - s) + 1);
    writebuf_put(o, "\"", 1);
    len -= (size_t)(q - s) + 1;
    s = q + 1;
  }
  writebuf_put(o, s, len);
  writebuf_put(o, "\"", 1);
}

hp2x_status hp2x_write_csv(const hp2x_profile *p, const hp2x_bands *b,
                           hp2x_write_fn write, void *closure,
                           hp2x_err *err) {
  writebuf o;
  if (writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  writebuf_put(&o, "time", 4);
  for (size_t k = b->n_bands; k-- > 0;) {
    writebuf_put(&o, ",", 1);
    csv_field(&o, b->names[k]);
  }
  writebuf_put(&o, "\r\n", 2);
  char num[64];
  for (size_t s = 0; s < b->n_samples && !o.failed; s++) {
    int n = hp2x_fmt(num, sizeof num, "%.6f", p->times[s]);
    writebuf_put(&o, num, (size_t)n);
    for (size_t k = b->n_bands; k-- > 0;) {
      n = hp2x_fmt(num, sizeof num, ",%lld",
                   (long long)b->values[k * b->n_samples + s]);
      writebuf_put(&o, num, (size_t)n);
    }
    writebuf_put(&o, "\r\n", 2);
  }
  return writebuf_finish(&o, err);
}
