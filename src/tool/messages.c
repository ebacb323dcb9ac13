/* messages.c -- the tool's printer: errors and warnings as
 * "hp2x: FILE:LINE: ..." (or "FILE: byte N:" for binary input), usage
 * errors with their --help hint, the --help text (its option lines come
 * from the option table in cli.c, its formats from the library's table in
 * format.c), --version and watch mode's status line.  The rest of the
 * tool prints through here, but for serve.c's "hp2x: serving URL".
 */
#include "messages.h"

#include "names.h"
#include "numbers.h"
#include "cli.h"
#include "tool.h"

#include <stdarg.h>
#include <stdio.h>

void msg_report(const char *file, const hp2x_err *err, const char *what) {
  char where[64] = "";
  if (err->line > 0)
    snprintf(where, sizeof where, ":%ld", err->line);
  else if (err->offset >= 0)
    snprintf(where, sizeof where, ": byte %lld", err->offset);
  fprintf(stderr, "hp2x: %s%s: %s%s%s\n", file ? file : "<stdin>", where,
          what ? what : "", what ? ": " : "", err->msg);
}

/* "hp2x: " and the formatted message (numbers as in the C locale), then
 * `tail`. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 0)))
#endif
static void
print_message(const char *fmt, va_list ap, const char *tail) {
  fputs("hp2x: ", stderr);
  numbers_vfprintf(stderr, fmt, ap);
  fputs(tail, stderr);
}

void msg_errorf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print_message(fmt, ap, "\n");
  va_end(ap);
}

void msg_status_show(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  msg_status_clear();
  print_message(fmt, ap, "");
  va_end(ap);
  fflush(stderr);
}

void msg_status_clear(void) { fputs("\r\033[K", stderr); }

void msg_status_end(void) { fputc('\n', stderr); }

int msg_exit_status(hp2x_status st) {
  return st == HP2X_E_ARG ? EXIT_USAGE : EXIT_BAD_INPUT;
}

int msg_usagef(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print_message(fmt, ap, "\nTry 'hp2x --help' for more information.\n");
  va_end(ap);
  return EXIT_USAGE;
}

/* --help's names of the formats, from the library's table (format.c):
 * the pictures ("PostScript") and the other formats it names ("CSV"). */
static const char *picture_help_name(const hp2x_format_info *row) {
  return row->writer == HP2X_WRITER_PICTURE ? row->long_name : NULL;
}

static const char *conversion_help_name(const hp2x_format_info *row) {
  return row->writer != HP2X_WRITER_PICTURE ? row->long_name : NULL;
}

/* What hp2x draws and writes, and what it writes without -o: the formats
 * named from the table, the default output's from hp2x_options_init. */
static void print_help_formats(void) {
  char pictures[128], conversions[64], paged[64];
  hp2x_format_list(pictures, sizeof pictures, picture_help_name, "", ", ",
                   " or ");
  hp2x_format_list(conversions, sizeof conversions, conversion_help_name, "",
                   ", ", " or ");
  hp2x_format_list(paged, sizeof paged, names_format_paged_label, "", ", ",
                   " and ");
  hp2x_options defaults;
  hp2x_options_init(&defaults);
  printf("Draw a GHC heap profile (.hp or eventlog) as %s,\nor convert it "
         "to %s text.  Without -o, writes BASE.%s (and BASE.aux)\nin the "
         "current directory, as hp2ps does; without FILE, reads standard "
         "input\nand writes standard output.\n"
         "Several FILEs are compared: one band selection and one colour per "
         "label for all,\nshared scales; %s get a page each, -o "
         "'DIR/' or 'NAME-%%s.svg' a file\neach (%%s = the input's base "
         "name), CSV one file with an input column.\n"
         "-o NAME.html writes an interactive report in one file that "
         "opens offline: the\npicture with hover, hidden bands and "
         "zoom, the --summary table of the run or the\nzoom, and the "
         "bands of the census a click picks.\n"
         "-o NAME.pb.gz writes one census (the peak, or --at's) as a "
         "pprof profile of its\nstacks, for go tool pprof, speedscope and "
         "Pyroscope.\n",
         pictures, conversions, names_format_ext(defaults.format), paged);
}

void msg_print_help(void) {
  printf("Usage: hp2x [OPTION]... [FILE[.hp] | FILE.eventlog | -]...\n");
  print_help_formats();
  printf("A service serving its eventlog is read as unix:PATH, tcp:HOST:PORT "
         "or\ntcp:[ADDR]:PORT (IPv6): drawn once when it closes the "
         "connection (or at\nSIGINT), or followed with --watch; a file of "
         "such a name is ./unix:NAME.\n\n");
  char left[64];
  const char *help;
  for (size_t i = 0; cli_help_row(i, left, sizeof left, &help); i++)
    printf("  %-28s %s\n", left, help);
  printf("\nhp2ps's flags work as in hp2ps: values are glued to the letter "
         "(-m5, -t0.5,\n-e15cm; -e 15cm also works), and a letter other "
         "than -p takes the rest of its\nargument (-cg is -c).\n"
         "Exit status: 0 success (also for an incomplete profile, or an "
         "eventlog with a\ncorrupt event that cost a census, with a "
         "warning), 1 bad input or I/O failure,\n2 usage error.\n");
}

void msg_print_version(void) { printf("hp2x %s\n", HP2X_VERSION); }
