/* follow.c -- band selection that follows a growing profile (watch mode).  A
 * follower keeps, from one call to the next, the band matrix, its running
 * ranges and area, and an index of the stacked curves (per band, a tree of
 * first minima and maxima over blocks of samples).  When the profile has only
 * gained samples and the selection still maps every label with data as before,
 * an update folds in the new samples alone; otherwise (or when a bounded
 * profile has thinned its samples) the matrix is built afresh.  The selection
 * comes from the labels' sums the profile keeps.  The bands are
 * hp2x_bands_select's, value for value.  The bands of a picture carry the
 * follower's band_walk_source (band_walk.h): drawing gets hpx_thin_curve's
 * points per device column from the index instead of walking every sample.
 */
#include "band_walk.h"
#include "bands_int.h"
#include "thin.h"

#include <assert.h>
#include <string.h>

#define STACK_BLOCK 16 /* samples per leaf of the index */
#define NONE UINT32_MAX

struct hp2x_follower {
  const hp2x_profile *p; /* borrowed: the profile followed; NULL = none */
  size_t totalled;       /* samples of p seen at the last selection */
  double last_time_s;    /* times[totalled - 1], to tell another profile */
  uint64_t generation;   /* p's thinnings then (model.h) */
  hp2x_bands *b;         /* owned; NULL until a selection is made */
  int32_t *band_of;      /* [n_band_of]: each label's band or -1; owned */
  unsigned char *built_present; /* [n_band_of]: the label has data in
                                   samples [0, built); owned */
  size_t n_band_of;
  size_t built;            /* samples in b, top, peak and tree */
  bands_heights heights;   /* over samples [0, built) */
  int64_t *top;            /* [n_bands * b->stride]: stacked heights; owned */
  size_t *peak;            /* [n_bands]; owned */
  uint32_t *tree;          /* [n_bands * 4 * leaves]; owned */
  size_t leaves;           /* leaves per tree, a power of two */
  int indexed;             /* top, peak and tree are kept (the output is
                              a picture); else only the bands */
  int monotone;            /* times never go back */
  int saturated;           /* a value < 0 or a height at INT64_MAX */
  band_walk_source source; /* what b->points points to when indexed */
  size_t index_walks;      /* pictures drawn from the index
                              (hpx_follow_index_walks) */
};

static hp2x_status open_index_walk(const band_walk_source *src,
                                   const band_frame *fr, band_walk **out,
                                   hp2x_err *err);
static size_t index_peak(const band_walk_source *src, size_t k);

hp2x_follower *hp2x_follower_new(hp2x_err *err) {
  hp2x_follower *f = hpx_calloc(1, sizeof *f);
  if (!f) {
    hpx_nomem(err);
    return NULL;
  }
  f->source.open = open_index_walk;
  f->source.peak = index_peak;
  f->source.ctx = f;
  return f;
}

/* Forgets the band matrix and its index. */
static void drop_bands(hp2x_follower *f) {
  hp2x_bands_free(f->b);
  hpx_free(f->band_of);
  hpx_free(f->built_present);
  hpx_free(f->top);
  hpx_free(f->peak);
  hpx_free(f->tree);
  f->b = NULL;
  f->band_of = NULL;
  f->built_present = NULL;
  f->n_band_of = 0;
  f->top = NULL;
  f->peak = NULL;
  f->tree = NULL;
  f->leaves = 0;
  f->built = 0;
  memset(&f->heights, 0, sizeof f->heights);
  f->monotone = 1;
  f->saturated = 0;
}

void hp2x_follower_reset(hp2x_follower *f) {
  if (!f) return;
  drop_bands(f);
  f->totalled = 0;
  f->p = NULL;
}

void hp2x_follower_free(hp2x_follower *f) {
  if (!f) return;
  hp2x_follower_reset(f);
  hpx_free(f);
}

/* Does the new plan (nb, band_of) give the samples already built the
 * values they have?  Labels without data there may move freely. */
static int same_plan(const hp2x_follower *f, const hp2x_bands *nb,
                     const int32_t *band_of) {
  const hp2x_bands *b = f->b;
  if (!b || b->n_bands != nb->n_bands || b->is_other != nb->is_other ||
      b->breakdown != nb->breakdown)
    return 0;
  for (size_t k = 0; k < b->n_bands; k++)
    if (strcmp(b->names[k], nb->names[k]) != 0 ||
        memcmp(&b->shades[k], &nb->shades[k], sizeof(double)) != 0)
      return 0;
  for (size_t id = 0; id < f->n_band_of; id++)
    if (f->built_present[id] && f->band_of[id] != band_of[id]) return 0;
  return 1;
}

