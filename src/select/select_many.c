/* select_many.c -- one band selection over several profiles (comparing
 * runs, hp2x_bands_select_many): the profiles combined into one whose
 * totals decide the bands, each input weighing the same; hp2ps's rules
 * (bands.c) pick one set of bands from it, each profile's bands are made
 * from that set, and with --uniform they share their time axis and/or
 * their y range.  The --diff chart made from such bands is diff_chart.c's.
 */
#include "aux.h"
#include "bands_int.h"

#include <string.h>

/* The profile whose samples are all of ps's, one after another, its labels
 * interned by name: hp2ps's totals (and -d's statistic) over it are the
 * combined ones.  Each input weighs the same: its values are scaled so
 * that its grand total equals the largest input's, or a run sampled more
 * often or for longer would decide alone which bands the others show (a
 * band holding half of a short run's heap would vanish as trace).
 * to_names[i][id] receives the combined id of ps[i]'s label id.  Sample
 * times are the running sample number (only the order of labels is taken
 * from this profile). */
/* Every complete entry's value of p, summed in entry order. */
static double grand_total(const hp2x_profile *p) {
  double grand = 0.0;
  for (size_t s = 0; s < p->n_samples; s++) {
    hpx_values r;
    hpx_values_of(p, s, &r);
    for (size_t e = p->start[s]; e < p->start[s + 1]; e++)
      grand += (double)hpx_values_next(&r);
  }
  return grand;
}

static hp2x_status combine_profiles(const hp2x_profile *const *ps, size_t n,
                                    hp2x_profile **out, uint32_t **to_names,
                                    hp2x_err *err) {
  hp2x_profile *c = hpx_profile_new(err);
  if (!c) return err->code;
  hp2x_status st = HP2X_OK;
  double t = 0.0, most = 0.0;
  for (size_t i = 0; i < n; i++) {
    double grand = grand_total(ps[i]);
    if (grand > most) most = grand;
  }
  for (size_t i = 0; i < n && st == HP2X_OK; i++) {
    const hp2x_profile *p = ps[i];
    double grand = grand_total(p);
    double weight = grand > 0.0 ? most / grand : 0.0;
    to_names[i] =
        hpx_malloc((p->n_labels ? p->n_labels : 1) * sizeof *to_names[i]);
    if (!to_names[i]) {
      st = hpx_nomem(err);
      break;
    }
    for (size_t id = 0; id < p->n_labels && st == HP2X_OK; id++) {
      const hpx_label *l = &p->labels[id];
      st = hpx_profile_intern(c, l->name, l->name_len, NULL, 0,
                              &to_names[i][id], err);
      /* the first input that describes the label gives its text */
      if (st == HP2X_OK && l->text.detail &&
          !c->labels[to_names[i][id]].text.detail)
        st = hpx_profile_set_label_text(c, to_names[i][id], &l->text, err);
    }
    for (size_t s = 0; s < p->n_samples && st == HP2X_OK; s++) {
      hpx_profile_begin_sample(c, t);
      t += 1.0;
      hpx_values r;
      hpx_values_of(p, s, &r);
      for (size_t e = p->start[s]; e < p->start[s + 1] && st == HP2X_OK; e++)
        st = profile_add_entry(
            c, to_names[i][profile_entry_label(p, s, e)],
            hpx_bands_round((double)hpx_values_next(&r) * weight), err);
      if (st == HP2X_OK) st = hpx_profile_end_sample(c, err);
    }
  }
  if (st != HP2X_OK) {
    hp2x_profile_free(c);
    return st;
  }
  /* The inputs' breakdown, when they share one, arranges the bands. */
  c->breakdown = (int)hp2x_profile_breakdown(ps[0]);
  for (size_t i = 1; i < n; i++)
    if (hp2x_profile_breakdown(ps[i]) != hp2x_profile_breakdown(ps[0]))
      c->breakdown = 0;
  *out = c;
  return HP2X_OK;
}

/* o->uniform: one time axis and/or one y range for all. */
static void share_axes(hp2x_bands **bs, const hp2x_profile *const *ps, size_t n,
                       hp2x_uniform uniform, const hp2x_aux *aux) {
  if (uniform & HP2X_UNIFORM_TIME) {
    double lo = 0.0, hi = 0.0;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
      size_t N = ps[i]->n_samples;
      if (!N) continue;
      double a = ps[i]->times[0], z = ps[i]->times[N - 1];
      if (!any || a < lo) lo = a;
      if (!any || z > hi) hi = z;
      any = 1;
    }
    double span = hi - lo;
    if (hpx_aux_x_range(aux) > span)
      span = hpx_aux_x_range(aux); /* as build() */
    for (size_t i = 0; i < n; i++) {
      bs[i]->x0 = lo;
      bs[i]->xrange = span > 0.0 ? span : 1.0;
      bs[i]->x_span_ticks = 1;
    }
  }
  if (uniform & HP2X_UNIFORM_MEMORY) {
    double top = 0.0;
    for (size_t i = 0; i < n; i++)
      if (bs[i]->yrange > top) top = bs[i]->yrange;
    for (size_t i = 0; i < n; i++) bs[i]->yrange = top;
  }
}

hp2x_status hp2x_bands_select_many(const hp2x_profile *const *ps, size_t n,
                                   const hp2x_options *given, hp2x_bands **out,
                                   hp2x_err *err) {
  for (size_t i = 0; i < n; i++) out[i] = NULL;
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (n == 0)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "no profiles to select from");
  if (hpx_bands_check_options(o, err) != HP2X_OK) return err->code;
  for (size_t i = 0; i < n; i++)
    if (hpx_profile_require_entries(ps[i], err) != HP2X_OK) return err->code;
  uint32_t **to_names = hpx_calloc(n, sizeof *to_names);
  if (!to_names) return hpx_nomem(err);
  hp2x_profile *c = NULL;
  hp2x_status st = combine_profiles(ps, n, &c, to_names, err);
  if (st == HP2X_OK)
    st = hpx_bands_select_shared(c, to_names, ps, n, o, out, err);
  if (st == HP2X_OK) share_axes(out, ps, n, o->uniform, o->aux);
  hp2x_profile_free(c);
  for (size_t i = 0; i < n; i++) hpx_free(to_names[i]);
  hpx_free(to_names);
  if (st != HP2X_OK) {
    for (size_t i = 0; i < n; i++) {
      hp2x_bands_free(out[i]);
      out[i] = NULL;
    }
    return st;
  }
  return HP2X_OK;
}
