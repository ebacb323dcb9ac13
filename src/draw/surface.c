/* surface.c -- the only format-specific part of drawing: the table of
 * picture surfaces (which cairo surface each picture format draws on:
 * PostScript, EPS, PDF, SVG, or an image for PNG; whether it is raster,
 * whether it holds tooltips), the page each gets (its kind from the
 * formats' table, base/format.h) and where hp2ps's 648 x 432 frame lands
 * on it.  HP2X_PAGE_HP2PS keeps hp2ps's rotated frame on a US Letter page
 * (-g: unrotated and unscaled); EPS is scaled to the exact -e width and
 * clipped so cairo's %%BoundingBox is exact; HP2X_PAGE_FRAME (PDF, SVG,
 * PNG) is a landscape page of the frame plus 0.5 in margins (or the -e
 * size).  Bytes go through a sink that records write errors and
 * sets the PS %%CreationDate to the profile's DATE, as hp2ps does (or to
 * SOURCE_DATE_EPOCH when set, which also dates PDFs), and numbers SVG's
 * surface ids in their order and its glyphs by use (svg_glyphs.c),
 * whatever cairo drew before, so the same input always gives the same
 * bytes.
 */
#include "surface.h"
#include "layout.h"
#include "svg_glyphs.h"
#include "base/base.h"
#include "base/format.h"

#include <cairo-pdf.h>
#include <cairo-ps.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MARGIN 36.0

void hpx_surface_page_for(const hp2x_options *o, surface_page *page) {
  const hp2x_format_info *row = hp2x_format_of(o->format);
  int hp2ps_page = row && row->page == HP2X_PAGE_HP2PS;
  page->clip = 0;
  page->slot_dy_pt = 0.0;
  if (o->eps_width_pt > 0.0) {
    double s = o->eps_width_pt / LAYOUT_FRAME_W;
    page->width_pt = (double)(long)(LAYOUT_FRAME_W * s + 0.5);
    page->height_pt = (double)(long)(LAYOUT_FRAME_H * s + 0.5);
    cairo_matrix_init(&page->frame, s, 0, 0, -s, 0, LAYOUT_FRAME_H * s);
    page->clip = 1;
  } else if (hp2ps_page && !o->portrait) {
    /* hp2ps: -90 rotate, -756 72 translate on a portrait page. */
    page->width_pt = 612.0;
    page->height_pt = 792.0;
    cairo_matrix_init(&page->frame, 0, 1, 1, 0, 72.0, 36.0);
  } else if (hp2ps_page) {
    /* hp2ps -g: 72 108 translate, no rotation. */
    page->width_pt = 792.0;
    page->height_pt = 648.0; /* hp2ps -g's page: 11 x 9 in */
    cairo_matrix_init(&page->frame, 1, 0, 0, -1, 72.0, 540.0);
  } else {
    page->width_pt = LAYOUT_FRAME_W + 2 * MARGIN;
    page->height_pt = LAYOUT_FRAME_H + 2 * MARGIN;
    cairo_matrix_init(&page->frame, 1, 0, 0, -1, MARGIN,
                      LAYOUT_FRAME_H + MARGIN);
  }
}

#define STACK_GAP 18.0

void hpx_surface_page_for_stack(const hp2x_options *o, size_t n,
                                surface_page *page) {
  int eps = o->eps_width_pt > 0.0;
  double s = eps ? o->eps_width_pt / LAYOUT_FRAME_W : 1.0;
  double m = eps ? 0.0 : MARGIN;
  double gaps = STACK_GAP * (double)(n ? n - 1 : 0);
  double h = (LAYOUT_FRAME_H * (double)n + gaps) * s;
  page->clip = eps;
  page->width_pt = eps ? (double)(long)(LAYOUT_FRAME_W * s + 0.5)
                       : LAYOUT_FRAME_W + 2 * m;
  page->height_pt = (double)(long)(h + 0.5) + 2 * m;
  cairo_matrix_init(&page->frame, s, 0, 0, -s, m, m + LAYOUT_FRAME_H * s);
  page->slot_dy_pt = (LAYOUT_FRAME_H + STACK_GAP) * s;
}

