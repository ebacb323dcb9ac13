/* breakdown.c -- bands that read as what their profile is broken down by
 * (breakdown.h).  -hb: the five biographies of GHC's biographical
 * profiling, bottom to top USE, INHERENT_USE, LAG, DRAG, VOID (what is
 * used under what is not), each in one fixed colour chosen so that their
 * CIELAB lightness is 55, 72, 89, 39 and 22: distinct in greyscale, and
 * at least 15 apart (CIEDE2000) under normal vision and simulated
 * protanopia, deuteranopia and tritanopia (tests/tools/colour_check.py);
 * without colour, greys of the same lightness.  -he: eras, numbers in
 * order of age, drawn oldest at the bottom with a sequential palette
 * (viridis) from old (dark) to new (light); without colour, greys from
 * dark to light.  OTHER stays a neutral grey (white in greys).
 */
#include "breakdown.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* GHC's biographies (rts/ProfHeap.c), in the order drawn, bottom first:
 * colour in 99ths, grey level of the same lightness. */
static const struct biography {
  const char *name;
  unsigned char rgb[3];
  double grey;
} biographies[] = {
    {"USE", {0, 58, 43}, 0.5},           /* bluish green, L* 55 */
    {"INHERENT_USE", {39, 72, 91}, 0.7}, /* sky blue, L* 72 */
    {"LAG", {93, 89, 26}, 0.9},          /* yellow, L* 89 */
    {"DRAG", {66, 17, 6}, 0.35},         /* brick red, L* 39 */
    {"VOID", {27, 14, 39}, 0.2},         /* aubergine, L* 22 */
};
enum { N_BIOGRAPHIES = sizeof biographies / sizeof biographies[0] };

/* Viridis (van der Walt and Smith, matplotlib's) at tenths, from 0.1: the
 * sequential palette of the eras, oldest first. */
static const double viridis[][3] = {
    {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530}, {0.207, 0.372, 0.553},
    {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551}, {0.135, 0.659, 0.518},
    {0.267, 0.749, 0.441}, {0.478, 0.821, 0.318}, {0.741, 0.873, 0.150},
    {0.993, 0.906, 0.144}};
enum { N_VIRIDIS = sizeof viridis / sizeof viridis[0] };
#define ERA_GREY_OLD 0.25
#define ERA_GREY_NEW 0.92
#define OTHER_GREY 0.85 /* in colour; white in greys */

int hpx_breakdown_era(const char *s, size_t len, uint64_t *era) {
  if (len == 0 || len > 19) return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return 0;
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  *era = v;
  return 1;
}

/* The biography named s (len bytes), or N_BIOGRAPHIES. */
static size_t biography_of(const char *s, size_t len) {
  size_t i = 0;
  for (; i < N_BIOGRAPHIES; i++)
    if (strlen(biographies[i].name) == len &&
        !memcmp(biographies[i].name, s, len))
      break;
  return i;
}

int hpx_breakdown_arranging(const hp2x_profile *p) {
  hp2x_breakdown bd = hp2x_profile_breakdown(p);
  if (bd == HP2X_BREAKDOWN_BIOGRAPHY) return (int)bd;
  if (bd != HP2X_BREAKDOWN_ERA) return 0;
  uint64_t era;
  for (size_t id = 0; id < p->n_labels; id++)
    if (!hpx_breakdown_era(p->labels[id].name, p->labels[id].name_len, &era))
      return 0;
  return (int)bd;
}

const char *hp2x_profile_breakdown_note(const hp2x_profile *p, char *buf,
                                        size_t size) {
  if (!size || hp2x_profile_breakdown(p) != HP2X_BREAKDOWN_ERA) return NULL;
  uint64_t era;
  for (size_t id = 0; id < p->n_labels; id++) {
    const hpx_label *l = &p->labels[id];
    if (hpx_breakdown_era(l->name, l->name_len, &era)) continue;
    int n = l->name_len > 40 ? 40 : (int)l->name_len;
    snprintf(buf, size,
             "the era labels are not all numbers ('%.*s%s'): bands in the "
             "usual order",
             n, l->name, (size_t)n < l->name_len ? "..." : "");
    return buf;
  }
  return NULL;
}

