/* html_data.c -- the HTML report's data as one JSON object, which the
 * page's script reads: the picture's geometry and how it looks (page.h,
 * look.h), each chart kind's y axis, the bands (name,
 * the whole record a -hi name leaves out, colour, the summary's cells),
 * the held censuses exactly as the CSV writes them (times with six
 * decimals, values in plain decimal), the --heap lines and the marks.
 * Every string is escaped so that no '<', '>' or '&' appears: the JSON
 * sits inside a <script> element, and labels are untrusted.
 */
#include "html_int.h"

#include <math.h>
#include <string.h>

size_t hpx_html_shown_length(const char *s) {
  size_t n = strlen(s);
  if (n <= HPX_PAGE_TEXT_BYTES) return n;
  n = HPX_PAGE_TEXT_BYTES;
  while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80) n--; /* whole chars */
  return n;
}

/* What ends a string the page shows cut (hpx_html_shown_length): an
 * ellipsis and how long the whole was, which CSV and --summary keep; ""
 * when not cut.  Returns its length. */
static size_t cut_note(char note[64], const char *s, size_t shown) {
  size_t n = strlen(s);
  note[0] = '\0';
  if (shown == n) return 0;
  hpx_fmt(note, 64, "\xe2\x80\xa6 (%zu bytes in all)", n);
  return strlen(note);
}

/* Byte *c of a string as JSON text: its escape (in esc, or a constant),
 * or NULL when it goes as it is; *more: the bytes after c it stands for
 * too (a line separator's). */
static const char *json_escape(const unsigned char *c, char esc[8],
                               size_t *more) {
  *more = 0;
  if (*c == '"' || *c == '\\') {
    esc[0] = '\\', esc[1] = (char)*c, esc[2] = '\0';
    return esc;
  }
  if (*c < 0x20 || *c == '<' || *c == '>' || *c == '&' || *c == 0x7f) {
    hpx_fmt(esc, 8, "\\u%04x", *c);
    return esc;
  }
  if (*c == 0xe2 && c[1] == 0x80 && (c[2] == 0xa8 || c[2] == 0xa9)) {
    *more = 2; /* the line separators */
    return c[2] == 0xa8 ? "\\u2028" : "\\u2029";
  }
  return NULL;
}

void hpx_html_json_str(writebuf *w, const char *s) {
  hpx_writebuf_puts(w, "\"");
  size_t shown = hpx_html_shown_length(s), more;
  const unsigned char *end = (const unsigned char *)s + shown;
  for (const unsigned char *c = (const unsigned char *)s; c < end; c++) {
    char esc[8];
    const char *e = json_escape(c, esc, &more);
    if (e)
      hpx_writebuf_puts(w, e), c += more;
    else
      hpx_writebuf_put(w, (const char *)c, 1);
  }
  char note[64];
  hpx_writebuf_put(w, note, cut_note(note, s, shown));
  hpx_writebuf_puts(w, "\"");
}

size_t hpx_html_json_str_size(const char *s) {
  size_t shown = hpx_html_shown_length(s), more, n = 2;
  const unsigned char *end = (const unsigned char *)s + shown;
  for (const unsigned char *c = (const unsigned char *)s; c < end; c++) {
    char esc[8];
    const char *e = json_escape(c, esc, &more);
    n += e ? strlen(e) : 1, c += more;
  }
  char note[64];
  return n + cut_note(note, s, shown);
}

void hpx_html_text(writebuf *w, const char *s) {
  const char *all = s, *end = s + hpx_html_shown_length(s);
  for (; s < end; s++) {
    switch (*s) {
    case '&': hpx_writebuf_puts(w, "&amp;"); break;
    case '<': hpx_writebuf_puts(w, "&lt;"); break;
    case '>': hpx_writebuf_puts(w, "&gt;"); break;
    case '"': hpx_writebuf_puts(w, "&quot;"); break;
    case '\'': hpx_writebuf_puts(w, "&#39;"); break;
    default: hpx_writebuf_put(w, s, 1);
    }
  }
  if (*s) {
    char note[64];
    hpx_fmt(note, sizeof note, "&#8230; (%zu bytes in all)", strlen(all));
    hpx_writebuf_puts(w, note);
  }
}

