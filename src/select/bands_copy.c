/* bands_copy.c -- an independent copy of a band selection (a follower's
 * included), for a caller that draws it later, elsewhere or on another
 * thread, while the original keeps changing: names, details, values and
 * shades are copied; a follower's curve index is not (drawing then walks
 * the values, to the same picture).
 */
#include "bands_int.h"

#include <string.h>

static hp2x_status copy_texts(const hp2x_bands *b, hp2x_bands *c,
                              hp2x_err *err) {
  size_t n = b->n_bands;
  c->names = hpx_calloc(n ? n : 1, sizeof *c->names);
  if (!c->names) return hpx_nomem(err);
  for (size_t k = 0; k < n; k++)
    if (!(c->names[k] = hpx_strndup(b->names[k], strlen(b->names[k]))))
      return hpx_nomem(err);
  if (!b->texts) return HP2X_OK;
  c->texts = hpx_calloc(n ? n : 1, sizeof *c->texts);
  if (!c->texts) return hpx_nomem(err);
  for (size_t k = 0; k < n; k++) {
    c->texts[k] = b->texts[k];
    c->texts[k].detail = NULL;
    if (b->texts[k].detail &&
        !(c->texts[k].detail =
              hpx_strndup(b->texts[k].detail, b->texts[k].detail_len)))
      return hpx_nomem(err);
  }
  return HP2X_OK;
}

static hp2x_status copy_numbers(const hp2x_bands *b, hp2x_bands *c,
                                hp2x_err *err) {
  size_t n = b->n_bands, s = b->n_samples;
  c->stride = s;
  size_t cells = n * s;
  c->values = hpx_malloc((cells ? cells : 1) * sizeof *c->values);
  c->shades = hpx_malloc((n ? n : 1) * sizeof *c->shades);
  if (!c->values || !c->shades) return hpx_nomem(err);
  for (size_t k = 0; k < n; k++) {
    if (s)
      memcpy(c->values + k * s, b->values + k * b->stride,
             s * sizeof *c->values);
    c->shades[k] = b->shades ? b->shades[k] : -1.0;
  }
  return HP2X_OK;
}

hp2x_status hp2x_bands_copy(const hp2x_bands *b, hp2x_bands **out,
                            hp2x_err *err) {
  *out = NULL;
  if (!b) return hpx_fail(err, HP2X_E_ARG, 0, -1, "no bands to copy");
  hp2x_bands *c = hpx_malloc(sizeof *c);
  if (!c) return hpx_nomem(err);
  *c = *b;
  c->names = NULL;
  c->texts = NULL;
  c->values = NULL;
  c->shades = NULL;
  c->points = NULL;
  hp2x_status st = copy_texts(b, c, err);
  if (st == HP2X_OK) st = copy_numbers(b, c, err);
  if (st != HP2X_OK) {
    if (!c->names) c->n_bands = 0; /* bands_release walks names */
    hp2x_bands_free(c);
    return st;
  }
  *out = c;
  return HP2X_OK;
}
