/* html_write.c -- the HTML report (hp2x_write_html): one page that needs
 * nothing else.  Its picture is hp2x's own: the PNG render.c draws at 96
 * dpi (a CSS pixel each) is what the page shows first; over it lies the
 * same picture as SVG (hpx_render_page) without what the page redraws,
 * which the page's script shows instead once a band is hidden, the time
 * axis zoomed or the chart kind switched, drawing the bands, the axes
 * and their ticks, the key, --heap lines and marks at the picture's places
 * from the JSON data (html_data.c).  The script (report_*.js, joined into
 * one; README.md) and style (report.css) are ours, embedded at build time
 * (mk/embed.sh).  Labels reach the page only as escaped JSON or escaped
 * text.  The page's bytes are budgeted: what the pictures (at a fixed
 * allowance), script and labels leave goes to the censuses it holds
 * (html_census.c).
 */
#include "html_int.h"
#include "report_assets.h"

#include <string.h>

/* A growing buffer a picture is drawn into. */
typedef struct out_buf {
  char *data; /* owned; NUL-ended */
  size_t len, cap;
  int nomem; /* an allocation failed: the drawing's "write error" is that */
} out_buf;

static int buf_put(void *closure, const void *buf, size_t len) {
  out_buf *s = closure;
  hp2x_err err;
  hp2x_err_init(&err);
  void *data = s->data;
  if (hpx_grow(&data, &s->cap, s->len + len + 1, 1, &err) != HP2X_OK) {
    s->nomem = 1;
    return -1;
  }
  s->data = data;
  memcpy(s->data + s->len, buf, len);
  s->len += len;
  s->data[s->len] = '\0';
  return 0;
}

/* The page's head: title (the job's, or hp2x's alone), the policy that
 * lets it fetch nothing (a live page: nothing but from its server), the
 * style.  `redraw` >= 0: the redraw the page shows, on <html>. */
static void write_head(writebuf *w, const char *job, int live, long redraw) {
  hpx_writebuf_puts(w, "<!DOCTYPE html>\n<html lang=\"en\"");
  if (redraw >= 0) {
    char num[24];
    hpx_writebuf_puts(w, " data-hp2x-redraw=\"");
    hpx_writebuf_put(w, num, hpx_fmt_int(num, redraw));
    hpx_writebuf_puts(w, "\"");
  }
  hpx_writebuf_puts(w, ">\n<head>\n<meta charset=\"utf-8\">\n"
                       "<meta http-equiv=\"Content-Security-Policy\" content=\""
                       "default-src 'none'; style-src 'unsafe-inline'; "
                       "script-src 'unsafe-inline'; img-src data:");
  hpx_writebuf_puts(w, live ? "; connect-src 'self'\">\n" : "\">\n");
  hpx_writebuf_puts(
      w, "<meta name=\"generator\" content=\"hp2x " HP2X_VERSION_STRING
         "\">\n<title>");
  if (job) {
    hpx_html_text(w, job);
    hpx_writebuf_puts(w, " - ");
  }
  hpx_writebuf_puts(w, "hp2x</title>\n<style>\n");
  hpx_writebuf_puts(w, (const char *)hpx_report_css);
  hpx_writebuf_puts(w, "</style>\n</head>\n");
}

/* A live page's status line, before its report. */
static const char live_status[] =
    "<p id=\"hp2x-live-status\" role=\"status\">connecting to the "
    "server</p>\n";

/* The pictures: the PNG (png NULL: an empty data: URL), and the SVG over
 * it. */
static void write_figure(writebuf *w, const out_buf *png, const out_buf *svg,
                         const hp2x_profile *p) {
  hpx_writebuf_puts(w,
                    "<div id=\"hp2x-figure\">\n<img id=\"hp2x-raster\" alt=\"");
  hpx_html_text(w, p->job);
  hpx_writebuf_puts(w, "\" src=\"data:image/png;base64,");
  if (png) hpx_html_write_base64(w, (const unsigned char *)png->data, png->len);
  hpx_writebuf_puts(w, "\">\n");
  hpx_html_write_svg(w, svg->data);
  hpx_writebuf_puts(w, "</div>\n");
}

/* The body around the pictures and data: controls, tooltip, the moment's
 * table (one census) and the band table (the run, or the zoom). */
