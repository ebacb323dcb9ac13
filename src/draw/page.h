/* page.h -- what the HTML report (write/html_write.c) asks of drawing:
 * the picture drawn as SVG without what a page in a browser redraws as it
 * zooms or changes its chart (the bands, the axes, their ticks and
 * legends, the key's boxes and names, the --heap lines and the marks: all
 * that a new band set moves), and where
 * everything lies on it, with each chart kind's y axis (render_page.c),
 * so that the page draws those at the very places the picture would. */
#ifndef HPX_PAGE_H
#define HPX_PAGE_H

#include "layout.h"
#include "look.h"

#define HPX_PAGE_MAX_LINES 3
#define HPX_PAGE_CHARTS 4 /* every hp2x_chart */

/* One chart kind as the page draws it: its y axis and ticks, from the
 * layout's rule with the picture's measures. */
typedef struct hpx_page_chart {
  int shown;           /* the page offers it (a diff chart: stacked
                          alone) */
  chart_axis axis;     /* its y axis */
  const char *legend;  /* its y legend; borrowed (static, or the
                          profile's VALUE_UNIT) */
  layout_tick *yticks; /* its y ticks; owned */
  size_t n_yticks;
  int heap;        /* the --heap lines are drawn on it */
  double legend_w; /* its legend's width, points (the y ticks stop below) */
} hpx_page_chart;
/* The report's picture is drawn in the pixels of a PNG at this many dpi
 * (a CSS pixel: 96 a inch), glyphs on whole pixels as there. */
#define HPX_PAGE_DPI 96.0

typedef struct hpx_page_geometry {
  double width_pt, height_pt; /* the SVG page, in pixels at HPX_PAGE_DPI */
  double frame[6];            /* frame point -> page pixel, as cairo's
                                 matrix: xx yx xy yy x0 y0 */
  double graph_x0, graph_y0, graph_w, graph_h; /* frame points */
  double x_room;           /* x ticks only left of this (from graph_x0) */
  double key_x, key_w;     /* key column: boxes from key_x + 5, key_w
                              wide; key_w 0: no key beside the graph */
  double *key_centre;      /* [n_key] each entry's centre y; owned */
  size_t n_key;            /* bands, then --heap lines */
  double *rgb;             /* [3 * n_bands] each band's fill (under
                              --pattern, its hatching's background,
                              the hatching left out); owned */
  double *xtick_pos;       /* [n_xticks] the picture's x ticks (from
                              graph_x0) and labels, for checking the
                              page's own; owned */
  char (*xtick_label)[48]; /* owned */
  size_t n_xticks;
  size_t n_lines;                                    /* --heap lines */
  const hpx_series *line_series[HPX_PAGE_MAX_LINES]; /* borrowed */
  const char *line_name[HPX_PAGE_MAX_LINES];         /* borrowed */
  double line_rgb[HPX_PAGE_MAX_LINES][3];
  double line_dash[HPX_PAGE_MAX_LINES][4];
  int line_n_dash[HPX_PAGE_MAX_LINES];
  hpx_page_chart charts[HPX_PAGE_CHARTS]; /* by hp2x_chart */
  hp2x_chart chart;                       /* the kind the picture is drawn as */
  int pattern;     /* --pattern: a lines chart's lines dashed */
  char **key_name; /* [n_key_names] each band's name in the key, shortened
                      to fit by key_names.c (the page draws it); owned */
  size_t n_key_names;
  /* The title's area text, which the page draws (a live page's grows):
   * where, as hpx_render_draw_text would (frame points; anchor 0 left,
   * 1 centre, 2 right; max_w > 0: ellipsized in the middle to fit), and
   * at what size; big_title: the title's two-line layout. */
  char area_text[HPX_LAYOUT_AREA_SIZE];
  double area_x, area_y, area_max_w, area_pt;
  int area_anchor, big_title;
} hpx_page_geometry;

/* Draws p's picture with bands b and options o as SVG through `write`,
 * leaving out what the page draws (see above), and fills *g (free it with
 * hpx_page_geometry_free, also after a failure).  With write NULL, fills
 * *g alone (the key's names measured, nothing drawn: a live page's key).
 * Errors as hp2x_render. */
hp2x_status hpx_render_page(const hp2x_profile *p, const hp2x_bands *b,
                            const hp2x_options *o, hpx_page_geometry *g,
                            hp2x_write_fn write, void *closure, hp2x_err *err);
void hpx_page_geometry_free(hpx_page_geometry *g);

#endif
