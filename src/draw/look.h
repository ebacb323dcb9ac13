/* look.h -- how a picture looks, as numbers (look.c): the font, the
 * strokes' widths, the ticks' rule, the key's boxes, the lines' and the
 * marks' dashes.  The render files draw with them, and the HTML report
 * sends them to its page as data (write/html_data.c), so that the page's
 * own drawing keeps no copy of any.  Lengths are frame points. */
#ifndef HPX_LOOK_H
#define HPX_LOOK_H

#include <stddef.h>

#define LOOK_PATTERNS 8 /* --pattern's hatchings, and lines' dashes */
#define LOOK_MAX_DASHES 6

typedef struct draw_look {
  const char *font_family;   /* the pinned fonts' family */
  const char *font_fallback; /* the page's CSS families after it */
  double ink[3];             /* outlines, ticks, a lines chart's casing,
                                marks: r, g, b in 0..1 */
  double paper[3];           /* the marks' triangles and labels' boxes */
  double text_pt;            /* the axes' and the key's text */
  double line_w;             /* outlines, the frame, axes and ticks */
  double tick_len;           /* a tick's length, outside the graph */
  double xlabel_y;           /* x tick labels' baseline, above the frame's
                                bottom */
  double ylabel_dx;          /* y tick labels end this far left of the
                                axis, their baseline on the tick */
  double legend_dx;          /* the y legend's baseline, left of the axis */
  double tick_divisions;     /* a tick step is about the axis's range over
                                this, rounded by tick_ladder */
  double tick_ladder[3][2];  /* hp2ps's rounding: the step's mantissa in
                                [1, 10] above [i][0] becomes [i][1], the
                                first that applies */
  size_t max_ticks;          /* ticks per axis, at most */
  int tick_max_decimals;     /* a zoomed or mid-run x axis's labels have
                                the decimals its step needs, at most */
  double key_box;            /* a key entry's box: its side */
  double key_box_dx;         /* the box's left, from the key column's */
  double key_text_dx;        /* the name's start, from the key column's */
  double heap_line_w;        /* --heap lines */
  double chart_line_w;       /* a lines chart's band line */
  double chart_casing_w;     /* the black line under it (wider) */
  double pattern_line_w;     /* a lines chart's band line, --pattern */
  double pattern_dashes[LOOK_PATTERNS][LOOK_MAX_DASHES]; /* ... dashed by
                                band k % LOOK_PATTERNS (0: solid) */
  int pattern_n_dashes[LOOK_PATTERNS];
  double mark_w;         /* a mark's dashed line */
  double mark_dash[2];   /* its dashes: on, off */
  double mark_tri;       /* its triangle under the axis: half width
                            and depth */
  double mark_font_pt;   /* its label */
  double mark_label_gap; /* labels closer than this to the last one
                            drawn are left out */
  double mark_label_dx;  /* a label's baseline, left of its line */
  double mark_label_top; /* a label ends this far below the graph's
                            top */
} draw_look;

extern const draw_look hpx_look;

#endif
