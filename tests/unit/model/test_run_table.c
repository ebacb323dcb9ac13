/* test_run_table.c -- model/model.c's run table: in a plain profile a
 * census whose labels, in the same order, are those of any earlier census
 * shares that census's run while the table has room; once it is full (a
 * profile whose runs seldom recur: -hT, -hd), runs are neither added nor
 * looked up (a recurring run is stored again), and a census still shares
 * the run of the census before when they are equal.  Values stay per
 * census throughout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/model.h"
#include "model/profile_values.h"

#include <stdio.h>

enum { LABELS = 64, PAIRS = LABELS * (LABELS - 1) };

/* A plain profile with LABELS labels, ids 0 to LABELS - 1. */
static hp2x_profile *new_profile(void) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  for (uint32_t i = 0; i < LABELS; i++) {
    char name[8];
    int n = snprintf(name, sizeof name, "L%u", (unsigned)i);
    uint32_t id;
    assert_int_equal(hpx_profile_intern(p, name, (size_t)n, NULL, 0, &id, &err),
                     HP2X_OK);
    assert_int_equal(id, i);
  }
  return p;
}

/* Adds a census of the labels of ordered pair k (0 to PAIRS - 1: each pair
 * of distinct labels, in each order), valued k + 1 and k + 2. */
static void add_pair(hp2x_profile *p, size_t k) {
  hp2x_err err;
  hp2x_err_init(&err);
  uint32_t a = (uint32_t)(k / (LABELS - 1)), b = (uint32_t)(k % (LABELS - 1));
  if (b >= a) b++;
  hpx_profile_begin_sample(p, (double)p->n_samples);
  assert_int_equal(profile_add_entry(p, a, (int64_t)k + 1, &err), HP2X_OK);
  assert_int_equal(profile_add_entry(p, b, (int64_t)k + 2, &err), HP2X_OK);
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
}

/* The values of census s read back: pair k's. */
static void census_is_pair(const hp2x_profile *p, size_t s, size_t k) {
  uint32_t a = (uint32_t)(k / (LABELS - 1)), b = (uint32_t)(k % (LABELS - 1));
  if (b >= a) b++;
  assert_int_equal(hp2x_profile_value(p, s, a), (int64_t)k + 1);
  assert_int_equal(hp2x_profile_value(p, s, b), (int64_t)k + 2);
}

static void recurring_run_shared(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  add_pair(p, 0);
  add_pair(p, 1);
  add_pair(p, 0);
  assert_false(p->run_slots_full);
  assert_int_equal(p->run_of[2], p->run_of[0]);
  assert_int_equal(p->n_run_ids, 4);
  census_is_pair(p, 2, 0);
  hp2x_profile_free(p);
}

static void full_table_looks_nothing_up(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  for (size_t k = 0; k < PAIRS; k++) add_pair(p, k);
  assert_true(p->run_slots_full);
  size_t held = p->n_run_slots, ids = p->n_run_ids;
  assert_true(held > 0 && held < PAIRS);
  add_pair(p, 0); /* in the table, but the table is no longer looked in */
  assert_int_not_equal(p->run_of[PAIRS], p->run_of[0]);
  assert_int_equal(p->n_run_ids, ids + 2);
  add_pair(p, 0); /* as the census before: shared with it */
  assert_int_equal(p->run_of[PAIRS + 1], p->run_of[PAIRS]);
  assert_int_equal(p->n_run_ids, ids + 2);
  assert_int_equal(p->n_run_slots, held);
  census_is_pair(p, PAIRS, 0);
  census_is_pair(p, PAIRS + 1, 0);
  census_is_pair(p, PAIRS - 1, PAIRS - 1);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(recurring_run_shared),
      cmocka_unit_test(full_table_looks_nothing_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
