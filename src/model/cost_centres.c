/* cost_centres.c -- the profile's table of cost centres (cost_centres.h):
 * what HEAP_PROF_COST_CENTRE declared of each id, found by id.  The
 * eventlog reader fills it and names -hc stacks from it; the pprof writer
 * reads each frame's module and source location from it.
 */
#include "cost_centres.h"

#include <string.h>

static size_t home_slot(uint32_t id, size_t slots) {
  return (size_t)((id * 2654435761u) & (uint32_t)(slots - 1));
}

static long find_index(const hpx_cost_centres *t, uint32_t id) {
  if (!t->slots) return -1;
  for (size_t i = home_slot(id, t->slots);; i = (i + 1) & (t->slots - 1)) {
    if (!t->slot[i]) return -1;
    if (t->cc[t->slot[i] - 1].id == id) return (long)t->slot[i] - 1;
  }
}

/* Room for one more: the entries, and slots at most half full. */
static hp2x_status make_room(hpx_cost_centres *t, hp2x_err *err) {
  if (t->n == UINT32_MAX - 1)
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1, "more than %u cost centres",
                    (unsigned)(UINT32_MAX - 1));
  hp2x_status st =
      hpx_grow((void **)&t->cc, &t->cap, t->n + 1, sizeof *t->cc, err);
  if (st != HP2X_OK) return st;
  if ((t->n + 1) * 2 <= t->slots) return HP2X_OK;
  size_t slots = t->slots ? t->slots * 2 : 256;
  uint32_t *s = hpx_calloc(slots, sizeof *s);
  if (!s) return hpx_nomem(err);
  for (size_t k = 0; k < t->n; k++) {
    size_t i = home_slot(t->cc[k].id, slots);
    while (s[i]) i = (i + 1) & (slots - 1);
    s[i] = (uint32_t)k + 1;
  }
  hpx_free(t->slot);
  t->slot = s;
  t->slots = slots;
  return HP2X_OK;
}

hp2x_status hpx_cost_centres_add(hpx_cost_centres *t, uint32_t id,
                                 const char *label, size_t llen,
                                 const char *module, size_t mlen,
                                 const char *srcloc, size_t slen, bool is_caf,
                                 hp2x_err *err) {
  char *l = hpx_strndup(label, llen), *m = hpx_strndup(module, mlen),
       *s = hpx_strndup(srcloc, slen);
  long at = find_index(t, id);
  hp2x_status st = HP2X_OK;
  if (!l || !m || !s)
    st = hpx_nomem(err);
  else if (at < 0)
    st = make_room(t, err);
  if (st != HP2X_OK) {
    hpx_free(l);
    hpx_free(m);
    hpx_free(s);
    return st;
  }
  hpx_cost_centre *c;
  if (at >= 0) {
    c = &t->cc[at];
    hpx_free(c->label);
    hpx_free(c->module);
    hpx_free(c->srcloc);
  } else {
    c = &t->cc[t->n];
    size_t i = home_slot(id, t->slots);
    while (t->slot[i]) i = (i + 1) & (t->slots - 1);
    t->slot[i] = (uint32_t)++t->n;
  }
  *c = (hpx_cost_centre){id, l, m, s, is_caf};
  return HP2X_OK;
}

const hpx_cost_centre *hpx_cost_centres_find(const hpx_cost_centres *t,
                                             uint32_t id) {
  long at = find_index(t, id);
  return at < 0 ? NULL : &t->cc[at];
}

hp2x_status hpx_cost_centres_copy(hpx_cost_centres *to,
                                  const hpx_cost_centres *from, hp2x_err *err) {
  for (size_t k = 0; k < from->n; k++) {
    const hpx_cost_centre *c = &from->cc[k];
    hp2x_status st = hpx_cost_centres_add(
        to, c->id, c->label, strlen(c->label), c->module, strlen(c->module),
        c->srcloc, strlen(c->srcloc), c->is_caf, err);
    if (st != HP2X_OK) return st;
  }
  return HP2X_OK;
}

void hpx_cost_centres_free(hpx_cost_centres *t) {
  for (size_t k = 0; k < t->n; k++) {
    hpx_free(t->cc[k].label);
    hpx_free(t->cc[k].module);
    hpx_free(t->cc[k].srcloc);
  }
  hpx_free(t->cc);
  hpx_free(t->slot);
  memset(t, 0, sizeof *t);
}
