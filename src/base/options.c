/* options.c -- the drawing options' one home: their defaults (hp2ps's,
 * and those of every field added since), hp2x_options_init_sized for
 * callers, and hpx_options_complete, which every entry point taking options
 * uses to read a caller's possibly older, shorter struct with the newer
 * fields defaulted.
 */
#include "base.h"

#include <string.h>

/* hp2ps's defaults, and the defaults of the fields added since. */
static void set_option_defaults(hp2x_options *o) {
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
  o->max_bands = 20;
  o->trace_pct = 1.0;
  o->sort = HP2X_SORT_AREA;
  o->name_order = HP2X_NAME_ORDER_NONE;
  o->aux = NULL;
  o->format = HP2X_FORMAT_PS;
  o->dpi = HPX_DEFAULT_DPI;
  o->eps_width_pt = 0.0;
  o->title_box = HP2X_TITLE_AUTO;
  o->uniform = HP2X_UNIFORM_NONE;
  o->fonts_conf = NULL;
  o->source_date_epoch = -1;
}

void hp2x_options_init_sized(hp2x_options *o, size_t size) {
  hp2x_options d;
  set_option_defaults(&d);
  size_t n = size < sizeof d ? size : sizeof d;
  if (n < sizeof d.size) return; /* not even room for the size */
  d.size = n;
  memcpy(o, &d, n);
}

hp2x_status hpx_options_complete(const hp2x_options *given, hp2x_options *full,
                                 hp2x_err *err) {
  set_option_defaults(full);
  if (given->size < HP2X_OPTIONS_MIN_SIZE)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                     "options of %zu bytes: start them with "
                     "hp2x_options_init",
                     given->size);
  memcpy(full, given, given->size < sizeof *full ? given->size : sizeof *full);
  full->size = sizeof *full;
  return HP2X_OK;
}
