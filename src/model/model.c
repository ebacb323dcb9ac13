/* model.c -- the sample model shared by both front ends, as model.h
 * declares it: header strings, interned labels (hash table), complete
 * samples stored compactly (values in one array, labels in runs that
 * samples share: the run table), marks, the eventlog's heap series and the
 * public queries.  Parsers build it; everything else reads it.
 */
#include "model.h"

#include <assert.h>

#include <string.h>

hp2x_profile *hpx_profile_new(hp2x_err *err) {
  hp2x_profile *p = hpx_calloc(1, sizeof *p);
  if (!p) {
    hpx_nomem(err);
    return NULL;
  }
  p->job = hpx_strndup("", 0);
  p->date = hpx_strndup("", 0);
  p->sample_unit = hpx_strndup("", 0);
  p->value_unit = hpx_strndup("", 0);
  p->start = hpx_calloc(16, sizeof *p->start);
  p->cap_start = 16;
  p->max_labels = HPX_MAX_LABELS;
  p->max_samples = HPX_MAX_SAMPLES;
  hpx_profile_bound_set(p, 0); /* unbounded until a parser says otherwise */
  if (!p->job || !p->date || !p->sample_unit || !p->value_unit || !p->start) {
    hp2x_profile_free(p);
    hpx_nomem(err);
    return NULL;
  }
  return p;
}

static void series_free(hpx_series *s) {
  hpx_free(s->time_s);
  hpx_free(s->bytes);
}

void hp2x_profile_free(hp2x_profile *p) {
  if (!p) return;
  hpx_free(p->job);
  hpx_free(p->date);
  hpx_free(p->sample_unit);
  hpx_free(p->value_unit);
  for (size_t i = 0; i < p->n_labels; i++) {
    hpx_free(p->labels[i].name);
    hpx_free(p->labels[i].key);
    hpx_free(p->labels[i].text.detail);
  }
  hpx_free(p->labels);
  hpx_free(p->label_index);
  hpx_free(p->times);
  hpx_free(p->start);
  hpx_free(p->run_of);
  hpx_free(p->run_ids);
  hpx_free(p->run_slots);
  hpx_free(p->value32);
  hpx_free(p->value64);
  hpx_values_free(p);
  hpx_free(p->bound.sample_total);
  hpx_free(p->bound.row);
  hpx_recent_free(&p->recent);
  for (size_t i = 0; i < p->n_marks; i++) hpx_free(p->mark_label[i]);
  hpx_free(p->mark_time);
  hpx_free(p->mark_label);
  for (size_t k = 0; k < HPX_N_HEAP; k++) series_free(&p->heap[k]);
  hpx_cost_centres_free(&p->ccs);
  hpx_free(p);
}

hp2x_status hpx_profile_set_header(hp2x_profile *p, profile_field f,
                                   const char *s, size_t len, hp2x_err *err) {
  assert(f == PROFILE_JOB || f == PROFILE_DATE || f == PROFILE_SAMPLE_UNIT ||
         f == PROFILE_VALUE_UNIT);
  char *copy = hpx_strndup(s, len);
  if (!copy) return hpx_nomem(err);
  char **slot = f == PROFILE_JOB           ? &p->job
                : f == PROFILE_DATE        ? &p->date
                : f == PROFILE_SAMPLE_UNIT ? &p->sample_unit
                                           : &p->value_unit;
  hpx_free(*slot);
  *slot = copy;
  return HP2X_OK;
}

static const char *label_key(const hpx_label *l, size_t *len) {
  if (l->key) {
    *len = l->key_len;
    return l->key;
  }
  *len = l->name_len;
  return l->name;
}

long hpx_profile_find(const hp2x_profile *p, const char *key, size_t key_len) {
  if (!p->index_cap) return -1;
  uint64_t h = hpx_hash_bytes(key, key_len);
  size_t mask = p->index_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    uint32_t slot = p->label_index[i];
    if (!slot) return -1;
    const hpx_label *l = &p->labels[slot - 1];
    size_t klen;
    const char *k = label_key(l, &klen);
    if (l->hash == h && klen == key_len && memcmp(k, key, klen) == 0)
      return (long)(slot - 1);
  }
}

