/* fmt.c -- number formatting that never depends on the process locale:
 * printf-style formatting under the "C" locale (hp2x_vsnprintf_c, which the
 * tool's messages use too), integers with thousands separators, and the
 * writers' hot paths (integers, times as "%.6f") without printf.  Every writer
 * of numbers in libhp2x uses these.
 */
#include "textout.h"

#include <assert.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* SSE2 formats two integers at once (int_fields); HPX_NO_SSE2 and a
 * PORTABLE=1 build (HP2X_PORTABLE) leave them to the 64-bit words. */
#if defined(__SSE2__) && !defined(HPX_NO_SSE2) && !defined(HP2X_PORTABLE)
#define HPX_FMT_SSE2 1
#include <emmintrin.h>
#endif

/* Which digits this object makes, by name (test_seams reads it with nm). */
#if defined(HPX_FMT_SSE2)
const int hpx_fmt_digits_sse2 = 1;
#else
const int hpx_fmt_digits_words = 1;
#endif

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) {
  c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

int hp2x_vsnprintf_c(char *buf, size_t size, const char *fmt, va_list ap) {
  pthread_once(&c_locale_once, make_c_locale);
  locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
  int n = vsnprintf(buf, size, fmt, ap);
  if (c_locale) uselocale(old);
  return n;
}

int hpx_vfmt(char *buf, size_t size, const char *fmt, va_list ap) {
  int n = hp2x_vsnprintf_c(buf, size, fmt, ap);
  if (n < 0) {
    if (size) buf[0] = '\0';
    return 0;
  }
  return (size_t)n < size ? n : size ? (int)(size - 1) : 0;
}

int hpx_fmt(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = hpx_vfmt(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

/* |v|'s digits, least significant first; returns how many. */
static size_t digits_reversed(char digits[20], int64_t v) {
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  return n;
}

/* The decimal digits of u: a few comparisons for the common sizes. */
static size_t digit_count(uint64_t u) {
  if (u < 10000) return u < 100 ? (u < 10 ? 1 : 2) : (u < 1000 ? 3 : 4);
  if (u < 100000000)
    return u < 1000000 ? (u < 100000 ? 5 : 6) : (u < 10000000 ? 7 : 8);
  size_t n = 9;
  for (uint64_t p = 1000000000; n < 20 && u >= p; p *= 10) n++;
  return n;
}

/* "00" to "99" as numbers, the first digit in the low byte (the same
 * bytes on any host once stored lowest byte first). */
#define PAIR(a, b) (uint16_t)(('0' + (a)) | ('0' + (b)) << 8)
#define TEN(a)                                                            \
  PAIR(a, 0), PAIR(a, 1), PAIR(a, 2), PAIR(a, 3), PAIR(a, 4), PAIR(a, 5), \
      PAIR(a, 6), PAIR(a, 7), PAIR(a, 8), PAIR(a, 9)
static const uint16_t digit_pairs[100] = {TEN(0), TEN(1), TEN(2), TEN(3),
                                          TEN(4), TEN(5), TEN(6), TEN(7),
                                          TEN(8), TEN(9)};
#undef TEN
#undef PAIR

/* The two digits of r < 100 at d. */
static void put_pair(char *d, size_t r) {
  d[0] = (char)digit_pairs[r], d[1] = (char)(digit_pairs[r] >> 8);
}

/* w's eight bytes at buf, lowest first: one store (byte by byte, a
 * compiler merges them only where it does not reuse the shifts). */
static HPX_ALWAYS_INLINE void put8(char *buf, uint64_t w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(buf, &w, sizeof w);
#else
  buf[0] = (char)w, buf[1] = (char)(w >> 8), buf[2] = (char)(w >> 16);
  buf[3] = (char)(w >> 24), buf[4] = (char)(w >> 32);
  buf[5] = (char)(w >> 40), buf[6] = (char)(w >> 48);
  buf[7] = (char)(w >> 56);
#endif
}

/* The eight decimal digits of x < 10^8 as ASCII in one word, the first
 * digit in its lowest byte, leading zeros kept: x split into two halves of
 * four digits (32 bits apart), each half into two pairs (16 bits apart),
 * each pair into two digits (8 bits apart), dividing every lane at once by
 * a multiplication and a shift (x / 100 as x * 10486 >> 20 for x < 10^4,
 * x / 10 as x * 103 >> 10 for x < 100: both exact there, every x < 10^8
 * checked).  No table, no division. */
static HPX_ALWAYS_INLINE uint64_t eight_digits(uint32_t x) {
  uint64_t halves = (uint64_t)(x / 10000u) | (uint64_t)(x % 10000u) << 32;
  uint64_t hi = (halves * 10486u >> 20) & UINT64_C(0x0000007F0000007F);
  uint64_t pairs = ((halves - 100u * hi) << 16) + hi;
  uint64_t tens = (pairs * 103u >> 10) & UINT64_C(0x000F000F000F000F);
  tens += (pairs - 10u * tens) << 8;
  return tens + UINT64_C(0x3030303030303030);
}

/* eight_digits's word w in decimal at buf: its leading zeros (the low
 * bytes that are '0', all but the last) shifted out, stored whole (8 bytes
 * written, lowest byte first whatever the host's order).  Returns the
 * length. */
static HPX_ALWAYS_INLINE size_t put_digits(char *buf, uint64_t w) {
  size_t lead =
      hpx_ctz64((w ^ UINT64_C(0x3030303030303030)) | (uint64_t)1 << 56) >> 3;
  put8(buf, w >> 8 * lead);
  return 8 - lead;
}

/* x < 10^8 in decimal at buf (put_digits's 8 bytes); returns the length. */
static HPX_ALWAYS_INLINE size_t below_1e8(char *buf, uint32_t x) {
  return put_digits(buf, eight_digits(x));
}

#ifdef HPX_FMT_SSE2
/* eight_digits's words of x0 and x1 (each < 10^8) at once, x0's in the
 * low half: the same steps, in 32- then 16-bit lanes (x / 10^4 as x *
 * 0xd1b71759 >> 45 for any 32-bit x, y / 100 as y * 5243 >> 19 for y <
 * 10^4, y / 10 as y * 6554 >> 16 for y < 100: exact there). */
static HPX_ALWAYS_INLINE __m128i eight_digits2(uint32_t x0, uint32_t x1) {
  __m128i x = _mm_unpacklo_epi64(_mm_cvtsi32_si128((int)x0),
                                 _mm_cvtsi32_si128((int)x1));
  __m128i hi = _mm_srli_epi64(
      _mm_mul_epu32(x, _mm_set1_epi32((int)UINT32_C(0xd1b71759))), 45);
  __m128i lo = _mm_sub_epi32(x, _mm_mul_epu32(hi, _mm_set1_epi32(10000)));
  __m128i halves = _mm_or_si128(hi, _mm_slli_epi64(lo, 32));
  __m128i h100 =
      _mm_srli_epi16(_mm_mulhi_epu16(halves, _mm_set1_epi16(5243)), 3);
  __m128i pairs = _mm_or_si128(
      h100,
      _mm_slli_epi32(
          _mm_sub_epi16(halves, _mm_mullo_epi16(h100, _mm_set1_epi16(100))),
          16));
  __m128i tens = _mm_mulhi_epu16(pairs, _mm_set1_epi16(6554));
  __m128i ones =
      _mm_sub_epi16(pairs, _mm_mullo_epi16(tens, _mm_set1_epi16(10)));
  return _mm_add_epi8(_mm_or_si128(tens, _mm_slli_epi16(ones, 8)),
                      _mm_set1_epi8('0'));
}

/* The low and the high 64 bits of w (a store the compiler makes a move;
 * _mm_cvtsi128_si64 is x86-64's alone). */
static HPX_ALWAYS_INLINE uint64_t low64(__m128i w) {
  uint64_t x;
  _mm_storel_epi64((__m128i *)(void *)&x, w);
  return x;
}
static HPX_ALWAYS_INLINE uint64_t high64(__m128i w) {
  return low64(_mm_unpackhi_epi64(w, w));
}
#endif

/* hpx_fmt_int of any v: a sign, and more than eight digits, here. */
static HPX_NOINLINE size_t fmt_any_int(char *buf, int64_t v) {
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  size_t o = v < 0;
  if (v < 0) buf[0] = '-';
  if (u < 100000000) return o + below_1e8(buf + o, (uint32_t)u);
  size_t n = digit_count(u);
  char *d = buf + o + n; /* digits written from the last one back */
  while (u >= 100) {
    size_t r = (size_t)(u % 100);
    u /= 100;
    d -= 2;
    put_pair(d, r);
  }
  if (u >= 10)
    put_pair(d - 2, (size_t)u);
  else
    d[-1] = (char)('0' + u);
  return o + n;
}

size_t hpx_fmt_int(char *buf, int64_t v) {
  if ((uint64_t)v < 100000000) return below_1e8(buf, (uint32_t)v);
  return fmt_any_int(buf, v);
}

/* ",v" at d; returns the end. */
static HPX_ALWAYS_INLINE char *int_field(char *d, int64_t v) {
  *d++ = ',';
  return d + ((uint64_t)v < 100000000 ? below_1e8(d, (uint32_t)v)
                                      : fmt_any_int(d, v));
}

static HPX_ALWAYS_INLINE char *int_fields(char *d, const int64_t *col,
                                          size_t stride, size_t k, size_t n) {
#ifdef HPX_FMT_SSE2
  for (; n >= 2; n -= 2) { /* two values at once below 10^8 */
    int64_t a = col[--k * stride], b = col[--k * stride];
    if ((uint64_t)a >= 100000000 || (uint64_t)b >= 100000000) {
      d = int_field(int_field(d, a), b);
      continue;
    }
    __m128i w = eight_digits2((uint32_t)a, (uint32_t)b);
    *d++ = ',';
    d += put_digits(d, low64(w));
    *d++ = ',';
    d += put_digits(d, high64(w));
  }
#endif
  for (; n > 0; n--) d = int_field(d, col[--k * stride]);
  return d;
}

char *hpx_fmt_int_fields(char *d, const int64_t *col, size_t stride, size_t k,
                         size_t n) {
  return int_fields(d, col, stride, k, n);
}

size_t hpx_fmt_thousands(char *buf, size_t size, int64_t v) {
  char digits[20];
  int neg = v < 0;
  size_t n = digits_reversed(digits, v);
  size_t o = 0;
  if (neg && o + 1 < size) buf[o++] = '-';
  for (size_t i = n; i-- > 0;) {
    if (o + 1 >= size) break;
    buf[o++] = digits[i];
    if (i && i % 3 == 0 && o + 1 < size) buf[o++] = ',';
  }
  if (size) buf[o < size ? o : size - 1] = '\0';
  return o;
}

/* "%.6f" without printf.  |v| = m / 2^s exactly (m < 2^53), so
 * |v| * 10^6 is the 73-bit integer m * 10^6, kept as hi:lo, shifted right
 * by s and rounded to nearest with ties to even, as glibc's printf rounds.
 * Below FIXED6_MAX, s >= 9 and the result fits in 63 bits. */
#define FIXED6_MAX 9e12

/* m * 10^6 / 2^s rounded to nearest, ties to even (m < 2^53, s >= 9). */
static uint64_t scale_micros(uint64_t m, int s) {
  assert(m < ((uint64_t)1 << 53) && s >= 9);
  uint64_t q = 0;
  if (s < 74) { /* else m * 10^6 < 2^73 <= 2^(s-1): rounds to 0 */
    uint64_t a = (m >> 32) * 1000000u, b = (m & 0xffffffffu) * 1000000u;
    uint64_t lo = (a << 32) + b, hi = (a >> 32) + (lo < b); /* carry */
    uint64_t rest_hi, rest_lo, half_hi, half_lo; /* shifted out; 2^(s-1) */
    if (s < 64) {
      q = (lo >> s) | (hi << (64 - s));
      rest_hi = 0;
      rest_lo = lo & ((UINT64_C(1) << s) - 1);
      half_hi = 0;
      half_lo = UINT64_C(1) << (s - 1);
    } else {
      q = hi >> (s - 64);
      rest_hi = hi & ((UINT64_C(1) << (s - 64)) - 1);
      rest_lo = lo;
      half_hi = s > 64 ? UINT64_C(1) << (s - 65) : 0;
      half_lo = s > 64 ? 0 : UINT64_C(1) << 63;
    }
    int above = rest_hi > half_hi || (rest_hi == half_hi && rest_lo > half_lo);
    int tie = rest_hi == half_hi && rest_lo == half_lo;
    q += (uint64_t)(above || (tie && (q & 1)));
  }
  return q;
}

/* Below it, |v| * 10^6 < 2^43: the double product is within 2^-11 of the
 * exact one, and every half (n + 1/2) is a double (near_micros). */
#define FIXED6_NEAR 8e6

/* |v| * 10^6 rounded as scale_micros rounds it, from the double product,
 * when no half lies within 2^-11 of it: then none lies between it and the
 * exact product (rounding to nearest never crosses a double), which rounds
 * the same way, and a tie is never taken here.  Since every half below
 * 2^43 is itself a double, only a product equal to a half needs the exact
 * path: the 2^-11 margin is a safety margin, not a need.  The time of a
 * census in a few instructions; false: scale_micros's.
 *
 * The nearest integer n comes from adding 2^52: every double in [2^52,
 * 2^53) is an integer, so the sum is d rounded to an integer, n in its
 * mantissa's bits, and d - n is exact.  |d - n| < 1/2 - 2^-11 is the test
 * above (a half within 2^-11 of d is one 1/2 from n) and says n is the
 * nearest integer in any rounding mode (a directed one may round d to
 * the farther integer, but never to within 1/2 of d). */
static bool near_micros(double a, uint64_t *q) {
  double d = a * 1e6, n = d + 0x1p52;
  if (fabs(d - (n - 0x1p52)) >= 0.5 - 0x1p-11) return false;
  uint64_t bits;
  memcpy(&bits, &n, sizeof bits);
  *q = bits & ((UINT64_C(1) << 52) - 1);
  return true;
}

/* q micro-units (q < 2^63) as "%.6f" prints q / 10^6, and a NUL, at buf:
 * the whole part as hpx_fmt_int writes it, '.', then the six digits of
 * the fraction as eight_digits's word without its two leading zeros, the
 * two NULs it shifts in stored with them (the one after the last digit
 * ends the text).  Returns the length. */
static HPX_ALWAYS_INLINE size_t put_micros(char *buf, uint64_t q) {
  uint64_t whole = q / 1000000u, frac_word;
  uint32_t frac = (uint32_t)(q - whole * 1000000u);
  size_t o;
#ifdef HPX_FMT_SSE2
  if (whole < 100000000) { /* both words at once */
    __m128i w = eight_digits2((uint32_t)whole, frac);
    o = put_digits(buf, low64(w));
    frac_word = high64(w);
  } else
#endif
  {
    o = whole < 100000000 ? below_1e8(buf, (uint32_t)whole)
                          : fmt_any_int(buf, (int64_t)whole);
    frac_word = eight_digits(frac);
  }
  buf[o] = '.';
  put8(buf + o + 1, frac_word >> 16);
  return o + 7;
}

/* hpx_fmt_fixed6 of any v: printf's above 9e12 and for NaN and the
 * infinities, else scale_micros's, or near_micros's for a negative v. */
static HPX_NOINLINE size_t fixed6_any(char *buf, double v) {
  if (!(v > -FIXED6_MAX && v < FIXED6_MAX)) /* NaN, infinities, large */
    return (size_t)hpx_fmt(buf, HPX_FIXED6_SIZE, "%.6f", v);
  size_t o = 0;
  if (signbit(v)) buf[o++] = '-';
  uint64_t q;
  if (!(fabs(v) < FIXED6_NEAR && near_micros(fabs(v), &q))) {
    /* |v| = m / 2^s from its bits: a normal number's 53-bit mantissa and
     * exponent; zero and the subnormals (far below 10^-6) read as 0. */
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int biased = (int)(bits >> 52 & 0x7ff);
    uint64_t m = biased ? (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52
                        : 0;
    q = scale_micros(m, biased ? 1075 - biased : 53);
  }
  return o + put_micros(buf + o, q);
}

/* hpx_fmt_fixed6, a time's path inlined: 0 <= v < FIXED6_NEAR with its
 * sign bit clear (-0.0 prints "-0.000000") is a double whose bits, read
 * as an integer, are below FIXED6_NEAR's (NaN's and a negative's are
 * above). */
static HPX_ALWAYS_INLINE size_t fixed6(char *buf, double v) {
  uint64_t bits, near_bits;
  const double near = FIXED6_NEAR;
  memcpy(&bits, &v, sizeof bits);
  memcpy(&near_bits, &near, sizeof near_bits);
  uint64_t q;
  if (bits < near_bits && near_micros(v, &q)) return put_micros(buf, q);
  return fixed6_any(buf, v);
}

size_t hpx_fmt_fixed6(char *buf, double v) { return fixed6(buf, v); }

char *hpx_fmt_row(char *d, double t, const int64_t *col, size_t stride,
                  size_t k, size_t n) {
  d += fixed6(d, t);
  d = int_fields(d, col, stride, k, n);
  d[0] = '\r';
  d[1] = '\n';
  return d + 2;
}
