/* breakdown.h -- private to libhp2x: what a profile's breakdown decides of
 * its bands (breakdown.c), as hp2x_options.by_breakdown asks: -hb's five
 * biographies in a fixed order and fixed colours; -he's eras, once -m has
 * kept the largest, in era order, coloured from old to new.
 */
#ifndef HPX_BREAKDOWN_H
#define HPX_BREAKDOWN_H

#include "bands_int.h"

/* The breakdown p's bands are arranged by: HP2X_BREAKDOWN_BIOGRAPHY, or
 * HP2X_BREAKDOWN_ERA when every label of p is an era number; else 0. */
int hpx_breakdown_arranging(const hp2x_profile *p);

/* Puts ids[0..n) (label ids of p: the bands kept, bottom first) in the
 * order of breakdown bd (hpx_breakdown_arranging's), when o asks for it
 * (by_breakdown's ORDER, and no -d, -i or .aux order): -hb's USE,
 * INHERENT_USE, LAG, DRAG, VOID; -he's eras, oldest first.  Otherwise
 * leaves them. */
void hpx_breakdown_order(const hp2x_profile *p, int bd, const hp2x_options *o,
                         uint32_t *ids, size_t n);

/* When o asks for b->breakdown's colours (by_breakdown's COLOURS, and no
 * --pattern), fills shade[k] for b's bands (a .aux shade kept; the value
 * a grey level, or with `colour` a label colour, as palette.h encodes
 * them) and returns 1; else 0. */
int hpx_breakdown_shades(const hp2x_bands *b, const hp2x_options *o, int colour,
                         double *shade);

/* 1 and *era when s (len bytes) is an era number ("12"), else 0. */
int hpx_breakdown_era(const char *s, size_t len, uint64_t *era);

#endif
