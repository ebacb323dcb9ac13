/* layout.c -- hp2ps's page geometry as numbers: title box size, graph
 * area, key width from real text widths (a measuring callback, so this file
 * needs no cairo and its numbers test exactly), x and y ticks with hp2ps's
 * 1-2-5 steps, loops and label formats, key positions, a band's peak and
 * the device columns across the frame (hp2x_picture_columns); the report
 * page's geometry freed (render_page.c fills it).
 * Thinning is thin.c's; drawing is the render files'.
 */
#include "layout.h"
#include "page.h"
#include "key_names.h"
#include "look.h"
#include "select/bands_int.h"
#include "base/textout.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#define BORDER_SPACE 5.0
#define TITLE_W (LAYOUT_FRAME_W - 2 * BORDER_SPACE) /* 638 */
#define GRAPH_X0 45.0 /* 35 for y labels + 2 x border space */
#define GRAPH_Y0 20.0 /* 10 pt font + 2 x border space */
#define KEY_BOX (hpx_look.key_box)
#define FUDGE LAYOUT_LEGEND_ROOM
#define SMALL_JOB 35
#define BIG_JOB 80
/* Long labels are shortened so the graph keeps at least this share of the
 * width hp2ps would give it without a key (hp2ps gives the key whatever
 * its longest label needs, however little graph that leaves). */
#define MIN_GRAPH_SHARE 0.6
/* ... but a -hi band's name (what it is, its binding, its source
 * location) is drawn whole while the graph keeps this share, and its kept
 * ends (what and where) while it keeps the next. */
#define MIN_GRAPH_SHARE_NAMED 0.5
#define MIN_GRAPH_SHARE_KEPT 0.4

/* The area figure as hp2ps prints it, an integer.  A damaged profile can
 * make the area any double (residencies near INT64_MAX overflow it, times
 * that go backwards make it negative): clamp it to int64_t, where the cast
 * is defined, and print NaN as 0. */
static int64_t area_int(double a) {
  if (a != a) return 0;
  if (a >= 0x1p63) return INT64_MAX;
  if (a <= -0x1p63) return INT64_MIN;
  return (int64_t)a;
}

void hpx_layout_area_title(char *buf, size_t size, const hp2x_profile *p,
                           const hp2x_bands *b) {
  char area[64];
  hpx_fmt_thousands(area, sizeof area, area_int(b->area));
  const char *breakdown = profile_breakdown_words(p);
  snprintf(buf, size, "%s %s x %s%s%s", area, p->value_unit, p->sample_unit,
           breakdown ? ", " : "", breakdown ? breakdown : "");
}

double hpx_layout_round125(double y) {
  if (!(y > 0.0)) return 1.0;
  int up = 0, down = 0;
  while (y > 10.0) {
    y /= 10.0;
    down++;
  }
  while (y < 1.0) {
    y *= 10.0;
    up++;
  }
  double step = 1.0;
  for (size_t i = 0; i < 3; i++)
    if (y > hpx_look.tick_ladder[i][0]) {
      step = hpx_look.tick_ladder[i][1];
      break;
    }
  y = step;
  for (; down > 0; down--) y *= 10.0;
  for (; up > 0; up--) y /= 10.0;
  return y;
}

/* hp2ps's y label: k or M by the tick step, thousands separators. */
static void y_label(char *buf, size_t size, double v, double inc) {
  const char *unit = "";
  double scaled = v;
  if (inc >= 1e6) {
    unit = "M";
    scaled = v / 1e6;
  } else if (inc >= 1e3) {
    unit = "k";
    scaled = v / 1e3;
  }
  size_t n = hpx_fmt_thousands(buf, size, (int64_t)(scaled + 0.5));
  if (n + strlen(unit) + 1 <= size) strcpy(buf + n, unit);
}

/* y_label for a diff chart's values below zero. */
static void y_label_negative(char *buf, size_t size, double v, double inc) {
  double div = inc >= 1e6 ? 1e6 : inc >= 1e3 ? 1e3 : 1.0;
  size_t n = hpx_fmt_thousands(buf, size, (int64_t)llround(v / div));
  const char *unit = div == 1e6 ? "M" : div == 1e3 ? "k" : "";
  if (n + strlen(unit) + 1 <= size) strcpy(buf + n, unit);
}

static hp2x_status push_tick(layout_tick **ticks, size_t *n, size_t *cap,
                             double pos, const char *label, hp2x_err *err) {
  if (hpx_grow((void **)ticks, cap, *n + 1, sizeof **ticks, err) != HP2X_OK)
    return err->code;
  (*ticks)[*n].pos = pos;
  snprintf((*ticks)[*n].label, sizeof(*ticks)[*n].label, "%s", label);
  (*n)++;
  return HP2X_OK;
}

