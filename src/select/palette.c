/* palette.c -- band shades as hp2ps picks them (GHC's utils/hp2ps/Shade.c):
 * its ten greys as they are (the seventh is white), and its 27 colours but
 * for two bugs: entry 15 is the intended (0.5, 1, 0), not hp2ps's truncated
 * (0.5, 0.9, 0), and pure white, invisible on the page, is left out.  Shades
 * are encoded as hp2ps's .aux stores them; label colours (colour.c) as
 * 1.RRGGBB, which no hp2ps shade can be, so every .aux decodes alone.
 */
#include "bands_int.h"
#include "breakdown.h"
#include "palette.h"

#include <math.h>

static const double greys[] = {0.0, 0.2, 0.6, 0.3, 0.9,
                               0.4, 1.0, 0.7, 0.5, 0.8};

/* Colours in tenths, hp2ps's order without entry 8 (1 1 1). */
static const unsigned char colours[][3] = {
    {0, 0, 0},   {0, 0, 10}, {0, 10, 0},  {0, 10, 10}, {10, 0, 0}, {10, 0, 10},
    {10, 10, 0}, {0, 0, 5},  {0, 5, 0},   {0, 5, 10},  {0, 10, 5}, {5, 0, 0},
    {5, 0, 10},  {5, 10, 0}, {5, 10, 10}, {10, 0, 5},  {10, 5, 0}, {10, 5, 10},
    {10, 10, 5}, {0, 5, 5},  {5, 0, 5},   {5, 5, 0},   {5, 5, 10}, {5, 10, 5},
    {10, 5, 5},  {5, 5, 5}};

enum {
  N_GREYS = sizeof greys / sizeof greys[0],
  N_COLOURS = sizeof colours / sizeof colours[0]
};

/* hp2ps's encoding: decimal digit pairs, 0.RRGGBB in tenths. */
static double encode_colour(const unsigned char c[3]) {
  return (double)(c[0] * 10000 + c[1] * 100 + c[2]) / 1e6;
}

int hpx_palette_is_colour(const hp2x_options *o) {
  return o->palette == HP2X_PALETTE_LABEL ||
         (o->palette == HP2X_PALETTE_HP2PS && o->colour);
}

void hpx_palette_assign(const hp2x_bands *b, const hp2x_options *o,
                        double *shade) {
  if (hpx_breakdown_shades(b, o, hpx_palette_is_colour(o), shade)) return;
  if (o->palette == HP2X_PALETTE_LABEL) {
    hpx_colour_assign(b, shade);
    return;
  }
  int colour = hpx_palette_is_colour(o);
  size_t next = 0;
  for (size_t k = 0; k < b->n_bands; k++) {
    if (b->shades && b->shades[k] >= 0.0) {
      shade[k] = b->shades[k];
      continue;
    }
    shade[k] = colour ? encode_colour(colours[next % N_COLOURS])
                      : greys[next % N_GREYS];
    next++;
  }
}

/* Digit pair v (tenths, 0 to 10) as an intensity, clamped to 0..1. */
static double tenths_to_unit(long v) {
  if (v < 0) v = 0;
  if (v > 10) v = 10;
  return (double)v / 10.0;
}

void hpx_palette_rgb(double shade, int colour, double rgb[3]) {
  if (!(shade >= 0.0)) shade = 0.0;
  if (!colour) {
    double g = shade > 1.0 ? 1.0 : shade;
    rgb[0] = rgb[1] = rgb[2] = g;
    return;
  }
  if (shade >= 1.0 && shade < 2.0) { /* a label colour, in 99ths */
    long m = lround((shade - 1.0) * 1e6);
    rgb[0] = (double)(m / 10000 % 100) / 99.0;
    rgb[1] = (double)(m / 100 % 100) / 99.0;
    rgb[2] = (double)(m % 100) / 99.0;
    return;
  }
  long n = lround(shade * 1e6);
  rgb[0] = tenths_to_unit(n / 10000);
  rgb[1] = tenths_to_unit(n / 100 % 100);
  rgb[2] = tenths_to_unit(n % 100);
}

hp2x_status hp2x_bands_rgb(const hp2x_bands *b, const hp2x_options *given,
                           double *rgb, hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  double *shade = hpx_malloc((b->n_bands ? b->n_bands : 1) * sizeof *shade);
  if (!shade) return hpx_nomem(err);
  hpx_palette_assign(b, o, shade);
  int colour = hpx_palette_is_colour(o);
  for (size_t k = 0; k < b->n_bands; k++)
    hpx_palette_rgb(shade[k], colour, rgb + 3 * k);
  hpx_free(shade);
  return HP2X_OK;
}
