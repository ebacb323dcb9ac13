/* cli.h -- the command line: argv into a tool_args (args.h), with
 * hp2ps's flags next to GNU long options (cli.c holds the option table,
 * read.c reads the words, settle.c checks and settles the whole line), and
 * what it prints instead of a run (help.c).  Parsing prints nothing:
 * errors come back to the caller as a cli_error.
 */
#ifndef HPX_TOOL_CLI_H
#define HPX_TOOL_CLI_H

#include <stddef.h>

#include "args.h"

/* What the command line asks for. */
typedef enum cli_outcome {
  CLI_RUN,          /* draw or convert: *a is settled */
  CLI_SHOW_HELP,    /* --help (later words are not read) */
  CLI_SHOW_VERSION, /* --version (idem) */
  CLI_FAILED        /* *e says why */
} cli_outcome;

typedef struct cli_error {
  char *message; /* one line, no "hp2x: " prefix, no newline; malloc'ed,
                    freed by cli_free */
  int is_usage;  /* a usage error (exit 2, with the --help hint); else out
                    of memory (exit 1) */
} cli_error;

/* Reads argv into *a (which it initialises; argv's strings are borrowed
 * by it), checks the combination (one --watch input, --diff's two, the
 * time window, the output's format from its name) and applies the
 * defaults that depend on others (-e implies EPS, -c the label palette).
 * Call cli_free(a, e) afterwards whatever the outcome. */
cli_outcome cli_parse(int argc, char **argv, tool_args *a, cli_error *e);

/* Frees what cli_parse allocated in *a and *e. */
void cli_free(tool_args *a, cli_error *e);

/* Row i of --help: the option's spellings in `left` ("-o, --output=FILE")
 * and its description in *help (static).  0 past the last option. */
int cli_help_row(size_t i, char *left, size_t left_size, const char **help);

/* --help on standard output: the synopsis, one line per option of the
 * option table (cli_help_row), the notes on hp2ps's flags and exit codes. */
void cli_print_help(void);

/* --version on standard output. */
void cli_print_version(void);

#endif
