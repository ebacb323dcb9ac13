/* options.c -- the drawing options' one home: their defaults (hp2ps's,
 * and those of every field added since), hp2x_options_init_sized for
 * callers, and hpx_options_complete, which every entry point taking options
 * uses to read a caller's possibly older, shorter struct with the newer
 * fields defaulted, with the census choice's default (the peak of the run,
 * hp2x_census_choice_init).  Also the growing structs' one protocol
 * (hpx_sized_init, hpx_sized_read), which the parse options use too.
 */
#include "base.h"

#include <math.h>
#include <string.h>

void hp2x_census_choice_init(hp2x_census_choice *c) {
  c->rule = HP2X_CENSUS_PEAK;
  c->at_s = 0.0;
  c->from_s = -INFINITY;
  c->to_s = INFINITY;
}

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
  hp2x_census_choice_init(&o->census);
  o->chart = HP2X_CHART_STACKED;
  o->by_breakdown = HP2X_BY_BREAKDOWN_ORDER | HP2X_BY_BREAKDOWN_COLOURS;
  o->threads = 1;
}

void hpx_sized_init(void *o, size_t size, const void *defaults,
                    size_t full_size) {
  size_t n = size < full_size ? size : full_size;
  if (n < sizeof(size_t)) return; /* not even room for the size */
  memcpy(o, defaults, n);
  memcpy(o, &n, sizeof n); /* the size field opens the struct */
}

hp2x_status hpx_sized_read(const void *given, size_t min_size, void *full,
                           size_t full_size, const char *what, const char *init,
                           hp2x_err *err) {
  size_t size;
  memcpy(&size, given, sizeof size);
  if (size < min_size)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%s of %zu bytes: start them with %s", what, size, init);
  memcpy(full, given, size < full_size ? size : full_size);
  memcpy(full, &full_size, sizeof full_size);
  return HP2X_OK;
}

void hp2x_options_init_sized(hp2x_options *o, size_t size) {
  hp2x_options d;
  set_option_defaults(&d);
  hpx_sized_init(o, size, &d, sizeof d);
}

hp2x_status hpx_options_complete(const hp2x_options *given, hp2x_options *full,
                                 hp2x_err *err) {
  set_option_defaults(full);
  return hpx_sized_read(given, HP2X_OPTIONS_MIN_SIZE, full, sizeof *full,
                        "options", "hp2x_options_init", err);
}
