/* html_live.c -- what a live page (hp2x --serve) is sent after each redraw
 * instead of the page itself (hp2x_write_live_update): the newest censuses
 * (a tail of them, so that a page that missed an event or two still has
 * what it lacks), the run's axes and band figures as the report's data
 * (html_data.c) has them, and the band set's fingerprint, which the page
 * compares with its own to know when the selection changed; and with an
 * update of a new band set, the bands' names and colours and where the
 * graph and key lie (hp2x_write_live_key), from which the page draws the
 * new set itself when the update's censuses are all it holds (census 1's
 * key, to a waiting page, also carries the first report's picture and
 * data, which the server cuts from that report's lean page: events.c; the
 * page draws census 1 from them into its warm-up).  The page
 * (live_apply.js, report_main.js) appends the censuses and draws them with its
 * own drawing.  Where the report thins, the update says which censuses the
 * report of its redraw holds, as a change from the previous update's
 * (hp2x_write_live_step, html_held.c), and the bands' sums are over those:
 * the page holds what the report holds without fetching it.  With --heap
 * lines, each update carries the lines whole, as the report of its redraw
 * writes them (write_lines): a few KB, at most ~150 KB (3 lines of 2,560
 * points); power-of-two time buckets as the censuses use would shrink it.
 * Each update says the marks' count and fingerprint ("markCount",
 * "markSum", as the report's data); an update made while one of the last
 * HP2X_LIVE_MARK_WINDOW updates said other marks (hp2x_live_held's ring)
 * carries them, as the report writes them (hpx_html_write_marks: at most
 * HPX_PAGE_MARK_BYTES of JSON), those after the fewest any of those said
 * when the marks of each begin these (marks_said), so that new marks cost
 * no fetch to a page that missed up to 31 updates (one that fetched the
 * report meanwhile, a stream that fell behind, a thinning page replaying
 * the newest update), with a MARK each census about 32 marks an update,
 * and the other updates nothing; the stateless update carries them whole
 * always.
 */
#include "html_int.h"

#include <stdint.h>
#include <string.h>

#include "draw/layout.h"

/* The censuses the report of this redraw holds (samples idx[0..n), over
 * `columns`), the run's peak total, and the marks. */
typedef struct held_set {
  size_t *idx, n, columns;
  int64_t top;
  size_t top_at;
  long redraw;
  html_marks mk;     /* the marks */
  int marks;         /* the update carries them (a page may hold others) */
  size_t marks_from; /* from this one on (0: whole) */
  size_t n_bases;    /* the markSums of the pages that append them */
  uint64_t bases[HP2X_LIVE_MARK_WINDOW];
} held_set;

/* Each chart kind's y axis: [ymin, yrange]. */
static void write_axes(writebuf *w, const hp2x_bands *b) {
  hpx_html_key(w, "axes", 0), hpx_writebuf_puts(w, "{");
  for (int kind = 0; kind < HPX_PAGE_CHARTS; kind++) {
    chart_axis a;
    hpx_chart_axis(b, (hp2x_chart)kind, &a);
    double ax[2] = {a.ymin, a.yrange};
    hpx_html_key(w, hpx_chart_name((hp2x_chart)kind), kind == 0);
    hpx_html_nums(w, ax, 2);
  }
  hpx_writebuf_puts(w, "}");
}

/* Band k's values' sum modulo 2^64 over the held censuses, as a JSON
 * string. */
static void write_sum(writebuf *w, const hp2x_bands *b, const held_set *h,
                      size_t k) {
  uint64_t sum = 0;
  for (size_t i = 0; i < h->n; i++)
    sum += (uint64_t)b->values[k * b->stride + h->idx[i]];
  char num[24];
  hpx_fmt(num, sizeof num, "%llu", (unsigned long long)sum);
  hpx_html_key(w, "sum", 0), hpx_writebuf_puts(w, "\"");
  hpx_writebuf_puts(w, num), hpx_writebuf_puts(w, "\"");
}

