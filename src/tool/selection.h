/* selection.h -- one profile cut to its window, its bands chosen and its
 * outputs written (selection.c): the shared tail of one-shot and watch runs.
 */
#ifndef HPX_TOOL_SELECTION_H
#define HPX_TOOL_SELECTION_H

#include "tool.h"

/* Cuts an already-parsed profile to its window (--from, --to, their
 * markers: view_pick.c), selects its bands and writes once: the output
 * a->output (a picture, a table, a conversion, or one census of p: the
 * peak, --at's or under --watch the last, in the window) and, as hp2ps does
 * beside a picture, a->aux_path when a->write_aux, as one set.  `disposable` is
 * p itself when the caller needs nothing more of it, or NULL: the entries of a
 * disposable profile (or of a view) are dropped once the bands are chosen, so
 * drawing does not hold a big profile's memory on top of its own.  `follow`
 * (watch mode), when not NULL, selects the bands for a p that grows between
 * calls, at the cost of its new samples (not with a view: that is made afresh
 * each time).  Returns an exit status. */
int selection_view_and_write(const tool_args *a, const hp2x_profile *p,
                             hp2x_profile *disposable, hp2x_follower *follow);

#endif
