/* test_events.c -- the tool's serve/events.c: an "update" event's bytes,
 * the status with the live pages' update as its last member (its key, and
 * a waiting page's first report in the key, cut from its lean page), and the
 * length asked for when the buffer is too small (the buffer grows to it);
 * which event a stream sends next (events_choose). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "serve/serve_int.h"

#include <stdlib.h>
#include <string.h>

static void status_alone(void **state) {
  (void)state;
  const char *st = "{\"generation\":3,\"censuses\":0}";
  char buf[128];
  size_t n =
      events_format(buf, sizeof buf, 3, st, strlen(st), NULL, 0, NULL, 0, NULL);
  const char *want =
      "event: update\nid: 3\ndata: {\"generation\":3,\"censuses\":0}\n\n";
  assert_int_equal(n, strlen(want));
  assert_memory_equal(buf, want, n);
}

static void status_with_update(void **state) {
  (void)state;
  const char *st = "{\"generation\":12,\"censuses\":7}";
  const char *up = "{\"set\":\"00ff\",\"t\":[\"1.000000\"],\"v\":[[5]]}";
  const char *want = "event: update\nid: 12\ndata: {\"generation\":12,"
                     "\"censuses\":7,\"update\":{\"set\":\"00ff\",\"t\":"
                     "[\"1.000000\"],\"v\":[[5]]}}\n\n";
  size_t need =
      events_format(NULL, 0, 12, st, strlen(st), up, strlen(up), NULL, 0, NULL);
  assert_int_equal(need, strlen(want));
  /* too small: the length wanted, nothing written */
  char small[16];
  memset(small, 'x', sizeof small);
  assert_int_equal(events_format(small, sizeof small, 12, st, strlen(st), up,
                                 strlen(up), NULL, 0, NULL),
                   need);
  for (size_t i = 0; i < sizeof small; i++) assert_int_equal(small[i], 'x');
  /* just big enough: every byte, none beyond */
  char *buf = malloc(need + 1);
  assert_non_null(buf);
  buf[need] = '#';
  assert_int_equal(events_format(buf, need, 12, st, strlen(st), up, strlen(up),
                                 NULL, 0, NULL),
                   need);
  assert_memory_equal(buf, want, need);
  assert_int_equal(buf[need], '#');
  free(buf);
}

/* A new band set's key goes after the update; without an update, no key. */
static void status_with_key(void **state) {
  (void)state;
  const char *st = "{\"generation\":5}", *up = "{\"set\":\"ab\"}";
  const char *key = "{\"set\":\"ab\",\"bands\":[]}";
  const char *want = "event: update\nid: 5\ndata: {\"generation\":5,"
                     "\"update\":{\"set\":\"ab\"},\"key\":{\"set\":\"ab\","
                     "\"bands\":[]}}\n\n";
  char buf[256];
  size_t n = events_format(buf, sizeof buf, 5, st, strlen(st), up, strlen(up),
                           key, strlen(key), NULL);
  assert_int_equal(n, strlen(want));
  assert_memory_equal(buf, want, n);
  const char *bare = "event: update\nid: 5\ndata: {\"generation\":5}\n\n";
  n = events_format(buf, sizeof buf, 5, st, strlen(st), NULL, 0, key,
                    strlen(key), NULL);
  assert_int_equal(n, strlen(bare));
  assert_memory_equal(buf, bare, n);
}

/* A waiting page's first report goes last in the key: the lean page's
 * picture (its SVG, escaped) and data (its JSON, line breaks as spaces);
 * none without a key (or an empty one), nor from a page without the
 * picture or the data. */
