/* bands.c -- hp2ps's band selection, exactly:
 * the initial hash-table order, totals and trace removal, -d deviation,
 * -i names, -p aux order, the -m limit with OTHER; then the values matrix,
 * x and y ranges and the area figure.  hp2ps sorts with O(n^2) selection
 * sorts whose tie behaviour decides the order; sort_like_hp2ps reproduces
 * each one's exact permutation in O(n log n) with a segment tree.  With
 * several profiles (comparing runs, select_many.c) the same rules pick one
 * set of bands from their combined totals (hpx_bands_select_shared).
 * --include / --exclude filter labels out (label_filter.c) before the
 * selection and fold them into OTHER afterwards.
 */
#include "aux.h"
#include "bands_int.h"
#include "breakdown.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------ the selection sort */

/* Keys of one sort; entries are label ids, compared through `kind`. */
typedef enum { KEY_INT, KEY_DOUBLE, KEY_NAME_ASC, KEY_NAME_DESC } key_kind;

typedef struct sorter {
  key_kind kind;
  const int64_t *ikey;     /* by label id */
  const double *dkey;      /* by label id */
  const hpx_label *labels; /* for names */
  uint32_t *item;          /* current order: item[pos] = label id */
  size_t n;
  uint32_t *tree; /* segment tree of positions; owned */
  size_t leaves;  /* power of two >= n */
} sorter;

/* Is the key at position a strictly "smaller" (picked first) than at b? */
static int before(const sorter *s, size_t a, size_t b) {
  uint32_t x = s->item[a], y = s->item[b];
  switch (s->kind) {
  case KEY_INT: return s->ikey[x] < s->ikey[y];
  case KEY_DOUBLE: return s->dkey[x] < s->dkey[y];
  case KEY_NAME_ASC:
  case KEY_NAME_DESC: {
    const hpx_label *lx = &s->labels[x], *ly = &s->labels[y];
    size_t n = lx->name_len < ly->name_len ? lx->name_len : ly->name_len;
    int c = memcmp(lx->name, ly->name, n);
    if (c == 0)
      c = (lx->name_len > ly->name_len) - (lx->name_len < ly->name_len);
    return s->kind == KEY_NAME_ASC ? c < 0 : c > 0;
  }
  }
  return 0;
}

#define NONE UINT32_MAX

/* The winner of two positions: the smaller key, the lower position on a
 * tie -- "the first index with the strictly smallest key". */
static uint32_t pick(const sorter *s, uint32_t a, uint32_t b) {
  if (a == NONE) return b;
  if (b == NONE) return a;
  if (before(s, b, a)) return b;
  if (before(s, a, b)) return a;
  return a < b ? a : b;
}

static void tree_set(sorter *s, size_t pos, uint32_t v) {
  size_t i = s->leaves + pos;
  s->tree[i] = v;
  for (i /= 2; i >= 1; i /= 2)
    s->tree[i] = pick(s, s->tree[2 * i], s->tree[2 * i + 1]);
}

/* Replays hp2ps's selection sort on s->item: for i = 0..n-2, swap i with
 * the first position m >= i holding the strictly smallest key.  Position
 * i's leaf is retired after step i, so the root is always the answer for
 * [i, n).  NaN keys (only -d with one sample) compare false both ways; the
 * literal sort is then run, except when every key is NaN (no swaps). */
static hp2x_status sort_like_hp2ps(sorter *s, hp2x_err *err) {
  size_t n = s->n;
  if (n < 2) return HP2X_OK;
  if (s->kind == KEY_DOUBLE) {
    size_t nans = 0;
    for (size_t i = 0; i < n; i++) nans += isnan(s->dkey[s->item[i]]) != 0;
    if (nans == n) return HP2X_OK;
    if (nans) {
      for (size_t i = 0; i + 1 < n; i++) {
        size_t m = i;
        for (size_t j = i + 1; j < n; j++)
          if (before(s, j, m)) m = j;
        uint32_t t = s->item[i];
        s->item[i] = s->item[m];
        s->item[m] = t;
      }
      return HP2X_OK;
    }
  }
  s->leaves = 1;
  while (s->leaves < n) s->leaves *= 2;
  s->tree = hpx_malloc(2 * s->leaves * sizeof *s->tree);
  if (!s->tree) return hpx_nomem(err);
  for (size_t i = 0; i < s->leaves; i++)
    s->tree[s->leaves + i] = i < n ? (uint32_t)i : NONE;
  for (size_t i = s->leaves - 1; i >= 1; i--)
    s->tree[i] = pick(s, s->tree[2 * i], s->tree[2 * i + 1]);
  for (size_t i = 0; i + 1 < n; i++) {
    size_t m = s->tree[1];
    if (m != i) {
      uint32_t t = s->item[i];
      s->item[i] = s->item[m];
      s->item[m] = t;
      tree_set(s, m, (uint32_t)m); /* its key changed: recompute */
    }
    tree_set(s, i, NONE);
  }
  hpx_free(s->tree);
  s->tree = NULL;
  return HP2X_OK;
}