static uint32_t pick_min(const int64_t *top, uint32_t a, uint32_t b) {
  if (a == NONE) return b;
  if (b == NONE) return a;
  return top[b] < top[a] || (top[b] == top[a] && b < a) ? b : a;
}

static uint32_t pick_max(const int64_t *top, uint32_t a, uint32_t b) {
  if (a == NONE) return b;
  if (b == NONE) return a;
  return top[b] > top[a] || (top[b] == top[a] && b < a) ? b : a;
}

/* Recomputes the leaves of blocks [b0, b1) of band k's trees from
 * samples [0, built), then their ancestors. */
static void tree_update(hp2x_follower *f, size_t k, size_t b0, size_t b1) {
  const int64_t *top = f->top + k * f->b->stride;
  uint32_t *tmin = f->tree + k * 4 * f->leaves, *tmax = tmin + 2 * f->leaves;
  for (size_t j = b0; j < b1; j++) {
    uint32_t mn = NONE, mx = NONE;
    size_t end = (j + 1) * STACK_BLOCK < f->built ? (j + 1) * STACK_BLOCK
                                                  : f->built;
    for (size_t s = j * STACK_BLOCK; s < end; s++) {
      mn = pick_min(top, mn, (uint32_t)s);
      mx = pick_max(top, mx, (uint32_t)s);
    }
    tmin[f->leaves + j] = mn;
    tmax[f->leaves + j] = mx;
  }
  for (size_t lo = (f->leaves + b0) / 2, hi = (f->leaves + b1 - 1) / 2; lo >= 1;
       lo /= 2, hi /= 2)
    for (size_t i = lo; i <= hi; i++) {
      tmin[i] = pick_min(top, tmin[2 * i], tmin[2 * i + 1]);
      tmax[i] = pick_max(top, tmax[2 * i], tmax[2 * i + 1]);
    }
}

/* Room for n samples per band: the matrix, the heights and the index move
 * to a doubled stride when they are full. */
static hp2x_status grow_band_matrix(hp2x_follower *f, size_t n, hp2x_err *err) {
  hp2x_bands *b = f->b;
  if (b->values && n <= b->stride) return HP2X_OK;
  /* A power of two from 16: at most twice the samples, so a profile of
   * many bands and few samples takes little more than its values. */
  size_t cap = b->values && b->stride ? b->stride : 16;
  while (cap < n) cap *= 2;
  size_t nb = b->n_bands ? b->n_bands : 1;
  size_t leaves = 1;
  while (leaves * STACK_BLOCK < cap) leaves *= 2;
  int64_t *values = hpx_calloc(nb * cap, sizeof *values);
  int64_t *top = f->indexed ? hpx_malloc(nb * cap * sizeof *top) : NULL;
  uint32_t *tree = f->indexed ? hpx_malloc(nb * 4 * leaves * sizeof *tree)
                              : NULL;
  if (!values || (f->indexed && (!top || !tree))) {
    hpx_free(values), hpx_free(top), hpx_free(tree);
    return hpx_nomem(err);
  }
  for (size_t k = 0; k < b->n_bands && f->built; k++) {
    memcpy(values + k * cap, b->values + k * b->stride,
           f->built * sizeof *values);
    if (f->indexed)
      memcpy(top + k * cap, f->top + k * b->stride, f->built * sizeof *top);
  }
  for (size_t i = 0; f->indexed && i < nb * 4 * leaves; i++) tree[i] = NONE;
  hpx_free(b->values), hpx_free(f->top), hpx_free(f->tree);
  b->values = values;
  b->stride = cap;
  f->top = top;
  f->tree = tree;
  f->leaves = leaves;
  size_t blocks = (f->built + STACK_BLOCK - 1) / STACK_BLOCK;
  for (size_t k = 0; f->indexed && k < b->n_bands && blocks; k++)
    tree_update(f, k, 0, blocks);
  return HP2X_OK;
}

