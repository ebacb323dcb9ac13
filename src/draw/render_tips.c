/* render_tips.c -- the SVG tooltips: the group of invisible paths over
 * each band and its key box, with the band's full label and peak.
 */
#include "render_int.h"
#include "base/textout.h"

#include <string.h>

/* ------------------------------------------------------ SVG tooltips */
/* Cairo's SVG surface has no way to attach a <title> to what it draws, so
 * the tooltips are a group of their own, inserted by the sink just before
 * the closing </svg>: one invisible path per band over the band's own
 * outline (between its lower and upper curves, so they do not overlap)
 * and one over its key box, each with a <title> holding the full label and
 * its peak.  Invisible but painted (fill-opacity 0), so browsers show the
 * title on hover; the picture itself is unchanged. */

static void tip_put(render_ctx *r, const char *s, size_t n) {
  if (r->nomem) return;
  hp2x_err err;
  hp2x_err_init(&err);
  void *tip = r->tip;
  if (hpx_grow(&tip, &r->tip_cap, r->tip_len + n + 1, 1, &err) != HP2X_OK) {
    r->nomem = 1;
    return;
  }
  r->tip = tip;
  memcpy(r->tip + r->tip_len, s, n);
  r->tip_len += n;
  r->tip[r->tip_len] = '\0';
}

void hpx_render_tip_str(render_ctx *r, const char *s) {
  tip_put(r, s, strlen(s));
}

/* A frame point as SVG user units (the page's points). */
static void tip_point(render_ctx *r, char op, double x, double y) {
  char buf[64];
  cairo_user_to_device(r->cr, &x, &y);
  int n = hpx_fmt(buf, sizeof buf, "%c%.2f %.2f", op, x, y);
  if (n > 0) tip_put(r, buf, (size_t)n);
}

/* Label bytes as XML text: displayable UTF-8 (hpx_render_display_text),
 * escaped. */
static void tip_text(render_ctx *r, const char *s) {
  char *u = hpx_render_display_text(s, strlen(s));
  if (!u) {
    r->nomem = 1;
    return;
  }
  for (const char *c = u; *c; c++) {
    switch (*c) {
    case '&': hpx_render_tip_str(r, "&amp;"); break;
    case '<': hpx_render_tip_str(r, "&lt;"); break;
    case '>': hpx_render_tip_str(r, "&gt;"); break;
    case '"': hpx_render_tip_str(r, "&quot;"); break;
    default: tip_put(r, c, 1);
    }
  }
  hpx_free(u);
}

/* The <title> of band k: "LABEL: peak N VALUE_UNIT at T SAMPLE_UNIT", and
 * on a line of its own what the label leaves out (a -hi band's whole IPE
 * record). */
static void tip_title(render_ctx *r, const hp2x_profile *p, const hp2x_bands *b,
                      size_t k) {
  size_t N = b->n_samples, at = hpx_layout_band_peak(b, k);
  const int64_t *v = b->values + k * b->stride;
  char num[48], buf[160];
  hpx_fmt_thousands(num, sizeof num, N ? v[at] : 0);
  hpx_render_tip_str(r, "<title>");
  tip_text(r, b->names[k]);
  hpx_fmt(buf, sizeof buf, ": peak %s ", num);
  hpx_render_tip_str(r, buf);
  tip_text(r, p->value_unit);
  hpx_fmt(buf, sizeof buf, " at %.3f ", N ? p->times[at] : 0.0);
  hpx_render_tip_str(r, buf);
  tip_text(r, p->sample_unit);
  if (b->texts && b->texts[k].detail) {
    hpx_render_tip_str(r, "\n");
    tip_text(r, b->texts[k].detail);
  }
  hpx_render_tip_str(r, "</title>");
}

/* The points of edge e as tooltip path steps, forwards (the first a move)
 * or backwards. */
static void tip_edge(render_ctx *r, const band_frame *f, const band_edge *e,
                     int forwards) {
  double axis = f->y0_pt, yscale = band_frame_yscale(f);
  for (size_t j = 0; j < e->n_keep; j++) {
    size_t i = forwards ? j : e->n_keep - 1 - j;
    size_t s = e->keep[i];
    double h = e->height ? (double)e->height[s] : 0.0;
    tip_point(r, forwards && j == 0 ? 'M' : 'L', band_frame_x(f, s),
              axis + h * yscale);
  }
}

/* Band k's tooltip path: its upper edge `top` forwards, then its lower
 * edge (the next band's upper edge) backwards. */
hp2x_status hpx_render_tip_band(render_ctx *r, band_walk *w,
                                const band_frame *f, const band_edge *top,
                                size_t k, hp2x_err *err) {
  hpx_render_tip_str(r, "<path d=\"");
  tip_edge(r, f, top, 1);
  band_edge below;
  if (w->ops->edge(w, k - 1, &below, err) != HP2X_OK) return err->code;
  tip_edge(r, f, &below, 0);
  hpx_render_tip_str(r, "Z\">");
  tip_title(r, f->p, f->b, k);
  hpx_render_tip_str(r, "</path>\n");
  return HP2X_OK;
}

void hpx_render_tip_path(render_ctx *r, const hp2x_profile *p,
                         const hp2x_bands *b, size_t k) {
  cairo_path_t *path = cairo_copy_path_flat(r->cr);
  hpx_render_tip_str(r, "<path d=\"");
  for (int i = 0; path->status == CAIRO_STATUS_SUCCESS && i < path->num_data;
       i += path->data[i].header.length) {
    const cairo_path_data_t *d = &path->data[i];
    if (d->header.type == CAIRO_PATH_CLOSE_PATH)
      hpx_render_tip_str(r, "Z");
    else if (d->header.type == CAIRO_PATH_MOVE_TO ||
             d->header.type == CAIRO_PATH_LINE_TO)
      tip_point(r, d->header.type == CAIRO_PATH_MOVE_TO ? 'M' : 'L',
                d[1].point.x, d[1].point.y);
  }
  if (path->status != CAIRO_STATUS_SUCCESS) r->nomem = 1;
  cairo_path_destroy(path);
  hpx_render_tip_str(r, "\">");
  tip_title(r, p, b, k);
  hpx_render_tip_str(r, "</path>\n");
}

/* Band k's key box as a tooltip path: key column at kx, centre line c. */
void hpx_render_tip_key_box(render_ctx *r, const hp2x_profile *p,
                            const hp2x_bands *b, const layout *l, size_t k,
                            double kx, double c) {
  hpx_render_tip_str(r, "<path d=\"");
  tip_point(r, 'M', kx + 5.0, c - 7.0);
  tip_point(r, 'L', kx + 5.0 + l->key_w, c - 7.0);
  tip_point(r, 'L', kx + 5.0 + l->key_w, c + 7.0);
  tip_point(r, 'L', kx + 5.0, c + 7.0);
  hpx_render_tip_str(r, "Z\">");
  tip_title(r, p, b, k);
  hpx_render_tip_str(r, "</path>\n");
}
