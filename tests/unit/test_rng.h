/* test_rng.h -- the unit tests' deterministic numbers: xorshift64 from
 * TEST_RNG_SEED (defined before including), one state per test program. */
#ifndef HPX_TEST_RNG_H
#define HPX_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state = TEST_RNG_SEED;

/* A number in [0, n). */
static inline uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % n);
}

#endif