void hpx_html_bool(writebuf *w, int v) {
  hpx_writebuf_puts(w, v ? "true" : "false");
}

/* v as hpx_html_num writes it, in num; returns its length. */
static size_t num_text(char num[64], double v) {
  if (!(v == v) || v > 1.7e308 || v < -1.7e308)
    hpx_fmt(num, 64, "null");
  else
    hpx_fmt(num, 64, "%.10g", v);
  return strlen(num);
}

void hpx_html_num(writebuf *w, double v) {
  char num[64];
  hpx_writebuf_put(w, num, num_text(num, v));
}

/* An int64 as JSON: a number when a double holds it exactly, else a
 * string of its digits. */
void hpx_html_int(writebuf *w, int64_t v) {
  char num[24];
  size_t n = hpx_fmt_int(num, v);
  int exact = v <= ((int64_t)1 << 53) && v >= -((int64_t)1 << 53);
  if (!exact) hpx_writebuf_puts(w, "\"");
  hpx_writebuf_put(w, num, n);
  if (!exact) hpx_writebuf_puts(w, "\"");
}

/* "key": before a value; `first` leaves out the comma. */
void hpx_html_key(writebuf *w, const char *k, int first) {
  if (!first) hpx_writebuf_puts(w, ",");
  hpx_html_json_str(w, k);
  hpx_writebuf_puts(w, ":");
}

void hpx_html_nums(writebuf *w, const double *v, size_t n) {
  hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) hpx_writebuf_puts(w, ",");
    hpx_html_num(w, v[i]);
  }
  hpx_writebuf_puts(w, "]");
}

void hpx_html_write_area_text(writebuf *w, const hp2x_profile *p,
                              const hp2x_bands *b) {
  char area[HPX_LAYOUT_AREA_SIZE];
  hpx_layout_area_title(area, sizeof area, p, b);
  hpx_html_key(w, "areaText", 0), hpx_html_json_str(w, area);
}

void hpx_html_write_key_names(writebuf *w, const hpx_page_geometry *g) {
  hpx_html_key(w, "keyNames", 0), hpx_writebuf_puts(w, "[");
  for (size_t k = 0; k < g->n_key_names; k++) {
    if (k) hpx_writebuf_puts(w, ",");
    hpx_html_json_str(w, g->key_name[k]);
  }
  hpx_writebuf_puts(w, "]");
}

/* The picture's geometry. */
static void write_geometry(writebuf *w, const html_data *d) {
  const hpx_page_geometry *g = d->g;
  double box[4] = {g->graph_x0, g->graph_y0, g->graph_w, g->graph_h};
  hpx_html_key(w, "page", 0);
  hpx_writebuf_puts(w, "{");
  hpx_html_key(w, "w", 1), hpx_html_num(w, g->width_pt);
  hpx_html_key(w, "h", 0), hpx_html_num(w, g->height_pt);
  hpx_html_key(w, "frame", 0), hpx_html_nums(w, g->frame, 6);
  hpx_html_key(w, "graph", 0), hpx_html_nums(w, box, 4);
  hpx_html_key(w, "xRoom", 0), hpx_html_num(w, g->x_room);
  hpx_html_key(w, "keyX", 0), hpx_html_num(w, g->key_x);
  hpx_html_key(w, "keyW", 0), hpx_html_num(w, g->key_w);
  hpx_html_key(w, "keyC", 0), hpx_html_nums(w, g->key_centre, g->n_key);
  hpx_html_write_key_names(w, g);
  double area[4] = {g->area_x, g->area_y, g->area_max_w, g->area_pt};
  hpx_html_key(w, "area", 0), hpx_html_nums(w, area, 4);
  hpx_html_key(w, "areaAnchor", 0), hpx_html_num(w, g->area_anchor);
  hpx_html_key(w, "bigTitle", 0), hpx_html_bool(w, g->big_title);
  hpx_html_key(w, "ticks", 0), hpx_html_nums(w, g->xtick_pos, g->n_xticks);
  hpx_html_key(w, "tickLabels", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < g->n_xticks; i++) {
    if (i) hpx_writebuf_puts(w, ",");
    hpx_html_json_str(w, g->xtick_label[i]);
  }
  hpx_writebuf_puts(w, "]}");
}

