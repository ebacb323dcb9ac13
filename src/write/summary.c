/* summary.c -- the --summary text (hp2x_write_summary): per input, its
 * samples' span, the total's peak and when, each selected band's total,
 * peak and least-squares growth slope, and the "leak suspects" ranked by
 * growth.  Numbers are written locale-free (fmt.c).  The suspect rule is
 * documented in man/hp2x.1 (SUMMARY) and lives in is_leak_suspect below.
 */
#include "select/bands_int.h"
#include "base/textout.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* A band is a leak suspect when it grows steadily: a positive slope, a
 * linear fit explaining at least SUSPECT_R2 of its variance, and fitted
 * growth over the run of at least SUSPECT_SHARE of the total's peak (so
 * a few bytes growing in a straight line are not reported). */
#define SUSPECT_R2 0.8
#define SUSPECT_SHARE 0.01
#define MIN_FIT_POINTS 3

typedef struct band_stats {
  size_t band;
  double total;    /* sum over samples, VALUE_UNIT (hp2ps's band total) */
  int64_t peak;    /* VALUE_UNIT */
  size_t peak_at;  /* sample index */
  int fitted;      /* enough points for a slope */
  double slope;    /* VALUE_UNIT per SAMPLE_UNIT */
  double r2;       /* coefficient of determination, 0..1 */
  double growth;   /* slope x fitted span, VALUE_UNIT */
  int suspect;     /* is_leak_suspect's verdict */
} band_stats;

static void put_str(writebuf *w, const char *s) {
  hpx_writebuf_put(w, s, strlen(s));
}

/* A time as printf's "%*.3f", whole however large. */
static void put_time(writebuf *w, double t, int width) {
  char num[HPX_FIXED6_SIZE + 16]; /* %.3f is shorter than %.6f */
  hpx_fmt(num, sizeof num, "%*.3f", width, t);
  put_str(w, num);
}

static void put_thousands(writebuf *w, double v, int width) {
  char num[48], pad[64];
  int neg = v < 0;
  size_t n = hpx_fmt_thousands(num, sizeof num, (int64_t)llround(fabs(v)));
  int fill = width - (int)n - neg;
  hpx_fmt(pad, sizeof pad, "%*s%s%s", fill > 0 ? fill : 0, "",
           neg ? "-" : "", num);
  put_str(w, pad);
}

/* Least squares of band k's values against sample times over the samples
 * in `use` (those where the total is not 0): sets st's fitted, slope, r2
 * and growth. */
static void fit_growth(const hp2x_profile *p, const hp2x_bands *b,
                       size_t k, const unsigned char *use, band_stats *st) {
  size_t N = b->n_samples, m = 0;
  double sx = 0, sy = 0;
  const int64_t *v = b->values + k * b->stride;
  for (size_t s = 0; s < N; s++)
    if (use[s]) sx += p->times[s], sy += (double)v[s], m++;
  st->fitted = m >= MIN_FIT_POINTS;
  if (!st->fitted) return;
  double mx = sx / (double)m, my = sy / (double)m;
  double sxx = 0, sxy = 0, syy = 0, lo = INFINITY, hi = -INFINITY;
  for (size_t s = 0; s < N; s++) {
    if (!use[s]) continue;
    double dx = p->times[s] - mx, dy = (double)v[s] - my;
    sxx += dx * dx, sxy += dx * dy, syy += dy * dy;
    if (p->times[s] < lo) lo = p->times[s];
    if (p->times[s] > hi) hi = p->times[s];
  }
  if (!(sxx > 0.0)) {
    st->fitted = 0;
    return;
  }
  st->slope = sxy / sxx;
  st->r2 = syy > 0.0 ? (sxy * sxy) / (sxx * syy) : 0.0;
  st->growth = st->slope * (hi - lo);
  /* Times far beyond any run's (1e150 s and up) overflow the sums. */
  if (!isfinite(st->slope) || !isfinite(st->r2) || !isfinite(st->growth))
    st->fitted = 0;
}

