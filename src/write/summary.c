/* summary.c -- the --summary text (hp2x_write_summary): per input, its
 * samples' span, the total's peak and when, each selected band's total,
 * peak, least-squares growth slope and area, and the "leak suspects"
 * ranked by growth; and with --at the moment table of one census
 * (hp2x_write_moment): each band's bytes there, share and change.  The
 * figures and their text are band_stats.c's (the HTML report shows the
 * same); this file lays them out.
 */
#include "band_stats.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* s right-aligned in `width` columns (bytes: the cells are ASCII). */
static void put_padded(writebuf *w, const char *s, int width) {
  char pad[128];
  int fill = width - (int)strlen(s);
  hpx_fmt(pad, sizeof pad, "%*s", fill > 0 ? fill : 0, "");
  hpx_writebuf_puts(w, pad);
  hpx_writebuf_puts(w, s);
}

/* A time as printf's "%*.3f", whole however large. */
static void put_time(writebuf *w, double t, int width) {
  char num[HPX_BAND_TIME_SIZE];
  put_padded(w, hpx_band_time(num, sizeof num, t), width);
}

static void put_thousands(writebuf *w, double v, int width) {
  char num[64];
  put_padded(w, hpx_band_thousands(num, sizeof num, v), width);
}

/* The unit of a slope: VALUE_UNIT per one SAMPLE_UNIT ("seconds" ->
 * "second"). */
static void format_slope_unit(char *buf, size_t size, const hp2x_profile *p) {
  const char *su = p->sample_unit;
  size_t n = strlen(su);
  if (n > 1 && su[n - 1] == 's') n--;
  hpx_fmt(buf, size, "%s per %.*s", p->value_unit, (int)n, su);
}

/* "N samples from T0 to T1 UNIT" and "total peak: V UNIT at T UNIT
 * (sample S)". */
static void write_run_lines(writebuf *w, const hp2x_profile *p, size_t N,
                            int64_t top, size_t top_at) {
  assert(N > 0 && top_at < N);
  char line[512];
  hpx_fmt(line, sizeof line, "%zu samples from ", N);
  hpx_writebuf_puts(w, line);
  put_time(w, p->times[0], 0);
  hpx_writebuf_puts(w, " to ");
  put_time(w, p->times[N - 1], 0);
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->sample_unit);
  hpx_writebuf_puts(w, "\ntotal peak: ");
  put_thousands(w, (double)top, 0);
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->value_unit);
  hpx_writebuf_puts(w, " at ");
  put_time(w, p->times[top_at], 0);
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->sample_unit);
  hpx_fmt(line, sizeof line, " (sample %zu)\n", top_at);
  hpx_writebuf_puts(w, line);
}

/* Is band name s an info-table address ("0x4c96c0") of an -hi profile,
 * left unnamed because no IPE event described it? */
static int is_unnamed_info_table(const hp2x_profile *p, const char *s) {
  if (p->breakdown != 8 || s[0] != '0' || s[1] != 'x' || !s[2]) return 0;
  for (s += 2; *s; s++)
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f'))) return 0;
  return 1;
}

/* The line under band k's row, at the band column: what its name leaves
 * out (a -hi band's whole IPE record), or why an -hi band has no name. */
static void write_band_detail(writebuf *w, const hp2x_profile *p,
                              const hp2x_bands *b, size_t k, int column) {
  const char *detail = b->texts ? b->texts[k].detail : NULL;
  if (!detail && !is_unnamed_info_table(p, b->names[k])) return;
  put_padded(w, "", column);
  hpx_writebuf_puts(
      w, detail ? detail
                : "(unnamed: no IPE event describes this info table; "
                  "its code, often a library's, was built without "
                  "-finfo-table-map; --program=EXE names it from the "
                  "program's symbols)");
  hpx_writebuf_puts(w, "\n");
}

/* Band k's row: cells[i] right-aligned in widths[i] columns, a blank
 * apart, then its name two blanks on, and under it, at the name's
 * column, what the name leaves out. */
static void write_row(writebuf *w, const hp2x_profile *p, const hp2x_bands *b,
                      size_t k, const char *const *cells, const int *widths,
                      size_t n) {
  int column = 1; /* the two blanks before the name, less the first cell's */
  for (size_t i = 0; i < n; i++) {
    if (i) hpx_writebuf_puts(w, " ");
    put_padded(w, cells[i], widths[i]);
    column += widths[i] + 1;
  }
  hpx_writebuf_puts(w, "  ");
  hpx_writebuf_puts(w, b->names[k]);
  hpx_writebuf_puts(w, "\n");
  write_band_detail(w, p, b, k, column);
}

