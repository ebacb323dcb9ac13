/* settle.c -- what a whole command line implies once every word
 * is read: the output's format (--format, -e, or the output's extension),
 * the checks no single option can make (--watch's one output, a service
 * read alone, --tee, the time window, --diff's two inputs), then the
 * defaults that follow from other options (-c's palette, a comparison's
 * shared axes, the picture's bounded reading).  The addresses a line names
 * (a service input, --serve's) are read here once, into the line.  Errors
 * are returned, never printed.
 */
#include "cli_int.h"

#include "io/connect.h"
#include "io/outfile.h"
#include "util/environment.h"
#include "names.h"
#include "serve/request.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The format when --format is not given: EPS for -e, else the output's
 * extension (none for a directory that several inputs each write into). */
static cli_outcome settle_format(tool_args *a, cli_error *e) {
  if (a->opts.eps_width_pt > 0 && !a->given.format)
    a->opts.format = HP2X_FORMAT_EPS;
  struct stat dir;
  int to_dir = a->n_inputs > 1 && a->output && stat(a->output, &dir) == 0 &&
               S_ISDIR(dir.st_mode); /* several inputs: a file each */
  if (a->output && strcmp(a->output, "-") != 0 && !a->given.format && !to_dir) {
    const hp2x_format_info *f = hp2x_format_for_file(a->output, NULL);
    char list[96];
    if (!f)
      return cli_fail(
          e,
          "cannot tell the format of '%s' from its name: use "
          "--format=%s",
          a->output,
          hp2x_format_list(list, sizeof list, names_format_name, "", "|", "|"));
    a->opts.format = f->format;
  }
  return CLI_RUN;
}

/* Whether path names the file (or pipe, or socket) the standard output or
 * error already writes to (`-o /dev/stdout > file`; io/outfile.h): written
 * through it, each update of a watch would add a whole output after the
 * last, as -o - would.  A character device (a terminal, /dev/null) is let
 * be. */
static int is_std_output(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && !S_ISCHR(st.st_mode) &&
         outfile_std_output(path, &st) >= 0;
}

/* Reads --serve's address into a->serve_at; checks what goes with --serve
 * and --watch. */
static cli_outcome check_watch(tool_args *a, cli_error *e) {
  if (a->serve_spec) {
    char why[300];
    if (serve_parse_address(a->serve_spec, &a->serve_at, why, sizeof why) != 0)
      return cli_fail(e, "%s", why);
    if (a->n_inputs > 1 || a->diff)
      return cli_fail(e, "--serve shows one input, got %d", a->n_inputs);
    if (a->output && !strcmp(a->output, "-"))
      return cli_fail(e, "--serve writes no standard output: -o FILE "
                         "or no -o");
  }
  if (a->watch.on && !a->serve_spec && (!a->output || !strcmp(a->output, "-")))
    return cli_fail(e, "--watch needs an output file (-o FILE)");
  if (a->watch.on && a->output && is_std_output(a->output))
    return cli_fail(e,
                    "--watch needs an output file (-o FILE): '%s' is "
                    "where an open descriptor (standard output) writes",
                    a->output);
  if (a->watch.on && a->n_inputs > 1)
    return cli_fail(e, "--watch follows one input, got %d", a->n_inputs);
  return CLI_RUN;
}

/* Reads an input that is a service address into a->service; refuses a
 * malformed address and a service read with other inputs. */
static cli_outcome find_service(tool_args *a, cli_error *e) {
  for (int i = 0; i < a->n_inputs; i++) {
    connect_address ad;
    char why[400];
    if (connect_parse(a->inputs[i], &ad, why, sizeof why) != 0)
      return cli_fail(e, "%s", why);
    if (ad.kind == CONNECT_NONE) continue;
    if (a->n_inputs > 1 || a->diff)
      return cli_fail(e, "%s: a service is read alone, not with other inputs",
                      a->inputs[i]);
    a->service = ad;
  }
  return CLI_RUN;
}

/* The extension of a format that can hold one census, for
 * hp2x_format_list. */
static const char *census_extension(const hp2x_format_info *row) {
  return row->span != HP2X_SPAN_RUN ? row->extension : NULL;
}

/* --at chooses the census of a format that holds one (pprof) or can
 * (CSV's row, --summary's moment table); a format that holds the whole
 * run refuses it.  The one place that says which formats take --at. */
static cli_outcome check_census(const tool_args *a, cli_error *e) {
  const hp2x_format_info *f = hp2x_format_of(a->opts.format);
  char list[128];
  if (!f) return CLI_RUN;
  if (a->view.at_given && f->span == HP2X_SPAN_RUN)
    return cli_fail(e,
                    "--at chooses one census: %s holds the whole run (--at "
                    "works with --summary and %s)",
                    f->label,
                    hp2x_format_list(list, sizeof list, census_extension,
                                     "-o NAME.", ", ", " or "));
  if (a->view.at_given && a->diff && f->span == HP2X_SPAN_EITHER)
    return cli_fail(e, "--at names a time of a run: --diff's chart is over "
                       "the percentage of each run");
  if (a->view.at_given && a->view.x_index && f->span == HP2X_SPAN_EITHER)
    return cli_fail(e, "--at names a time in seconds: not with --x=index, "
                       "whose x axis counts samples");
  if (a->view.at_given && a->watch.on)
    return cli_fail(e, "--at takes a census of a finished run: with --watch "
                       "the profile follows the last census");
  if (f->span == HP2X_SPAN_CENSUS && a->diff)
    return cli_fail(e,
                    "--diff draws a chart: write a %s of each run and "
                    "compare them with go tool pprof -diff_base",
                    f->label);
  return CLI_RUN;
}

