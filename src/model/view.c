/* view.c -- views of a profile as new profiles: a time window (--from/--to,
 * applied to the samples before any selection) and the sample-index x axis
 * (--x=index).  Each is a complete copy (labels, samples, marks, heap
 * series), so selection, drawing and the writers need not know of them.
 * Finding a marker by its text for a window is here too.
 */
#include "model.h"

#include <assert.h>
#include <math.h>
#include <string.h>

long hp2x_profile_find_mark(const hp2x_profile *p, const char *label,
                            double after_s) {
  for (size_t m = 0; m < p->n_marks; m++)
    if (p->mark_time[m] >= after_s && !strcmp(p->mark_label[m], label))
      return (long)m;
  return -1;
}

typedef double (*time_map)(const hp2x_profile *p, double t);

/* Copies p's four header strings into c. */
static hp2x_status copy_headers(hp2x_profile *c, const hp2x_profile *p,
                                hp2x_err *err) {
  hp2x_status st =
      hpx_profile_set_header(c, PROFILE_JOB, p->job, strlen(p->job), err);
  if (st == HP2X_OK)
    st = hpx_profile_set_header(c, PROFILE_DATE, p->date, strlen(p->date), err);
  if (st == HP2X_OK)
    st = hpx_profile_set_header(c, PROFILE_SAMPLE_UNIT, p->sample_unit,
                                strlen(p->sample_unit), err);
  if (st == HP2X_OK)
    st = hpx_profile_set_header(c, PROFILE_VALUE_UNIT, p->value_unit,
                                strlen(p->value_unit), err);
  return st;
}

/* A new profile with p's headers, labels (same ids), warnings and
 * eventlog facts, and no samples; NULL on error. */
static hp2x_profile *copy_frame(const hp2x_profile *p, hp2x_err *err) {
  hp2x_profile *c = hpx_profile_new(err);
  if (!c) return NULL;
  hp2x_status st = copy_headers(c, p, err);
  for (size_t id = 0; id < p->n_labels && st == HP2X_OK; id++) {
    const hpx_label *l = &p->labels[id];
    uint32_t got;
    st = l->key
             ? hpx_profile_intern(c, l->key, l->key_len, l->name, l->name_len,
                                  &got, err)
             : hpx_profile_intern(c, l->name, l->name_len, NULL, 0, &got, err);
    if (st == HP2X_OK) {
      assert(got == id);
      c->labels[got].kind = l->kind;
      st = hpx_profile_set_label_text(c, got, &l->text, err);
    }
  }
  if (st == HP2X_OK) st = hpx_cost_centres_copy(&c->ccs, &p->ccs, err);
  if (st != HP2X_OK) {
    hp2x_profile_free(c);
    return NULL;
  }
  c->warn = p->warn;
  c->breakdown = p->breakdown;
  c->text_breakdown = p->text_breakdown;
  c->heap_profile = p->heap_profile;
  c->began_mid_run = p->began_mid_run;
  c->from_zero = p->from_zero;
  c->interval_ns = p->interval_ns;
  c->has_wall_clock = p->has_wall_clock;
  c->wall_unix_ns = p->wall_unix_ns;
  c->wall_at_s = p->wall_at_s;
  return c;
}

/* Appends p's complete sample s to c, at time t. */
static hp2x_status copy_sample(hp2x_profile *c, const hp2x_profile *p, size_t s,
                               double t, hp2x_err *err) {
  hp2x_status st = HP2X_OK;
  hpx_values r;
  hpx_values_of(p, s, &r);
  hpx_profile_begin_sample(c, t);
  for (size_t e = p->start[s]; e < p->start[s + 1] && st == HP2X_OK; e++)
    st = profile_add_entry(c, profile_entry_label(p, s, e), hpx_values_next(&r),
                           err);
  if (st == HP2X_OK) st = hpx_profile_end_sample(c, err);
  return st;
}

/* Marks and heap series of p with times in [lo, hi], mapped by `map`. */
static hp2x_status copy_marks_and_series(hp2x_profile *c, const hp2x_profile *p,
                                         double lo, double hi, time_map map,
                                         hp2x_err *err) {
  hp2x_status st = HP2X_OK;
  for (size_t m = 0; m < p->n_marks && st == HP2X_OK; m++) {
    double t = p->mark_time[m];
    if (t >= lo && t <= hi)
      st = hpx_profile_add_mark(c, map(p, t), p->mark_label[m],
                                strlen(p->mark_label[m]), err);
  }
  const hpx_series *from = p->heap;
  hpx_series *to = c->heap;
  for (size_t k = 0; k < HPX_N_HEAP && st == HP2X_OK; k++)
    for (size_t i = 0; i < from[k].n && st == HP2X_OK; i++) {
      double t = from[k].time_s[i];
      if (t >= lo && t <= hi)
        st = hpx_profile_series_add(&to[k], map(p, t), from[k].bytes[i], err);
    }
  return st;
}

static double unchanged_time(const hp2x_profile *p, double t) {
  (void)p;
  return t;
}

hp2x_status hp2x_profile_window(const hp2x_profile *p, double from_s,
                                double to_s, hp2x_profile **out,
                                hp2x_err *err) {
  *out = NULL;
  if (hpx_profile_require_entries(p, err) != HP2X_OK) return err->code;
  if (isnan(from_s) || isnan(to_s) || from_s > to_s)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "the window's start %g s is after its end %g s", from_s,
                    to_s);
  hp2x_profile *c = copy_frame(p, err);
  if (!c) return err->code;
  hp2x_status st = HP2X_OK;
  for (size_t s = 0; s < p->n_samples && st == HP2X_OK; s++)
    if (p->times[s] >= from_s && p->times[s] <= to_s)
      st = copy_sample(c, p, s, p->times[s], err);
  if (st == HP2X_OK)
    st = copy_marks_and_series(c, p, from_s, to_s, unchanged_time, err);
  if (st != HP2X_OK) {
    hp2x_profile_free(c);
    return st;
  }
  *out = c;
  return HP2X_OK;
}

/* Time t as a fractional sample index: linear between the samples around
 * it; outside the samples' span, -1 or n (off the graph). */
static double fractional_index(const hp2x_profile *p, double t) {
  size_t n = p->n_samples;
  if (n == 0 || t < p->times[0]) return -1.0;
  if (t > p->times[n - 1]) return (double)n;
  size_t lo = 0, hi = n - 1; /* times[lo] <= t <= times[hi] */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->times[mid] <= t)
      lo = mid;
    else
      hi = mid;
  }
  double span = p->times[hi] - p->times[lo];
  return span > 0.0 ? (double)lo + (t - p->times[lo]) / span : (double)lo;
}

hp2x_status hp2x_profile_by_index(const hp2x_profile *p, hp2x_profile **out,
                                  hp2x_err *err) {
  *out = NULL;
  if (hpx_profile_require_entries(p, err) != HP2X_OK) return err->code;
  hp2x_profile *c = copy_frame(p, err);
  if (!c) return err->code;
  hp2x_status st =
      hpx_profile_set_header(c, PROFILE_SAMPLE_UNIT, "sample", 6, err);
  for (size_t s = 0; s < p->n_samples && st == HP2X_OK; s++)
    st = copy_sample(c, p, s, (double)s, err);
  if (st == HP2X_OK)
    st =
        copy_marks_and_series(c, p, -INFINITY, INFINITY, fractional_index, err);
  if (st != HP2X_OK) {
    hp2x_profile_free(c);
    return st;
  }
  *out = c;
  return HP2X_OK;
}