static void status_with_first(void **state) {
  (void)state;
  const char *st = "{\"generation\":2}", *up = "{\"set\":\"ab\"}";
  const char *key = "{\"set\":\"ab\"}";
  const char *page =
      "<html><main id=\"hp2x-report\"><img id=\"hp2x-raster\" src=\"\">\n"
      "<svg id=\"hp2x-picture\" width=\"9px\">\n<g/></svg>\n</main>"
      "<script type=\"application/json\" id=\"hp2x-data\">{\"set\":\n"
      "\"ab\"}</script></html>\n";
  const char *want = "event: update\nid: 2\ndata: {\"generation\":2,"
                     "\"update\":{\"set\":\"ab\"},\"key\":{\"set\":\"ab\","
                     "\"first\":{\"picture\":\"<svg id=\\\"hp2x-picture\\\" "
                     "width=\\\"9px\\\">\\n<g/></svg>\",\"data\":{\"set\": "
                     "\"ab\"}}}}\n\n";
  char buf[512];
  size_t n = events_format(NULL, 0, 2, st, strlen(st), up, strlen(up), key,
                           strlen(key), page);
  assert_int_equal(n, strlen(want));
  assert_int_equal(events_format(buf, sizeof buf, 2, st, strlen(st), up,
                                 strlen(up), key, strlen(key), page),
                   n);
  assert_memory_equal(buf, want, n);
  /* without the key, or a page without its data or picture: no first */
  const char *plain =
      "event: update\nid: 2\ndata: {\"generation\":2,"
      "\"update\":{\"set\":\"ab\"},\"key\":{\"set\":\"ab\"}}\n\n";
  const char *waiting = "<html><p>waiting</p></html>";
  n = events_format(buf, sizeof buf, 2, st, strlen(st), up, strlen(up), key,
                    strlen(key), waiting);
  assert_int_equal(n, strlen(plain));
  assert_memory_equal(buf, plain, n);
  const char *bare = "event: update\nid: 2\ndata: {\"generation\":2,"
                     "\"update\":{\"set\":\"ab\"}}\n\n";
  n = events_format(buf, sizeof buf, 2, st, strlen(st), up, strlen(up), NULL, 0,
                    page);
  assert_int_equal(n, strlen(bare));
  assert_memory_equal(buf, bare, n);
  /* an empty key: no member to put it after, no first */
  const char *empty = "event: update\nid: 2\ndata: {\"generation\":2,"
                      "\"update\":{\"set\":\"ab\"},\"key\":{}}\n\n";
  n = events_format(buf, sizeof buf, 2, st, strlen(st), up, strlen(up), "{}", 2,
                    page);
  assert_int_equal(n, strlen(empty));
  assert_memory_equal(buf, empty, n);
}

static void big_update(void **state) {
  (void)state;
  /* far past the 600 bytes an event once had */
  size_t un = 200000;
  char *up = malloc(un + 1);
  assert_non_null(up);
  up[0] = '[';
  memset(up + 1, '1', un - 2);
  up[un - 1] = ']';
  up[un] = '\0';
  const char *st = "{\"generation\":1}";
  size_t need =
      events_format(NULL, 0, 1, st, strlen(st), up, un, NULL, 0, NULL);
  char *buf = malloc(need);
  assert_non_null(buf);
  assert_int_equal(
      events_format(buf, need, 1, st, strlen(st), up, un, NULL, 0, NULL), need);
  assert_memory_equal(buf + need - 4, "]}\n\n", 4);
  assert_non_null(memchr(buf, '[', need));
  free(buf), free(up);
}

/* What a stream sends next: the update once cleared; a report right after
 * the first update sent as new as its redraw, before any other, so that a
 * stream that is always behind (a newer update each time it asks) still
 * sends it. */
static void next_event(void **state) {
  (void)state;
  /* news of redraw 5, cleared; no report */
  events_view v = {1, 0, 5, 5, -1, -1, 4};
  assert_int_equal(events_choose(&v), EVENTS_UPDATE);
  v.cleared = 4; /* held while its report is drawn */
  assert_int_equal(events_choose(&v), EVENTS_WAIT);
  v.heartbeat = 1;
  assert_int_equal(events_choose(&v), EVENTS_HEARTBEAT);
  v.heartbeat = 0;
  /* its report came: the update first, as it is not sent yet */
  v.cleared = 5, v.report = 5;
  assert_int_equal(events_choose(&v), EVENTS_UPDATE);
  v.pictured = 5, v.news = 0; /* the update went: then the report */
  assert_int_equal(events_choose(&v), EVENTS_REPORT);
  v.reported = 5;
  assert_int_equal(events_choose(&v), EVENTS_WAIT);
  /* a stream behind: redraw 9 is news each time it asks, the report of
   * redraw 7 is due and its update (or a newer one) went: the report */
  events_view behind = {1, 0, 9, 9, 7, 3, 8};
  assert_int_equal(events_choose(&behind), EVENTS_REPORT);
  behind.reported = 7;
  assert_int_equal(events_choose(&behind), EVENTS_UPDATE);
  /* a stream behind that skipped the report's own update: the newest
   * update (as new as the report's redraw) goes, then the report, before
   * the next newer update */
  events_view skipped = {1, 0, 7, 7, 5, 3, 3};
  assert_int_equal(events_choose(&skipped), EVENTS_UPDATE);
  skipped.pictured = 7, skipped.news_picture = 8, skipped.cleared = 8;
  assert_int_equal(events_choose(&skipped), EVENTS_REPORT);
  skipped.reported = 5;
  assert_int_equal(events_choose(&skipped), EVENTS_UPDATE);
  /* a stream followed again with ?shown=3 (reported 3): the update of the
   * newest redraw first, then the report newer than what the page shows */
  events_view again = {1, 0, 9, 9, 7, 3, -1};
  assert_int_equal(events_choose(&again), EVENTS_UPDATE);
  again.news = 0, again.pictured = 9;
  assert_int_equal(events_choose(&again), EVENTS_REPORT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(status_alone),    cmocka_unit_test(status_with_update),
      cmocka_unit_test(status_with_key), cmocka_unit_test(status_with_first),
      cmocka_unit_test(big_update),      cmocka_unit_test(next_event),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
