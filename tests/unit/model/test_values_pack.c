/* test_values_pack.c -- model/values_pack.c: a plain profile's censuses
 * packed as they close (pack_values set, as parser.c sets it for a big
 * input) come back value for value through the census reader and
 * hp2x_profile_value: keys and differences (the same labels in the same
 * order census after census), every length from one byte to eight, values
 * counted in words and not, past 4 GiB, negative and at INT64's ends, a
 * tail widened to 64 bits after censuses were packed, empty censuses, an
 * open census dropped; drifting values take under 2.6 bytes an entry; a
 * profile bounded by a picture, or not asked to pack, packs nothing; a
 * part appended in bulk from a census whose key is not taken reads the
 * same, its bytes copied where they can be (a block's run of censuses at
 * once), and so does one appended where neither packs; a part's profile
 * packs into the room of the one done with before it; censuses too big for a
 * block's room share blocks; dropping the entries frees the packed bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "model/model.h"
#include "model/profile_append.h"

#define TEST_RNG_SEED 0x5eed41ull
#include "test_rng.h"

#include <string.h>

enum { LABELS = 40, MOST = 4096 };

/* What a test added: every complete census's labels and values. */
typedef struct expect {
  size_t n_samples;
  size_t first[MOST + 1]; /* census s's entries: [first[s], first[s+1]) */
  uint32_t label[MOST * 64];
  int64_t value[MOST * 64];
} expect;

static expect ex;

static hp2x_profile *new_profile(void) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  p->pack_values = true; /* as parser.c asks a big input's profile */
  for (int i = 0; i < LABELS; i++) {
    char name[8];
    int n = snprintf(name, sizeof name, "L%d", i);
    uint32_t id;
    assert_int_equal(hpx_profile_intern(p, name, (size_t)n, NULL, 0, &id, &err),
                     HP2X_OK);
    assert_int_equal(id, (uint32_t)i);
  }
  memset(&ex, 0, sizeof ex);
  return p;
}

/* Adds a census of n entries (labels[i], values[i]), kept in ex. */
static void add_census(hp2x_profile *p, const uint32_t *labels,
                       const int64_t *values, size_t n) {
  hp2x_err err;
  hp2x_err_init(&err);
  hpx_profile_begin_sample(p, (double)ex.n_samples);
  size_t e = ex.first[ex.n_samples];
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(profile_add_entry(p, labels[i], values[i], &err), HP2X_OK);
    ex.label[e + i] = labels[i];
    ex.value[e + i] = values[i];
  }
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  ex.n_samples++;
  ex.first[ex.n_samples] = e + n;
}

/* Every census of p reads as ex says, through the reader and through
 * hp2x_profile_value (labels once per census here). */
static void check(const hp2x_profile *p) {
  assert_int_equal(p->n_samples, ex.n_samples);
  for (size_t s = 0; s < p->n_samples; s++) {
    assert_int_equal(p->start[s + 1] - p->start[s],
                     ex.first[s + 1] - ex.first[s]);
    hpx_values r;
    hpx_values_of(p, s, &r);
    for (size_t i = 0; i < ex.first[s + 1] - ex.first[s]; i++) {
      size_t e = ex.first[s] + i;
      int64_t v = hpx_values_next(&r);
      if (v != ex.value[e])
        fail_msg("census %zu entry %zu: %lld, not %lld", s, i, (long long)v,
                 (long long)ex.value[e]);
      assert_int_equal(profile_entry_label(p, s, p->start[s] + i), ex.label[e]);
    }
  }
}

/* Censuses of labels 0..n-1 drifting a little from census to census. */
static void drifting(hp2x_profile *p, size_t censuses, size_t n,
                     int64_t scale) {
  uint32_t labels[LABELS];
  int64_t level[LABELS], values[LABELS];
  for (size_t i = 0; i < n; i++) {
    labels[i] = (uint32_t)i;
    level[i] = (int64_t)(1 + rnd(1000)) * scale;
  }
  for (size_t c = 0; c < censuses; c++) {
    for (size_t i = 0; i < n; i++) {
      level[i] += ((int64_t)rnd(2001) - 1000) * 8;
      if (level[i] < 8) level[i] = 8;
      values[i] = level[i] & ~(int64_t)7;
    }
    add_census(p, labels, values, n);
  }
}

