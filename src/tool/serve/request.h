/* request.h -- what --serve answers a request, decided from its
 * method, target and Host alone (request.c): no I/O, no state, so
 * that a fuzzer drives it (tests/fuzz/fuzz_serve_request.c); and the
 * --serve address read.
 */
#ifndef HPX_TOOL_SERVE_REQUEST_H
#define HPX_TOOL_SERVE_REQUEST_H

#include <stddef.h>

#include "hp2x.h"

typedef enum serve_route {
  SERVE_ROUTE_NONE,    /* an error status */
  SERVE_ROUTE_PAGE,    /* "/": the live report page */
  SERVE_ROUTE_EVENTS,  /* "/events": Server-Sent Events */
  SERVE_ROUTE_METRICS, /* "/metrics": Prometheus text */
  SERVE_ROUTE_PICTURE  /* "/picture.EXT": the picture in format EXT;
                          "/debug/pprof/heap": the last census as pprof */
} serve_route;

typedef struct serve_answer {
  int status; /* 200, or 403, 404, 405, 414 */
  serve_route route;
  hp2x_format format; /* SERVE_ROUTE_PICTURE's */
  const char *reason; /* the error's one line, static; NULL for 200 */
} serve_answer;

/* The longest request target served (longer: 414). */
#define SERVE_MAX_TARGET 1024

/* The answer to `method` `target` (a path, maybe with "?query", which is
 * ignored) with Host header `host` (NULL: none, as HTTP/1.0 may send):
 * when `loopback_only`, a Host that is not a loopback name (localhost,
 * 127.x.y.z, [::1], each maybe with ":PORT") is refused with 403 (DNS
 * rebinding); then any method but GET and HEAD is 405, and a path that is
 * none of the routes 404.  Never reads past a NUL; any bytes are input. */
serve_answer serve_route_request(const char *method, const char *target,
                                 const char *host, int loopback_only);

/* Whether a Host header value names the loopback interface. */
int serve_host_is_loopback(const char *host);

/* A --serve address: "PORT" (127.0.0.1), "ADDR:PORT" (an IPv4 address or
 * localhost) or "[ADDR]:PORT" (IPv6); PORT 0..65535 (0: any free one). */
typedef struct serve_address {
  int family;    /* AF_INET or AF_INET6 */
  char host[64]; /* numeric, without brackets */
  unsigned port;
  int loopback; /* 127.0.0.0/8 or ::1 */
} serve_address;

/* Reads `spec` into *out; returns 0, or -1 with why (one line). */
int serve_parse_address(const char *spec, serve_address *out, char *why,
                        size_t why_size);

#endif