static int is_leak_suspect(const band_stats *st, double total_peak,
                           int is_other) {
  return !is_other && st->fitted && st->slope > 0.0 &&
         st->r2 >= SUSPECT_R2 && st->growth >= SUSPECT_SHARE * total_peak;
}

/* The unit of a slope: VALUE_UNIT per one SAMPLE_UNIT ("seconds" ->
 * "second"). */
static void format_slope_unit(char *buf, size_t size,
                              const hp2x_profile *p) {
  const char *su = p->sample_unit;
  size_t n = strlen(su);
  if (n > 1 && su[n - 1] == 's') n--;
  hpx_fmt(buf, size, "%s per %.*s", p->value_unit, (int)n, su);
}

/* The total (the sum of all bands) at each sample: marks in use[s] the
 * samples where it is not 0 (GHC's empty first and last samples take no
 * part in the fits) and returns its peak and the peak's sample. */
static void find_total_peak(const hp2x_bands *b, unsigned char *use,
                            int64_t *top, size_t *top_at) {
  size_t N = b->n_samples, nb = b->n_bands;
  *top = -1;
  *top_at = 0;
  for (size_t s = 0; s < N; s++) {
    int64_t sum = 0;
    for (size_t k = 0; k < nb; k++)
      sum = hpx_add_sat(sum, b->values[k * b->stride + s]);
    use[s] = sum != 0;
    if (sum > *top) *top = sum, *top_at = s;
  }
}

/* Fills st[k] for every band k: total, peak, fit and suspect flag. */
static void compute_band_stats(const hp2x_profile *p, const hp2x_bands *b,
                               const unsigned char *use, int64_t total_peak,
                               band_stats *st) {
  size_t N = b->n_samples;
  for (size_t k = 0; k < b->n_bands; k++) {
    st[k].band = k;
    st[k].peak = -1;
    for (size_t s = 0; s < N; s++) {
      int64_t v = b->values[k * b->stride + s];
      st[k].total += (double)v;
      if (v > st[k].peak) st[k].peak = v, st[k].peak_at = s;
    }
    fit_growth(p, b, k, use, &st[k]);
    st[k].suspect = is_leak_suspect(&st[k], (double)total_peak,
                                    b->is_other && k == 0);
  }
}

/* "N samples from T0 to T1 UNIT" and "total peak: V UNIT at T UNIT
 * (sample S)". */
static void write_run_lines(writebuf *w, const hp2x_profile *p, size_t N,
                            int64_t top, size_t top_at) {
  assert(N > 0 && top_at < N);
  char line[512];
  hpx_fmt(line, sizeof line, "%zu samples from ", N);
  put_str(w, line);
  put_time(w, p->times[0], 0);
  put_str(w, " to ");
  put_time(w, p->times[N - 1], 0);
  put_str(w, " ");
  put_str(w, p->sample_unit);
  put_str(w, "\ntotal peak: ");
  put_thousands(w, (double)top, 0);
  put_str(w, " ");
  put_str(w, p->value_unit);
  put_str(w, " at ");
  put_time(w, p->times[top_at], 0);
  put_str(w, " ");
  put_str(w, p->sample_unit);
  hpx_fmt(line, sizeof line, " (sample %zu)\n", top_at);
  put_str(w, line);
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
                              const hp2x_bands *b, size_t k) {
  const char *detail = b->texts ? b->texts[k].detail : NULL;
  if (!detail && !is_unnamed_info_table(p, b->names[k])) return;
  put_str(w, "                                                                 ");
  put_str(w, detail ? detail
                    : "(unnamed: no IPE event describes this info table; "
                      "its code, often a library's, was built without "
                      "-finfo-table-map; --program=EXE names it from the "
                      "program's symbols)");
  put_str(w, "\n");
}

