/* render_charts.c -- the chart kinds other than stacked (chart.h): the
 * percent chart's and the streamgraph's bands filled between their lower
 * and upper curves (a percent chart's census of total 0 left as a gap), a
 * lines chart's bands as lines over a casing, each thinned as the stacked
 * bands are; their SVG tooltips.  The stacked bands are render_bands.c's.
 */
#include "render_int.h"
#include "select/palette.h"

void hpx_render_stroke_chart_line(render_ctx *r, double shade, size_t k) {
  cairo_t *cr = r->cr;
  const draw_look *look = &hpx_look;
  cairo_save(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  if (r->pattern) {
    size_t d = k % LOOK_PATTERNS;
    render_ink(cr);
    cairo_set_line_width(cr, look->pattern_line_w);
    cairo_set_dash(cr, look->pattern_dashes[d], look->pattern_n_dashes[d], 0.0);
    cairo_stroke(cr);
  } else {
    double rgb[3];
    hpx_render_band_rgb(r, shade, k, rgb);
    render_ink(cr);
    cairo_set_line_width(cr, look->chart_casing_w);
    cairo_stroke_preserve(cr);
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_set_line_width(cr, look->chart_line_w);
    cairo_stroke(cr);
  }
  cairo_restore(cr);
}

/* What one band's drawing needs: x of every sample, its curves in points
 * above the graph's origin, the samples kept. */
typedef struct chart_pts {
  double *x, *lo, *hi; /* [n] owned */
  size_t *keep;        /* [n] owned */
  size_t n, columns;
} chart_pts;

/* Band k's curves (c's last band) in points above the graph's origin. */
static void to_points(const chart_curves *c, const layout *l, chart_pts *q) {
  double scale = l->graph_h / l->axis.yrange;
  for (size_t s = 0; s < q->n; s++) {
    q->lo[s] = (c->lo[s] - l->axis.ymin) * scale;
    q->hi[s] = (c->hi[s] - l->axis.ymin) * scale;
  }
}

/* The next run of drawn samples from *from: [*a, *e); 0 when none. */
static int next_run(const chart_curves *c, size_t n, size_t *from, size_t *a,
                    size_t *e) {
  size_t s = *from;
  while (s < n && !chart_drawn(c, s)) s++;
  if (s == n) return 0;
  *a = s;
  while (s < n && chart_drawn(c, s)) s++;
  *e = *from = s;
  return 1;
}

/* Band k filled between its curves, run by run, outlined; its tooltip. */
static void fill_band(render_ctx *r, const hp2x_profile *p, const hp2x_bands *b,
                      const layout *l, const chart_curves *c, chart_pts *q,
                      double shade, size_t k) {
  size_t from = 0, a, e;
  while (next_run(c, q->n, &from, &a, &e)) {
    hpx_render_band_polygon(r, l, q->x + a, q->lo + a, q->hi + a, e - a,
                            q->columns, q->keep);
    hpx_render_fill_band(r, shade, k);
    if (r->tips) hpx_render_tip_path(r, p, b, k);
    hpx_render_stroke_black(r->cr);
  }
}

/* Band k's line; its tooltip over a strip the line's width and more. */
static void line_band(render_ctx *r, const hp2x_profile *p, const hp2x_bands *b,
                      const layout *l, chart_pts *q, double shade, size_t k) {
  cairo_t *cr = r->cr;
  double x1 = l->graph_x0 + l->graph_w;
  size_t n =
      hpx_thin_curve(q->x, q->hi, q->n, l->graph_x0, x1, q->columns, q->keep);
  cairo_new_path(cr);
  for (size_t i = 0; i < n; i++)
    cairo_line_to(cr, q->x[q->keep[i]], l->graph_y0 + q->hi[q->keep[i]]);
  hpx_render_stroke_chart_line(r, shade, k);
  if (!r->tips) return;
  for (size_t s = 0; s < q->n; s++) { /* a strip 3 pt either side */
    q->lo[s] = q->hi[s] - 3.0;
    q->hi[s] += 3.0;
  }
  hpx_render_band_polygon(r, l, q->x, q->lo, q->hi, q->n, q->columns, q->keep);
  hpx_render_tip_path(r, p, b, k);
  cairo_new_path(cr);
}

hp2x_status hpx_render_draw_chart(render_ctx *r, const hp2x_profile *p,
                                  const hp2x_bands *b, const layout *l,
                                  const double *shade, size_t columns,
                                  hp2x_err *err) {
  size_t N = b->n_samples;
  if (N == 0 || b->n_bands == 0) return HP2X_OK;
  chart_curves c;
  if (hpx_chart_open(b, l->axis.kind, &c, err) != HP2X_OK) return err->code;
  double *buf = hpx_malloc(3 * N * sizeof *buf);
  chart_pts q = {buf, buf + N, buf + 2 * N, hpx_malloc(N * sizeof(size_t)),
                 N,   columns};
  if (!buf || !q.keep) {
    hpx_free(buf), hpx_free(q.keep), hpx_chart_close(&c);
    return hpx_nomem(err);
  }
  band_frame f = {p,           b,          l->graph_x0, l->graph_w,
                  l->graph_y0, l->graph_h, columns,     0};
  for (size_t s = 0; s < N; s++) q.x[s] = band_frame_x(&f, s);
  cairo_set_line_join(r->cr, CAIRO_LINE_JOIN_ROUND);
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_chart_next_band(&c);
    to_points(&c, l, &q);
    if (l->axis.kind == HP2X_CHART_LINES)
      line_band(r, p, b, l, &q, shade[k], k);
    else
      fill_band(r, p, b, l, &c, &q, shade[k], k);
  }
  hpx_free(buf), hpx_free(q.keep), hpx_chart_close(&c);
  return HP2X_OK;
}
