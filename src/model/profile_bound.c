/* profile_bound.c -- what a profile keeps so that its memory is bounded by
 * the picture drawn from it, not by the length of the run: each label's
 * sums over every sample (what band selection, -d and the area figure
 * need), and, for a profile bounded by a picture of C device columns, the
 * samples thinned by time buckets at most a device column wide (the first
 * and the last sample, and per bucket the samples of the largest and the
 * smallest total), the heap series the same way by value, the marks to the
 * first per bucket.  Thinning happens at fixed counts of samples, so the
 * samples kept depend only on the samples read, never on how the bytes
 * arrived.
 */
#include "model.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Buckets: fewer than 3/2 per device column of the frame, so narrower
 * than a device column of the graph (at most 83 % of the frame's width):
 * a thinning leaves at most 3 C + 2 samples.  A bounded profile thins
 * when it holds 4 C samples (never before: a profile with fewer is drawn
 * exactly as an unbounded one), and again whenever C more have come. */
#define BUCKETS_PER_COLUMN 1.5
#define FIRST_THIN_COLUMNS 4

void hpx_profile_bound_set(hp2x_profile *p, size_t columns) {
  series_bound b = {columns,   columns * FIRST_THIN_COLUMNS,
                    INFINITY,  -INFINITY,
                    -INFINITY, 0.0};
  p->bound.samples = b;
  p->bound.marks = b;
  for (size_t k = 0; k < HPX_N_HEAP; k++) p->heap[k].bound = b;
}

static void bound_see(series_bound *b, double t) {
  if (t < b->t_min) b->t_min = t;
  if (t > b->t_max) b->t_max = t;
}

/* ---------------------------------------------------------- buckets */

/* Time buckets: [t_min + i w, t_min + (i + 1) w), w a power of two, so a
 * bucket of width 2w is exactly two of width w. */
typedef struct buckets {
  double t_min, w;
} buckets;

static double bucket_of(const buckets *k, double t) {
  return floor((t - k->t_min) / k->w);
}

/* The number of runs of consecutive points in one bucket. */
static size_t count_runs(const buckets *k, const double *t, size_t n) {
  size_t runs = 0;
  double prev = 0.0;
  for (size_t i = 0; i < n; i++) {
    double q = bucket_of(k, t[i]);
    if (i == 0 || q != prev) runs++;
    prev = q;
  }
  return runs;
}

/* The narrowest buckets (a power of two seconds wide) that split b's span
 * into fewer than BUCKETS_PER_COLUMN per column, widened until the points
 * fall in at most that many runs (times that go back can split a bucket
 * into several). */
static buckets choose_buckets(const series_bound *b, const double *t,
                              size_t n) {
  /* --last: buckets split the span, counted from time 0 */
  buckets k = {b->span > 0.0 ? 0.0 : b->t_min, INFINITY};
  double span = b->span > 0.0 ? b->span : b->t_max - b->t_min,
         most = BUCKETS_PER_COLUMN * (double)b->columns;
  if (span > 0.0 && isfinite(span)) {
    int e;
    frexp(span / most, &e);
    k.w = ldexp(1.0, e);
    while (k.w > 0.0 && span / (k.w / 2.0) < most) k.w /= 2.0;
    while (!(span / k.w < most)) k.w *= 2.0;
  }
  while (isfinite(k.w) && !((double)count_runs(&k, t, n) < most)) k.w *= 2.0;
  return k;
}

/* Moves point `from` to `to` (to <= from; every earlier point is placed). */
typedef void (*move_fn)(void *ctx, size_t to, size_t from);

/* Keeps, of points [0, n) with times t and keys key (NULL: keep only each
 * run's first), those from time `from` on: with buckets k, the first, the
 * last, and in each run of one bucket the first of the largest and the
 * first of the smallest key; without (NULL), all.  Moves them down in
 * order; returns how many are kept. */
static size_t thin_points(const buckets *k, double from, const double *t,
                          const int64_t *key, size_t n, move_fn move,
                          void *ctx) {
  size_t kept = 0, first = 0;
  while (first < n && t[first] < from) first++;
  for (size_t i = first; !k && i < n; i++)
    if (!(t[i] < from)) move(ctx, kept++, i);
  for (size_t r0 = first, r1; k && r0 < n; r0 = r1) {
    if (t[r0] < from) { /* older than the span (times went back) */
      r1 = r0 + 1;
      continue;
    }
    double q = bucket_of(k, t[r0]);
    size_t hi = r0, lo = r0;
    for (r1 = r0 + 1; r1 < n && !(t[r1] < from) && bucket_of(k, t[r1]) == q;
         r1++)
      if (key) {
        if (key[r1] > key[hi]) hi = r1;
        if (key[r1] < key[lo]) lo = r1;
      }
    size_t pick[4], np = 0; /* in order: the first point, the run's
                               extremes, the last point */
    if (r0 == first) pick[np++] = first;
    pick[np++] = hi < lo ? hi : lo;
    pick[np++] = hi < lo ? lo : hi;
    if (r1 == n) pick[np++] = n - 1;
    for (size_t i = 0; i < np; i++)
      if (i == 0 || pick[i] != pick[i - 1]) move(ctx, kept++, pick[i]);
  }
  return kept;
}

/* ---------------------------------------------------------- samples */

typedef struct sample_mover {
  hp2x_profile *p;
  size_t entries;  /* entries placed */
  size_t run_ids;  /* run_ids slots placed */
  size_t last_run; /* the source run of the last sample placed */
  size_t last_len; /* ... and its length */
  bool dense;      /* a dense sample was placed: the canonical run is
                      written after every other run is moved (dense
                      samples point far back at it; moving runs down
                      before it may cover where it was) */
} sample_mover;

/* A dense sample's run until the canonical run has its new place. */
#define CANONICAL_PENDING SIZE_MAX

/* Moves complete sample `from` down to `to`: its time, total, values and
 * label run (shared with the sample placed before it when they shared one
 * before). */
static void move_sample(void *ctx, size_t to, size_t from) {
  sample_mover *m = ctx;
  hp2x_profile *p = m->p;
  size_t e0 = p->start[from], len = p->start[from + 1] - e0;
  size_t run = p->run_of[from];
  assert(p->value_base == 0); /* a bounded profile packs nothing */
  if (len) {
    if (p->wide_values)
      memmove(p->value64 + m->entries, p->value64 + e0,
              len * sizeof *p->value64);
    else
      memmove(p->value32 + m->entries, p->value32 + e0,
              len * sizeof *p->value32);
  }
  if (p->bound.canon_len && run == p->bound.canon_run) {
    p->run_of[to] = CANONICAL_PENDING; /* dense: placed at the end */
    m->dense = true;
  } else if (to > 0 && run == m->last_run && len == m->last_len) {
    p->run_of[to] = p->run_of[to - 1];
  } else {
    if (len)
      memmove(p->run_ids + m->run_ids, p->run_ids + run,
              len * sizeof *p->run_ids);
    p->run_of[to] = m->run_ids;
    m->run_ids += len;
  }
  m->last_run = run;
  m->last_len = len;
  p->times[to] = p->times[from];
  p->bound.sample_total[to] = p->bound.sample_total[from];
  p->start[to] = m->entries;
  m->entries += len;
}

/* Drops the samples older than the --last span and, for a bounded
 * profile, thins the rest. */
static void thin_samples(hp2x_profile *p) {
  series_bound *b = &p->bound.samples;
  buckets k = {0.0, 0.0};
  if (b->columns) k = choose_buckets(b, p->times, p->n_samples);
  sample_mover m = {p, 0, 0, 0, 0, false};
  size_t n = thin_points(b->columns ? &k : NULL, hpx_recent_from(p), p->times,
                         p->bound.sample_total, p->n_samples, move_sample, &m);
  if (n < p->n_samples) {
    p->bound.thinned = true;
    p->bound.generation++;
  }
  if (m.dense) { /* the ids 0, 1, ... after the other runs (there is room: they
                    and the canonical run were there before) */
    for (size_t i = 0; i < p->bound.canon_len; i++)
      p->run_ids[m.run_ids + i] = (uint32_t)i;
    for (size_t j = 0; j < n; j++)
      if (p->run_of[j] == CANONICAL_PENDING) p->run_of[j] = m.run_ids;
    p->bound.canon_run = m.run_ids;
    m.run_ids += p->bound.canon_len;
  } else {
    p->bound.canon_len = 0; /* no dense sample kept */
  }
  p->n_samples = n;
  p->start[n] = m.entries;
  p->n_entries = m.entries;
  p->n_run_ids = m.run_ids;
  p->open_run = m.run_ids;
  b->thin_at = b->columns ? n + b->columns : 2 * n + 64;
}

/* Adds value v to l (all: the -d sums too). */
static void sums_add(label_sums *l, int64_t v, bool all) {
  l->total = hpx_add_sat(l->total, v);
  l->entries++;
  if (!all) return;
  l->sum += (long double)v;
  l->sum_sq += (long double)v * (long double)v;
}

/* hpx_add_sat(a, v) for a value v >= 0: no branch needed (an add and a
 * conditional move on its overflow where the compiler tells it). */
static HPX_ALWAYS_INLINE int64_t add_sat_up(int64_t a, int64_t v) {
#if defined(__GNUC__)
  int64_t sum;
  return __builtin_add_overflow(a, v, &sum) ? INT64_MAX : sum;
#else
  return a > INT64_MAX - v ? INT64_MAX : a + v;
#endif
}

/* add_totals32's loop: the labels' sums of entries [e0, e0 + n) of a
 * sample whose run starts at r0, and the sample's total when with_total. */
static HPX_ALWAYS_INLINE int64_t add_totals32_as(hp2x_profile *p, size_t e0,
                                                 size_t n, size_t r0,
                                                 const bool with_total) {
  const uint32_t *ids = p->run_ids;
  const uint32_t *v32 = p->value32; /* the tail: s is not packed yet */
  e0 -= p->value_base;
  unsigned shift = p->value_shift;
  hpx_label *labels = p->labels;
  int64_t total = 0;
  for (size_t i = 0; i < n; i++) {
    int64_t v = (int64_t)((uint64_t)v32[e0 + i] << shift);
    label_sums *l = &labels[ids[r0 + i]].sums;
    if (with_total) total = add_sat_up(total, v);
    l->total = add_sat_up(l->total, v);
    l->entries++;
  }
  return total;
}

/* add_sums for a profile neither bounded nor --last, its values in 32
 * bits: each label's total, presence and entry count, and the sample's
 * total when it is kept; as the general loop adds them, with what it
 * reads per entry held in locals. */
static HPX_ALWAYS_INLINE void add_totals32(hp2x_profile *p, size_t s) {
  size_t e0 = p->start[s], n = p->start[s + 1] - e0;
  size_t r0 = p->run_of[s]; /* indexed, not offset: both may be NULL */
  if (p->bound.sample_total)
    p->bound.sample_total[s] = add_totals32_as(p, e0, n, r0, true);
  else
    (void)add_totals32_as(p, e0, n, r0, false);
  p->bound.summed++;
}

/* Adds sample s's entries to its labels' sums (and, with --last, to its
 * span slot's, unless it is older than the span); for a bounded or
 * --last profile also their -d sums and their area: the step from the
 * sample before s to s, a trapezoid, counts where that sample does (with
 * --last: not at all when it has left the span); and s's total. */
static void add_sums(hp2x_profile *p, size_t s, label_sums *slot) {
  bool all = p->bound.samples.columns > 0 || p->recent.last_s > 0.0;
  bool recent_only = p->recent.last_s > 0.0;
  if (!all && !slot && !p->wide_values) {
    add_totals32(p, s);
    return;
  }
  int64_t total = 0;
  for (size_t e = p->start[s]; e < p->start[s + 1] && (slot || !recent_only);
       e++) {
    uint32_t id = profile_entry_label(p, s, e);
    int64_t v = profile_tail_value(p, e);
    total = hpx_add_sat(total, v);
    sums_add(&p->labels[id].sums, v, all);
    if (slot) sums_add(&slot[id], v, all);
  }
  if (slot || !recent_only) p->bound.summed++;
  if (p->bound.sample_total) p->bound.sample_total[s] = total;
  if (!all || s == 0) return;
  label_sums *step = recent_only ? hpx_recent_slot(p, p->times[s - 1]) : NULL;
  if (recent_only && !step) return;
  double half = (p->times[s] - p->times[s - 1]) / 2.0;
  assert(p->n_packed_samples == 0); /* bounded or --last: nothing packs */
  for (size_t k = s - 1; k <= s; k++)
    for (size_t e = p->start[k]; e < p->start[k + 1]; e++) {
      uint32_t id = profile_entry_label(p, k, e);
      double a = (double)profile_tail_value(p, e) * half;
      p->labels[id].sums.area += a;
      if (step) step[id].area += a;
    }
}

/* The canonical run (profile_bound.h), at least n long: a new one, of
 * twice the length, at the end of the runs when it is shorter. */
static hp2x_status canonical_run(hp2x_profile *p, size_t n, hp2x_err *err) {
  profile_bound *b = &p->bound;
  if (b->canon_len >= n) return HP2X_OK;
  size_t len = n > 2 * b->canon_len ? n : 2 * b->canon_len;
  if (len > UINT32_MAX) return hpx_nomem(err);
  if (hpx_grow((void **)&p->run_ids, &p->cap_run_ids, p->n_run_ids + len,
               sizeof *p->run_ids, err) != HP2X_OK)
    return err->code;
  b->canon_run = p->n_run_ids;
  b->canon_len = len;
  for (size_t i = 0; i < len; i++) p->run_ids[p->n_run_ids++] = (uint32_t)i;
  p->open_run = p->n_run_ids;
  return HP2X_OK;
}

/* Stores sample s (the newest: its entries and its label run are the
 * last) dense (profile_bound.h) when the profile has been thinned, s has
 * a run of its own and holds more than half of the labels: samples kept
 * far apart rarely have the same labels, and then a run costs as much as
 * the values; dense samples share one.  Its sums are taken already. */
static hp2x_status densify(hp2x_profile *p, size_t s, hp2x_err *err) {
  size_t e0 = p->start[s], n = p->start[s + 1] - e0, L = p->n_labels;
  size_t run = p->run_of[s];
  bool own_run = run + n == p->n_run_ids && n > 0 &&
                 (s == 0 || p->run_of[s - 1] != run);
  if (!p->bound.thinned || !own_run || 2 * n <= L ||
      (p->bound.canon_len && run == p->bound.canon_run))
    return HP2X_OK;
  if (hpx_grow((void **)&p->bound.row, &p->bound.cap_row, L,
               sizeof *p->bound.row, err) != HP2X_OK)
    return err->code;
  int64_t *row = p->bound.row;
  memset(row, 0, L * sizeof *row);
  for (size_t e = e0; e < e0 + n; e++) {
    uint32_t id = p->run_ids[run + (e - e0)];
    row[id] = hpx_add_sat(row[id], profile_tail_value(p, e));
  }
  p->n_run_ids = p->open_run = run; /* its own run goes */
  if (canonical_run(p, L, err) != HP2X_OK) return err->code;
  p->n_entries = e0;
  for (size_t id = 0; id < L; id++)
    if (hpx_profile_put_value(p, row[id], err) != HP2X_OK) return err->code;
  p->start[s + 1] = p->n_entries;
  p->run_of[s] = p->bound.canon_run;
  return HP2X_OK;
}

/* hpx_profile_bound_commit for a bounded or --last profile, or one whose
 * values are 64 bits wide. */
static HPX_NOINLINE hp2x_status commit_bounded(hp2x_profile *p, size_t s,
                                               hp2x_err *err) {
  series_bound *b = &p->bound.samples;
  if ((b->columns || p->recent.last_s > 0.0) &&
      hpx_grow((void **)&p->bound.sample_total, &p->bound.cap_total, s + 1,
               sizeof *p->bound.sample_total, err) != HP2X_OK)
    return err->code;
  label_sums *slot = NULL;
  if (hpx_recent_enter(p, s, &slot, err) != HP2X_OK) return err->code;
  add_sums(p, s, slot);
  if (!b->columns && !(p->recent.last_s > 0.0)) return HP2X_OK;
  if (densify(p, s, err) != HP2X_OK) return err->code;
  bound_see(b, p->times[s]);
  double from = hpx_recent_from(p);
  if (p->n_samples >= b->thin_at || p->times[0] < from) thin_samples(p);
  /* the heap series and marks leave the span with the samples */
  for (size_t k = 0; k < HPX_N_HEAP; k++) p->heap[k].bound.from = from;
  p->bound.marks.from = from;
  return HP2X_OK;
}

hp2x_status hpx_profile_bound_commit(hp2x_profile *p, size_t s, hp2x_err *err) {
  if (p->bound.no_sums) return HP2X_OK;
  /* the common profile, neither bounded nor --last, its values in 32 bits:
   * the labels' sums alone (add_sums's first case), with no more per
   * census than that */
  if (!p->bound.samples.columns && !(p->recent.last_s > 0.0) &&
      !p->wide_values) {
    add_totals32(p, s);
    return HP2X_OK;
  }
  return commit_bounded(p, s, err);
}

/* ----------------------------------------------- heap series, marks */

static void move_series_point(void *ctx, size_t to, size_t from) {
  hpx_series *s = ctx;
  s->time_s[to] = s->time_s[from];
  s->bytes[to] = s->bytes[from];
}

/* Is a series of n points with times t bounded by b due for thinning? */
static bool series_due(const series_bound *b, const double *t, size_t n) {
  return (b->columns || b->span > 0.0) && n &&
         (n >= b->thin_at || t[0] < b->from);
}

void hpx_profile_bound_series(hpx_series *s) {
  series_bound *b = &s->bound;
  if (!s->n) return;
  bound_see(b, s->time_s[s->n - 1]);
  if (!series_due(b, s->time_s, s->n)) return;
  buckets k = {0.0, 0.0};
  if (b->columns) k = choose_buckets(b, s->time_s, s->n);
  s->n = thin_points(b->columns ? &k : NULL, b->from, s->time_s, s->bytes, s->n,
                     move_series_point, s);
  b->thin_at = b->columns ? s->n + b->columns : 2 * s->n + 64;
}

static void move_mark(void *ctx, size_t to, size_t from) {
  hp2x_profile *p = ctx;
  p->mark_time[to] = p->mark_time[from];
  if (to != from) {
    hpx_free(p->mark_label[to]);
    p->mark_label[to] = p->mark_label[from];
    p->mark_label[from] = NULL;
  }
}

void hpx_profile_bound_marks(hp2x_profile *p) {
  series_bound *b = &p->bound.marks;
  if (!p->n_marks) return;
  bound_see(b, p->mark_time[p->n_marks - 1]);
  if (!series_due(b, p->mark_time, p->n_marks)) return;
  buckets k = {0.0, 0.0};
  if (b->columns) k = choose_buckets(b, p->mark_time, p->n_marks);
  size_t n = thin_points(b->columns ? &k : NULL, b->from, p->mark_time, NULL,
                         p->n_marks, move_mark, p);
  for (size_t i = n; i < p->n_marks; i++) hpx_free(p->mark_label[i]);
  p->n_marks = n;
  b->thin_at = b->columns ? n + b->columns : 2 * n + 64;
}
