/* render.c -- draws profiles' selected bands with cairo on whatever surface
 * surface.c made for the format: one drawing path for PS, EPS, PDF, SVG and
 * PNG, at the places layout.c computes.  Owns the render context's life
 * (render_int.h), the checks of the options a picture needs, the pages (a
 * picture each, or stacked on one) and what each page holds in which order,
 * the sink's ending and the result: hp2x_render, hp2x_render_many and the
 * HTML report's picture (hpx_render_page).  What is drawn is in the
 * render_*.c files.
 */
#include "render_int.h"
#include "page.h"
#include "select/palette.h"

#include <cairo-svg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Starts drawing picture `slot` (0 = top) of the page. */
static void begin_page(render_ctx *r, const surface_page *page, size_t slot) {
  cairo_t *cr = r->cr;
  cairo_identity_matrix(cr);
  cairo_reset_clip(cr);
  if (page->clip) {
    cairo_rectangle(cr, 0, 0, page->width_pt, page->height_pt);
    cairo_clip(cr);
  }
  cairo_matrix_t frame = page->frame;
  frame.y0 += (double)slot * page->slot_dy_pt;
  cairo_set_matrix(cr, &frame);
}

/* Key pages (multi-page output): the key alone, LAYOUT_KEY_PER_PAGE
 * entries a page, before the graph's page. */
static void draw_key_pages(render_ctx *r, const hp2x_profile *p,
                           const hp2x_bands *b, const layout *l,
                           const surface_page *page, const double *shade) {
  for (int pg = 0; pg < l->key_pages; pg++) {
    begin_page(r, page, 0);
    hpx_render_draw_frame(r, p, b, l);
    hpx_render_draw_key_page(r, p, b, l, shade, pg);
    cairo_show_page(r->cr);
  }
}

/* The graph's page, in slot `slot`: frame, bands, --heap lines, axes,
 * marks and the key beside the graph. */
static hp2x_status draw_graph_page(render_ctx *r, const hp2x_profile *p,
                                   const hp2x_bands *b, const layout *l,
                                   const double *shade, const hp2x_options *o,
                                   const surface_page *page, size_t slot,
                                   hp2x_err *err) {
  /* Device columns at 600 dpi of the final picture; 0: every sample. */
  size_t columns = o->all_samples ? 0
                                  : hpx_layout_columns_across(l->graph_w, o);
  begin_page(r, page, slot);
  if (!r->measure_only) hpx_render_draw_frame(r, p, b, l);
  if (r->page) { /* the report's page draws what follows x */
    hpx_render_draw_axes(r, p, l);
    if (o->max_bands != 0 && l->key_pages == 0)
      hpx_render_draw_key_beside(r, p, b, l, shade);
    return HP2X_OK;
  }
  size_t drawn = o->all_samples ? b->n_samples : columns;
  hp2x_status st =
      l->axis.kind == HP2X_CHART_STACKED
          ? hpx_render_draw_bands(r, p, b, l, shade, drawn, o->all_samples, err)
          : hpx_render_draw_chart(r, p, b, l, shade, drawn, err);
  if (st == HP2X_OK && l->n_lines)
    st = hpx_render_draw_heap_lines(r, b, l, columns, err);
  if (st != HP2X_OK) return st;
  hpx_render_draw_axes(r, p, l);
  if (!o->no_marks) hpx_render_draw_marks(r, p, b, l);
  if (o->max_bands != 0 && l->key_pages == 0)
    hpx_render_draw_key_beside(r, p, b, l, shade);
  return HP2X_OK;
}

/* Draws one picture: its key pages (multi-page), then the graph page.
 * Stacked pictures share one page: slot places it, and the caller shows
 * the page. */
