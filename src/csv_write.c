/* csv_write.c -- the selected bands as CSV (RFC 4180): a header
 * "time,<band>,..." in the key's order (top of the key first, so OTHER,
 * hp2ps's bottom band, comes last), then one row per complete sample with
 * the time in seconds and each band's value as an integer in VALUE_UNIT.
 * Several profiles with one selection go in one file, each row starting
 * with the name of its input.
 */
#include "bands_int.h"
#include "textout.h"

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
  char num[HP2X_FIXED6_SIZE];
  for (size_t s = 0; s < b->n_samples && !o.failed; s++) {
    writebuf_put(&o, num, hp2x_fmt_fixed6(num, p->times[s]));
    for (size_t k = b->n_bands; k-- > 0;) {
      num[0] = ',';
      writebuf_put(&o, num,
                   1 + hp2x_fmt_int(num + 1, b->values[k * b->stride + s]));
    }
    writebuf_put(&o, "\r\n", 2);
  }
  return writebuf_finish(&o, err);
}

hp2x_status hp2x_write_csv_many(const hp2x_profile *const *ps,
                                const hp2x_bands *const *bs,
                                const char *const *names, size_t n,
                                hp2x_write_fn write, void *closure,
                                hp2x_err *err) {
  if (n == 0)
    return hp2x_fail(err, HP2X_E_ARG, 0, -1, "no profiles to write");
  for (size_t i = 1; i < n; i++) {
    int same = bs[i]->n_bands == bs[0]->n_bands;
    for (size_t k = 0; same && k < bs[0]->n_bands; k++)
      same = strcmp(bs[i]->names[k], bs[0]->names[k]) == 0;
    if (!same)
      return hp2x_fail(err, HP2X_E_ARG, 0, -1,
                       "profile %zu has other bands than the first: select "
                       "them together",
                       i + 1);
  }
  writebuf o;
  if (writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  writebuf_put(&o, "input,time", 10);
  for (size_t k = bs[0]->n_bands; k-- > 0;) {
    writebuf_put(&o, ",", 1);
    csv_field(&o, bs[0]->names[k]);
  }
  writebuf_put(&o, "\r\n", 2);
  char num[HP2X_FIXED6_SIZE + 1];
  for (size_t i = 0; i < n; i++) {
    const hp2x_bands *b = bs[i];
    for (size_t s = 0; s < b->n_samples && !o.failed; s++) {
      csv_field(&o, names[i]);
      num[0] = ',';
      writebuf_put(&o, num, 1 + hp2x_fmt_fixed6(num + 1, ps[i]->times[s]));
      for (size_t k = b->n_bands; k-- > 0;) {
        num[0] = ',';
        writebuf_put(&o, num, 1 + hp2x_fmt_int(num + 1,
                                               b->values[k * b->stride + s]));
      }
      writebuf_put(&o, "\r\n", 2);
    }
  }
  return writebuf_finish(&o, err);
}
