/* render_int.h -- private to the render_*.c files: the drawing context
 * they share (render_ctx), the measures of the picture's strokes and key,
 * and the functions each file gives the others.  render.c owns the
 * context's life and the pages; render_fonts.c the pinned fonts;
 * render_text.c text; render_tips.c the SVG tooltips; render_axes.c the
 * frame, title and axes; render_bands.c the bands; render_key.c the key;
 * render_marks.c the --heap lines and the marks. */
#ifndef HPX_RENDER_INT_H
#define HPX_RENDER_INT_H

#include "display_text.h"
#include "layout.h"
#include "look.h"
#include "select/thin.h"
#include "select/band_walk.h"
#include "select/bands_int.h"
#include "surface.h"

#include <pango/pangocairo.h>

#ifndef M_PI /* XSI, not C11 or POSIX's base: absent under PORTABLE=1 */
#define M_PI 3.14159265358979323846
#endif

/* The looks the render files share (look.h). */
#define FONT_FAMILY (hpx_look.font_family)
#define LINE_W (hpx_look.line_w)
#define TICK_LEN (hpx_look.tick_len)
#define KEY_BOX (hpx_look.key_box)

/* The look's ink (outlines, ticks, marks) and paper (what marks sit on)
 * as cr's source. */
static inline void render_ink(cairo_t *cr) {
  cairo_set_source_rgb(cr, hpx_look.ink[0], hpx_look.ink[1], hpx_look.ink[2]);
}
static inline void render_paper(cairo_t *cr) {
  cairo_set_source_rgb(cr, hpx_look.paper[0], hpx_look.paper[1],
                       hpx_look.paper[2]);
}

typedef struct render_ctx {
  cairo_t *cr;
  PangoContext *pango;        /* owned */
  PangoLayout *text;          /* reused for every string; owned */
  PangoFontDescription *font; /* owned */
  int nomem;                  /* an allocation failed while drawing */
  int colour;                 /* shades are colour encodings */
  int pattern;                /* --pattern: hatching over light greys */
  cairo_pattern_t *hatch[8];  /* --pattern tiles, made on first use; owned */
  cairo_matrix_t upright;     /* user -> device for upright text (the
                                 frame's, y flipped): text is measured
                                 under it, so measuring and drawing share
                                 cairo's scaled fonts and load each glyph
                                 once */
  int tips;                   /* SVG: collect band tooltips */
  /* the HTML report's picture (page.h): what the page redraws is left out, and
   * where things lie goes here; borrowed; NULL for a picture */
  struct hpx_page_geometry *page;
  int measure_only; /* the report's picture's geometry alone: nothing drawn
                       (a recording surface), the title left out */
  char *tip;        /* the tooltip group's text; owned */
  size_t tip_len, tip_cap;
} render_ctx;

/* ----------------------------------------------------- render_fonts.c */
/* One fonts.conf's fontconfig configuration and its pool of font maps. */
typedef struct font_entry font_entry;

/* A font map for fonts_conf that no other render holds: an idle one, or a
 * new one.  NULL with err set when there is none.  Give it back with
 * hpx_render_release_font_map. */
PangoFontMap *hpx_render_take_font_map(const char *fonts_conf,
                                       int process_default, font_entry **entry,
                                       hp2x_err *err);
/* Gives a font map from hpx_render_take_font_map back to e's pool (or frees
 * it when the pool is full).  NULL map: nothing. */
void hpx_render_release_font_map(font_entry *e, PangoFontMap *map);
/* A pango context on map, with the options text is drawn with. */
PangoContext *hpx_render_new_text_context(PangoFontMap *map);

/* ------------------------------------------------------ render_text.c */
enum align { LEFT, CENTRE, RIGHT };

/* Prepares r->text for `s` at `size_pt`; max_w > 0 ellipsizes in the
 * middle.  0 (r->nomem set) when out of memory. */
int hpx_render_set_text(render_ctx *r, const char *s, size_t len,
                        double size_pt, double max_w);
/* The logical width of r->text, points. */
double hpx_render_text_width(render_ctx *r);
/* Text matrix for what follows: the current transformation of r->cr. */
void hpx_render_text_matrix_from_cr(render_ctx *r);
/* Width of upright text (a layout_measure_fn; ctx is the render_ctx). */
double hpx_render_measure(void *ctx, const char *s, size_t len, double size_pt);
/* Draws text with its baseline at frame point (x, y); `up` turns it to
 * read upwards (the y legend).  Returns its width. */
double hpx_render_draw_text(render_ctx *r, double x, double y, const char *s,
                            size_t len, double size_pt, enum align a,
                            double max_w, int up);

/* ------------------------------------------------------ render_tips.c */
/* Appends s to the tooltip group (r->nomem when out of memory). */
void hpx_render_tip_str(render_ctx *r, const char *s);
/* Band k's tooltip path: its upper edge `top` forwards, then its lower
 * edge (from w) backwards. */
