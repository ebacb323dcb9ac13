/* render_key.c -- the key: an entry per band (its box and name, cut to
 * fit) and per --heap line, beside the graph or on key pages of their
 * own.
 */
#include "render_int.h"

#include <string.h>

#define MIN_CUT_MIDDLE_W 55.0 /* points at 10 pt: "in abcd…wxyz" */

/* Key text at (x, y), at most max_w wide.  A name that does not fit is
 * cut in the middle; one with kept ends (t, a -hi band's: what it is and
 * its source location) keeps them whole and cuts what lies between (its
 * binding), or leaves that out where even a cut one has no room.  Only
 * when the kept ends alone do not fit is the whole name cut. */
static void draw_key_name(render_ctx *r, double x, double y, const char *name,
                          const label_text *t, double max_w) {
  size_t n = strlen(name);
  size_t head = t ? t->keep_head : 0, tail = t ? t->keep_tail : 0;
  if (head + tail > n) head = tail = 0;
  if ((!head && !tail) || hpx_render_measure(r, name, n, 10.0) <= max_w) {
    hpx_render_draw_text(r, x, y, name, n, 10.0, LEFT, max_w, 0);
    return;
  }
  size_t m0 = head, m1 = n - tail; /* the middle, without its spaces */
  while (m0 < m1 && name[m0] == ' ') m0++;
  while (m1 > m0 && name[m1 - 1] == ' ') m1--;
  double space = hpx_render_measure(r, " ", 1, 10.0);
  double hw = head ? hpx_render_measure(r, name, head, 10.0) : 0.0;
  double tw = tail ? hpx_render_measure(r, name + n - tail, tail, 10.0) : 0.0;
  double gaps = (head && tail) ? space : 0.0;
  if (hw + tw + gaps > max_w) {
    hpx_render_draw_text(r, x, y, name, n, 10.0, LEFT, max_w, 0);
    return;
  }
  double at = x;
  if (head)
    at += hpx_render_draw_text(r, at, y, name, head, 10.0, LEFT, 0, 0) + space;
  double room = max_w - hw - tw - (head ? space : 0.0) - (tail ? space : 0.0);
  /* a cut middle keeps most of itself, or ten characters or so around
   * its "…"; less reads worse than none */
  double mid_w =
      m1 > m0 ? hpx_render_measure(r, name + m0, m1 - m0, 10.0) : 0.0;
  if (m1 > m0 && (room >= 0.6 * mid_w || room >= MIN_CUT_MIDDLE_W))
    at += hpx_render_draw_text(r, at, y, name + m0, m1 - m0, 10.0, LEFT, room,
                               0) +
          space;
  if (tail)
    hpx_render_draw_text(r, at, y, name + n - tail, tail, 10.0, LEFT, 0, 0);
}

/* One key entry, as hp2ps draws it: the band's shaded 14 pt box, then its
 * name, on centre line c. */
static void draw_key_entry(render_ctx *r, double kstart, double c,
                           const char *name, const label_text *t,
                           double shade, size_t k, double max_w) {
  cairo_t *cr = r->cr;
  cairo_rectangle(cr, kstart + 5.0, c - 7.0, KEY_BOX, KEY_BOX);
  hpx_render_fill_band(r, shade, k);
  hpx_render_stroke_black(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_key_name(r, kstart + 24.0, c - 5.0, name, t, max_w);
}

/* A --heap line's key entry: a stretch of the line and its name. */
static void draw_key_line(render_ctx *r, double kstart, double c,
                          const layout_line *line, double max_w) {
  cairo_t *cr = r->cr;
  cairo_save(cr);
  cairo_move_to(cr, kstart + 5.0, c);
  cairo_line_to(cr, kstart + 5.0 + KEY_BOX, c);
  hpx_render_line_style(cr, line->style);
  cairo_stroke(cr);
  cairo_restore(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  hpx_render_draw_text(r, kstart + 24.0, c - 5.0, line->name,
                       strlen(line->name), 10.0, LEFT, max_w, 0);
}

/* Key page pg's entries (multi-page output): LAYOUT_KEY_PER_PAGE bands a
 * page, in the key column at the graph's left. */
void hpx_render_draw_key_page(render_ctx *r, const hp2x_bands *b,
                              const layout *l, const double *shade, int pg) {
  size_t nb = b->n_bands;
  for (size_t k = (size_t)pg * LAYOUT_KEY_PER_PAGE;
       k < nb && k < (size_t)(pg + 1) * LAYOUT_KEY_PER_PAGE; k++)
    draw_key_entry(r, 45.0, hpx_layout_key_centre(l, k, nb, 1), b->names[k],
                   b->texts ? &b->texts[k] : NULL, shade[k], k,
                   l->key_label_max_w);
}

/* The key beside the graph: the bands' entries, then the --heap lines'
 * above them. */
void hpx_render_draw_key_beside(render_ctx *r, const hp2x_profile *p,
                                const hp2x_bands *b, const layout *l,
                                const double *shade) {
  size_t nb = b->n_bands, nk = nb + l->n_lines;
  double kx = l->graph_x0 + l->graph_w;
  for (size_t k = 0; k < nb; k++) {
    double c = hpx_layout_key_centre(l, k, nk, 0);
    draw_key_entry(r, kx, c, b->names[k], b->texts ? &b->texts[k] : NULL,
                   shade[k], k, l->key_label_max_w);
    if (r->tips && !b->is_signed)
      hpx_render_tip_key_box(r, p, b, l, k, kx, c);
  }
  for (size_t k = 0; k < l->n_lines; k++)
    draw_key_line(r, kx, hpx_layout_key_centre(l, nb + k, nk, 0), &l->lines[k],
                  l->key_label_max_w);
}
