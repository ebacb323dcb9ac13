/* format.h -- private to libhp2x and its tool: the one table of output
 * formats (format.c), which the writers, drawing, the follower, the tool's
 * options, --help and every message that lists formats read.
 */
#ifndef HPX_FORMAT_H
#define HPX_FORMAT_H

#include "hp2x.h"

#include <stddef.h>

/* Which writer writes a format (output.c calls it). */
typedef enum hpx_writer {
  HPX_WRITER_PICTURE, /* hp2x_render(_many): the picture formats */
  HPX_WRITER_CSV,     /* hp2x_write_csv(_many) */
  HPX_WRITER_HP,      /* hp2x_write_hp: one profile */
  HPX_WRITER_SUMMARY, /* hp2x_write_summary */
  HPX_WRITER_HTML     /* hp2x_write_html: one profile */
} hpx_writer;

/* A row of the output formats' table (format.c): adding a format is a
 * value in hp2x_format, its row there and its writer (for a picture, its
 * surface in surface.c). */
typedef struct hpx_format_info {
  hp2x_format format;
  const char *name;  /* --format's word and the file extension (no dot) */
  const char *label; /* its name in messages' prose: "PS", ".hp" */
  const char *help_name; /* its name in --help's opening sentence
                            ("PostScript"); NULL when an option of its own
                            introduces it there (--summary) */
  hpx_writer writer;
  int has_pages;     /* holds several pages: one picture per page */
  int holds_several; /* one file of it holds several inputs without
                        --layout=stack: a page, rows or a table each */
  int needs_bands;   /* writing it takes a band selection */
} hpx_format_info;

/* Row i of the table, in --help's order; NULL past the last. */
const hpx_format_info *hpx_format_row(size_t i);
/* Format f's row; NULL for a value that is no format. */
const hpx_format_info *hpx_format_of(hp2x_format f);
/* The row whose name is `name` (exact); NULL when none. */
const hpx_format_info *hpx_format_named(const char *name);

/* What a list of formats shows of a row (its name, its label...), or
 * NULL to leave the row out. */
typedef const char *(*hpx_format_shown)(const hpx_format_info *row);

/* The formats that `shown` keeps, in the table's order, each as `shown`
 * gives it after `prefix`, separated by `sep` and the last one by `last`
 * ("ps, eps, ... or txt"), into buf (cut at size); returns buf.  Messages,
 * --help and the library's own errors list formats only this way, so that
 * a format added to the table is in every list it belongs to. */
const char *hpx_format_list(char *buf, size_t size, hpx_format_shown shown,
                            const char *prefix, const char *sep,
                            const char *last);

#endif
