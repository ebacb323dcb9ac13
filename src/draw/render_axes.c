/* render_axes.c -- the frame, the title box (JOB, the area figure, DATE)
 * and the axes with their ticks, labels and units, as hp2ps draws them.
 */
#include "render_int.h"
#include "page.h"
#include "base/textout.h"

#include <stdio.h>
#include <string.h>

/* Where the title's area text goes (as hpx_render_draw_text's x, y,
 * alignment and max width), beside a DATE date_w wide. */
static void area_place(const layout *l, double date_w, double *x, double *y,
                       enum align *a, double *max_w) {
  double line1 = LAYOUT_FRAME_H - 5.0 - 14.0; /* 413 on the 432 frame */
  double text_w = LAYOUT_FRAME_W - 22.0;      /* 11 pt in from either side */
  *x = l->big_title ? 11.0 : 319.0;
  *y = l->big_title ? line1 - 20.0 : line1;
  *a = l->big_title ? LEFT : CENTRE;
  *max_w = l->big_title ? text_w - date_w - 20.0 : 200.0;
}

void hpx_render_page_area(render_ctx *r, const hp2x_profile *p,
                          const hp2x_bands *b, const layout *l) {
  hpx_page_geometry *g = r->page;
  enum align a;
  double date_w = hpx_render_measure(r, p->date, strlen(p->date), 12.0);
  area_place(l, date_w, &g->area_x, &g->area_y, &a, &g->area_max_w);
  g->area_anchor = (int)a, g->area_pt = 12.0, g->big_title = l->big_title;
  hpx_layout_area_title(g->area_text, sizeof g->area_text, p, b);
}

/* The frame's border and the title box 5 pt inside it, as hp2ps draws
 * them: JOB on the left, the area figure (the report's page draws it),
 * DATE on the right. */
void hpx_render_draw_frame(render_ctx *r, const hp2x_profile *p,
                           const hp2x_bands *b, const layout *l) {
  cairo_t *cr = r->cr;
  cairo_rectangle(cr, 0, 0, LAYOUT_FRAME_W, LAYOUT_FRAME_H);
  hpx_render_stroke_black(cr);
  double top = LAYOUT_FRAME_H - 5.0;
  double y0 = top - l->title_h;
  cairo_rectangle(cr, 5.0, y0, LAYOUT_FRAME_W - 10.0, l->title_h);
  hpx_render_stroke_black(cr);
  if (l->big_title) {
    cairo_move_to(cr, 5.0, y0 + 20.0);
    cairo_line_to(cr, LAYOUT_FRAME_W - 5.0, y0 + 20.0);
    hpx_render_stroke_black(cr);
  }
  /* JOB cut to 35 (80) bytes as hp2ps does, at a character boundary. */
  size_t jl = strlen(p->job);
  if (jl > l->job_bytes) {
    jl = l->job_bytes;
    while (jl > 0 && ((unsigned char)p->job[jl] & 0xc0) == 0x80) jl--;
  }
  double line1 = top - 14.0; /* 413 on the 432 frame */
  cairo_set_source_rgb(cr, 0, 0, 0);
  double date_w = hpx_render_measure(r, p->date, strlen(p->date), 12.0);
  double text_w = LAYOUT_FRAME_W - 22.0; /* 11 pt in from either side */
  hpx_render_draw_text(r, 11.0, line1, p->job, jl, 12.0, LEFT,
                       l->big_title ? text_w - 10.0 : 319.0 - 11.0 - 90.0, 0);
  /* "AREA bytes x seconds", and how an eventlog's profile is broken
   * down ("by era, -he"; "breakdown not in stream" when joined mid-run). */
  if (!r->page) {
    char area[HPX_LAYOUT_AREA_SIZE];
    double x, y, max_w;
    enum align a;
    hpx_layout_area_title(area, sizeof area, p, b);
    area_place(l, date_w, &x, &y, &a, &max_w);
    hpx_render_draw_text(r, x, y, area, strlen(area), 12.0, a, max_w, 0);
  }
  hpx_render_draw_text(r, LAYOUT_FRAME_W - 11.0,
                       l->big_title ? line1 - 20.0 : line1, p->date,
                       strlen(p->date), 12.0, RIGHT, 0, 0);
}

void hpx_render_draw_axes(render_ctx *r, const hp2x_profile *p,
                          const layout *l) {
  if (r->page) return; /* the report's page draws its axes */
  cairo_t *cr = r->cr;
  double x0 = l->graph_x0, y0 = l->graph_y0;
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x0 + l->graph_w, y0);
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x0, y0 + l->graph_h);
  const draw_look *k = &hpx_look;
  size_t n_xticks = l->n_xticks, n_yticks = l->n_yticks;
  for (size_t i = 0; i < n_xticks; i++) {
    cairo_move_to(cr, x0 + l->xticks[i].pos, y0);
    cairo_line_to(cr, x0 + l->xticks[i].pos, y0 - TICK_LEN);
  }
  for (size_t i = 0; i < n_yticks; i++) {
    cairo_move_to(cr, x0, y0 + l->yticks[i].pos);
    cairo_line_to(cr, x0 - TICK_LEN, y0 + l->yticks[i].pos);
  }
  hpx_render_stroke_black(cr);
  for (size_t i = 0; i < n_xticks; i++)
    hpx_render_draw_text(r, x0 + l->xticks[i].pos, k->xlabel_y,
                         l->xticks[i].label, strlen(l->xticks[i].label),
                         k->text_pt, CENTRE, 0, 0);
  for (size_t i = 0; i < n_yticks; i++)
    hpx_render_draw_text(r, x0 - k->ylabel_dx, y0 + l->yticks[i].pos,
                         l->yticks[i].label, strlen(l->yticks[i].label),
                         k->text_pt, RIGHT, 0, 0);
  hpx_render_draw_text(r, x0 + l->graph_w, k->xlabel_y, p->sample_unit,
                       strlen(p->sample_unit), k->text_pt, RIGHT,
                       l->graph_w / 2, 0);
  /* The y legend reads upwards, ending at the top of the axis. */
  const char *legend = hpx_layout_legend(&l->axis, p);
  hpx_render_draw_text(r, x0 - k->legend_dx, y0 + l->graph_h, legend,
                       strlen(legend), k->text_pt, RIGHT, l->graph_h / 2, 1);
}