/* A label's place in its breakdown's order: a biography's index, an era's
 * number. */
static uint64_t rank_of(const hp2x_profile *p, int bd, uint32_t id) {
  const hpx_label *l = &p->labels[id];
  uint64_t era = 0;
  if (bd == HP2X_BREAKDOWN_BIOGRAPHY) return biography_of(l->name, l->name_len);
  hpx_breakdown_era(l->name, l->name_len, &era);
  return era;
}

void hpx_breakdown_order(const hp2x_profile *p, int bd, const hp2x_options *o,
                         uint32_t *ids, size_t n) {
  if (!bd || !(o->by_breakdown & HP2X_BY_BREAKDOWN_ORDER) ||
      o->sort != HP2X_SORT_AREA || o->name_order != HP2X_NAME_ORDER_NONE ||
      o->aux)
    return;
  /* An insertion sort, stable: at most -m bands. */
  for (size_t i = 1; i < n; i++) {
    uint32_t id = ids[i];
    uint64_t r = rank_of(p, bd, id);
    size_t j = i;
    for (; j > 0 && rank_of(p, bd, ids[j - 1]) > r; j--) ids[j] = ids[j - 1];
    ids[j] = id;
  }
}

/* A colour in 99ths as a label-colour shade (palette.h: 1.RRGGBB). */
static double shade_99ths(long r, long g, long b) {
  return 1.0 + (double)(r * 10000 + g * 100 + b) / 1e6;
}

/* An era's shade at t, from 0 (the oldest era drawn) to 1 (the newest). */
static double era_shade(double t, int colour) {
  if (!colour) return ERA_GREY_OLD + t * (ERA_GREY_NEW - ERA_GREY_OLD);
  double x = t * (N_VIRIDIS - 1);
  size_t i = (size_t)x;
  if (i >= N_VIRIDIS - 1) i = N_VIRIDIS - 2;
  double f = x - (double)i, c[3];
  for (int j = 0; j < 3; j++)
    c[j] = viridis[i][j] + f * (viridis[i + 1][j] - viridis[i][j]);
  return shade_99ths(lround(c[0] * 99), lround(c[1] * 99), lround(c[2] * 99));
}

/* Each era band's shade by its age among b's era bands (OTHER left out). */
static void era_shades(const hp2x_bands *b, int colour, double *shade) {
  size_t first = b->is_other ? 1 : 0, n = b->n_bands - first;
  for (size_t k = first; k < b->n_bands; k++) {
    uint64_t mine = 0, other;
    hpx_breakdown_era(b->names[k], strlen(b->names[k]), &mine);
    size_t older = 0;
    for (size_t j = first; j < b->n_bands; j++)
      if (hpx_breakdown_era(b->names[j], strlen(b->names[j]), &other) &&
          (other < mine || (other == mine && j < k)))
        older++;
    shade[k] = era_shade(n > 1 ? (double)older / (double)(n - 1) : 1.0, colour);
  }
}

/* Band k's biography shade; `neutral` for a name that is none. */
static double biography_shade(const char *name, int colour, double neutral) {
  size_t i = biography_of(name, strlen(name));
  if (i == N_BIOGRAPHIES) return neutral;
  const unsigned char *c = biographies[i].rgb;
  return colour ? shade_99ths(c[0], c[1], c[2]) : biographies[i].grey;
}

int hpx_breakdown_shades(const hp2x_bands *b, const hp2x_options *o, int colour,
                         double *shade) {
  if (!b->breakdown || !(o->by_breakdown & HP2X_BY_BREAKDOWN_COLOURS) ||
      o->pattern)
    return 0;
  long g = lround(OTHER_GREY * 99);
  double neutral = colour ? shade_99ths(g, g, g) : 1.0; /* OTHER's */
  if (b->breakdown == HP2X_BREAKDOWN_ERA) era_shades(b, colour, shade);
  for (size_t k = 0; k < b->n_bands; k++) {
    if (b->is_other && k == 0)
      shade[k] = neutral;
    else if (b->breakdown == HP2X_BREAKDOWN_BIOGRAPHY)
      shade[k] = biography_shade(b->names[k], colour, neutral);
    if (b->shades && b->shades[k] >= 0.0) shade[k] = b->shades[k];
  }
  return 1;
}
