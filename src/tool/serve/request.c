/* request.c -- --serve's own request handling, kept pure: the route
 * of a method, target and Host (the HTTP parsing itself is
 * libmicrohttpd's), the loopback names that a server bound to loopback
 * accepts in Host, and the --serve address.
 */
#include "request.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

static int all_digits(const char *s, size_t n) {
  if (n == 0) return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* The n bytes at s as an address of family af, into out. */
static int parse_address(const char *s, size_t n, int af, void *out) {
  char buf[48];
  if (n == 0 || n >= sizeof buf) return 0;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return inet_pton(af, buf, out) == 1;
}

/* "127.a.b.c" with each part 0..255, exactly n bytes. */
static int is_loopback_v4(const char *s, size_t n) {
  struct in_addr a;
  return parse_address(s, n, AF_INET, &a) && (ntohl(a.s_addr) >> 24) == 127;
}

static int is_loopback_v6(const char *s, size_t n) {
  struct in6_addr a;
  return parse_address(s, n, AF_INET6, &a) && IN6_IS_ADDR_LOOPBACK(&a);
}

int serve_host_is_loopback(const char *host) {
  if (!host) return 0;
  size_t len = strlen(host), name_len;
  const char *port;
  if (host[0] == '[') { /* [::1]:PORT */
    const char *close = memchr(host, ']', len);
    if (!close) return 0;
    if (!is_loopback_v6(host + 1, (size_t)(close - host - 1))) return 0;
    port = close + 1;
  } else {
    const char *colon = memchr(host, ':', len);
    name_len = colon ? (size_t)(colon - host) : len;
    int named = (name_len == 9 && !strncasecmp(host, "localhost", 9)) ||
                (name_len == 10 && !strncasecmp(host, "localhost.", 10));
    if (!named && !is_loopback_v4(host, name_len)) return 0;
    port = host + name_len;
  }
  if (*port == '\0') return 1;
  return port[0] == ':' && strlen(port + 1) <= 5 &&
         all_digits(port + 1, strlen(port + 1));
}

/* The route of a path (no query); SERVE_ROUTE_NONE when none. */
static serve_route route_of(const char *path, size_t n, hp2x_format *f) {
  if (n == 1 && path[0] == '/') return SERVE_ROUTE_PAGE;
  if (n == 7 && !memcmp(path, "/events", 7)) return SERVE_ROUTE_EVENTS;
  if (n == 8 && !memcmp(path, "/metrics", 8)) return SERVE_ROUTE_METRICS;
  if (n == 17 && !memcmp(path, "/debug/pprof/heap", 17)) {
    *f = HP2X_FORMAT_PPROF; /* the last census, as a Go service's */
    return SERVE_ROUTE_PICTURE;
  }
  if (n > 9 && n < 9 + 16 && !memcmp(path, "/picture.", 9)) {
    char ext[16];
    memcpy(ext, path + 9, n - 9);
    ext[n - 9] = '\0';
    const hp2x_format_info *row = hp2x_format_named(ext);
    if (row && hp2x_format_is_picture(row->format)) {
      *f = row->format;
      return SERVE_ROUTE_PICTURE;
    }
  }
  return SERVE_ROUTE_NONE;
}

static serve_answer refuse(int status, const char *reason) {
  serve_answer a = {status, SERVE_ROUTE_NONE, HP2X_FORMAT_PS, reason};
  return a;
}

serve_answer serve_route_request(const char *method, const char *target,
                                 const char *host, int loopback_only) {
  if (loopback_only && host && !serve_host_is_loopback(host))
    return refuse(403, "this server answers only to a loopback Host "
                       "(localhost, 127.0.0.1, [::1])");
  if (!method || (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0))
    return refuse(405, "only GET and HEAD");
  if (!target) return refuse(404, "no such page");
  size_t n = strlen(target);
  if (n > SERVE_MAX_TARGET) return refuse(414, "request target too long");
  const char *query = memchr(target, '?', n);
  if (query) n = (size_t)(query - target);
  serve_answer a = {200, SERVE_ROUTE_NONE, HP2X_FORMAT_PS, NULL};
  a.route = route_of(target, n, &a.format);
  if (a.route == SERVE_ROUTE_NONE) return refuse(404, "no such page");
  return a;
}

/* The port of `s` (n bytes) into *port; 0, or -1. */
static int read_port(const char *s, unsigned *port) {
  size_t n = strlen(s);
  if (!all_digits(s, n) || n > 5) return -1;
  unsigned long v = 0;
  for (size_t i = 0; i < n; i++) v = v * 10 + (unsigned long)(s[i] - '0');
  if (v > 65535) return -1;
  *port = (unsigned)v;
  return 0;
}

/* The host part of spec (n bytes; brackets taken off) into *out. */
static int read_host(const char *h, size_t n, int bracketed,
                     serve_address *out) {
  if (n == 0 || n >= sizeof out->host) return -1;
  memcpy(out->host, h, n);
  out->host[n] = '\0';
  if (!bracketed && !strcasecmp(out->host, "localhost"))
    snprintf(out->host, sizeof out->host, "127.0.0.1");
  unsigned char addr[16];
  out->family = bracketed ? AF_INET6 : AF_INET;
  if (inet_pton(out->family, out->host, addr) != 1) return -1;
  out->loopback = bracketed ? is_loopback_v6(out->host, strlen(out->host))
                            : is_loopback_v4(out->host, strlen(out->host));
  return 0;
}

int serve_parse_address(const char *spec, serve_address *out, char *why,
                        size_t why_size) {
  memset(out, 0, sizeof *out);
  const char *colon = strrchr(spec, ':');
  int bad;
  if (!colon) {
    bad = read_host("127.0.0.1", 9, 0, out) || read_port(spec, &out->port);
  } else if (spec[0] == '[') {
    const char *close = strchr(spec, ']');
    bad = !close || close + 1 != colon ||
          read_host(spec + 1, (size_t)(close - spec - 1), 1, out) ||
          read_port(colon + 1, &out->port);
  } else {
    bad = memchr(spec, ':', (size_t)(colon - spec)) != NULL ||
          read_host(spec, (size_t)(colon - spec), 0, out) ||
          read_port(colon + 1, &out->port);
  }
  if (bad)
    snprintf(why, why_size,
             "invalid --serve '%s': PORT, ADDR:PORT or [ADDR]:PORT, ADDR "
             "a numeric address (or localhost), PORT 0 to 65535",
             spec);
  return bad ? -1 : 0;
}
