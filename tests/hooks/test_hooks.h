/* test_hooks.h -- what the tests reach in libhp2x beyond hp2x.h: the
 * library's private headers that declare its test hooks.  The allocation
 * hook (base.h's hpx_alloc_fail_at) is in BUILD/libhp2x-hooks.a only; the
 * follower's index queries (bands_int.h's hpx_follow_index_*) let
 * test_follow.c check its answers against brute force.
 */
#ifndef HP2X_TEST_HOOKS_H
#define HP2X_TEST_HOOKS_H

#include "base/base.h"
#include "select/bands_int.h"

#endif
