/* chart.h -- private to libhp2x's draw stage: what each chart kind
 * (hp2x_chart, --chart) makes of the bands (chart.c).  Its y axis (range,
 * units, legend), which layout.c ticks, and each band's lower and upper
 * curves in the axis's units, which render_charts.c draws and the HTML
 * report sends to its page.  The stacked chart is drawn from band_walk.h's
 * edges (exact int64 heights, a follower's index); the other kinds from
 * these curves. */
#ifndef HPX_CHART_H
#define HPX_CHART_H

#include "select/bands_int.h"

/* What the y axis's numbers are. */
typedef enum chart_units {
  CHART_VALUE,   /* VALUE_UNIT (bytes), hp2ps's labels; stacked */
  CHART_PERCENT, /* per cent (percent: of the census; lines: of the peak) */
  CHART_DISTANCE /* VALUE_UNIT as the distance from 0, the middle line:
                    both sides labelled alike; streamgraph */
} chart_units;

typedef struct chart_axis {
  hp2x_chart kind;
  double ymin, yrange; /* the graph's bottom and its span, in the axis's
                          units (stacked: the bands' ymin and yrange) */
  chart_units units;
  const char *legend; /* the y legend; NULL: the profile's VALUE_UNIT */
} chart_axis;

/* The y axis of b drawn as `kind`: stacked, b's own range; percent and
 * lines 0 to 100; a streamgraph b's yrange (which holds the --heap lines
 * and the shared axis) centred on 0. */
void hpx_chart_axis(const hp2x_bands *b, hp2x_chart kind, chart_axis *a);

/* HP2X_E_ARG when o asks for a chart b cannot be drawn as: a kind other
 * than stacked for a diff chart's signed bands, or the --heap lines with
 * percent or lines. */
hp2x_status hpx_chart_check(const hp2x_bands *b, const hp2x_options *o,
                            hp2x_err *err);

/* The curves of every band, made from the bottom band up (percent and
 * the streamgraph stack them). */
typedef struct chart_curves {
  const hp2x_bands *b; /* borrowed */
  hp2x_chart kind;
  size_t next;     /* the band hpx_chart_next_band gives next */
  double *base;    /* [n_samples] the bands given so far, stacked
                      (VALUE_UNIT); owned */
  double *total;   /* [n_samples] every band's sum at each sample;
                      owned, NULL for lines */
  double *lo, *hi; /* [n_samples] the last band given: its lower and
                      upper curves (lines: both the line); owned */
  int has_gaps;    /* some census is a gap (percent: total 0) */
} chart_curves;

/* Opens c over b's bands for `kind` (not stacked).  HP2X_E_NOMEM; on
 * failure nothing is left to close. */
hp2x_status hpx_chart_open(const hp2x_bands *b, hp2x_chart kind,
                           chart_curves *c, hp2x_err *err);
/* Fills c->lo and c->hi with band c->next's curves and moves to the next
 * band. */
void hpx_chart_next_band(chart_curves *c);
/* Whether sample s is drawn (percent: a census of total 0 is a gap). */
static inline int chart_drawn(const chart_curves *c, size_t s) {
  return c->kind != HP2X_CHART_PERCENT || c->total[s] > 0.0;
}
void hpx_chart_close(chart_curves *c);

/* Band k's largest value (what lines scale to 100 %); 0 without samples. */
int64_t hpx_chart_band_peak(const hp2x_bands *b, size_t k);

/* The chart kind's name as --chart spells it ("streamgraph"). */
const char *hpx_chart_name(hp2x_chart kind);

#endif