/* ------------------------------------------------------- the pipeline */

/* hp2ps's identifier hash: r = 3r + c over signed chars, 32-bit
 * wrap-around, then |r| mod 513. */
static unsigned hp2ps_bucket(const char *name, size_t len) {
  uint32_t r = 0;
  for (size_t i = 0; i < len; i++)
    r = 3u * r + (uint32_t)(int32_t)(signed char)name[i];
  int32_t sr = (int32_t)r;
  uint32_t a = sr < 0 ? (uint32_t)0 - (uint32_t)sr : (uint32_t)sr;
  return a % 513u;
}

static void bands_release(hp2x_bands *b) {
  if (!b) return;
  for (size_t i = 0; b->names && i < b->n_bands; i++) hpx_free(b->names[i]);
  hpx_free(b->names);
  for (size_t i = 0; b->texts && i < b->n_bands; i++)
    hpx_free(b->texts[i].detail);
  hpx_free(b->texts);
  hpx_free(b->values);
  hpx_free(b->shades);
  hpx_free(b);
}

void hp2x_bands_free(hp2x_bands *b) { bands_release(b); }

typedef struct work {
  int64_t *total;  /* by label id */
  double *dkey;    /* by label id (-d) */
  int64_t *okey;   /* by label id (-p) */
  uint32_t *order; /* label ids, bottom first */
  size_t n;
  unsigned *bucket;        /* by label id */
  unsigned char *filtered; /* by label id: 1 = filtered out (to OTHER);
                              NULL when no filter is given */
  int any_filtered;        /* some filtered-out label has data */
} work;

static void work_free(work *w) {
  hpx_free(w->total);
  hpx_free(w->dkey);
  hpx_free(w->okey);
  hpx_free(w->order);
  hpx_free(w->bucket);
  hpx_free(w->filtered);
}

/* The labels that have data in complete samples, in hp2ps's hash-table
 * walk order: bucket 0..512, newest identifier first within a bucket. */
static hp2x_status make_initial_order(const hp2x_profile *p, work *w,
                                      hp2x_err *err) {
  size_t nl = p->n_labels;
  w->total = hpx_calloc(nl ? nl : 1, sizeof *w->total);
  unsigned char *present = hpx_calloc(nl ? nl : 1, 1);
  w->bucket = hpx_malloc((nl ? nl : 1) * sizeof *w->bucket);
  w->order = hpx_malloc((nl ? nl : 1) * sizeof *w->order);
  size_t *count = hpx_calloc(514, sizeof *count);
  if (!w->total || !present || !w->bucket || !w->order || !count) {
    hpx_free(present);
    hpx_free(count);
    return hpx_nomem(err);
  }
  for (size_t id = 0; id < nl; id++) {
    w->total[id] = p->labels[id].sums.total;
    present[id] = label_present(&p->labels[id].sums);
  }
  for (size_t id = 0; id < nl; id++) {
    if (!present[id]) continue;
    if (w->filtered && w->filtered[id]) { /* to OTHER, not selected */
      present[id] = 0;
      w->any_filtered = 1;
      continue;
    }
    w->bucket[id] = hp2ps_bucket(p->labels[id].name, p->labels[id].name_len);
    count[w->bucket[id] + 1]++;
  }
  for (size_t b = 1; b < 514; b++) count[b] += count[b - 1];
  w->n = count[513];
  for (size_t id = nl; id-- > 0;)
    if (present[id]) w->order[count[w->bucket[id]]++] = (uint32_t)id;
  hpx_free(present);
  hpx_free(count);
  return HP2X_OK;
}

static hp2x_status run_sort(const hp2x_profile *p, work *w, key_kind kind,
                            const int64_t *ikey, const double *dkey,
                            hp2x_err *err) {
  sorter s = {kind, ikey, dkey, p->labels, w->order, w->n, NULL, 0};
  return sort_like_hp2ps(&s, err);
}

