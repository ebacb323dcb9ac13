/* surface.h -- format to cairo surface (surface.c): the picture formats'
 * surfaces, page sizes, the frame transform of each format, and the byte
 * sink behind the surface. */
#ifndef HPX_SURFACE_H
#define HPX_SURFACE_H

#include "hp2x.h"

#include <cairo.h>

typedef struct surface_sink {
  hp2x_write_fn write; /* the caller's sink */
  void *closure;
  int failed; /* the sink failed; errno in saved_errno */
  int saved_errno;
  int ps_header; /* still inside a PS header: rewrite CreationDate */
  char *pending; /* bytes held back (PS header, SVG); owned */
  size_t pending_len, pending_cap;
  const char *date;   /* borrowed: the profile's DATE for %%CreationDate */
  int svg_hold;       /* SVG: hold the document back, to renumber its
                         surface ids and insert `insert` before the
                         closing </svg> */
  const char *insert; /* borrowed; NULL = nothing to insert */
  size_t insert_len;
} surface_sink;

typedef struct surface_page {
  double width_pt, height_pt; /* the page */
  cairo_matrix_t frame;       /* hp2ps frame (y up) to page */
  int clip;                   /* clip to the page (EPS: exact BoundingBox) */
  double slot_dy_pt;          /* stacked pictures: page y from one frame
                                 to the next below it; 0 = one picture */
} surface_page;

/* A picture format's surface: its row in surface.c's table, one for each
 * picture format of base/format.h (checked when compiling). */
typedef struct surface_kind {
  /* makes the surface of `page`, writing through sink; title: plain ASCII */
  cairo_surface_t *(*create)(const hp2x_options *o, const surface_page *page,
                             surface_sink *sink, const char *title);
  int raster;   /* an image in pixels at o->dpi: the page scaled to pixels
                   (hpx_surface_page_to_pixels), painted white first, its
                   PNG bytes written when finished */
  int tooltips; /* holds the bands' tooltips (SVG) */
} surface_kind;

/* Format f's surface; NULL when f is no picture. */
const surface_kind *hpx_surface_kind_of(hp2x_format f);

/* The page and frame transform for a format (its page kind in the
 * formats' table) and options. */
void hpx_surface_page_for(const hp2x_options *o, surface_page *page);
/* The page for n pictures one above the other (--layout=stack): unrotated
 * in every format, the frames 18 pt apart inside the usual margins (none
 * for EPS, whose width is -e's); frame = the top picture's. */
void hpx_surface_page_for_stack(const hp2x_options *o, size_t n,
                                surface_page *page);
/* o->source_date_epoch as an ISO 8601 UTC date (2023-11-14T22:13:20Z), or
 * "" when it is unset (< 0). */
void hpx_surface_source_date(const hp2x_options *o, char *buf, size_t size);

/* Creates o->format's surface (its surface_kind's create, the title made
 * plain ASCII), writing through sink.  Returns a surface in an error
 * state on failure or when o->format is no picture (check
 * cairo_surface_status). */
cairo_surface_t *hpx_surface_create(const hp2x_options *o,
                                    const surface_page *page,
                                    surface_sink *sink, const char *title);

/* PNG: the page in pixels at o->dpi (frame, sizes and slot step scaled
 * from points).  Call after hpx_surface_page_for(_stack). */
void hpx_surface_page_to_pixels(const hp2x_options *o, surface_page *page);
/* PNG: writes the finished image surface's PNG bytes through sink. */
cairo_status_t hpx_surface_write_png(cairo_surface_t *s, surface_sink *sink);

/* Flushes held-back bytes (call after cairo_surface_finish); for SVG,
 * with its surface ids numbered 1, 2, ... in cairo's order and
 * sink->insert placed just before the closing </svg>. */
void hpx_surface_sink_flush(surface_sink *sink);
void hpx_surface_sink_release(surface_sink *sink);

#endif
