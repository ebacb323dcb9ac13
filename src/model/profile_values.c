/* profile_values.c -- the storage of a profile's entry values: the tail's
 * room made a step at a time (prefaulted), 32-bit values counted in words
 * once one passes 4 GiB, widening to 64 bits, bare values for dense rows;
 * a plain profile's censuses packed as they close (values_pack.c), and
 * read back in order.  model.c and profile_bound.c append through it.
 */
#include "model.h"

/* Entries are the bulk of a profile's memory: the arrays grow
 * geometrically, but are made usable (and prefaulted) ENTRY_STEP entries at
 * a time, so a big profile's peak memory is what it holds plus one step. */
#define ENTRY_STEP ((size_t)1 << 18)

hp2x_status hpx_profile_grow_entries(hp2x_profile *p, hp2x_err *err) {
  return hpx_profile_reserve_entries(p, 1, err);
}

/* Grows the tail's array to hold entries up to `need` (absolute). */
static hp2x_status grow_tail(hp2x_profile *p, size_t need, hp2x_err *err) {
  size_t size = p->wide_values ? sizeof *p->value64 : sizeof *p->value32;
  void **values = p->wide_values ? (void **)&p->value64 : (void **)&p->value32;
  size_t cap = p->alloc_entries - p->value_base;
  if (hpx_grow(values, &cap, need - p->value_base, size, err) != HP2X_OK)
    return err->code;
  p->alloc_entries = p->value_base + cap;
  return HP2X_OK;
}

/* Room for n more entries, made usable ENTRY_STEP entries at a time or,
 * `exact`, for those n only (an append knows how many come: a step past
 * them would fault in pages no entry ever fills, up to ENTRY_STEP's 1 MB
 * at the input's end). */
static hp2x_status reserve_entries(hp2x_profile *p, size_t n, bool exact,
                                   hp2x_err *err) {
  if (p->n_entries + n > HPX_MAX_ENTRIES)
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1, "more than %zu entries",
                    (size_t)HPX_MAX_ENTRIES);
  if (hpx_grow((void **)&p->run_ids, &p->cap_run_ids, p->n_run_ids + n,
               sizeof *p->run_ids, err) != HP2X_OK)
    return err->code;
  size_t size = p->wide_values ? sizeof *p->value64 : sizeof *p->value32;
  void *values = p->wide_values ? (void *)p->value64 : (void *)p->value32;
  while (p->n_entries + n > p->cap_entries) {
    if (p->cap_entries >= p->alloc_entries) {
      if (grow_tail(p, p->cap_entries + 1, err) != HP2X_OK) return err->code;
      values = p->wide_values ? (void *)p->value64 : (void *)p->value32;
    }
    size_t from = p->cap_entries, to = p->alloc_entries;
    if (exact && to > p->n_entries + n) to = p->n_entries + n;
    if (to - from > ENTRY_STEP) to = from + ENTRY_STEP;
    if (exact)
      hpx_prefault_all(values, (from - p->value_base) * size,
                       (to - p->value_base) * size);
    else
      hpx_prefault(values, (from - p->value_base) * size,
                   (to - p->value_base) * size);
    /* The inline append only checks capacity: keep it within the limit. */
    p->cap_entries = to < HPX_MAX_ENTRIES ? to : HPX_MAX_ENTRIES;
  }
  return HP2X_OK;
}

hp2x_status hpx_profile_reserve_entries(hp2x_profile *p, size_t n,
                                        hp2x_err *err) {
  return reserve_entries(p, n, false, err);
}

hp2x_status hpx_profile_reserve_entries_exact(hp2x_profile *p, size_t n,
                                              hp2x_err *err) {
  return reserve_entries(p, n, true, err);
}

hp2x_status hpx_profile_allocate_entries(hp2x_profile *p, size_t n,
                                         hp2x_err *err) {
  if (n > HPX_MAX_ENTRIES - p->n_entries) n = HPX_MAX_ENTRIES - p->n_entries;
  if (hpx_grow((void **)&p->run_ids, &p->cap_run_ids, p->n_run_ids + n,
               sizeof *p->run_ids, err) != HP2X_OK)
    return err->code;
  return grow_tail(p, p->n_entries + n, err);
}

/* Stores every value in 64 bits from now on (HP2X_E_NOMEM).  Once per
 * profile at most, and only for one holding a value outside 0..UINT32_MAX:
 * a copy in a new array keeps the code free of type puns. */
static hp2x_status widen_values(hp2x_profile *p, hp2x_err *err) {
  size_t cap = p->alloc_entries - p->value_base,
         n = p->n_entries - p->value_base;
  int64_t *wide = hpx_malloc((cap ? cap : 1) * sizeof *wide);
  if (!wide) return hpx_nomem(err);
  for (size_t i = 0; i < n; i++)
    wide[i] = (int64_t)((uint64_t)p->value32[i] << p->value_shift);
  hpx_free(p->value32);
  p->value32 = NULL;
  p->value64 = wide;
  p->wide_values = true;
  /* Only the slot being filled is known usable: the next growth prefaults
   * the new array from there. */
  p->cap_entries = p->n_entries + 1;
  return HP2X_OK;
}

hp2x_status hpx_profile_store_big_value(hp2x_profile *p, int64_t v,
                                        hp2x_err *err) {
  uint64_t u = (uint64_t)v;
  size_t n = p->n_entries - p->value_base;
  if (!p->wide_values && p->value_shift == 0 && (p->low_bits & 7u) == 0 &&
      v >= 0 && (u >> 3) <= UINT32_MAX) {
    /* every value so far is whole words: count in words */
    for (size_t i = 0; i < n; i++) p->value32[i] >>= 3;
    p->value_shift = 3;
    p->value32[n] = (uint32_t)(u >> 3);
    return HP2X_OK;
  }
  if (!p->wide_values && widen_values(p, err) != HP2X_OK) return err->code;
  p->value64[n] = v;
  return HP2X_OK;
}

hp2x_status hpx_profile_put_value(hp2x_profile *p, int64_t v, hp2x_err *err) {
  if (p->n_entries >= p->cap_entries &&
      hpx_profile_grow_entries(p, err) != HP2X_OK)
    return err->code;
  if (profile_store_value(p, v, err) != HP2X_OK) return err->code;
  p->n_entries++;
  return HP2X_OK;
}
