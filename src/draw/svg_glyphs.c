/* svg_glyphs.c -- an SVG's glyph names, made to depend on the picture
 * alone.  cairo 1.17.8 and later (Debian 13's 1.18) define each glyph a
 * picture shows as <g id="glyph-F-G"> (font F, glyph G of its subset) and
 * use it by "#glyph-F-G"; which glyph gets which name depends on what the
 * process drew before, so the same picture drawn twice gave other bytes.
 * Here the glyphs are renamed in the order the picture first uses them
 * (fonts by first use, then glyphs within each font), and their
 * definitions put in that order.  cairo 1.16's names ("glyphF-G") are
 * given in order of use already and are left as they are.
 */
#include "svg_glyphs.h"
#include "base/base.h"

#include <stdio.h>
#include <string.h>

#define OPEN "<g id=\"glyph-"
#define OPEN_LEN (sizeof OPEN - 1)
#define USE "#glyph-"
#define USE_LEN (sizeof USE - 1)

typedef struct glyph_def {
  unsigned long font, glyph; /* cairo's name */
  size_t start, body, end;   /* its <g ...>, what follows the tag, past </g> */
  size_t order;              /* its place in the picture's first uses */
  unsigned long new_font, new_glyph;
} glyph_def;

/* "F-G" at d[i], ended by `stop`: *f, *g and the offset past stop; 0 when
 * it is not that. */
static size_t parse_name(const char *d, size_t n, size_t i, char stop,
                         unsigned long *f, unsigned long *g) {
  unsigned long *v[2] = {f, g};
  for (int k = 0; k < 2; k++) {
    size_t from = i;
    *v[k] = 0;
    while (i < n && i - from < 9 && d[i] >= '0' && d[i] <= '9')
      *v[k] = *v[k] * 10 + (unsigned long)(d[i++] - '0');
    if (i == from || i >= n || d[i] != (k == 0 ? '-' : stop)) return 0;
    i++;
  }
  return i;
}

/* The definitions, one after the other from the first OPEN at or after
 * `from`; how many (0: none, or not as cairo writes them). */
static size_t read_defs(const char *d, size_t n, size_t from, glyph_def *defs,
                        size_t max) {
  size_t k = 0, at = from;
  while (k < max && n - at > OPEN_LEN && !memcmp(d + at, OPEN, OPEN_LEN)) {
    glyph_def *g = &defs[k];
    g->start = at;
    g->body = parse_name(d, n, at + OPEN_LEN, '"', &g->font, &g->glyph);
    if (!g->body || g->body >= n || d[g->body] != '>') return 0;
    g->body++;
    size_t e = g->body;
    while (e + 4 <= n && memcmp(d + e, "</g>", 4) && memcmp(d + e, "<g", 2))
      e++;
    if (e + 4 > n || memcmp(d + e, "</g>", 4)) return 0; /* nested <g> */
    e += 4;
    if (e < n && d[e] == '\n') e++;
    g->end = at = e;
    g->order = (size_t)-1;
    k++;
  }
  return k;
}

static glyph_def *find_def(glyph_def *defs, size_t k, unsigned long font,
                           unsigned long glyph) {
  for (size_t i = 0; i < k; i++)
    if (defs[i].font == font && defs[i].glyph == glyph) return &defs[i];
  return NULL;
}

/* Each use of a defined glyph from `from` on gives it its order (first use
 * first; unused ones last, as defined); how many uses there are. */
static size_t order_by_use(const char *d, size_t n, size_t from,
                           glyph_def *defs, size_t k) {
  size_t next = 0, uses = 0;
  unsigned long f, g;
  for (size_t i = from; i + USE_LEN < n; i++) {
    if (d[i] != '#' || memcmp(d + i, USE, USE_LEN)) continue;
    if (!parse_name(d, n, i + USE_LEN, '"', &f, &g)) continue;
    glyph_def *def = find_def(defs, k, f, g);
    if (!def) continue;
    uses++;
    if (def->order == (size_t)-1) def->order = next++;
  }
  for (size_t i = 0; i < k; i++)
    if (defs[i].order == (size_t)-1) defs[i].order = next++;
  return uses;
}