/* Doubles the label index (64 slots at first) and reinserts every label. */
static hp2x_status grow_label_index(hp2x_profile *p, hp2x_err *err) {
  size_t ncap = p->index_cap ? p->index_cap * 2 : 64;
  uint32_t *idx = hpx_calloc(ncap, sizeof *idx);
  if (!idx) return hpx_nomem(err);
  for (size_t id = 0; id < p->n_labels; id++) {
    size_t i = (size_t)p->labels[id].hash & (ncap - 1);
    while (idx[i]) i = (i + 1) & (ncap - 1);
    idx[i] = (uint32_t)(id + 1);
  }
  hpx_free(p->label_index);
  p->label_index = idx;
  p->index_cap = ncap;
  return HP2X_OK;
}

/* A new label: copies of its name and, when it has a separate display
 * name, its key (a LABEL_STACK label).  HP2X_E_NOMEM leaves *l empty. */
static hp2x_status make_label(const char *key, size_t key_len, const char *name,
                              size_t name_len, hpx_label *l, hp2x_err *err) {
  *l = (hpx_label){0};
  l->hash = hpx_hash_bytes(key, key_len);
  if (!name) {
    l->name = hpx_strndup(key, key_len);
    l->name_len = key_len;
    return l->name ? HP2X_OK : hpx_nomem(err);
  }
  l->name = hpx_strndup(name, name_len);
  l->name_len = name_len;
  l->key = hpx_strndup(key, key_len);
  l->key_len = key_len;
  l->kind = LABEL_STACK;
  if (!l->name || !l->key) {
    hpx_free(l->name);
    hpx_free(l->key);
    *l = (hpx_label){0};
    return hpx_nomem(err);
  }
  return HP2X_OK;
}

hp2x_status hpx_profile_intern(hp2x_profile *p, const char *key, size_t key_len,
                               const char *name, size_t name_len, uint32_t *id,
                               hp2x_err *err) {
  long found = hpx_profile_find(p, key, key_len);
  if (found >= 0) {
    *id = (uint32_t)found;
    return HP2X_OK;
  }
  if (p->n_labels >= p->max_labels)
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1, "more than %zu distinct labels",
                    p->max_labels);
  if ((p->n_labels + 1) * 2 > p->index_cap &&
      grow_label_index(p, err) != HP2X_OK)
    return err->code;
  if (hpx_grow((void **)&p->labels, &p->cap_labels, p->n_labels + 1,
               sizeof *p->labels, err) != HP2X_OK)
    return err->code;
  hpx_label l;
  if (make_label(key, key_len, name, name_len, &l, err) != HP2X_OK)
    return err->code;
  assert((p->n_labels + 1) * 2 <= p->index_cap);
  size_t newid = p->n_labels++;
  p->labels[newid] = l;
  size_t mask = p->index_cap - 1;
  size_t i = (size_t)l.hash & mask;
  while (p->label_index[i]) i = (i + 1) & mask;
  p->label_index[i] = (uint32_t)(newid + 1);
  *id = (uint32_t)newid;
  return HP2X_OK;
}

hp2x_status hpx_profile_rename_label(hp2x_profile *p, uint32_t id,
                                     const char *name, size_t len,
                                     hp2x_err *err) {
  assert(id < p->n_labels);
  hpx_label *l = &p->labels[id];
  char *copy = hpx_strndup(name, len);
  if (!copy) return hpx_nomem(err);
  if (l->key) {
    hpx_free(l->name);
  } else { /* the key's bytes are the old name's: the hash still holds */
    l->key = l->name;
    l->key_len = l->name_len;
  }
  l->name = copy;
  l->name_len = len;
  l->kind = LABEL_ADDRESS;
  return HP2X_OK;
}

hp2x_status hpx_profile_set_label_text(hp2x_profile *p, uint32_t id,
                                       const label_text *t, hp2x_err *err) {
  assert(id < p->n_labels);
  label_text copy = *t;
  if (t->detail) {
    copy.detail = hpx_strndup(t->detail, t->detail_len);
    if (!copy.detail) return hpx_nomem(err);
  }
  hpx_free(p->labels[id].text.detail);
  p->labels[id].text = copy;
  return HP2X_OK;
}

void hpx_profile_begin_sample(hp2x_profile *p, double time_s) {
  assert(!p->sample_open);
  p->sample_open = true;
  p->open_time = time_s;
}

