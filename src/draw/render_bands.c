/* render_bands.c -- the bands: stacked ones filled top-down from the
 * points band_walk.h gives, a diff chart's signed ones about the zero
 * line, each filled in its grey, colour or --pattern hatching.
 */
#include "render_int.h"
#include "select/palette.h"

#include <assert.h>
#include <math.h>

/* ------------------------------------------------------------ drawing */

/* Marks a cairo context whose strokes are drawn as fills (the report's
 * picture: render_page.c). */
static cairo_user_data_key_t strokes_as_fills; /* its address is the key */

void hpx_render_fill_strokes(cairo_t *cr) {
  cairo_set_user_data(cr, &strokes_as_fills, &strokes_as_fills, NULL);
}

/* The segment from (x0, y0) to (x1, y1), w wide, as a quadrilateral added
 * to the path, always wound the same way round. */
static void segment_quad(cairo_t *cr, double x0, double y0, double x1,
                         double y1, double w) {
  double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
  if (!(len > 0.0)) return;
  double nx = -dy / len * w / 2, ny = dx / len * w / 2;
  cairo_move_to(cr, x0 + nx, y0 + ny);
  cairo_line_to(cr, x1 + nx, y1 + ny);
  cairo_line_to(cr, x1 - nx, y1 - ny);
  cairo_line_to(cr, x0 - nx, y0 - ny);
  cairo_close_path(cr);
}

/* Fills, instead of stroking, the current path's segments w wide: a
 * browser draws a stroke thinner than a pixel as a wider, fainter line,
 * where cairo's raster covers exactly its area; filled, both cover the
 * same pixels.  Joins and caps are left out (a fraction of a pixel). */
static void fill_as_stroke(cairo_t *cr, double w) {
  cairo_path_t *path = cairo_copy_path_flat(cr);
  cairo_new_path(cr);
  double sx = 0, sy = 0, x = 0, y = 0;
  for (int i = 0; path->status == CAIRO_STATUS_SUCCESS && i < path->num_data;
       i += path->data[i].header.length) {
    const cairo_path_data_t *d = &path->data[i];
    switch (d->header.type) {
    case CAIRO_PATH_MOVE_TO:
      sx = x = d[1].point.x, sy = y = d[1].point.y;
      break;
    case CAIRO_PATH_LINE_TO:
      segment_quad(cr, x, y, d[1].point.x, d[1].point.y, w);
      x = d[1].point.x, y = d[1].point.y;
      break;
    case CAIRO_PATH_CLOSE_PATH:
      segment_quad(cr, x, y, sx, sy, w);
      x = sx, y = sy;
      break;
    default: break; /* a flat path has no curves */
    }
  }
  cairo_path_destroy(path);
  cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
  cairo_fill(cr);
}

void hpx_render_stroke_black(cairo_t *cr) {
  render_ink(cr);
  cairo_set_line_width(cr, LINE_W);
  if (cairo_get_user_data(cr, &strokes_as_fills))
    fill_as_stroke(cr, LINE_W);
  else
    cairo_stroke(cr);
}

/* --pattern: band k gets hatch style k % 8 over background grey
 * k / 8 % 3, so neighbouring bands always differ in hatching and the
 * first 24 bands all differ. */
