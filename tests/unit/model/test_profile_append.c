/* test_profile_append.c -- model/profile_append.c: a plain profile that
 * takes parts told how much input is left (hpx_part_map_expect) grows its
 * arrays once, at the first part, for all of them: the later parts' samples,
 * entries, label runs and (packed) censuses' bytes go into that room, no
 * array moved nor block added; the profile reads the same, census for
 * census, as one given the same parts without being told, which grows as
 * they come; told too little, it grows again and still reads the same; the room
 * made usable (prefaulted) ends at the entries taken, not a step past them;
 * with each allocation failing in turn, appending fails cleanly or
 * succeeds, never half done.  (read/test_parts appends every part of real
 * inputs against one thread's reading, field by field.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/model.h"
#include "model/profile_append.h"

#define TEST_RNG_SEED 0xa99e4dull
#include "test_rng.h"

#include <string.h>

enum { LABELS = 12, CENSUSES = 64, PARTS = 20, PART_BYTES = 1000 };

static hp2x_profile *new_profile(bool pack) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  p->pack_values = pack;
  return p;
}

/* A part: CENSUSES censuses of 8 to LABELS labels each, in an order that
 * changes now and then (runs shared and not), values drifting. */
static hp2x_profile *new_part(bool pack) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *q = new_profile(pack);
  uint32_t ids[LABELS];
  for (uint32_t i = 0; i < LABELS; i++) {
    char name[8];
    int n = snprintf(name, sizeof name, "L%u", (unsigned)i);
    assert_int_equal(
        hpx_profile_intern(q, name, (size_t)n, NULL, 0, &ids[i], &err),
        HP2X_OK);
  }
  size_t n = LABELS;
  for (size_t c = 0; c < CENSUSES; c++) {
    if (rnd(4) == 0) { /* a new order, or fewer labels */
      for (size_t i = LABELS - 1; i > 0; i--) {
        size_t j = (size_t)rnd((uint32_t)i + 1);
        uint32_t t = ids[i];
        ids[i] = ids[j];
        ids[j] = t;
      }
      n = 8 + (size_t)rnd(LABELS - 7);
    }
    hpx_profile_begin_sample(q, (double)c / 10.0);
    for (size_t i = 0; i < n; i++)
      assert_int_equal(
          profile_add_entry(q, ids[i], (int64_t)(8 * (1 + rnd(100000))), &err),
          HP2X_OK);
    assert_int_equal(hpx_profile_end_sample(q, &err), HP2X_OK);
  }
  return q;
}

static hp2x_status same_id(void *ctx, const hp2x_profile *part, uint32_t local,
                           uint32_t *id, hp2x_err *err) {
  hp2x_profile *p = ctx;
  const hpx_label *l = &part->labels[local];
  return hpx_profile_intern(p, l->name, l->name_len, NULL, 0, id, err);
}

/* Appends part q to p whole, told that `parts` parts of q's size are left
 * from q's first byte on (0: not told). */
static hp2x_status append_part(hp2x_profile *p, const hp2x_profile *q,
                               size_t parts, hp2x_err *err) {
  hpx_part_map m;
  hpx_part_map_init(&m, q, same_id, p);
  if (parts) hpx_part_map_expect(&m, PART_BYTES, parts * PART_BYTES);
  hp2x_status st = hpx_profile_append(p, &m, 0, q->n_samples, err);
  if (st == HP2X_OK) hpx_profile_append_sums(p, &m);
  hpx_part_map_free(&m);
  return st;
}

/* p and r hold the same censuses: times, entries, labels and values. */
static void same_profiles(const hp2x_profile *p, const hp2x_profile *r) {
  assert_int_equal(p->n_samples, r->n_samples);
  assert_int_equal(p->n_labels, r->n_labels);
  for (size_t s = 0; s < p->n_samples; s++) {
    assert_true(p->times[s] == r->times[s]);
    assert_int_equal(p->start[s + 1], r->start[s + 1]);
    hpx_values a, b;
    hpx_values_of(p, s, &a);
    hpx_values_of(r, s, &b);
    for (size_t e = p->start[s]; e < p->start[s + 1]; e++) {
      assert_int_equal(hpx_values_next(&a), hpx_values_next(&b));
      assert_int_equal(profile_entry_label(p, s, e),
                       profile_entry_label(r, s, e));
    }
  }
  for (size_t l = 0; l < p->n_labels; l++)
    assert_int_equal(p->labels[l].sums.total, r->labels[l].sums.total);
}

