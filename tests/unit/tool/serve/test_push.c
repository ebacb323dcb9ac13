/* test_push.c -- the tool's serve/push.c: a "report" event's bytes (the
 * page as one JSON string on one data line, its PNG's base64 cut out when
 * lean, every byte that JSON or the event stream cannot carry as it is
 * escaped), the length asked for when the buffer is too small, and where
 * a page's PNG is. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "serve/serve_int.h"

#include <stdlib.h>
#include <string.h>

/* a band set's fingerprint, and a byte after it that is not part of it */
#define SET "0123456789abcdef"
static const char set_and_more[] = SET "X";

static const char page[] = "<!DOCTYPE html>\n<html data-hp2x-redraw=\"7\">\n"
                           "<img id=\"hp2x-raster\" alt=\"a \\ b\" "
                           "src=\"data:image/png;base64,iVBORw0KGgo=\">\n"
                           "<p>\ttab\rcr\x01</p>\n</html>\n";

/* The event of page with [from, to) cut, checked against want. */
static void event_is(long picture, int lean, size_t from, size_t to,
                     const char *want) {
  size_t len = strlen(page);
  size_t need = push_format(NULL, 0, picture, SET, lean, page, len, from, to);
  assert_int_equal(need, strlen(want));
  char small[8];
  memset(small, 'x', sizeof small);
  assert_int_equal(
      push_format(small, sizeof small, picture, SET, lean, page, len, from, to),
      need);
  for (size_t i = 0; i < sizeof small; i++) assert_int_equal(small[i], 'x');
  char *buf = malloc(need + 1);
  assert_non_null(buf);
  buf[need] = '#';
  assert_int_equal(
      push_format(buf, need, picture, SET, lean, page, len, from, to), need);
  assert_memory_equal(buf, want, need);
  assert_int_equal(buf[need], '#');
  /* one data line: no newline before the event's end */
  assert_null(memchr(buf + strlen("event: report\n"), '\n',
                     need - strlen("event: report\n") - 2));
  free(buf);
}

static void whole_page(void **state) {
  (void)state;
  size_t len = strlen(page);
  event_is(7, 0, len, len,
           "event: report\ndata: {\"picture\":7,\"set\":\"" SET "\","
           "\"lean\":false,\"page\":"
           "\"<!DOCTYPE html>\\n<html data-hp2x-redraw=\\\"7\\\">\\n"
           "<img id=\\\"hp2x-raster\\\" alt=\\\"a \\\\ b\\\" "
           "src=\\\"data:image/png;base64,iVBORw0KGgo=\\\">\\n"
           "<p>\\ttab\\rcr\\u0001</p>\\n</html>\\n\"}\n\n");
}

static void lean_page(void **state) {
  (void)state;
  size_t from, to;
  assert_int_equal(push_page_png(page, &from, &to), 1);
  assert_int_equal(to - from, strlen("iVBORw0KGgo="));
  assert_memory_equal(page + from, "iVBORw0KGgo=", to - from);
  event_is(12, 1, from, to,
           "event: report\ndata: {\"picture\":12,\"set\":\"" SET "\","
           "\"lean\":true,\"page\":"
           "\"<!DOCTYPE html>\\n<html data-hp2x-redraw=\\\"7\\\">\\n"
           "<img id=\\\"hp2x-raster\\\" alt=\\\"a \\\\ b\\\" "
           "src=\\\"data:image/png;base64,\\\">\\n"
           "<p>\\ttab\\rcr\\u0001</p>\\n</html>\\n\"}\n\n");
}

static void no_png(void **state) {
  (void)state;
  size_t from = 99, to = 99;
  /* the waiting page: no raster */
  assert_int_equal(push_page_png("<html><p>waiting</p></html>", &from, &to), 0);
  /* another tag's src after the raster's tag: not the raster's */
  assert_int_equal(push_page_png("<img id=\"hp2x-raster\" alt=\"x\"><img "
                                 "src=\"data:image/png;base64,AAAA\">",
                                 &from, &to),
                   0);
  assert_int_equal(from, 99);
}

static void utf8_kept(void **state) {
  (void)state;
  /* bytes past ASCII go as they are (the stream is UTF-8) */
  const char text[] = "caf\xc3\xa9 \x7f";
  /* and the set's 16 digits only, whatever follows them */
  size_t n = push_format(NULL, 0, 1, set_and_more, 0, text, strlen(text),
                         strlen(text), strlen(text));
  char buf[160];
  assert_true(n <= sizeof buf);
  push_format(buf, sizeof buf, 1, set_and_more, 0, text, strlen(text),
              strlen(text), strlen(text));
  const char *want = "event: report\ndata: {\"picture\":1,\"set\":\"" SET
                     "\",\"lean\":false,\"page\":\"caf\xc3\xa9 \x7f\"}\n\n";
  assert_int_equal(n, strlen(want));
  assert_memory_equal(buf, want, n);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(whole_page),
      cmocka_unit_test(lean_page),
      cmocka_unit_test(no_png),
      cmocka_unit_test(utf8_kept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