void hpx_surface_page_to_pixels(const hp2x_options *o, surface_page *page) {
  double s = (o->dpi > 0.0 ? o->dpi : HPX_DEFAULT_DPI) / 72.0;
  cairo_matrix_t scale;
  cairo_matrix_init_scale(&scale, s, s);
  cairo_matrix_multiply(&page->frame, &page->frame, &scale);
  page->width_pt = ceil(page->width_pt * s - 1e-6);
  page->height_pt = ceil(page->height_pt * s - 1e-6);
  page->slot_dy_pt *= s;
}

static void sink_put(surface_sink *s, const unsigned char *d, size_t n) {
  if (s->failed || !n) return;
  if (s->write(s->closure, d, n) != 0) {
    s->failed = 1;
    s->saved_errno = errno ? errno : EIO;
  }
}

/* A byte of a DSC comment or a metadata string: printable ASCII as it is,
 * any other byte '?'. */
static unsigned char dsc_byte(unsigned char c) {
  return hpx_is_plain_ascii(c) ? c : '?';
}

/* Releases the held-back PS header with its CreationDate line replaced. */
static void release_header(surface_sink *s) {
  const char *key = "%%CreationDate: ";
  char *h = s->pending;
  size_t n = s->pending_len;
  char *at = NULL;
  for (size_t i = 0; i + 16 <= n; i++)
    if ((i == 0 || h[i - 1] == '\n') && memcmp(h + i, key, 16) == 0) {
      at = h + i;
      break;
    }
  if (at) {
    char *eol = memchr(at, '\n', n - (size_t)(at - h));
    if (eol) {
      sink_put(s, (const unsigned char *)h, (size_t)(at - h) + 16);
      for (const char *c = s->date; *c; c++) {
        unsigned char ch = dsc_byte((unsigned char)*c);
        sink_put(s, &ch, 1);
      }
      sink_put(s, (const unsigned char *)eol, n - (size_t)(eol - h));
      s->pending_len = 0;
      return;
    }
  }
  sink_put(s, (const unsigned char *)h, n);
  s->pending_len = 0;
}

/* Appends to the held-back bytes; a failed allocation fails the sink. */
static void hold_bytes(surface_sink *s, const unsigned char *d, size_t len) {
  hp2x_err err;
  hp2x_err_init(&err);
  if (hpx_grow((void **)&s->pending, &s->pending_cap, s->pending_len + len, 1,
               &err) != HP2X_OK) {
    s->failed = 1;
    s->saved_errno = ENOMEM;
    return;
  }
  memcpy(s->pending + s->pending_len, d, len);
  s->pending_len += len;
}

/* A PostScript header is held back until its %%EndComments (or 64 KiB
 * without one), so that release_header can rewrite its CreationDate. */
static void hold_ps_header(surface_sink *s, const unsigned char *d,
                           size_t len) {
  hold_bytes(s, d, len);
  if (s->failed) return;
  const char *end = "%%EndComments";
  for (size_t i = 0; i + 13 <= s->pending_len; i++)
    if (memcmp(s->pending + i, end, 13) == 0) {
      s->ps_header = 0;
      release_header(s);
      return;
    }
  if (s->pending_len > 65536) { /* no header after all */
    s->ps_header = 0;
    release_header(s);
  }
}

/* SVG surface ids.  cairo names the page's group and each pattern's
 * drawing "surface" (1.16; "source-" from 1.17.8 on) and the surface's
 * serial, which counts the cairo surfaces made in the process so far: a
 * second render, or one on another thread meanwhile, shows other numbers
 * for the same picture.  The ids an SVG uses are renumbered 1, 2, ... in
 * their order (cairo's serials only grow, so the order is that of the
 * surfaces' making within this render): the bytes depend on the picture
 * alone.  An id is "surface" or "source-" and 1 to 9 digits, after a
 * quote or '#' (id="surface1", xlink:href="#source-5").  cairo 1.18's
 * glyph names are made canonical first (svg_glyphs.c). */
#define MAX_ID_DIGITS 9

/* The serial of the id at d[i] (its "surface"), or 0; *end gets its end. */
static unsigned long svg_id_at(const char *d, size_t n, size_t i, size_t *end) {
  if (i == 0 || (d[i - 1] != '"' && d[i - 1] != '#')) return 0;
  if (n - i < 8 ||
      (memcmp(d + i, "surface", 7) != 0 && memcmp(d + i, "source-", 7) != 0))
    return 0;
  unsigned long v = 0;
  size_t j = i + 7;
  while (j < n && j - (i + 7) <= MAX_ID_DIGITS && d[j] >= '0' && d[j] <= '9')
    v = v * 10 + (unsigned long)(d[j++] - '0');
  if (j == i + 7 || j - (i + 7) > MAX_ID_DIGITS) return 0;
  *end = j;
  return v;
}

