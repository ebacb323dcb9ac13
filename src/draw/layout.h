/* layout.h -- page geometry as plain numbers (layout.c), drawn by the
 * render files (render_int.h).  Coordinates are hp2ps's: points in a 648 x
 * 432 frame, origin bottom left, y upwards, as hp2ps draws them. */
#ifndef HPX_LAYOUT_H
#define HPX_LAYOUT_H

#include "chart.h"
#include "select/band_walk.h"

#include <math.h>

/* Width in points of UTF-8 text at font size `size_pt`. */
typedef double (*layout_measure_fn)(void *ctx, const char *utf8, size_t len,
                                    double size_pt);

#define LAYOUT_FRAME_W 648.0
#define LAYOUT_FRAME_H 432.0
#define LAYOUT_KEY_PER_PAGE 20
/* Room kept free for an axis legend beyond the last tick, points. */
#define LAYOUT_LEGEND_ROOM 15.0

typedef struct layout_tick {
  double pos;     /* x or y from the graph origin, points */
  char label[48]; /* text under / left of the tick */
} layout_tick;

/* --heap: the eventlog series drawn as lines, one per hpx_heap_kind. */
#define LAYOUT_MAX_LINES HPX_N_HEAP
typedef struct layout_line {
  const hpx_series *series; /* borrowed from the profile */
  const char *name;         /* key text */
  int style;                /* its hpx_heap_kind: hpx_layout_heap_lines' row */
} layout_line;

/* How each heap series' line looks, by hpx_heap_kind: heap size solid
 * black, blocks size dashed dark red, live bytes dash-dotted blue, so they
 * tell apart in grey print too. */
typedef struct layout_heap_line {
  const char *name; /* key text */
  double rgb[3];
  double dashes[4]; /* cairo's dash pattern, n_dashes of it; 0: solid */
  int n_dashes;
} layout_heap_line;
extern const layout_heap_line hpx_layout_heap_lines[HPX_N_HEAP];
/* The --heap lines of p with options o, in key order (layout.c): fills
 * lines[LAYOUT_MAX_LINES], returns how many (a live update's too). */
size_t hpx_layout_overlay_lines(const hp2x_profile *p, const hp2x_bands *b,
                                const hp2x_options *o, layout_line *lines);

typedef struct layout {
  int big_title;             /* 40 pt title box with a rule, else 20 pt */
  double title_h;            /* 20 or 40 */
  double graph_x0, graph_y0; /* 45, 20 */
  double graph_w, graph_h;   /* points */
  double key_w;              /* key column width; 0 = no key beside the graph */
  double key_label_max_w;    /* widest key text allowed (longer: ellipsized) */
  int key_pages;             /* pages holding only the key (multi-page) */
  size_t job_bytes;          /* JOB is cut to this many bytes (35 or 80) */
  layout_tick *xticks;       /* owned */
  size_t n_xticks;
  layout_tick *yticks; /* owned */
  size_t n_yticks;
  layout_line lines[LAYOUT_MAX_LINES]; /* --heap overlay lines, in key order
                                          above the bands */
  size_t n_lines;
  chart_axis axis;  /* the chart kind's y axis (o->chart): the y
                       ticks' range and labels, the legend */
  char **key_texts; /* [n_bands] what the key calls each band before
                       shortening (key_names.h: "era 12"), or NULL:
                       the bands' names; owned */
  size_t n_key_texts;
} layout;

/* hp2ps's rounding of a tick step: y scaled by powers of ten into [1, 10],
 * there made 5 above 4, 2 above 1, else 1, and scaled back; 1.0 for y <= 0
 * or NaN. */
double hpx_layout_round125(double y);

/* The y ticks of chart axis a on a graph graph_h high, whose legend (the
 * axis's, or VALUE_UNIT) is legend_w wide: hp2ps's for stacked bands;
 * percent's and a streamgraph's by the same rule over their range.  Fills
 * *ticks (NULL on entry; the caller frees it, also after a failure) and
 * *n (0 on entry).  HP2X_E_NOMEM. */
hp2x_status hpx_layout_y_ticks(const chart_axis *a, double graph_h,
                               double legend_w, layout_tick **ticks, size_t *n,
                               hp2x_err *err);

/* The title's area figure, "AREA VALUE_UNIT x SAMPLE_UNIT" and how an
 * eventlog's profile is broken down, into buf (HPX_LAYOUT_AREA_SIZE):
 * the picture's and the report page's (which draws it). */
#define HPX_LAYOUT_AREA_SIZE 320
void hpx_layout_area_title(char *buf, size_t size, const hp2x_profile *p,
                           const hp2x_bands *b);

/* The y legend of chart axis a for profile p: its own, or VALUE_UNIT. */
const char *hpx_layout_legend(const chart_axis *a, const hp2x_profile *p);

/* Computes the layout; `multipage` says whether the key gets pages of its
 * own (only for formats with pages).  The caller frees *out with
 * hpx_layout_free after success; HP2X_E_NOMEM on failure, with nothing left
 * to free. */
hp2x_status hpx_layout_compute(const hp2x_profile *p, const hp2x_bands *b,
                               const hp2x_options *o, int multipage,
                               layout_measure_fn measure, void *ctx,
                               layout *out, hp2x_err *err);
void hpx_layout_free(layout *l);

/* Key entry k (0 = bottom band) of n: its centre line's y from the frame
 * origin, on the graph page (key beside the graph) or on a key page. */
double hpx_layout_key_centre(const layout *l, size_t k, size_t n, int key_page);

/* The first sample of band k's largest value (0 without samples). */
size_t hpx_layout_band_peak(const hp2x_bands *b, size_t k);

/* Device columns at 600 dpi across width_pt points of the frame, at the
 * final picture's scale (-e); hp2x_picture_columns is the frame's. */
size_t hpx_layout_columns_across(double width_pt, const hp2x_options *o);

#endif