/* Where p's arrays are and how big: what growing changes. */
typedef struct room {
  const void *times, *start, *run_of, *run_ids, *values, *packed_at;
  size_t cap_samples, cap_run_ids, alloc_entries, n_blocks;
} room;

static room room_of(const hp2x_profile *p) {
  room r = {p->times,       p->start,       p->run_of,
            p->run_ids,     p->value32,     p->packed_at,
            p->cap_samples, p->cap_run_ids, p->alloc_entries - p->value_base,
            p->n_blocks};
  return r;
}

/* PARTS parts appended to p, told (`told` parts left at the first, and
 * fewer as they go) or not; the arrays after the first part's. */
static room append_all(hp2x_profile *p, hp2x_profile *const *parts,
                       size_t told) {
  hp2x_err err;
  hp2x_err_init(&err);
  room first = {0};
  for (size_t k = 0; k < PARTS; k++) {
    size_t left = told > k ? told - k : 1;
    assert_int_equal(append_part(p, parts[k], told ? left : 0, &err), HP2X_OK);
    if (k == 0) first = room_of(p);
  }
  return first;
}

/* PARTS parts taken by a profile told `told` parts at the first and by
 * one not told: the rooms after the first part and at the end. */
typedef struct taken {
  hp2x_profile *parts[PARTS], *told, *not_told;
  room first, later, grown;
} taken;

static void take_parts(taken *t, bool pack, size_t told) {
  for (size_t k = 0; k < PARTS; k++) t->parts[k] = new_part(pack);
  t->told = new_profile(pack);
  t->not_told = new_profile(pack);
  t->first = append_all(t->told, t->parts, told);
  t->later = room_of(t->told);
  t->grown = append_all(t->not_told, t->parts, 0);
  /* not told, the profile grows as the parts come, to the same censuses */
  assert_true(t->grown.cap_samples < PARTS * CENSUSES);
  assert_true(t->not_told->cap_samples >= PARTS * CENSUSES);
  assert_true(t->told->cap_samples >= PARTS * CENSUSES);
  same_profiles(t->told, t->not_told);
}

static void taken_free(taken *t) {
  hp2x_profile_free(t->told);
  hp2x_profile_free(t->not_told);
  for (size_t k = 0; k < PARTS; k++) hp2x_profile_free(t->parts[k]);
}

static void parts_taken(bool pack) {
  taken t;
  take_parts(&t, pack, PARTS);
  const room *first = &t.first, *later = &t.later;
  /* one growth, at the first part: nothing moved or added since */
  assert_true(first->cap_samples >= PARTS * CENSUSES);
  assert_ptr_equal(first->times, later->times);
  assert_ptr_equal(first->start, later->start);
  assert_ptr_equal(first->run_of, later->run_of);
  assert_ptr_equal(first->run_ids, later->run_ids);
  assert_int_equal(first->cap_samples, later->cap_samples);
  assert_int_equal(first->cap_run_ids, later->cap_run_ids);
  if (pack) {
    assert_ptr_equal(first->packed_at, later->packed_at);
    assert_int_equal(first->n_blocks, later->n_blocks);
    assert_int_equal(t.told->n_packed_samples, t.told->n_samples);
  } else {
    assert_ptr_equal(first->values, later->values);
    assert_int_equal(first->alloc_entries, later->alloc_entries);
    assert_true(first->alloc_entries >= t.told->n_entries);
    /* the room made usable (prefaulted) ends at the last entry taken */
    assert_int_equal(t.told->cap_entries, t.told->n_entries);
    assert_int_equal(t.not_told->cap_entries, t.not_told->n_entries);
  }
  taken_free(&t);
}

