/* messages.c -- the tool's printer: errors and warnings as
 * "hp2x: FILE:LINE: ..." (or "FILE: byte N:" for binary input), usage
 * errors with their --help hint, watch mode's notes and its status line.
 * The rest of the tool prints through here, but for --help and --version
 * (cli/help.c, on standard output) and serve.c's "hp2x: serving URL".
 */
#include "messages.h"

#include "numbers.h"
#include "status.h"

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

/* Empties the status line, so that what is printed next takes its place. */
static void status_clear(void) { fputs("\r\033[K", stderr); }

void msg_status_show(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  status_clear();
  print_message(fmt, ap, "");
  va_end(ap);
  fflush(stderr);
}

void msg_note(const msg_notes *n, const char *fmt, ...) {
  if (n->quiet) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n->status_line) status_clear();
  msg_errorf("%s", line);
}

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
