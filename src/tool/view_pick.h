/* view_pick.h -- the part of a profile that is drawn (view_pick.c):
 * --from/--to, --from-marker/--to-marker and --x=index.
 */
#ifndef HPX_TOOL_VIEW_PICK_H
#define HPX_TOOL_VIEW_PICK_H

#include "tool.h"

/* The profile to select and draw from: `p` itself (*view = NULL) or, with
 * a time window or --x=index, a view of it (*view, owned by the caller).
 * Returns an exit status: a marker not found or an empty window is bad
 * input (messages name `display`). */
int view_pick(const tool_args *a, const char *display,
                const hp2x_profile *p, hp2x_profile **view);

#endif
