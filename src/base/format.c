/* format.c -- the one table of output formats (its rows in format.h):
 * each hp2x_format's name (--format's word), its name in prose, which
 * writer writes it (render.c for pictures, or the CSV, .hp, summary, HTML
 * report and pprof writers), its name in --help's opening, whether it
 * holds several pages, whether one file of it holds several inputs,
 * whether it needs a band selection, a picture's page, the format's MIME
 * type, its file names' extension (hp2x_format_for_file finds a file's
 * row by it) and what of the run it holds.  output.c, the tool's option
 * parser, its help and its messages read it.  A leaf: drawing, the
 * follower, output.c and the tool ask it, it asks no one.
 */
#include "base.h"
#include "format.h"

#include <stdio.h>
#include <string.h>

#define FORMAT_INFO(f, name, label, help, writer, pages, several, bands, page, \
                    media, ext, span)                                          \
  {f, name, label, help, writer, pages, several, bands, page, media, ext, span},
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

const hp2x_format_info *hp2x_format_for_file(const char *path, size_t *ext_at) {
  const char *slash = strrchr(path, '/');
  const char *base = slash ? slash + 1 : path;
  size_t n = strlen(base);
  const hp2x_format_info *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < N_FORMATS; i++) {
    size_t m = strlen(formats[i].extension);
    if (m > best_len && n > m && base[n - m - 1] == '.' &&
        !strcmp(base + n - m, formats[i].extension)) {
      best = &formats[i];
      best_len = m;
    }
  }
  if (best && ext_at) *ext_at = (size_t)(base - path) + n - best_len - 1;
  return best;
}

/* The index of the first row from i on that `shown` keeps; past the last
 * row when none. */
static size_t next_shown(size_t i, hp2x_format_shown shown) {
  for (; hp2x_format_row(i) && !shown(hp2x_format_row(i)); i++) {
  }
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
    if (n < 0) break;
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
