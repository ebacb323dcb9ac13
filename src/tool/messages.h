/* messages.h -- the lines the tool prints about itself (messages.c):
 * errors, warnings, usage errors, --help, --version and watch mode's
 * status line.  The one other line, --serve's "hp2x: serving URL", is
 * serve.c's own: it prints and flushes it once the server listens.
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
 * line before; msg_status_clear empties the line, so that a message takes
 * its place; msg_status_end ends it, so that what follows starts a line. */
void msg_status_show(const char *fmt, ...) MSG_PRINTF(1);
void msg_status_clear(void);
void msg_status_end(void);

/* A usage error: "hp2x: " and the formatted line, then the --help hint.
 * Returns EXIT_USAGE, for `return msg_usagef(...)`. */
int msg_usagef(const char *fmt, ...) MSG_PRINTF(1);

/* --help on standard output: the synopsis, one line per option of the
 * option table (cli.c), the notes on hp2ps's flags and exit codes. */
void msg_print_help(void);

/* --version on standard output. */
void msg_print_version(void);

#endif
