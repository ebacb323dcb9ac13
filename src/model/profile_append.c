/* profile_append.c -- a part's samples appended to the profile being read
 * (profile_append.h): the part is a stretch of the same input read on
 * another thread into a plain profile of its own, and appending it gives
 * the profile exactly what reading that stretch into it would have given.
 * A plain profile takes the samples in bulk (values copied, each of the
 * part's label runs mapped and placed once, shared as reading shares it;
 * sums added per label: a label's total, entry count and
 * presence do not depend on the order they are summed in); one bounded by
 * a picture or by --last commits them one by one, since its thinning,
 * dense rows and window depend on each sample as it comes.
 */
#include "profile_append.h"

#include <assert.h>
#include <string.h>

/* Is p read for every sample, with no bound nor window?  A part of a
 * bounded or --last profile (which keeps no sums) is, here; not for
 * profile_is_plain, which decides packing. */
static bool is_plain(const hp2x_profile *p) {
  return p->bound.samples.columns == 0 && !(p->recent.last_s > 0.0);
}

hpx_part_limits hpx_part_limits_of(const hp2x_profile *p) {
  hpx_part_limits l = {p->max_labels, p->max_samples, is_plain(p),
                       p->pack_values};
  return l;
}

/* The most entries a part's arrays are allocated for at once: their first
 * step of room made usable then stays below the 1 MiB that is prefaulted
 * (profile_values.c), so that a part holding fewer entries than its bytes
 * allow does not fault in pages it never fills. */
#define PART_MOST_ENTRIES ((size_t)1 << 17)

/* A part that packs its censuses (a big input's) packs them into one block
 * of room, kept from part to part with the arrays: a census's packed bytes
 * are about a quarter of its lines' (2.4 bytes a value: values_pack.c; a
 * .hp line holds ten bytes and more), so a block of a part's bytes /
 * PART_BYTES_PER_PACKED mostly holds the part whole, and one that does not
 * gets more as it packs.  Fresh blocks a part, faulted in and let go of,
 * cost the calling thread as much as copying them (bench/RESULTS.md). */
#define PART_BYTES_PER_PACKED 4
#define PART_MOST_ROOM ((size_t)16 << 20)

/* Moves into p, a profile just made, the arrays of `old`, a part's profile
 * done with (then freed), that are dear to fault in afresh: the entries'
 * values and label runs, the samples' times, runs and ends.  Only their
 * room is kept: p holds no sample nor entry.  A 64-bit store is not taken
 * (p starts with 32-bit values). */
static void take_arrays(hp2x_profile *p, hp2x_profile *old) {
  if (old->start) {
    hpx_free(p->start);
    p->start = old->start;
    p->cap_start = old->cap_start;
    p->start[0] = 0;
    old->start = NULL;
  }
  p->times = old->times;
  p->run_of = old->run_of;
  p->cap_samples = old->cap_samples;
  old->times = NULL;
  old->run_of = NULL;
  p->run_ids = old->run_ids;
  p->cap_run_ids = old->cap_run_ids;
  old->run_ids = NULL;
  if (!old->wide_values && old->value32) {
    p->value32 = old->value32;
    p->alloc_entries = old->alloc_entries - old->value_base;
    old->value32 = NULL;
  }
}

/* Parts are read one after another on the same threads, each into a
 * profile of its own, taken in order and then done with.  Fresh memory is
 * dear here (each page faulted in and zeroed: 0.4-0.5 ms a MB on the
 * benchmark's machine), so a part takes the arrays of one done with
 * (`spare`) when there is one; and a part's arrays grown from nothing by
 * doubling would come from the memory the parts before it let go of,
 * where realloc copies at every step: they are allocated for the part's
 * bytes at once, and their pages touched only as entries are added. */
hp2x_profile *hpx_part_profile_new(const hpx_part_limits *whole, size_t bytes,
                                   hp2x_profile *spare) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  if (p && spare) take_arrays(p, spare);
  if (p && whole->pack) {
    size_t want = bytes / PART_BYTES_PER_PACKED;
    hpx_values_keep_room(p, spare,
                         want < PART_MOST_ROOM ? want : PART_MOST_ROOM);
  }
  hp2x_profile_free(spare);
  if (!p) return NULL;
  p->max_labels = whole->max_labels;
  p->max_samples = whole->max_samples;
  p->bound.no_sums = !whole->plain;
  p->pack_values = whole->pack;
  size_t entries = bytes / HPX_PART_BYTES_PER_ENTRY;
  if (entries > PART_MOST_ENTRIES) entries = PART_MOST_ENTRIES;
  /* when that fails, the arrays grow as entries come */
  (void)hpx_profile_allocate_entries(p, entries, &err);
  return p;
}