/* Ticks are a display aid: they are capped, so a degenerate range (a huge
 * span with a tiny step) cannot make the loop run away. */
#define MAX_TICKS (hpx_look.max_ticks)

/* The --heap lines' names and looks (layout.h), one row per hpx_heap_kind:
 * a kind without its row does not build (the assert below). */
#define HEAP_LINE_ROWS(X)                                            \
  X(HPX_HEAP_SIZE, "heap size", {0, 0, 0}, {0}, 0)                   \
  X(HPX_HEAP_BLOCKS, "blocks size", {0.75, 0.1, 0.1}, {4.0, 2.0}, 2) \
  X(HPX_HEAP_LIVE, "live bytes", {0.1, 0.3, 0.85}, {4.0, 1.5, 1.0, 1.5}, 4)
#define HEAP_LINE_ROW(kind, ...) [kind] = {__VA_ARGS__},
#define HEAP_LINE_BIT(kind, ...) | (1u << (kind))
const layout_heap_line hpx_layout_heap_lines[HPX_N_HEAP] = {
    HEAP_LINE_ROWS(HEAP_LINE_ROW)};
_Static_assert((0u HEAP_LINE_ROWS(HEAP_LINE_BIT)) == (1u << HPX_N_HEAP) - 1u,
               "a --heap line's looks for every hpx_heap_kind (model.h)");

/* The --heap lines of p with options o: each heap series that has data,
 * in hpx_heap_kind's order (none for .hp input, a diff chart, or
 * without o->heap_overlay).  Fills lines[]; returns how many. */
size_t hpx_layout_overlay_lines(const hp2x_profile *p, const hp2x_bands *b,
                                const hp2x_options *o, layout_line *lines) {
  if (!o->heap_overlay || b->is_signed) return 0;
  size_t n = 0;
  for (int k = 0; k < HPX_N_HEAP; k++)
    if (p->heap[k].n > 0) {
      lines[n].series = &p->heap[k];
      lines[n].name = hpx_layout_heap_lines[k].name;
      lines[n].style = k;
      n++;
    }
  return n;
}

/* The width band k's name needs at least in the key: its kept ends
 * (profile_labels.h's label_text) whole, a space between; 0 without any. */
static double kept_width(const hp2x_bands *b, size_t k,
                         layout_measure_fn measure, void *ctx) {
  if (!b->texts) return 0.0;
  const label_text *t = &b->texts[k];
  const char *s = b->names[k];
  size_t n = strlen(s);
  if ((!t->keep_head && !t->keep_tail) || t->keep_head + t->keep_tail > n)
    return 0.0;
  double w = 0.0;
  if (t->keep_head) w += measure(ctx, s, t->keep_head, 10.0);
  if (t->keep_tail) w += measure(ctx, s + n - t->keep_tail, t->keep_tail, 10.0);
  if (t->keep_head && t->keep_tail) w += measure(ctx, " ", 1, 10.0);
  return w;
}

/* The title box, the graph's height and the key beside the graph (its
 * width from the widest label measured) or on pages of its own. */
static void size_title_and_key(const hp2x_profile *p, const hp2x_bands *b,
                               const hp2x_options *o, int multipage,
                               layout_measure_fn measure, void *ctx,
                               layout *l) {
  size_t job_len = strlen(p->job);
  /* An eventlog's breakdown (or "breakdown not in stream") goes on the
   * big box's second line. */
  l->big_title = o->title_box == HP2X_TITLE_BIG ||
                 (o->title_box == HP2X_TITLE_AUTO &&
                  (job_len > 35 || profile_breakdown_words(p)));
  l->title_h = l->big_title ? 40.0 : 20.0;
  l->job_bytes = l->big_title ? BIG_JOB : SMALL_JOB;
  l->graph_x0 = GRAPH_X0;
  l->graph_y0 = GRAPH_Y0;
  l->graph_h = LAYOUT_FRAME_H - l->title_h - 10.0 - 20.0;

  int keyed = o->max_bands != 0 && b->n_bands > 0;
  double full = TITLE_W - GRAPH_X0; /* 593 */
  l->key_label_max_w = full * (1.0 - MIN_GRAPH_SHARE) - KEY_BOX - 15.0;
  if (keyed && multipage) {
    l->key_pages =
        (int)((b->n_bands + LAYOUT_KEY_PER_PAGE - 1) / LAYOUT_KEY_PER_PAGE);
    l->key_label_max_w = TITLE_W - 2 * 24.0;
  } else if (keyed) {
    double widest = 0.0, named = 0.0, kept = 0.0;
    for (size_t k = 0; k < b->n_bands; k++) {
      const char *name = l->key_texts ? l->key_texts[k] : b->names[k];
      double w = measure(ctx, name, strlen(name), 10.0);
      if (w > widest) widest = w;
      double kw = w > l->key_label_max_w ? kept_width(b, k, measure, ctx) : 0.0;
      if (kw > 0.0 && w > named) named = w;
      if (kw > kept) kept = kw;
    }
    double named_max = full * (1.0 - MIN_GRAPH_SHARE_NAMED) - KEY_BOX - 15.0;
    double kept_max = full * (1.0 - MIN_GRAPH_SHARE_KEPT) - KEY_BOX - 15.0;
    if (named > named_max) named = named_max;
    if (kept > kept_max) kept = kept_max;
    if (named > l->key_label_max_w) l->key_label_max_w = named;
    if (kept > l->key_label_max_w) l->key_label_max_w = kept;
    for (size_t k = 0; k < l->n_lines; k++) {
      double w = measure(ctx, l->lines[k].name, strlen(l->lines[k].name), 10.0);
      if (w > widest) widest = w;
    }
    if (widest > l->key_label_max_w) widest = l->key_label_max_w;
    l->key_w = widest + 15.0 + KEY_BOX;
  }
  l->graph_w = full - l->key_w;
}

