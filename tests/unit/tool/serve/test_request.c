/* test_request.c -- the tool's serve/request.c: routes, methods,
 * the Host check (DNS rebinding) and the --serve address. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "serve/request.h"

#include <string.h>
#include <sys/socket.h>

static void routes(void **state) {
  (void)state;
  serve_answer a = serve_route_request("GET", "/", "localhost:8080", 1);
  assert_int_equal(a.status, 200);
  assert_int_equal(a.route, SERVE_ROUTE_PAGE);
  assert_int_equal(serve_route_request("HEAD", "/metrics?x=1", NULL, 1).route,
                   SERVE_ROUTE_METRICS);
  assert_int_equal(serve_route_request("GET", "/events", "[::1]:80", 1).route,
                   SERVE_ROUTE_EVENTS);
  a = serve_route_request("GET", "/picture.png?g=4", "127.0.0.1", 1);
  assert_int_equal(a.route, SERVE_ROUTE_PICTURE);
  assert_int_equal(a.format, HP2X_FORMAT_PNG);
  const char *missing[] = {
      "/picture.csv", "/picture.", "/picture.pngx", "/metrics/",    "//",
      "/index.html",  "metrics",   "/picture.hp",   "/picture.txt", ""};
  for (size_t i = 0; i < sizeof missing / sizeof *missing; i++)
    assert_int_equal(serve_route_request("GET", missing[i], NULL, 1).status,
                     404);
  char longer[SERVE_MAX_TARGET + 2];
  memset(longer, 'a', sizeof longer - 1);
  longer[0] = '/';
  longer[sizeof longer - 1] = '\0';
  assert_int_equal(serve_route_request("GET", longer, NULL, 1).status, 414);
}

static void methods_and_hosts(void **state) {
  (void)state;
  const char *methods[] = {"POST", "PUT", "DELETE", "get", "OPTIONS", ""};
  for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
    assert_int_equal(serve_route_request(methods[i], "/", NULL, 1).status, 405);
  assert_int_equal(serve_route_request(NULL, "/", NULL, 1).status, 405);
  const char *good[] = {"localhost", "LOCALHOST:1",     "localhost.",
                        "127.0.0.1", "127.1.2.3:65535", "[::1]",
                        "[::1]:8080"};
  for (size_t i = 0; i < sizeof good / sizeof *good; i++)
    assert_true(serve_host_is_loopback(good[i]));
  const char *bad[] = {"evil.example", "localhost.evil.example",
                       "128.0.0.1",    "127.0.0.1.evil",
                       "[::2]",        "[::1",
                       "localhost:x",  "localhost:123456",
                       "0x7f.1",       "",
                       "127.0.0.1:",   "[::1]x"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_false(serve_host_is_loopback(bad[i]));
    assert_int_equal(serve_route_request("GET", "/", bad[i], 1).status, 403);
    assert_int_equal(serve_route_request("GET", "/", bad[i], 0).status, 200);
  }
}

static void addresses(void **state) {
  (void)state;
  serve_address ad;
  char why[300];
  assert_int_equal(serve_parse_address("8080", &ad, why, sizeof why), 0);
  assert_string_equal(ad.host, "127.0.0.1");
  assert_int_equal(ad.port, 8080);
  assert_true(ad.loopback);
  assert_int_equal(serve_parse_address("0.0.0.0:0", &ad, why, sizeof why), 0);
  assert_false(ad.loopback);
  assert_int_equal(serve_parse_address("[::1]:9", &ad, why, sizeof why), 0);
  assert_int_equal(ad.family, AF_INET6);
  assert_true(ad.loopback);
  assert_int_equal(serve_parse_address("localhost:1", &ad, why, sizeof why), 0);
  assert_string_equal(ad.host, "127.0.0.1");
  const char *bad[] = {"",      "65536",          "-1",
                       "x",     "example.com:80", "::1:80",
                       "[::1]", "[127.0.0.1]:80", "1.2.3.4:",
                       ":80",   "[::1]:80x",      "127.0.0.1:8080:1"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    why[0] = '\0';
    assert_int_equal(serve_parse_address(bad[i], &ad, why, sizeof why), -1);
    assert_non_null(strstr(why, "invalid --serve"));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(routes),
      cmocka_unit_test(methods_and_hosts),
      cmocka_unit_test(addresses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