/* The band table's cells of the run, as the report's data has them, and
 * each band's sum of values over the censuses held: the page checks its
 * own against it, to see a band's past change (a band in or out of
 * OTHER). */
static void write_cells(writebuf *w, const hp2x_profile *p, const hp2x_bands *b,
                        const band_stats *st, const held_set *h) {
  hpx_html_key(w, "cells", 0), hpx_writebuf_puts(w, "[");
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_writebuf_puts(w, k ? "," : "");
    hpx_writebuf_puts(w, "{");
    hpx_html_key(w, "band", 1), hpx_html_num(w, (double)k);
    hpx_html_write_cells(w, p, b, st, k);
    write_sum(w, b, h, k);
    hpx_writebuf_puts(w, "}");
  }
  hpx_writebuf_puts(w, "]");
}

/* The last n censuses: times as the CSV writes them, exact times where
 * that text is not exact, each band's values. */
static void write_tail(writebuf *w, const hp2x_profile *p, const hp2x_bands *b,
                       size_t n) {
  size_t from = b->n_samples - n, idx[HPX_LIVE_TAIL];
  for (size_t i = 0; i < n; i++) idx[i] = from + i;
  hpx_html_write_censuses(w, p, b, idx, n);
}

/* The --heap lines with options o (none without o or --heap), as the
 * report of this redraw writes them (html_data.c): "lines":[{"name","t",
 * "y"},...], the names for the page to check they are its lines.  Whole
 * each update: buckets as the censuses' would shrink it.  HP2X_E_NOMEM. */
static hp2x_status write_lines(writebuf *w, const hp2x_profile *p,
                               const hp2x_bands *b, const hp2x_options *o,
                               hp2x_err *err) {
  if (!o || !o->heap_overlay) return HP2X_OK;
  layout_line lines[LAYOUT_MAX_LINES];
  size_t n = hpx_layout_overlay_lines(p, b, o, lines);
  if (n > HPX_PAGE_MAX_LINES) n = HPX_PAGE_MAX_LINES; /* as render_page.c */
  hpx_html_key(w, "lines", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < n; i++) {
    hpx_writebuf_puts(w, i ? "," : ""), hpx_writebuf_puts(w, "{");
    hpx_html_key(w, "name", 1), hpx_html_json_str(w, lines[i].name);
    if (!hpx_html_write_line_points(w, b, lines[i].series))
      return hpx_nomem(err);
    hpx_writebuf_puts(w, "}");
  }
  hpx_writebuf_puts(w, "]");
  return HP2X_OK;
}

static void write_update(writebuf *w, const hp2x_profile *p,
                         const hp2x_bands *b, const band_stats *st, size_t n,
                         const held_set *h) {
  char num[HPX_BAND_TIME_SIZE];
  hpx_html_key(w, "set", 1), hpx_html_band_set_text(w, b);
  hpx_html_key(w, "samples", 0), hpx_html_num(w, (double)b->n_samples);
  hpx_html_key(w, "x0", 0), hpx_html_num(w, b->x0);
  hpx_html_key(w, "xrange", 0), hpx_html_num(w, b->xrange);
  hpx_html_key(w, "ymin", 0), hpx_html_num(w, b->ymin);
  hpx_html_key(w, "yrange", 0), hpx_html_num(w, b->yrange);
  hpx_html_key(w, "tickEnd", 0);
  hpx_html_num(w, b->x_span_ticks ? b->x0 + b->xrange
                                  : p->times[b->n_samples - 1]);
  hpx_html_key(w, "markCount", 0), hpx_html_num(w, (double)p->n_marks);
  hpx_html_key(w, "markSum", 0), hpx_html_mark_sum_text(w, h->mk.sum);
  if (h->marks && h->marks_from) { /* those after the ones said before */
    hpx_html_key(w, "marksFrom", 0), hpx_html_num(w, (double)h->marks_from);
    hpx_html_key(w, "marksBase", 0), hpx_writebuf_puts(w, "[");
    for (size_t i = 0; i < h->n_bases; i++) {
      hpx_writebuf_puts(w, i ? "," : "");
      hpx_html_mark_sum_text(w, h->bases[i]);
    }
    hpx_writebuf_puts(w, "]");
  }
  if (h->marks) hpx_html_write_marks(w, p, h->marks_from, h->mk.shown);
  write_axes(w, b);
  hpx_html_key(w, "topPeak", 0);
  hpx_html_json_str(w, hpx_band_thousands(num, sizeof num, (double)h->top));
  hpx_html_key(w, "topPeakAt", 0);
  hpx_html_json_str(w, hpx_band_time(num, sizeof num, p->times[h->top_at]));
  hpx_html_write_area_text(w, p, b);
  write_cells(w, p, b, st, h);
  hpx_html_key(w, "held", 0), hpx_html_num(w, (double)h->n);
  hpx_html_key(w, "columns", 0), hpx_html_num(w, (double)h->columns);
  write_tail(w, p, b, n);
}

