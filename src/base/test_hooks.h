/* test_hooks.h -- hooks for testing libhp2x: included by the unit tests,
 * the fuzzers and the test build of the tool (BUILD/hp2x-faults, for its
 * HP2X_ALLOC_FAIL_AT variable); never by a library user.  Never installed.
 * Also the follower's internals that only tests look at (follow.c):
 * whether its index really draws, and its answers for brute-force checks.
 */
#ifndef HPX_TEST_HOOKS_H
#define HPX_TEST_HOOKS_H

#include "hp2x.h"

/* Makes the nth allocation from now on fail (1 = the next one);
 * 0 turns it off.  Returns how many allocations were made since the last
 * call.  Not thread-safe; for tests and fuzzers only.  Only in a library
 * compiled with -DHPX_TEST_HOOKS (BUILD/libhp2x-hooks.a). */
long hpx_alloc_fail_at(long nth);

/* How many pictures have been drawn from f's index (its band_walk_source
 * opened a walk rather than declining). */
size_t hpx_follow_index_walks(const hp2x_follower *f);

/* The first sample of the smallest and of the largest stacked upper edge of
 * f's band k among samples [lo, hi) (lo < hi <= samples selected), from the
 * index; k == (size_t)-1 is the axis.  f's last selection was a picture's. */
void hpx_follow_index_extremes(const hp2x_follower *f, size_t k, size_t lo,
                               size_t hi, size_t *min_at, size_t *max_at);

#endif