static hp2x_status draw_picture(render_ctx *r, const hp2x_profile *p,
                                const hp2x_bands *b, const hp2x_options *o,
                                const surface_page *page, size_t slot,
                                int stacked, hp2x_err *err) {
  int paged = hp2x_format_has_pages(o->format);
  int multipage = paged && !stacked && o->eps_width_pt <= 0.0 &&
                  (o->multipage || o->max_bands > LAYOUT_KEY_PER_PAGE);
  r->upright = page->frame;
  cairo_matrix_scale(&r->upright, 1.0, -1.0);
  layout l;
  hp2x_status st =
      hpx_layout_compute(p, b, o, multipage, hpx_render_measure, r, &l, err);
  if (st != HP2X_OK) return st;
  size_t nb = b->n_bands;
  double *shade = hpx_malloc((nb ? nb : 1) * sizeof *shade);
  if (!shade) {
    hpx_layout_free(&l);
    return hpx_nomem(err);
  }
  hpx_palette_assign(b, o, shade);
  if (r->page)
    st = hpx_render_page_geometry(r, p, b, &l, shade, &page->frame, err);
  if (st == HP2X_OK && o->max_bands != 0)
    draw_key_pages(r, p, b, &l, page, shade);
  if (st == HP2X_OK)
    st = draw_graph_page(r, p, b, &l, shade, o, page, slot, err);
  if (st == HP2X_OK && !stacked) cairo_show_page(r->cr);
  hpx_free(shade);
  hpx_layout_free(&l);
  if (st == HP2X_OK && r->nomem) st = hpx_nomem(err);
  return st;
}

/* The document title: the JOB strings, joined. */
static void doc_title(char *buf, size_t size, const hp2x_profile *const *ps,
                      size_t n) {
  size_t o = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && o + 1 < size; i++) {
    int w = snprintf(buf + o, size - o, "%s%s", i ? " | " : "", ps[i]->job);
    if (w < 0) break;
    o += (size_t)w;
  }
}

/* HP2X_E_ARG unless o asks for a picture drawable here; then *map is a
 * font map of o->fonts_conf, ready and this render's until it gives it
 * back (errors as hpx_render_take_font_map). */
static hp2x_status check_picture_options(const hp2x_options *o,
                                         PangoFontMap **map, font_entry **fonts,
                                         hp2x_err *err) {
  if (!hp2x_format_is_picture(o->format))
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "not a picture format");
  if (hpx_surface_kind_of(o->format)->raster && o->dpi != 0.0 &&
      !(o->dpi >= HP2X_DPI_MIN && o->dpi <= HP2X_DPI_MAX))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%g dpi is outside %d..%d (0: the default)", o->dpi,
                    HP2X_DPI_MIN, HP2X_DPI_MAX);
  if (o->eps_width_pt != 0.0 && !(o->eps_width_pt > HP2X_EPS_WIDTH_MIN_PT &&
                                  o->eps_width_pt <= HP2X_EPS_WIDTH_MAX_PT))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "an EPS width of %g pt is not over %d and up to %d "
                    "(0: not EPS-scaled)",
                    o->eps_width_pt, HP2X_EPS_WIDTH_MIN_PT,
                    HP2X_EPS_WIDTH_MAX_PT);
  *map = hpx_render_take_font_map(o->fonts_conf, 0, fonts, err);
  return *map ? HP2X_OK : err->code;
}

/* A sink writing through `write`, dated `sde` (o->source_date_epoch, ""
 * when unset) or else p's DATE: hp2ps dates PostScript with the profile's
 * DATE; a source date, when given, dates every format instead. */
static void init_sink(surface_sink *sink, hp2x_write_fn write, void *closure,
                      const char *sde, const hp2x_profile *p) {
  memset(sink, 0, sizeof *sink);
  sink->write = write;
  sink->closure = closure;
  sink->date = sde[0] ? sde : p->date;
}

/* Starts drawing on `surface`: r's cairo and pango state, the SVG tooltip
 * group opened, a PNG painted white (an image starts black).  The cairo
 * error state, if any, as HP2X_E_IO (the sink failed) or HP2X_E_CAIRO;
 * close_context undoes it either way. */
