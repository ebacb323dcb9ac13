/* profile_values.h -- private to libhp2x: how a profile's entry values
 * are stored (profile_values.c): 32 bits while they fit, in 8-byte words
 * once a value passes 4 GiB (GHC counts whole words), 64 bits when
 * neither holds; appending an entry, a bare value (profile_bound.c's
 * dense rows) and reading one.  model.h includes it after the profile's
 * fields, which it uses.
 */
#ifndef HPX_PROFILE_VALUES_H
#define HPX_PROFILE_VALUES_H

/* Makes room for one more entry (HP2X_E_LIMIT past HPX_MAX_ENTRIES). */
hp2x_status hpx_profile_grow_entries(hp2x_profile *p, hp2x_err *err);
/* Makes room for n more entries (appending a part: profile_append.c). */
hp2x_status hpx_profile_reserve_entries(hp2x_profile *p, size_t n,
                                        hp2x_err *err);
/* Allocates room for n more entries without making it usable: the arrays
 * are not touched (no page is faulted in) until entries are added, and
 * later growth copies nothing until they pass it.  HP2X_E_NOMEM. */
hp2x_status hpx_profile_allocate_entries(hp2x_profile *p, size_t n,
                                         hp2x_err *err);
/* Stores value v in entry slot n_entries (room made) when 32 bits cannot
 * hold it as they are: in words from now on when it and every value are
 * whole words and it fits, else widening.  HP2X_E_NOMEM. */
hp2x_status hpx_profile_store_big_value(hp2x_profile *p, int64_t v,
                                        hp2x_err *err);
/* Stores value v in entry slot n_entries, room made; does not count it. */
static HPX_ALWAYS_INLINE hp2x_status profile_store_value(hp2x_profile *p,
                                                         int64_t v,
                                                         hp2x_err *err) {
  uint64_t u = (uint64_t)v;
  p->low_bits |= (uint32_t)u & 7u;
  if (!p->wide_values && (u >> p->value_shift) <= UINT32_MAX &&
      (u & ((1u << p->value_shift) - 1u)) == 0) {
    p->value32[p->n_entries] = (uint32_t)(u >> p->value_shift);
    return HP2X_OK;
  }
  return hpx_profile_store_big_value(p, v, err);
}
/* Appends value v after the last entry, with no label (profile_bound.c's
 * dense rows, whose labels are the canonical run).  HP2X_E_NOMEM,
 * HP2X_E_LIMIT. */
hp2x_status hpx_profile_put_value(hp2x_profile *p, int64_t v, hp2x_err *err);
/* Appends an entry to the open sample: inline, as it runs once per line. */
static HPX_ALWAYS_INLINE hp2x_status profile_add_entry(hp2x_profile *p,
                                                       uint32_t label,
                                                       int64_t value,
                                                       hp2x_err *err) {
  if ((p->n_entries >= p->cap_entries || p->n_run_ids >= p->cap_run_ids) &&
      hpx_profile_grow_entries(p, err) != HP2X_OK)
    return err->code;
  if (profile_store_value(p, value, err) != HP2X_OK) return err->code;
  p->n_entries++;
  p->run_ids[p->n_run_ids++] = label;
  return HP2X_OK;
}
/* The value of entry e. */
static inline int64_t profile_value(const hp2x_profile *p, size_t e) {
  return p->wide_values ? p->value64[e]
                        : (int64_t)((uint64_t)p->value32[e] << p->value_shift);
}

#endif