/* The table of bands, in key order (top band first). */
static void write_band_table(writebuf *w, const hp2x_profile *p,
                             const hp2x_bands *b, const band_stats *st,
                             const char *unit) {
  char line[512];
  hpx_fmt(line, sizeof line,
          "\n%16s %14s %10s %14s %5s %18s  band (key order, top first; "
          "slope in %s, area in %s x %s)\n",
          "total", "peak", "peak at", "slope", "R^2", "area", unit,
          p->value_unit, p->sample_unit);
  hpx_writebuf_puts(w, line);
  for (size_t k = b->n_bands; k-- > 0;) {
    static const int widths[] = {16, 14, 10, 14, 5, 18};
    band_cells c;
    hpx_band_cells(p, &st[k], &c);
    const char *cells[] = {c.total, c.peak, c.peak_at, c.slope, c.r2, c.area};
    write_row(w, p, b, k, cells, widths, 6);
  }
}

/* Puts the suspects' band indices in rank[], most growth first (an
 * insertion sort: a picture has few bands); returns how many. */
static size_t rank_suspects(const band_stats *st, size_t nb, size_t *rank) {
  size_t ns = 0;
  for (size_t k = 0; k < nb; k++) {
    if (!st[k].suspect) continue;
    size_t i = ns++;
    for (; i > 0 && st[rank[i - 1]].growth < st[k].growth; i--)
      rank[i] = rank[i - 1];
    rank[i] = k;
  }
  assert(ns <= nb);
  return ns;
}

/* The "leak suspects" list: its heading (with the rule), then one line per
 * suspect in rank order. */
static void write_suspects(writebuf *w, const hp2x_profile *p,
                           const hp2x_bands *b, const band_stats *st,
                           const size_t *rank, size_t ns, const char *unit) {
  char line[512], num[64];
  hpx_fmt(line, sizeof line,
          "\nleak suspects (slope > 0, R^2 >= %.2f, growth >= %g%% of the "
          "total peak):%s\n",
          HPX_SUSPECT_R2, HPX_SUSPECT_SHARE * 100.0, ns ? "" : " none");
  hpx_writebuf_puts(w, line);
  for (size_t i = 0; i < ns; i++) {
    const band_stats *s = &st[rank[i]];
    hpx_fmt(num, sizeof num, "%3zu. +", i + 1);
    hpx_writebuf_puts(w, num);
    put_thousands(w, s->growth, 0);
    hpx_writebuf_puts(w, " ");
    hpx_writebuf_puts(w, p->value_unit);
    hpx_writebuf_puts(w, " over the run, ");
    put_thousands(w, s->slope, 0);
    hpx_fmt(line, sizeof line, " %s, R^2 %.2f  ", unit, s->r2);
    hpx_writebuf_puts(w, line);
    hpx_writebuf_puts(w, b->names[s->band]);
    hpx_writebuf_puts(w, "\n");
  }
}

/* An input's heading: "== NAME: JOB", and what the stream lacks; "no
 * samples" and 0 when it has none. */
static int write_heading(writebuf *w, const hp2x_profile *p,
                         const hp2x_bands *b, const char *name) {
  char line[512];
  hpx_fmt(line, sizeof line, "== %s: %s\n", name, p->job);
  hpx_writebuf_puts(w, line);
  if (p->began_mid_run && !p->breakdown)
    hpx_writebuf_puts(w, "a stream joined mid-run: breakdown not in stream\n");
  if (b->n_samples) return 1;
  hpx_writebuf_puts(w, "no samples\n\n");
  return 0;
}

/* The summary of one input named `name`: its heading, run lines, band
 * table and suspects, then a blank line.  HP2X_E_NOMEM only. */
static hp2x_status write_profile_summary(writebuf *w, const hp2x_profile *p,
                                         const hp2x_bands *b, const char *name,
                                         hp2x_err *err) {
  size_t N = b->n_samples, nb = b->n_bands;
  if (!write_heading(w, p, b, name)) return HP2X_OK;
  band_stats *st = NULL;
  size_t *rank = hpx_malloc((nb ? nb : 1) * sizeof *rank);
  int64_t top;
  size_t top_at;
  if (!rank ||
      hpx_band_stats_compute(p, b, &st, &top, &top_at, err) != HP2X_OK) {
    hpx_free(rank);
    return hpx_nomem(err);
  }
  char unit[160];
  format_slope_unit(unit, sizeof unit, p);
  write_run_lines(w, p, N, top, top_at);
  write_band_table(w, p, b, st, unit);
  size_t ns = rank_suspects(st, nb, rank);
  write_suspects(w, p, b, st, rank, ns, unit);
  hpx_writebuf_puts(w, "\n");
  hpx_free(st), hpx_free(rank);
  return HP2X_OK;
}