/* The run table's most slots: 16 bytes each, 64 KiB (in a core's cache
 * while it is probed).  Half of them hold runs at most: 2,048, where the
 * stretches' -hc profiles have a few hundred.  A profile whose runs
 * seldom recur (-hT, -hd: each census's own) fills it early and then
 * stops looking runs up in it (bench/RESULTS.md 14ap). */
#define RUN_SLOTS_MOST ((size_t)1 << 12)
#define RUN_SLOTS_LEAST ((size_t)64)

/* The hash of the run of len labels at ids. */
static uint32_t run_hash(const uint32_t *ids, size_t len) {
  const uint64_t k = 0x9e3779b97f4a7c15u;
  uint64_t h = (uint64_t)len * k;
  size_t i = 0;
  for (; i + 2 <= len; i += 2) {
    h = (h ^ (ids[i] | (uint64_t)ids[i + 1] << 32)) * k;
    h ^= h >> 29;
  }
  if (i < len) h = ((h ^ ids[i]) * k) ^ (h >> 29);
  return (uint32_t)(h ^ h >> 32);
}

/* Doubles the run table (to RUN_SLOTS_LEAST from none): false when it is
 * at its most or without memory. */
static bool grow_run_slots(hp2x_profile *p) {
  size_t cap = p->cap_run_slots ? 2 * p->cap_run_slots : RUN_SLOTS_LEAST;
  if (cap > RUN_SLOTS_MOST) return false;
  hpx_run_slot *t = hpx_calloc(cap, sizeof *t);
  if (!t) return false;
  for (size_t i = 0; i < p->cap_run_slots; i++) {
    const hpx_run_slot *o = &p->run_slots[i];
    if (!o->len) continue;
    size_t j = o->hash & (cap - 1);
    while (t[j].len) j = (j + 1) & (cap - 1);
    t[j] = *o;
  }
  hpx_free(p->run_slots);
  p->run_slots = t;
  p->cap_run_slots = cap;
  return true;
}

/* Are the runs of len labels at a and b the same?  Short ones (the .hp
 * stretches' ten) compared here, long ones (an eventlog's hundreds) by
 * the C library's vector loop. */
static HPX_ALWAYS_INLINE bool same_run(const uint32_t *a, const uint32_t *b,
                                       size_t len) {
  if (len > 16) return memcmp(a, b, len * sizeof *a) == 0;
  size_t i = 0;
  for (; i + 2 <= len; i += 2) {
    uint64_t x, y;
    memcpy(&x, a + i, sizeof x);
    memcpy(&y, b + i, sizeof y);
    if (x != y) return false;
  }
  return i == len || a[i] == b[i];
}

/* The place of the table's run equal to the run of len labels at `at`,
 * else `at`, added to the table when there is room (else run_slots_full
 * set). */
static size_t table_run(hp2x_profile *p, size_t at, size_t len) {
  const uint32_t *ids = p->run_ids + at;
  uint32_t h = run_hash(ids, len);
  if (2 * (p->n_run_slots + 1) > p->cap_run_slots && !grow_run_slots(p) &&
      !p->cap_run_slots) {
    p->run_slots_full = true;
    return at;
  }
  size_t mask = p->cap_run_slots - 1, j = h & mask;
  for (; p->run_slots[j].len; j = (j + 1) & mask) {
    const hpx_run_slot *o = &p->run_slots[j];
    if (o->hash == h && o->len == len && same_run(p->run_ids + o->at, ids, len))
      return o->at;
  }
  if (2 * (p->n_run_slots + 1) <= p->cap_run_slots) {
    p->run_slots[j] = (hpx_run_slot){at, (uint32_t)len, h};
    p->n_run_slots++;
  } else {
    p->run_slots_full = true;
  }
  return at;
}

size_t hpx_profile_run_place(hp2x_profile *p, size_t at, size_t len,
                             size_t prev) {
  /* the sample before's first: most often equal where runs are long */
  if (prev != SIZE_MAX && same_run(p->run_ids + prev, p->run_ids + at, len))
    return prev;
  if (len > UINT32_MAX || !profile_is_plain(p) || p->run_slots_full) return at;
  return table_run(p, at, len);
}

