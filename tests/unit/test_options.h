/* test_options.h -- hp2x_options_init as the unit tests use it: the
 * library's defaults, drawn with the repository's pinned fonts
 * ($HP2X_FONTS_CONF, which run-tests.sh sets: the library never reads the
 * environment, so the tests pass it on as the tool does); and a profile
 * of .hp text with its bands under those options. */
#ifndef HPX_TEST_OPTIONS_H
#define HPX_TEST_OPTIONS_H

#include "hp2x.h"

#include <stdlib.h>

static inline void test_options_init(hp2x_options *o) {
  hp2x_options_init(o);
  const char *fonts = getenv("HP2X_FONTS_CONF");
  if (fonts && *fonts) o->fonts_conf = fonts;
}

/* The profile of .hp text read with parse options po (NULL: the
 * defaults), and its bands under test_options_init's options. */
static inline hp2x_status test_profile_bands(const char *text, size_t len,
                                             const hp2x_parse_options *po,
                                             hp2x_profile **p, hp2x_bands **b) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("test", po, &err);
  if (!ps) return HP2X_E_NOMEM;
  hp2x_status s = hp2x_parser_feed(ps, text, len, &err);
  if (s == HP2X_OK) s = hp2x_parser_finish(ps, p, &err);
  hp2x_parser_free(ps);
  if (s != HP2X_OK) return s;
  hp2x_options o;
  test_options_init(&o);
  return hp2x_bands_select(*p, &o, b, &err);
}

#endif