/* The first x tick's time and its labels' decimals, for an axis from t0
 * with step inc.  hp2ps's, for a profile that starts with its run: at t0
 * (its first sample, at or near 0), one decimal.  A stream joined mid-run
 * starts anywhere on the runtime's clock (2.225 s), where hp2ps's ticks
 * would say "2.2" at 2.225 and "2.7" at 2.725: its axis still starts at its
 * first sample, so no width goes to the time before the client connected,
 * but its ticks are at the step's multiples (2.5, 3.0, ...) with the
 * decimals the step needs. */
static double first_x_tick(const hp2x_profile *p, double t0, double inc,
                           int *decimals) {
  *decimals = 1;
  if (!p->began_mid_run || !(inc > 0.0)) return t0;
  while (*decimals < hpx_look.tick_max_decimals &&
         inc < pow(10.0, -*decimals) * (1.0 - 1e-9))
    (*decimals)++;
  double v = ceil(t0 / inc - 1e-9) * inc;
  return v < t0 ? t0 : v; /* within rounding of t0: on the axis's start */
}

/* X ticks, as hp2ps places them: from the first sample's time by repeated
 * addition of a 1-2-5 step (a seventh of the range, rounded) while below
 * the last sample's time, labelled with one decimal (first_x_tick: a
 * stream joined mid-run's at the step's multiples); none where the
 * SAMPLE_UNIT legend goes. */
static hp2x_status add_x_ticks(const hp2x_profile *p, const hp2x_bands *b,
                               layout_measure_fn measure, void *ctx, layout *l,
                               hp2x_err *err) {
  size_t cap = 0, N = p->n_samples;
  if (!(N > 1 || (b->x_span_ticks && N > 0))) return HP2X_OK;
  /* A shared time axis gets ticks over its whole span. */
  double t0 = b->x0;
  double tn = b->x_span_ticks ? b->x0 + b->xrange : p->times[N - 1];
  double inc = hpx_layout_round125(b->xrange / hpx_look.tick_divisions);
  double room =
      l->graph_w -
      (measure(ctx, p->sample_unit, strlen(p->sample_unit), 10.0) + FUDGE);
  int decimals;
  for (double v = first_x_tick(p, t0, inc, &decimals);
       v < tn && l->n_xticks < MAX_TICKS; v += inc) {
    double x = (v - t0) * l->graph_w / b->xrange;
    if (!(x < room)) continue;
    char label[48];
    hpx_fmt(label, sizeof label, "%.*f", decimals, v);
    if (push_tick(&l->xticks, &l->n_xticks, &cap, x, label, err) != HP2X_OK)
      return err->code;
    if (inc <= 0.0) break;
  }
  return HP2X_OK;
}

const char *hpx_layout_legend(const chart_axis *a, const hp2x_profile *p) {
  return a->legend ? a->legend : p->value_unit;
}

/* A y tick's label: hp2ps's (k or M by the step) for bytes, their
 * distance from the middle line for a streamgraph, a whole per cent. */
static void y_tick_label(char *buf, size_t size, const chart_axis *a, double v,
                         double inc) {
  if (a->units == CHART_PERCENT)
    hpx_fmt(buf, size, "%.0f", v);
  else if (a->units == CHART_DISTANCE)
    y_label(buf, size, fabs(v), inc);
  else if (v < 0.0)
    y_label_negative(buf, size, v, inc);
  else
    y_label(buf, size, v, inc);
}

