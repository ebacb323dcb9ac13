/* numbers.h -- the tool's numbers in the "C" numeric locale whatever the
 * user's locale is (main sets it from the environment for messages and
 * pango): option values are read with a '.' decimal point and messages
 * print them back the same way (numbers.c).
 */
#ifndef HPX_TOOL_NUMBERS_H
#define HPX_TOOL_NUMBERS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Parses all of s as strtod does in the "C" locale ("2.5", "1e3");
 * 1 and *v set when all of s is one finite-or-not number in range, else 0. */
int numbers_parse_double(const char *s, double *v);
/* Parses all of s as a whole decimal number that fits a long: 1 and *v
 * set, else 0. */
int numbers_parse_long(const char *s, long *v);

/* snprintf with the "C" locale (the library's hp2x_vsnprintf_c): "%g" of
 * 2.5 is "2.5" under de_DE too.  Returns what snprintf returns. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int numbers_snprintf(char *buf, size_t size, const char *fmt, ...);
/* vfprintf with the "C" locale: formats through hp2x_vsnprintf_c, then
 * writes.  Returns the length written, or < 0 on an error. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 0)))
#endif
int numbers_vfprintf(FILE *f, const char *fmt, va_list ap);

#endif
