/* cli.h -- the tool's private interface between cli.c (arguments, messages,
 * exit codes, one-shot runs), watch.c (watch mode) and main.c.  Not part of
 * libhp2x; only includes the public header.
 */
#ifndef HP2X_CLI_H
#define HP2X_CLI_H

#include "hp2x.h"

/* Exit statuses (man page, EXIT STATUS). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

typedef struct cli_args {
  const char *input;          /* path, or "-" for standard input */
  const char *input_display;  /* name used in messages */
  const char *output;         /* path, "-" for standard output */
  char *output_owned;         /* output built from the input's name; owned */
  char *aux_path;             /* BASE.aux beside the output; owned; NULL in
                                 filter mode */
  hp2x_options opts;
  hp2x_parse_options parse;
  int use_aux;                /* -p: read BASE.aux first */
  int write_aux;              /* write BASE.aux after the picture */
  int quiet;                  /* --quiet: no warnings, no status line */
  int watch;                  /* --watch */
  double interval_s;          /* --interval, watch mode */
  double idle_exit_s;         /* --idle-exit; 0 = never */
} cli_args;

/* Runs the tool; returns the exit status. */
int cli_main(int argc, char **argv);

/* Messages, all through here: "hp2x: FILE:LINE: msg" or
 * "hp2x: FILE: byte N: msg".  `what` is NULL for errors, "warning" else. */
void cli_report(const char *file, const hp2x_err *err, const char *what);
void cli_errorf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Parses, selects and writes once from an already-parsed profile: the
 * shared tail of one-shot and watch runs.  Returns an exit status. */
int cli_write_outputs(const cli_args *a, const hp2x_profile *p);

/* Prints the parser's warnings for `p` (once per kind). */
void cli_warn_profile(const cli_args *a, const hp2x_profile *p);

/* Records the temporary file a signal handler must remove (NULL: none). */
void cli_set_cleanup(const char *temp_path);

/* watch.c: re-renders a growing profile; returns an exit status. */
int watch_run(const cli_args *a);

#endif