static void keys_and_differences(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  drifting(p, 400, LABELS, 40000);
  check(p);
  assert_int_equal(p->n_packed_samples, 400);
  assert_int_equal(p->value_base, p->n_entries);
  size_t keys = 0;
  for (size_t s = 0; s < p->n_samples; s++)
    keys += (p->packed_at[s][0] >> 1) == 0;
  assert_true(keys >= 400 / 8 && keys < 400 / 4); /* most are differences */
  /* 3-byte values, 2-byte differences and the lengths' 3 bits */
  assert_true(p->packed_bytes < (size_t)(2.6 * (double)p->n_entries));
  assert_int_equal(hp2x_profile_value(p, 7, 3), ex.value[ex.first[7] + 3]);
  hp2x_profile_free(p);
}

/* Values of every byte length, odd (not words) and words, negative, and
 * INT64's ends; the tail widens to 64 bits after packed censuses. */
static void every_length_and_widening(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  uint32_t labels[16];
  int64_t values[16];
  for (int i = 0; i < 16; i++) labels[i] = (uint32_t)i;
  for (int c = 0; c < 24; c++) {
    for (int i = 0; i < 16; i++)
      values[i] = (int64_t)(((uint64_t)1 << (4 * i)) * 8) + c * 8;
    /* 32 bits for the first 12, then words to 2^59 */
    add_census(p, labels, values, c < 12 ? 8 : 15);
    assert_true(p->wide_values == (c >= 12));
  }
  values[0] = INT64_MAX;
  values[1] = INT64_MIN;
  values[2] = -1;
  values[3] = 1; /* odd: no longer words */
  values[4] = (int64_t)5 << 32;
  for (int c = 0; c < 20; c++) {
    values[5] = c % 2 ? INT64_MIN + c : INT64_MAX - c;
    add_census(p, labels, values, 6);
  }
  assert_true(p->wide_values);
  check(p);
  assert_int_equal(p->n_packed_samples, 44);
  hp2x_profile_free(p);
}

/* A value past 4 GiB counts every value in words; censuses packed before
 * and after read the same. */
static void words_past_4gib(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  drifting(p, 30, 10, 8);
  uint32_t labels[10];
  int64_t values[10];
  for (int i = 0; i < 10; i++) {
    labels[i] = (uint32_t)i;
    values[i] = ((int64_t)1 << 33) + i * 8;
  }
  add_census(p, labels, values, 10);
  assert_false(p->wide_values);
  assert_int_equal(p->value_shift, 3);
  drifting(p, 30, 10, 8);
  check(p);
  hp2x_profile_free(p);
}

/* Empty censuses, censuses of other labels or another length between
 * alike ones, a label twice in one census, an open census dropped. */
static void empty_and_changing_censuses(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  hp2x_err err;
  hp2x_err_init(&err);
  uint32_t labels[LABELS];
  int64_t values[LABELS];
  for (size_t c = 0; c < 300; c++) {
    size_t n = rnd(5) == 0 ? 0 : 1 + rnd(rnd(3) == 0 ? LABELS : 4);
    for (size_t i = 0; i < n; i++) {
      labels[i] = rnd(3) ? (uint32_t)i : rnd(LABELS);
      values[i] = (int64_t)rnd(1u << rnd(31)) * (rnd(4) ? 8 : 1);
    }
    add_census(p, labels, values, n);
    if (c % 50 == 7) { /* a census cut short: dropped */
      hpx_profile_begin_sample(p, 1e9);
      assert_int_equal(profile_add_entry(p, 1, 12345, &err), HP2X_OK);
      hpx_profile_abort_sample(p);
    }
  }
  check(p);
  assert_int_equal(p->n_packed_samples, 300);
  hp2x_profile_free(p);
}

/* A profile bounded by a picture (it thins its censuses), or not asked to
 * pack (an input under HPX_PACK_FROM_BYTES), packs nothing. */