/* 4.1: drop the smallest bands while together below the threshold. */
static void trace_removal(work *w, double threshold) {
  double grand = 0.0;
  for (size_t i = 0; i < w->n; i++) grand += (double)w->total[w->order[i]];
  double cum = 0.0;
  size_t i = 0;
  for (; i < w->n; i++) {
    cum += 100.0 * (double)w->total[w->order[i]] / grand;
    if (cum >= threshold) break;
  }
  memmove(w->order, w->order + i, (w->n - i) * sizeof *w->order);
  w->n -= i;
}

/* 4.2: hp2ps's "standard deviation": only the label's own data points,
 * mean over all N samples (those the labels' sums cover: every one, or
 * those of the --last window), divided by N - 1.  A thinned profile no longer
 * holds every value: its labels' sums give the same figure, to rounding
 * (sum (v - m)^2 = sum v^2 - 2 m sum v + entries m^2). */
static hp2x_status deviations(const hp2x_profile *p, work *w, hp2x_err *err) {
  size_t nl = p->n_labels, N = p->bound.summed;
  w->dkey = hpx_calloc(nl ? nl : 1, sizeof *w->dkey);
  double *mean = hpx_malloc((nl ? nl : 1) * sizeof *mean);
  if (!w->dkey || !mean) {
    hpx_free(mean);
    return hpx_nomem(err);
  }
  for (size_t id = 0; id < nl; id++)
    mean[id] = (double)w->total[id] / (double)N;
  for (size_t id = 0; p->bound.thinned && id < nl; id++) {
    const label_sums *l = &p->labels[id].sums;
    long double m = mean[id], sq = l->sum_sq - 2.0L * m * l->sum +
                                   (long double)l->entries * m * m;
    w->dkey[id] = sq > 0.0L ? (double)sq : 0.0;
  }
  for (size_t s = 0; !p->bound.thinned && s < p->n_samples; s++) {
    if (p->start[s + 1] == p->start[s]) continue; /* run_ids may be NULL */
    const uint32_t *lab = p->run_ids + p->run_of[s];
    hpx_values r;
    hpx_values_of(p, s, &r);
    for (size_t i = 0, n = p->start[s + 1] - p->start[s]; i < n; i++) {
      double d = (double)hpx_values_next(&r) - mean[lab[i]];
      w->dkey[lab[i]] += d * d;
    }
  }
  for (size_t id = 0; id < nl; id++)
    w->dkey[id] = sqrt(w->dkey[id] / ((double)N - 1.0));
  hpx_free(mean);
  return HP2X_OK;
}

hp2x_status hpx_bands_set_text(hp2x_bands *b, size_t k, const label_text *t,
                               hp2x_err *err) {
  assert(k < b->n_bands);
  if (!t->detail && !t->keep_head && !t->keep_tail) return HP2X_OK;
  if (!b->texts) {
    b->texts = hpx_calloc(b->n_bands, sizeof *b->texts);
    if (!b->texts) return hpx_nomem(err);
  }
  label_text copy = *t;
  if (t->detail && !(copy.detail = hpx_strndup(t->detail, t->detail_len)))
    return hpx_nomem(err);
  hpx_free(b->texts[k].detail);
  b->texts[k] = copy;
  return HP2X_OK;
}

/* The plan of the bands from the order w over the labels of `names`:
 * b's n_bands, is_other, names and shades, and band_of[id] (the band of
 * each label of `names`, -1 for none). */
