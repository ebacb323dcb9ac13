/* numbers.c -- option values parsed, and message numbers printed, in the
 * "C" numeric locale.  Printing goes through the library's one locale-free
 * printf (hp2x_vsnprintf_c).  Parsing: the tool is single-threaded, so it
 * switches this thread to a copy of the user's locale whose LC_NUMERIC is
 * "C" (uselocale, POSIX.1-2008) around each strtod and switches back:
 * strtod keeps its exact rounding and exponent forms, which a hand parser
 * would have to repeat (the library parses its own inputs by hand).
 */
#include "numbers.h"

#include "hp2x.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>

/* The user's locale with LC_NUMERIC "C"; made once, after main's
 * setlocale, and kept for the process.  (locale_t)0 when it cannot be made:
 * then numbers follow the current locale, as before main set one. */
static locale_t c_numeric(void) {
  static locale_t made;
  static int tried;
  if (!tried) {
    tried = 1;
    locale_t base = duplocale(LC_GLOBAL_LOCALE);
    if (base) {
      made = newlocale(LC_NUMERIC_MASK, "C", base);
      if (!made) freelocale(base); /* on success newlocale took it over */
    }
  }
  return made;
}

int numbers_parse_long(const char *s, long *v) {
  if (!*s) return 0;
  char *end;
  errno = 0;
  *v = strtol(s, &end, 10);
  return *end == '\0' && errno == 0;
}

int numbers_parse_double(const char *s, double *v) {
  if (!*s) return 0;
  locale_t c = c_numeric();
  locale_t old = c ? uselocale(c) : (locale_t)0;
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  int range = errno;
  if (c) uselocale(old);
  return *end == '\0' && range == 0;
}

int numbers_snprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = hp2x_vsnprintf_c(buf, size, fmt, ap);
  va_end(ap);
  return n;
}

int numbers_vfprintf(FILE *f, const char *fmt, va_list ap) {
  char small[512], *text = small;
  va_list again;
  va_copy(again, ap);
  int n = hp2x_vsnprintf_c(small, sizeof small, fmt, ap);
  if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
    hp2x_vsnprintf_c(text, (size_t)n + 1, fmt, again);
  va_end(again);
  if (n < 0) return n;
  size_t len = text ? (size_t)n : sizeof small - 1; /* cut short: no memory */
  int wrote = fwrite(text ? text : small, 1, len, f) == len ? n : -1;
  if (text != small) free(text);
  return wrote;
}
