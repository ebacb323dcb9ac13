/* handoff.h -- the lean hp2x program's hand-over of a run to the full one
 * (handoff.c), which draws and serves: the same arguments, standard
 * streams and environment, before any input is read.
 */
#ifndef HPX_TOOL_HANDOFF_H
#define HPX_TOOL_HANDOFF_H

/* The full program's file name, installed in HP2X_LIBEXECDIR (the
 * Makefile's PKGLIBEXECDIR) or beside the lean one. */
#ifndef HP2X_FULL_NAME
#define HP2X_FULL_NAME "hp2x-full"
#endif

/* Runs the full program in place of this one, with argv (argv[0]
 * included) as it is: returns only when it cannot, having said why on
 * standard error (`what` names what the run needs it for), with
 * EXIT_BAD_INPUT.  Where it looks, first found wins:
 *   1. beside the running binary (the build tree; a copy of both);
 *   2. HP2X_LIBEXEC_REL from the running binary's directory (an installed
 *      tree, wherever it was moved or unpacked: DESTDIR);
 *   3. HP2X_LIBEXECDIR, the directory it was built for.
 * A place whose file cannot be run is passed over for the next; when
 * none runs, the first such one is named with why.  The running binary's
 * directory is util/environment.c's seam; when it cannot be told, only 3
 * is tried.  The full program gets HP2X_HANDED_OVER=1 in its
 * environment: a lean one handed the run back (an hp2x-full that is a
 * copy of this program) says so and stops. */
int handoff_exec(char **argv, const char *what);

#endif
