/* messages.h -- the lines the tool prints about itself on standard error
 * (messages.c): errors, warnings, usage errors, watch mode's notes and its
 * status line.  --help and --version go to standard output from the
 * option table's folder (cli/help.c); the one other line, --serve's
 * "hp2x: serving URL", is serve.c's own: it prints and flushes it once the
 * server listens.
 */
#ifndef HPX_TOOL_MESSAGES_H
#define HPX_TOOL_MESSAGES_H

#include "hp2x.h"

#if defined(__GNUC__)
#define MSG_PRINTF(i) __attribute__((format(printf, i, i + 1)))
#else
#define MSG_PRINTF(i)
#endif

/* "hp2x: FILE:LINE: msg" or "hp2x: FILE: byte N: msg" (FILE NULL:
 * "<stdin>"), from a library error; `what` is NULL for errors, "warning"
 * for warnings. */
void msg_report(const char *file, const hp2x_err *err, const char *what);

/* The exit status a library failure stands for: EXIT_USAGE for
 * HP2X_E_ARG (options the library cannot honour), else EXIT_BAD_INPUT. */
int msg_exit_status(hp2x_status st);

/* "hp2x: " and the formatted line. */
void msg_errorf(const char *fmt, ...) MSG_PRINTF(1);

/* Watch mode's status line on a terminal, drawn over itself:
 * msg_status_show draws "hp2x: " and the formatted text in place of the
 * line before (a note, msg_note, takes its place the same way);
 * msg_status_end ends it, so that what follows starts a line. */
void msg_status_show(const char *fmt, ...) MSG_PRINTF(1);
void msg_status_end(void);

/* Watch mode's notes about the run: each on a line of its own, in place
 * of the status line when there is one; none with --quiet. */
typedef struct msg_notes {
  int quiet;       /* --quiet: no notes */
  int status_line; /* a status line is drawn (stderr is a terminal) */
} msg_notes;
/* "hp2x: " and the formatted note (at most 511 bytes of it). */
void msg_note(const msg_notes *n, const char *fmt, ...) MSG_PRINTF(2);

/* A usage error: "hp2x: " and the formatted line, then the --help hint.
 * Returns EXIT_USAGE, for `return msg_usagef(...)`. */
int msg_usagef(const char *fmt, ...) MSG_PRINTF(1);

#endif
