/* cost_centres.h -- private to libhp2x: the cost centres an eventlog's
 * HEAP_PROF_COST_CENTRE events declare (cost_centres.c), kept in the
 * profile so that what reads a -hc stack (its label key: the stack's ids)
 * has each frame's name, module and source location.  model.h includes
 * it: the profile holds the table.
 */
#ifndef HPX_COST_CENTRES_H
#define HPX_COST_CENTRES_H

#include "base/base.h"

typedef struct hpx_cost_centre {
  uint32_t id;  /* the runtime's number for it */
  char *label;  /* "go", or "CAF"; owned, never NULL */
  char *module; /* "Main"; owned, never NULL */
  char *srcloc; /* "leak.hs:12:5-20", "<built-in>", ...; owned, never
                   NULL */
  bool is_caf;  /* the event's CAF flag */
} hpx_cost_centre;

typedef struct hpx_cost_centres {
  hpx_cost_centre *cc; /* in order of declaration; owned */
  size_t n, cap;
  uint32_t *slot; /* open addressing by id: index + 1, 0 = empty;
                     owned */
  size_t slots;   /* power of two, >= 2n; 0 before the first */
} hpx_cost_centres;

/* Declares cost centre `id` (its strings copied; a second declaration of
 * an id replaces the first).  HP2X_E_NOMEM leaves the table as it was. */
hp2x_status hpx_cost_centres_add(hpx_cost_centres *t, uint32_t id,
                                 const char *label, size_t llen,
                                 const char *module, size_t mlen,
                                 const char *srcloc, size_t slen, bool is_caf,
                                 hp2x_err *err);
/* Cost centre `id`, or NULL when none was declared. */
const hpx_cost_centre *hpx_cost_centres_find(const hpx_cost_centres *t,
                                             uint32_t id);
/* Copies every cost centre of `from` into `to`.  HP2X_E_NOMEM. */
hp2x_status hpx_cost_centres_copy(hpx_cost_centres *to,
                                  const hpx_cost_centres *from, hp2x_err *err);
void hpx_cost_centres_free(hpx_cost_centres *t);

#endif
