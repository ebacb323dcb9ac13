/* format.c -- the one table of output formats (its rows in format.h):
 * each hp2x_format's name (--format's word and the file extension), its
 * name in prose, which writer writes it (render.c for pictures, or the
 * CSV, .hp, summary and HTML report writers), its name in --help's
 * opening, whether it holds several pages, whether one file of it holds
 * several inputs, whether it needs a band selection, a picture's page and
 * the format's MIME type.  output.c, the tool's option parser, its help
 * and its messages read it.  A leaf: drawing, the follower, output.c and
 * the tool ask it, it asks no one.
 */
#include "base.h"
#include "format.h"

#include <stdio.h>
#include <string.h>

#define FORMAT_INFO(f, name, label, help, writer, pages, several, bands,   \
                    page, media)                                           \
  {f, name, label, help, writer, pages, several, bands, page, media},
static const hp2x_format_info formats[] = {HPX_FORMAT_ROWS(FORMAT_INFO)};
enum { N_FORMATS = sizeof formats / sizeof formats[0] };
/* Rows for the values 0 .. N_FORMATS - 1, each once: a new format's value
 * comes at the end of hp2x_format with its row. */
_Static_assert((0u HPX_FORMAT_ROWS(HPX_FORMAT_BIT)) == (1u << N_FORMATS) - 1u,
               "one row for each hp2x_format, each once");

const hp2x_format_info *hp2x_format_row(size_t i) {
  return i < N_FORMATS ? &formats[i] : NULL;
}

const hp2x_format_info *hp2x_format_of(hp2x_format f) {
  for (size_t i = 0; i < N_FORMATS; i++)
    if (formats[i].format == f) return &formats[i];
  return NULL;
}

const hp2x_format_info *hp2x_format_named(const char *name) {
  for (size_t i = 0; i < N_FORMATS; i++)
    if (!strcmp(formats[i].name, name)) return &formats[i];
  return NULL;
}

/* The index of the first row from i on that `shown` keeps; past the last
 * row when none. */
static size_t next_shown(size_t i, hp2x_format_shown shown) {
  for (; hp2x_format_row(i) && !shown(hp2x_format_row(i)); i++) {}
  return i;
}

const char *hp2x_format_list(char *buf, size_t size, hp2x_format_shown shown,
                            const char *prefix, const char *sep,
                            const char *last) {
  size_t at = 0;
  buf[0] = '\0';
  for (size_t i = next_shown(0, shown); hp2x_format_row(i) && at < size;) {
    size_t next = next_shown(i + 1, shown);
    const char *before = !buf[0] ? "" : hp2x_format_row(next) ? sep : last;
    int n = snprintf(buf + at, size - at, "%s%s%s", before, prefix,
                     shown(hp2x_format_row(i)));
    if (n < 0)
      break;
    at += (size_t)n;
    i = next;
  }
  return buf;
}

int hp2x_format_is_picture(hp2x_format f) {
  const hp2x_format_info *row = hp2x_format_of(f);
  return row && row->writer == HP2X_WRITER_PICTURE;
}

int hp2x_format_has_pages(hp2x_format f) {
  const hp2x_format_info *row = hp2x_format_of(f);
  return row && row->has_pages;
}

int hp2x_format_needs_bands(hp2x_format f) {
  const hp2x_format_info *row = hp2x_format_of(f);
  return !row || row->needs_bands;
}