/* Adds samples [from, N) to the index: their stacked heights (noting any
 * that saturates), whether times still never go back, each band's first
 * peak (as hpx_layout_band_peak finds it), and the trees over their blocks. */
static void index_samples(hp2x_follower *f, const hp2x_profile *p, size_t from,
                          size_t N) {
  const hp2x_bands *b = f->b;
  size_t nb = b->n_bands, stride = b->stride;
  for (size_t s = from; s < N; s++) {
    int64_t acc = 0;
    for (size_t k = 0; k < nb; k++) {
      int64_t v = b->values[k * stride + s];
      if (v < 0) f->saturated = 1;
      acc = hpx_add_sat(acc, v);
      if (acc == INT64_MAX) f->saturated = 1;
      f->top[k * stride + s] = acc;
    }
    if (s > 0 && !(p->times[s] >= p->times[s - 1])) f->monotone = 0;
  }
  for (size_t k = 0; k < nb; k++) {
    const int64_t *v = b->values + k * stride;
    size_t at = from ? f->peak[k] : 0;
    for (size_t s = from ? from : 1; s < N; s++)
      if (v[s] > v[at]) at = s;
    f->peak[k] = at;
  }
  f->built = N;
  if (N > from)
    for (size_t k = 0; k < nb; k++)
      tree_update(f, k, from / STACK_BLOCK,
                  (N + STACK_BLOCK - 1) / STACK_BLOCK);
}

/* Folds samples [f->built, n_samples) into the bands and the index. */
static hp2x_status extend_bands(hp2x_follower *f, const hp2x_profile *p,
                                const hp2x_options *o, hp2x_err *err) {
  size_t N = p->n_samples, from = f->built;
  hp2x_bands *b = f->b;
  if (grow_band_matrix(f, N, err) != HP2X_OK) return err->code;
  b->n_samples = N;
  hpx_bands_fill(b, f->band_of, NULL, p, from);
  hpx_bands_heights_scan(b, p, from, &f->heights);
  if (p->bound.thinned)
    f->heights.area = hpx_bands_label_area(p, f->band_of, NULL);
  hpx_bands_set_ranges(b, p, o, &f->heights);
  if (f->indexed)
    index_samples(f, p, from, N);
  else
    f->built = N;
  b->points = f->indexed ? &f->source : NULL;
  return HP2X_OK;
}

/* Takes the plan (nb, band_of) for p; the matrix starts over unless the
 * plan is the one the built samples were made with. */
static hp2x_status adopt_plan(hp2x_follower *f, const hp2x_profile *p,
                              hp2x_bands *nb, int32_t *band_of, hp2x_err *err) {
  size_t nl = p->n_labels;
  unsigned char *bp = hpx_malloc(nl ? nl : 1);
  if (!bp) {
    hp2x_bands_free(nb);
    hpx_free(band_of);
    return hpx_nomem(err);
  }
  if (same_plan(f, nb, band_of)) {
    hp2x_bands_free(nb);
  } else {
    drop_bands(f);
    f->b = nb;
    f->peak = hpx_calloc(nb->n_bands ? nb->n_bands : 1, sizeof *f->peak);
    if (!f->peak) {
      hpx_free(bp);
      hpx_free(band_of);
      return hpx_nomem(err);
    }
  }
  hpx_free(f->band_of);
  hpx_free(f->built_present);
  f->band_of = band_of;
  f->n_band_of = nl;
  for (size_t id = 0; id < nl; id++)
    bp[id] = label_present(&p->labels[id].sums);
  f->built_present = bp; /* extend_bands builds every sample with data */
  return HP2X_OK;
}

