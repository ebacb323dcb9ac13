/* test_options.h -- hp2x_options_init as the unit tests use it: the
 * library's defaults, drawn with the repository's pinned fonts
 * ($HP2X_FONTS_CONF, which run-tests.sh sets: the library never reads the
 * environment, so the tests pass it on as the tool does). */
#ifndef HPX_TEST_OPTIONS_H
#define HPX_TEST_OPTIONS_H

#include "hp2x.h"

#include <stdlib.h>

static inline void test_options_init(hp2x_options *o) {
  hp2x_options_init(o);
  const char *fonts = getenv("HP2X_FONTS_CONF");
  if (fonts && *fonts) o->fonts_conf = fonts;
}

#endif
