/* fuzz_pipeline.c -- libFuzzer target: the whole pipeline.  The first 8
 * bytes choose the options (band limit, trace, order, colour, title box,
 * format, EPS width); the rest is the profile, of either kind.  Parse,
 * select, render into memory (and CSV, .hp, .aux writers).
 */
#include "fuzz_common.h"

static int sink(void *closure, const void *buf, size_t len) {
  (void)buf;
  *(size_t *)closure += len;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 8) return 0;
  hp2x_options o;
  hp2x_options_init(&o);
  o.max_bands = data[0] % 26;
  o.trace_pct = (data[1] % 51) / 10.0;
  o.sort = data[2] & 1 ? HP2X_SORT_STDDEV : HP2X_SORT_AREA;
  o.name_order = (int)(data[2] >> 1) % 3 - 1;
  o.colour = data[3] & 1;
  o.title_box = (int)((data[3] >> 1) % 3) - 1;
  o.portrait = (data[3] >> 3) & 1;
  o.multipage = (data[3] >> 4) & 1;
  o.no_marks = (data[3] >> 5) & 1;
  static const hp2x_format formats[] = {HP2X_FORMAT_PS, HP2X_FORMAT_EPS,
                                        HP2X_FORMAT_PDF, HP2X_FORMAT_SVG};
  o.format = formats[data[4] % 4];
  if (o.format == HP2X_FORMAT_EPS) o.eps_width_pt = 145.0 + data[5] * 4.0;
  hp2x_profile *p = NULL;
  hp2x_input_kind kind = data[6] & 1 ? HP2X_INPUT_EVENTLOG : HP2X_INPUT_AUTO;
  if (fuzz_parse(data + 8, size - 8, kind, data[7], &p) != HP2X_OK) return 0;
  hp2x_err err;
  hp2x_err_init(&err, "fuzz");
  hp2x_bands *b = NULL;
  size_t bytes = 0;
  if (hp2x_bands_select(p, &o, &b, &err) == HP2X_OK) {
    FUZZ_CHECK(hp2x_render(p, b, &o, sink, &bytes, &err) == HP2X_OK);
    FUZZ_CHECK(bytes > 0);
    FUZZ_CHECK(hp2x_write_csv(p, b, sink, &bytes, &err) == HP2X_OK);
    FUZZ_CHECK(hp2x_write_aux(p, b, &o, sink, &bytes, &err) == HP2X_OK);
    if (o.max_bands) FUZZ_CHECK(hp2x_bands_count(b) <= (size_t)o.max_bands);
  }
  hp2x_err_init(&err, "fuzz");
  (void)hp2x_write_hp(p, sink, &bytes, &err); /* may refuse odd labels */
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  return 0;
}