#define HATCH_TILE 6.0
static cairo_pattern_t *get_hatch_pattern(render_ctx *r, size_t style) {
  if (r->hatch[style]) return r->hatch[style];
  cairo_rectangle_t ext = {0, 0, HATCH_TILE, HATCH_TILE};
  cairo_surface_t *tile =
      cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
  cairo_t *cr = cairo_create(tile);
  const double t = HATCH_TILE, h = HATCH_TILE / 2;
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 0.6);
  switch (style) {
  case 1: /* rising diagonals, continued across the tile's edges */
  case 6: /* both diagonals */
    cairo_move_to(cr, -h, h), cairo_line_to(cr, h, -h);
    cairo_move_to(cr, 0, t), cairo_line_to(cr, t, 0);
    cairo_move_to(cr, h, t + h), cairo_line_to(cr, t + h, h);
    if (style == 1) break;
    /* fall through */
  case 2: /* falling diagonals */
    cairo_move_to(cr, -h, h), cairo_line_to(cr, h, t + h);
    cairo_move_to(cr, 0, 0), cairo_line_to(cr, t, t);
    cairo_move_to(cr, h, -h), cairo_line_to(cr, t + h, h);
    break;
  case 3: /* horizontal */
  case 5: /* grid */
    cairo_move_to(cr, 0, h), cairo_line_to(cr, t, h);
    if (style == 3) break;
    /* fall through */
  case 4: /* vertical */
    cairo_move_to(cr, h, 0), cairo_line_to(cr, h, t);
    break;
  case 7: /* dots */
    cairo_arc(cr, h, h, 0.9, 0, 2 * M_PI);
    cairo_fill(cr);
    break;
  default: /* 0: plain */ break;
  }
  cairo_stroke(cr);
  cairo_destroy(cr);
  cairo_pattern_t *pat = cairo_pattern_create_for_surface(tile);
  cairo_surface_destroy(tile);
  cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
  r->hatch[style] = pat;
  return pat;
}

/* --pattern's background greys, by k / 8 % 3. */
static const double pattern_bg[] = {1.0, 0.82, 0.64};

void hpx_render_band_rgb(const render_ctx *r, double shade, size_t k,
                         double rgb[3]) {
  if (r->pattern)
    rgb[0] = rgb[1] = rgb[2] = pattern_bg[k / 8 % 3];
  else
    hpx_palette_rgb(shade, r->colour, rgb);
}

/* Fills the current path (kept) as band k with `shade`. */
void hpx_render_fill_band(render_ctx *r, double shade, size_t k) {
  cairo_t *cr = r->cr;
  if (r->pattern) {
    const double *bg = pattern_bg;
    cairo_set_source_rgb(cr, bg[k / 8 % 3], bg[k / 8 % 3], bg[k / 8 % 3]);
    cairo_fill_preserve(cr);
    if (k % 8 != 0) {
      cairo_set_source(cr, get_hatch_pattern(r, k % 8));
      cairo_fill_preserve(cr);
    }
    return;
  }
  double rgb[3];
  hpx_palette_rgb(shade, r->colour, rgb);
  cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
  cairo_fill_preserve(cr);
}

void hpx_render_band_polygon(render_ctx *r, const layout *l, const double *x,
                             const double *lo, const double *hi, size_t N,
                             size_t columns, size_t *keep) {
  cairo_t *cr = r->cr;
  double x1 = l->graph_x0 + l->graph_w;
  size_t n = hpx_thin_curve(x, lo, N, l->graph_x0, x1, columns, keep);
  cairo_new_path(cr);
  for (size_t i = 0; i < n; i++)
    cairo_line_to(cr, x[keep[i]], l->graph_y0 + lo[keep[i]]);
  n = hpx_thin_curve(x, hi, N, l->graph_x0, x1, columns, keep);
  for (size_t i = n; i-- > 0;)
    cairo_line_to(cr, x[keep[i]], l->graph_y0 + hi[keep[i]]);
  cairo_close_path(cr);
}

/* The graph of layout l as band_walk.h describes it. */
static band_frame frame_of(const hp2x_profile *p, const hp2x_bands *b,
                           const layout *l, size_t columns, int all_samples) {
  band_frame f = {p,           b,          l->graph_x0, l->graph_w,
                  l->graph_y0, l->graph_h, columns,     all_samples};
  return f;
}

/* A diff chart's bands: at each sample a band's growth is stacked upwards
 * from the zero line and its shrinkage downwards, bottom band nearest the
 * line; then the zero line itself.  Not a band_walk: a band's two
 * curves are stacked in points, growth and shrinkage apart, where the walk
 * gives one edge of summed int64 heights; each curve is thinned by
 * hpx_thin_curve as the walk's edges are. */
