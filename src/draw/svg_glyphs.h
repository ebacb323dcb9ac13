/* svg_glyphs.h -- an SVG's glyph names made to depend on the picture
 * alone (svg_glyphs.c), for surface.c's SVG sink. */
#ifndef HPX_SVG_GLYPHS_H
#define HPX_SVG_GLYPHS_H

#include <stddef.h>

/* The SVG document d[0..n) with cairo 1.18's glyphs ("glyph-F-G")
 * renamed by first use and defined in that order: a new buffer
 * (hpx_free) of *out_len bytes; NULL when it has none of those glyphs,
 * they are not as cairo writes them, or memory ran out (d is then the
 * same picture, with cairo's names). */
char *hpx_svg_glyphs_canonical(const char *d, size_t n, size_t *out_len);

#endif
