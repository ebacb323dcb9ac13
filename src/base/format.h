/* format.h -- the one table of output formats, as rows: each format's
 * columns, once.  format.c makes the public rows (hp2x_format_info) of
 * them; a later stage with a row of its own per format checks its rows
 * against these when compiling (draw/surface.c: a surface for every
 * picture, and for nothing else).
 */
#ifndef HPX_FORMAT_H
#define HPX_FORMAT_H

#include "hp2x.h"

/* In the order --help lists them.  X(format, name, label, help name,
 * writer, has_pages, holds_several, needs_bands, page, media type,
 * extension, span): the columns of hp2x_format_info, in its order. */
#define HPX_FORMAT_ROWS(X)                                                  \
  X(HP2X_FORMAT_PS, "ps", "PS", "PostScript", HP2X_WRITER_PICTURE, 1, 1, 1, \
    HP2X_PAGE_HP2PS, "application/postscript", "ps", HP2X_SPAN_RUN)         \
  X(HP2X_FORMAT_EPS, "eps", "EPS", "EPS", HP2X_WRITER_PICTURE, 0, 0, 1,     \
    HP2X_PAGE_FRAME, "application/postscript", "eps", HP2X_SPAN_RUN)        \
  X(HP2X_FORMAT_PDF, "pdf", "PDF", "PDF", HP2X_WRITER_PICTURE, 1, 1, 1,     \
    HP2X_PAGE_FRAME, "application/pdf", "pdf", HP2X_SPAN_RUN)               \
  X(HP2X_FORMAT_SVG, "svg", "SVG", "SVG", HP2X_WRITER_PICTURE, 0, 0, 1,     \
    HP2X_PAGE_FRAME, "image/svg+xml", "svg", HP2X_SPAN_RUN)                 \
  X(HP2X_FORMAT_PNG, "png", "PNG", "PNG", HP2X_WRITER_PICTURE, 0, 0, 1,     \
    HP2X_PAGE_FRAME, "image/png", "png", HP2X_SPAN_RUN)                     \
  X(HP2X_FORMAT_CSV, "csv", "CSV", "CSV", HP2X_WRITER_CSV, 0, 1, 1,         \
    HP2X_PAGE_NONE, "text/csv", "csv", HP2X_SPAN_EITHER)                    \
  X(HP2X_FORMAT_HP, "hp", ".hp", ".hp", HP2X_WRITER_HP, 0, 0, 0,            \
    HP2X_PAGE_NONE, "text/plain", "hp", HP2X_SPAN_RUN)                      \
  X(HP2X_FORMAT_TXT, "txt", "summary", NULL, HP2X_WRITER_SUMMARY, 0, 1, 1,  \
    HP2X_PAGE_NONE, "text/plain", "txt", HP2X_SPAN_EITHER)                  \
  X(HP2X_FORMAT_HTML, "html", "HTML", NULL, HP2X_WRITER_HTML, 0, 0, 1,      \
    HP2X_PAGE_NONE, "text/html", "html", HP2X_SPAN_RUN)                     \
  X(HP2X_FORMAT_PPROF, "pprof", "pprof", NULL, HP2X_WRITER_PPROF, 0, 0, 0,  \
    HP2X_PAGE_NONE, "application/octet-stream", "pb.gz", HP2X_SPAN_CENSUS)

/* A row's bit (1u << format): of every format, and of the pictures. */
#define HPX_FORMAT_BIT(f, ...) | (1u << (f))
#define HPX_FORMAT_PICTURE_BIT(f, name, label, help, writer, ...) \
  | ((writer) == HP2X_WRITER_PICTURE ? 1u << (f) : 0u)

/* The picture formats, one bit each: a stage's rows for the pictures
 * (1u << format each, or'ed) must come to this. */
#define HPX_PICTURE_FORMATS (0u HPX_FORMAT_ROWS(HPX_FORMAT_PICTURE_BIT))

#endif
