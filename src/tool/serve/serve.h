/* serve.h -- hp2x --serve: an HTTP server (libmicrohttpd, on threads of
 * its own) that shows what the run draws: the live page, its events,
 * /metrics and the pictures (serve.c answers, snapshot.c holds what is
 * answered, events.c keeps the event streams, guard.c the request
 * deadline).  To the run it is one of its outputs (io/outputs.h): each
 * redraw is published to it; nothing a client does ever waits on the run,
 * nor the run on a client.
 */
#ifndef HPX_TOOL_SERVE_H
#define HPX_TOOL_SERVE_H

#include "request.h"
#include "io/outputs.h"

/* Binds address `at`, starts serving (an empty report until the first
 * publish) and prints "hp2x: serving http://ADDR:PORT/" once; *out is the
 * server as an output of the run, which draws its pictures with options
 * `o` (they, and the strings and regexes they point to, must outlive the
 * server).  When the run is over (output_kind's finish), it serves on
 * until SIGINT, SIGTERM or SIGHUP (none when one ended the run, or the run
 * failed), then stops and frees itself.  Returns an exit status, reported:
 * EXIT_BAD_INPUT when the address cannot be bound (a port in use); *out
 * NULL then. */
int serve_start(const serve_address *at, const hp2x_options *o,
                tool_output **out);

#endif