static hp2x_status assign_bands(const hp2x_profile *names,
                                const hp2x_options *o, work *w, hp2x_bands *b,
                                int32_t *band_of, hp2x_err *err) {
  size_t n = w->n;
  size_t first = 0; /* first position kept as its own band */
  int other = 0;
  if (w->any_filtered) {
    /* The filtered labels' OTHER is one of the -m bands. */
    other = 1;
    if (o->max_bands > 0 && n > (size_t)o->max_bands - 1)
      first = n - ((size_t)o->max_bands - 1);
  } else if (o->max_bands > 0 && n > (size_t)o->max_bands) {
    other = 1;
    first = n - (size_t)o->max_bands + 1;
  }
  b->n_bands = n - first + (size_t)other;
  b->is_other = other;
  b->breakdown = hpx_breakdown_arranging(names); /* -m kept, then */
  hpx_breakdown_order(names, b->breakdown, o, w->order + first, n - first);
  size_t nb = b->n_bands ? b->n_bands : 1;
  b->names = hpx_calloc(nb, sizeof *b->names);
  b->shades = hpx_malloc(nb * sizeof *b->shades);
  if (!b->names || !b->shades) return hpx_nomem(err);
  for (size_t id = 0; id < names->n_labels; id++)
    band_of[id] = w->filtered && w->filtered[id] ? 0 : -1;
  for (size_t k = 0; k < n; k++)
    band_of[w->order[k]] = k < first ? 0 : (int32_t)(k - first + (size_t)other);
  for (size_t k = 0; k < b->n_bands; k++) {
    const char *name = w->any_filtered ? "OTHER (incl. filtered)" : "OTHER";
    size_t len = strlen(name);
    if (!(other && k == 0)) {
      const hpx_label *l = &names->labels[w->order[k + first - (size_t)other]];
      name = l->name;
      len = l->name_len;
      if (hpx_bands_set_text(b, k, &l->text, err) != HP2X_OK) return err->code;
    }
    b->names[k] = hpx_strndup(name, len);
    if (!b->names[k]) return hpx_nomem(err);
    b->shades[k] = hpx_aux_shade(o->aux, name, len);
  }
  return HP2X_OK;
}

void hpx_bands_set_ranges(hp2x_bands *b, const hp2x_profile *p,
                          const hp2x_options *o, const bands_heights *h) {
  size_t N = b->n_samples;
  double ymax = h->ymax;
  if (o->heap_overlay && N) {
    /* --heap: the lines share the y axis, so it must hold them too (the
     * points within the samples' span: those are drawn). */
    for (size_t k = 0; k < HPX_N_HEAP; k++)
      for (size_t i = 0; i < p->heap[k].n; i++) {
        const hpx_series *s = &p->heap[k];
        double t = s->time_s[i], v = (double)s->bytes[i];
        if (t >= p->times[0] && t <= p->times[N - 1] && v > ymax) ymax = v;
      }
  }
  double xr = N ? p->times[N - 1] - p->times[0] : 0.0;
  if (hpx_aux_x_range(o->aux) > xr) xr = hpx_aux_x_range(o->aux);
  if (hpx_aux_y_range(o->aux) > ymax) ymax = hpx_aux_y_range(o->aux);
  b->x0 = N ? p->times[0] : 0.0;
  b->xrange = xr == 0.0 ? 1.0 : xr;
  b->yrange = ymax == 0.0 ? 1.0 : ymax;
  b->area = h->area;
}

/* Makes the bands of `p` from the order w over the labels of `names`
 * (the same profile, or with several inputs the combined one; then
 * to_names maps p's label ids to names's, and NULL means the identity). */
static hp2x_status build(const hp2x_profile *names, const uint32_t *to_names,
                         const hp2x_profile *p, const hp2x_options *o, work *w,
                         hp2x_bands *b, hp2x_err *err) {
  size_t N = p->n_samples;
  int32_t *band_of =
      hpx_malloc((names->n_labels ? names->n_labels : 1) * sizeof *band_of);
  if (!band_of) return hpx_nomem(err);
  if (assign_bands(names, o, w, b, band_of, err) != HP2X_OK) {
    hpx_free(band_of);
    return err->code;
  }
  size_t nb = b->n_bands ? b->n_bands : 1;
  b->n_samples = N;
  b->stride = N;
  b->values = hpx_calloc(nb * (N ? N : 1), sizeof *b->values);
  if (!b->values) {
    hpx_free(band_of);
    return hpx_nomem(err);
  }
  bands_heights h = {0.0, 0.0, 0.0};
  hpx_bands_fill_all(b, band_of, to_names, p, o->threads, &h);
  if (p->bound.thinned) h.area = hpx_bands_label_area(p, band_of, to_names);
  hpx_free(band_of);
  hpx_bands_set_ranges(b, p, o, &h);
  return HP2X_OK;
}

hp2x_status hpx_bands_check_options(const hp2x_options *o, hp2x_err *err) {
  if (!(o->trace_pct >= 0.0 && o->trace_pct <= 5.0))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "trace threshold %g%% is outside 0..5", o->trace_pct);
  if (o->max_bands < 0)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "band limit %d is negative",
                    o->max_bands);
  return HP2X_OK;
}

