/* text_only.c -- the drawing's entries in the library's text-only link
 * (the Makefile's TEXT_LIB: every object but the render_*.c and surface.c
 * files, which call cairo, pango and fontconfig, and this one instead),
 * which the lean hp2x program links so that a run writing text (CSV, .hp,
 * the summary, pprof) loads none of those libraries.  Each picture entry
 * fails with HP2X_E_CAIRO saying so; the fonts' entries have no fonts to
 * set up or free.  Not part of libhp2x.a or libhp2x.so, which draw: the
 * lean program hands every run that draws to the full one before it gets
 * here (src/tool/util/handoff.c).
 */
#include "page.h"
#include "base/base.h"

#include <string.h>

static hp2x_status no_drawing(hp2x_err *err) {
  return hpx_fail(err, HP2X_E_CAIRO, 0, -1,
                  "this build of the library draws no pictures (text only)");
}

hp2x_status hp2x_render(const hp2x_profile *p, const hp2x_bands *b,
                        const hp2x_options *o, hp2x_write_fn write,
                        void *closure, hp2x_err *err) {
  (void)p, (void)b, (void)o, (void)write, (void)closure;
  return no_drawing(err);
}

hp2x_status hp2x_render_many(const hp2x_profile *const *ps,
                             const hp2x_bands *const *bs, size_t n,
                             const hp2x_options *o, hp2x_write_fn write,
                             void *closure, hp2x_err *err) {
  (void)ps, (void)bs, (void)n, (void)o, (void)write, (void)closure;
  return no_drawing(err);
}

hp2x_status hpx_render_page(const hp2x_profile *p, const hp2x_bands *b,
                            const hp2x_options *o, hpx_page_geometry *g,
                            hp2x_write_fn write, void *closure, hp2x_err *err) {
  (void)p, (void)b, (void)o, (void)write, (void)closure;
  memset(g, 0, sizeof *g); /* page.h: freed by the caller, even now */
  return no_drawing(err);
}

hp2x_status hp2x_fonts_make_process_default(const char *fonts_conf,
                                            hp2x_err *err) {
  (void)fonts_conf;
  return no_drawing(err);
}

void hp2x_fonts_release(void) {}