static void grows_once_unpacked(void **state) {
  (void)state;
  parts_taken(false);
}

static void grows_once_packed(void **state) {
  (void)state;
  parts_taken(true);
}

/* Told a quarter of what comes, the profile grows again later and reads
 * as one not told. */
static void told_too_little(void **state) {
  (void)state;
  for (int pack = 0; pack < 2; pack++) {
    taken t;
    take_parts(&t, pack, PARTS / 4);
    assert_true(t.first.cap_samples >= PARTS / 4 * CENSUSES);
    assert_true(t.first.cap_samples < PARTS * CENSUSES);
    taken_free(&t);
  }
}

/* An append's room is made usable for its entries only, up to the room
 * allocated; a reader's growth a step at a time past the entry it adds. */
static void usable_room(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = new_profile(false);
  assert_int_equal(hpx_profile_allocate_entries(p, (size_t)1 << 20, &err),
                   HP2X_OK);
  size_t alloc = p->alloc_entries;
  assert_true(alloc >= (size_t)1 << 20);
  assert_int_equal(hpx_profile_reserve_entries_exact(p, 1000, &err), HP2X_OK);
  assert_int_equal(p->cap_entries, 1000);
  assert_int_equal(hpx_profile_reserve_entries_exact(p, 10, &err), HP2X_OK);
  assert_int_equal(p->cap_entries, 1000); /* room enough already */
  p->n_entries = 1000; /* as if appended (the values are not read) */
  assert_int_equal(hpx_profile_reserve_entries_exact(p, 3000, &err), HP2X_OK);
  assert_int_equal(p->cap_entries, 4000);
  assert_int_equal(p->alloc_entries, alloc); /* nothing grown */
  p->n_entries = 4000;
  assert_int_equal(hpx_profile_grow_entries(p, &err), HP2X_OK);
  assert_true(p->cap_entries > 4001); /* a step */
  assert_true(p->cap_entries <= alloc);
  /* past the room allocated, the room grows, made usable exactly */
  p->n_entries = p->cap_entries;
  size_t n = alloc - p->n_entries + 5;
  assert_int_equal(hpx_profile_reserve_entries_exact(p, n, &err), HP2X_OK);
  assert_true(p->alloc_entries >= p->n_entries + n);
  assert_int_equal(p->cap_entries, p->n_entries + n);
  p->n_entries = 0;
  hp2x_profile_free(p);
}

/* Each allocation failing in turn (and every one after it): appending
 * three parts, told, ends in HP2X_E_NOMEM or succeeds; a success reads as
 * the parts appended with no failure. */
static void allocation_failures(void **state) {
  (void)state;
  for (int pack = 0; pack < 2; pack++) {
    hp2x_profile *parts[3];
    for (size_t k = 0; k < 3; k++) parts[k] = new_part(pack);
    hp2x_profile *clean = new_profile(pack);
    hp2x_err err;
    hp2x_err_init(&err);
    for (size_t k = 0; k < 3; k++)
      assert_int_equal(append_part(clean, parts[k], 3 - k, &err), HP2X_OK);
    bool succeeded = false;
    for (long nth = 1; !succeeded; nth++) {
      hp2x_profile *p = new_profile(pack);
      hpx_alloc_fail_at(nth);
      hp2x_status st = HP2X_OK;
      for (size_t k = 0; k < 3 && st == HP2X_OK; k++)
        st = append_part(p, parts[k], 3 - k, &err);
      hpx_alloc_fail_at(0);
      if (st == HP2X_OK) {
        same_profiles(p, clean);
        succeeded = true;
      } else {
        assert_int_equal(st, HP2X_E_NOMEM);
      }
      hp2x_profile_free(p);
    }
    hp2x_profile_free(clean);
    for (size_t k = 0; k < 3; k++) hp2x_profile_free(parts[k]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grows_once_unpacked),
      cmocka_unit_test(grows_once_packed),
      cmocka_unit_test(told_too_little),
      cmocka_unit_test(usable_room),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
