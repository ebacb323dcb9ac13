/* crew.h -- private to libhp2x: a crew of threads (threads.c) kept for
 * several rounds of tasks, so that a call running many short rounds (the
 * CSV's batches of rows) starts its threads once, not once a round.
 *
 * hpx_crew_start starts up to threads - 1 threads (every signal blocked
 * in them) and returns the crew, or NULL when there is no memory for it
 * (hpx_crew_run then runs each round as hpx_run_tasks does).
 * hpx_crew_run runs fn(ctx, 0) to fn(ctx, n - 1) as hpx_run_tasks does
 * (base.h), task 0 on the calling thread, task i on the crew's thread i
 * (on the caller's when there are fewer), and returns when all are done.
 * hpx_crew_end stops and joins the threads and frees the crew (NULL:
 * nothing); a call that starts a crew ends it before it returns.
 */
#ifndef HPX_CREW_H
#define HPX_CREW_H

#include "base.h"

typedef struct hpx_crew hpx_crew;
hpx_crew *hpx_crew_start(size_t threads);
void hpx_crew_run(hpx_crew *c, size_t n, void (*fn)(void *ctx, size_t task),
                  void *ctx);
void hpx_crew_end(hpx_crew *c);

#endif
