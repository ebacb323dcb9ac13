/* chart.c -- the chart kinds (hp2x_chart) as numbers: each kind's y axis,
 * and each band's lower and upper curves in the axis's units.  Percent
 * stacks each census's bands to 100 % of the census's total (the bands
 * drawn and OTHER: what -t drops is out, as it is of the stacked total); a
 * streamgraph stacks them from minus half the total, so the stack is
 * centred on 0; lines give each band alone, as a share of its own peak.
 * No cairo: layout.c and render_charts.c use these, the HTML report too.
 */
#include "chart.h"

#include <string.h>

const char *hpx_chart_name(hp2x_chart kind) {
  switch (kind) {
  case HP2X_CHART_STACKED: return "stacked";
  case HP2X_CHART_PERCENT: return "percent";
  case HP2X_CHART_STREAMGRAPH: return "streamgraph";
  case HP2X_CHART_LINES: return "lines";
  }
  return "?";
}

void hpx_chart_axis(const hp2x_bands *b, hp2x_chart kind, chart_axis *a) {
  memset(a, 0, sizeof *a);
  a->kind = kind;
  switch (kind) {
  case HP2X_CHART_PERCENT:
  case HP2X_CHART_LINES:
    a->ymin = 0.0;
    a->yrange = 100.0;
    a->units = CHART_PERCENT;
    a->legend = kind == HP2X_CHART_PERCENT ? "% of total" : "% of peak";
    return;
  case HP2X_CHART_STREAMGRAPH:
    a->ymin = -b->yrange / 2.0;
    a->yrange = b->yrange;
    a->units = CHART_DISTANCE;
    return;
  case HP2X_CHART_STACKED:
  default:
    a->kind = HP2X_CHART_STACKED;
    a->ymin = b->ymin;
    a->yrange = b->yrange;
    a->units = CHART_VALUE;
    return;
  }
}

hp2x_status hpx_chart_check(const hp2x_bands *b, const hp2x_options *o,
                            hp2x_err *err) {
  if ((unsigned)o->chart > HP2X_CHART_LINES)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "unknown chart kind %d",
                    (int)o->chart);
  if (o->chart != HP2X_CHART_STACKED && b->is_signed)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "a diff chart is drawn stacked, not as %s",
                    hpx_chart_name(o->chart));
  if (o->heap_overlay &&
      (o->chart == HP2X_CHART_PERCENT || o->chart == HP2X_CHART_LINES))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "the --heap lines are in bytes: not on a %s chart",
                    hpx_chart_name(o->chart));
  return HP2X_OK;
}

int64_t hpx_chart_band_peak(const hp2x_bands *b, size_t k) {
  const int64_t *v = b->values + k * b->stride;
  int64_t top = 0;
  for (size_t s = 0; s < b->n_samples; s++)
    if (v[s] > top) top = v[s];
  return top;
}

/* Each sample's total of every band (saturating, as the stacked heights). */
static void totals(const hp2x_bands *b, double *out) {
  for (size_t s = 0; s < b->n_samples; s++) {
    int64_t sum = 0;
    for (size_t k = 0; k < b->n_bands; k++)
      sum = hpx_add_sat(sum, b->values[k * b->stride + s]);
    out[s] = (double)sum;
  }
}

hp2x_status hpx_chart_open(const hp2x_bands *b, hp2x_chart kind,
                           chart_curves *c, hp2x_err *err) {
  memset(c, 0, sizeof *c);
  size_t n = b->n_samples ? b->n_samples : 1;
  c->b = b;
  c->kind = kind;
  c->base = hpx_calloc(n, sizeof *c->base);
  c->lo = hpx_calloc(n, sizeof *c->lo);
  c->hi = hpx_calloc(n, sizeof *c->hi);
  if (kind != HP2X_CHART_LINES) c->total = hpx_calloc(n, sizeof *c->total);
  if (!c->base || !c->lo || !c->hi || (kind != HP2X_CHART_LINES && !c->total)) {
    hpx_chart_close(c);
    return hpx_nomem(err);
  }
  if (kind == HP2X_CHART_LINES) return HP2X_OK;
  totals(b, c->total);
  for (size_t s = 0; s < b->n_samples; s++)
    c->has_gaps |= kind == HP2X_CHART_PERCENT && !(c->total[s] > 0.0);
  return HP2X_OK;
}

/* A stacked height h (VALUE_UNIT) of sample s on the axis: percent, as a
 * share of the census (the top band's upper edge, h == total, is exactly
 * 100); a streamgraph, from minus half the total. */
static double on_axis(const chart_curves *c, size_t s, double h) {
  double total = c->total[s];
  if (c->kind == HP2X_CHART_PERCENT)
    return total > 0.0 ? h / total * 100.0 : 0.0;
  return h - total / 2.0;
}

void hpx_chart_next_band(chart_curves *c) {
  const hp2x_bands *b = c->b;
  size_t k = c->next++;
  const int64_t *v = b->values + k * b->stride;
  if (c->kind == HP2X_CHART_LINES) {
    double peak = (double)hpx_chart_band_peak(b, k);
    for (size_t s = 0; s < b->n_samples; s++)
      c->lo[s] = c->hi[s] = peak > 0.0 ? (double)v[s] / peak * 100.0 : 0.0;
    return;
  }
  for (size_t s = 0; s < b->n_samples; s++) {
    c->lo[s] = on_axis(c, s, c->base[s]);
    c->base[s] += (double)v[s];
    c->hi[s] = on_axis(c, s, c->base[s]);
  }
}

void hpx_chart_close(chart_curves *c) {
  hpx_free(c->base);
  hpx_free(c->total);
  hpx_free(c->lo);
  hpx_free(c->hi);
  memset(c, 0, sizeof *c);
}