hp2x_status hp2x_follower_select(hp2x_follower *f, const hp2x_profile *p,
                                 const hp2x_options *given,
                                 const hp2x_bands **out, hp2x_err *err) {
  *out = NULL;
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (hpx_bands_check_options(o, err) != HP2X_OK ||
      hpx_profile_require_entries(p, err) != HP2X_OK)
    return err->code;
  size_t N = p->n_samples;
  /* Only pictures are drawn from the index (CSV, .hp and the summary
   * read the bands' values). */
  int indexed = hp2x_format_is_picture(o->format);
  if (f->p != p || N < f->totalled || p->n_labels < f->n_band_of ||
      indexed != f->indexed || p->bound.generation != f->generation ||
      (f->totalled &&
       memcmp(&p->times[f->totalled - 1], &f->last_time_s, sizeof(double))))
    hp2x_follower_reset(f);
  f->p = p;
  f->indexed = indexed;
  f->generation = p->bound.generation;
  f->totalled = N;
  if (N) f->last_time_s = p->times[N - 1];
  hp2x_status st = HP2X_OK;
  hp2x_bands *nb = NULL;
  int32_t *band_of = NULL;
  if (st == HP2X_OK) {
    nb = hpx_calloc(1, sizeof *nb);
    band_of = hpx_malloc((p->n_labels ? p->n_labels : 1) * sizeof *band_of);
    if (!nb || !band_of) st = hpx_nomem(err);
  }
  if (st == HP2X_OK) st = hpx_bands_plan(p, o, nb, band_of, err);
  if (st == HP2X_OK) {
    st = adopt_plan(f, p, nb, band_of, err); /* takes nb and band_of */
    nb = NULL;
    band_of = NULL;
  }
  if (st == HP2X_OK) st = extend_bands(f, p, o, err);
  hp2x_bands_free(nb);
  hpx_free(band_of);
  if (st != HP2X_OK) {
    hp2x_follower_reset(f); /* the next call starts over */
    return st;
  }
  *out = f->b;
  return HP2X_OK;
}

/* Folds samples [lo, hi) of curve top into the first minimum *mn and the
 * first maximum *mx (pick_min and pick_max order ties by sample, so the
 * order samples are folded in does not matter). */
static void scan_extremes(const int64_t *top, size_t lo, size_t hi,
                          uint32_t *mn, uint32_t *mx) {
  for (size_t s = lo; s < hi; s++) {
    *mn = pick_min(top, *mn, (uint32_t)s);
    *mx = pick_max(top, *mx, (uint32_t)s);
  }
}

/* The first sample of the smallest and of the largest upper edge of band
 * k among samples [lo, hi) (lo < hi): the whole blocks inside from the
 * trees, the samples at either end one by one.  k == (size_t)-1 is the
 * axis (every height 0). */
static void find_extremes(const hp2x_follower *f, size_t k, size_t lo,
                          size_t hi, size_t *min_at, size_t *max_at) {
  assert(lo < hi && hi <= f->built);
  if (k == (size_t)-1) {
    *min_at = *max_at = lo;
    return;
  }
  const int64_t *top = f->top + k * f->b->stride;
  uint32_t mn = (uint32_t)lo, mx = (uint32_t)lo;
  size_t b0 = (lo + STACK_BLOCK - 1) / STACK_BLOCK, b1 = hi / STACK_BLOCK;
  if (b0 >= b1) { /* no whole block inside */
    scan_extremes(top, lo + 1, hi, &mn, &mx);
  } else {
    scan_extremes(top, lo + 1, b0 * STACK_BLOCK, &mn, &mx);
    scan_extremes(top, b1 * STACK_BLOCK, hi, &mn, &mx);
    const uint32_t *tmin = f->tree + k * 4 * f->leaves;
    const uint32_t *tmax = tmin + 2 * f->leaves;
    for (size_t l = b0 + f->leaves, r = b1 + f->leaves; l < r; l /= 2, r /= 2) {
      if (l & 1) {
        mn = pick_min(top, mn, tmin[l]);
        mx = pick_max(top, mx, tmax[l]);
        l++;
      }
      if (r & 1) {
        r--;
        mn = pick_min(top, mn, tmin[r]);
        mx = pick_max(top, mx, tmax[r]);
      }
    }
  }
  *min_at = mn;
  *max_at = mx;
}

/* ------------------------------------------ drawing from the index */

/* A walk over a follower's index for one picture (band_walk.h). */
typedef struct index_walk {
  band_walk base;
  const hp2x_follower *f;
  band_frame frame;
  size_t band;    /* whose extremes hpx_thin_runs asks for */
  size_t *starts; /* [runs]: each device column's first sample; owned */
  size_t runs;
  size_t *keep; /* [2 * runs + 2]; owned */
} index_walk;

static double walk_x(const void *ctx, size_t i) {
  const index_walk *w = ctx;
  return band_frame_x(&w->frame, i);
}

static void walk_extremes(const void *ctx, size_t a, size_t e, size_t *lo,
                          size_t *hi) {
  const index_walk *w = ctx;
  find_extremes(w->f, w->band, a, e, lo, hi);
}