static hp2x_status open_context(render_ctx *r, cairo_surface_t *surface,
                                PangoFontMap *map, const hp2x_options *o,
                                const surface_sink *sink,
                                hpx_page_geometry *geom, hp2x_err *err) {
  memset(r, 0, sizeof *r);
  r->colour = hpx_palette_is_colour(o);
  r->pattern = o->pattern;
  r->page = geom;
  const surface_kind *kind = hpx_surface_kind_of(o->format);
  r->tips = kind->tooltips && !geom;
  if (r->tips)
    hpx_render_tip_str(r, "<g id=\"hp2x-tooltips\" fill=\"#000\" "
                          "fill-opacity=\"0\" stroke=\"none\">\n");
  r->cr = cairo_create(surface);
  if (geom) hpx_render_fill_strokes(r->cr);
  r->pango = hpx_render_new_text_context(map);
  r->text = pango_layout_new(r->pango);
  r->font = pango_font_description_from_string(FONT_FAMILY);
  if (kind->raster) {
    cairo_set_source_rgb(r->cr, 1, 1, 1);
    cairo_paint(r->cr);
  }
  if (cairo_status(r->cr) == CAIRO_STATUS_SUCCESS) return HP2X_OK;
  return hpx_fail(err, sink->failed ? HP2X_E_IO : HP2X_E_CAIRO, 0, -1, "%s",
                  sink->failed ? strerror(sink->saved_errno)
                               : cairo_status_to_string(cairo_status(r->cr)));
}

/* Ends drawing: frees r's cairo and pango state, and hands the SVG tooltip
 * group to the sink (r->tip stays r's, to free after the sink's flush).
 * Returns st, or HP2X_E_NOMEM when the tooltips ran out of memory. */
static hp2x_status close_context(render_ctx *r, surface_sink *sink,
                                 hp2x_status st, hp2x_err *err) {
  for (size_t i = 0; i < sizeof r->hatch / sizeof r->hatch[0]; i++)
    if (r->hatch[i]) cairo_pattern_destroy(r->hatch[i]);
  pango_font_description_free(r->font);
  g_object_unref(r->text);
  g_object_unref(r->pango);
  if (r->tips) {
    hpx_render_tip_str(r, "</g>\n");
    if (!r->nomem) {
      sink->insert = r->tip;
      sink->insert_len = r->tip_len;
    } else if (st == HP2X_OK) {
      st = hpx_nomem(err);
    }
  }
  cairo_destroy(r->cr);
  return st;
}

/* Finishes and destroys the surface, writing a PNG's bytes first when
 * write_png, and flushes the sink.  Returns cairo's verdict. */