static void packs_nothing(void **state) {
  (void)state;
  for (int bounded = 0; bounded < 2; bounded++) {
    hp2x_profile *p = new_profile();
    if (bounded)
      hpx_profile_bound_set(p, 100);
    else
      p->pack_values = false;
    drifting(p, 50, 8, 100);
    assert_int_equal(p->n_packed_samples, 0);
    assert_int_equal(p->value_base, 0);
    assert_int_equal(p->packed_bytes, 0);
    check(p);
    hp2x_profile_free(p);
  }
}

static hp2x_status same_id(void *ctx, const hp2x_profile *part, uint32_t local,
                           uint32_t *id, hp2x_err *err) {
  hp2x_profile *p = ctx;
  const hpx_label *l = &part->labels[local];
  return hpx_profile_intern(p, l->name, l->name_len, NULL, 0, id, err);
}

/* p's censuses read as the part q's from census `from` on, value for
 * value and label for label. */
static void same_as_part(const hp2x_profile *p, const hp2x_profile *q,
                         size_t from) {
  assert_int_equal(p->n_samples, q->n_samples - from);
  for (size_t s = 0; s < p->n_samples; s++) {
    hpx_values a, b;
    hpx_values_of(p, s, &a);
    hpx_values_of(q, s + from, &b);
    size_t q0 = q->start[s + from];
    assert_int_equal(p->start[s + 1] - p->start[s],
                     q->start[s + from + 1] - q0);
    for (size_t e = p->start[s]; e < p->start[s + 1]; e++) {
      assert_int_equal(hpx_values_next(&a), hpx_values_next(&b));
      assert_int_equal(
          profile_entry_label(p, s, e),
          profile_entry_label(q, s + from, q0 + (e - p->start[s])));
    }
  }
}

/* q: 100 drifting censuses; p: q's censuses from 13 on appended in bulk,
 * both packing or neither. */
static void appended_from_13(bool pack, hp2x_profile **p, hp2x_profile **q) {
  *q = new_profile();
  (*q)->pack_values = pack;
  drifting(*q, 100, 20, 3000);
  *p = new_profile(); /* ex now p's: empty */
  (*p)->pack_values = pack;
  hp2x_err err;
  hp2x_err_init(&err);
  hpx_part_map m;
  hpx_part_map_init(&m, *q, same_id, *p);
  assert_int_equal(hpx_profile_append(*p, &m, 13, 100, &err), HP2X_OK);
  hpx_part_map_free(&m);
  same_as_part(*p, *q, 13);
}

/* A part appended in bulk from census 13 (whose key is census 8): the
 * censuses before the first key taken are packed again, those after
 * copied; p reads as the part from there. */
static void part_appended(void **state) {
  (void)state;
  hp2x_profile *p, *q;
  appended_from_13(true, &p, &q);
  assert_int_equal(p->n_packed_samples, 87);
  /* bytes copied: p's bytes are q's from its first key on, bar a few */
  size_t from_key = 0;
  for (size_t s = 13; s < 100; s++)
    if ((q->packed_at[s][0] >> 1) == 0 && !from_key) from_key = s;
  assert_true(from_key > 13 && from_key <= 20);
  assert_int_equal(p->packed_at[0][0] >> 1, 0); /* packed again: a key */
  for (size_t s = from_key; s < 100; s++)       /* copied */
    assert_int_equal(memcmp(p->packed_at[s - 13], q->packed_at[s], 4), 0);
  hp2x_profile_free(p);
  hp2x_profile_free(q);
}

/* The copied censuses after the first key taken come in runs, each a
 * block's censuses that follow one another copied at once: laid out in p
 * as in q, byte for byte, the one after another. */
static void part_copied_in_runs(void **state) {
  (void)state;
  hp2x_profile *p, *q;
  appended_from_13(true, &p, &q);
  size_t s = 13;
  while ((q->packed_at[s][0] >> 1) != 0) s++; /* the first key taken */
  for (; s + 1 < 100; s++) {
    size_t len = (size_t)(q->packed_at[s + 1] - q->packed_at[s]);
    assert_ptr_equal(p->packed_at[s + 1 - 13], p->packed_at[s - 13] + len);
    assert_int_equal(memcmp(p->packed_at[s - 13], q->packed_at[s], len), 0);
  }
  hp2x_profile_free(p);
  hp2x_profile_free(q);
}

