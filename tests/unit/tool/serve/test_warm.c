/* test_warm.c -- the tool's serve/warm.c: the warm-up page ("/?warm=1")
 * is a lean live report of hp2x's own tiny profile (no PNG's bytes, no
 * scripts, redraw 0), drawn with the options given (the chart kind
 * asked for is the page's), and nothing when it cannot be drawn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "serve/warm.h"

#include <stdlib.h>
#include <string.h>

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) n++;
  return n;
}

static char *warm_with(hp2x_chart chart) {
  hp2x_options o;
  hp2x_options_init(&o);
  o.chart = chart;
  return serve_warm_page(&o);
}

static void lean_report(void **state) {
  (void)state;
  char *page = warm_with(HP2X_CHART_STACKED);
  assert_non_null(page);
  assert_non_null(strstr(page, "<html lang=\"en\" data-hp2x-redraw=\"0\">"));
  assert_non_null(strstr(page, "<main id=\"hp2x-report\">"));
  assert_non_null(strstr(page, "src=\"data:image/png;base64,\">"));
  assert_int_equal(count(page, "<script"), 1); /* the data alone */
  assert_non_null(strstr(page, "\"job\":\"hp2x\""));
  assert_non_null(strstr(page, "\"chart\":\"stacked\""));
  free(page);
}

static void options_kept(void **state) {
  (void)state;
  char *page = warm_with(HP2X_CHART_STREAMGRAPH);
  assert_non_null(page);
  assert_non_null(strstr(page, "\"chart\":\"streamgraph\""));
  free(page);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lean_report),
      cmocka_unit_test(options_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