/* Lets complete sample s (the one being closed) share the label run of
 * sample s - 1 when its labels are the same, in the same order, or, in a
 * plain profile, an earlier run of the same labels (the run table),
 * dropping its own copy. */
static void share_run(hp2x_profile *p, size_t s) {
  size_t len = p->n_run_ids - p->open_run, at = p->open_run;
  bool same_len = s > 0 && p->start[s] - p->start[s - 1] == len;
  /* len == 0: two empty samples share the empty run; run_ids may still
   * be NULL then, and NULL + 0 is undefined. */
  if (len == 0)
    at = same_len ? p->run_of[s - 1] : at;
  else
    at = hpx_profile_run_place(p, at, len,
                               same_len ? p->run_of[s - 1] : SIZE_MAX);
  if (at != p->open_run) {
    p->run_of[s] = at;
    p->n_run_ids = p->open_run;
  }
}

hp2x_status hpx_profile_reserve_samples(hp2x_profile *p, size_t n,
                                        hp2x_err *err) {
  size_t cap = p->cap_samples;
  if (hpx_grow((void **)&p->times, &cap, p->n_samples + n, sizeof *p->times,
               err) != HP2X_OK)
    return err->code;
  cap = p->cap_samples;
  if (hpx_grow((void **)&p->run_of, &cap, p->n_samples + n, sizeof *p->run_of,
               err) != HP2X_OK)
    return err->code;
  p->cap_samples = cap;
  return hpx_grow((void **)&p->start, &p->cap_start, p->n_samples + n + 1,
                  sizeof *p->start, err);
}

hp2x_status hpx_profile_end_sample(hp2x_profile *p, hp2x_err *err) {
  assert(p->sample_open);
  if (p->n_samples >= p->max_samples)
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1, "more than %zu samples",
                    p->max_samples);
  /* no call while there is room: a census's close is per-census work */
  if ((p->n_samples >= p->cap_samples || p->n_samples + 2 > p->cap_start) &&
      hpx_profile_reserve_samples(p, 1, err) != HP2X_OK)
    return err->code;
  size_t s = p->n_samples;
  p->run_of[s] = p->open_run;
  share_run(p, s);
  p->open_run = p->n_run_ids;
  p->times[s] = p->open_time;
  p->n_samples++;
  p->start[p->n_samples] = p->n_entries;
  p->sample_open = false;
  p->n_committed++;
  if (hpx_profile_bound_commit(p, s, err) != HP2X_OK) return err->code;
  return p->pack_values ? hpx_profile_pack(p, s, err) : HP2X_OK;
}

void hpx_profile_abort_sample(hp2x_profile *p) {
  p->n_entries = p->start[p->n_samples];
  p->n_run_ids = p->open_run;
  p->sample_open = false;
}

hp2x_status hpx_profile_add_mark(hp2x_profile *p, double time_s,
                                 const char *label, size_t len, hp2x_err *err) {
  size_t cap = p->cap_marks;
  if (hpx_grow((void **)&p->mark_time, &cap, p->n_marks + 1,
               sizeof *p->mark_time, err) != HP2X_OK)
    return err->code;
  cap = p->cap_marks;
  if (hpx_grow((void **)&p->mark_label, &cap, p->n_marks + 1,
               sizeof *p->mark_label, err) != HP2X_OK)
    return err->code;
  p->cap_marks = cap;
  char *copy = hpx_strndup(label ? label : "", label ? len : 0);
  if (!copy) return hpx_nomem(err);
  p->mark_time[p->n_marks] = time_s;
  p->mark_label[p->n_marks] = copy;
  p->n_marks++;
  hpx_profile_bound_marks(p);
  return HP2X_OK;
}

hp2x_status hpx_profile_series_add(hpx_series *s, double time_s, int64_t bytes,
                                   hp2x_err *err) {
  size_t cap = s->cap;
  if (hpx_grow((void **)&s->time_s, &cap, s->n + 1, sizeof *s->time_s, err) !=
      HP2X_OK)
    return err->code;
  cap = s->cap;
  if (hpx_grow((void **)&s->bytes, &cap, s->n + 1, sizeof *s->bytes, err) !=
      HP2X_OK)
    return err->code;
  s->cap = cap;
  s->time_s[s->n] = time_s;
  s->bytes[s->n] = bytes;
  s->n++;
  hpx_profile_bound_series(s);
  return HP2X_OK;
}