/* How the picture looks (draw/look.h), for the page's own drawing. */
static void write_look(writebuf *w) {
  const draw_look *k = &hpx_look;
  double ladder[6] = {k->tick_ladder[0][0], k->tick_ladder[0][1],
                      k->tick_ladder[1][0], k->tick_ladder[1][1],
                      k->tick_ladder[2][0], k->tick_ladder[2][1]};
  hpx_html_key(w, "look", 0), hpx_writebuf_puts(w, "{");
  hpx_html_key(w, "font", 1), hpx_html_json_str(w, k->font_family);
  hpx_html_key(w, "fontFallback", 0), hpx_html_json_str(w, k->font_fallback);
  hpx_html_key(w, "ink", 0), hpx_html_nums(w, k->ink, 3);
  hpx_html_key(w, "paper", 0), hpx_html_nums(w, k->paper, 3);
  hpx_html_key(w, "text", 0), hpx_html_num(w, k->text_pt);
  hpx_html_key(w, "line", 0), hpx_html_num(w, k->line_w);
  hpx_html_key(w, "tickLen", 0), hpx_html_num(w, k->tick_len);
  hpx_html_key(w, "xLabelY", 0), hpx_html_num(w, k->xlabel_y);
  hpx_html_key(w, "yLabelDx", 0), hpx_html_num(w, k->ylabel_dx);
  hpx_html_key(w, "legendDx", 0), hpx_html_num(w, k->legend_dx);
  hpx_html_key(w, "tickDivisions", 0), hpx_html_num(w, k->tick_divisions);
  hpx_html_key(w, "tickLadder", 0), hpx_html_nums(w, ladder, 6);
  hpx_html_key(w, "maxTicks", 0), hpx_html_num(w, (double)k->max_ticks);
  hpx_html_key(w, "tickMaxDecimals", 0),
      hpx_html_num(w, (double)k->tick_max_decimals);
  hpx_html_key(w, "keyBox", 0), hpx_html_num(w, k->key_box);
  hpx_html_key(w, "keyBoxDx", 0), hpx_html_num(w, k->key_box_dx);
  hpx_html_key(w, "keyTextDx", 0), hpx_html_num(w, k->key_text_dx);
  hpx_html_key(w, "heapLine", 0), hpx_html_num(w, k->heap_line_w);
  hpx_html_key(w, "chartLine", 0), hpx_html_num(w, k->chart_line_w);
  hpx_html_key(w, "chartCasing", 0), hpx_html_num(w, k->chart_casing_w);
  hpx_html_key(w, "patternLine", 0), hpx_html_num(w, k->pattern_line_w);
  hpx_html_key(w, "patternDashes", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < LOOK_PATTERNS; i++) {
    if (i) hpx_writebuf_puts(w, ",");
    hpx_html_nums(w, k->pattern_dashes[i], (size_t)k->pattern_n_dashes[i]);
  }
  hpx_writebuf_puts(w, "]");
  hpx_html_key(w, "markLine", 0), hpx_html_num(w, k->mark_w);
  hpx_html_key(w, "markDash", 0), hpx_html_nums(w, k->mark_dash, 2);
  hpx_html_key(w, "markTri", 0), hpx_html_num(w, k->mark_tri);
  hpx_html_key(w, "markFont", 0), hpx_html_num(w, k->mark_font_pt);
  hpx_html_key(w, "markGap", 0), hpx_html_num(w, k->mark_label_gap);
  hpx_html_key(w, "markDx", 0), hpx_html_num(w, k->mark_label_dx);
  hpx_html_key(w, "markTop", 0), hpx_html_num(w, k->mark_label_top);
  hpx_writebuf_puts(w, "}");
}

