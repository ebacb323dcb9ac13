/* test_cli.c -- the tool's command line (src/tool/cli/): the
 * defaults of an empty line, hp2ps's flags glued and apart (-m5, -t2.5,
 * -e15cm, -m 7, -cg, -pc, -i-), long options in both spellings, every
 * error message the table and the combination checks give, and option
 * values read with a '.' under a comma-decimal locale.  Linked with the
 * tool's objects but main.o (Makefile). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "comma_locale.h"

#include "cli/cli.h"
#include "util/environment.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses "hp2x" followed by up to 15 words (NULL-terminated list). */
typedef struct parsed {
  cli_outcome r;
  tool_args a;
  cli_error e;
} parsed;

static const char *words_storage[16];

static void parse_words(parsed *p, const char *const *words) {
  int argc = 0;
  words_storage[argc++] = "hp2x";
  for (; words[argc - 1]; argc++) {
    assert_true(argc < 16);
    words_storage[argc] = words[argc - 1];
  }
  words_storage[argc] = NULL;
  p->r = cli_parse(argc, (char **)(void *)words_storage, &p->a, &p->e);
}

#define PARSE(p, ...)                             \
  do {                                            \
    const char *const w_[] = {__VA_ARGS__, NULL}; \
    parse_words((p), w_);                         \
  } while (0)

/* The line parses to a run; the caller inspects p->a, then frees. */
#define RUNS(p, ...)                                                  \
  do {                                                                \
    PARSE(p, __VA_ARGS__);                                            \
    if ((p)->r != CLI_RUN)                                            \
      fail_msg("refused: %s", (p)->e.message ? (p)->e.message : "?"); \
  } while (0)

static void done(parsed *p) { cli_free(&p->a, &p->e); }

static void defaults(void **state) {
  (void)state;
  parsed p;
  const char *const none[] = {NULL};
  parse_words(&p, none);
  assert_int_equal(p.r, CLI_RUN);
  hp2x_options lib;
  hp2x_options_init(&lib);
  assert_int_equal(p.a.n_inputs, 0);
  assert_string_equal(p.a.input, "-"); /* standard input */
  assert_null(p.a.output);
  assert_int_equal(p.a.opts.max_bands, 20);
  assert_true(p.a.opts.trace_pct == 1.0);
  assert_int_equal(p.a.opts.max_bands, lib.max_bands);
  assert_true(p.a.opts.trace_pct == lib.trace_pct);
  assert_int_equal(p.a.opts.format, lib.format);
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_PS);
  assert_int_equal(p.a.opts.sort, lib.sort);
  assert_int_equal(p.a.opts.name_order, 0);
  assert_int_equal(p.a.opts.title_box, -1); /* auto */
  assert_int_equal(p.a.opts.colour, 0);
  assert_int_equal(p.a.opts.palette, HP2X_PALETTE_HP2PS);
  assert_int_equal(p.a.opts.multipage, 0);
  assert_int_equal(p.a.opts.portrait, 0);
  assert_true(p.a.opts.eps_width_pt == 0.0);
  assert_true(p.a.opts.dpi == lib.dpi);
  assert_int_equal(p.a.opts.uniform, 0);
  assert_int_equal(p.a.parse.kind, HP2X_INPUT_AUTO);
  assert_int_equal(p.a.use_aux, 0);
  assert_int_equal(p.a.watch.on, 0);
  assert_true(p.a.watch.interval_s == 1.0);
  assert_true(p.a.watch.idle_exit_s == 0.0);
  assert_int_equal(p.a.diff, 0);
  assert_int_equal(p.a.summary, 0);
  assert_int_equal(p.a.view.x_index, 0);
  assert_int_equal(p.a.quiet, 0);
  assert_null(p.e.message);
  done(&p);
}

