/* serve.h -- hp2x --serve: an HTTP server (libmicrohttpd, on threads of
 * its own) that shows what the run draws: the live page, its events,
 * /metrics and the pictures (serve.c answers, serve_snapshot.c holds what
 * is answered, serve_events.c keeps the event streams and the request
 * deadline).  The run publishes after each redraw; nothing a client does
 * ever waits on the run, nor the run on a client.
 */
#ifndef HPX_TOOL_SERVE_H
#define HPX_TOOL_SERVE_H

#include "tool.h"

/* The input's state, for the page's status line and /metrics. */
typedef enum serve_input {
  SERVE_INPUT_WAITING,   /* not open or not connected yet */
  SERVE_INPUT_CONNECTED, /* open, or a service connected */
  SERVE_INPUT_CLOSED     /* ended: the last picture is final */
} serve_input;

/* Binds a->serve_spec's address, starts serving (an empty report until
 * the first publish) and prints "hp2x: serving http://ADDR:PORT/" once.
 * Sets a->server.  Returns an exit status, reported: EXIT_BAD_INPUT when
 * the address cannot be bound (a port in use). */
int serve_start(tool_args *a);

/* What the run just drew: the profile `p` (a window's view, or the
 * parser's growing profile) with bands `b` (NULL: selected afresh when a
 * picture is asked for); `censuses` read so far.  Copies what it needs;
 * p and b may change or go once it returns.  Does nothing for NULL s. */
void serve_publish(struct serve_server *s, const hp2x_profile *p,
                   const hp2x_bands *b, long long censuses);

/* The input's state changed.  Does nothing for NULL s. */
void serve_set_input(struct serve_server *s, serve_input state);

/* After the run: with `serve_on`, serves until SIGINT, SIGTERM or SIGHUP
 * (none when one ended the run), then stops the server and frees it
 * (a->server NULL).  Does nothing without a server. */
void serve_finish(tool_args *a, int serve_on);

#endif