/* Which marks the update of p carries (h's marks), against the states
 * the last updates said (held's): none when all said this one's; else,
 * when the marks of each begin p's, those after the fewest they hold, for
 * the pages whose markSum is one of theirs; else all. */
static void marks_said(const hp2x_profile *p, const hp2x_live_held *held,
                       held_set *h) {
  size_t n = held ? held->marks_said : 0;
  hpx_html_marks_of(p, &h->mk);
  h->marks = n == 0, h->marks_from = 0, h->n_bases = 0;
  hp2x_live_marks other[HP2X_LIVE_MARK_WINDOW];
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const hp2x_live_marks *m = &held->marks[i];
    int seen = m->sum == h->mk.sum;
    for (size_t j = 0; j < k && !seen; j++) seen = other[j].sum == m->sum;
    if (!seen) other[k++] = *m;
  }
  if (k == 0) return;
  h->marks = 1;
  int begins[HP2X_LIVE_MARK_WINDOW];
  hpx_html_marks_begin(p, other, k, begins);
  size_t from = SIZE_MAX;
  for (size_t i = 0; i < k; i++) {
    if (!begins[i]) return; /* marks dropped: all of them */
    if (other[i].shown < from) from = other[i].shown;
    h->bases[i] = other[i].sum;
  }
  if (from == 0) return; /* a page with none: all of them */
  h->marks_from = from, h->n_bases = k;
}

/* now's marks' states: held's (base's when ahead, else none kept) and
 * this update's, the oldest left out past the window. */
static void said_now(const hp2x_profile *p, const held_set *h,
                     const hp2x_live_held *base, hp2x_live_held *now) {
  if (base) {
    now->marks_said = base->marks_said, now->marks_next = base->marks_next;
    memcpy(now->marks, base->marks, sizeof now->marks);
  }
  now->marks[now->marks_next] =
      (hp2x_live_marks){p->n_marks, h->mk.shown, h->mk.sum};
  now->marks_next = (now->marks_next + 1) % HP2X_LIVE_MARK_WINDOW;
  if (now->marks_said < HP2X_LIVE_MARK_WINDOW) now->marks_said++;
}

/* The update's JSON object: with "thin" where the report thins, against
 * `base` (NULL: none); *now, this redraw's held censuses. */
static hp2x_status write_object(writebuf *w, const hp2x_profile *p,
                                const hp2x_bands *b, const hp2x_options *o,
                                size_t n, held_set *h,
                                const hp2x_live_held *base, hp2x_live_held *now,
                                hp2x_err *err) {
  band_stats *st = NULL;
  hp2x_status s = hpx_band_stats_compute(p, b, &st, &h->top, &h->top_at, err);
  if (s == HP2X_OK)
    s = hpx_html_held_take(p, b, h->idx, h->n, h->redraw, now, err);
  if (s == HP2X_OK) {
    said_now(p, h, base, now);
    hpx_writebuf_puts(w, "{");
    write_update(w, p, b, st, n, h);
    s = write_lines(w, p, b, o, err);
    if (s == HP2X_OK && h->n < b->n_samples)
      s = hpx_html_write_thin(w, p, b, h->idx, base, now, err);
    hpx_writebuf_puts(w, "}");
  }
  hpx_free(st);
  return s;
}

