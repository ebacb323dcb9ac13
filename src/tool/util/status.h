/* status.h -- the tool's exit statuses (man page, EXIT STATUS) and the one
 * value besides them that a step returns when the run goes on.  Every
 * folder of the tool returns these; data only.
 */
#ifndef HPX_TOOL_UTIL_STATUS_H
#define HPX_TOOL_UTIL_STATUS_H

/* Exit statuses (man page, EXIT STATUS). */
enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2 };

/* No exit status: returned where one could be, when the run goes on (a
 * watch's turn, a command line that asks for a run).  Below every exit
 * status, so `rc < 0` tests it too. */
enum { RUN_GOES_ON = -1 };

#endif