static void write_body(writebuf *w) {
  hpx_writebuf_puts(
      w, "<div id=\"hp2x-controls\"><button id=\"hp2x-reset\" "
         "type=\"button\" disabled>Show the whole run</button> "
         "<span id=\"hp2x-view\"></span></div>\n"
         "<div id=\"hp2x-tip\" role=\"tooltip\" hidden></div>\n"
         "<section id=\"hp2x-moment\"><h2>One census</h2>\n"
         "<p><span id=\"hp2x-moment-says\" role=\"status\"></span> "
         "<button id=\"hp2x-follow\" type=\"button\" hidden>Follow the "
         "newest census</button></p>\n"
         "<table id=\"hp2x-moment-table\"></table></section>\n"
         "<section id=\"hp2x-bands\"><h2>Bands</h2>\n"
         "<p id=\"hp2x-bands-says\"></p>\n"
         "<p><input id=\"hp2x-filter\" type=\"search\" "
         "placeholder=\"Filter bands\" aria-label=\"Filter bands\"> "
         "<span id=\"hp2x-count\"></span></p>\n"
         "<table id=\"hp2x-table\"></table></section>\n"
         "<noscript>Hover, hiding bands, zoom and the tables need "
         "JavaScript.</noscript>\n</main>\n"
         "<script type=\"application/json\" id=\"hp2x-data\">");
}

/* The whole page through w; a live one (redraw >= 0) with its status
 * line and script; png NULL (lean): without the PNG's bytes, nor the
 * scripts, which the live page that swaps it in has. */
static int write_page(writebuf *w, const out_buf *png, const out_buf *svg,
                      const html_data *d, long redraw) {
  write_head(w, d->p->job, redraw >= 0, redraw);
  hpx_writebuf_puts(w, "<body>\n");
  if (redraw >= 0) hpx_writebuf_puts(w, live_status);
  hpx_writebuf_puts(w, "<main id=\"hp2x-report\">\n");
  write_figure(w, png, svg, d->p);
  write_body(w);
  if (!hpx_html_write_data(w, d)) return 0;
  if (png) {
    hpx_writebuf_puts(w, "</script>\n<script>\n");
    hpx_writebuf_puts(w, (const char *)hpx_report_js);
  }
  if (png && redraw >= 0) {
    hpx_writebuf_puts(w, "</script>\n<script>\n");
    hpx_writebuf_puts(w, (const char *)hpx_live_js);
  }
  hpx_writebuf_puts(w, "</script>\n</body>\n</html>\n");
  return 1;
}

/* What the page's budget leaves for the held censuses' times and values:
 * a function of the data alone, the pictures counted at a fixed
 * allowance, so that which censuses a page holds is known without drawing
 * it (a live update says it each census: html_live.c). */
size_t hpx_html_census_budget(const hp2x_profile *p, const hp2x_bands *b,
                              const hpx_page_geometry *g) {
  size_t used = HPX_PAGE_PICTURE_BYTES + sizeof hpx_report_js +
                sizeof hpx_report_css + 8000 +
                2 * hpx_html_shown_length(p->job);
  for (size_t k = 0; k < b->n_bands; k++) {
    const char *detail = b->texts ? b->texts[k].detail : NULL;
    used += 300 + 2 * (hpx_html_shown_length(b->names[k]) +
                       (detail ? hpx_html_shown_length(detail) : 0));
  }
  for (size_t i = 0; g && i < g->n_lines; i++) {
    size_t n = g->line_series[i]->n;
    used += 200 +
            28 *
                (n < 4 * HPX_PAGE_LINE_COLUMNS ? n : 4 * HPX_PAGE_LINE_COLUMNS);
  }
  used += p->n_marks ? HPX_PAGE_MARK_BYTES + 1000 : 0;
  size_t left = used < HPX_PAGE_BYTES ? HPX_PAGE_BYTES - used : 0;
  if (left > HPX_PAGE_VALUE_BYTES) left = HPX_PAGE_VALUE_BYTES;
  return left < HPX_PAGE_MIN_VALUE_BYTES ? HPX_PAGE_MIN_VALUE_BYTES : left;
}

/* The figures and censuses the page shows, once its pictures are drawn;
 * `lean`: without the PNG (not drawn). */
