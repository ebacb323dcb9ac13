/* html_svg.c -- the report's pictures, as they go into the page: the PNG in
 * base64, and cairo's SVG (hpx_render_page) without its XML declaration, with
 * an id, and each glyph placed on the whole pixel where cairo's image surface
 * puts it in a PNG (cairo rounds a glyph's origin to the nearest pixel there,
 * and not in SVG), so that the page and the PNG at 96 dpi show the same text.
 * Numbers are read here, not by strtod: no locale.
 */
#include "html_int.h"

#include <math.h>
#include <string.h>

/* Reads cairo's "-12.345678" at s (no exponent); sets *end past it.
 * 0 when s holds no number. */
static int read_num(const char *s, const char **end, double *v) {
  const char *c = s;
  int neg = *c == '-';
  if (neg) c++;
  double whole = 0.0, scale = 1.0;
  int digits = 0;
  for (; *c >= '0' && *c <= '9'; c++, digits++)
    whole = whole * 10.0 + (*c - '0');
  if (*c == '.')
    for (c++; *c >= '0' && *c <= '9'; c++, digits++)
      whole += (*c - '0') * (scale /= 10.0);
  *end = c;
  *v = neg ? -whole : whole;
  return digits > 0;
}

/* The glyph <use .../> element [s, e): its x="" and y="" rounded to
 * whole pixels (halves up, as cairo's _cairo_lround). */
static void put_glyph_use(writebuf *w, const char *s, const char *e) {
  while (s < e) {
    const char *q = NULL;
    for (const char *c = s; c + 3 < e && !q; c++)
      if ((c[0] == 'x' || c[0] == 'y') && c[-1] == ' ' && c[1] == '=' &&
          c[2] == '"')
        q = c + 3;
    const char *end;
    double v;
    if (!q || !read_num(q, &end, &v) || *end != '"') {
      hpx_writebuf_put(w, s, (size_t)(e - s));
      return;
    }
    hpx_writebuf_put(w, s, (size_t)(q - s));
    char num[32];
    hpx_fmt(num, sizeof num, "%.0f", floor(v + 0.5) + 0.0);
    hpx_writebuf_puts(w, num);
    s = end;
  }
}

void hpx_html_write_svg(writebuf *w, const char *svg) {
  const char *s = svg ? strstr(svg, "<svg") : NULL;
  if (!s) return;
  hpx_writebuf_puts(w, "<svg id=\"hp2x-picture\"");
  s += 4;
  static const char glyph[] = "<use xlink:href=\"#glyph";
  for (const char *g; (g = strstr(s, glyph)) != NULL;) {
    const char *e = strstr(g, "/>");
    if (!e) break;
    hpx_writebuf_put(w, s, (size_t)(g - s));
    put_glyph_use(w, g, e);
    s = e;
  }
  hpx_writebuf_puts(w, s);
}

void hpx_html_write_base64(writebuf *w, const unsigned char *d, size_t n) {
  static const char digits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char out[4 * 256];
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)d[i] << 16;
    if (i + 1 < n) v |= (unsigned)d[i + 1] << 8;
    if (i + 2 < n) v |= d[i + 2];
    out[o++] = digits[v >> 18 & 63];
    out[o++] = digits[v >> 12 & 63];
    out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
    out[o++] = i + 2 < n ? digits[v & 63] : '=';
    if (o == sizeof out) {
      hpx_writebuf_put(w, out, o);
      o = 0;
    }
  }
  hpx_writebuf_put(w, out, o);
}
