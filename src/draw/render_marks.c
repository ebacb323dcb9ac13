/* render_marks.c -- what is drawn over the bands: the --heap lines,
 * clipped to the graph and thinned as the bands are, and the marks
 * (.hp MARK lines, eventlog markers) with their labels.
 */
#include "render_int.h"

#include <math.h>
#include <string.h>

/* --heap lines: as hpx_layout_heap_lines[style] says. */
void hpx_render_line_style(cairo_t *cr, int style) {
  const layout_heap_line *l = &hpx_layout_heap_lines[style];
  cairo_set_source_rgb(cr, l->rgb[0], l->rgb[1], l->rgb[2]);
  cairo_set_line_width(cr, hpx_look.heap_line_w);
  cairo_set_dash(cr, l->n_dashes ? l->dashes : NULL, l->n_dashes, 0.0);
}

/* Clips the segment (*x0,*y0)-(*x1,*y1) to [xl,xh] x [yl,yh] (Liang and
 * Barsky); 0 when nothing of it is inside.  *start_cut / *end_cut say
 * whether an end moved. */
static int clip_segment(double *x0, double *y0, double *x1, double *y1,
                        double xl, double xh, double yl, double yh,
                        int *start_cut, int *end_cut) {
  if (!isfinite(*x0) || !isfinite(*y0) || !isfinite(*x1) || !isfinite(*y1))
    return 0;
  double dx = *x1 - *x0, dy = *y1 - *y0, t0 = 0.0, t1 = 1.0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {*x0 - xl, xh - *x0, *y0 - yl, yh - *y0};
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0.0) {
      if (q[i] < 0.0) return 0;
      continue;
    }
    double t = q[i] / p[i];
    if (p[i] < 0.0) {
      if (t > t1) return 0;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return 0;
      if (t < t1) t1 = t;
    }
  }
  double ax = *x0 + t0 * dx, ay = *y0 + t0 * dy;
  double bx = *x0 + t1 * dx, by = *y0 + t1 * dy;
  *x0 = ax, *y0 = ay, *x1 = bx, *y1 = by;
  *start_cut = t0 > 0.0;
  *end_cut = t1 < 1.0;
  return 1;
}

/* The polyline x[keep[i]], y[keep[i]] (i < n) in --heap line `style`,
 * its segments cut to the graph and a margin before cairo sees them: a
 * point far outside, as a comparison's shared axes or an odd eventlog can
 * put one, would otherwise be dashed along its whole length, however far
 * away. */
static void stroke_clipped(render_ctx *r, const layout *l, const double *x,
                           const double *y, const size_t *keep, size_t n,
                           int style) {
  cairo_t *cr = r->cr;
  cairo_save(cr);
  cairo_rectangle(cr, l->graph_x0, l->graph_y0, l->graph_w, l->graph_h);
  cairo_clip(cr);
  cairo_new_path(cr);
  const double m = 4.0; /* margin beyond the clip, past the line's width */
  int joined = 0;       /* the path's last point is this segment's start */
  for (size_t i = 0; i + 1 < n; i++) {
    double ax = x[keep[i]], ay = y[keep[i]];
    double bx = x[keep[i + 1]], by = y[keep[i + 1]];
    int start_cut, end_cut;
    if (!clip_segment(&ax, &ay, &bx, &by, l->graph_x0 - m,
                      l->graph_x0 + l->graph_w + m, l->graph_y0 - m,
                      l->graph_y0 + l->graph_h + m, &start_cut, &end_cut)) {
      joined = 0;
      continue;
    }
    if (!joined || start_cut) cairo_move_to(cr, ax, ay);
    cairo_line_to(cr, bx, by);
    joined = !end_cut;
  }
  hpx_render_line_style(cr, style);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke(cr);
  cairo_restore(cr);
}

/* The --heap lines over the bands, clipped to the graph, each thinned as
 * the bands are (to `columns`; 0 = every point).  On a streamgraph a line
 * is drawn on both sides of the middle line, half its value from it, as
 * the stack's edges are: the bands fill it where they are its whole. */
