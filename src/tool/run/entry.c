/* entry.c -- the hp2x tool's run from its command line (tool_main; main.c
 * calls it, and so does the test build's main): reads the command line
 * (cli/), prints what it asks for instead of a run (--help, --version, a
 * usage error), hands a run this program cannot do to the full one
 * (program.h: the lean hp2x draws and serves nothing), decides the process
 * tuning once (util/tuning.c) and hands over to one of the three runs: several
 * inputs (compare.c), or one input, whose names, .aux and outputs (its files:
 * files.c; --serve's server: serve/, through program.h) the run holds apart
 * from the command line (tool_run), followed while it grows (watch.c) or read
 * once (once.c).
 */
#include "run.h"

#include "files.h"
#include "program.h"
#include "cli/cli.h"
#include "util/messages.h"
#include "util/status.h"
#include "util/tuning.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

/* Prints what the command line asked for instead of a run; RUN_GOES_ON
 * for a run. */
static int answer_without_run(cli_outcome r, const cli_error *e) {
  switch (r) {
  case CLI_RUN: return RUN_GOES_ON;
  case CLI_SHOW_HELP: cli_print_help(); return EXIT_OK;
  case CLI_SHOW_VERSION: cli_print_version(); return EXIT_OK;
  case CLI_FAILED: break;
  }
  if (e->is_usage) return msg_usagef("%s", e->message);
  msg_errorf("%s", e->message ? e->message : "out of memory");
  return EXIT_BAD_INPUT;
}

/* The process tuning a run asks for (tuning.h); `input` is the one input's
 * path, NULL for several. */
static tuning_plan plan_tuning(const tool_args *a, const char *input) {
  tuning_plan t = {0, a->opts.fonts_conf, NULL, 0, 0, 0};
  if (a->watch.on) {
    t.keep_freed_memory = 1;
    return t;
  }
  t.warm_fonts = hp2x_format_is_picture(a->opts.format);
  if (input) {
    t.input = input;
    t.hold_reserve = 1;
    t.let_go_beside = a->parse.threads > 1 && a->service.kind == CONNECT_NONE;
  }
  return t;
}

/* One input's outputs: its files (unless served only), and the server
 * (--serve) first, which copies what it shows as it is published.
 * Returns an exit status, reported. */
static int open_outputs(tool_run *r, files_output *files) {
  const tool_args *a = r->args;
  int rc = EXIT_OK;
  if (a->serve_spec) {
    tool_output *server = NULL;
    rc = run_serve_start(a, &server);
    if (server) outputs_add(&r->outs, server);
  }
  if (rc == EXIT_OK && r->names.output)
    outputs_add(&r->outs, files_output_init(files, r));
  return rc;
}

/* One input: names its files, tunes the process, opens its outputs, runs
 * (a service is read as a stream, drawn once at its end without --watch),
 * then ends the outputs (--serve: on until SIGINT). */
static int run_one(const tool_args *a) {
  tool_run r;
  memset(&r, 0, sizeof r);
  r.args = a;
  r.opts = a->opts;
  files_output files;
  int rc = EXIT_OK;
  if (names_settle_one(a, &r.names) != 0) {
    msg_errorf("out of memory");
    rc = EXIT_BAD_INPUT;
  }
  if (rc == EXIT_OK) {
    tuning_plan plan = plan_tuning(a, r.names.input);
    tuning_apply(&plan);
    rc = open_outputs(&r, &files);
    if (rc == EXIT_OK)
      rc = a->watch.on || a->service.kind != CONNECT_NONE ? run_watch(&r)
                                                          : run_once(&r);
    outputs_finish(&r.outs, rc == EXIT_OK);
    tuning_finish();
  }
  names_free_one(&r.names);
  return rc;
}

static int dispatch_run(const tool_args *a) {
  int rc;
  if (a->n_inputs > 1 || a->diff) {
    tuning_plan plan = plan_tuning(a, NULL);
    tuning_apply(&plan);
    rc = run_compare(a);
    tuning_finish();
  } else {
    rc = run_one(a);
  }
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
  if (rc == RUN_GOES_ON) rc = run_handoff(&a, argv);
  if (rc == RUN_GOES_ON) rc = dispatch_run(&a);
  cli_free(&a, &e);
  return rc;
}