/* New names: fonts numbered by their first glyph's order, glyphs within
 * each font by order; sorted[] gets the definitions in that order. */
static void rename_all(glyph_def *defs, size_t k, glyph_def **sorted,
                       unsigned long *font_of, unsigned long *count) {
  size_t fonts = 0;
  for (size_t i = 0; i < k; i++) sorted[defs[i].order] = &defs[i];
  for (size_t i = 0; i < k; i++) {
    glyph_def *g = sorted[i];
    size_t f = 0;
    while (f < fonts && font_of[f] != g->font) f++;
    if (f == fonts) {
      font_of[fonts] = g->font;
      count[fonts++] = 0;
    }
    g->new_font = f;
    g->new_glyph = count[f]++;
  }
}

/* d with the glyphs renamed into out (cap bytes, room enough); its
 * length. */
static size_t write_canonical(const char *d, size_t n, glyph_def *defs,
                              size_t k, glyph_def **sorted, char *out,
                              size_t cap) {
  size_t len = defs[0].start, from = defs[k - 1].end;
  memcpy(out, d, len);
  for (size_t i = 0; i < k; i++) {
    const glyph_def *g = sorted[i];
    len += (size_t)snprintf(out + len, cap - len, OPEN "%lu-%lu\">",
                            g->new_font, g->new_glyph);
    memcpy(out + len, d + g->body, g->end - g->body);
    len += g->end - g->body;
  }
  unsigned long f, gl;
  for (size_t i = from; i < n; i++) {
    size_t past = 0;
    if (d[i] == '#' && i + USE_LEN < n && !memcmp(d + i, USE, USE_LEN))
      past = parse_name(d, n, i + USE_LEN, '"', &f, &gl);
    const glyph_def *g = past ? find_def(defs, k, f, gl) : NULL;
    if (!g) continue;
    memcpy(out + len, d + from, i - from);
    len += i - from;
    len += (size_t)snprintf(out + len, cap - len, USE "%lu-%lu\"", g->new_font,
                            g->new_glyph);
    from = i = past;
    i--;
  }
  memcpy(out + len, d + from, n - from);
  return len + n - from;
}

char *hpx_svg_glyphs_canonical(const char *d, size_t n, size_t *out_len) {
  const char *first = NULL;
  for (size_t i = 0; !first && i + OPEN_LEN <= n; i++)
    if (d[i] == '<' && !memcmp(d + i, OPEN, OPEN_LEN)) first = d + i;
  if (!first) return NULL;
  size_t max = 0; /* at most one definition per OPEN */
  for (const char *p = first; p + OPEN_LEN <= d + n; p++)
    if (*p == '<' && !memcmp(p, OPEN, OPEN_LEN)) max++;
  glyph_def *defs = hpx_malloc(max * sizeof *defs);
  glyph_def **sorted = hpx_malloc(max * sizeof *sorted);
  unsigned long *fonts = hpx_malloc(2 * max * sizeof *fonts);
  char *out = NULL;
  size_t k = defs && sorted && fonts
                 ? read_defs(d, n, (size_t)(first - d), defs, max)
                 : 0;
  if (k) {
    size_t uses = order_by_use(d, n, defs[k - 1].end, defs, k);
    rename_all(defs, k, sorted, fonts, fonts + max);
    /* a new name is at most 2 x 20 digits longer than the old one */
    size_t cap = n + (k + uses) * 40 + 1;
    out = hpx_malloc(cap);
    if (out) *out_len = write_canonical(d, n, defs, k, sorted, out, cap);
  }
  hpx_free(defs);
  hpx_free(sorted);
  hpx_free(fonts);
  return out;
}
