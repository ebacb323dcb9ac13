/* comma_locale.h -- the unit tests' way into a comma-decimal locale:
 * switches the process to de_DE.UTF-8, or skips the calling test (cmocka's
 * skip(), with the reason printed) where that locale is missing or does
 * not use ',' (make deps installs it).  Include after <cmocka.h>. */
#ifndef HPX_COMMA_LOCALE_H
#define HPX_COMMA_LOCALE_H

#include <locale.h>
#include <string.h>

#define enter_comma_locale_or_skip()                                     \
  do {                                                                   \
    if (!setlocale(LC_ALL, "de_DE.UTF-8") ||                             \
        strcmp(localeconv()->decimal_point, ",") != 0) {                 \
      setlocale(LC_ALL, "C");                                            \
      print_message("SKIPPED: no de_DE.UTF-8 locale with a ',' decimal " \
                    "point (make deps installs it)\n");                  \
      skip();                                                            \
    }                                                                    \
  } while (0)

#endif