/* Each chart kind the page offers: its y axis, legend and ticks. */
static void write_charts(writebuf *w, const hpx_page_geometry *g) {
  hpx_html_key(w, "chart", 0), hpx_html_json_str(w, hpx_chart_name(g->chart));
  hpx_html_key(w, "pattern", 0), hpx_html_bool(w, g->pattern);
  hpx_html_key(w, "charts", 0), hpx_writebuf_puts(w, "{");
  int first = 1;
  for (int kind = 0; kind < HPX_PAGE_CHARTS; kind++) {
    const hpx_page_chart *c = &g->charts[kind];
    if (!c->shown) continue;
    hpx_html_key(w, hpx_chart_name((hp2x_chart)kind), first),
        hpx_writebuf_puts(w, "{");
    first = 0;
    hpx_html_key(w, "ymin", 1), hpx_html_num(w, c->axis.ymin);
    hpx_html_key(w, "yrange", 0), hpx_html_num(w, c->axis.yrange);
    hpx_html_key(w, "legend", 0), hpx_html_json_str(w, c->legend);
    hpx_html_key(w, "heap", 0), hpx_html_bool(w, c->heap);
    /* the y ticks stop below the legend (hpx_layout_y_ticks) */
    hpx_html_key(w, "yRoom", 0);
    hpx_html_num(w, g->graph_h - (c->legend_w + LAYOUT_LEGEND_ROOM));
    hpx_html_key(w, "ticks", 0), hpx_writebuf_puts(w, "[");
    for (size_t i = 0; i < c->n_yticks; i++) {
      hpx_writebuf_puts(w, i ? ",[" : "[");
      hpx_html_num(w, c->yticks[i].pos);
      hpx_writebuf_puts(w, ",");
      hpx_html_json_str(w, c->yticks[i].label);
      hpx_writebuf_puts(w, "]");
    }
    hpx_writebuf_puts(w, "]}");
  }
  hpx_writebuf_puts(w, "}");
}

/* The axes' ranges and the profile's strings. */
static void write_header(writebuf *w, const html_data *d) {
  const hp2x_profile *p = d->p;
  const hp2x_bands *b = d->b;
  char num[HPX_BAND_TIME_SIZE], unit[160];
  hpx_html_key(w, "job", 1), hpx_html_json_str(w, p->job);
  hpx_html_key(w, "date", 0), hpx_html_json_str(w, p->date);
  hpx_html_key(w, "valueUnit", 0), hpx_html_json_str(w, p->value_unit);
  hpx_html_key(w, "sampleUnit", 0), hpx_html_json_str(w, p->sample_unit);
  hpx_fmt(unit, sizeof unit, "%s per %s", p->value_unit, p->sample_unit);
  hpx_html_key(w, "x0", 0), hpx_html_num(w, b->x0);
  hpx_html_key(w, "xrange", 0), hpx_html_num(w, b->xrange);
  hpx_html_key(w, "ymin", 0), hpx_html_num(w, b->ymin);
  hpx_html_key(w, "yrange", 0), hpx_html_num(w, b->yrange);
  hpx_html_key(w, "signed", 0), hpx_html_bool(w, b->is_signed);
  hpx_html_key(w, "midRun", 0), hpx_html_bool(w, p->began_mid_run);
  hpx_html_key(w, "tickEnd", 0);
  hpx_html_num(w, b->x_span_ticks || !b->n_samples
                      ? b->x0 + b->xrange
                      : p->times[b->n_samples - 1]);
  hpx_html_key(w, "censuses", 0), hpx_html_num(w, (double)b->n_samples);
  hpx_html_key(w, "set", 0), hpx_html_band_set_text(w, b);
  hpx_html_key(w, "markCount", 0), hpx_html_num(w, (double)p->n_marks);
  html_marks marks;
  hpx_html_marks_of(p, &marks);
  hpx_html_key(w, "markSum", 0), hpx_html_mark_sum_text(w, marks.sum);
  hpx_html_key(w, "budget", 0), hpx_html_num(w, (double)d->budget);
  hpx_html_key(w, "pageColumns", 0), hpx_html_num(w, HPX_PAGE_COLUMNS);
  hpx_html_key(w, "columns", 0), hpx_html_num(w, (double)d->columns);
  hpx_html_key(w, "topPeak", 0);
  hpx_html_json_str(w, hpx_band_thousands(num, sizeof num, (double)d->top));
  hpx_html_write_area_text(w, p, b);
  hpx_html_key(w, "topPeakAt", 0);
  hpx_html_json_str(w, b->n_samples
                           ? hpx_band_time(num, sizeof num, p->times[d->top_at])
                           : "-");
}

