/* connect.c -- the tool's client side of a service that serves its
 * eventlog on a socket (GHC's eventlog-socket, or a program's own
 * EventLogWriter): the address operands unix:PATH and tcp:HOST:PORT, and
 * the connection (POSIX getaddrinfo, socket, connect).  Reading the bytes
 * is the watch's input source's (source.c), as from a pipe.
 */
#include "connect.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* unix:PATH, the operand whole (its path after "unix:"): 0, or -1 with
 * why. */
static int parse_unix(const char *operand, connect_address *out, char *why,
                      size_t why_size) {
  const char *path = operand + 5;
  struct sockaddr_un sun;
  if (!*path) {
    snprintf(why, why_size,
             "'%s': unix: needs the socket's path "
             "(unix:PATH; a file of that name is ./%s)",
             operand, operand);
    return -1;
  }
  if (strlen(path) >= sizeof sun.sun_path || strlen(path) >= sizeof out->path) {
    snprintf(why, why_size, "'%s': a socket path has at most %zu bytes",
             operand, sizeof sun.sun_path - 1);
    return -1;
  }
  out->kind = CONNECT_UNIX;
  snprintf(out->path, sizeof out->path, "%s", path);
  return 0;
}

int connect_parse(const char *operand, connect_address *out, char *why,
                  size_t why_size) {
  memset(out, 0, sizeof *out);
  if (!strncmp(operand, "unix:", 5))
    return parse_unix(operand, out, why, why_size);
  if (strncmp(operand, "tcp:", 4) != 0) return 0; /* a file */
  const char *h = operand + 4, *colon;
  size_t hlen;
  if (*h == '[') { /* tcp:[::1]:PORT */
    const char *close = strchr(h, ']');
    if (!close || close[1] != ':') {
      snprintf(why, why_size,
               "'%s': an IPv6 address is written "
               "tcp:[ADDR]:PORT",
               operand);
      return -1;
    }
    h++;
    hlen = (size_t)(close - h);
    colon = close + 1;
  } else {
    colon = strrchr(h, ':');
    if (colon && memchr(h, ':', (size_t)(colon - h))) {
      snprintf(why, why_size,
               "'%s': put an IPv6 address in brackets: "
               "tcp:[ADDR]:PORT",
               operand);
      return -1;
    }
    hlen = colon ? (size_t)(colon - h) : 0;
  }
  const char *port = colon ? colon + 1 : "";
  if (!colon || hlen == 0 || !*port) {
    snprintf(why, why_size,
             "'%s': expected tcp:HOST:PORT (a file of that "
             "name is ./%s)",
             operand, operand);
    return -1;
  }
  if (hlen >= sizeof out->host || strlen(port) >= sizeof out->port) {
    snprintf(why, why_size, "'%s': host or port too long", operand);
    return -1;
  }
  out->kind = CONNECT_TCP;
  memcpy(out->host, h, hlen);
  out->host[hlen] = '\0';
  snprintf(out->port, sizeof out->port, "%s", port);
  return 0;
}

/* errno values that mean "nobody listens there yet". */
static int not_there_yet(int e) {
  return e == ENOENT || e == ECONNREFUSED || e == EINTR;
}

static int with_cloexec(int fd) {
  int fl = fcntl(fd, F_GETFD);
  if (fl >= 0) fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
  return fd;
}

static int connect_unix(const connect_address *ad, int *not_up, char *why,
                        size_t why_size) {
  struct sockaddr_un sun;
  memset(&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  memcpy(sun.sun_path, ad->path, strlen(ad->path) + 1);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) {
    snprintf(why, why_size, "cannot make a socket: %s", strerror(errno));
    return -1;
  }
  if (connect(fd, (const struct sockaddr *)&sun, sizeof sun) == 0)
    return with_cloexec(fd);
  int e = errno;
  close(fd);
  *not_up = not_there_yet(e);
  snprintf(why, why_size, "%s", strerror(e));
  return -1;
}

static int connect_tcp(const connect_address *ad, int *not_up, char *why,
                       size_t why_size) {
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int g = getaddrinfo(ad->host, ad->port, &hints, &res);
  if (g != 0) {
    *not_up = g == EAI_AGAIN;
    snprintf(why, why_size, "%s", gai_strerror(g));
    return -1;
  }
  int fd = -1, e = ECONNREFUSED;
  for (struct addrinfo *r = res; r && fd < 0; r = r->ai_next) {
    fd = socket(r->ai_family, r->ai_socktype, r->ai_protocol);
    if (fd < 0) {
      e = errno;
      continue;
    }
    if (connect(fd, r->ai_addr, r->ai_addrlen) != 0) {
      e = errno;
      close(fd);
      fd = -1;
      if (e == EINTR) break;
    }
  }
  freeaddrinfo(res);
  if (fd >= 0) return with_cloexec(fd);
  *not_up = not_there_yet(e);
  snprintf(why, why_size, "%s", strerror(e));
  return -1;
}

int connect_open(const connect_address *ad, int *not_up, char *why,
                 size_t why_size) {
  *not_up = 0;
  if (ad->kind == CONNECT_UNIX) return connect_unix(ad, not_up, why, why_size);
  if (ad->kind == CONNECT_TCP) return connect_tcp(ad, not_up, why, why_size);
  snprintf(why, why_size, "not a service address");
  return -1;
}