/* A profile for a part packs into the last block of the one done with
 * when it is as big as asked, with its censuses' places' room; else into
 * a fresh block of the size asked, untouched; and reads as it should. */
static void room_kept_from_spare(void **state) {
  (void)state;
  hp2x_profile *old = new_profile();
  drifting(old, 20, 10, 100);
  uint8_t *last = old->blocks[old->n_blocks - 1];
  const uint8_t **places = old->packed_at;
  hp2x_profile *p = new_profile();
  hpx_values_keep_room(p, old, 1000); /* a block at least */
  hp2x_profile_free(old);
  assert_int_equal(p->n_blocks, 1);
  assert_ptr_equal(p->blocks[0], last);
  assert_ptr_equal(p->fill, last);
  assert_int_equal(p->fill_left, (size_t)1 << 18);
  assert_ptr_equal(p->packed_at, places);
  drifting(p, 30, 10, 100);
  check(p);
  assert_int_equal(p->n_blocks, 1);
  hp2x_profile *r = new_profile();
  hpx_values_keep_room(r, p, (size_t)1 << 20); /* more than p's block */
  assert_int_equal(r->n_blocks, 1);
  assert_true(r->blocks[0] != p->blocks[0]);
  assert_int_equal(r->fill_left, (size_t)1 << 20);
  hp2x_profile_free(p);
  drifting(r, 30, 10, 100);
  check(r);
  hp2x_profile_free(r);
}

/* Neither packs: the part's censuses from 13 on are appended at once
 * and read back as the part's, value for value and label for label. */
static void part_appended_unpacked(void **state) {
  (void)state;
  hp2x_profile *p, *q;
  appended_from_13(false, &p, &q);
  assert_int_equal(p->n_packed_samples, 0);
  assert_int_equal(p->value_base, 0);
  hp2x_profile_free(p);
  hp2x_profile_free(q);
}

/* Censuses of 30,000 entries, whose most (9 bytes a value) passes a
 * block: encoded aside and copied at their length, they share blocks
 * instead of taking one each. */
static void big_censuses_share_blocks(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  enum { N = 30000 };
  static uint32_t labels[N];
  static int64_t values[N];
  for (size_t i = 0; i < N; i++) labels[i] = (uint32_t)(i % LABELS);
  for (int c = 0; c < 8; c++) {
    for (size_t i = 0; i < N; i++)
      values[i] = (int64_t)(8 * (i * 37 % 5000 + rnd(50) + (size_t)c));
    add_census(p, labels, values, N);
  }
  check(p);
  assert_int_equal(p->n_packed_samples, 8);
  assert_true(p->n_blocks <= p->packed_bytes / ((size_t)1 << 18) + 2);
  hp2x_profile_free(p);
}

static void drop_frees_packed(void **state) {
  (void)state;
  hp2x_profile *p = new_profile();
  drifting(p, 20, 10, 100);
  assert_true(p->packed_bytes > 0);
  hp2x_profile_drop_entries(p);
  assert_int_equal(p->packed_bytes, 0);
  assert_int_equal(p->n_packed_samples, 0);
  assert_null(p->blocks);
  assert_int_equal(hp2x_profile_value(p, 3, 1), 0);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(keys_and_differences),
      cmocka_unit_test(every_length_and_widening),
      cmocka_unit_test(words_past_4gib),
      cmocka_unit_test(empty_and_changing_censuses),
      cmocka_unit_test(packs_nothing),
      cmocka_unit_test(part_appended),
      cmocka_unit_test(part_copied_in_runs),
      cmocka_unit_test(room_kept_from_spare),
      cmocka_unit_test(part_appended_unpacked),
      cmocka_unit_test(big_censuses_share_blocks),
      cmocka_unit_test(drop_frees_packed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
