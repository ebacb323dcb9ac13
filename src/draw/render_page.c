/* render_page.c -- where the HTML report's picture has its graph, key
 * entries, band colours, x ticks and --heap lines, and each chart kind's
 * y axis (page.h), taken from the layout and palette the picture is drawn
 * with, so that the page draws what it redraws (bands, ticks, the key's
 * boxes, lines, marks) where the picture would.
 */
#include "render_int.h"
#include "page.h"

#include <string.h>

/* The key entries' centres and the --heap lines' looks. */
static void key_and_lines(hpx_page_geometry *g, const hp2x_bands *b,
                          const layout *l) {
  size_t nb = b->n_bands;
  g->n_key = nb + l->n_lines;
  for (size_t k = 0; k < g->n_key; k++)
    g->key_centre[k] = hpx_layout_key_centre(l, k, g->n_key, 0);
  g->n_lines = l->n_lines < HPX_PAGE_MAX_LINES ? l->n_lines
                                               : HPX_PAGE_MAX_LINES;
  for (size_t i = 0; i < g->n_lines; i++) {
    const layout_heap_line *look = &hpx_layout_heap_lines[l->lines[i].style];
    g->line_series[i] = l->lines[i].series;
    g->line_name[i] = l->lines[i].name;
    memcpy(g->line_rgb[i], look->rgb, sizeof look->rgb);
    memcpy(g->line_dash[i], look->dashes, sizeof look->dashes);
    g->line_n_dash[i] = look->n_dashes;
  }
}

/* Each chart kind's y axis, ticks and legend, as the picture would have
 * them drawn as that kind. */
static hp2x_status page_charts(render_ctx *r, const hp2x_profile *p,
                               const hp2x_bands *b, const layout *l,
                               hp2x_err *err) {
  hpx_page_geometry *g = r->page;
  g->chart = l->axis.kind;
  g->pattern = r->pattern;
  for (int kind = 0; kind < HPX_PAGE_CHARTS; kind++) {
    hpx_page_chart *c = &g->charts[kind];
    c->shown = !b->is_signed || kind == HP2X_CHART_STACKED;
    hpx_chart_axis(b, (hp2x_chart)kind, &c->axis);
    c->legend = hpx_layout_legend(&c->axis, p);
    c->heap = l->n_lines > 0 &&
              (kind == HP2X_CHART_STACKED || kind == HP2X_CHART_STREAMGRAPH);
    double legend_w =
        hpx_render_measure(r, c->legend, strlen(c->legend), hpx_look.text_pt);
    c->legend_w = legend_w;
    if (c->shown &&
        hpx_layout_y_ticks(&c->axis, l->graph_h, legend_w, &c->yticks,
                           &c->n_yticks, err) != HP2X_OK)
      return err->code;
  }
  return HP2X_OK;
}

hp2x_status hpx_render_page_geometry(render_ctx *r, const hp2x_profile *p,
                                     const hp2x_bands *b, const layout *l,
                                     const double *shade,
                                     const cairo_matrix_t *frame,
                                     hp2x_err *err) {
  hpx_page_geometry *g = r->page;
  size_t nb = b->n_bands, nk = nb + l->n_lines;
  g->key_centre = hpx_malloc((nk ? nk : 1) * sizeof *g->key_centre);
  g->rgb = hpx_malloc((nb ? nb : 1) * 3 * sizeof *g->rgb);
  g->xtick_pos =
      hpx_malloc((l->n_xticks ? l->n_xticks : 1) * sizeof *g->xtick_pos);
  g->xtick_label =
      hpx_malloc((l->n_xticks ? l->n_xticks : 1) * sizeof *g->xtick_label);
  if (!g->key_centre || !g->rgb || !g->xtick_pos || !g->xtick_label)
    return hpx_nomem(err);
  double m[6] = {frame->xx, frame->yx, frame->xy,
                 frame->yy, frame->x0, frame->y0};
  memcpy(g->frame, m, sizeof m);
  g->graph_x0 = l->graph_x0, g->graph_y0 = l->graph_y0;
  g->graph_w = l->graph_w, g->graph_h = l->graph_h;
  g->x_room = l->graph_w - (hpx_render_measure(r, p->sample_unit,
                                               strlen(p->sample_unit), 10.0) +
                            LAYOUT_LEGEND_ROOM);
  g->key_x = l->graph_x0 + l->graph_w;
  g->key_w = l->key_w;
  for (size_t k = 0; k < nb; k++)
    hpx_render_band_rgb(r, shade[k], k, g->rgb + 3 * k);
  g->n_xticks = l->n_xticks;
  for (size_t i = 0; i < l->n_xticks; i++) {
    g->xtick_pos[i] = l->xticks[i].pos;
    memcpy(g->xtick_label[i], l->xticks[i].label, sizeof g->xtick_label[i]);
  }
  key_and_lines(g, b, l);
  hpx_render_page_area(r, p, b, l);
  return page_charts(r, p, b, l, err);
}