static int compare_serials(const void *a, const void *b) {
  unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
  return (x > y) - (x < y);
}

/* Sends d[0..n) with its ids renumbered.  Without memory for the table,
 * the ids stay as cairo wrote them (the same picture). */
static void put_svg_renumbered(surface_sink *s, const char *d, size_t n) {
  size_t count = 0, end;
  for (size_t i = 0; i < n; i++)
    if (d[i] == 's' && svg_id_at(d, n, i, &end)) count++;
  unsigned long *serials = count ? hpx_malloc(count * sizeof *serials) : NULL;
  if (!serials) {
    sink_put(s, (const unsigned char *)d, n);
    return;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (d[i] == 's' && svg_id_at(d, n, i, &end))
      serials[k++] = svg_id_at(d, n, i, &end);
  qsort(serials, count, sizeof *serials, compare_serials);
  size_t distinct = 0;
  for (size_t i = 0; i < count; i++)
    if (!distinct || serials[distinct - 1] != serials[i])
      serials[distinct++] = serials[i];
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned long v = d[i] == 's' ? svg_id_at(d, n, i, &end) : 0;
    if (!v) continue;
    const unsigned long *at =
        bsearch(&v, serials, distinct, sizeof *serials, compare_serials);
    char digits[24];
    int len =
        snprintf(digits, sizeof digits, "%zu", (size_t)(at - serials) + 1);
    sink_put(s, (const unsigned char *)d + from, i + 7 - from);
    sink_put(s, (const unsigned char *)digits, (size_t)len);
    from = end;
    i = end - 1;
  }
  sink_put(s, (const unsigned char *)d + from, n - from);
  hpx_free(serials);
}

/* cairo's write callback: the caller's sink, through the PS header hold,
 * or the whole SVG held (cairo writes it at once, when the surface
 * finishes). */
static cairo_status_t write_to_sink(void *closure, const unsigned char *d,
                                    unsigned int len) {
  surface_sink *s = closure;
  if (s->ps_header)
    hold_ps_header(s, d, len);
  else if (s->svg_hold)
    hold_bytes(s, d, len);
  else
    sink_put(s, d, len);
  return s->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

cairo_status_t hpx_surface_write_png(cairo_surface_t *s, surface_sink *sink) {
  cairo_surface_flush(s);
  return cairo_surface_write_to_png_stream(s, write_to_sink, sink);
}

void hpx_surface_sink_flush(surface_sink *s) {
  if (s->svg_hold) {
    s->svg_hold = 0;
    const char *t = s->pending, *end = NULL;
    for (size_t i = 0; i + 6 <= s->pending_len; i++)
      if (!memcmp(t + i, "</svg>", 6)) end = t + i;
    size_t at = end ? (size_t)(end - t) : s->pending_len, canon_len = 0;
    char *canon = t ? hpx_svg_glyphs_canonical(t, at, &canon_len) : NULL;
    if (canon) put_svg_renumbered(s, canon, canon_len);
    if (t && !canon) put_svg_renumbered(s, t, at);
    hpx_free(canon);
    if (end && s->insert)
      sink_put(s, (const unsigned char *)s->insert, s->insert_len);
    if (t) sink_put(s, (const unsigned char *)t + at, s->pending_len - at);
    s->pending_len = 0;
  }
  if (s->ps_header) {
    s->ps_header = 0;
    release_header(s);
  }
}

void hpx_surface_sink_release(surface_sink *s) {
  hpx_free(s->pending);
  s->pending = NULL;
}

void hpx_surface_source_date(const hp2x_options *o, char *buf, size_t size) {
  buf[0] = '\0';
  if (o->source_date_epoch < 0) return;
  time_t t = (time_t)o->source_date_epoch;
  struct tm tm;
  if (gmtime_r(&t, &tm)) strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* DSC and metadata strings, bounded. */
static void plain_ascii(char *dst, size_t size, const char *s) {
  size_t o = 0;
  for (; *s && o + 1 < size; s++) dst[o++] = (char)dsc_byte((unsigned char)*s);
  dst[o] = '\0';
}

/* The surfaces, one function a picture format: each makes the cairo
 * surface of a page writing through the sink, with the document's title
 * (plain ASCII) in its metadata. */
static cairo_surface_t *pdf_surface(const hp2x_options *o,
                                    const surface_page *page,
                                    surface_sink *sink, const char *title) {
  cairo_surface_t *s = cairo_pdf_surface_create_for_stream(
      write_to_sink, sink, page->width_pt, page->height_pt);
  cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR,
                                 "hp2x " HP2X_VERSION);
  char date[32];
  hpx_surface_source_date(o, date, sizeof date);
  if (date[0]) {
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
  }
  return s;
}

static cairo_surface_t *png_surface(const hp2x_options *o,
                                    const surface_page *page,
                                    surface_sink *sink, const char *title) {
  (void)o, (void)sink, (void)title;
  return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)page->width_pt,
                                    (int)page->height_pt);
}

