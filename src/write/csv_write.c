/* csv_write.c -- the selected bands as CSV (RFC 4180): a header
 * "time,<band>,..." in the key's order (top of the key first, so OTHER,
 * hp2ps's bottom band, comes last), then one row per complete sample with
 * the time in seconds and each band's value as an integer in VALUE_UNIT.
 * Several profiles with one selection go in one file, each row starting
 * with the name of its input.
 */
#include "select/bands_int.h"
#include "base/textout.h"

#include <string.h>

/* Writes the bytes of parts[0..n) as one field.  A field is quoted when
 * it holds a comma, quote, CR or LF, or starts or ends with a space (RFC
 * 4180 allows quoting any field). */
static void put_csv_parts(writebuf *o, const char *const *parts, size_t n) {
  const char *first = n ? parts[0] : "", *last = n ? parts[n - 1] : "";
  size_t last_len = strlen(last);
  int quote = first[0] == ' ' || (last_len && last[last_len - 1] == ' ');
  for (size_t i = 0; i < n && !quote; i++)
    quote = strpbrk(parts[i], ",\"\r\n") != NULL;
  if (!quote) {
    for (size_t i = 0; i < n; i++) hpx_writebuf_puts(o, parts[i]);
    return;
  }
  hpx_writebuf_put(o, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    const char *s = parts[i];
    size_t len = strlen(s);
    for (const char *q; (q = memchr(s, '"', len)) != NULL;) {
      hpx_writebuf_put(o, s, (size_t)(q - s) + 1);
      hpx_writebuf_put(o, "\"", 1);
      len -= (size_t)(q - s) + 1;
      s = q + 1;
    }
    hpx_writebuf_put(o, s, len);
  }
  hpx_writebuf_put(o, "\"", 1);
}

static void put_csv_field(writebuf *o, const char *s) {
  put_csv_parts(o, &s, 1);
}

/* The header row: `first` ("time" or "input,time"), then the band names
 * from the top of the key down, each followed by "; " and what it leaves
 * out when it does (a -hi band's whole IPE record). */
static void put_header_row(writebuf *o, const char *first,
                           const hp2x_bands *b) {
  hpx_writebuf_puts(o, first);
  for (size_t k = b->n_bands; k-- > 0;) {
    hpx_writebuf_put(o, ",", 1);
    const char *detail = b->texts ? b->texts[k].detail : NULL;
    const char *parts[3] = {b->names[k], "; ", detail};
    put_csv_parts(o, parts, detail ? 3 : 1);
  }
  hpx_writebuf_put(o, "\r\n", 2);
}

/* ",value" for each band at sample s, from the top of the key down, and
 * the row's end: formatted in place, a few hundred bands at a time. */
static void put_band_values(writebuf *o, const hp2x_bands *b, size_t s) {
  enum { NUM = 21, AT_ONCE = 256 }; /* ',' and an int64; bands per room */
  for (size_t k = b->n_bands; k > 0;) {
    size_t n = k < AT_ONCE ? k : AT_ONCE;
    char *d = writebuf_room(o, n * NUM + 2), *p = d;
    for (; n > 0; n--) {
      k--;
      *p++ = ',';
      p += hpx_fmt_int(p, b->values[k * b->stride + s]);
    }
    o->used += (size_t)(p - d);
  }
  hpx_writebuf_put(o, "\r\n", 2);
}

hp2x_status hp2x_write_csv(const hp2x_profile *p, const hp2x_bands *b,
                           hp2x_write_fn write, void *closure, hp2x_err *err) {
  writebuf o;
  if (hpx_writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  put_header_row(&o, "time", b);
  char num[HPX_FIXED6_SIZE];
  for (size_t s = 0; s < b->n_samples && !o.failed; s++) {
    hpx_writebuf_put(&o, num, hpx_fmt_fixed6(num, p->times[s]));
    put_band_values(&o, b, s);
  }
  return hpx_writebuf_finish(&o, err);
}

/* Do a and b have the same bands, by name, in the same order? */
static int same_bands(const hp2x_bands *a, const hp2x_bands *b) {
  if (a->n_bands != b->n_bands) return 0;
  for (size_t k = 0; k < a->n_bands; k++)
    if (strcmp(a->names[k], b->names[k]) != 0) return 0;
  return 1;
}

hp2x_status hp2x_write_csv_many(const hp2x_profile *const *ps,
                                const hp2x_bands *const *bs,
                                const char *const *names, size_t n,
                                hp2x_write_fn write, void *closure,
                                hp2x_err *err) {
  if (n == 0) return hpx_fail(err, HP2X_E_ARG, 0, -1, "no profiles to write");
  for (size_t i = 1; i < n; i++)
    if (!same_bands(bs[i], bs[0]))
      return hpx_fail(err, HP2X_E_ARG, 0, -1,
                      "profile %zu has other bands than the first: select "
                      "them together",
                      i + 1);
  writebuf o;
  if (hpx_writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  put_header_row(&o, "input,time", bs[0]);
  char num[HPX_FIXED6_SIZE + 1];
  for (size_t i = 0; i < n; i++) {
    const hp2x_bands *b = bs[i];
    for (size_t s = 0; s < b->n_samples && !o.failed; s++) {
      put_csv_field(&o, names[i]);
      num[0] = ',';
      hpx_writebuf_put(&o, num, 1 + hpx_fmt_fixed6(num + 1, ps[i]->times[s]));
      put_band_values(&o, b, s);
    }
  }
  return hpx_writebuf_finish(&o, err);
}