void hpx_part_map_init(hpx_part_map *m, const hp2x_profile *part,
                       hpx_label_map_fn fn, void *ctx) {
  memset(m, 0, sizeof *m);
  m->part = part;
  m->fn = fn;
  m->ctx = ctx;
}

void hpx_part_map_expect(hpx_part_map *m, size_t bytes, size_t left) {
  m->parts_left = bytes && left > bytes ? (double)left / (double)bytes : 0.0;
}

void hpx_part_map_free(hpx_part_map *m) {
  hpx_free(m->id);
  hpx_free(m->run_to);
  m->id = NULL;
  m->run_to = NULL;
  m->n = m->cap = m->n_run_to = 0;
}

hp2x_status hpx_part_map_upto(hpx_part_map *m, size_t upto, hp2x_err *err) {
  if (upto <= m->n) return HP2X_OK;
  assert(upto <= m->part->n_labels);
  if (hpx_grow((void **)&m->id, &m->cap, upto, sizeof *m->id, err) != HP2X_OK)
    return err->code;
  for (; m->n < upto; m->n++)
    if (m->fn(m->ctx, m->part, (uint32_t)m->n, &m->id[m->n], err) != HP2X_OK)
      return err->code;
  return HP2X_OK;
}

/* A label's key bytes (its name when it has no separate key). */
static const char *key_of(const hpx_label *l, size_t *len) {
  *len = l->key ? l->key_len : l->name_len;
  return l->key ? l->key : l->name;
}

bool hpx_profile_append_fits(const hp2x_profile *p, const hp2x_profile *part) {
  if (part->n_samples + 1 > p->max_samples - p->n_samples) return false;
  size_t fresh = 0;
  for (size_t l = 0; l < part->n_labels; l++) {
    size_t len;
    const char *key = key_of(&part->labels[l], &len);
    if (hpx_profile_find(p, key, len) < 0) fresh++;
  }
  return p->n_labels + fresh <= p->max_labels;
}

/* Appends the values of the part's entries [e0, e1) after p's last, as
 * they are: neither packs (a profile packs or not from its first census,
 * and its parts as it does). */
static hp2x_status append_values(hp2x_profile *p, const hp2x_profile *q,
                                 size_t e0, size_t e1, hp2x_err *err) {
  assert(!p->pack_values && !q->pack_values && q->value_base == 0);
  if (!p->wide_values && !q->wide_values && p->value_shift == q->value_shift) {
    /* q->low_bits holds the low bits of every value q stored: none
     * there, or all of them in p already, and the values add none. */
    uint32_t low = 0;
    if (p->value_shift == 0 && (q->low_bits & 7u) && (p->low_bits & 7u) != 7u)
      for (size_t e = e0; e < e1; e++) low |= q->value32[e];
    p->low_bits |= low & 7u;
    if (e1 > e0)
      memcpy(p->value32 + (p->n_entries - p->value_base), q->value32 + e0,
             (e1 - e0) * sizeof *p->value32);
    p->n_entries += e1 - e0;
    return HP2X_OK;
  }
  for (size_t e = e0; e < e1; e++) {
    if (profile_store_value(p, profile_tail_value(q, e), err) != HP2X_OK)
      return err->code;
    p->n_entries++;
  }
  return HP2X_OK;
}

/* The bytes of the part's packed census s, the next the appends reach
 * (m->blocks_met kept up), when the census after it follows it in the
 * same block: a census is packed right after the one before, or at the
 * start of a new block (values_pack.c).  0 when unknown (the last of a
 * block: its bytes are counted instead). */
static size_t packed_len(hpx_part_map *m, size_t s) {
  const hp2x_profile *q = m->part;
  if (s >= q->n_packed_samples) return 0;
  if (m->blocks_met < q->n_blocks &&
      q->packed_at[s] == q->blocks[m->blocks_met])
    m->blocks_met++;
  if (s + 1 >= q->n_packed_samples ||
      (m->blocks_met < q->n_blocks &&
       q->packed_at[s + 1] == q->blocks[m->blocks_met]))
    return 0;
  return (size_t)(q->packed_at[s + 1] - q->packed_at[s]);
}

/* Appends the values of the part's sample s as p's newest sample's
 * (whose start is set) when p packs: its packed bytes when p can take
 * them as they are (their key among those taken so: from `*copied_from`
 * on), else the values one by one, then packed as p packs them. */