/* Band k: its name, the record its name leaves out, colour and cells. */
void hpx_html_write_cells(writebuf *w, const hp2x_profile *p,
                          const hp2x_bands *b, const band_stats *st, size_t k) {
  band_cells c = {"-", "-", "-", "-", "-", "-"};
  if (b->n_samples) hpx_band_cells(p, &st[k], &c);
  hpx_html_key(w, "total", 0), hpx_html_json_str(w, c.total);
  hpx_html_key(w, "peak", 0), hpx_html_json_str(w, c.peak);
  hpx_html_key(w, "peakAt", 0), hpx_html_json_str(w, c.peak_at);
  hpx_html_key(w, "slope", 0), hpx_html_json_str(w, c.slope);
  hpx_html_key(w, "r2", 0), hpx_html_json_str(w, c.r2);
  hpx_html_key(w, "area", 0), hpx_html_json_str(w, c.area);
  hpx_html_key(w, "suspect", 0), hpx_html_bool(w, st[k].suspect);
  hpx_html_key(w, "peakV", 0), hpx_html_int(w, hpx_chart_band_peak(b, k));
}

uint64_t hpx_html_band_set(const hp2x_bands *b) {
  uint64_t h = 0xcbf29ce484222325u; /* FNV-1a, 64 bits */
  unsigned char head[2] = {(unsigned char)(b->n_bands & 0xff),
                           (unsigned char)(b->is_other ? 1 : 0)};
  for (size_t i = 0; i < sizeof head; i++) h = (h ^ head[i]) * 0x100000001b3u;
  for (size_t k = 0; k < b->n_bands; k++)
    for (const unsigned char *c = (const unsigned char *)b->names[k];; c++) {
      h = (h ^ *c) * 0x100000001b3u;
      if (!*c) break;
    }
  return h;
}

void hpx_html_band_set_text(writebuf *w, const hp2x_bands *b) {
  char hex[24];
  hpx_fmt(hex, sizeof hex, "%016llx", (unsigned long long)hpx_html_band_set(b));
  hpx_writebuf_puts(w, "\"");
  hpx_writebuf_puts(w, hex);
  hpx_writebuf_puts(w, "\"");
}

void hpx_html_write_band_name(writebuf *w, const hp2x_bands *b,
                              const hpx_page_geometry *g, size_t k) {
  const char *detail = b->texts ? b->texts[k].detail : NULL;
  char colour[16];
  const double *rgb = g->rgb + 3 * k;
  hpx_fmt(colour, sizeof colour, "#%02x%02x%02x",
          (unsigned)(rgb[0] * 255.0 + 0.5), (unsigned)(rgb[1] * 255.0 + 0.5),
          (unsigned)(rgb[2] * 255.0 + 0.5));
  hpx_html_key(w, "name", 1), hpx_html_json_str(w, b->names[k]);
  hpx_html_key(w, "detail", 0), hpx_html_json_str(w, detail ? detail : "");
  hpx_html_key(w, "colour", 0), hpx_html_json_str(w, colour);
  hpx_html_key(w, "other", 0), hpx_html_bool(w, b->is_other && k == 0);
}

static void write_band(writebuf *w, const html_data *d, size_t k) {
  const hp2x_bands *b = d->b;
  hpx_writebuf_puts(w, "{");
  hpx_html_write_band_name(w, b, d->g, k);
  hpx_html_write_cells(w, d->p, b, d->st, k);
  hpx_html_key(w, "v", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < d->n_held; i++) {
    if (i) hpx_writebuf_puts(w, ",");
    hpx_html_int(w, b->values[k * b->stride + d->held[i]]);
  }
  hpx_writebuf_puts(w, "]}");
}