hp2x_status hp2x_write_live_step(const hp2x_profile *p, const hp2x_bands *b,
                                 const hp2x_options *o, size_t tail,
                                 long redraw, hp2x_live_held *held,
                                 hp2x_write_fn write, void *closure,
                                 hp2x_err *err) {
  if (!p || !b || b->n_samples == 0 || tail == 0)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "a live update needs a census and a tail of one or more");
  size_t n = tail < b->n_samples ? tail : b->n_samples;
  if (n > HPX_LIVE_TAIL) n = HPX_LIVE_TAIL;
  held_set h = {.redraw = redraw < 0 ? -1 : redraw};
  hp2x_live_held now = HP2X_LIVE_HELD_INIT;
  /* an older redraw than held's: written against none, held kept */
  int ahead = held && redraw > held->redraw;
  marks_said(p, held, &h);
  hp2x_status s = hpx_html_censuses(p, b, hpx_html_census_budget(p, b, NULL),
                                    &h.idx, &h.n, &h.columns, err);
  writebuf w;
  if (s == HP2X_OK) s = hpx_writebuf_init(&w, write, closure, err);
  if (s == HP2X_OK) {
    hp2x_status r =
        write_object(&w, p, b, o, n, &h, ahead ? held : NULL, &now, err);
    s = hpx_writebuf_finish(&w, err);
    if (s == HP2X_OK) s = r;
  }
  if (s == HP2X_OK && ahead) {
    hp2x_live_held_clear(held);
    *held = now;
  } else {
    hp2x_live_held_clear(&now);
  }
  hpx_free(h.idx);
  return s;
}

hp2x_status hp2x_write_live_update(const hp2x_profile *p, const hp2x_bands *b,
                                   size_t tail, hp2x_write_fn write,
                                   void *closure, hp2x_err *err) {
  return hp2x_write_live_step(p, b, NULL, tail, -1, NULL, write, closure, err);
}

static void write_key(writebuf *w, const hp2x_bands *b,
                      const hpx_page_geometry *g) {
  double box[4] = {g->graph_x0, g->graph_y0, g->graph_w, g->graph_h};
  hpx_html_key(w, "set", 1), hpx_html_band_set_text(w, b);
  hpx_html_key(w, "bands", 0), hpx_writebuf_puts(w, "[");
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_writebuf_puts(w, k ? ",{" : "{");
    hpx_html_write_band_name(w, b, g, k);
    hpx_writebuf_puts(w, "}");
  }
  hpx_writebuf_puts(w, "]");
  hpx_html_key(w, "page", 0), hpx_writebuf_puts(w, "{");
  hpx_html_key(w, "graph", 1), hpx_html_nums(w, box, 4);
  hpx_html_key(w, "xRoom", 0), hpx_html_num(w, g->x_room);
  hpx_html_key(w, "keyX", 0), hpx_html_num(w, g->key_x);
  hpx_html_key(w, "keyW", 0), hpx_html_num(w, g->key_w);
  hpx_html_key(w, "keyC", 0), hpx_html_nums(w, g->key_centre, g->n_key);
  hpx_html_write_key_names(w, g);
  hpx_writebuf_puts(w, "}");
}

hp2x_status hp2x_write_live_key(const hp2x_profile *p, const hp2x_bands *b,
                                const hp2x_options *o, hp2x_write_fn write,
                                void *closure, hp2x_err *err) {
  if (!p || !b || !o || b->n_samples == 0)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "a live key needs a census");
  hpx_page_geometry g;
  hp2x_status s = hpx_render_page(p, b, o, &g, NULL, NULL, err);
  writebuf w;
  if (s == HP2X_OK) s = hpx_writebuf_init(&w, write, closure, err);
  if (s == HP2X_OK) {
    hpx_writebuf_puts(&w, "{");
    write_key(&w, b, &g);
    hpx_writebuf_puts(&w, "}");
    s = hpx_writebuf_finish(&w, err);
  }
  hpx_page_geometry_free(&g);
  return s;
}
