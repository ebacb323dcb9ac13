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
  const char **inputs;        /* every FILE argument, in order; owned array
                                 of borrowed argv strings */
  int n_inputs;               /* 0 = standard input */
  int diff;                   /* --diff: chart inputs[1] - inputs[0] */
  int palette_given;          /* --palette (else -c picks label) */
  int uniform_given;          /* --uniform-scale (else both, several) */
  int layout_given;           /* --layout */
  double from_s, to_s;        /* --from, --to: seconds */
  int from_given, to_given;
  const char *from_marker;    /* --from-marker, --to-marker: a marker's
                                 text; borrowed from argv; NULL = none */
  const char *to_marker;
  int x_index;                /* --x=index: sample index on the x axis */
  int summary;                /* --summary */
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

/* Selects and writes once from an already-parsed profile: the shared tail
 * of one-shot and watch runs.  `disposable` is p itself when the caller
 * needs nothing more of it, or NULL: the entries of a disposable profile
 * (or of a view) are dropped once the bands are chosen, so drawing does not
 * hold a big profile's memory on top of its own.  `follow` (watch mode),
 * when not NULL, selects the bands for a p that grows between calls, at
 * the cost of its new samples (not with a view: that is made afresh each
 * time).  Returns an exit status. */
int cli_write_outputs(const cli_args *a, const hp2x_profile *p,
                      hp2x_profile *disposable, hp2x_follower *follow);

/* The profile to select and draw from: `p` itself (*view = NULL) or, with
 * a time window or --x=index, a view of it (*view, owned by the caller).
 * Returns an exit status: a marker not found or an empty window is bad
 * input (messages name `display`). */
int cli_view(const cli_args *a, const char *display, const hp2x_profile *p,
             hp2x_profile **view);

/* Prints the parser's warnings for `p` (once per kind). */
void cli_warn_profile(const cli_args *a, const hp2x_profile *p);

/* Produces output number `which` of a set through `write`. */
typedef hp2x_status (*cli_emit_fn)(void *ctx, int which, hp2x_write_fn write,
                                   void *closure, hp2x_err *err);

/* Writes paths[0..n) (n <= CLI_MAX_OUTPUTS; output i by emit(ctx, i, ...))
 * as one set: each to a temporary file beside it, and only when all are
 * written are they renamed into place, so a failure leaves none of them
 * (a picture and its .aux).  "-" is standard output.  Reports a failure
 * naming its path; returns an exit status: EXIT_BAD_INPUT, or EXIT_USAGE
 * for HP2X_E_ARG when arg_is_usage (options the drawing cannot honour). */
#define CLI_MAX_OUTPUTS 2

/* The largest .aux file -p reads (hp2ps writes a few lines per band). */
#define CLI_MAX_AUX_BYTES (64 << 20)
int cli_write_files(const char *const *paths, size_t n, cli_emit_fn emit,
                    void *ctx, int arg_is_usage);

/* watch.c: re-renders a growing profile; returns an exit status. */
int watch_run(const cli_args *a);

/* cli_compare.c: several inputs (or --diff); returns an exit status. */
int compare_run(cli_args *a);

/* File names, shared by cli.c and cli_compare.c; results are malloc'ed
 * (NULL when out of memory) except cli_format_ext's. */
/* NAME itself when it exists, else NAME.hp when that exists; else NULL
 * (use NAME as given). */
char *cli_resolve_input(const char *name);
/* The input's base name without directory and .hp/.eventlog suffix. */
char *cli_input_stem(const char *input);
/* BASE.aux beside `output` (its name without the extension). */
char *cli_aux_beside(const char *output);
const char *cli_format_ext(hp2x_format f);
int cli_ends_with(const char *s, const char *suffix);
/* -p: parses a->aux_path into *aux (NULL without -p); an exit status. */
int cli_load_aux(const cli_args *a, hp2x_aux **aux);
/* Installs the handlers that remove a temporary file on SIGINT & co. */
void cli_catch_signals(void);

#endif
