/* test_fmt.c -- fmt.c's locale-free numbers: hpx_fmt and the library's
 * messages, the public hp2x_vsnprintf_c, thousands, integers against %lld
 * (those below 10^8, made eight digits at once, swept),
 * %.6f against printf, and the length written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "select/bands_int.h"
#include "base/textout.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Switches LC_NUMERIC to an installed comma-decimal locale, or skips the
 * test with the reason. */
static void switch_to_comma_decimal(void) {
  const char *comma[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8",
                         "nl_NL.UTF-8", NULL};
  for (int i = 0; comma[i]; i++)
    if (setlocale(LC_NUMERIC, comma[i]) &&
        strcmp(localeconv()->decimal_point, ",") == 0)
      return;
  setlocale(LC_NUMERIC, "C");
  print_message("SKIPPED: no comma-decimal locale installed (make deps "
                "installs de_DE.UTF-8)\n");
  skip();
}

/* hpx_fmt and the library's error messages print '.' under a
 * comma-decimal process locale. */
static void fmt_ignores_locale(void **state) {
  (void)state;
  switch_to_comma_decimal();
  char buf[64];
  hpx_fmt(buf, sizeof buf, "%.6f|%.2f", 1.5, 1234.125);
  hp2x_err err;
  hp2x_err_init(&err);
  hpx_fail(&err, HP2X_E_ARG, 0, -1, "%g dpi", 2.5);
  char printf_says[16];
  snprintf(printf_says, sizeof printf_says, "%.1f", 2.5);
  setlocale(LC_NUMERIC, "C");
  assert_string_equal(printf_says, "2,5"); /* the locale did switch */
  assert_string_equal(buf, "1.500000|1234.12");
  assert_string_equal(err.msg, "2.5 dpi");
}

