/* profile_values.h -- private to libhp2x: how a profile's entry values
 * are stored (profile_values.c).  The entries being added (the open
 * census, and every entry of a profile that does not pack) sit in a tail:
 * 32 bits while they fit, in 8-byte words once a value passes 4 GiB (GHC
 * counts whole words), 64 bits when neither holds.  A plain profile (no
 * picture bound, no --last) of a big input (pack_values: a feed of
 * HPX_PACK_FROM_BYTES or more) packs each census as it closes: its values in
 * one to eight bytes each, most as the difference from the same place of
 * a census a few before it that has the same labels (values_pack.c says
 * how), which the census reader decodes in order.  Appending an entry, a bare
 * value (profile_bound.c's dense rows), packing a census, reading one.  model.h
 * includes it after the profile's fields, which it uses.
 */
#ifndef HPX_PROFILE_VALUES_H
#define HPX_PROFILE_VALUES_H

/* An input fed at once of this many bytes or more packs its censuses
 * (model.h's pack_values) unless hp2x_parse_options's pack_bytes says
 * otherwise: 512 MiB, whose values would take some 70 MB and more
 * unpacked; below it, reading keeps the cheaper store (some 15% less CPU,
 * bench/RESULTS.md 14al: with label runs shared through the run table,
 * the stretch .hp of 500 MB then peaks 30 MB lower than packed before). */
#define HPX_PACK_FROM_BYTES ((size_t)512 << 20)

/* Makes room for one more entry (HP2X_E_LIMIT past HPX_MAX_ENTRIES). */
hp2x_status hpx_profile_grow_entries(hp2x_profile *p, hp2x_err *err);
/* Makes room for n more entries, made usable a step at a time (the line
 * reader's runs of lines; a packed or bounded part's census appended). */
hp2x_status hpx_profile_reserve_entries(hp2x_profile *p, size_t n,
                                        hp2x_err *err);
/* The same, made usable for those n entries only, not a step beyond them
 * (a plain part's entries appended at once: profile_append.c). */
hp2x_status hpx_profile_reserve_entries_exact(hp2x_profile *p, size_t n,
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
    p->value32[p->n_entries - p->value_base] = (uint32_t)(u >> p->value_shift);
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
/* The value of entry e, one not packed: the open census's, or any of a
 * profile that is not plain (e >= p->value_base). */
static inline int64_t profile_tail_value(const hp2x_profile *p, size_t e) {
  size_t i = e - p->value_base;
  return p->wide_values ? p->value64[i]
                        : (int64_t)((uint64_t)p->value32[i] << p->value_shift);
}

/* Is p plain: read for every sample, with no bound nor window (nor a
 * part of one that has them, which keeps no sums)? */
static inline bool profile_is_plain(const hp2x_profile *p) {
  return p->bound.samples.columns == 0 && !(p->recent.last_s > 0.0) &&
         !p->bound.no_sums;
}
/* Packs complete sample s, the newest, when p is plain and every sample
 * before it is packed (hpx_profile_end_sample).  HP2X_E_NOMEM. */
hp2x_status hpx_profile_pack(hp2x_profile *p, size_t s, hp2x_err *err);
/* Takes q's packed sample s as the values of p's newest sample (whose
 * times, run and start the caller has set; its entries not added) when
 * p packs and s's key is not before q's sample `from`: *copied says
 * whether it did.  `len` is s's packed bytes when the caller knows them
 * (0: counted here).  HP2X_E_NOMEM. */
hp2x_status hpx_profile_copy_packed(hp2x_profile *p, const hp2x_profile *q,
                                    size_t s, size_t from, size_t len,
                                    bool *copied, hp2x_err *err);
/* Appends q's packed censuses from s on, before e, as p's next samples
 * (their runs set by the caller, room made for their times and ends):
 * their times, ends and packed bytes, copied at once, as many as follow
 * one another in the block of census s (the census at `next_block`, the
 * block after it, not: NULL for none), have their keys from q's census
 * `from` on (copied so, in order) and fit p's last block.  p packs its next
 * sample, its censuses all packed.  Returns how many: 0 when none (then
 * census by census: hpx_profile_copy_packed). */
size_t hpx_profile_take_packed_run(hp2x_profile *p, const hp2x_profile *q,
                                   size_t s, size_t e, size_t from,
                                   const uint8_t *next_block);
/* Gives p, which packs nothing yet, an empty block of at least `want`
 * bytes for its censuses: the last block of `old` (a profile done with,
 * freed by the caller; NULL: none) when it is that big, its pages faulted
 * in already, else a fresh one, untouched until written, of the power of
 * two at or above `want` (a later part a little longer reuses it); and old's
 * censuses' places' room.  A part's
 * profile packs its censuses into it, one after another (reading in
 * parts: profile_append.c); without memory, p makes its blocks as it
 * packs. */
void hpx_values_keep_room(hp2x_profile *p, hp2x_profile *old, size_t want);
/* Gives p, which packs, a last block with room for `bytes` more packed
 * bytes when it has less: a fresh one, untouched until written
 * (profile_append.c, for the parts to come: their runs of censuses are
 * then copied into it at once, with no block made for each 256 KiB).
 * Without memory, nothing. */
void hpx_values_expect_room(hp2x_profile *p, size_t bytes);
/* Frees p's packed censuses (hp2x_profile_free, drop_entries). */
void hpx_values_free(hp2x_profile *p);

/* A census's values in order: hpx_values_of(p, s, &r), then
 * hpx_values_next(&r) once per entry of sample s, and no more.  They are
 * decoded eight at a time (hpx_values_refill). */
typedef struct hpx_values {
  int64_t buf[8]; /* values decoded, from i to n not yet taken */
  unsigned i, n;
  unsigned shift;      /* values are counted in 1 << shift bytes */
  size_t left;         /* the census's values not yet decoded */
  const uint8_t *at;   /* packed: the census's next group, else NULL */
  const uint8_t *key;  /* packed against a key census: its next group */
  const uint32_t *v32; /* not packed, 32 bits: the next value */
  const int64_t *v64;  /* not packed, 64 bits: the next value */
} hpx_values;

/* The reader of complete sample s's values. */
void hpx_values_of(const hp2x_profile *p, size_t s, hpx_values *r);
/* Decodes r's next (up to) eight values into r->buf. */
void hpx_values_refill(hpx_values *r);

/* The next value of r's census. */
static inline int64_t hpx_values_next(hpx_values *r) {
  if (r->i == r->n) hpx_values_refill(r);
  return r->buf[r->i++];
}

#endif
