/* aux.h -- private view of a parsed .aux file (aux.c) for bands.c: the
 * ranges, and each band's ORDER and SHADE looked up by name in O(1). */
#ifndef HPX_AUX_H
#define HPX_AUX_H

#include "hp2x.h"

/* X_RANGE / Y_RANGE, or -1 when the file has none. */
double hpx_aux_x_range(const hp2x_aux *aux);
double hpx_aux_y_range(const hp2x_aux *aux);
/* ORDER number of `name` (1 = the bottom band), 0 when absent.  With -p,
 * bands.c sorts the labels by it after every other ordering, as hp2ps
 * does. */
long hpx_aux_order(const hp2x_aux *aux, const char *name, size_t len);
/* SHADE value of `name`, -1 when absent. */
double hpx_aux_shade(const hp2x_aux *aux, const char *name, size_t len);

#endif
