/* selection.h -- one profile cut to its window, its bands chosen and
 * published to the run's outputs (selection.c): the shared tail of
 * one-shot and watch runs.
 */
#ifndef HPX_TOOL_SELECTION_H
#define HPX_TOOL_SELECTION_H

#include "run.h"

/* Cuts an already-parsed profile to its window (--from, --to, their
 * markers: view_pick.c) when an output draws one, selects its bands and
 * publishes them once to r's outputs (the files: files.c; the server).
 * `disposable` is p itself when the caller needs nothing more of it, or
 * NULL: the entries of a disposable profile (or of a view) are dropped once
 * the bands are chosen and the outputs that copy have copied, so drawing
 * does not hold a big profile's memory on top of its own.  `follow` (watch
 * mode), when not NULL, selects the bands for a p that grows between calls,
 * at the cost of its new samples (not with a view: that is made afresh each
 * time).  Returns an exit status. */
int selection_view_and_write(const tool_run *r, const hp2x_profile *p,
                             hp2x_profile *disposable, hp2x_follower *follow);

#endif