/* The held censuses' times, as the CSV writes them; and where that text
 * is not exact, "tx": the times exactly (hpx_html_exact_time), which the
 * page's summary figures take. */
static void write_times(writebuf *w, const html_data *d) {
  char num[HPX_FIXED6_SIZE];
  hpx_html_key(w, "t", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < d->n_held; i++) {
    if (i) hpx_writebuf_puts(w, ",");
    hpx_writebuf_puts(w, "\"");
    hpx_writebuf_put(w, num, hpx_fmt_fixed6(num, d->p->times[d->held[i]]));
    hpx_writebuf_puts(w, "\"");
  }
  hpx_writebuf_puts(w, "]");
  if (!hpx_html_needs_exact_times(d->p, d->held, d->n_held)) return;
  hpx_html_key(w, "tx", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < d->n_held; i++) {
    if (i) hpx_writebuf_puts(w, ",");
    double t = d->p->times[d->held[i]];
    if (isfinite(t))
      hpx_writebuf_put(w, num, hpx_html_exact_time(num, sizeof num, t));
    else
      hpx_writebuf_puts(w, "null");
  }
  hpx_writebuf_puts(w, "]");
}

/* Series s's points as the report writes them: thinned to
 * HPX_PAGE_LINE_COLUMNS columns over b's time axis, "t" and "y" (a live
 * update's lines too: html_live.c).  0 when out of memory. */
int hpx_html_write_line_points(writebuf *w, const hp2x_bands *b,
                               const hpx_series *s) {
  double *xy = hpx_malloc((s->n ? s->n : 1) * 2 * sizeof *xy);
  size_t *keep = hpx_malloc((s->n ? s->n : 1) * sizeof *keep);
  if (!xy || !keep) {
    hpx_free(xy), hpx_free(keep);
    return 0;
  }
  for (size_t j = 0; j < s->n; j++)
    xy[j] = s->time_s[j], xy[s->n + j] = (double)s->bytes[j];
  size_t n = hpx_thin_curve(xy, xy + s->n, s->n, b->x0, b->x0 + b->xrange,
                            HPX_PAGE_LINE_COLUMNS, keep);
  hpx_html_key(w, "t", 0), hpx_writebuf_puts(w, "[");
  for (size_t j = 0; j < n; j++)
    hpx_writebuf_puts(w, j ? "," : ""), hpx_html_num(w, xy[keep[j]]);
  hpx_writebuf_puts(w, "]");
  hpx_html_key(w, "y", 0), hpx_writebuf_puts(w, "[");
  for (size_t j = 0; j < n; j++)
    hpx_writebuf_puts(w, j ? "," : ""), hpx_html_int(w, s->bytes[keep[j]]);
  hpx_writebuf_puts(w, "]");
  hpx_free(xy), hpx_free(keep);
  return 1;
}

/* One --heap line: its name, looks and points.  0 when out of memory. */
static int write_line(writebuf *w, const html_data *d, size_t i) {
  const hpx_page_geometry *g = d->g;
  hpx_writebuf_puts(w, i ? "," : "");
  hpx_writebuf_puts(w, "{");
  hpx_html_key(w, "name", 1), hpx_html_json_str(w, g->line_name[i]);
  hpx_html_key(w, "rgb", 0), hpx_html_nums(w, g->line_rgb[i], 3);
  hpx_html_key(w, "dash", 0),
      hpx_html_nums(w, g->line_dash[i], (size_t)g->line_n_dash[i]);
  if (!hpx_html_write_line_points(w, d->b, g->line_series[i])) return 0;
  hpx_writebuf_puts(w, "}");
  return 1;
}

/* How many of p's marks the page holds: the first ones whose JSON
 * ([t,"label"] and a comma, escapes counted; each at least 24 bytes, so
 * that the page draws at most about 2,000) fits in HPX_PAGE_MARK_BYTES. */
