/* eventlog_cost_centres.c -- the eventlog's cost centres: the table of
 * those HEAP_PROF_COST_CENTRE events declare (id to label and module), and
 * the -hc label of a stack of their ids, named as GHC's .hp names it.  The
 * events themselves are read in eventlog_events.c.
 */
#include "eventlog_int.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

struct cost_centre {
  uint32_t id;
  char *label;   /* owned */
  char *module;  /* owned */
  int used;      /* slot in use */
};

static cost_centre *find_cost_centre(const evl_parser *ev, uint32_t id) {
  if (!ev->ccs_cap) return NULL;
  size_t mask = ev->ccs_cap - 1;
  for (size_t i = (id * 2654435761u) & mask;; i = (i + 1) & mask) {
    if (!ev->ccs[i].used) return NULL;
    if (ev->ccs[i].id == id) return &ev->ccs[i];
  }
}

static hp2x_status grow_cost_centres(evl_parser *ev, hp2x_err *err) {
  size_t cap = ev->ccs_cap ? ev->ccs_cap * 2 : 256;
  cost_centre *t = hpx_calloc(cap, sizeof *t);
  if (!t) return hpx_nomem(err);
  for (size_t i = 0; i < ev->ccs_cap; i++) {
    if (!ev->ccs[i].used) continue;
    size_t j = (ev->ccs[i].id * 2654435761u) & (cap - 1);
    while (t[j].used) j = (j + 1) & (cap - 1);
    t[j] = ev->ccs[i];
  }
  hpx_free(ev->ccs);
  ev->ccs = t;
  ev->ccs_cap = cap;
  return HP2X_OK;
}

hp2x_status hpx_evl_add_cost_centre(evl_parser *ev, uint32_t id,
                                    const char *label, size_t llen,
                                    const char *module, size_t mlen,
                                    hp2x_err *err) {
  if ((ev->n_ccs + 1) * 2 > ev->ccs_cap &&
      grow_cost_centres(ev, err) != HP2X_OK)
    return err->code;
  cost_centre *c = find_cost_centre(ev, id);
  if (!c) {
    assert((ev->n_ccs + 1) * 2 <= ev->ccs_cap);
    size_t j = (id * 2654435761u) & (ev->ccs_cap - 1);
    while (ev->ccs[j].used) j = (j + 1) & (ev->ccs_cap - 1);
    c = &ev->ccs[j];
    c->used = 1;
    c->id = id;
    ev->n_ccs++;
  }
  char *l = hpx_strndup(label, llen), *m = hpx_strndup(module, mlen);
  if (!l || !m) {
    hpx_free(l);
    hpx_free(m);
    return hpx_nomem(err);
  }
  hpx_free(c->label);
  hpx_free(c->module);
  c->label = l;
  c->module = m;
  return HP2X_OK;
}

void hpx_evl_free_cost_centres(evl_parser *ev) {
  for (size_t i = 0; i < ev->ccs_cap; i++) {
    hpx_free(ev->ccs[i].label);
    hpx_free(ev->ccs[i].module);
  }
  hpx_free(ev->ccs);
  ev->ccs = NULL;
  ev->ccs_cap = ev->n_ccs = 0;
}

/* Appends s (n bytes) to the scratch name ev->name, *len bytes long. */
static hp2x_status append_name(evl_parser *ev, size_t *len, const char *s,
                               size_t n, hp2x_err *err) {
  if (hpx_grow((void **)&ev->name, &ev->name_cap, *len + n + 1, 1, err) !=
      HP2X_OK)
    return err->code;
  memcpy(ev->name + *len, s, n);
  *len += n;
  return HP2X_OK;
}

/* Appends cost centre `id` of a stack to ev->name: "label/" ("label" when
 * last), or "Module.CAF" for a CAF, which GHC prints with no '/'. */
static hp2x_status append_cost_centre(evl_parser *ev, uint32_t id, int last,
                                      size_t *len, hp2x_err *err) {
  const cost_centre *c = find_cost_centre(ev, id);
  if (c && !strcmp(c->label, "CAF")) {
    if (append_name(ev, len, c->module, strlen(c->module), err) != HP2X_OK)
      return err->code;
    return append_name(ev, len, ".CAF", 4, err);
  }
  char unknown[32];
  const char *label = unknown;
  if (c) {
    label = c->label;
  } else {
    hpx_fmt(unknown, sizeof unknown, "<cc %u>", id);
    ev->p->warn.unknown_cost_centres++;
  }
  if (append_name(ev, len, label, strlen(label), err) != HP2X_OK)
    return err->code;
  return last ? HP2X_OK : append_name(ev, len, "/", 1, err);
}

/* The .hp label of a cost-centre stack, as GHC's rts/ProfHeap.c prints it
 * (innermost first, joined by '/', cut to -L bytes with "..."), without
 * the "(ccsID)" prefix, which the eventlog does not carry. */
hp2x_status hpx_evl_stack_name(evl_parser *ev, const unsigned char *ids,
                               size_t depth, size_t *len, hp2x_err *err) {
  *len = 0;
  if (depth == 0) return append_name(ev, len, "MAIN", 4, err);
  for (size_t i = 0; i < depth; i++)
    if (append_cost_centre(ev, evl_be32(ids + 4 * i), i + 1 == depth, len,
                        err) != HP2X_OK)
      return err->code;
  size_t L = (size_t)ev->ccs_length;
  if (L >= 5 && *len > L) {
    *len = L - 4;
    return append_name(ev, len, "...", 3, err);
  }
  return HP2X_OK;
}
