/* options.h -- the command line: argv into a tool_args, with hp2ps's
 * flags next to GNU long options (options.c holds the option table,
 * options_read.c reads the words, options_settle.c checks and settles the
 * whole line).  Parsing prints nothing: errors come back to the caller as
 * an options_error.
 */
#ifndef HPX_TOOL_OPTIONS_H
#define HPX_TOOL_OPTIONS_H

#include <stddef.h>

#include "tool.h"

/* What the command line asks for. */
typedef enum options_outcome {
  OPTIONS_RUN,          /* draw or convert: *a is settled */
  OPTIONS_SHOW_HELP,    /* --help (later words are not read) */
  OPTIONS_SHOW_VERSION, /* --version (idem) */
  OPTIONS_FAILED        /* *e says why */
} options_outcome;

typedef struct options_error {
  char *message;  /* one line, no "hp2x: " prefix, no newline; malloc'ed,
                     freed by options_free */
  int is_usage;   /* a usage error (exit 2, with the --help hint); else out
                     of memory (exit 1) */
} options_error;

/* Reads argv into *a (which it initialises; argv's strings are borrowed
 * by it), checks the combination (one --watch input, --diff's two, the
 * time window, the output's format from its name) and applies the
 * defaults that depend on others (-e implies EPS, -c the label palette).
 * Call options_free(a, e) afterwards whatever the outcome. */
options_outcome options_parse(int argc, char **argv, tool_args *a,
                              options_error *e);

/* Frees what options_parse allocated in *a and *e. */
void options_free(tool_args *a, options_error *e);

/* Row i of --help: the option's spellings in `left` ("-o, --output=FILE")
 * and its description in *help (static).  0 past the last option. */
int options_help_row(size_t i, char *left, size_t left_size,
                     const char **help);

#endif
