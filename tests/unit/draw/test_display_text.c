/* test_display_text.c -- display_text.c: label bytes as displayable
 * UTF-8, without pango (pprof's and the metrics' labels, and the
 * picture's): valid UTF-8 kept, any other byte read as Latin-1, control
 * characters and overlong or surrogate forms made safe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "draw/display_text.h"
#include "base/base.h"

#include <string.h>

static void expect(const char *in, size_t len, const char *want) {
  char *got = hpx_render_display_text(in, len);
  assert_non_null(got);
  assert_string_equal(got, want);
  hpx_free(got);
}

static void test_utf8_kept(void **state) {
  (void)state;
  expect("plain ASCII", 11, "plain ASCII");
  expect("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14,
         "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  expect("", 0, "");
}

static void test_latin1_and_controls(void **state) {
  (void)state;
  /* GHC 9.0's Latin-1 bytes: each one a character of its own. */
  expect("caf\xe9", 4, "caf\xc3\xa9");
  expect("\xff\xfe", 2, "\xc3\xbf\xc3\xbe");
  /* Control characters, C1 included, become U+FFFD. */
  expect("a\tb\x7f", 4,
         "a\xef\xbf\xbd"
         "b\xef\xbf\xbd");
  expect("\xc2\x85", 2, "\xef\xbf\xbd");
  /* A UTF-8 sequence cut short by the length: Latin-1 bytes. */
  expect("\xe2\x82\xac", 2, "\xc3\xa2\xef\xbf\xbd");
}

static void test_bad_forms(void **state) {
  (void)state;
  /* Overlong, surrogate and beyond U+10FFFF: each byte as Latin-1. */
  expect("\xc0\xaf", 2, "\xc3\x80\xc2\xaf");
  expect("\xed\xa0\x80", 3, "\xc3\xad\xc2\xa0\xef\xbf\xbd");
  expect("\xf4\x90\x80\x80", 4, "\xc3\xb4\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_utf8_kept),
      cmocka_unit_test(test_latin1_and_controls),
      cmocka_unit_test(test_bad_forms),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
