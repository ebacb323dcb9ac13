/* view_pick.h -- the part of a profile that is drawn (view_pick.c):
 * --from/--to, --from-marker/--to-marker and --x=index; and the census a
 * format of one census writes (--at).
 */
#ifndef HPX_TOOL_VIEW_PICK_H
#define HPX_TOOL_VIEW_PICK_H

#include "cli/args.h"

/* The profile to select and draw from: `p` itself (*view = NULL) or, with
 * a time window or --x=index (v), a view of it (*view, owned by the
 * caller).  Returns an exit status: a marker not found or an empty window
 * is bad input (messages name `display`). */
int view_pick(const tool_view *v, const char *display, const hp2x_profile *p,
              hp2x_profile **view);

/* For a format of one census (pprof; CSV and --summary with --at): the
 * census of p that v asks for, as *c: within the window (--from/--to,
 * their markers), the census nearest --at (c->at_s then that census's
 * own time, which names it in a view of the window too), the last under
 * --watch (`watch`), else the peak.  Checks that p has it: an --at
 * outside the window or the run is a usage error naming the run's range;
 * no census there is bad input.  Returns an exit status. */
int view_pick_census(const tool_view *v, int watch, const char *display,
                     const hp2x_profile *p, hp2x_census_choice *c);

#endif
