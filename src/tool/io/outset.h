/* outset.h -- writing a set of outputs all or nothing (outset.c).
 */
#ifndef HPX_TOOL_OUTSET_H
#define HPX_TOOL_OUTSET_H

#include <stddef.h>

#include "hp2x.h"

/* The most files one set holds: a picture and its .aux. */
#define OUTSET_MAX_FILES 2

/* A set's files, in order: the output, then hp2ps's .aux beside a
 * picture. */
typedef enum outset_file { OUTSET_OUTPUT = 0, OUTSET_AUX = 1 } outset_file;

/* Produces output number `which` (an outset_file) of a set through
 * `write`. */
typedef hp2x_status (*outset_fill_fn)(void *ctx, size_t which,
                                      hp2x_write_fn write, void *closure,
                                      hp2x_err *err);

/* Writes paths[0..n) (n <= OUTSET_MAX_FILES; output i by fill(ctx, i, ...))
 * as one set: each to a temporary file beside it, and only when all are
 * written are they renamed into place, so a failure leaves none of them
 * (a picture and its .aux).  "-" is standard output.  Reports a failure
 * naming its path; returns an exit status: EXIT_BAD_INPUT, or EXIT_USAGE
 * for HP2X_E_ARG when `arg` says so (options the drawing cannot honour). */
typedef enum outset_arg_failure {
  OUTSET_ARG_IS_BAD_INPUT, /* HP2X_E_ARG exits EXIT_BAD_INPUT */
  OUTSET_ARG_IS_USAGE      /* HP2X_E_ARG exits EXIT_USAGE */
} outset_arg_failure;
int outset_write(const char *const *paths, size_t n, outset_fill_fn fill,
                 void *ctx, outset_arg_failure arg);

/* What the last outset_write came to. */
typedef enum outset_outcome {
  OUTSET_WRITTEN,       /* every file in place */
  OUTSET_OUTPUT_FAILED, /* a file could not be created, written or renamed
                           (HP2X_E_IO: a missing directory, a full device);
                           the files already there are untouched */
  OUTSET_OTHER_FAILED   /* the drawing failed (out of memory, ...) */
} outset_outcome;
outset_outcome outset_last_outcome(void);

/* From now on, a failure that repeats the last one (same file, same
 * message) is not reported again until a set is written (watch mode). */
void outset_quiet_repeats(void);

/* Installs the handlers that remove the temporary files of a set being
 * written on SIGINT, SIGTERM and SIGHUP (then dies of the signal); a
 * signal ignored at the start (nohup) stays ignored. */
void outset_catch_signals(void);

/* The handler itself, for a watch's second stop signal: removes the
 * temporary files of the set being written, restores the signal's default
 * action and raises it again.  Async-signal-safe; the process dies of
 * `sig` once the handler it runs in returns. */
void outset_die_of_signal(int sig);

#endif
