/* render_text.c -- all text of a picture, through pango: measured and
 * drawn at a frame point (label bytes made displayable UTF-8 first by
 * display_text.c).
 */
#include "render_int.h"

#include <string.h>

/* ------------------------------------------------------------- text */

/* Pango does not ellipsize very long runs of text (a 1 MiB label is drawn
 * whole), so text that must fit a width is first cut in the middle to at
 * most SHORTEN_KEEP bytes on each side of a U+2026, at character
 * boundaries; pango then fits what is left. */
#define SHORTEN_KEEP 120
static void shorten_middle(char *u) {
  size_t n = strlen(u);
  if (n <= 2 * SHORTEN_KEEP + 3) return;
  size_t head = SHORTEN_KEEP, tail = n - SHORTEN_KEEP;
  while (head > 0 && ((unsigned char)u[head] & 0xc0) == 0x80) head--;
  while (tail < n && ((unsigned char)u[tail] & 0xc0) == 0x80) tail++;
  memcpy(u + head, "\xe2\x80\xa6", 3);
  memmove(u + head + 3, u + tail, n - tail + 1);
}

/* Prepares r->text for `s` at `size_pt`; max_w > 0 ellipsizes in the
 * middle. */
int hpx_render_set_text(render_ctx *r, const char *s, size_t len,
                        double size_pt, double max_w) {
  char *u = hpx_render_display_text(s, len);
  if (!u) {
    r->nomem = 1;
    return 0;
  }
  shorten_middle(u); /* also when measuring: the key caps widths anyway */
  pango_font_description_set_absolute_size(r->font, size_pt * PANGO_SCALE);
  pango_layout_set_font_description(r->text, r->font);
  pango_layout_set_width(r->text, max_w > 0 ? (int)(max_w * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize(r->text, max_w > 0 ? PANGO_ELLIPSIZE_MIDDLE
                                                : PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text(r->text, u, -1);
  hpx_free(u);
  return 1;
}

double hpx_render_text_width(render_ctx *r) {
  PangoRectangle logical;
  pango_layout_get_extents(r->text, NULL, &logical);
  return (double)logical.width / PANGO_SCALE;
}

/* Text matrix for what follows: the current transformation of r->cr. */
void hpx_render_text_matrix_from_cr(render_ctx *r) {
  pango_cairo_update_context(r->cr, r->pango);
  pango_layout_context_changed(r->text);
}

double hpx_render_measure(void *ctx, const char *s, size_t len,
                          double size_pt) {
  render_ctx *r = ctx;
  cairo_save(r->cr);
  cairo_set_matrix(r->cr, &r->upright);
  hpx_render_text_matrix_from_cr(r);
  cairo_restore(r->cr);
  return hpx_render_set_text(r, s, len, size_pt, 0) ? hpx_render_text_width(r)
                                                    : 0.0;
}

/* Draws text with its baseline at frame point (x, y); `up` turns it to
 * read upwards (the y legend). */
double hpx_render_draw_text(render_ctx *r, double x, double y, const char *s,
                            size_t len, double size_pt, enum align a,
                            double max_w, int up) {
  cairo_t *cr = r->cr;
  double w = 0.0;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_scale(cr, 1.0, -1.0); /* the frame's y goes up, text's down */
  if (up) cairo_rotate(cr, -M_PI / 2);
  hpx_render_text_matrix_from_cr(r);
  if (hpx_render_set_text(r, s, len, size_pt, max_w)) {
    w = hpx_render_text_width(r);
    double baseline = (double)pango_layout_get_baseline(r->text) / PANGO_SCALE;
    double dx = a == LEFT ? 0.0 : a == CENTRE ? -w / 2 : -w;
    cairo_move_to(cr, dx, -baseline);
    pango_cairo_show_layout(cr, r->text);
  }
  cairo_restore(cr);
  return w;
}
