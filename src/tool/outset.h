/* outset.h -- writing a set of outputs all or nothing (outset.c).
 */
#ifndef HP2X_TOOL_OUTSET_H
#define HP2X_TOOL_OUTSET_H

#include <stddef.h>

#include "hp2x.h"

/* The most files one set holds: a picture and its .aux. */
#define OUTSET_MAX_FILES 2

/* Produces output number `which` of a set through `write`. */
typedef hp2x_status (*outset_fill_fn)(void *ctx, size_t which,
                                      hp2x_write_fn write, void *closure,
                                      hp2x_err *err);

/* Writes paths[0..n) (n <= OUTSET_MAX_FILES; output i by fill(ctx, i, ...))
 * as one set: each to a temporary file beside it, and only when all are
 * written are they renamed into place, so a failure leaves none of them
 * (a picture and its .aux).  "-" is standard output.  Reports a failure
 * naming its path; returns an exit status: EXIT_BAD_INPUT, or EXIT_USAGE
 * for HP2X_E_ARG when arg_is_usage (options the drawing cannot honour). */
int outset_write(const char *const *paths, size_t n, outset_fill_fn fill,
                 void *ctx, int arg_is_usage);

/* Installs the handlers that remove the temporary files of a set being
 * written on SIGINT, SIGTERM and SIGHUP (then dies of the signal). */
void outset_catch_signals(void);

#endif