/* Checks what no single option can: the combination.  Changes nothing. */
static cli_outcome check_combination(const tool_args *a, cli_error *e) {
  const tool_view *v = &a->view;
  if (a->watch.tee_path && a->service.kind == CONNECT_NONE)
    return cli_fail(e,
                    "--tee needs a service input (unix:PATH or tcp:HOST:PORT)");
  if (a->watch.tee_path && !*a->watch.tee_path)
    return cli_fail(e, "--tee needs a file name");
  if (a->program && !*a->program)
    return cli_fail(e, "--program needs an executable's name");
  if (a->program && a->watch.on)
    return cli_fail(e, "--program does not work with --watch");
  if (v->from_given && v->from_marker)
    return cli_fail(e, "--from and --from-marker both give the window's start");
  if (v->to_given && v->to_marker)
    return cli_fail(e, "--to and --to-marker both give the window's end");
  if (a->parse.last_s > 0.0 &&
      (v->from_given || v->to_given || v->from_marker || v->to_marker))
    return cli_fail(e, "--last gives the window already: not with --from, --to "
                       "or their markers");
  if (a->parse.last_s > 0.0 && a->n_inputs > 1)
    return cli_fail(e, "--last draws one input, got %d", a->n_inputs);
  if (v->from_given && v->to_given && !(v->from_s < v->to_s))
    return cli_fail(e, "--from %g is not before --to %g", v->from_s, v->to_s);
  if (a->diff && a->given.chart)
    return cli_fail(e, "--diff draws its own chart: not with --chart");
  if (a->opts.heap_overlay && (a->opts.chart == HP2X_CHART_PERCENT ||
                               a->opts.chart == HP2X_CHART_LINES))
    return cli_fail(e,
                    "--heap draws bytes: with --chart=stacked or "
                    "streamgraph, not %s",
                    a->opts.chart == HP2X_CHART_PERCENT ? "percent" : "lines");
  if (a->diff && a->n_inputs != 2)
    return cli_fail(e, "--diff needs two inputs (A B, drawn as B - A), got %d",
                    a->n_inputs);
  return CLI_RUN;
}

/* The defaults that follow from other options, once the line is valid. */
static void set_derived_defaults(tool_args *a) {
  /* -c draws the label palette unless --palette says otherwise. */
  if (a->opts.colour && !a->given.palette) a->opts.palette = HP2X_PALETTE_LABEL;
  /* A -hb or -he profile's bands take their order and colours from its
   * breakdown, unless the command line asks for an order or a palette. */
  if (a->given.order) a->opts.by_breakdown &= ~HP2X_BY_BREAKDOWN_ORDER;
  if (a->given.palette) a->opts.by_breakdown &= ~HP2X_BY_BREAKDOWN_COLOURS;
  /* Runs compared share both axes unless --uniform-scale says otherwise. */
  if (a->n_inputs > 1 && !a->given.uniform) a->opts.uniform = HP2X_UNIFORM_BOTH;
  /* One input drawn whole keeps only what its picture shows, in memory
   * bounded by the picture; so does one census of it without --at (the
   * bounded profile keeps the first of the largest totals of each time
   * bucket, so the run's peak, and the last census); outputs that list
   * every sample (CSV, .hp, --all-samples, --summary), a window, --x=index
   * and comparisons read every sample. */
  const hp2x_format_info *f = hp2x_format_of(a->opts.format);
  const tool_view *v = &a->view;
  int bounded = hp2x_format_is_picture(a->opts.format) ||
                (f && f->span == HP2X_SPAN_CENSUS && !v->at_given);
  if (bounded && !a->opts.all_samples && !a->summary && a->n_inputs <= 1 &&
      !v->from_given && !v->to_given && !v->from_marker && !v->to_marker &&
      !v->x_index)
    a->parse.picture_columns = hp2x_picture_columns(&a->opts);
  /* The input is read, its bands filled and CSV written on every core
   * the process may use. */
  a->parse.threads = (size_t)(a->jobs > 0 ? a->jobs : environment_cores());
  a->opts.threads = a->parse.threads;
}

cli_outcome cli_settle_line(tool_args *a, cli_error *e) {
  cli_outcome r = settle_format(a, e);
  if (r != CLI_RUN) return r;
  if (a->summary && !a->output) a->output = "-"; /* to the terminal */
  if ((r = check_watch(a, e)) != CLI_RUN ||
      (r = find_service(a, e)) != CLI_RUN ||
      (r = check_combination(a, e)) != CLI_RUN ||
      (r = check_census(a, e)) != CLI_RUN)
    return r;
  set_derived_defaults(a);
  return CLI_RUN;
}
