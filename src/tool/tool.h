/* tool.h -- what every file of the hp2x tool shares: its exit statuses and
 * the settled command line (tool_args).  Data only, no functions: each
 * module's functions are declared in its own header.  The tool is not part
 * of libhp2x: of the library's headers it includes only the public one
 * (hp2x.h), so that it links against libhp2x.so as well as libhp2x.a.  The
 * test build (BUILD/hp2x-faults) is this tool with a main of its own,
 * tests/hooks/faults_main.c.
 */
#ifndef HPX_TOOL_H
#define HPX_TOOL_H

#include "hp2x.h"

/* Exit statuses (man page, EXIT STATUS). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

/* No exit status: returned where one could be, when the run goes on (a
 * watch's turn, a command line that asks for a run).  Below every exit
 * status, so `rc < 0` tests it too. */
enum { RUN_GOES_ON = -1 };

/* A word of the command line and the value it stands for (an option's
 * enum values, the output formats' names). */
typedef struct tool_name {
  const char *name;
  int value;
} tool_name;

typedef struct tool_args {
  const char *input;         /* path, or "-" for standard input */
  const char *input_display; /* name used in messages */
  const char *output;        /* path, "-" for standard output */
  char *input_owned;         /* NAME.hp for a NAME that does not exist;
                                owned; NULL when `input` is argv's */
  char *output_owned;        /* output built from the input's name; owned */
  char *aux_path;            /* BASE.aux beside the output; owned; NULL in
                                filter mode */
  hp2x_options opts;
  hp2x_parse_options parse;
  int use_aux;          /* -p: read BASE.aux first */
  int write_aux;        /* write BASE.aux after the picture */
  int quiet;            /* --quiet: no warnings, no status line */
  int watch;            /* --watch */
  double interval_s;    /* --interval, watch mode */
  double idle_exit_s;   /* --idle-exit; 0 = never */
  int input_is_service; /* input is unix:PATH or tcp:HOST:PORT
                           (connect.h): read as a stream */
  const char *tee_path; /* --tee: raw bytes received go there;
                           borrowed from argv; NULL = none */
  const char **inputs;  /* every FILE argument, in order; owned array
                           of borrowed argv strings */
  int n_inputs;         /* 0 = standard input */
  int diff;             /* --diff: chart inputs[1] - inputs[0] */
  int format_given;     /* --format or --summary */
  int palette_given;    /* --palette (else -c picks label) */
  int uniform_given;    /* --uniform-scale (else both, several) */
  int layout_given;     /* --layout */
  int chart_given;      /* --chart (refused with --diff) */
  int order_given;      /* --sort, -d or -i: the bands' order is
                           the one asked, not a breakdown's */
  double from_s, to_s;  /* --from, --to: seconds */
  int from_given, to_given;
  const char *from_marker; /* --from-marker, --to-marker: a marker's
                              text; borrowed from argv; NULL = none */
  const char *to_marker;
  int x_index;                 /* --x=index: sample index on the x axis */
  int summary;                 /* --summary */
  const char *program;         /* --program: the executable that wrote the
                                  -hi profile; borrowed from argv; NULL */
  const char *serve_spec;      /* --serve's [ADDR:]PORT; borrowed; NULL =
                                  none */
  struct serve_server *server; /* serve.c's, while serving; NULL none */
  double at_s;                 /* --at: the census nearest this time */
  int at_given;
  int jobs; /* --jobs: threads reading the input; 0 =
               the cores hp2x may use (settled into
               parse.threads) */
} tool_args;

#endif
