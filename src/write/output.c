/* output.c -- one entry that writes any output format, so that a caller
 * need not switch on the format: the format's row in format.c's table names
 * its writer; pictures go to render.c, CSV to csv_write.c, .hp text to
 * hp_write.c, the summary table to summary.c, the HTML report to
 * html_write.c and one census (the one hp2x_options.census chooses) to
 * pprof.c, or with hp2x_options.span, as a CSV row (csv_write.c) or a
 * moment table (summary.c).  It keeps no state.
 */
#include "csv_int.h"
#include "base/base.h"

/* The writer of o->format; HP2X_WRITER_PICTURE for a value that is no
 * format (hp2x_render then refuses it). */
static hp2x_writer writer_of(const hp2x_options *o) {
  const hp2x_format_info *row = hp2x_format_of(o->format);
  return row ? row->writer : HP2X_WRITER_PICTURE;
}

/* The census o->census chooses of p, as pprof. */
static hp2x_status write_census(const hp2x_profile *p, const hp2x_options *o,
                                hp2x_write_fn write, void *closure,
                                hp2x_err *err) {
  size_t sample;
  hp2x_status st = hp2x_census_choose(p, &o->census, &sample, err);
  if (st != HP2X_OK) return st;
  return hp2x_write_pprof(p, sample, o, write, closure, err);
}

/* Does o ask a format of either span (CSV, the summary) for one census? */
static int one_census(const hp2x_options *o) {
  const hp2x_format_info *row = hp2x_format_of(o->format);
  return row && row->span == HP2X_SPAN_EITHER && o->span == HP2X_SPAN_CENSUS;
}

/* The census o->census chooses of each profile, as CSV rows or moment
 * tables. */
static hp2x_status write_censuses(const hp2x_profile *const *ps,
                                  const hp2x_bands *const *bs,
                                  const char *const *names, size_t n,
                                  const hp2x_options *o, hp2x_write_fn write,
                                  void *closure, hp2x_err *err) {
  size_t *samples = hpx_malloc((n ? n : 1) * sizeof *samples);
  if (!samples) return hpx_nomem(err);
  hp2x_status st = HP2X_OK;
  for (size_t i = 0; i < n && st == HP2X_OK; i++)
    st = hp2x_census_choose(ps[i], &o->census, &samples[i], err);
  if (st == HP2X_OK)
    st =
        o->format == HP2X_FORMAT_CSV
            ? hp2x_write_csv_censuses(ps, bs, names, samples, n, write, closure,
                                      err)
            : hp2x_write_moment(ps, bs, names, samples, n, write, closure, err);
  hpx_free(samples);
  return st;
}

hp2x_status hp2x_write_output(const hp2x_profile *p, const hp2x_bands *b,
                              const char *name, const hp2x_options *given,
                              hp2x_write_fn write, void *closure,
                              hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (one_census(o))
    return write_censuses(&p, &b, &name, 1, o, write, closure, err);
  switch (writer_of(o)) {
  case HP2X_WRITER_HP: return hp2x_write_hp(p, write, closure, err);
  case HP2X_WRITER_CSV:
    return hpx_write_csv_threads(p, b, o->threads, write, closure, err);
  case HP2X_WRITER_SUMMARY:
    return hp2x_write_summary(&p, &b, &name, 1, write, closure, err);
  case HP2X_WRITER_HTML: return hp2x_write_html(p, b, o, write, closure, err);
  case HP2X_WRITER_PPROF: return write_census(p, o, write, closure, err);
  case HP2X_WRITER_PICTURE: break;
  }
  return hp2x_render(p, b, o, write, closure, err);
}

hp2x_status hp2x_write_output_many(const hp2x_profile *const *ps,
                                   const hp2x_bands *const *bs,
                                   const char *const *names, size_t n,
                                   const hp2x_options *given,
                                   hp2x_write_fn write, void *closure,
                                   hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (one_census(o))
    return write_censuses(ps, bs, names, n, o, write, closure, err);
  switch (writer_of(o)) {
  case HP2X_WRITER_HP:
    if (n == 1) return hp2x_write_hp(ps[0], write, closure, err);
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%zu profiles cannot share one .hp file", n);
  case HP2X_WRITER_CSV:
    return hp2x_write_csv_many(ps, bs, names, n, write, closure, err);
  case HP2X_WRITER_SUMMARY:
    return hp2x_write_summary(ps, bs, names, n, write, closure, err);
  case HP2X_WRITER_HTML:
    if (n == 1) return hp2x_write_html(ps[0], bs[0], o, write, closure, err);
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%zu profiles cannot share one HTML report", n);
  case HP2X_WRITER_PPROF:
    if (n == 1) return write_census(ps[0], o, write, closure, err);
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%zu profiles cannot share one pprof profile", n);
  case HP2X_WRITER_PICTURE: break;
  }
  return hp2x_render_many(ps, bs, n, o, write, closure, err);
}
