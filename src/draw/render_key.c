/* render_key.c -- the key: an entry per band (its box and its name,
 * shortened to fit by key_names.c) and per --heap line, beside the graph
 * or on key pages of their own.
 */
#include "render_int.h"
#include "key_names.h"
#include "page.h"

#include <string.h>

/* Key text at (x, y), at most max_w wide: key_names.c made it fit
 * (pango cuts it only where no shortening could). */
static void draw_key_name(render_ctx *r, double x, double y, const char *name,
                          double max_w) {
  hpx_render_draw_text(r, x, y, name, strlen(name), hpx_look.text_pt, LEFT,
                       max_w, 0);
}

/* One key entry, as hp2ps draws it: the band's shaded 14 pt box (on a
 * lines chart, a stretch of the band's line across it), then its name, on
 * centre line c. */
static void draw_key_entry(render_ctx *r, const layout *l, double kstart,
                           double c, const char *name, double shade, size_t k,
                           double max_w) {
  cairo_t *cr = r->cr;
  const draw_look *look = &hpx_look;
  double x = kstart + look->key_box_dx;
  if (l->axis.kind == HP2X_CHART_LINES) {
    cairo_move_to(cr, x, c);
    cairo_line_to(cr, x + KEY_BOX, c);
    hpx_render_stroke_chart_line(r, shade, k);
  } else {
    cairo_rectangle(cr, x, c - KEY_BOX / 2, KEY_BOX, KEY_BOX);
    hpx_render_fill_band(r, shade, k);
    hpx_render_stroke_black(cr);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_key_name(r, kstart + look->key_text_dx, c - look->text_pt / 2, name,
                max_w);
}

/* A --heap line's key entry: a stretch of the line and its name. */
static void draw_key_line(render_ctx *r, double kstart, double c,
                          const layout_line *line, double max_w) {
  cairo_t *cr = r->cr;
  const draw_look *look = &hpx_look;
  cairo_save(cr);
  cairo_move_to(cr, kstart + look->key_box_dx, c);
  cairo_line_to(cr, kstart + look->key_box_dx + KEY_BOX, c);
  hpx_render_line_style(cr, line->style);
  cairo_stroke(cr);
  cairo_restore(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_key_name(r, kstart + look->key_text_dx, c - look->text_pt / 2,
                line->name, max_w);
}

/* The key's names of b's bands (key_names.c); NULL with r->nomem set
 * when out of memory. */
static char **key_names(render_ctx *r, const hp2x_profile *p,
                        const hp2x_bands *b, const layout *l, double max_w) {
  char **names = hpx_key_names(b, (const char *const *)l->key_texts,
                               (int)hp2x_profile_breakdown(p), max_w,
                               hpx_render_measure, r);
  if (!names) r->nomem = 1;
  return names;
}

/* Key page pg's entries (multi-page output): LAYOUT_KEY_PER_PAGE bands a
 * page, in the key column at the graph's left. */
void hpx_render_draw_key_page(render_ctx *r, const hp2x_profile *p,
                              const hp2x_bands *b, const layout *l,
                              const double *shade, int pg) {
  size_t nb = b->n_bands;
  char **names = key_names(r, p, b, l, l->key_label_max_w);
  if (!names) return;
  for (size_t k = (size_t)pg * LAYOUT_KEY_PER_PAGE;
       k < nb && k < (size_t)(pg + 1) * LAYOUT_KEY_PER_PAGE; k++)
    draw_key_entry(r, l, 45.0, hpx_layout_key_centre(l, k, nb, 1), names[k],
                   shade[k], k, l->key_label_max_w);
  hpx_key_names_free(names, nb);
}

/* The key beside the graph: the bands' entries, then the --heap lines'
 * above them; for the report's page (which draws the key: a new band set
 * in a live page moves it) only the bands' names, kept in r->page. */
void hpx_render_draw_key_beside(render_ctx *r, const hp2x_profile *p,
                                const hp2x_bands *b, const layout *l,
                                const double *shade) {
  size_t nb = b->n_bands, nk = nb + l->n_lines;
  double kx = l->graph_x0 + l->graph_w;
  char **names = key_names(r, p, b, l, l->key_label_max_w);
  if (!names) return;
  if (r->page) { /* the report's page draws the key itself */
    r->page->key_name = names;
    r->page->n_key_names = nb;
    return;
  }
  for (size_t k = 0; k < nb; k++) {
    double c = hpx_layout_key_centre(l, k, nk, 0);
    draw_key_entry(r, l, kx, c, names[k], shade[k], k, l->key_label_max_w);
    if (r->tips && !b->is_signed) hpx_render_tip_key_box(r, p, b, l, k, kx, c);
  }
  hpx_key_names_free(names, nb);
  for (size_t k = 0; k < l->n_lines; k++)
    draw_key_line(r, kx, hpx_layout_key_centre(l, nb + k, nk, 0), &l->lines[k],
                  l->key_label_max_w);
}