static hp2x_status append_packed(hp2x_profile *p, hpx_part_map *m, size_t s,
                                 size_t *copied_from, hp2x_err *err) {
  const hp2x_profile *q = m->part;
  bool copied;
  if (hpx_profile_copy_packed(p, q, s, *copied_from, packed_len(m, s), &copied,
                              err) != HP2X_OK)
    return err->code;
  if (copied) return HP2X_OK;
  *copied_from = s + 1;
  size_t n = q->start[s + 1] - q->start[s];
  if (hpx_profile_reserve_entries(p, n, err) != HP2X_OK) return err->code;
  hpx_values r;
  hpx_values_of(q, s, &r);
  for (size_t i = 0; i < n; i++) {
    if (profile_store_value(p, hpx_values_next(&r), err) != HP2X_OK)
      return err->code;
    p->n_entries++;
  }
  return hpx_profile_pack(p, p->n_samples - 1, err);
}

/* The part's packed censuses from s on (before `to`), as many as can be
 * copied at once, appended as p's next samples (hpx_profile_take_packed_run,
 * m->blocks_met kept up as packed_len keeps it): how many, 0 for none. */
static size_t take_packed_run(hp2x_profile *p, hpx_part_map *m, size_t s,
                              size_t to, size_t copied_from) {
  const hp2x_profile *q = m->part;
  if (s >= q->n_packed_samples) return 0;
  if (m->blocks_met < q->n_blocks &&
      q->packed_at[s] == q->blocks[m->blocks_met])
    m->blocks_met++;
  const uint8_t *next_block =
      m->blocks_met < q->n_blocks ? q->blocks[m->blocks_met] : NULL;
  return hpx_profile_take_packed_run(p, q, s, to, copied_from, next_block);
}

/* Where the part's run at q->run_of[s], of len > 0 labels, is in p:
 * mapped at the end of p's run_ids (room made), then shared with p's
 * sample t - 1 when equal to its run, else with an earlier one through
 * p's run table, as reading shares it (hpx_profile_end_sample).  While
 * p's table has taken every run, each run equal to one before shares the
 * first (the table's): then a run of the part is placed once (m->run_to,
 * kept only while the table has room). */
static size_t place_run(hp2x_profile *p, hpx_part_map *m, size_t s, size_t t,
                        size_t len) {
  const hp2x_profile *q = m->part;
  size_t r = q->run_of[s];
  bool cached = r < m->n_run_to && !p->run_slots_full;
  if (cached && m->run_to[r] != SIZE_MAX) return m->run_to[r];
  const uint32_t *src = q->run_ids + r;
  uint32_t *dst = p->run_ids + p->n_run_ids;
  for (size_t i = 0; i < len; i++) dst[i] = m->id[src[i]];
  bool same_len = t > 0 && p->start[t] - p->start[t - 1] == len;
  size_t at = hpx_profile_run_place(p, p->n_run_ids, len,
                                    same_len ? p->run_of[t - 1] : SIZE_MAX);
  if (at == p->n_run_ids) p->n_run_ids += len;
  if (cached) m->run_to[r] = at;
  return at;
}

/* Makes m's cache of where the part's runs went cover them all, none
 * placed yet where new (a fill of 8 bytes a run id: made only while p's
 * run table has room); once the table is full, every run not shared with
 * the one before is copied: the pages for the part's runs are mapped at
 * once instead (cheaper than a fault each).  HP2X_E_NOMEM. */
static hp2x_status runs_room(hp2x_profile *p, hpx_part_map *m, size_t from,
                             size_t to, hp2x_err *err) {
  const hp2x_profile *q = m->part;
  if (p->run_slots_full) {
    size_t ids = q->start[to] - q->start[from]; /* room made for them */
    if (ids) /* (run_ids may still be NULL: no pointer into it) */
      hpx_prefault_all(p->run_ids + p->n_run_ids, 0, ids * sizeof *p->run_ids);
    return HP2X_OK;
  }
  if (m->n_run_to < q->n_run_ids) {
    size_t cap = m->n_run_to, had = m->n_run_to;
    if (hpx_grow((void **)&m->run_to, &cap, q->n_run_ids, sizeof *m->run_to,
                 err) != HP2X_OK)
      return err->code;
    for (size_t i = had; i < q->n_run_ids; i++) m->run_to[i] = SIZE_MAX;
    m->n_run_to = q->n_run_ids;
  }
  return HP2X_OK;
}

/* The runs of the part's samples [from, to), mapped, as p's samples from
 * t0 on (their starts set): a sample shares the run before it when the
 * part's does (the same labels: mapping keeps runs apart), else takes the
 * place its run went to, once placed (place_run).  The part's runs are
 * few where they recur, each placed once.  HP2X_E_NOMEM. */
