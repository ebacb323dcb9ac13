/* profile_same.h -- shared by the tests of reading on several threads
 * (tests/unit/read/test_parts.c, test_parts_file.c,
 * tests/fuzz/fuzz_threads.c): are two profiles the same field by field,
 * storage included?  The includer defines SAME_CHECK(condition), its way
 * of failing. */
#ifndef HPX_PROFILE_SAME_H
#define HPX_PROFILE_SAME_H

#include "model/model.h"

#include <string.h>

#ifndef SAME_CHECK
#error "define SAME_CHECK(condition) before including profile_same.h"
#endif

static inline void same_text(const char *a, size_t na, const char *b,
                             size_t nb) {
  SAME_CHECK(na == nb && (na == 0 || memcmp(a, b, na) == 0));
}

static inline void same_label(const hpx_label *a, const hpx_label *b) {
  same_text(a->name, a->name_len, b->name, b->name_len);
  SAME_CHECK((a->key != NULL) == (b->key != NULL));
  if (a->key) same_text(a->key, a->key_len, b->key, b->key_len);
  SAME_CHECK(a->kind == b->kind && a->hash == b->hash);
  SAME_CHECK((a->text.detail != NULL) == (b->text.detail != NULL));
  if (a->text.detail)
    same_text(a->text.detail, a->text.detail_len, b->text.detail,
              b->text.detail_len);
  SAME_CHECK(a->text.keep_head == b->text.keep_head &&
             a->text.keep_tail == b->text.keep_tail);
  SAME_CHECK(a->sums.total == b->sums.total &&
             a->sums.entries == b->sums.entries);
  SAME_CHECK(a->sums.sum == b->sums.sum && a->sums.sum_sq == b->sums.sum_sq &&
             a->sums.area == b->sums.area);
}

static inline void same_series(const hpx_series *a, const hpx_series *b) {
  SAME_CHECK(a->n == b->n);
  for (size_t i = 0; i < a->n; i++)
    SAME_CHECK(a->time_s[i] == b->time_s[i] && a->bytes[i] == b->bytes[i]);
}

static inline void same_samples(const hp2x_profile *a, const hp2x_profile *b) {
  SAME_CHECK(a->n_samples == b->n_samples && a->n_committed == b->n_committed &&
             a->n_entries == b->n_entries && a->n_run_ids == b->n_run_ids &&
             a->n_packed_samples == b->n_packed_samples);
  /* runs placed alike: the run table (model.c) holds as many runs and has
   * run out of room alike, and each sample's run is at the same place (a
   * census packs against a key of its run's place: values_pack.c) */
  SAME_CHECK(a->run_slots_full == b->run_slots_full &&
             a->n_run_slots == b->n_run_slots);
  /* packed censuses' keys fall where each was read from: only a tail's
   * storage compares (a plain profile's holds at most its open census) */
  if (a->n_packed_samples == 0)
    SAME_CHECK(a->wide_values == b->wide_values &&
               a->value_shift == b->value_shift);
  for (size_t s = 0; s < a->n_samples; s++) {
    SAME_CHECK(a->times[s] == b->times[s] &&
               a->start[s + 1] == b->start[s + 1]);
    SAME_CHECK(a->run_of[s] == b->run_of[s]);
    hpx_values va, vb;
    hpx_values_of(a, s, &va);
    hpx_values_of(b, s, &vb);
    for (size_t e = a->start[s]; e < a->start[s + 1]; e++)
      SAME_CHECK(profile_entry_label(a, s, e) == profile_entry_label(b, s, e) &&
                 hpx_values_next(&va) == hpx_values_next(&vb));
  }
}

/* a and b hold the same: header, labels (names, keys, details, sums),
 * samples (times, entries, their label runs at the same places, the values'
 * storage), marks, heap series, breakdowns, bound, warnings, the wall
 * clock and the cost centres. */
static inline void same_profile_exactly(const hp2x_profile *a,
                                        const hp2x_profile *b) {
  SAME_CHECK(!strcmp(a->job, b->job) && !strcmp(a->date, b->date) &&
             !strcmp(a->sample_unit, b->sample_unit) &&
             !strcmp(a->value_unit, b->value_unit));
  SAME_CHECK(a->n_labels == b->n_labels);
  for (size_t l = 0; l < a->n_labels; l++)
    same_label(&a->labels[l], &b->labels[l]);
  same_samples(a, b);
  SAME_CHECK(a->n_marks == b->n_marks);
  for (size_t m = 0; m < a->n_marks; m++)
    SAME_CHECK(a->mark_time[m] == b->mark_time[m] &&
               !strcmp(a->mark_label[m], b->mark_label[m]));
  for (size_t k = 0; k < HPX_N_HEAP; k++) same_series(&a->heap[k], &b->heap[k]);
  SAME_CHECK(
      a->breakdown == b->breakdown && a->heap_profile == b->heap_profile &&
      a->began_mid_run == b->began_mid_run && a->interval_ns == b->interval_ns);
  SAME_CHECK(a->bound.thinned == b->bound.thinned &&
             a->bound.generation == b->bound.generation &&
             a->bound.summed == b->bound.summed &&
             a->bound.canon_len == b->bound.canon_len);
  SAME_CHECK(memcmp(&a->warn, &b->warn, sizeof a->warn) == 0);
  SAME_CHECK(a->text_breakdown == b->text_breakdown);
  SAME_CHECK(a->has_wall_clock == b->has_wall_clock &&
             a->wall_unix_ns == b->wall_unix_ns &&
             a->wall_at_s == b->wall_at_s);
  SAME_CHECK(a->ccs.n == b->ccs.n);
  for (size_t i = 0; i < a->ccs.n; i++) {
    const hpx_cost_centre *x = &a->ccs.cc[i], *y = &b->ccs.cc[i];
    SAME_CHECK(x->id == y->id && x->is_caf == y->is_caf &&
               !strcmp(x->label, y->label) && !strcmp(x->module, y->module) &&
               !strcmp(x->srcloc, y->srcloc));
  }
}

#endif