static size_t marks_shown(const hp2x_profile *p) {
  size_t bytes = 0, m;
  for (m = 0; m < p->n_marks; m++) {
    char num[64];
    size_t one = 4 + num_text(num, p->mark_time[m]) +
                 hpx_html_json_str_size(p->mark_label[m]);
    bytes += one < 24 ? 24 : one;
    if (bytes > HPX_PAGE_MARK_BYTES) break;
  }
  return m;
}

/* FNV-1a, 64 bits, of n bytes at d, from h. */
static uint64_t fnv(uint64_t h, const void *d, size_t n) {
  for (const unsigned char *c = d; n--; c++) h = (h ^ *c) * 0x100000001b3u;
  return h;
}

/* The fingerprint's state after mark k of p (hashed onto h). */
static uint64_t mark_hash(const hp2x_profile *p, size_t k, uint64_t h) {
  const char *label = p->mark_label[k];
  uint64_t len = strlen(label);
  h = fnv(h, &p->mark_time[k], sizeof p->mark_time[k]);
  h = fnv(h, &len, sizeof len); /* the cut note's */
  return fnv(h, label, hpx_html_shown_length(label));
}

#define MARKS_HASH0 0xcbf29ce484222325u

void hpx_html_marks_of(const hp2x_profile *p, html_marks *m) {
  uint64_t h = MARKS_HASH0, count = p->n_marks;
  m->shown = marks_shown(p);
  for (size_t k = 0; k < m->shown; k++) h = mark_hash(p, k, h);
  m->sum = fnv(h, &count, sizeof count);
}

void hpx_html_marks_begin(const hp2x_profile *p, const hp2x_live_marks *said,
                          size_t n, int *begins) {
  size_t shown = marks_shown(p), most = 0;
  for (size_t i = 0; i < n; i++) {
    begins[i] = 0;
    if (said[i].shown <= shown && said[i].shown > most) most = said[i].shown;
  }
  uint64_t h = MARKS_HASH0;
  for (size_t k = 0;; k++) {
    for (size_t i = 0; i < n; i++) {
      uint64_t count = said[i].count;
      if (said[i].shown == k && said[i].shown <= shown)
        begins[i] = fnv(h, &count, sizeof count) == said[i].sum;
    }
    if (k == most) break;
    h = mark_hash(p, k, h);
  }
}

void hpx_html_mark_sum_text(writebuf *w, uint64_t sum) {
  char hex[24];
  hpx_fmt(hex, sizeof hex, "\"%016llx\"", (unsigned long long)sum);
  hpx_writebuf_puts(w, hex);
}

void hpx_html_write_marks(writebuf *w, const hp2x_profile *p, size_t from,
                          size_t to) {
  hpx_html_key(w, "marks", 0), hpx_writebuf_puts(w, "[");
  for (size_t m = from; m < to; m++) {
    hpx_writebuf_puts(w, m > from ? ",[" : "[");
    hpx_html_num(w, p->mark_time[m]);
    hpx_writebuf_puts(w, ",");
    hpx_html_json_str(w, p->mark_label[m]);
    hpx_writebuf_puts(w, "]");
  }
  hpx_writebuf_puts(w, "]");
}

int hpx_html_write_data(writebuf *w, const html_data *d) {
  hpx_writebuf_puts(w, "{");
  write_header(w, d);
  write_geometry(w, d);
  write_look(w);
  write_charts(w, d->g);
  hpx_html_key(w, "bands", 0), hpx_writebuf_puts(w, "[");
  for (size_t k = 0; k < d->b->n_bands; k++) {
    if (k) hpx_writebuf_puts(w, ",");
    write_band(w, d, k);
  }
  hpx_writebuf_puts(w, "]");
  write_times(w, d);
  hpx_html_key(w, "lines", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < d->g->n_lines; i++)
    if (!write_line(w, d, i)) return 0;
  hpx_writebuf_puts(w, "]");
  html_marks marks;
  hpx_html_marks_of(d->p, &marks);
  hpx_html_write_marks(w, d->p, 0, marks.shown);
  hpx_writebuf_puts(w, "}");
  return 1;
}