hp2x_status hp2x_write_summary(const hp2x_profile *const *ps,
                               const hp2x_bands *const *bs,
                               const char *const *names, size_t n,
                               hp2x_write_fn write, void *closure,
                               hp2x_err *err) {
  writebuf w;
  if (hpx_writebuf_init(&w, write, closure, err) != HP2X_OK) return err->code;
  hp2x_status st = HP2X_OK;
  for (size_t i = 0; i < n && st == HP2X_OK; i++)
    st = write_profile_summary(&w, ps[i], bs[i],
                               names[i] ? names[i] : "<stdin>", err);
  hp2x_status fin = hpx_writebuf_finish(&w, err);
  return st != HP2X_OK ? st : fin;
}

/* "census at T UNIT (sample S of N): V UNIT in all", then the change of
 * the total since the census before, or that there is none; times as the
 * CSV writes them, naming its rows. */
static void write_moment_lines(writebuf *w, const hp2x_profile *p,
                               const hp2x_bands *b, size_t s) {
  char num[HPX_FIXED6_SIZE];
  int64_t total = hpx_band_census_total(b, s);
  hpx_writebuf_puts(w, "census at ");
  hpx_writebuf_put(w, num, hpx_fmt_fixed6(num, p->times[s]));
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->sample_unit);
  hpx_fmt(num, sizeof num, " (sample %zu of %zu): ", s, b->n_samples);
  hpx_writebuf_puts(w, num);
  hpx_writebuf_put(w, num, hpx_fmt_int(num, total));
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->value_unit);
  hpx_writebuf_puts(w, " in all\n");
  if (s == 0) {
    hpx_writebuf_puts(w, "the first census: no change to show\n");
    return;
  }
  int64_t before = hpx_band_census_total(b, s - 1);
  hpx_writebuf_puts(w, "change since the census before, at ");
  hpx_writebuf_put(w, num, hpx_fmt_fixed6(num, p->times[s - 1]));
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->sample_unit);
  hpx_writebuf_puts(w, ": ");
  hpx_change_text(num, total, before);
  hpx_writebuf_puts(w, num);
  hpx_writebuf_puts(w, " ");
  hpx_writebuf_puts(w, p->value_unit);
  hpx_writebuf_puts(w, "\n");
}

/* The moment table of census s of one input: heading, the census's
 * lines, one row per band in key order (top first), a blank line. */
static void write_profile_moment(writebuf *w, const hp2x_profile *p,
                                 const hp2x_bands *b, const char *name,
                                 size_t s) {
  if (!write_heading(w, p, b, name)) return;
  write_moment_lines(w, p, b, s);
  char line[512];
  hpx_fmt(line, sizeof line,
          "\n%16s %7s %16s  band (key order, top first; share of the "
          "census; change in %s since the census before)\n",
          p->value_unit, "share", "change", p->value_unit);
  hpx_writebuf_puts(w, line);
  int64_t total = hpx_band_census_total(b, s);
  for (size_t k = b->n_bands; k-- > 0;) {
    static const int widths[] = {16, 7, 16};
    moment_cells c;
    hpx_moment_cells(b, k, s, s ? s - 1 : HPX_NO_CENSUS, total, &c);
    const char *cells[] = {c.value, c.share, c.change};
    write_row(w, p, b, k, cells, widths, 3);
  }
  hpx_writebuf_puts(w, "\n");
}

hp2x_status hp2x_write_moment(const hp2x_profile *const *ps,
                              const hp2x_bands *const *bs,
                              const char *const *names, const size_t *samples,
                              size_t n, hp2x_write_fn write, void *closure,
                              hp2x_err *err) {
  for (size_t i = 0; i < n; i++)
    if (bs[i]->n_samples && samples[i] >= bs[i]->n_samples)
      return hpx_fail(err, HP2X_E_ARG, 0, -1,
                      "census %zu is past the last of %zu", samples[i],
                      bs[i]->n_samples);
  writebuf w;
  if (hpx_writebuf_init(&w, write, closure, err) != HP2X_OK) return err->code;
  for (size_t i = 0; i < n; i++)
    write_profile_moment(&w, ps[i], bs[i], names[i] ? names[i] : "<stdin>",
                         samples[i]);
  return hpx_writebuf_finish(&w, err);
}