static hp2x_status append_runs(hp2x_profile *p, hpx_part_map *m, size_t from,
                               size_t to, size_t t0, hp2x_err *err) {
  const hp2x_profile *q = m->part;
  if (runs_room(p, m, from, to, err) != HP2X_OK) return err->code;
  for (size_t s = from, t = t0; s < to; s++, t++) {
    size_t len = q->start[s + 1] - q->start[s];
    bool same_len = t > 0 && p->start[t] - p->start[t - 1] == len;
    if (s > from && q->run_of[s] == q->run_of[s - 1] &&
        q->start[s] - q->start[s - 1] == len)
      p->run_of[t] = p->run_of[t - 1];
    else if (len == 0) /* run_ids may still be NULL: no pointer into it */
      p->run_of[t] = same_len ? p->run_of[t - 1] : p->n_run_ids;
    else
      p->run_of[t] = place_run(p, m, s, t, len);
  }
  return HP2X_OK;
}

/* The biggest block of packed censuses made ahead of the parts: a bigger
 * input's gets more as they come. */
#define EXPECT_MOST_PACKED ((size_t)256 << 20)

/* How many samples, entries or bytes to make room for when `need` more
 * do not fit: what the input left holds at the part's density (`in_part`
 * in the part), with an eighth more, at most `most`; `need` when that is
 * less or unknown. */
static size_t expected(const hpx_part_map *m, size_t need, size_t in_part,
                       size_t most) {
  double want = (double)in_part * m->parts_left * 1.125;
  if (!(want > (double)need)) return need;
  return want < (double)most ? (size_t)want : most;
}

/* Room for `want` more samples: their times, runs, ends and, packed,
 * places. */
static void expect_samples(hp2x_profile *p, size_t want) {
  hp2x_err err;
  hp2x_err_init(&err);
  if (hpx_profile_reserve_samples(p, want, &err) == HP2X_OK && p->pack_values)
    (void)hpx_grow((void **)&p->packed_at, &p->cap_packed_at,
                   p->n_samples + want, sizeof *p->packed_at, &err);
}

/* Room for `want` more entries: their label runs and, not packed (the
 * tail then holds the open census only), their values. */
static void expect_entries(hp2x_profile *p, size_t want) {
  hp2x_err err;
  hp2x_err_init(&err);
  if (p->pack_values)
    (void)hpx_grow((void **)&p->run_ids, &p->cap_run_ids, p->n_run_ids + want,
                   sizeof *p->run_ids, &err);
  else
    (void)hpx_profile_allocate_entries(p, want, &err);
}

/* Grows p, when the part's n samples and e entries (and, packed, its
 * censuses' bytes) do not fit in its room, for the rest of the input at
 * once (hpx_part_map_expect).  Only a hint: when that much memory is not
 * to be had, the exact growth after it fails or not as it would have. */
static void expect_room(hp2x_profile *p, const hpx_part_map *m, size_t n,
                        size_t e) {
  const hp2x_profile *q = m->part;
  if (p->n_samples + n > p->cap_samples ||
      p->n_samples + n + 1 > p->cap_start) {
    size_t want = expected(m, n, q->n_samples, p->max_samples - p->n_samples);
    if (want > n) expect_samples(p, want);
  }
  if (p->n_run_ids + e > p->cap_run_ids ||
      (!p->pack_values && p->n_entries + e > p->alloc_entries)) {
    size_t want = expected(m, e, q->n_entries, HPX_MAX_ENTRIES - p->n_entries);
    if (want > e) expect_entries(p, want);
  }
  if (p->pack_values && q->packed_bytes >= p->fill_left) {
    size_t want = expected(m, 0, q->packed_bytes, EXPECT_MOST_PACKED);
    if (want > 0) hpx_values_expect_room(p, want);
  }
}

/* The pages of the times, runs, ends (and, packed, places) of the n
 * samples about to follow p's last, mapped at once: cheaper than a fault
 * a page (from 64 KiB of an array on: a 100 MB input's parts). */
static void prefault_samples(hp2x_profile *p, size_t n) {
  size_t s = p->n_samples;
  hpx_prefault_all(p->times, s * sizeof *p->times, (s + n) * sizeof *p->times);
  hpx_prefault_all(p->run_of, s * sizeof *p->run_of,
                   (s + n) * sizeof *p->run_of);
  hpx_prefault_all(p->start, (s + 1) * sizeof *p->start,
                   (s + n + 1) * sizeof *p->start);
  if (p->pack_values && p->cap_packed_at >= s + n)
    hpx_prefault_all(p->packed_at, s * sizeof *p->packed_at,
                     (s + n) * sizeof *p->packed_at);
}