static hp2x_status index_edge(band_walk *bp, size_t k, band_edge *out,
                              hp2x_err *err) {
  (void)err;
  index_walk *w = (index_walk *)bp;
  w->band = k; /* (size_t)-1 under band 0: the axis */
  out->height = k == (size_t)-1 ? NULL : w->f->top + k * w->f->b->stride;
  out->keep = w->keep;
  out->n_keep =
      hpx_thin_runs(w->starts, w->runs, w->f->built, walk_extremes, w, w->keep);
  return HP2X_OK;
}

static void close_index_walk(band_walk *bp) {
  index_walk *w = (index_walk *)bp;
  hpx_free(w->starts), hpx_free(w->keep), hpx_free(w);
}

static const band_walk_ops index_walk_ops = {index_edge, close_index_walk};

/* Whether the index gives exactly hpx_thin_curve's points for frame fr: times
 * never go back and no height saturates, so the heights are those the
 * values would give; the bands are thinned at all (more than two samples
 * per column) and stacked, not diverging.  The index orders heights, not
 * the y coordinates hpx_thin_curve compares: y = axis + height * yscale is
 * strictly increasing in the height (so both pick the same samples) as
 * long as neighbouring heights stay further apart than rounding can
 * close.  Heights are at most b->yrange (hpx_bands_set_ranges only ever
 * raises it above the largest stacked height), so every y lies in
 * [y0, y0 + height]: below 512 with the frame checked here, where one
 * rounding is at most 2^-45; yscale >= 2^-40 keeps neighbours apart by
 * more than two of them (and heights below 2^53, exact as doubles). */
static int index_can_draw(const hp2x_follower *f, const band_frame *fr) {
  size_t N = fr->b->n_samples;
  double yscale = band_frame_yscale(fr);
  return f->monotone && !f->saturated && !fr->all_samples &&
         !fr->b->is_signed && N > 2 * fr->columns + 2 && fr->width_pt > 0.0 &&
         yscale >= 0x1p-40 && fr->y0_pt >= 0.0 &&
         fr->y0_pt + fr->height_pt < 512.0;
}

/* band_walk_source.open for a follower's bands: per device column, the
 * runs of samples in it, found by bisection; declined (*out NULL) where
 * index_can_draw says no or the runs outnumber the columns. */
static hp2x_status open_index_walk(const band_walk_source *src,
                                   const band_frame *fr, band_walk **out,
                                   hp2x_err *err) {
  hp2x_follower *f = src->ctx;
  *out = NULL;
  assert(f->indexed && fr->b->n_samples == f->built);
  if (!index_can_draw(f, fr)) return HP2X_OK;
  size_t N = f->built, columns = fr->columns;
  index_walk *w = hpx_calloc(1, sizeof *w);
  if (w) w->starts = hpx_malloc((columns + 2) * sizeof *w->starts);
  if (!w || !w->starts) {
    hpx_free(w);
    return hpx_nomem(err);
  }
  w->base.ops = &index_walk_ops;
  w->f = f;
  w->frame = *fr;
  w->runs = hpx_thin_column_runs(walk_x, w, N, fr->x0_pt,
                                 fr->x0_pt + fr->width_pt, columns, w->starts,
                                 columns + 2);
  if (w->runs != (size_t)-1)
    w->keep = hpx_malloc((2 * w->runs + 2) * sizeof *w->keep);
  if (w->runs == (size_t)-1 || !w->keep) {
    int declined = w->runs == (size_t)-1;
    close_index_walk(&w->base);
    return declined ? HP2X_OK : hpx_nomem(err);
  }
  f->index_walks++;
  *out = &w->base;
  return HP2X_OK;
}

/* band_walk_source.peak: kept up to date as samples come. */
static size_t index_peak(const band_walk_source *src, size_t k) {
  const hp2x_follower *f = src->ctx;
  assert(k < f->b->n_bands);
  return f->peak[k];
}

size_t hpx_follow_index_walks(const hp2x_follower *f) { return f->index_walks; }

void hpx_follow_index_extremes(const hp2x_follower *f, size_t k, size_t lo,
                               size_t hi, size_t *min_at, size_t *max_at) {
  find_extremes(f, k, lo, hi, min_at, max_at);
}
