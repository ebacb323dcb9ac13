/* html_census.c -- which censuses the HTML report holds: every one while
 * there are at most HPX_PAGE_COLUMNS and their values fit what the page's
 * byte budget leaves them (censuses closer than a column, as a loaded
 * runtime writes, stay apart); else per time bucket the census with the
 * largest total (so the picture the page draws from them keeps its
 * peaks), and the first and last censuses.  The buckets are a power of two
 * seconds wide, the narrowest of which at most HPX_PAGE_COLUMNS span the
 * time axis (wider to fit the budget), counted from a fixed origin (the
 * first census, or time 0 under --last, whose first census moves): as the
 * run grows a bucket only ever merges with its neighbour, keeping one of
 * the two censuses held, so a live page's held censuses change by a few
 * a redraw (html_held.c).  Hover shows these censuses exactly as the CSV
 * has them.  Their exact times go too where the CSV's text of a time is
 * not exact (an eventlog's nanoseconds), for the page's own summary
 * figures.
 */
#include "html_int.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The bucket of time t. */
static double bucket_of(const hpx_html_buckets *k, double t) {
  double q = floor((t - k->origin) / k->width);
  return isfinite(q) ? q : 0.0;
}

size_t hpx_html_choose(const hp2x_profile *p, const hp2x_bands *b,
                       const int64_t *total, const hpx_html_buckets *k,
                       size_t cap, size_t *held) {
  size_t N = b->n_samples, n = 0;
  for (size_t s = 0; s < N;) {
    double q = bucket_of(k, p->times[s]);
    size_t best = s, e = s + 1;
    for (; e < N && bucket_of(k, p->times[e]) == q; e++)
      if (total[e] > total[best]) best = e;
    size_t pick[3], np = 0; /* in order: the first, the pick, the last */
    if (s == 0 && best != 0) pick[np++] = 0;
    pick[np++] = best;
    if (e == N && best != N - 1) pick[np++] = N - 1;
    for (size_t i = 0; i < np; i++, n++)
      if (n < cap) held[n] = pick[i];
    s = e;
  }
  return n;
}

/* The buckets of the axis's span, at most `columns` across it (at least
 * 1 s / 2^1074 wide). */
static hpx_html_buckets buckets_across(const hp2x_profile *p,
                                       const hp2x_bands *b, size_t columns) {
  hpx_html_buckets k = {p->from_zero ? 0.0 : p->times[0], INFINITY};
  double x = b->xrange / (double)columns;
  if (x > 0.0 && isfinite(x)) {
    int e;
    frexp(x, &e); /* 2^(e-1) <= x < 2^e */
    k.width = ldexp(1.0, e);
    if (k.width / 2.0 >= x && k.width / 2.0 > 0.0) k.width /= 2.0;
  }
  return k;
}

/* Buckets across the axis's span. */
static size_t columns_of(const hp2x_bands *b, const hpx_html_buckets *k) {
  double c = ceil(b->xrange / k->width);
  return c >= 1.0 && c < (double)SIZE_MAX ? (size_t)c : 1;
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
  size_t N = b->n_samples;
  /* room for the censuses of at most HPX_PAGE_COLUMNS buckets across the
   * axis and the first and last: more only where times go back */
  size_t cap = N < HPX_PAGE_COLUMNS + 8 ? N : HPX_PAGE_COLUMNS + 8;
  int64_t *total = hpx_malloc((N ? N : 1) * sizeof *total);
  size_t *held = hpx_malloc((cap ? cap : 1) * sizeof *held);
  if (!total || !held) {
    hpx_free(total), hpx_free(held);
    return hpx_nomem(err);
  }
  for (size_t s = 0; s < N; s++) {
    total[s] = 0;
    for (size_t k = 0; k < b->n_bands; k++)
      total[s] = hpx_add_sat(total[s], b->values[k * b->stride + s]);
  }
  size_t n = N, columns = N > HPX_PAGE_MIN_COLUMNS ? N : HPX_PAGE_MIN_COLUMNS;
  hpx_html_buckets k = {0.0, 0.0};
  if (N <= HPX_PAGE_COLUMNS) { /* every census held: a column of its own */
    for (size_t s = 0; s < N; s++) held[s] = s;
  } else {
    k = buckets_across(p, b, HPX_PAGE_COLUMNS);
    n = hpx_html_choose(p, b, total, &k, cap, held);
    columns = columns_of(b, &k);
  }
  /* too many bytes (or runs): buckets twice as wide, each the union of
   * two, until they fit */
  while (N && !(n <= cap && (columns <= HPX_PAGE_MIN_COLUMNS ||
                             held_bytes(p, b, held, n, budget) <= budget))) {
    if (k.width > 0.0)
      k.width *= 2.0;
    else
      k = buckets_across(p, b, HPX_PAGE_COLUMNS);
    n = hpx_html_choose(p, b, total, &k, cap, held);
    columns = columns_of(b, &k);
  }
  hpx_free(total);
  *held_out = held, *n_held = n, *columns_out = columns;
  return HP2X_OK;
}
