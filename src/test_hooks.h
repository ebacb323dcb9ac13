/* test_hooks.h -- library internals that only tests look at: whether a
 * follower's index really draws, and its answers checked against brute
 * force.  Defined in follow.c; no other library file includes this. */
#ifndef HP2X_TEST_HOOKS_H
#define HP2X_TEST_HOOKS_H

#include "hp2x_int.h"

/* How many pictures have been drawn from f's index (its band_points_source
 * opened a walk rather than declining). */
size_t follow_index_walks(const hp2x_follower *f);

/* The first sample of the smallest and of the largest stacked upper edge of
 * f's band k among samples [lo, hi) (lo < hi <= samples selected), from the
 * index; k == (size_t)-1 is the axis.  f's last selection was a picture's. */
void follow_index_extremes(const hp2x_follower *f, size_t k, size_t lo,
                           size_t hi, size_t *min_at, size_t *max_at);

#endif
