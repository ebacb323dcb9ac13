/* bands_fill.c -- the bands' values matrix filled from a profile's
 * samples (bands_int.h), a range of samples on each thread, with each
 * sample's stacked height; and the running figures over those heights
 * (the y range and the area in the title).
 */
#include "bands_int.h"

#include <math.h>

/* Sample s's bands summed in band order, as the heights scan sums them. */
static int64_t sample_height(const hp2x_bands *b, size_t s) {
  int64_t sum = 0;
  for (size_t k = 0; k < b->n_bands; k++)
    sum = hpx_add_sat(sum, b->values[k * b->stride + s]);
  return sum;
}

/* fill_sample32's loop, label ids mapped through to_names when `mapped`,
 * without saturating: returns the values added, summed. */
static HPX_ALWAYS_INLINE uint64_t
add_sample32(int64_t *col, size_t stride, const int32_t *band_of,
             const uint32_t *to_names, const uint32_t *lab, const uint32_t *v32,
             unsigned shift, size_t m, const bool mapped) {
  uint64_t sum = 0;
  for (size_t i = 0; i < m; i++) {
    int32_t k = band_of[mapped ? to_names[lab[i]] : lab[i]];
    uint64_t v = (uint64_t)v32[i] << shift;
    if (k >= 0) {
      col[(size_t)k * stride] =
          (int64_t)((uint64_t)col[(size_t)k * stride] + v);
      sum += v;
    }
  }
  return sum;
}

/* Sample s's values, kept in 32 bits and not packed, added to its bands
 * (zero before: fill_samples without the census reader, read where they
 * are); returns its stacked height.  Each value is below 2^35 (32 bits
 * shifted by 3 at most), so the values of a census of fewer than 2^28
 * entries sum below 2^63: no band's sum nor the height can saturate, the
 * values are added plainly and the height is their sum.  A longer census
 * is added saturating and summed in band order. */
static int64_t fill_sample32(hp2x_bands *b, const int32_t *band_of,
                             const uint32_t *to_names, const hp2x_profile *p,
                             size_t s) {
  const uint32_t *lab = p->run_ids + p->run_of[s];
  const uint32_t *v32 = p->value32 + (p->start[s] - p->value_base);
  unsigned shift = p->value_shift;
  int64_t *col = b->values + s;
  size_t stride = b->stride, m = p->start[s + 1] - p->start[s];
  if (HPX_LIKELY(m < (size_t)1 << 28)) {
    uint64_t sum = to_names ? add_sample32(col, stride, band_of, to_names, lab,
                                           v32, shift, m, true)
                            : add_sample32(col, stride, band_of, NULL, lab, v32,
                                           shift, m, false);
    return (int64_t)sum;
  }
  for (size_t i = 0; i < m; i++) {
    int32_t k = band_of[to_names ? to_names[lab[i]] : lab[i]];
    int64_t v = (int64_t)((uint64_t)v32[i] << shift);
    if (k >= 0)
      col[(size_t)k * stride] = hpx_add_sat(col[(size_t)k * stride], v);
  }
  return sample_height(b, s);
}

/* add_sample32's loop for values from a census reader r (packed, or in 64
 * bits), eight at a time as r decodes them, while every value of a group
 * is in 0..2^35 (as a 32-bit profile's are, shifted: m < 2^28 of them
 * neither saturate a band nor its height): *sum is the values added,
 * summed.  Returns how many were added: fewer than m when a group holds a
 * value out of that range (its adds taken back, the group left in r, not
 * taken, for the saturating loop). */