hp2x_status hpx_render_draw_heap_lines(render_ctx *r, const hp2x_bands *b,
                                       const layout *l, size_t columns,
                                       hp2x_err *err) {
  int stream = l->axis.kind == HP2X_CHART_STREAMGRAPH;
  for (size_t k = 0; k < l->n_lines; k++) {
    const hpx_series *s = l->lines[k].series;
    double *x = hpx_malloc(s->n * sizeof *x);
    double *y = hpx_malloc(s->n * sizeof *y);
    size_t *keep = hpx_malloc(s->n * sizeof *keep);
    if (!x || !y || !keep) {
      hpx_free(x), hpx_free(y), hpx_free(keep);
      return hpx_nomem(err);
    }
    for (int side = stream ? -1 : 1; side <= 1; side += 2) {
      for (size_t i = 0; i < s->n; i++) {
        double v = stream ? side * (double)s->bytes[i] / 2.0
                          : (double)s->bytes[i];
        x[i] = l->graph_x0 + (s->time_s[i] - b->x0) / b->xrange * l->graph_w;
        y[i] = l->graph_y0 + (v - l->axis.ymin) / l->axis.yrange * l->graph_h;
      }
      size_t n = hpx_thin_curve(x, y, s->n, l->graph_x0,
                                l->graph_x0 + l->graph_w,
                                columns ? columns : s->n, keep);
      stroke_clipped(r, l, x, y, keep, n, l->lines[k].style);
    }
    hpx_free(x), hpx_free(y), hpx_free(keep);
  }
  return HP2X_OK;
}

/* Marker labels: small, rotated to read upwards, ending near the top of
 * the graph just left of their line, on a white box so they stay legible
 * over the bands.  A label closer than MARK_LABEL_GAP to the last label
 * drawn is skipped (its line is kept), so a cluster of markers shows its
 * first label and every line. */
#define MARK_FONT (hpx_look.mark_font_pt)
#define MARK_LABEL_GAP (hpx_look.mark_label_gap)

/* The transformation a marker label is drawn under: its baseline ends at
 * frame point (bx, top) and reads upwards. */
static void mark_label_matrix(cairo_t *cr, double bx, double top) {
  cairo_translate(cr, bx, top);
  cairo_scale(cr, 1.0, -1.0);
  cairo_rotate(cr, -M_PI / 2);
}

static void draw_mark_label(render_ctx *r, const layout *l, double x,
                            const char *s) {
  cairo_t *cr = r->cr;
  double top = l->graph_y0 + l->graph_h - hpx_look.mark_label_top;
  /* In frame coordinates the text runs from top - w up to top, its
   * glyphs to the left of the baseline at x - 1.5. */
  double bx = x - hpx_look.mark_label_dx;
  cairo_save(cr); /* measured under the matrix it is drawn with */
  mark_label_matrix(cr, bx, top);
  hpx_render_text_matrix_from_cr(r);
  cairo_restore(cr);
  if (!hpx_render_set_text(r, s, strlen(s), MARK_FONT, l->graph_h * 0.45))
    return;
  double w = hpx_render_text_width(r);
  PangoRectangle ink, logical;
  pango_layout_get_extents(r->text, &ink, &logical);
  double baseline = (double)pango_layout_get_baseline(r->text) / PANGO_SCALE;
  double h = (double)logical.height / PANGO_SCALE;
  cairo_rectangle(cr, bx - baseline, top - w - 1.0, h, w + 2.0);
  render_paper(cr);
  cairo_fill(cr);
  cairo_save(cr);
  mark_label_matrix(cr, bx, top);
  render_ink(cr);
  cairo_move_to(cr, -w, -baseline);
  pango_cairo_show_layout(cr, r->text);
  cairo_restore(cr);
}

/* Marks (.hp MARK lines, eventlog markers): hp2ps's small white triangles
 * under the x axis, and a thin dashed line across the graph with the
 * marker's text.  Marks outside the graph's time span are left out. */
void hpx_render_draw_marks(render_ctx *r, const hp2x_profile *p,
                           const hp2x_bands *b, const layout *l) {
  if (p->n_samples == 0) return;
  cairo_t *cr = r->cr;
  const double *dash = hpx_look.mark_dash, tri = hpx_look.mark_tri;
  double last_label = -INFINITY;
  for (size_t m = 0; m < p->n_marks; m++) {
    double x = l->graph_x0 + (p->mark_time[m] - b->x0) / b->xrange * l->graph_w;
    if (!(x >= l->graph_x0 && x <= l->graph_x0 + l->graph_w)) continue;
    cairo_move_to(cr, x, l->graph_y0);
    cairo_line_to(cr, x, l->graph_y0 + l->graph_h);
    cairo_set_dash(cr, dash, 2, 0.0);
    render_ink(cr);
    cairo_set_line_width(cr, hpx_look.mark_w);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0.0);
    cairo_move_to(cr, x - tri, l->graph_y0);
    cairo_line_to(cr, x, l->graph_y0 - tri);
    cairo_line_to(cr, x + tri, l->graph_y0);
    cairo_close_path(cr);
    render_paper(cr);
    cairo_fill_preserve(cr);
    hpx_render_stroke_black(cr);
    const char *label = p->mark_label[m];
    if (label[0] && x - last_label >= MARK_LABEL_GAP) {
      draw_mark_label(r, l, x, label);
      last_label = x;
    }
  }
}