/* The table of bands, in key order (top band first). */
static void write_band_table(writebuf *w, const hp2x_profile *p,
                             const hp2x_bands *b, const band_stats *st,
                             const char *unit) {
  char line[512], num[64];
  hpx_fmt(line, sizeof line,
           "\n%16s %14s %10s %14s %5s  band (key order, top first; slope in "
           "%s)\n",
           "total", "peak", "peak at", "slope", "R^2", unit);
  put_str(w, line);
  for (size_t k = b->n_bands; k-- > 0;) {
    put_thousands(w, st[k].total, 16);
    put_str(w, " ");
    put_thousands(w, (double)st[k].peak, 14);
    put_str(w, " ");
    put_time(w, p->times[st[k].peak_at], 10);
    put_str(w, " ");
    if (st[k].fitted) {
      put_thousands(w, st[k].slope, 14);
      hpx_fmt(num, sizeof num, " %5.2f  ", st[k].r2);
    } else {
      hpx_fmt(num, sizeof num, "%14s %5s  ", "-", "-");
    }
    put_str(w, num);
    put_str(w, b->names[k]);
    put_str(w, "\n");
    write_band_detail(w, p, b, k);
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
           SUSPECT_R2, SUSPECT_SHARE * 100.0, ns ? "" : " none");
  put_str(w, line);
  for (size_t i = 0; i < ns; i++) {
    const band_stats *s = &st[rank[i]];
    hpx_fmt(num, sizeof num, "%3zu. +", i + 1);
    put_str(w, num);
    put_thousands(w, s->growth, 0);
    put_str(w, " ");
    put_str(w, p->value_unit);
    put_str(w, " over the run, ");
    put_thousands(w, s->slope, 0);
    hpx_fmt(line, sizeof line, " %s, R^2 %.2f  ", unit, s->r2);
    put_str(w, line);
    put_str(w, b->names[s->band]);
    put_str(w, "\n");
  }
}

/* The summary of one input named `name`: its heading, run lines, band
 * table and suspects, then a blank line.  HP2X_E_NOMEM only. */
static hp2x_status write_profile_summary(writebuf *w, const hp2x_profile *p,
                                         const hp2x_bands *b,
                                         const char *name, hp2x_err *err) {
  size_t N = b->n_samples, nb = b->n_bands;
  char line[512];
  hpx_fmt(line, sizeof line, "== %s: %s\n", name, p->job);
  put_str(w, line);
  if (p->began_mid_run && !p->breakdown)
    put_str(w, "a stream joined mid-run: breakdown not in stream\n");
  if (N == 0) {
    put_str(w, "no samples\n\n");
    return HP2X_OK;
  }
  band_stats *st = hpx_calloc(nb ? nb : 1, sizeof *st);
  unsigned char *use = hpx_calloc(N, 1);
  size_t *rank = hpx_malloc((nb ? nb : 1) * sizeof *rank);
  if (!st || !use || !rank) {
    hpx_free(st), hpx_free(use), hpx_free(rank);
    return hpx_nomem(err);
  }
  int64_t top;
  size_t top_at;
  find_total_peak(b, use, &top, &top_at);
  compute_band_stats(p, b, use, top, st);
  char unit[160];
  format_slope_unit(unit, sizeof unit, p);
  write_run_lines(w, p, N, top, top_at);
  write_band_table(w, p, b, st, unit);
  size_t ns = rank_suspects(st, nb, rank);
  write_suspects(w, p, b, st, rank, ns, unit);
  put_str(w, "\n");
  hpx_free(st), hpx_free(use), hpx_free(rank);
  return HP2X_OK;
}

hp2x_status hp2x_write_summary(const hp2x_profile *const *ps,
                               const hp2x_bands *const *bs,
                               const char *const *names, size_t n,
                               hp2x_write_fn write, void *closure,
                               hp2x_err *err) {
  writebuf w;
  if (hpx_writebuf_init(&w, write, closure, err) != HP2X_OK)
    return err->code;
  hp2x_status st = HP2X_OK;
  for (size_t i = 0; i < n && st == HP2X_OK; i++)
    st = write_profile_summary(&w, ps[i], bs[i],
                               names[i] ? names[i] : "<stdin>", err);
  hp2x_status fin = hpx_writebuf_finish(&w, err);
  return st != HP2X_OK ? st : fin;
}
