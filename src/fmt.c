/* fmt.c -- number formatting that never depends on the process locale:
 * printf-style formatting under the "C" numeric locale, and integers with
 * thousands separators.  Every writer of numbers in libhp2x uses these.
 */
#define _GNU_SOURCE 1
#include "hp2x_int.h"

#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) {
  c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

int hp2x_fmt(char *buf, size_t size, const char *fmt, ...) {
  pthread_once(&c_locale_once, make_c_locale);
  locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  if (c_locale) uselocale(old);
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

size_t hp2x_fmt_int(char *buf, int64_t v) {
  char digits[20];
  size_t n = digits_reversed(digits, v), o = 0;
  if (v < 0) buf[o++] = '-';
  while (n) buf[o++] = digits[--n];
  return o;
}

size_t hp2x_fmt_thousands(char *buf, size_t size, int64_t v) {
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
