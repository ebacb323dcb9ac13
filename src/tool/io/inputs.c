/* inputs.c -- the tool's inputs read whole: a profile (.hp or eventlog,
 * from a file or standard input) through the library's parser (a regular
 * file read with pread on --jobs threads), the
 * warnings about what it let through, and hp2ps's .aux file for -p.
 * Watch mode reads its input piece by piece instead (source.c).
 */
#include "inputs.h"

#include "util/messages.h"
#include "util/numbers.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int inputs_read_profile(const char *path, const char *display,
                        const hp2x_parse_options *o, hp2x_profile **p) {
  *p = NULL;
  int fd = STDIN_FILENO;
  if (strcmp(path, "-") != 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
    msg_errorf("%s: cannot open: %s", path, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  /* Read once: a regular file is read with pread on o->threads threads. */
  hp2x_parser *ps = hp2x_parser_new(display, o, &err);
  hp2x_status st = ps ? hp2x_parser_feed_fd(ps, fd, 0, &err) : err.code;
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, p, &err);
  hp2x_parser_free(ps);
  if (fd != STDIN_FILENO) close(fd);
  if (st != HP2X_OK) {
    msg_report(display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

/* The warning for an input that stops short. */
static void warn_truncated(const char *display, const hp2x_profile *p) {
  const hp2x_warnings *w = hp2x_profile_warnings(p);
  hp2x_err e;
  hp2x_err_init(&e);
  e.line = w->truncated_line;
  e.offset = w->truncated_offset;
  if (w->truncated_between)
    snprintf(e.msg, sizeof e.msg,
             "eventlog ends without its end marker, between two events "
             "(still being written, the program was stopped, or a stream "
             "was closed); using the %zu complete samples",
             hp2x_profile_samples_read(p));
  else
    snprintf(e.msg, sizeof e.msg,
             "profile ends inside a sample (still being written, or the "
             "program was killed); using the %zu complete samples",
             hp2x_profile_samples_read(p));
  msg_report(display, &e, "warning");
}

/* The warning for the corrupt stretches an eventlog's reader skipped. */
static void warn_corrupt(const char *display, const hp2x_profile *p) {
  const hp2x_warnings *w = hp2x_profile_warnings(p);
  hp2x_err e;
  hp2x_err_init(&e);
  e.offset = w->corrupt_from;
  char lost[64] = "no census";
  if (w->censuses_lost == 1 && w->first_lost_census_s >= 0)
    numbers_snprintf(lost, sizeof lost, "the census at %.6f s",
                     w->first_lost_census_s);
  else if (w->censuses_lost == 1)
    snprintf(lost, sizeof lost, "one census");
  else if (w->censuses_lost > 1)
    snprintf(lost, sizeof lost, "%ld censuses", w->censuses_lost);
  char more[64] = "";
  if (w->corrupt_regions > 1)
    snprintf(more, sizeof more, " (and %ld more corrupt stretches)",
             w->corrupt_regions - 1);
  /* A long reason may cut the end of the line; it is still one line. */
  int n = snprintf(e.msg, sizeof e.msg,
                   "corrupt event (%s); skipped bytes %lld-%lld%s, losing "
                   "%s; using the %zu complete samples",
                   w->corrupt_reason, w->corrupt_from, w->corrupt_to - 1, more,
                   lost, hp2x_profile_samples_read(p));
  if (n < 0) e.msg[0] = '\0';
  msg_report(display, &e, "warning");
}

/* One warning: text (at line, or 0). */
static void warn_line(const char *display, long line, const char *text) {
  hp2x_err e;
  hp2x_err_init(&e);
  e.line = line;
  snprintf(e.msg, sizeof e.msg, "%s", text);
  msg_report(display, &e, "warning");
}

void inputs_warn_profile(const char *display, const hp2x_profile *p,
                         const hp2x_options *o, int from_service) {
  const hp2x_warnings *w = hp2x_profile_warnings(p);
  char text[200];
  /* A service's stream stops where the service stopped (run/watch.c says
   * when that was inside an event). */
  if (w->truncated && !from_service) warn_truncated(display, p);
  if (w->corrupt_regions) warn_corrupt(display, p);
  if (w->duplicate_labels) {
    snprintf(text, sizeof text,
             "%ld repeated label(s) within a sample; their values are added",
             w->duplicate_labels);
    warn_line(display, w->first_duplicate_line, text);
  }
  if (o->heap_overlay && hp2x_profile_heap_points(p) == 0 &&
      hp2x_profile_samples_read(p) > 0)
    warn_line(display, 0,
              "--heap: no heap size events (only eventlogs have them); no "
              "lines drawn");
  /* Said once, in every output that draws or lists bands. */
  if (o->format != HP2X_FORMAT_HP &&
      hp2x_profile_breakdown_note(p, text, sizeof text)) {
    hp2x_err e;
    hp2x_err_init(&e);
    snprintf(e.msg, sizeof e.msg, "%s", text);
    msg_report(display, &e, "note");
  }
  if (w->unknown_cost_centres) {
    snprintf(text, sizeof text,
             "%ld stack(s) name cost centres the eventlog never defines; "
             "shown as <cc N>",
             w->unknown_cost_centres);
    warn_line(display, 0, text);
  }
}

/* The largest .aux file -p reads (hp2ps writes a few lines per band). */
#define INPUTS_MAX_AUX_BYTES (64 << 20)

/* Reads the open file f whole into *text (malloc'ed, *len bytes), at most
 * INPUTS_MAX_AUX_BYTES.  Returns an exit status, reported. */
static int read_aux_text(FILE *f, const char *path, char **text, size_t *len) {
  size_t cap = 4096, n;
  char *t = malloc(cap);
  *len = 0;
  while (t && (n = fread(t + *len, 1, cap - *len, f)) > 0) {
    *len += n;
    if (*len > INPUTS_MAX_AUX_BYTES) {
      free(t);
      msg_errorf("%s: byte %zu: larger than %d MiB: not an hp2ps .aux file",
                 path, (size_t)INPUTS_MAX_AUX_BYTES,
                 INPUTS_MAX_AUX_BYTES >> 20);
      return EXIT_BAD_INPUT;
    }
    if (*len == cap) {
      char *bigger = realloc(t, cap *= 2);
      if (!bigger) free(t);
      t = bigger;
    }
  }
  int read_failed = ferror(f);
  if (!t || read_failed) {
    free(t);
    msg_errorf("%s: cannot read: %s", path,
               read_failed ? strerror(errno) : "out of memory");
    return EXIT_BAD_INPUT;
  }
  *text = t;
  return EXIT_OK;
}

/* -p: parses the .aux at `path` into *aux (owned by the caller). */
static int parse_aux_file(const char *path, hp2x_aux **aux) {
  *aux = NULL;
  FILE *f = fopen(path, "rb");
  if (!f) {
    msg_errorf("%s: cannot open: %s", path, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  char *text = NULL;
  size_t len = 0;
  int rc = read_aux_text(f, path, &text, &len);
  fclose(f);
  if (rc != EXIT_OK) return rc;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_status st = hp2x_aux_parse(text, len, path, aux, &err);
  free(text);
  if (st != HP2X_OK) {
    msg_report(path, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

int inputs_attach_aux(const char *path, hp2x_options *o, hp2x_aux **aux) {
  *aux = NULL;
  if (!path) return EXIT_OK;
  int rc = parse_aux_file(path, aux);
  o->aux = *aux;
  return rc;
}

void inputs_release_aux(hp2x_options *o, hp2x_aux **aux) {
  o->aux = NULL;
  hp2x_aux_free(*aux);
  *aux = NULL;
}