/* hp2ps's order of the labels of p: trace removal, -d, -i, -p. */
static hp2x_status select_order(const hp2x_profile *p, const hp2x_options *o,
                                work *w, hp2x_err *err) {
  hp2x_status st = hpx_labels_filter(p, o, &w->filtered, err);
  if (st == HP2X_OK) st = make_initial_order(p, w, err);
  if (st == HP2X_OK) st = run_sort(p, w, KEY_INT, w->total, NULL, err);
  if (st == HP2X_OK) trace_removal(w, o->trace_pct);
  if (st == HP2X_OK && o->sort == HP2X_SORT_STDDEV) {
    st = deviations(p, w, err);
    if (st == HP2X_OK) st = run_sort(p, w, KEY_DOUBLE, NULL, w->dkey, err);
  }
  if (st == HP2X_OK && o->name_order != HP2X_NAME_ORDER_NONE)
    st = run_sort(p, w,
                  o->name_order == HP2X_NAME_ORDER_ASCENDING ? KEY_NAME_ASC
                                                             : KEY_NAME_DESC,
                  NULL, NULL, err);
  if (st == HP2X_OK && o->aux) {
    w->okey = hpx_calloc(p->n_labels ? p->n_labels : 1, sizeof *w->okey);
    if (!w->okey) st = hpx_nomem(err);
    for (size_t k = 0; st == HP2X_OK && k < w->n; k++) {
      const hpx_label *l = &p->labels[w->order[k]];
      w->okey[w->order[k]] = hpx_aux_order(o->aux, l->name, l->name_len);
    }
    if (st == HP2X_OK) st = run_sort(p, w, KEY_INT, w->okey, NULL, err);
  }
  return st;
}

hp2x_status hp2x_bands_select(const hp2x_profile *p, const hp2x_options *given,
                              hp2x_bands **out, hp2x_err *err) {
  *out = NULL;
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (hpx_bands_check_options(o, err) != HP2X_OK ||
      hpx_profile_require_entries(p, err) != HP2X_OK)
    return err->code;
  work w;
  memset(&w, 0, sizeof w);
  hp2x_status st = select_order(p, o, &w, err);
  hp2x_bands *b = NULL;
  if (st == HP2X_OK) {
    b = hpx_calloc(1, sizeof *b);
    if (!b) st = hpx_nomem(err);
  }
  if (st == HP2X_OK) st = build(p, NULL, p, o, &w, b, err);
  work_free(&w);
  if (st != HP2X_OK) {
    bands_release(b);
    return st;
  }
  *out = b;
  return HP2X_OK;
}

hp2x_status hpx_bands_plan(const hp2x_profile *p, const hp2x_options *o,
                           hp2x_bands *b, int32_t *band_of, hp2x_err *err) {
  work w;
  memset(&w, 0, sizeof w);
  hp2x_status st = select_order(p, o, &w, err);
  if (st == HP2X_OK) st = assign_bands(p, o, &w, b, band_of, err);
  work_free(&w);
  return st;
}

int64_t hpx_bands_round(double v) {
  if (!(v > -9.2e18)) return v != v ? 0 : -INT64_MAX; /* NaN: 0 */
  if (!(v < 9.2e18)) return INT64_MAX;
  return (int64_t)llround(v);
}

hp2x_status hpx_bands_select_shared(const hp2x_profile *names,
                                    uint32_t *const *to_names,
                                    const hp2x_profile *const *ps, size_t n,
                                    const hp2x_options *o, hp2x_bands **out,
                                    hp2x_err *err) {
  work w;
  memset(&w, 0, sizeof w);
  hp2x_status st = select_order(names, o, &w, err);
  for (size_t i = 0; i < n && st == HP2X_OK; i++) {
    out[i] = hpx_calloc(1, sizeof *out[i]);
    if (!out[i]) st = hpx_nomem(err);
    if (st == HP2X_OK)
      st = build(names, to_names[i], ps[i], o, &w, out[i], err);
  }
  work_free(&w);
  return st;
}

size_t hp2x_bands_count(const hp2x_bands *b) { return b->n_bands; }
const char *hp2x_bands_name(const hp2x_bands *b, size_t band) {
  return band < b->n_bands ? b->names[band] : "";
}

const char *hp2x_bands_detail(const hp2x_bands *b, size_t band) {
  return band < b->n_bands && b->texts ? b->texts[band].detail : NULL;
}
int64_t hp2x_bands_value(const hp2x_bands *b, size_t band, size_t sample) {
  if (band >= b->n_bands || sample >= b->n_samples) return 0;
  return b->values[band * b->stride + sample];
}
size_t hp2x_bands_sample_count(const hp2x_bands *b) { return b->n_samples; }