static void glued_hp2ps_flags(void **state) {
  (void)state;
  parsed p;
  RUNS(&p, "-m5", "-t2.5", "-e15cm", "in.hp");
  assert_int_equal(p.a.opts.max_bands, 5);
  assert_true(p.a.opts.trace_pct == 2.5);
  assert_true(p.a.opts.eps_width_pt == 15.0 * 72.0 / 2.54);
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_EPS); /* -e implies EPS */
  assert_int_equal(p.a.n_inputs, 1);
  assert_string_equal(p.a.input, "in.hp");
  done(&p);
  /* Apart: a number in the next word is the value, else it is a file. */
  RUNS(&p, "-m", "7", "-t", "0.5", "-e", "6in", "x.hp");
  assert_int_equal(p.a.opts.max_bands, 7);
  assert_true(p.a.opts.trace_pct == 0.5);
  assert_true(p.a.opts.eps_width_pt == 432.0);
  assert_int_equal(p.a.n_inputs, 1);
  done(&p);
  RUNS(&p, "-m", "x.hp");
  assert_int_equal(p.a.opts.max_bands, 0); /* -m alone: every band */
  assert_string_equal(p.a.input, "x.hp");
  done(&p);
  RUNS(&p, "-t", "x.hp");
  assert_true(p.a.opts.trace_pct == 0.0); /* -t alone: -t0 */
  assert_int_equal(p.a.n_inputs, 1);
  done(&p);
  RUNS(&p, "-m25");
  assert_int_equal(p.a.opts.max_bands, 25);
  assert_int_equal(p.a.opts.multipage, 1); /* more than 20: paged key */
  done(&p);
  /* Widths: every unit, and points without one. */
  struct {
    const char *w;
    double pt;
  } widths[] = {{"-e200mm", 200.0 * 72.0 / 25.4},
                {"-e400pt", 400.0},
                {"-e300", 300.0},
                {"-e2.5in", 180.0}};
  for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
    RUNS(&p, widths[i].w);
    assert_true(p.a.opts.eps_width_pt == widths[i].pt);
    done(&p);
  }
  /* A letter takes the rest of its word (-cg is -c), but -p chains. */
  RUNS(&p, "-cg");
  assert_int_equal(p.a.opts.colour, 1);
  assert_int_equal(p.a.opts.portrait, 0);
  done(&p);
  RUNS(&p, "-pcg");
  assert_int_equal(p.a.use_aux, 1);
  assert_int_equal(p.a.opts.colour, 1);
  assert_int_equal(p.a.opts.portrait, 0);
  done(&p);
  RUNS(&p, "-c", "-g", "-y", "-M", "-d", "-q");
  assert_int_equal(p.a.opts.colour, 1);
  assert_int_equal(p.a.opts.palette, HP2X_PALETTE_LABEL); /* -c's default */
  assert_int_equal(p.a.opts.portrait, 1);
  assert_int_equal(p.a.opts.no_marks, 1);
  assert_int_equal(p.a.opts.multipage, 1);
  assert_int_equal(p.a.opts.sort, HP2X_SORT_STDDEV);
  assert_int_equal(p.a.quiet, 1);
  done(&p);
  const char *orders[][2] = {{"-i", "1"}, {"-i+", "1"}, {"-i-", "-1"}};
  for (size_t i = 0; i < 3; i++) {
    RUNS(&p, orders[i][0]);
    assert_int_equal(p.a.opts.name_order, atoi(orders[i][1]));
    done(&p);
  }
  /* -b beats -s in either order. */
  RUNS(&p, "-s");
  assert_int_equal(p.a.opts.title_box, 0);
  done(&p);
  RUNS(&p, "-s", "-b");
  assert_int_equal(p.a.opts.title_box, 1);
  done(&p);
  RUNS(&p, "-b", "-s");
  assert_int_equal(p.a.opts.title_box, 1);
  done(&p);
}

