/* census.c -- choosing one census of a profile (hp2x_census_choose): the
 * peak, the census nearest a time or the last, within a window of time,
 * for the writers of one census (write/pprof.c, and CSV and the summary's
 * moment table when asked for one) and the tool's --at.  Reads complete
 * samples only; only the peak reads their entries.
 */
#include "model.h"
#include "base/textout.h"

#include <math.h>

/* Sample s's total: every entry's value (saturating). */
static int64_t sample_total(const hp2x_profile *p, size_t s) {
  int64_t sum = 0;
  hpx_values r;
  hpx_values_of(p, s, &r);
  for (size_t e = p->start[s]; e < p->start[s + 1]; e++)
    sum = hpx_add_sat(sum, hpx_values_next(&r));
  return sum;
}

/* The window's first and last samples, [*lo, *hi]; 0 when none. */
static int window_samples(const hp2x_profile *p, double from_s, double to_s,
                          size_t *lo, size_t *hi) {
  size_t a = 0, n = p->n_samples;
  while (a < n && p->times[a] < from_s) a++;
  size_t b = a;
  while (b < n && p->times[b] <= to_s) b++;
  if (a == b) return 0;
  *lo = a;
  *hi = b - 1;
  return 1;
}

/* The run's range of times (its earliest and latest census: a broken
 * input's times may go back) as its message writes it, with three
 * decimals rounded outwards: what it names is what --at takes, so a time
 * read off it, or off the CSV (six decimals), is in the run. */
static void run_bounds(const hp2x_profile *p, double *lo, double *hi) {
  double first = p->times[0], last = p->times[0];
  for (size_t s = 1; s < p->n_samples; s++) {
    if (p->times[s] < first) first = p->times[s];
    if (p->times[s] > last) last = p->times[s];
  }
  *lo = floor(first * 1000.0) / 1000.0;
  *hi = ceil(last * 1000.0) / 1000.0;
  if (!isfinite(*lo) || *lo > first) *lo = first;
  if (!isfinite(*hi) || *hi < last) *hi = last;
}

/* "the run's censuses are from 0.000 to 1.452 seconds" into buf. */
static void run_range(const hp2x_profile *p, char *buf, size_t size) {
  double lo, hi;
  run_bounds(p, &lo, &hi);
  hpx_fmt(buf, size, "the run's censuses are from %.3f to %.3f %s", lo, hi,
          *p->sample_unit ? p->sample_unit : "seconds");
}

/* The window in words: "from 1 to 2 s", "up to 2 s", "from 1 s". */
static void window_text(const hp2x_census_choice *c, char *buf, size_t size) {
  if (isinf(c->from_s) && c->from_s < 0)
    hpx_fmt(buf, size, "up to %g s", c->to_s);
  else if (isinf(c->to_s) && c->to_s > 0)
    hpx_fmt(buf, size, "from %g s", c->from_s);
  else
    hpx_fmt(buf, size, "from %g to %g s", c->from_s, c->to_s);
}

static size_t nearest(const hp2x_profile *p, size_t lo, size_t hi,
                      double at_s) {
  size_t best = lo;
  for (size_t s = lo + 1; s <= hi; s++)
    if (fabs(p->times[s] - at_s) < fabs(p->times[best] - at_s)) best = s;
  return best;
}

static size_t peak(const hp2x_profile *p, size_t lo, size_t hi) {
  size_t best = lo;
  int64_t top = sample_total(p, lo);
  for (size_t s = lo + 1; s <= hi; s++) {
    int64_t t = sample_total(p, s);
    if (t > top) {
      top = t;
      best = s;
    }
  }
  return best;
}

/* HP2X_E_ARG, with the ranges in words, unless --at's time is in the run
 * (as its message writes it) and in the window. */
static hp2x_status check_at(const hp2x_profile *p, const hp2x_census_choice *c,
                            const char *range, const char *window,
                            hp2x_err *err) {
  double lo, hi;
  run_bounds(p, &lo, &hi);
  if (!(c->at_s >= lo && c->at_s <= hi))
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "time %g s is outside the run: %s",
                    c->at_s, range);
  if (!(c->at_s >= c->from_s && c->at_s <= c->to_s))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "time %g s is outside the window, %s (%s)", c->at_s, window,
                    range);
  return HP2X_OK;
}

hp2x_status hp2x_census_choose(const hp2x_profile *p,
                               const hp2x_census_choice *c, size_t *sample,
                               hp2x_err *err) {
  /* The peak sums the entries; the other rules read the times alone. */
  if (c->rule == HP2X_CENSUS_PEAK &&
      hpx_profile_require_entries(p, err) != HP2X_OK)
    return err->code;
  if (!(c->from_s <= c->to_s))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "the window starts (%g s) after it ends (%g s)", c->from_s,
                    c->to_s);
  if (!p->n_samples)
    return hpx_fail(err, HP2X_E_NO_CENSUS, 0, -1,
                    "no complete census in the profile");
  char range[128], window[96];
  run_range(p, range, sizeof range);
  window_text(c, window, sizeof window);
  if (c->rule == HP2X_CENSUS_AT &&
      check_at(p, c, range, window, err) != HP2X_OK)
    return err->code;
  size_t lo, hi;
  if (!window_samples(p, c->from_s, c->to_s, &lo, &hi))
    return hpx_fail(err, HP2X_E_NO_CENSUS, 0, -1,
                    "no census in the window, %s (%s)", window, range);
  switch (c->rule) {
  case HP2X_CENSUS_AT: *sample = nearest(p, lo, hi, c->at_s); break;
  case HP2X_CENSUS_LAST: *sample = hi; break;
  case HP2X_CENSUS_PEAK:
  default: *sample = peak(p, lo, hi); break;
  }
  return HP2X_OK;
}
