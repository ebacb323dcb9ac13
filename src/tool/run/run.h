/* run.h -- the tool's whole run (tool_main, entry.c), the three ways it
 * runs, each in its own file, of which tool_main picks one, and the state
 * a run of one input holds (tool_run) apart from the command line it was
 * asked with.  Each run returns an exit status, having reported any
 * failure.
 */
#ifndef HPX_TOOL_RUN_H
#define HPX_TOOL_RUN_H

#include "cli/args.h"
#include "cli/names.h"
#include "io/outputs.h"

/* A run of one input: what was asked (read-only), and what the run
 * derives and holds. */
typedef struct tool_run {
  const tool_args *args; /* the settled command line */
  names_one names;       /* the input's name and the outputs' */
  hp2x_options opts;     /* args->opts, with -p's .aux once loaded */
  hp2x_aux *aux;         /* -p's .aux; owned */
  tool_outputs outs;     /* where each redraw goes: the files, the server */
} tool_run;

/* The hp2x command: argv as main receives it; returns the exit status. */
int tool_main(int argc, char **argv);

/* One input, read whole, written once (once.c). */
int run_once(tool_run *r);

/* One input followed while it grows, re-rendered as it does (watch.c). */
int run_watch(tool_run *r);

/* Several inputs, or --diff's two (compare.c). */
int run_compare(const tool_args *a);

#endif