static void long_options(void **state) {
  (void)state;
  parsed p;
  RUNS(&p, "--bands=5", "--trace", "0.25", "--eps=15cm", "--format=pdf",
       "--output", "out.x");
  assert_int_equal(p.a.opts.max_bands, 5);
  assert_true(p.a.opts.trace_pct == 0.25);
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_PDF); /* --format wins */
  assert_string_equal(p.a.output, "out.x");
  done(&p);
  RUNS(&p, "--color", "--palette=grey");
  assert_int_equal(p.a.opts.colour, 1);
  assert_int_equal(p.a.opts.palette, HP2X_PALETTE_GREY);
  done(&p);
  RUNS(&p, "--sort=name-desc", "--dpi=300", "--x=index", "--heap",
       "--from-eventlog", "--ccs-length=5", "--all-samples", "--pattern");
  assert_int_equal(p.a.opts.name_order, -1);
  assert_true(p.a.opts.dpi == 300.0);
  assert_int_equal(p.a.view.x_index, 1);
  assert_int_equal(p.a.opts.heap_overlay, 1);
  assert_int_equal(p.a.parse.kind, HP2X_INPUT_EVENTLOG);
  assert_int_equal(p.a.parse.ccs_length, 5);
  assert_int_equal(p.a.opts.all_samples, 1);
  assert_int_equal(p.a.opts.pattern, 1);
  done(&p);
  /* --jobs: the threads reading the input, its bands and its CSV; by
   * default the cores the process may use (at least one). */
  RUNS(&p, "--jobs=7", "a.hp");
  assert_int_equal(p.a.jobs, 7);
  assert_int_equal(p.a.parse.threads, 7);
  assert_int_equal(p.a.opts.threads, 7);
  done(&p);
  RUNS(&p, "--jobs", "1", "a.hp");
  assert_int_equal(p.a.parse.threads, 1);
  assert_int_equal(p.a.opts.threads, 1);
  done(&p);
  RUNS(&p, "a.hp");
  assert_int_equal(p.a.jobs, 0);
  assert_int_equal(p.a.parse.threads, (size_t)environment_cores());
  assert_true(p.a.parse.threads >= 1);
  assert_int_equal(p.a.opts.threads, p.a.parse.threads);
  done(&p);
  RUNS(&p, "--watch", "--interval=0.5", "--idle-exit=2", "a.hp", "-o", "w.svg");
  assert_int_equal(p.a.watch.on, 1);
  assert_true(p.a.watch.interval_s == 0.5);
  assert_true(p.a.watch.idle_exit_s == 2.0);
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_SVG); /* from the name */
  done(&p);
  RUNS(&p, "--summary", "a.hp");
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_TXT);
  assert_string_equal(p.a.output, "-"); /* to the terminal */
  done(&p);
  RUNS(&p, "--from=1.5", "--to=2.5", "--include=^a", "--exclude=b$", "a.hp",
       "b.hp", "--layout=stack", "-o", "c.pdf");
  assert_true(p.a.view.from_s == 1.5 && p.a.view.from_given);
  assert_true(p.a.view.to_s == 2.5 && p.a.view.to_given);
  assert_string_equal(p.a.opts.include_re, "^a");
  assert_string_equal(p.a.opts.exclude_re, "b$");
  assert_int_equal(p.a.n_inputs, 2);
  assert_int_equal(p.a.opts.layout, HP2X_LAYOUT_STACK);
  /* compared runs share both axes unless told */
  assert_int_equal(p.a.opts.uniform, HP2X_UNIFORM_TIME | HP2X_UNIFORM_MEMORY);
  done(&p);
  /* A pprof profile by its whole ending; --at its census. */
  RUNS(&p, "a.hp", "-o", "dir.v/heap.pb.gz", "--at=1.25");
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_PPROF);
  assert_true(p.a.view.at_s == 1.25 && p.a.view.at_given);
  done(&p);
  RUNS(&p, "a.hp", "--format=pprof", "-o", "heap.bin", "--from=1");
  assert_int_equal(p.a.opts.format, HP2X_FORMAT_PPROF);
  assert_int_equal(p.a.view.at_given, 0);
  done(&p);
  RUNS(&p, "--", "-m5", "-");
  assert_int_equal(p.a.n_inputs, 2); /* after --, words are files */
  assert_string_equal(p.a.inputs[0], "-m5");
  assert_int_equal(p.a.opts.max_bands, 20);
  done(&p);
  PARSE(&p, "--help", "--bogus");
  assert_int_equal(p.r, CLI_SHOW_HELP); /* later words not read */
  done(&p);
  PARSE(&p, "-h");
  assert_int_equal(p.r, CLI_SHOW_HELP);
  done(&p);
  PARSE(&p, "--version");
  assert_int_equal(p.r, CLI_SHOW_VERSION);
  done(&p);
}

