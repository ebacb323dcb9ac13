/* test_hooks.h -- hooks for testing libhp2x: included by the unit tests,
 * the fuzzers and, for its HP2X_ALLOC_FAIL_AT variable (man page,
 * ENVIRONMENT), the tool; never by a library user.  Never installed.
 */
#ifndef HP2X_TEST_HOOKS_H
#define HP2X_TEST_HOOKS_H

#include "hp2x.h"

/* Makes the nth allocation from now on fail (1 = the next one);
 * 0 turns it off.  Returns how many allocations were made since the last
 * call.  Not thread-safe; for tests and fuzzers only. */
long hp2x_alloc_fail_at(long nth);

#endif
