/* program.h -- which of the two hp2x programs this is, one file linked in
 * each: program_full.c in the full one (hp2x-full, and the single hp2x of
 * a portable build), which draws and serves; program_lean.c in the lean
 * hp2x, which links neither cairo, pango nor libmicrohttpd (the Makefile's
 * LEAN link) and hands the runs that need them to the full one.
 */
#ifndef HPX_TOOL_PROGRAM_H
#define HPX_TOOL_PROGRAM_H

#include "cli/args.h"
#include "io/outputs.h"

/* What this program does with a run of the settled command line a:
 * RUN_GOES_ON to run it here, else, having said why, an exit status (the
 * lean program runs the full one in its place with argv, the arguments as
 * main received them, and returns only when it cannot). */
int run_handoff(const tool_args *a, char **argv);

/* Starts --serve's server as the run's output *out (serve/serve.h);
 * returns an exit status, reported. */
int run_serve_start(const tool_args *a, tool_output **out);

#endif