/* Y ticks, as hp2ps places them: 0, inc, ... up to the range, with a
 * 1-2-5 step of about a seventh of it; none above where the rotated
 * legend goes.  An axis that starts below 0 (a diff chart, a streamgraph)
 * has its ticks at the step's multiples from there. */
hp2x_status hpx_layout_y_ticks(const chart_axis *a, double graph_h,
                               double legend_w, layout_tick **ticks, size_t *n,
                               hp2x_err *err) {
  size_t cap = *n;
  double d = hpx_look.tick_divisions;
  double inc = hpx_layout_round125(a->yrange / d > 1.0 ? a->yrange / d : 1.0);
  double room = graph_h - (legend_w + FUDGE);
  double start = a->ymin < 0.0 ? ceil(a->ymin / inc) * inc : 0.0;
  for (double v = start; v - a->ymin <= a->yrange && *n < MAX_TICKS; v += inc) {
    double y = a->ymin < 0.0 ? (v - a->ymin) * graph_h / a->yrange
                             : v * graph_h / a->yrange;
    if (!(y < room) && v > 0.0) continue;
    char label[48];
    y_tick_label(label, sizeof label, a, v, inc);
    if (push_tick(ticks, n, &cap, y, label, err) != HP2X_OK) return err->code;
  }
  return HP2X_OK;
}

hp2x_status hpx_layout_compute(const hp2x_profile *p, const hp2x_bands *b,
                               const hp2x_options *o, int multipage,
                               layout_measure_fn measure, void *ctx, layout *l,
                               hp2x_err *err) {
  memset(l, 0, sizeof *l);
  hpx_chart_axis(b, o->chart, &l->axis);
  int nomem = 0;
  l->key_texts = hpx_key_texts(p, b, &nomem);
  l->n_key_texts = l->key_texts ? b->n_bands : 0;
  if (nomem) return hpx_nomem(err);
  l->n_lines = hpx_layout_overlay_lines(p, b, o, l->lines);
  size_title_and_key(p, b, o, multipage, measure, ctx, l);
  const char *legend = hpx_layout_legend(&l->axis, p);
  if (add_x_ticks(p, b, measure, ctx, l, err) != HP2X_OK ||
      hpx_layout_y_ticks(&l->axis, l->graph_h,
                         measure(ctx, legend, strlen(legend), 10.0), &l->yticks,
                         &l->n_yticks, err) != HP2X_OK) {
    hpx_layout_free(l);
    return err->code;
  }
  return HP2X_OK;
}

void hpx_layout_free(layout *l) {
  hpx_key_names_free(l->key_texts, l->n_key_texts);
  l->key_texts = NULL;
  hpx_free(l->xticks);
  hpx_free(l->yticks);
  l->xticks = l->yticks = NULL;
}

double hpx_layout_key_centre(const layout *l, size_t k, size_t n,
                             int key_page) {
  if (key_page) {
    double dc = n <= LAYOUT_KEY_PER_PAGE ? l->graph_h / (double)(n + 1)
                                         : l->graph_h / LAYOUT_KEY_PER_PAGE;
    return (double)(k % LAYOUT_KEY_PER_PAGE + 1) * dc;
  }
  return l->graph_y0 + (double)(k + 1) * l->graph_h / (double)(n + 1);
}

size_t hpx_layout_band_peak(const hp2x_bands *b, size_t k) {
  if (b->points) return b->points->peak(b->points, k);
  const int64_t *v = b->values + k * b->stride;
  size_t at = 0;
  for (size_t s = 1; s < b->n_samples; s++)
    if (v[s] > v[at]) at = s;
  return at;
}

/* Device columns at 600 dpi across width_pt points of the frame (the
 * final picture's scale: -e scales the frame to its width). */
size_t hpx_layout_columns_across(double width_pt, const hp2x_options *o) {
  double scale = o->eps_width_pt > 0.0 ? o->eps_width_pt / LAYOUT_FRAME_W : 1.0;
  return (size_t)(width_pt * scale / 72.0 * 600.0) + 1;
}

size_t hp2x_picture_columns(const hp2x_options *o) {
  return hpx_layout_columns_across(LAYOUT_FRAME_W, o);
}

void hpx_page_geometry_free(hpx_page_geometry *g) {
  hpx_free(g->key_centre);
  hpx_free(g->rgb);
  hpx_free(g->xtick_pos);
  hpx_free(g->xtick_label);
  g->key_centre = g->rgb = g->xtick_pos = NULL;
  g->xtick_label = NULL;
  hpx_key_names_free(g->key_name, g->n_key_names);
  g->key_name = NULL, g->n_key_names = 0;
  for (int kind = 0; kind < HPX_PAGE_CHARTS; kind++) {
    hpx_free(g->charts[kind].yticks);
    g->charts[kind].yticks = NULL;
  }
}
