/* names.c -- the tool's file names: an input found as hp2ps finds it (NAME
 * or NAME.hp), its stem, hp2ps's default outputs BASE.ps and BASE.aux, the
 * per-input names of a comparison (-o DIR/ or a %s pattern), --diff's
 * B-minus-A and an input's name in messages.  Builds strings only; never
 * prints, never opens a file.
 */
#include "names.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A new string, formatted as by printf; NULL when out of memory. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *
format_name(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

const char *names_format_ext(hp2x_format f) {
  const hp2x_format_info *row = hp2x_format_of(f);
  return row ? row->extension : "ps";
}

const char *names_format_name(const hp2x_format_info *row) { return row->name; }

const char *names_format_extension(const hp2x_format_info *row) {
  return row->extension;
}

const char *names_format_paged_label(const hp2x_format_info *row) {
  return row->writer == HP2X_WRITER_PICTURE && row->has_pages ? row->label
                                                              : NULL;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* hp2ps reads NAME.hp when given NAME; hp2x reads NAME itself when it
 * exists, else NAME.hp when that exists: that name, or NULL (use NAME as
 * given; also for "-" and when out of memory). */
static char *resolve_input(const char *name) {
  struct stat st;
  if (!strcmp(name, "-") || stat(name, &st) == 0) return NULL;
  char *with = format_name("%s.hp", name);
  if (with && stat(with, &st) == 0) return with;
  free(with);
  return NULL;
}

char *names_input_stem(const char *input) {
  const char *slash = strrchr(input, '/');
  const char *base = slash ? slash + 1 : input;
  size_t n = strlen(base);
  if (ends_with(base, ".hp"))
    n -= 3;
  else if (ends_with(base, ".eventlog"))
    n -= 9;
  return format_name("%.*s", (int)n, base);
}

char *names_aux_beside(const char *output) {
  const char *slash = strrchr(output, '/');
  const char *dot = strrchr(output, '.');
  size_t n = (dot && (!slash || dot > slash)) ? (size_t)(dot - output)
                                              : strlen(output);
  hp2x_format_for_file(output, &n); /* a whole NAME.pb.gz's ending */
  return format_name("%.*s.aux", (int)n, output);
}

char *names_expand(const char *pattern, const char *stem) {
  const char *at = strstr(pattern, "%s");
  if (!at) return format_name("%s", pattern);
  return format_name("%.*s%s%s", (int)(at - pattern), pattern, stem, at + 2);
}

char *names_file_pattern(const char *output, hp2x_format f) {
  const char *ext = names_format_ext(f);
  if (output && strstr(output, "%s")) return names_expand(output, "%s");
  const char *dir = output ? output : ".";
  return format_name("%s%s%%s.%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
                     ext);
}

char *names_diff_output(const char *stem_a, const char *stem_b, hp2x_format f) {
  return format_name("%s-minus-%s.%s", stem_b, stem_a, names_format_ext(f));
}

/* hp2ps's BASE.ps beside nothing: in the current directory, named after
 * the input; hp2ps writes BASE.ps even for -e, other formats get their
 * own extension. */
static char *default_output(const tool_args *a, const char *input) {
  char *stem = names_input_stem(input);
  if (!stem) return NULL;
  int eps_by_width = a->opts.format == HP2X_FORMAT_EPS &&
                     a->opts.eps_width_pt != 0.0;
  const char *ext =
      names_format_ext(eps_by_width ? HP2X_FORMAT_PS : a->opts.format);
  char *out = format_name("%s.%s", stem, ext);
  free(stem);
  return out;
}

const char *names_input_path(const char *arg, char **resolved) {
  *resolved = resolve_input(arg);
  return *resolved ? *resolved : arg;
}

const char *names_display(const char *path) {
  return strcmp(path, "-") ? path : "<stdin>";
}

/* -o not given: standard output for standard input, else hp2ps's BASE.ps
 * (with BASE.aux beside a picture).  NULL n->output when out of memory. */
static void settle_output(const tool_args *a, names_one *n, int filter) {
  n->output = a->output;
  if (n->output) return;
  if (filter) {
    n->output = "-";
    return;
  }
  n->output_owned = default_output(a, n->input);
  n->output = n->output_owned;
  n->write_aux = hp2x_format_is_picture(a->opts.format);
}

/* hp2ps's BASE.aux beside a file output (n->aux_path); -p writes it back
 * whatever the format.  NULL n->aux_path when out of memory. */
static void settle_aux(const tool_args *a, names_one *n, int filter) {
  if (a->use_aux) n->write_aux = 1;
  if (n->output && strcmp(n->output, "-") != 0 && !filter)
    n->aux_path = names_aux_beside(n->output);
}

int names_settle_one(const tool_args *a, names_one *n) {
  memset(n, 0, sizeof *n);
  n->input = a->input;
  /* A service address is no file: no NAME.hp. */
  if (a->service.kind == CONNECT_NONE)
    n->input = names_input_path(a->input, &n->input_owned);
  n->display = names_display(n->input);
  int filter = !strcmp(n->input, "-");
  if (a->serve_spec && !a->output) return 0; /* served only: no file */
  settle_output(a, n, filter);
  settle_aux(a, n, filter);
  if (!n->output || (!filter && !n->aux_path && strcmp(n->output, "-")))
    return -1;
  return 0;
}

void names_free_one(names_one *n) {
  free(n->input_owned);
  free(n->output_owned);
  free(n->aux_path);
  n->input_owned = n->output_owned = n->aux_path = NULL;
}
