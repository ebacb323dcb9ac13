/* colour.c -- the label palette (--palette=label, -c's default): each band
 * gets a colour derived from its name, the same on every machine, and no
 * two bands of one picture share one.  Owns the 24 slot colours and the
 * choice among them; palette.c owns hp2ps's greys and colours and the
 * .aux encoding of shades.
 */
#include "bands_int.h"
#include "palette.h"

#include <string.h>

/* The slots, in 99ths of full intensity (so the .aux encoding 1.RRGGBB
 * stores them exactly), sorted by CIELAB hue with the near-greys last, so
 * the next slot is the nearest hue.  Chosen by tests/tools/palette_slots.py:
 * the Okabe-Ito colours, then greedily the sRGB colour (lightness L* 35 to
 * 92) farthest from those chosen, where the distance of two colours is
 * the least CIEDE2000 difference over normal vision and simulated
 * protanopia, deuteranopia and tritanopia (Machado et al. 2009).  Every
 * pair is at least 8.5 apart under all four, 9.7 under normal vision. */
static const unsigned char slots[][3] = {
    {54, 24, 18}, /* L 36 C 41 h 39 */
    {48, 39, 36}, /* L 45 C 11 h 45 */
    {72, 21, 0},  /* L 43 C 75 h 47 */
    {83, 36, 0},  /* L 54 C 77 h 55: Okabe-Ito vermillion */
    {63, 42, 30}, /* L 51 C 32 h 55 */
    {89, 62, 0},  /* L 71 C 76 h 78: Okabe-Ito orange */
    {93, 89, 26}, /* L 89 C 77 h 101: Okabe-Ito yellow */
    {84, 93, 57}, /* L 91 C 48 h 117 */
    {72, 87, 66}, /* L 85 C 32 h 135 */
    {51, 72, 45}, /* L 70 C 43 h 136 */
    {0, 61, 45},  /* L 57 C 47 h 165: Okabe-Ito bluish green */
    {63, 90, 99}, /* L 88 C 24 h 228 */
    {33, 70, 90}, /* L 70 C 36 h 250: Okabe-Ito sky blue */
    {0, 44, 69},  /* L 46 C 42 h 267: Okabe-Ito blue */
    {66, 72, 81}, /* L 75 C 13 h 268 */
    {33, 33, 45}, /* L 37 C 19 h 293 */
    {48, 48, 99}, /* L 58 C 74 h 298 */
    {33, 0, 96},  /* L 35 C 126 h 309 */
    {75, 0, 57},  /* L 43 C 78 h 341 */
    {79, 47, 65}, /* L 61 C 40 h 344: Okabe-Ito reddish purple */
    {36, 33, 36}, /* L 37 C 6 */
    {48, 45, 48}, /* L 50 C 6 */
    {69, 60, 60}, /* L 66 C 9 */
    {75, 75, 75}, /* L 78 C 0 */
};
enum { N_SLOTS = sizeof slots / sizeof slots[0] };

size_t hpx_colour_slot_count(void) { return N_SLOTS; }

double hpx_colour_slot_shade(size_t slot) {
  const unsigned char *c = slots[slot % N_SLOTS];
  return 1.0 + (double)(c[0] * 10000 + c[1] * 100 + c[2]) / 1e6;
}

/* The slot a shade value names, or -1. */
static long slot_of(double shade) {
  for (size_t i = 0; i < N_SLOTS; i++)
    if (hpx_colour_slot_shade(i) == shade) return (long)i;
  return -1;
}

/* 64-bit FNV-1a with its published constants.  Not hpx_hash_bytes: the
 * hash tables' hash may change for speed, a label's colour never may. */
static uint64_t fnv1a(const char *s, size_t len) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

size_t hpx_colour_preferred_slot(const char *name, size_t len) {
  return (size_t)(fnv1a(name, len) % N_SLOTS);
}

void hpx_colour_assign(const hp2x_bands *b, double *shade) {
  unsigned char taken[N_SLOTS] = {0};
  size_t used = 0;
  /* Shades kept from an .aux file come first: they are not moved. */
  for (size_t k = 0; k < b->n_bands; k++) {
    if (!(b->shades && b->shades[k] >= 0.0)) continue;
    shade[k] = b->shades[k];
    long s = slot_of(shade[k]);
    if (s >= 0 && !taken[s]) taken[s] = 1, used++;
  }
  /* Then the key from the top down: the first claim on a slot wins; the
   * others move to the next free slot (the next hue).  Past 24 bands the
   * slots are reused from the start. */
  for (size_t k = b->n_bands; k-- > 0;) {
    if (b->shades && b->shades[k] >= 0.0) continue;
    if (used == N_SLOTS) {
      for (size_t i = 0; i < N_SLOTS; i++) taken[i] = 0;
      used = 0;
    }
    size_t s = hpx_colour_preferred_slot(b->names[k], strlen(b->names[k]));
    while (taken[s]) s = (s + 1) % N_SLOTS;
    taken[s] = 1;
    used++;
    shade[k] = hpx_colour_slot_shade(s);
  }
}
