/* html_held.c -- the censuses a live page holds, from one update to the
 * next (hp2x_write_live_step, html_live.c): the report of each redraw
 * holds a choice of the run's censuses (html_census.c), which new
 * censuses, a bucket's new largest total and buckets merging as the run
 * grows change by a few; the update says what changed against the previous
 * update's choice (hp2x_live_held, kept by the caller): runs of those
 * kept, by their places in it, and the censuses the page lacks, whole.  A
 * census is known by its time and its values' total; the page checks
 * what it then holds against the update's count and sums (live_apply.js).
 */
#include "html_int.h"

#include <math.h>
#include <string.h>

void hp2x_live_held_clear(hp2x_live_held *h) {
  if (!h) return;
  hpx_free(h->times), hpx_free(h->totals);
  *h = (hp2x_live_held)HP2X_LIVE_HELD_INIT;
}

/* Census s's values' total over the bands. */
static int64_t total_of(const hp2x_bands *b, size_t s) {
  int64_t t = 0;
  for (size_t k = 0; k < b->n_bands; k++)
    t = hpx_add_sat(t, b->values[k * b->stride + s]);
  return t;
}

void hpx_html_write_censuses(writebuf *w, const hp2x_profile *p,
                             const hp2x_bands *b, const size_t *idx, size_t n) {
  char num[HPX_FIXED6_SIZE];
  hpx_html_key(w, "t", 0), hpx_writebuf_puts(w, "[");
  for (size_t i = 0; i < n; i++) {
    hpx_writebuf_puts(w, i ? ",\"" : "\"");
    hpx_writebuf_put(w, num, hpx_fmt_fixed6(num, p->times[idx[i]]));
    hpx_writebuf_puts(w, "\"");
  }
  hpx_writebuf_puts(w, "]");
  if (hpx_html_needs_exact_times(p, idx, n)) {
    hpx_html_key(w, "tx", 0), hpx_writebuf_puts(w, "[");
    for (size_t i = 0; i < n; i++) {
      double t = p->times[idx[i]];
      if (i) hpx_writebuf_puts(w, ",");
      if (isfinite(t))
        hpx_writebuf_put(w, num, hpx_html_exact_time(num, sizeof num, t));
      else
        hpx_writebuf_puts(w, "null");
    }
    hpx_writebuf_puts(w, "]");
  }
  hpx_html_key(w, "v", 0), hpx_writebuf_puts(w, "[");
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_writebuf_puts(w, k ? ",[" : "[");
    for (size_t i = 0; i < n; i++) {
      if (i) hpx_writebuf_puts(w, ",");
      hpx_html_int(w, b->values[k * b->stride + idx[i]]);
    }
    hpx_writebuf_puts(w, "]");
  }
  hpx_writebuf_puts(w, "]");
}

/* Are h's times finite and increasing (each census known by its time)? */
static bool increasing(const hp2x_live_held *h) {
  for (size_t i = 0; i < h->n; i++)
    if (!isfinite(h->times[i]) || (i && !(h->times[i] > h->times[i - 1])))
      return false;
  return true;
}

hp2x_status hpx_html_held_take(const hp2x_profile *p, const hp2x_bands *b,
                               const size_t *idx, size_t n, long redraw,
                               hp2x_live_held *now, hp2x_err *err) {
  *now = (hp2x_live_held)HP2X_LIVE_HELD_INIT;
  now->times = hpx_malloc((n ? n : 1) * sizeof *now->times);
  now->totals = hpx_malloc((n ? n : 1) * sizeof *now->totals);
  if (!now->times || !now->totals) {
    hp2x_live_held_clear(now);
    return hpx_nomem(err);
  }
  now->n = n;
  for (size_t i = 0; i < n; i++) {
    now->times[i] = p->times[idx[i]];
    now->totals[i] = total_of(b, idx[i]);
  }
  now->redraw = increasing(now) ? redraw : -1; /* else no base for the next */
  return HP2X_OK;
}

/* One run: `keep` of base's from `from`, then `add` of the new ones. */
typedef struct run {
  size_t from, keep, add;
  int open;
} run;

static void run_flush(writebuf *w, run *r, int *first) {
  if (!r->open || !w) {
    r->open = 0;
    return;
  }
  char num[24];
  hpx_writebuf_puts(w, *first ? "[" : ",[");
  hpx_writebuf_put(w, num, hpx_fmt_int(num, (int64_t)r->from));
  hpx_writebuf_puts(w, ",");
  hpx_writebuf_put(w, num, hpx_fmt_int(num, (int64_t)r->keep));
  hpx_writebuf_puts(w, ",");
  hpx_writebuf_put(w, num, hpx_fmt_int(num, (int64_t)r->add));
  hpx_writebuf_puts(w, "]");
  *first = 0;
  r->open = 0;
}

/* The runs of base's censuses kept in now (w NULL: not written), and the
 * places (in idx's order) of now's censuses that base lacks, in added[]
 * (*n_added). */
static void write_runs(writebuf *w, const hp2x_live_held *base,
                       const hp2x_live_held *now, const size_t *idx,
                       size_t *added, size_t *n_added) {
  run r = {0, 0, 0, 0};
  int first = 1;
  size_t i = 0, m = 0;
  if (w) hpx_html_key(w, "runs", 0), hpx_writebuf_puts(w, "[");
  for (size_t j = 0; j < now->n; j++) {
    double t = now->times[j];
    while (i < base->n && base->times[i] < t) i++; /* dropped */
    if (i < base->n && base->times[i] == t &&
        base->totals[i] == now->totals[j]) { /* kept */
      if (!(r.open && r.add == 0 && r.from + r.keep == i)) {
        run_flush(w, &r, &first);
        r = (run){i, 0, 0, 1};
      }
      r.keep++, i++;
      continue;
    }
    if (i < base->n && base->times[i] == t) i++; /* the same time, changed */
    if (!r.open) r = (run){0, 0, 0, 1};
    r.add++;
    added[m++] = idx[j];
  }
  run_flush(w, &r, &first);
  if (w) hpx_writebuf_puts(w, "]");
  *n_added = m;
}

hp2x_status hpx_html_write_thin(writebuf *w, const hp2x_profile *p,
                                const hp2x_bands *b, const size_t *idx,
                                const hp2x_live_held *base,
                                const hp2x_live_held *now, hp2x_err *err) {
  char num[24];
  int usable = base && base->redraw >= 0 && now->redraw > base->redraw;
  size_t *added = NULL, m = 0;
  if (usable) {
    added = hpx_malloc((now->n ? now->n : 1) * sizeof *added);
    if (!added) return hpx_nomem(err);
    write_runs(NULL, base, now, idx, added, &m);
  }
  /* why none: times that do not increase (the page then fetches the
   * report now and then, as it grows); a held set without a redraw (the
   * stateless hp2x_write_live_update) has none, but no reason */
  const char *why = increasing(now) ? NULL : "times";
  hpx_html_key(w, "thin", 0), hpx_writebuf_puts(w, "{");
  hpx_html_key(w, "base", 1);
  hpx_writebuf_put(
      w, num, hpx_fmt_int(num, usable && !why ? (int64_t)base->redraw : -1));
  if (why) hpx_html_key(w, "why", 0), hpx_html_json_str(w, why);
  if (usable && !why) {
    hpx_html_key(w, "of", 0);
    hpx_writebuf_put(w, num, hpx_fmt_int(num, (int64_t)base->n));
    write_runs(w, base, now, idx, added, &m);
    hpx_html_write_censuses(w, p, b, added, m);
  }
  hpx_writebuf_puts(w, "}");
  hpx_free(added);
  return HP2X_OK;
}
