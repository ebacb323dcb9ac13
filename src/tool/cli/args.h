/* args.h -- the settled command line (tool_args): what was asked, read
 * from argv and the environment by cli_parse (cli.h) and read-only from
 * then on: the runs take it const.  What a run derives and holds -- the
 * files' names, the .aux data, its outputs -- is the run's (run/run.h).
 * Only cli/ and run/ know this struct: the folders below them are given
 * the values they need.  Data only, no functions.
 */
#ifndef HPX_TOOL_ARGS_H
#define HPX_TOOL_ARGS_H

#include "hp2x.h"
#include "io/connect.h"
#include "serve/request.h"

/* A word of the command line and the value it stands for (an option's
 * enum values, the output formats' names). */
typedef struct tool_name {
  const char *name;
  int value;
} tool_name;

/* The part of a profile drawn, and the census a format of one census
 * writes (run/view_pick.c). */
typedef struct tool_view {
  double from_s, to_s; /* --from, --to: seconds */
  int from_given, to_given;
  const char *from_marker; /* --from-marker, --to-marker: a marker's
                              text; borrowed from argv; NULL = none */
  const char *to_marker;
  int x_index; /* --x=index: sample index on the x axis */
  double at_s; /* --at: the census nearest this time */
  int at_given;
} tool_view;

/* --watch and what goes with it. */
typedef struct tool_watch {
  int on;               /* --watch */
  double interval_s;    /* --interval */
  double idle_exit_s;   /* --idle-exit; 0 = never */
  const char *tee_path; /* --tee: raw bytes received go there;
                           borrowed from argv; NULL = none */
} tool_watch;

/* The options given, whose defaults otherwise follow from others
 * (cli/settle.c). */
typedef struct tool_given {
  int format;  /* --format or --summary */
  int palette; /* --palette (else -c picks label) */
  int uniform; /* --uniform-scale (else both, several) */
  int layout;  /* --layout */
  int chart;   /* --chart (refused with --diff) */
  int order;   /* --sort, -d or -i: the bands' order is the one asked,
                  not a breakdown's */
} tool_given;

typedef struct tool_args {
  const char **inputs; /* every FILE argument, in order; owned array
                          of borrowed argv strings */
  int n_inputs;        /* 0 = standard input */
  const char *input;   /* the first, as given; "-" for standard input */
  const char *output;  /* -o (or "-" for --summary without it); NULL =
                          not given: the run names it (cli/names.h) */
  hp2x_options opts;
  hp2x_parse_options parse;
  int use_aux;             /* -p: read BASE.aux first */
  int quiet;               /* --quiet: no warnings, no status line */
  int diff;                /* --diff: chart inputs[1] - inputs[0] */
  int summary;             /* --summary */
  const char *program;     /* --program: the executable that wrote the
                              -hi profile; borrowed from argv; NULL */
  connect_address service; /* the input when it is a service (unix:PATH,
                              tcp:HOST:PORT), read as a stream; kind
                              CONNECT_NONE for a file or standard input */
  const char *serve_spec;  /* --serve's [ADDR:]PORT as given; borrowed;
                              NULL = none */
  serve_address serve_at;  /* --serve's address, read */
  tool_watch watch;
  tool_view view;
  tool_given given;
  int jobs; /* --jobs: threads reading the input; 0 = the cores hp2x may
               use (settled into parse.threads and opts.threads) */
} tool_args;

#endif