hp2x_status hpx_render_tip_band(render_ctx *r, band_walk *w,
                                const band_frame *f, const band_edge *top,
                                size_t k, hp2x_err *err);
/* The current path (kept) as a tooltip path of band k. */
void hpx_render_tip_path(render_ctx *r, const hp2x_profile *p,
                         const hp2x_bands *b, size_t k);
/* Band k's key box as a tooltip path: key column at kx, centre line c. */
void hpx_render_tip_key_box(render_ctx *r, const hp2x_profile *p,
                            const hp2x_bands *b, const layout *l, size_t k,
                            double kx, double c);

/* ------------------------------------------------------ render_page.c */
/* Fills r->page from layout l of p's picture with bands b, drawn with
 * band fills `shade` and frame matrix `frame`.  HP2X_E_NOMEM. */
hp2x_status hpx_render_page_geometry(render_ctx *r, const hp2x_profile *p,
                                     const hp2x_bands *b, const layout *l,
                                     const double *shade,
                                     const cairo_matrix_t *frame,
                                     hp2x_err *err);

/* ------------------------------------------------------ render_axes.c */
/* The frame's border and the title box. */
void hpx_render_draw_frame(render_ctx *r, const hp2x_profile *p,
                           const hp2x_bands *b, const layout *l);
/* Fills r->page's title area text and where it goes. */
void hpx_render_page_area(render_ctx *r, const hp2x_profile *p,
                          const hp2x_bands *b, const layout *l);
/* The axes, their ticks, tick labels and units. */
void hpx_render_draw_axes(render_ctx *r, const hp2x_profile *p,
                          const layout *l);

/* ----------------------------------------------------- render_bands.c */
/* Strokes the current path black, LINE_W wide (as a fill, on a context
 * given to hpx_render_fill_strokes). */
void hpx_render_stroke_black(cairo_t *cr);
/* Makes hpx_render_stroke_black fill its strokes on cr: the report's
 * picture, which a browser draws. */
void hpx_render_fill_strokes(cairo_t *cr);
/* Fills the current path (kept) as band k with `shade`. */
void hpx_render_fill_band(render_ctx *r, double shade, size_t k);
/* Band k's fill colour (under --pattern, its hatching's background). */
void hpx_render_band_rgb(const render_ctx *r, double shade, size_t k,
                         double rgb[3]);
/* The path (new) of the polygon between curves lo and hi (points above
 * the graph's origin) at x (points), each curve thinned to `columns`;
 * keep has room for N. */
void hpx_render_band_polygon(render_ctx *r, const layout *l, const double *x,
                             const double *lo, const double *hi, size_t N,
                             size_t columns, size_t *keep);
/* The bands of b (stacked, or a diff chart's signed ones), thinned to
 * `columns` unless all_samples. */
hp2x_status hpx_render_draw_bands(render_ctx *r, const hp2x_profile *p,
                                  const hp2x_bands *b, const layout *l,
                                  const double *shade, size_t columns,
                                  int all_samples, hp2x_err *err);

/* --------------------------------------------------- render_charts.c */
/* The bands of b as the chart kind of l->axis (percent, streamgraph or
 * lines; not stacked), thinned to `columns`. */
hp2x_status hpx_render_draw_chart(render_ctx *r, const hp2x_profile *p,
                                  const hp2x_bands *b, const layout *l,
                                  const double *shade, size_t columns,
                                  hp2x_err *err);
/* Strokes the current path as band k's line on a lines chart: its colour
 * over a black casing (so a white or pale band shows), or under --pattern
 * black, dashed by k. */
void hpx_render_stroke_chart_line(render_ctx *r, double shade, size_t k);

/* ------------------------------------------------------- render_key.c */
/* Key page pg's entries (multi-page output). */
void hpx_render_draw_key_page(render_ctx *r, const hp2x_profile *p,
                              const hp2x_bands *b, const layout *l,
                              const double *shade, int pg);
/* The key beside the graph: the bands' entries, then the --heap lines'. */
void hpx_render_draw_key_beside(render_ctx *r, const hp2x_profile *p,
                                const hp2x_bands *b, const layout *l,
                                const double *shade);

/* ----------------------------------------------------- render_marks.c */
/* Sets cr's source, width and dash for --heap line `style` (0..2). */
void hpx_render_line_style(cairo_t *cr, int style);
/* The --heap lines over the bands, clipped to the graph. */
hp2x_status hpx_render_draw_heap_lines(render_ctx *r, const hp2x_bands *b,
                                       const layout *l, size_t columns,
                                       hp2x_err *err);
/* Marks: triangles under the x axis, dashed lines, labels. */
void hpx_render_draw_marks(render_ctx *r, const hp2x_profile *p,
                           const hp2x_bands *b, const layout *l);

#endif
