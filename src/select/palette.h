/* palette.h -- private to libhp2x: each band's shade, as hp2ps cycles
 * greys and colours (palette.c) or from the band's name (colour.c), and
 * the shade values' encoding, which .aux files store.
 */
#ifndef HPX_PALETTE_H
#define HPX_PALETTE_H

#include "hp2x.h"

/* palette.c: hp2ps's shading.  Fills shade[band] for every band,
 * bottom first: aux SHADE values where b->shades has them, else the next
 * entry of the grey (10) or colour (27, entry 15 fixed, no white) cycle,
 * or for the label palette hpx_colour_assign's choice.  The value is what
 * .aux stores: a grey level, a colour encoded hp2ps's way as decimal digit
 * pairs in tenths (0.100505 = r 1.0, g 0.5, b 0.5), or a label colour as
 * 1 + pairs in 99ths (1.990000 = r 1.0, g 0, b 0). */
void hpx_palette_assign(const hp2x_bands *b, const hp2x_options *o,
                        double *shade);
/* Whether the options draw in colour (shades are colour encodings). */
int hpx_palette_is_colour(const hp2x_options *o);
/* Decodes a shade value into r, g, b in 0..1. */
void hpx_palette_rgb(double shade, int colour, double rgb[3]);

/* colour.c: the label palette's slots and their assignment. */
size_t hpx_colour_slot_count(void);
/* Slot `slot`'s shade value (1.RRGGBB, channels in 99ths). */
double hpx_colour_slot_shade(size_t slot);
/* The slot a name hashes to (64-bit FNV-1a of its bytes mod the
 * slot count, the same on every machine). */
size_t hpx_colour_preferred_slot(const char *name, size_t len);
/* Fills shade[k] for every band: aux shades kept, the others from the top
 * of the key down, each its preferred slot or the next free one. */
void hpx_colour_assign(const hp2x_bands *b, double *shade);

#endif