__attribute__((format(printf, 3, 4))) static int c_printf(char *buf,
                                                          size_t size,
                                                          const char *fmt,
                                                          ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = hp2x_vsnprintf_c(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

/* The public locale-free printf (the tool's messages use it): '.' under a
 * comma-decimal locale, and vsnprintf's result, the whole text's length,
 * when buf is short or NULL. */
static void public_printf_ignores_locale(void **state) {
  (void)state;
  switch_to_comma_decimal();
  char buf[8];
  int whole = c_printf(NULL, 0, "%.3f s", 12.5);
  int cut = c_printf(buf, sizeof buf, "%.3f s", 12.5);
  setlocale(LC_NUMERIC, "C");
  assert_int_equal(whole, 8);
  assert_int_equal(cut, 8);
  assert_string_equal(buf, "12.500 ");
}

static void fmt_thousands(void **state) {
  (void)state;
  char buf[64];
  hpx_fmt_thousands(buf, sizeof buf, 1234567);
  assert_string_equal(buf, "1,234,567");
  hpx_fmt_thousands(buf, sizeof buf, 999);
  assert_string_equal(buf, "999");
  hpx_fmt_thousands(buf, sizeof buf, 0);
  assert_string_equal(buf, "0");
  hpx_fmt_thousands(buf, sizeof buf, -1000);
  assert_string_equal(buf, "-1,000");
  hpx_fmt_thousands(buf, sizeof buf, INT64_MIN);
  assert_string_equal(buf, "-9,223,372,036,854,775,808");
}

/* hpx_fmt_int against printf's %lld, over the edges and a sweep. */
static void fmt_int_is_lld(void **state) {
  (void)state;
  int64_t v[] = {0,
                 1,
                 -1,
                 9,
                 10,
                 99,
                 100,
                 4294967295LL,
                 4294967296LL,
                 INT64_MAX,
                 INT64_MIN,
                 INT64_MIN + 1};
  char got[32], want[32];
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    size_t n = hpx_fmt_int(got, v[i]);
    got[n] = '\0';
    snprintf(want, sizeof want, "%lld", (long long)v[i]);
    assert_string_equal(got, want);
  }
  for (int64_t x = 1; x > 0 && x < INT64_MAX / 3; x = x * 3 + 1) {
    int64_t s[] = {x, -x};
    for (size_t i = 0; i < 2; i++) {
      got[hpx_fmt_int(got, s[i])] = '\0';
      snprintf(want, sizeof want, "%lld", (long long)s[i]);
      assert_string_equal(got, want);
    }
  }
}

/* One value: printf's digits, and nothing written past buf's 20 bytes. */
static void fmt_int_check(int64_t v) {
  char got[32], want[32];
  memset(got, '#', sizeof got);
  size_t n = hpx_fmt_int(got, v);
  for (size_t i = 20; i < sizeof got; i++) assert_int_equal(got[i], '#');
  got[n] = '\0';
  snprintf(want, sizeof want, "%lld", (long long)v);
  if (strcmp(got, want) != 0) fail_msg("%lld: got \"%s\"", (long long)v, got);
}

/* Below 10^8 (eight digits made at once): both sides of every length's
 * edge, every value below 10^4, and a seeded sweep, each signed both
 * ways. */
static void fmt_int_short_values(void **state) {
  (void)state;
  for (int64_t p = 1; p <= 1000000000; p *= 10)
    for (int64_t d = -2; d <= 2; d++) {
      fmt_int_check(p + d);
      fmt_int_check(-(p + d));
    }
  for (int64_t v = 0; v < 10000; v++) {
    fmt_int_check(v);
    fmt_int_check(-v);
  }
  uint64_t x = 0x2545f4914f6cdd1dull;
  for (int i = 0; i < 200000; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    int64_t v = (int64_t)(x % 100000000u);
    fmt_int_check(v);
    fmt_int_check(-v);
  }
}

/* hpx_fmt_int_fields: ",value" for a matrix row stored by columns, the
 * last value first, as printf writes each (short, long, negative, the
 * edges), for every count from one to all, from every start, and nothing
 * written past its end but the eight bytes a value may spill. */
static void fmt_int_fields_are_lld(void **state) {
  (void)state;
  enum { K = 9, STRIDE = 3 };
  const int64_t v[K] = {0,         7,         -42,      99999999,  100000000,
                        INT64_MAX, INT64_MIN, 12345678, -100000000};
  int64_t col[K * STRIDE];
  for (size_t i = 0; i < K * STRIDE; i++) col[i] = -1; /* not read */
  for (size_t k = 0; k < K; k++) col[k * STRIDE] = v[k];
  for (size_t k = 1; k <= K; k++)
    for (size_t n = 1; n <= k; n++) {
      char got[K * 21 + 8], want[K * 21 + 8];
      memset(got, '#', sizeof got);
      char *end = hpx_fmt_int_fields(got, col, STRIDE, k, n);
      size_t len = (size_t)(end - got);
      for (size_t i = len + 8; i < sizeof got; i++)
        assert_int_equal(got[i], '#');
      got[len] = '\0';
      size_t w = 0;
      for (size_t j = k; j-- > k - n;)
        w += (size_t)snprintf(want + w, sizeof want - w, ",%lld",
                              (long long)v[j]);
      assert_string_equal(got, want);
    }
}

/* hpx_fmt_fixed6 against printf's %.6f: the edges (ties to even, carries
 * into the integer part, signed zero, the 9e12 switch to printf, huge and
 * non-finite values), exact ties k / 2^n, and a seeded sweep over random
 * bit patterns, random magnitudes and values about a half micro. */
static void fixed6_check(double v) {
  char got[HPX_FIXED6_SIZE], want[HPX_FIXED6_SIZE + 8];
  size_t n = hpx_fmt_fixed6(got, v);
  snprintf(want, sizeof want, "%.6f", v);
  if (strcmp(got, want) != 0 || n != strlen(want))
    fail_msg("%.17g: got \"%s\" (%zu), printf \"%s\"", v, got, n, want);
}

static uint64_t next_random(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static void fixed6_is_printf(void **state) {
  (void)state;
  double edges[] = {0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    0.5,
                    1e-7,
                    5e-7,
                    -5e-7,
                    4.9999999e-7,
                    1.5e-6,
                    2.5e-6,
                    0.0078125,
                    0.0234375,
                    0.9999995,
                    0.99999949999,
                    9.9999995,
                    123.4567895,
                    0.1,
                    0.3,
                    8999999999999.999,
                    9e12,
                    -9e12,
                    9.0000000000001e12,
                    1e13,
                    1e100,
                    -1e300,
                    1.7976931348623157e308,
                    4.9406564584124654e-324,
                    2.2250738585072014e-308,
                    (double)(1u << 31),
                    4294967296.0000005};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    fixed6_check(edges[i]);
  fixed6_check(INFINITY);
  fixed6_check(-INFINITY);
  fixed6_check(NAN);
  for (int e = 1; e < 80; e++) /* odd multiples of 2^-e: every tie */
    for (uint64_t k = 1; k < 4000; k += 2) fixed6_check(ldexp((double)k, -e));
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 200000; i++) {
    uint64_t bits = next_random(&x);
    double v;
    memcpy(&v, &bits, sizeof v);
    fixed6_check(v); /* any bit pattern: most are huge, tiny or NaN */
    double mag = ldexp((double)(next_random(&x) >> 11), -53); /* [0, 1) */
    int exp10 = (int)(next_random(&x) % 26) - 12; /* 10^-12 .. 10^13 */
    fixed6_check(mag * pow(10.0, exp10) * (i & 1 ? -1.0 : 1.0));
    /* a time as GHC writes it, with its last bit moved */
    double t = (double)(next_random(&x) % 100000000000ull) / 1e6;
    fixed6_check(nextafter(t, i & 2 ? INFINITY : 0.0));
    /* about a half micro below 8e6 (the double product's path), as near
     * to it as the product's error and nearer, and its neighbours */
    double h = ((double)(next_random(&x) % 8000000000000ull) + 0.5) / 1e6;
    int step = (int)(next_random(&x) % 64) - 32;
    fixed6_check(h);
    fixed6_check(nextafter(h, i & 2 ? INFINITY : 0.0));
    fixed6_check(h + ldexp((double)step, -36 - (int)(i % 8)));
  }
}

/* hpx_fmt_row against printf ("%.6f", then ",%lld" for each value, then
 * CRLF): rows of every width up to 9, their values drawn a length at a
 * time (1 to 8 digits, the edges of each, longer, negative: SSE2 formats
 * two values below 10^8 at once, the rest one by one), their times as
 * fixed6_is_printf draws them, and nothing written past the row's end
 * but the seven bytes a short last value may spill. */
static int64_t row_value(uint64_t *x) {
  uint64_t r = next_random(x);
  int64_t p = 1;
  for (unsigned digits = (unsigned)(r % 8); digits > 0; digits--) p *= 10;
  switch (r >> 8 & 15) {
  case 0: return p - 1; /* the longest of a length, and 0 */
  case 1: return p;
  case 2: return -(int64_t)(next_random(x) % (uint64_t)(10 * p));
  case 3: return (int64_t)(next_random(x) >> 1);     /* up to 19 digits */
  case 4: return 100000000 - (int64_t)(r >> 16 & 3); /* 10^8's edge */
  default: return (int64_t)(next_random(x) % (uint64_t)(10 * p));
  }
}

static double row_time(uint64_t *x, int i) {
  switch (i % 5) {
  case 0: return (double)(next_random(x) % 100000000000ull) / 1e6;
  case 1: return ((double)(next_random(x) % 8000000000000ull) + 0.5) / 1e6;
  case 2: return nextafter(8e6, i & 8 ? 0.0 : INFINITY);
  case 3: return ldexp((double)(next_random(x) >> 11), -53) * 1e13;
  default: return -(double)(next_random(x) % 1000000000ull) / 1e6;
  }
}

static void fmt_row_is_printf(void **state) {
  (void)state;
  enum { K = 9, STRIDE = 2 };
  uint64_t x = 0x853c49e6748fea9bull;
  for (int i = 0; i < 100000; i++) {
    int64_t col[K * STRIDE];
    for (size_t j = 0; j < K * STRIDE; j++) col[j] = row_value(&x);
    size_t n = (size_t)(i % (K + 1)), k = n + (size_t)(i / 7 % (K + 1 - n));
    double t = row_time(&x, i);
    char got[HPX_FIXED6_SIZE + K * 21 + 16], want[sizeof got];
    memset(got, '#', sizeof got);
    size_t len = (size_t)(hpx_fmt_row(got, t, col, STRIDE, k, n) - got);
    for (size_t j = len + 7; j < sizeof got; j++) assert_int_equal(got[j], '#');
    got[len] = '\0';
    size_t w = (size_t)snprintf(want, sizeof want, "%.6f", t);
    for (size_t j = k; j-- > k - n;)
      w += (size_t)snprintf(want + w, sizeof want - w, ",%lld",
                            (long long)col[j * STRIDE]);
    snprintf(want + w, sizeof want - w, "\r\n");
    if (strcmp(got, want) != 0)
      fail_msg("got \"%s\", printf \"%s\"", got, want);
  }
}

/* hpx_fmt says how much it wrote, not how much it would have. */
static void fmt_length_is_written(void **state) {
  (void)state;
  char buf[8];
  assert_int_equal(hpx_fmt(buf, sizeof buf, "%s", "0123456789"), 7);
  assert_string_equal(buf, "0123456");
  assert_int_equal(hpx_fmt(buf, sizeof buf, "%d", 42), 2);
  assert_int_equal(hpx_fmt(buf, 1, "%d", 42), 0);
  assert_string_equal(buf, "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fmt_ignores_locale),
      cmocka_unit_test(public_printf_ignores_locale),
      cmocka_unit_test(fmt_thousands),
      cmocka_unit_test(fmt_int_is_lld),
      cmocka_unit_test(fmt_int_short_values),
      cmocka_unit_test(fmt_int_fields_are_lld),
      cmocka_unit_test(fixed6_is_printf),
      cmocka_unit_test(fmt_row_is_printf),
      cmocka_unit_test(fmt_length_is_written),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
