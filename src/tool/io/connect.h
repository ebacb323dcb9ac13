/* connect.h -- services as inputs (connect.c): the operands unix:PATH and
 * tcp:HOST:PORT (tcp:[ADDR]:PORT for IPv6) read, and a client connection
 * made to them.  Nothing here prints.
 */
#ifndef HPX_TOOL_CONNECT_H
#define HPX_TOOL_CONNECT_H

#include <stddef.h>

typedef enum connect_kind {
  CONNECT_NONE, /* not a service address: a file name */
  CONNECT_UNIX, /* unix:PATH */
  CONNECT_TCP   /* tcp:HOST:PORT */
} connect_kind;

typedef struct connect_address {
  connect_kind kind;
  char path[108]; /* CONNECT_UNIX: the socket's path (fits sun_path) */
  char host[256]; /* CONNECT_TCP: a name or an address, without [] */
  char port[32];  /* CONNECT_TCP: a port number or a service name */
} connect_address;

/* Reads `operand` into *out: a service address when it begins "unix:" or
 * "tcp:", else kind CONNECT_NONE (a file; "./unix:x" is one).  Returns 0,
 * or -1 with why (one line) for a malformed address. */
int connect_parse(const char *operand, connect_address *out, char *why,
                  size_t why_size);

/* Connects to the service at *ad (blocking; a signal without SA_RESTART
 * interrupts it).  Returns the connected socket (close-on-exec), or -1
 * with why set and *not_up 1 when the service is not there yet (no socket
 * file, connection refused, the name not resolved for now), 0 when it
 * cannot be reached at all (EINTR: *not_up 1, why "interrupted"). */
int connect_open(const connect_address *ad, int *not_up, char *why,
                 size_t why_size);

#endif