static HPX_ALWAYS_INLINE size_t add_read(int64_t *col, size_t stride,
                                         const int32_t *band_of,
                                         const uint32_t *to_names,
                                         const uint32_t *lab, hpx_values *r,
                                         size_t m, uint64_t *sum,
                                         const bool mapped) {
  uint64_t total = 0;
  size_t i = 0;
  while (i < m) {
    hpx_values_refill(r); /* r->i is 0: the group is not taken yet */
    const int64_t *v = r->buf;
    unsigned n = r->n;
    uint64_t any = 0, added = 0;
    for (unsigned j = 0; j < n; j++) {
      int32_t k = band_of[mapped ? to_names[lab[i + j]] : lab[i + j]];
      any |= (uint64_t)v[j];
      if (k >= 0) {
        col[(size_t)k * stride] =
            (int64_t)((uint64_t)col[(size_t)k * stride] + (uint64_t)v[j]);
        added += (uint64_t)v[j];
      }
    }
    if (any >> 35) { /* taken back: modulo 2^64, exactly */
      for (unsigned j = 0; j < n; j++) {
        int32_t k = band_of[mapped ? to_names[lab[i + j]] : lab[i + j]];
        if (k >= 0)
          col[(size_t)k * stride] =
              (int64_t)((uint64_t)col[(size_t)k * stride] - (uint64_t)v[j]);
      }
      break;
    }
    total += added;
    r->i = n;
    i += n;
  }
  *sum = total;
  return i;
}

/* Sample s's values, packed or in 64 bits, added to its bands (zero
 * before); returns its stacked height.  Groups of values in 0..2^35 of a
 * census of fewer than 2^28 entries are added plainly (add_read), the
 * height their sum; from a group with another value on, the values are
 * added saturating, in the same order, and the height summed in band
 * order (the plain adds before were exact: the same sums). */
static HPX_NOINLINE int64_t fill_sample_read(hp2x_bands *b,
                                             const int32_t *band_of,
                                             const uint32_t *to_names,
                                             const hp2x_profile *p, size_t s) {
  const uint32_t *lab = p->run_ids + p->run_of[s];
  int64_t *col = b->values + s;
  size_t stride = b->stride, m = p->start[s + 1] - p->start[s], i = 0;
  uint64_t sum = 0;
  hpx_values r;
  hpx_values_of(p, s, &r);
  if (HPX_LIKELY(m < (size_t)1 << 28))
    i = to_names
            ? add_read(col, stride, band_of, to_names, lab, &r, m, &sum, true)
            : add_read(col, stride, band_of, NULL, lab, &r, m, &sum, false);
  if (HPX_LIKELY(i == m)) return (int64_t)sum;
  for (; i < m; i++) {
    int32_t k = band_of[to_names ? to_names[lab[i]] : lab[i]];
    int64_t v = hpx_values_next(&r);
    if (k >= 0)
      col[(size_t)k * stride] = hpx_add_sat(col[(size_t)k * stride], v);
  }
  return sample_height(b, s);
}

/* h with sample s, of height v, added: 5.1 ranges and 5.2 area, over the
 * selected bands' per-sample sums.  By value, so that a loop keeps the
 * running figures in registers (through a pointer, each sample's area
 * would wait for the store and load of the one before). */
static HPX_ALWAYS_INLINE bands_heights heights_add(const double *times,
                                                   size_t s, double v,
                                                   bands_heights h) {
  if (v > h.ymax) h.ymax = v;
  if (s > 0) {
    double base = times[s] - times[s - 1];
    double lo = v < h.prev ? v : h.prev;
    h.area += base * lo + base * fabs(v - h.prev) / 2.0;
  }
  h.prev = v;
  return h;
}

/* Where fill_samples puts each sample's stacked height: nowhere, in
 * heights[s - base], or folded into h in order. */
typedef struct height_sink {
  int64_t *heights;
  size_t base;
  bands_heights *h;
} height_sink;

/* hpx_bands_fill's samples from .. to - 1, their heights to `to_h`. */
static void fill_samples(hp2x_bands *b, const int32_t *band_of,
                         const uint32_t *to_names, const hp2x_profile *p,
                         size_t from, size_t to, height_sink to_h) {
  bands_heights h = to_h.h ? *to_h.h : (bands_heights){0.0, 0.0, 0.0};
  for (size_t s = from; s < to; s++) {
    int64_t height = 0;
    if (p->start[s + 1] == p->start[s]) { /* run_ids may be NULL */
    } else if (s >= p->n_packed_samples && !p->wide_values) {
      height = fill_sample32(b, band_of, to_names, p, s);
    } else {
      height = fill_sample_read(b, band_of, to_names, p, s);
    }
    if (to_h.heights) to_h.heights[s - to_h.base] = height;
    if (to_h.h) h = heights_add(p->times, s, (double)height, h);
  }
  if (to_h.h) *to_h.h = h;
}