/* Each line and the exact usage error it gets. */
static const struct {
  const char *words[6];
  const char *message;
} errors[] = {
    {{"--bogus"}, "unknown option '--bogus'"},
    {{"-x"}, "unknown option '-x'"},
    {{"-cx"}, NULL}, /* -c takes the rest of its word: no error */
    {{"-px"}, "unknown option '-x'"}, /* -p chains */
    {{"--output"}, "option '--output' needs a value (FILE)"},
    {{"-o"}, "option '-o' needs a value (FILE)"},
    {{"--watch=1"}, "option '--watch' takes no value"},
    {{"-e100"},
     "invalid EPS width '100': a number > 2in with unit in, mm, "
     "cm or pt"},
    {{"-e2in"},
     "invalid EPS width '2in': a number > 2in with unit in, mm, "
     "cm or pt"},
    {{"-e201in"},
     "invalid EPS width '201in': a number > 2in with unit in, "
     "mm, cm or pt"},
    {{"-e15furlong"},
     "invalid EPS width '15furlong': a number > 2in with "
     "unit in, mm, cm or pt"},
    {{"--eps=cm"},
     "invalid EPS width 'cm': a number > 2in with unit in, "
     "mm, cm or pt"},
    {{"--sort=random"},
     "unknown sort key 'random' (area, stddev, name, name-desc)"},
    {{"-mfoo"}, "invalid band count 'foo' in -m"},
    {{"--bands=-1"}, "invalid band count '-1' in --bands=-1"},
    {{"-t6"}, "invalid trace percentage '6' in -t: 0 to 5"},
    {{"-tx"}, "invalid trace percentage 'x' in -t: 0 to 5"},
    {{"--trace=-0.5"},
     "invalid trace percentage '-0.5' in --trace=-0.5: 0 "
     "to 5"},
    {{"--dpi=5"}, "invalid --dpi '5': pixels per inch, 10 to 1200"},
    {{"--dpi=1e9"}, "invalid --dpi '1e9': pixels per inch, 10 to 1200"},
    {{"--interval=0"}, "invalid --interval '0': seconds, at least 0.01"},
    {{"--idle-exit=0"}, "invalid --idle-exit '0': seconds, more than 0"},
    {{"--from=-1"}, "invalid --from '-1': seconds, a number >= 0"},
    {{"--to=x"}, "invalid --to 'x': seconds, a number >= 0"},
    {{"--at=-0.5"}, "invalid --at '-0.5': seconds, a number >= 0"},
    {{"--at=soon"}, "invalid --at 'soon': seconds, a number >= 0"},
    {{"a.hp", "--at=1", "-o", "a.pdf"},
     "--at chooses one census: PDF holds the whole run (--at works with "
     "--summary and -o NAME.csv, -o NAME.txt or -o NAME.pb.gz)"},
    {{"a.hp", "--at=1", "-o", "a.html"},
     "--at chooses one census: HTML holds the whole run (--at works with "
     "--summary and -o NAME.csv, -o NAME.txt or -o NAME.pb.gz)"},
    {{"a.hp", "--at=1", "--summary", "--x=index"},
     "--at names a time in seconds: not with --x=index, whose x axis "
     "counts samples"},
    {{"a.hp", "b.hp", "--at=1", "--diff", "--output=d.csv"},
     "--at names a time of a run: --diff's chart is over the percentage "
     "of each run"},
    {{"a.hp", "--at=1", "--watch", "-o", "a.pb.gz"},
     "--at takes a census of a finished run: with --watch the profile "
     "follows the last census"},
    {{"--diff", "a.hp", "b.hp", "-o", "d.pb.gz"},
     "--diff draws a chart: write a pprof of each run and compare them "
     "with go tool pprof -diff_base"},
    {{"a.hp", "-o", "heap.gz"},
     "cannot tell the format of 'heap.gz' from its name: use "
     "--format=ps|eps|pdf|svg|png|csv|hp|txt|html|pprof"},
    {{"--ccs-length=2"}, "invalid --ccs-length '2': a whole number >= 5"},
    {{"--ccs-length=5.5"}, "invalid --ccs-length '5.5': a whole number >= 5"},
    {{"--jobs=0"}, "invalid --jobs '0': a whole number, 1 to 1024"},
    {{"--jobs=1025"}, "invalid --jobs '1025': a whole number, 1 to 1024"},
    {{"--jobs=2.5"}, "invalid --jobs '2.5': a whole number, 1 to 1024"},
    {{"--format=gif"},
     "unknown format 'gif' (ps, eps, pdf, svg, png, csv, hp, txt, html, "
     "pprof)"},
    {{"--palette=rainbow"}, "unknown palette 'rainbow' (label, hp2ps, grey)"},
    {{"--uniform-scale=x"},
     "unknown --uniform-scale 'x' (none, time, memory, both)"},
    {{"--layout=grid"}, "unknown --layout 'grid' (pages, stack)"},
    {{"--x=log"}, "unknown --x 'log' (time, index)"},
    {{"--from-marker="}, "--from-marker needs a marker's text"},
    {{"--to-marker="}, "--to-marker needs a marker's text"},
    {{"a.hp", "-o", "out.xyz"},
     "cannot tell the format of 'out.xyz' from its name: use "
     "--format=ps|eps|pdf|svg|png|csv|hp|txt|html|pprof"},
    {{"a.hp", "-o", "dir.d/out"},
     "cannot tell the format of 'dir.d/out' from its name: use "
     "--format=ps|eps|pdf|svg|png|csv|hp|txt|html|pprof"},
    {{"--watch", "a.hp"}, "--watch needs an output file (-o FILE)"},
    {{"--watch", "a.hp", "-o", "-"}, "--watch needs an output file (-o FILE)"},
    {{"--watch", "a.hp", "b.hp", "-o", "w.pdf"},
     "--watch follows one input, got 2"},
    {{"--from=1", "--from-marker=m"},
     "--from and --from-marker both give the window's start"},
    {{"--to=1", "--to-marker=m"},
     "--to and --to-marker both give the window's end"},
    {{"--from=2.5", "--to=1.5"}, "--from 2.5 is not before --to 1.5"},
    {{"--from=2", "--to=2"}, "--from 2 is not before --to 2"},
    {{"--diff", "a.hp"},
     "--diff needs two inputs (A B, drawn as B - A), got 1"},
    {{"--diff", "a", "b", "c"},
     "--diff needs two inputs (A B, drawn as B - A), got 3"},
};