static hp2x_status draw_signed_bands(render_ctx *r, const hp2x_profile *p,
                                     const hp2x_bands *b, const layout *l,
                                     const double *shade, size_t columns,
                                     hp2x_err *err) {
  size_t N = b->n_samples;
  double *buf = hpx_malloc(5 * N * sizeof *buf);
  size_t *keep = hpx_malloc(N * sizeof *keep);
  if (!buf || !keep) {
    hpx_free(buf), hpx_free(keep);
    return hpx_nomem(err);
  }
  double *pos = buf, *neg = buf + N, *lo = buf + 2 * N, *hi = buf + 3 * N;
  double *x = buf + 4 * N;
  band_frame f = frame_of(p, b, l, columns, 0);
  for (size_t s = 0; s < N; s++) x[s] = band_frame_x(&f, s);
  double yscale = l->graph_h / b->yrange;
  double zero = -b->ymin * yscale;
  for (size_t s = 0; s < N; s++) pos[s] = neg[s] = zero;
  cairo_set_line_join(r->cr, CAIRO_LINE_JOIN_ROUND);
  for (size_t k = 0; k < b->n_bands; k++) {
    const int64_t *v = b->values + k * b->stride;
    for (size_t s = 0; s < N; s++) {
      double d = (double)v[s] * yscale;
      if (d >= 0) {
        lo[s] = pos[s];
        hi[s] = pos[s] += d;
      } else {
        hi[s] = neg[s];
        lo[s] = neg[s] += d;
      }
    }
    hpx_render_band_polygon(r, l, x, lo, hi, N, columns, keep);
    hpx_render_fill_band(r, shade[k], k);
    hpx_render_stroke_black(r->cr);
  }
  cairo_move_to(r->cr, l->graph_x0, l->graph_y0 + zero);
  cairo_line_to(r->cr, l->graph_x0 + l->graph_w, l->graph_y0 + zero);
  hpx_render_stroke_black(r->cr);
  hpx_free(buf), hpx_free(keep);
  return HP2X_OK;
}

/* Fills band k: the area under its upper edge e, down to the axis. */
static void fill_under_edge(render_ctx *r, const band_frame *f,
                            const band_edge *e, double shade, size_t k) {
  cairo_t *cr = r->cr;
  double axis = f->y0_pt, yscale = band_frame_yscale(f);
  assert(e->height && e->n_keep > 0); /* a band's edge, not the axis */
  cairo_new_path(cr);
  cairo_move_to(cr, band_frame_x(f, 0), axis);
  for (size_t i = 0; i < e->n_keep; i++)
    cairo_line_to(cr, band_frame_x(f, e->keep[i]),
                  axis + (double)e->height[e->keep[i]] * yscale);
  cairo_line_to(cr, band_frame_x(f, f->b->n_samples - 1), axis);
  cairo_close_path(cr);
  hpx_render_fill_band(r, shade, k);
  hpx_render_stroke_black(cr);
}

/* The stacked bands.  hp2ps outlines each band between its lower and upper
 * curves; the same picture comes from painting top-down, each band filled
 * from its upper curve down to the axis and over-painted by the bands below
 * it: every curve is drawn once instead of twice.  Each curve is thinned to
 * at most two points per device column at 600 dpi of the final picture,
 * unless all_samples asks for every one; the points come from the walk
 * hpx_thin_open_band_walk chooses (band_walk.h).  Stacked heights stay
 * exact (int64) until scaled. */
hp2x_status hpx_render_draw_bands(render_ctx *r, const hp2x_profile *p,
                                  const hp2x_bands *b, const layout *l,
                                  const double *shade, size_t columns,
                                  int all_samples, hp2x_err *err) {
  if (b->n_samples == 0 || b->n_bands == 0) return HP2X_OK;
  if (b->is_signed) return draw_signed_bands(r, p, b, l, shade, columns, err);
  band_frame f = frame_of(p, b, l, columns, all_samples);
  band_walk *w;
  if (hpx_thin_open_band_walk(&f, &w, err) != HP2X_OK) return err->code;
  cairo_set_line_join(r->cr, CAIRO_LINE_JOIN_ROUND);
  hp2x_status st = HP2X_OK;
  for (size_t k = b->n_bands; k-- > 0 && st == HP2X_OK;) {
    band_edge top;
    st = w->ops->edge(w, k, &top, err);
    if (st == HP2X_OK) fill_under_edge(r, &f, &top, shade[k], k);
    if (st == HP2X_OK && r->tips)
      st = hpx_render_tip_band(r, w, &f, &top, k, err);
  }
  w->ops->close(w);
  return st;
}
