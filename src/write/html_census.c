/* html_census.c -- which censuses the HTML report holds: every one while
 * there are at most HPX_PAGE_COLUMNS and their values fit what the page's
 * byte budget leaves them (censuses closer than a column, as a loaded
 * runtime writes, stay apart); else at most one per column across the time
 * axis (HPX_PAGE_COLUMNS, fewer to fit the budget), each the census with
 * the largest total in its column, so the picture the page draws from them
 * keeps its peaks.  Hover shows these censuses exactly as the CSV has them.
 * Their exact times go too where the CSV's text of a time is not exact
 * (an eventlog's nanoseconds), for the page's own summary figures.
 */
#include "html_int.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The column of sample s among `columns` across the bands' time span. */
static size_t column_of(const hp2x_profile *p, const hp2x_bands *b, size_t s,
                        size_t columns) {
  double c = floor((p->times[s] - b->x0) / b->xrange * (double)columns);
  if (!(c > 0.0)) return 0;
  if (c >= (double)columns) return columns - 1;
  return (size_t)c;
}

size_t hpx_html_choose(const hp2x_profile *p, const hp2x_bands *b,
                       const int64_t *total, size_t columns, size_t *held) {
  size_t N = b->n_samples, n = 0;
  if (N == 0) return 0;
  size_t first_col = column_of(p, b, 0, columns);
  size_t last_col = column_of(p, b, N - 1, columns);
  for (size_t s = 0; s < N;) {
    size_t c = column_of(p, b, s, columns), best = s, e = s;
    for (; e < N && column_of(p, b, e, columns) == c; e++)
      if (total[e] > total[best]) best = e;
    if (c == first_col) best = 0;
    if (c == last_col) best = N - 1;
    if (!n || held[n - 1] != best) held[n++] = best;
    s = e;
  }
  return n;
}

/* Decimal digits (and sign) of v. */
static size_t int_len(int64_t v) {
  size_t n = v < 0 ? 2 : 1;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  for (; u >= 10; u /= 10) n++;
  return n;
}

/* Does the plain decimal text `num` ("-12.345", from printf's "%.*f" of
 * t with `k` decimals) read back as t?  It is q / 10^k for the integer q
 * of its digits, and below 2^53 (double)q / 10^k is the double nearest
 * q / 10^k, as a reader's is. */
static int reads_back(const char *num, int k, double t) {
  static const double tens[] = {1e6, 1e7, 1e8, 1e9};
  uint64_t q = 0;
  for (const char *c = num + (num[0] == '-'); *c; c++) {
    if (*c == '.') continue;
    if (*c < '0' || *c > '9' || q >= ((uint64_t)1 << 53) / 10) return 0;
    q = q * 10 + (uint64_t)(*c - '0');
  }
  double back = (double)q / tens[k - 6];
  return (num[0] == '-' ? -back : back) == t;
}

size_t hpx_html_exact_time(char *buf, size_t size, double t) {
  for (int k = 6; k <= 9; k++) /* an eventlog's nanoseconds: 9 */
    if (hpx_fmt(buf, size, "%.*f", k, t) > 0 && reads_back(buf, k, t))
      return strlen(buf);
  return (size_t)hpx_fmt(buf, size, "%.17g", t);
}

int hpx_html_needs_exact_times(const hp2x_profile *p, const size_t *held,
                               size_t n) {
  char num[HPX_FIXED6_SIZE];
  for (size_t i = 0; i < n; i++) {
    double t = p->times[held[i]];
    hpx_fmt_fixed6(num, t); /* the CSV's text */
    if (!reads_back(num, 6, t)) return 1;
  }
  return 0;
}

/* The JSON bytes the held censuses' times and values take, about; at
 * least `budget` + 1 when they do not fit in `budget`.  Their exact times
 * are formatted only when the values alone do not settle it: each is at
 * most HPX_PAGE_EXACT_BYTES. */
static size_t held_bytes(const hp2x_profile *p, const hp2x_bands *b,
                         const size_t *held, size_t n, size_t budget) {
  size_t bytes = 14 * n; /* the CSV's text of each time, quoted, a comma */
  for (size_t k = 0; k < b->n_bands; k++) {
    const int64_t *v = b->values + k * b->stride;
    for (size_t i = 0; i < n; i++) bytes += int_len(v[held[i]]) + 1;
  }
  if (bytes > budget || bytes + HPX_PAGE_EXACT_BYTES * n <= budget)
    return bytes;
  if (!hpx_html_needs_exact_times(p, held, n)) return bytes;
  char num[HPX_FIXED6_SIZE];
  for (size_t i = 0; i < n; i++)
    bytes += hpx_html_exact_time(num, sizeof num, p->times[held[i]]) + 1;
  return bytes;
}

hp2x_status hpx_html_censuses(const hp2x_profile *p, const hp2x_bands *b,
                              size_t budget, size_t **held_out, size_t *n_held,
                              size_t *columns_out, hp2x_err *err) {
  size_t N = b->n_samples, columns = HPX_PAGE_COLUMNS;
  int64_t *total = hpx_malloc((N ? N : 1) * sizeof *total);
  size_t *held = hpx_malloc((columns + 2) * sizeof *held);
  if (!total || !held) {
    hpx_free(total), hpx_free(held);
    return hpx_nomem(err);
  }
  for (size_t s = 0; s < N; s++) {
    total[s] = 0;
    for (size_t k = 0; k < b->n_bands; k++)
      total[s] = hpx_add_sat(total[s], b->values[k * b->stride + s]);
  }
  size_t n = N;
  if (N <= columns) { /* every census held: a column of its own each */
    for (size_t s = 0; s < N; s++) held[s] = s;
    columns = N > HPX_PAGE_MIN_COLUMNS ? N : HPX_PAGE_MIN_COLUMNS;
  } else {
    n = hpx_html_choose(p, b, total, columns, held);
  }
  for (;;) {
    size_t bytes = held_bytes(p, b, held, n, budget);
    if (bytes <= budget || columns <= HPX_PAGE_MIN_COLUMNS) break;
    double shrink = (double)budget / (double)bytes * 0.95;
    size_t fewer = (size_t)((double)columns * shrink);
    columns = fewer > HPX_PAGE_MIN_COLUMNS ? fewer : HPX_PAGE_MIN_COLUMNS;
    n = hpx_html_choose(p, b, total, columns, held);
  }
  hpx_free(total);
  *held_out = held, *n_held = n, *columns_out = columns;
  return HP2X_OK;
}