static hp2x_status write_report(const hp2x_profile *p, const hp2x_bands *b,
                                const hpx_page_geometry *g, const out_buf *png,
                                const out_buf *svg, long redraw, int lean,
                                hp2x_write_fn write, void *closure,
                                hp2x_err *err) {
  html_data d = {p, b, g, NULL, NULL, 0, 0, 0, 0, 0};
  size_t *held = NULL;
  band_stats *st = NULL;
  hp2x_status s = hpx_band_stats_compute(p, b, &st, &d.top, &d.top_at, err);
  if (s == HP2X_OK) d.budget = hpx_html_census_budget(p, b, g);
  if (s == HP2X_OK)
    s = hpx_html_censuses(p, b, d.budget, &held, &d.n_held, &d.columns, err);
  if (s != HP2X_OK) {
    hpx_free(st);
    return s;
  }
  d.st = st, d.held = held;
  writebuf w;
  s = hpx_writebuf_init(&w, write, closure, err);
  if (s == HP2X_OK) {
    int ok = write_page(&w, lean ? NULL : png, svg, &d, redraw);
    s = hpx_writebuf_finish(&w, err);
    if (s == HP2X_OK && !ok) s = hpx_nomem(err);
  }
  hpx_free(st), hpx_free(held);
  return s;
}

/* The report, live (redraw >= 0) or not; `lean`: without its PNG, which
 * is then not drawn (the censuses held do not depend on it). */
static hp2x_status write_html(const hp2x_profile *p, const hp2x_bands *b,
                              const hp2x_options *o, long redraw, int lean,
                              hp2x_write_fn write, void *closure,
                              hp2x_err *err) {
  out_buf svg = {NULL, 0, 0, 0}, png = {NULL, 0, 0, 0};
  hpx_page_geometry g;
  hp2x_status st = hpx_render_page(p, b, o, &g, buf_put, &svg, err);
  if (st == HP2X_OK && !lean) {
    hp2x_options po = *o;
    po.format = HP2X_FORMAT_PNG;
    po.dpi = HPX_PAGE_DPI;
    st = hp2x_render(p, b, &po, buf_put, &png, err);
  }
  if (st != HP2X_OK && (svg.nomem || png.nomem)) {
    hp2x_err_init(err); /* cairo saw a failing sink: the cause is memory */
    st = hpx_nomem(err);
  }
  if (st == HP2X_OK)
    st = write_report(p, b, &g, &png, &svg, redraw, lean, write, closure, err);
  hpx_page_geometry_free(&g);
  hpx_free(svg.data), hpx_free(png.data);
  return st;
}

hp2x_status hp2x_write_html(const hp2x_profile *p, const hp2x_bands *b,
                            const hp2x_options *o, hp2x_write_fn write,
                            void *closure, hp2x_err *err) {
  return write_html(p, b, o, -1, 0, write, closure, err);
}

/* A live page of redraw (>= 0), whole or lean. */
static hp2x_status write_live(const hp2x_profile *p, const hp2x_bands *b,
                              const hp2x_options *o, long redraw, int lean,
                              hp2x_write_fn write, void *closure,
                              hp2x_err *err) {
  if (redraw < 0)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "a live page's redraw is >= 0");
  return write_html(p, b, o, redraw, lean, write, closure, err);
}

hp2x_status hp2x_write_live_html(const hp2x_profile *p, const hp2x_bands *b,
                                 const hp2x_options *o, long redraw,
                                 hp2x_write_fn write, void *closure,
                                 hp2x_err *err) {
  return write_live(p, b, o, redraw, 0, write, closure, err);
}

hp2x_status hp2x_write_live_lean_html(const hp2x_profile *p,
                                      const hp2x_bands *b,
                                      const hp2x_options *o, long redraw,
                                      hp2x_write_fn write, void *closure,
                                      hp2x_err *err) {
  return write_live(p, b, o, redraw, 1, write, closure, err);
}

hp2x_status hp2x_write_live_waiting_html(long redraw, hp2x_write_fn write,
                                         void *closure, hp2x_err *err) {
  writebuf w;
  hp2x_status s = hpx_writebuf_init(&w, write, closure, err);
  if (s != HP2X_OK) return s;
  write_head(&w, NULL, 1, redraw);
  hpx_writebuf_puts(&w, "<body>\n");
  hpx_writebuf_puts(&w, live_status);
  hpx_writebuf_puts(&w, "<script>\n");
  hpx_writebuf_puts(&w, (const char *)hpx_report_js);
  hpx_writebuf_puts(&w, "</script>\n<script>\n");
  hpx_writebuf_puts(&w, (const char *)hpx_live_js);
  hpx_writebuf_puts(&w, "</script>\n</body>\n</html>\n");
  return hpx_writebuf_finish(&w, err);
}
