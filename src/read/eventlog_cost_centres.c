/* eventlog_cost_centres.c -- the -hc label of a stack of cost-centre ids,
 * named as GHC's .hp names it, from the cost centres HEAP_PROF_COST_CENTRE
 * events declared (the profile's table, model/cost_centres.c).  The events
 * themselves are read in eventlog_events.c.
 */
#include "eventlog_int.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

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
  const hpx_cost_centre *c = hpx_cost_centres_find(&ev->p->ccs, id);
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
