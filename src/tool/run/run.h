/* run.h -- the tool's whole run (tool_main, entry.c) and the three ways it
 * runs, each in its own file, of which tool_main picks one.  Each returns
 * an exit status, having reported any failure.
 */
#ifndef HPX_TOOL_RUN_H
#define HPX_TOOL_RUN_H

#include "tool.h"

/* The hp2x command: argv as main receives it; returns the exit status. */
int tool_main(int argc, char **argv);

/* One input, read whole, written once (run_once.c).  Needs a settled by
 * names_settle_one. */
int run_once(tool_args *a);

/* One input followed while it grows, re-rendered as it does (run_watch.c).
 * Needs a settled by names_settle_one. */
int run_watch(tool_args *a);

/* Several inputs, or --diff's two (run_compare.c). */
int run_compare(tool_args *a);

#endif