static cairo_status_t finish_surface(cairo_surface_t *surface,
                                     surface_sink *sink, int write_png) {
  cairo_status_t cs = CAIRO_STATUS_SUCCESS;
  if (write_png && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
    cs = hpx_surface_write_png(surface, sink);
  cairo_surface_finish(surface);
  if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  hpx_surface_sink_flush(sink);
  hpx_surface_sink_release(sink);
  return cs;
}

/* The result of a rendering whose drawing ended in st: st, else the sink's
 * or cairo's failure. */
static hp2x_status output_status(hp2x_status st, const surface_sink *sink,
                                 cairo_status_t cs, hp2x_err *err) {
  if (st != HP2X_OK) return st;
  if (sink->failed && sink->saved_errno == ENOMEM) return hpx_nomem(err);
  if (sink->failed)
    return hpx_fail(err, HP2X_E_IO, 0, -1, "write failed: %s",
                    strerror(sink->saved_errno));
  if (cs != CAIRO_STATUS_SUCCESS)
    return hpx_fail(err, HP2X_E_CAIRO, 0, -1, "cairo: %s",
                    cairo_status_to_string(cs));
  return HP2X_OK;
}

/* Draws n pictures onto one surface: a page each, or stacked on one;
 * geom: the report's picture (one), else NULL. */
static hp2x_status render_pictures(const hp2x_profile *const *ps,
                                   const hp2x_bands *const *bs, size_t n,
                                   const hp2x_options *o, int stacked,
                                   hpx_page_geometry *geom, hp2x_write_fn write,
                                   void *closure, hp2x_err *err) {
  PangoFontMap *map = NULL;
  font_entry *fonts = NULL;
  for (size_t i = 0; i < n; i++)
    if (hpx_chart_check(bs[i], o, err) != HP2X_OK) return err->code;
  hp2x_status st = check_picture_options(o, &map, &fonts, err);
  if (st != HP2X_OK) return st;
  surface_page page;
  if (stacked)
    hpx_surface_page_for_stack(o, n, &page);
  else
    hpx_surface_page_for(o, &page);
  int raster = hpx_surface_kind_of(o->format)->raster;
  if (raster || geom) /* the report's SVG: in the pixels of a PNG */
    hpx_surface_page_to_pixels(o, &page);
  if (geom) geom->width_pt = page.width_pt, geom->height_pt = page.height_pt;
  char sde[32], title[200];
  hpx_surface_source_date(o, sde, sizeof sde);
  surface_sink sink;
  init_sink(&sink, write, closure, sde, ps[0]);
  doc_title(title, sizeof title, ps, n);
  int measure_only = geom && !write; /* hpx_render_page's geometry alone */
  cairo_surface_t *surface =
      measure_only
          ? cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL)
          : hpx_surface_create(o, &page, &sink, title);
  if (geom && !measure_only) /* glyphs on whole pixels, as in a PNG */
    cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
  render_ctx r;
  st = open_context(&r, surface, map, o, &sink, geom, err);
  r.measure_only = measure_only;
  for (size_t i = 0; i < n && st == HP2X_OK; i++)
    st =
        draw_picture(&r, ps[i], bs[i], o, &page, stacked ? i : 0, stacked, err);
  if (st == HP2X_OK && stacked) cairo_show_page(r.cr);
  st = close_context(&r, &sink, st, err);
  cairo_status_t cs = finish_surface(surface, &sink, raster && st == HP2X_OK);
  hpx_render_release_font_map(fonts, map);
  hpx_free(r.tip);
  return output_status(st, &sink, cs, err);
}

hp2x_status hp2x_render(const hp2x_profile *p, const hp2x_bands *b,
                        const hp2x_options *given, hp2x_write_fn write,
                        void *closure, hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  return render_pictures(&p, &b, 1, o, 0, NULL, write, closure, err);
}

hp2x_status hpx_render_page(const hp2x_profile *p, const hp2x_bands *b,
                            const hp2x_options *given, hpx_page_geometry *g,
                            hp2x_write_fn write, void *closure, hp2x_err *err) {
  memset(g, 0, sizeof *g);
  hp2x_options o;
  hp2x_status options_status = hpx_options_complete(given, &o, err);
  if (options_status != HP2X_OK) return options_status;
  o.format = HP2X_FORMAT_SVG;
  o.multipage = 0;
  o.dpi = HPX_PAGE_DPI;
  return render_pictures(&p, &b, 1, &o, 0, g, write, closure, err);
}

/* The picture formats of one page ("EPS"), for hp2x_format_list. */
static const char *one_page_label(const hp2x_format_info *row) {
  return row->writer == HP2X_WRITER_PICTURE && !row->has_pages ? row->label
                                                               : NULL;
}

hp2x_status hp2x_render_many(const hp2x_profile *const *ps,
                             const hp2x_bands *const *bs, size_t n,
                             const hp2x_options *given, hp2x_write_fn write,
                             void *closure, hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (n == 0) return hpx_fail(err, HP2X_E_ARG, 0, -1, "no profiles to draw");
  int stacked = o->layout == HP2X_LAYOUT_STACK;
  if (!stacked && n > 1 && !hp2x_format_has_pages(o->format)) {
    char one_page[64];
    hp2x_format_list(one_page, sizeof one_page, one_page_label, "", ", ",
                     " and ");
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "%s have one page: stack the pictures or write one "
                    "file each",
                    one_page);
  }
  return render_pictures(ps, bs, n, o, stacked, NULL, write, closure, err);
}