static cairo_surface_t *svg_surface(const hp2x_options *o,
                                    const surface_page *page,
                                    surface_sink *sink, const char *title) {
  (void)o, (void)title;
  cairo_surface_t *s = cairo_svg_surface_create_for_stream(
      write_to_sink, sink, page->width_pt, page->height_pt);
  cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT);
  sink->svg_hold = 1;
  return s;
}

/* PostScript, Encapsulated when `eps` or when scaled to -e's width. */
static cairo_surface_t *postscript(const hp2x_options *o,
                                   const surface_page *page, surface_sink *sink,
                                   const char *title, int eps) {
  sink->ps_header = 1;
  cairo_surface_t *s = cairo_ps_surface_create_for_stream(
      write_to_sink, sink, page->width_pt, page->height_pt);
  if (eps || o->eps_width_pt > 0.0) cairo_ps_surface_set_eps(s, 1);
  char line[240];
  snprintf(line, sizeof line, "%%%%Title: %s", title);
  cairo_ps_surface_dsc_comment(s, line);
  return s;
}

static cairo_surface_t *ps_surface(const hp2x_options *o,
                                   const surface_page *page, surface_sink *sink,
                                   const char *title) {
  return postscript(o, page, sink, title, 0);
}

static cairo_surface_t *eps_surface(const hp2x_options *o,
                                    const surface_page *page,
                                    surface_sink *sink, const char *title) {
  return postscript(o, page, sink, title, 1);
}

/* The picture formats' surfaces, a row each: X(format, surface function,
 * raster, tooltips) (surface_kind's columns).  A picture format of
 * base/format.h without its row here, or a row for a format that is no
 * picture, does not build. */
#define SURFACE_ROWS(X)                 \
  X(HP2X_FORMAT_PS, ps_surface, 0, 0)   \
  X(HP2X_FORMAT_EPS, eps_surface, 0, 0) \
  X(HP2X_FORMAT_PDF, pdf_surface, 0, 0) \
  X(HP2X_FORMAT_SVG, svg_surface, 0, 1) \
  X(HP2X_FORMAT_PNG, png_surface, 1, 0)
#define SURFACE_ROW(f, make, raster, tips) [f] = {make, raster, tips},
#define SURFACE_BIT(f, ...) | (1u << (f))
static const surface_kind surfaces[] = {SURFACE_ROWS(SURFACE_ROW)};
_Static_assert((0u SURFACE_ROWS(SURFACE_BIT)) == HPX_PICTURE_FORMATS,
               "a surface for every picture format, and for no other");

const surface_kind *hpx_surface_kind_of(hp2x_format f) {
  size_t i = (size_t)f;
  return i < sizeof surfaces / sizeof surfaces[0] && surfaces[i].create
             ? &surfaces[i]
             : NULL;
}

cairo_surface_t *hpx_surface_create(const hp2x_options *o,
                                    const surface_page *page,
                                    surface_sink *sink, const char *title) {
  const surface_kind *kind = hpx_surface_kind_of(o->format);
  char clean[200];
  plain_ascii(clean, sizeof clean, title);
  return kind ? kind->create(o, page, sink, clean)
              : cairo_image_surface_create(CAIRO_FORMAT_INVALID, 0, 0);
}