void hpx_bands_fill(hp2x_bands *b, const int32_t *band_of,
                    const uint32_t *to_names, const hp2x_profile *p,
                    size_t from) {
  fill_samples(b, band_of, to_names, p, from, b->n_samples,
               (height_sink){NULL, 0, NULL});
}

/* The bands' values filled a range of samples a task (hpx_run_tasks): a
 * sample's values are its own, so the ranges write apart.  Each task first
 * maps for writing its share of the values' pages, one stretch of the
 * whole array (a band's share of a range is often too short to be worth
 * a call): fill_samples reads each value before it writes it, and a page
 * first read maps the shared zero page, then faults again to be written.
 * Shares are mapped from 64 KiB on (hpx_prefault_all), in 4 KiB pages:
 * huge pages map a share faster in runs back to back, but a fresh one
 * after a few idle seconds costs more on a VM that gives freed memory
 * back to its host (bench/RESULTS.md, 14ag and 14ai). */
typedef struct fill_tasks {
  hp2x_bands *b;
  const int32_t *band_of;
  const uint32_t *to_names;
  const hp2x_profile *p;
  size_t n_tasks;
  int64_t *heights; /* [n_samples - rest]: each sample's bands summed from
                       sample `rest` on, by the task that filled it; NULL:
                       not wanted */
  size_t rest;      /* task 1's first sample (n_samples: one task) */
  bands_heights *h; /* the heights folded in as task 0 fills */
} fill_tasks;

static void fill_task(void *ctx, size_t task) {
  fill_tasks *t = ctx;
  size_t n = t->b->n_samples, from = n * task / t->n_tasks,
         to = n * (task + 1) / t->n_tasks;
  size_t bytes = t->b->n_bands * t->b->stride * sizeof *t->b->values;
  hpx_prefault_all(t->b->values, bytes / t->n_tasks * task,
                   task + 1 == t->n_tasks ? bytes
                                          : bytes / t->n_tasks * (task + 1));
  fill_samples(t->b, t->band_of, t->to_names, t->p, from, to,
               task == 0 ? (height_sink){NULL, 0, t->h}
                         : (height_sink){t->heights, t->rest, NULL});
}

/* Samples a task fills at least: fewer are not worth a thread. */
#define FILL_LEAST 16384

void hpx_bands_heights_scan(const hp2x_bands *b, const hp2x_profile *p,
                            size_t from, bands_heights *h) {
  bands_heights run = *h;
  for (size_t s = from; s < b->n_samples; s++)
    run = heights_add(p->times, s, (double)sample_height(b, s), run);
  *h = run;
}

double hpx_bands_label_area(const hp2x_profile *p, const int32_t *band_of,
                            const uint32_t *to_names) {
  double area = 0.0;
  for (size_t id = 0; id < p->n_labels; id++)
    if (band_of[to_names ? to_names[id] : id] >= 0)
      area += p->labels[id].sums.area;
  return area;
}

void hpx_bands_fill_all(hp2x_bands *b, const int32_t *band_of,
                        const uint32_t *to_names, const hp2x_profile *p,
                        size_t threads, bands_heights *h) {
  size_t N = b->n_samples, tasks = hpx_task_count(N, threads, FILL_LEAST);
  fill_tasks t = {b, band_of, to_names, p, tasks, NULL, N / tasks, h};
  /* Task 0, on the calling thread, folds its heights in as it fills, as
   * one thread does; the others store theirs, which the calling thread
   * then folds in, in order (the area is a sum of doubles: its order is
   * kept).  Without room for them, the heights are summed again after. */
  if (tasks > 1) t.heights = hpx_malloc((N - t.rest) * sizeof *t.heights);
  hpx_run_tasks(t.n_tasks, fill_task, &t);
  if (t.heights) {
    bands_heights run = *h;
    for (size_t s = t.rest; s < N; s++)
      run = heights_add(p->times, s, (double)t.heights[s - t.rest], run);
    *h = run;
  } else if (tasks > 1)
    hpx_bands_heights_scan(b, p, t.rest, h);
  hpx_free(t.heights);
}