/* ------------------------------------------------------- public queries */

const char *hp2x_profile_job(const hp2x_profile *p) { return p->job; }
const char *hp2x_profile_date(const hp2x_profile *p) { return p->date; }
const char *hp2x_profile_sample_unit(const hp2x_profile *p) {
  return p->sample_unit;
}
const char *hp2x_profile_value_unit(const hp2x_profile *p) {
  return p->value_unit;
}
size_t hp2x_profile_samples_read(const hp2x_profile *p) {
  return p->n_committed;
}

size_t hp2x_profile_sample_count(const hp2x_profile *p) { return p->n_samples; }
double hp2x_profile_sample_time(const hp2x_profile *p, size_t sample) {
  return sample < p->n_samples ? p->times[sample] : 0.0;
}
int hp2x_profile_has_heap_profile(const hp2x_profile *p) {
  return p->heap_profile;
}

hp2x_breakdown hp2x_profile_breakdown(const hp2x_profile *p) {
  return (hp2x_breakdown)(p->breakdown ? p->breakdown : p->text_breakdown);
}

/* The breakdown codes of GHC's rts/include/rts/EventLogFormat.h
 * (HEAP_PROF_BREAKDOWN_*), with the +RTS flag that chooses each. */
const char *hp2x_breakdown_text(hp2x_breakdown b) {
  static const char *const text[] = {
      NULL,
      "by cost-centre stack, -hc",
      "by module, -hm",
      "by closure description, -hd",
      "by type, -hy",
      "by retainer set, -hr",
      "by biography, -hb",
      "by closure type, -hT",
      "by info table, -hi",
      "by era, -he",
  };
  return b > 0 && (size_t)b < sizeof text / sizeof *text ? text[b] : NULL;
}

size_t hp2x_profile_label_count(const hp2x_profile *p) { return p->n_labels; }
const char *hp2x_profile_label(const hp2x_profile *p, size_t label) {
  return label < p->n_labels ? p->labels[label].name : "";
}
size_t hp2x_profile_mark_count(const hp2x_profile *p) { return p->n_marks; }
size_t hp2x_profile_heap_points(const hp2x_profile *p) {
  size_t n = 0;
  for (size_t k = 0; k < HPX_N_HEAP; k++) n += p->heap[k].n;
  return n;
}
double hp2x_profile_mark_time(const hp2x_profile *p, size_t mark) {
  return mark < p->n_marks ? p->mark_time[mark] : 0.0;
}
const char *hp2x_profile_mark_label(const hp2x_profile *p, size_t mark) {
  return mark < p->n_marks ? p->mark_label[mark] : "";
}

void hp2x_profile_drop_entries(hp2x_profile *p) {
  if (!p) return;
  hpx_free(p->value32);
  hpx_free(p->value64);
  hpx_free(p->run_ids);
  p->value32 = NULL;
  p->value64 = NULL;
  p->run_ids = NULL;
  hpx_free(p->run_slots);
  p->run_slots = NULL;
  p->cap_run_slots = p->n_run_slots = 0;
  p->run_slots_full = false;
  hpx_values_free(p);
  p->n_entries = p->cap_entries = p->alloc_entries = 0;
  p->n_run_ids = p->cap_run_ids = p->open_run = 0;
  p->entries_dropped = true;
}

hp2x_status hpx_profile_require_entries(const hp2x_profile *p, hp2x_err *err) {
  if (!p->entries_dropped) return HP2X_OK;
  return hpx_fail(err, HP2X_E_ARG, 0, -1,
                  "the profile's entries were dropped after its bands were "
                  "selected");
}

int64_t hp2x_profile_value(const hp2x_profile *p, size_t sample, size_t label) {
  if (sample >= p->n_samples || p->entries_dropped) return 0;
  int64_t sum = 0;
  hpx_values r;
  hpx_values_of(p, sample, &r);
  for (size_t e = p->start[sample]; e < p->start[sample + 1]; e++) {
    int64_t v = hpx_values_next(&r);
    if (profile_entry_label(p, sample, e) == label) sum = hpx_add_sat(sum, v);
  }
  return sum;
}

const hp2x_warnings *hp2x_profile_warnings(const hp2x_profile *p) {
  return &p->warn;
}