static void every_error_message(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
    parsed p;
    parse_words(&p, errors[i].words);
    if (!errors[i].message) {
      assert_int_equal(p.r, CLI_RUN);
    } else {
      if (p.r != CLI_FAILED) fail_msg("'%s' was accepted", errors[i].words[0]);
      assert_non_null(p.e.message);
      assert_string_equal(p.e.message, errors[i].message);
      assert_int_equal(p.e.is_usage, 1);
    }
    done(&p);
  }
  /* A bad regex: the library's reason follows. */
  parsed p;
  PARSE(&p, "--include=(");
  assert_int_equal(p.r, CLI_FAILED);
  assert_non_null(strstr(p.e.message, "invalid --include regex '(': "));
  assert_true(strlen(p.e.message) > strlen("invalid --include regex '(': "));
  done(&p);
  PARSE(&p, "--exclude=a{1");
  assert_int_equal(p.r, CLI_FAILED);
  assert_non_null(strstr(p.e.message, "invalid --exclude regex 'a{1': "));
  done(&p);
}

/* Values take a '.' and messages print one under a comma-decimal locale
 * (main sets the user's locale). */
static void values_ignore_locale(void **state) {
  (void)state;
  enter_comma_locale_or_skip();
  parsed p, q, r;
  PARSE(&p, "-t2.5", "-e15.5cm", "--interval=0.25");
  PARSE(&q, "--from=2.5", "--to=1.5");
  PARSE(&r, "-t2,5");
  setlocale(LC_ALL, "C");
  assert_int_equal(p.r, CLI_RUN);
  assert_true(p.a.opts.trace_pct == 2.5);
  assert_true(p.a.opts.eps_width_pt == 15.5 * 72.0 / 2.54);
  assert_true(p.a.watch.interval_s == 0.25);
  assert_int_equal(q.r, CLI_FAILED);
  assert_string_equal(q.e.message, "--from 2.5 is not before --to 1.5");
  assert_int_equal(r.r, CLI_FAILED); /* the locale's own comma is not */
  done(&p);
  done(&q);
  done(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(defaults),
      cmocka_unit_test(glued_hp2ps_flags),
      cmocka_unit_test(long_options),
      cmocka_unit_test(every_error_message),
      cmocka_unit_test(values_ignore_locale),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
