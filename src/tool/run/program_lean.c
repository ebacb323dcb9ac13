/* program_lean.c -- the lean hp2x program (program.h): linked with the
 * library's text-only objects and without the server, it runs what needs
 * neither (CSV, .hp, the summary, pprof, --help, --version, usage errors)
 * and hands a run that draws (a picture or the HTML report) or serves to
 * the full program, through util/handoff.c, before reading any input.
 */
#include "program.h"

#include "util/handoff.h"
#include "util/messages.h"
#include "util/status.h"

/* What the run needs the full program for, or NULL. */
static const char *needs_full(const tool_args *a) {
  if (a->serve_spec) return "--serve";
  const hp2x_format_info *f = hp2x_format_of(a->opts.format);
  if (!f || f->writer == HP2X_WRITER_PICTURE) return "drawing a picture";
  if (f->writer == HP2X_WRITER_HTML) return "the HTML report";
  return NULL;
}

int run_handoff(const tool_args *a, char **argv) {
  const char *what = needs_full(a);
  return what ? handoff_exec(argv, what) : RUN_GOES_ON;
}

/* Never reached: a run with --serve was handed over. */
int run_serve_start(const tool_args *a, tool_output **out) {
  (void)a;
  *out = NULL;
  msg_errorf("--serve needs the full program, %s", HP2X_FULL_NAME);
  return EXIT_BAD_INPUT;
}
