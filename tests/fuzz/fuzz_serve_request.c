/* fuzz_serve_request.c -- libFuzzer target for --serve's own request
 * handling (src/tool/serve/request.c): the input is up to four fields
 * separated by '\n' (method, request target with any query string, Host,
 * a --serve address), each any bytes.  Checks the answer's invariants: a
 * status among those the server gives, a route only with 200, a picture
 * route only for a picture format, 403 only for a Host that is not a
 * loopback name, and a parsed address whose port fits.
 */
#include "serve/request.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)       \
  do {                 \
    if (!(c)) abort(); \
  } while (0)

/* Field i of data (NUL-terminated copies in buf; NULL for a missing one). */
static char *field(const uint8_t *data, size_t size, int i, char *buf) {
  size_t start = 0;
  for (int k = 0; k < i; k++) {
    const uint8_t *nl = memchr(data + start, '\n', size - start);
    if (!nl) return NULL;
    start = (size_t)(nl - data) + 1;
  }
  const uint8_t *nl = memchr(data + start, '\n', size - start);
  size_t end = nl ? (size_t)(nl - data) : size;
  memcpy(buf, data + start, end - start);
  buf[end - start] = '\0';
  return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *bufs = malloc(4 * (size + 1));
  if (!bufs) return 0;
  char *method = field(data, size, 0, bufs),
       *target = field(data, size, 1, bufs + (size + 1)),
       *host = field(data, size, 2, bufs + 2 * (size + 1)),
       *addr = field(data, size, 3, bufs + 3 * (size + 1));
  for (int loopback = 0; loopback < 2; loopback++) {
    serve_answer a = serve_route_request(method, target, host, loopback);
    CHECK(a.status == 200 || a.status == 403 || a.status == 404 ||
          a.status == 405 || a.status == 414);
    CHECK((a.status == 200) == (a.route != SERVE_ROUTE_NONE));
    CHECK((a.status == 200) == (a.reason == NULL));
    if (a.route == SERVE_ROUTE_PICTURE) CHECK(hp2x_format_is_picture(a.format));
    if (a.status == 403)
      CHECK(loopback && host && !serve_host_is_loopback(host));
    if (a.route != SERVE_ROUTE_NONE && target) CHECK(target[0] == '/');
  }
  if (addr) {
    serve_address ad;
    char why[300];
    if (serve_parse_address(addr, &ad, why, sizeof why) == 0)
      CHECK(ad.port <= 65535 && ad.host[0] != '\0');
    else
      CHECK(why[0] != '\0');
  }
  free(bufs);
  return 0;
}
