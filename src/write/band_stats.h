/* band_stats.h -- private to the write folder: the per-band figures of
 * the summary (band_stats.c) -- total, peak, least-squares slope and R^2,
 * area, leak suspicion -- and their text, which summary.c prints in its
 * table and html_write.c puts in the report's table, so both say the
 * same numbers in the same words; and the cells of one census's moment
 * table (summary.c's --at).  The report's script computes both again for
 * a zoom and a click (report_stats.js): any change here changes it too.
 */
#ifndef HPX_BAND_STATS_H
#define HPX_BAND_STATS_H

#include "select/bands_int.h"
#include "base/textout.h"

/* Room for a time as the summary writes it. */
#define HPX_BAND_TIME_SIZE (HPX_FIXED6_SIZE + 16)

typedef struct band_stats {
  size_t band;
  double total;   /* sum over samples, VALUE_UNIT (hp2ps's band total) */
  int64_t peak;   /* VALUE_UNIT */
  size_t peak_at; /* sample index */
  int fitted;     /* enough points for a slope */
  double slope;   /* VALUE_UNIT per SAMPLE_UNIT */
  double r2;      /* coefficient of determination, 0..1 */
  double growth;  /* slope x fitted span, VALUE_UNIT */
  double area;    /* trapezoid area over the samples, VALUE_UNIT x
                     SAMPLE_UNIT */
  int suspect;    /* a leak suspect (band_stats.c's rule) */
} band_stats;

/* The figures of a profile's bands: st[k] for band k (n_bands of them),
 * and the total's peak and its sample.  HP2X_E_NOMEM only; the caller
 * frees *st with hpx_free.  b must have samples. */
hp2x_status hpx_band_stats_compute(const hp2x_profile *p, const hp2x_bands *b,
                                   band_stats **st, int64_t *top,
                                   size_t *top_at, hp2x_err *err);

/* Band k's cells as the summary prints them, without padding: "1,234",
 * "12.340", "-" for a slope or R^2 without a fit. */
typedef struct band_cells {
  char total[48], peak[48], peak_at[HPX_BAND_TIME_SIZE], slope[48], r2[48],
      area[48];
} band_cells;
void hpx_band_cells(const hp2x_profile *p, const band_stats *st, band_cells *c);

/* A time as the summary's "%.3f" (whole however large); returns buf. */
const char *hpx_band_time(char *buf, size_t size, double t);

/* "N,NNN" of v rounded (a '-' before a negative one), or "1.234e+20"
 * past 9e18; returns buf. */
const char *hpx_band_thousands(char *buf, size_t size, double v);

/* The moment table of one census (--summary --at; the report's moment
 * table, report_stats.js, says the same): census s's total over the bands
 * (saturating), and band k's cells: its value as the CSV writes it, its
 * share of `total` ("12.3%": printf's "%.1f" of value x 100 / total in
 * doubles; "-" when the total is not above 0) and its change since census
 * `before` ("+12", "-3", "0", saturating; "-" when before is
 * HPX_NO_CENSUS). */
#define HPX_NO_CENSUS ((size_t)-1)
typedef struct moment_cells {
  char value[24], share[48], change[24];
} moment_cells;
int64_t hpx_band_census_total(const hp2x_bands *b, size_t s);
/* now - before as the change cell writes it ("+12", "-3", "0"). */
void hpx_change_text(char buf[24], int64_t now, int64_t before);
void hpx_moment_cells(const hp2x_bands *b, size_t k, size_t s, size_t before,
                      int64_t total, moment_cells *c);

/* The rule's numbers, for the summary's heading. */
#define HPX_SUSPECT_R2 0.8
#define HPX_SUSPECT_SHARE 0.01

#endif
