/* entry.c -- the hp2x tool's run from its command line (tool_main; main.c
 * calls it, and so does the test build's main): reads the command line
 * (cli.c), prints what it asks for instead of a run (--help, --version,
 * a usage error), decides the process tuning once (tuning.c) and hands over
 * to one of the three runs: several inputs (run_compare.c), one followed
 * while it grows (run_watch.c) or one read once (run_once.c).
 */
#include "messages.h"
#include "names.h"
#include "cli.h"
#include "run.h"
#include "serve.h"
#include "tuning.h"

#include <locale.h>
#include <stdlib.h>

/* Prints what the command line asked for instead of a run; RUN_GOES_ON
 * for a run. */
static int answer_without_run(cli_outcome r, const cli_error *e) {
  switch (r) {
  case CLI_RUN: return RUN_GOES_ON;
  case CLI_SHOW_HELP: msg_print_help(); return EXIT_OK;
  case CLI_SHOW_VERSION: msg_print_version(); return EXIT_OK;
  case CLI_FAILED: break;
  }
  if (e->is_usage) return msg_usagef("%s", e->message);
  msg_errorf("%s", e->message ? e->message : "out of memory");
  return EXIT_BAD_INPUT;
}

/* The process tuning a run asks for (tuning.h). */
static tuning_plan plan_tuning(const tool_args *a, int several) {
  tuning_plan t = {0, a->opts.fonts_conf, NULL, 0, 0};
  if (a->watch) {
    t.keep_freed_memory = 1;
    return t;
  }
  t.warm_fonts = hp2x_format_is_picture(a->opts.format);
  if (!several) {
    t.input = a->input;
    t.hold_reserve = 1;
  }
  return t;
}

/* Names one input's files, tunes the process, runs. */
static int dispatch_run(tool_args *a) {
  int several = a->n_inputs > 1 || a->diff;
  if (!several && names_settle_one(a) != 0) {
    msg_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  tuning_plan plan = plan_tuning(a, several);
  tuning_apply(&plan);
  int rc = a->serve_spec ? serve_start(a) : EXIT_OK;
  /* A service is read as a stream, drawn once at its end without --watch. */
  if (rc == EXIT_OK)
    rc = several                           ? run_compare(a)
         : a->watch || a->input_is_service ? run_watch(a)
                                           : run_once(a);
  serve_finish(a, rc == EXIT_OK); /* --serve: on until SIGINT */
  tuning_finish();
  hp2x_fonts_release(); /* so that a leak checker sees only real leaks */
  return rc;
}

int tool_main(int argc, char **argv) {
  /* The user's locale reaches strerror's messages and pango (text
   * shaping); numbers never follow it: the library writes and reads them
   * locale-free and the tool's own go through numbers.c
   * (tests/e2e/test_locale.sh compares every output under de_DE). */
  setlocale(LC_ALL, "");
  tool_args a;
  cli_error e;
  int rc = answer_without_run(cli_parse(argc, argv, &a, &e), &e);
  if (rc == RUN_GOES_ON) rc = dispatch_run(&a);
  names_free_one(&a);
  cli_free(&a, &e);
  return rc;
}