/* The plain profile's bulk append (hpx_profile_append): the values of
 * every sample at once, or census by census when p packs them; the
 * samples' ends at once, then their label runs (append_runs). */
static hp2x_status append_bulk(hp2x_profile *p, hpx_part_map *m, size_t from,
                               size_t to, hp2x_err *err) {
  const hp2x_profile *q = m->part;
  size_t e0 = q->start[from], e1 = q->start[to];
  expect_room(p, m, to - from, e1 - e0);
  if (hpx_part_map_upto(m, q->n_labels, err) != HP2X_OK ||
      hpx_profile_reserve_samples(p, to - from, err) != HP2X_OK ||
      hpx_grow((void **)&p->run_ids, &p->cap_run_ids, p->n_run_ids + (e1 - e0),
               sizeof *p->run_ids, err) != HP2X_OK)
    return err->code;
  prefault_samples(p, to - from);
  if (!p->pack_values &&
      (hpx_profile_reserve_entries_exact(p, e1 - e0, err) != HP2X_OK ||
       append_values(p, q, e0, e1, err) != HP2X_OK))
    return err->code;
  size_t t0 = p->n_samples;
  for (size_t s = from, t = t0; s < to; s++, t++)
    p->start[t + 1] = p->start[t] + (q->start[s + 1] - q->start[s]);
  if (append_runs(p, m, from, to, t0, err) != HP2X_OK) return err->code;
  if (!p->pack_values) {
    memcpy(p->times + t0, q->times + from, (to - from) * sizeof *p->times);
    p->n_samples += to - from;
  }
  size_t copied_from = from;
  for (size_t s = from; p->pack_values && s < to; s++) {
    size_t k = take_packed_run(p, m, s, to, copied_from);
    if (k) {
      s += k - 1;
      continue;
    }
    p->times[p->n_samples++] = q->times[s];
    if (append_packed(p, m, s, &copied_from, err) != HP2X_OK) return err->code;
  }
  p->open_run = p->n_run_ids;
  p->n_committed += to - from;
  p->bound.summed += to - from;
  return HP2X_OK;
}

/* Commits the part's sample s to p as reading it would: its labels
 * mapped first (those its entries are the first of), its entries added to
 * a sample opened at its time, then the sample ended. */
static hp2x_status append_one(hp2x_profile *p, hpx_part_map *m, size_t s,
                              hp2x_err *err) {
  const hp2x_profile *q = m->part;
  size_t e0 = q->start[s], e1 = q->start[s + 1];
  size_t upto = m->n;
  for (size_t e = e0; e < e1; e++) {
    uint32_t l = profile_entry_label(q, s, e);
    if (l >= upto) upto = (size_t)l + 1;
  }
  if (hpx_part_map_upto(m, upto, err) != HP2X_OK ||
      hpx_profile_reserve_entries(p, e1 - e0, err) != HP2X_OK)
    return err->code;
  hpx_values r;
  hpx_values_of(q, s, &r);
  hpx_profile_begin_sample(p, q->times[s]);
  for (size_t e = e0; e < e1; e++)
    if (profile_add_entry(p, m->id[profile_entry_label(q, s, e)],
                          hpx_values_next(&r), err) != HP2X_OK)
      return err->code;
  return hpx_profile_end_sample(p, err);
}

hp2x_status hpx_profile_append(hp2x_profile *p, hpx_part_map *m, size_t from,
                               size_t to, hp2x_err *err) {
  assert(!p->sample_open && from <= to && to <= m->part->n_samples);
  if (from == to) return HP2X_OK;
  if (is_plain(p)) return append_bulk(p, m, from, to, err);
  for (size_t s = from; s < to; s++)
    if (append_one(p, m, s, err) != HP2X_OK) return err->code;
  return HP2X_OK;
}

void hpx_profile_append_sums(hp2x_profile *p, const hpx_part_map *m) {
  if (!is_plain(p)) return;
  const hp2x_profile *q = m->part;
  assert(m->n >= q->n_labels || q->n_samples == 0);
  for (size_t l = 0; l < q->n_labels && l < m->n; l++) {
    const label_sums *from = &q->labels[l].sums;
    if (!from->entries) continue;
    label_sums *to = &p->labels[m->id[l]].sums;
    to->total = hpx_add_sat(to->total, from->total);
    to->entries += from->entries;
  }
}
