/* cli.c -- the command line's one typed option table, which drives
 * parsing (read.c) and --help (help.c) (and through --help the man-page
 * check in tests/e2e/test_cli_usage.sh).  hp2ps's flags keep hp2ps's
 * meanings (its manual: -e width, -m bands, -t trace, -p .aux, -b/-s
 * title, -i order, values glued to the letter) next to GNU long options.
 * Each entry says what kind of value it takes, its range or words and the
 * field it sets; the few options with rules of their own are the small
 * functions here.  Errors are recorded, never printed (messages.c prints
 * them).
 */
#include "cli_int.h"

#include "names.h"
#include "util/numbers.h"

#include <assert.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enum fields are set through an int. */
_Static_assert(sizeof(hp2x_format) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_sort) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_palette) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_layout) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_chart) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_input_kind) == sizeof(int), "enum size");

/* Entries name the fields they set. */
#define AT(f) offsetof(tool_args, f)
/* A number macro's digits as a string literal (the library's limits). */
#define STR_(x) #x
#define STR(x) STR_(x)
#define GIVEN(f) (1 + offsetof(tool_args, f))
#define FLAG(f, v) .kind = VAL_FLAG, .field = AT(f), .set = (v)
#define SPECIAL(fn) .kind = VAL_SPECIAL, .special = (fn)

/* ---------------------------------------------------------------- errors */

cli_outcome cli_fail(cli_error *e, const char *fmt, ...) {
  assert(!e->message);
  va_list ap;
  va_start(ap, fmt);
  int n = hp2x_vsnprintf_c(NULL, 0, fmt, ap);
  va_end(ap);
  e->message = n < 0 ? NULL : malloc((size_t)n + 1);
  e->is_usage = e->message != NULL;
  if (e->message) {
    va_start(ap, fmt);
    hp2x_vsnprintf_c(e->message, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  return CLI_FAILED;
}

/* ------------------------------------------------ hp2ps's special flags */

/* hp2ps's -e: a width with an optional unit; hp2x adds cm. */
static int parse_width(const char *s, double *pt) {
  size_t n = strlen(s);
  double scale = 1.0;
  char num[64];
  if (n > 2) {
    const char *u = s + n - 2;
    if (!strcmp(u, "in"))
      scale = 72.0;
    else if (!strcmp(u, "mm"))
      scale = 72.0 / 25.4;
    else if (!strcmp(u, "cm"))
      scale = 72.0 / 2.54;
    else if (!strcmp(u, "pt"))
      scale = 1.0;
    else
      u = s + n;
    n = (size_t)(u - s);
  }
  if (n == 0 || n >= sizeof num) return 0;
  memcpy(num, s, n);
  num[n] = '\0';
  double v;
  if (!numbers_parse_double(num, &v)) return 0;
  *pt = v * scale;
  return 1;
}

static cli_outcome set_eps_width(const option_spec *o, const char *val,
                                 const char *spelled, tool_args *a,
                                 cli_error *e) {
  (void)o, (void)spelled;
  double pt;
  if (!parse_width(val, &pt) || !(pt > HP2X_EPS_WIDTH_MIN_PT) ||
      pt > HP2X_EPS_WIDTH_MAX_PT)
    return cli_fail(e,
                    "invalid EPS width '%s': a number > 2in with unit in, "
                    "mm, cm or pt",
                    val);
  a->opts.eps_width_pt = pt;
  return CLI_RUN;
}

/* -b beats -s, whichever comes first. */
static cli_outcome set_small_title(const option_spec *o, const char *val,
                                   const char *spelled, tool_args *a,
                                   cli_error *e) {
  (void)o, (void)val, (void)spelled, (void)e;
  if (a->opts.title_box != HP2X_TITLE_BIG) a->opts.title_box = HP2X_TITLE_SMALL;
  return CLI_RUN;
}

/* -i and -i+ ascending, -i- descending. */
static cli_outcome set_name_order(const option_spec *o, const char *val,
                                  const char *spelled, tool_args *a,
                                  cli_error *e) {
  (void)o, (void)spelled, (void)e;
  a->opts.name_order = (val && !strcmp(val, "-")) ? HP2X_NAME_ORDER_DESCENDING
                                                  : HP2X_NAME_ORDER_ASCENDING;
  return CLI_RUN;
}

/* --sort: area and stddev are -d's key (area also ends -i), name and
 * name-desc are -i's order. */
static cli_outcome set_sort(const option_spec *o, const char *val,
                            const char *spelled, tool_args *a, cli_error *e) {
  (void)o, (void)spelled;
  if (!strcmp(val, "area")) {
    a->opts.sort = HP2X_SORT_AREA;
    a->opts.name_order = HP2X_NAME_ORDER_NONE;
  } else if (!strcmp(val, "stddev")) {
    a->opts.sort = HP2X_SORT_STDDEV;
  } else if (!strcmp(val, "name")) {
    a->opts.name_order = HP2X_NAME_ORDER_ASCENDING;
  } else if (!strcmp(val, "name-desc")) {
    a->opts.name_order = HP2X_NAME_ORDER_DESCENDING;
  } else {
    return cli_fail(e, "unknown sort key '%s' (area, stddev, name, name-desc)",
                    val);
  }
  return CLI_RUN;
}

/* hp2ps's -m: -m alone is -m0 (every band, no key); more than 20 bands
 * page the key. */
static cli_outcome set_band_count(const option_spec *o, const char *val,
                                  const char *spelled, tool_args *a,
                                  cli_error *e) {
  (void)o;
  long l = 0;
  if (*val != '\0' && (!numbers_parse_long(val, &l) || l < 0 || l > 1000000))
    return cli_fail(e, "invalid band count '%s' in %s", val, spelled);
  a->opts.max_bands = (int)l;
  if (l > 20) a->opts.multipage = 1;
  return CLI_RUN;
}

/* hp2ps's -t: -t alone is -t0; at most 5 percent. */
static cli_outcome set_trace(const option_spec *o, const char *val,
                             const char *spelled, tool_args *a, cli_error *e) {
  (void)o;
  double d = 0.0;
  if (*val != '\0' && (!numbers_parse_double(val, &d) || d < 0.0 || d > 5.0))
    return cli_fail(e, "invalid trace percentage '%s' in %s: 0 to 5", val,
                    spelled);
  a->opts.trace_pct = d;
  return CLI_RUN;
}

static cli_outcome set_summary(const option_spec *o, const char *val,
                               const char *spelled, tool_args *a,
                               cli_error *e) {
  (void)o, (void)val, (void)spelled, (void)e;
  a->opts.format = HP2X_FORMAT_TXT;
  a->given.format = 1;
  a->summary = 1;
  return CLI_RUN;
}

static cli_outcome show_help(const option_spec *o, const char *val,
                             const char *spelled, tool_args *a, cli_error *e) {
  (void)o, (void)val, (void)spelled, (void)a, (void)e;
  return CLI_SHOW_HELP;
}

static cli_outcome show_version(const option_spec *o, const char *val,
                                const char *spelled, tool_args *a,
                                cli_error *e) {
  (void)o, (void)val, (void)spelled, (void)a, (void)e;
  return CLI_SHOW_VERSION;
}

/* ----------------------------------------------------------- the table */

/* Help text around a list of formats from the library's table
 * (format.c): before, the list (shown, prefix, sep, last as
 * hp2x_format_list takes them), after; kept in `help`. */
static const char *list_help(char *help, size_t size, const char *before,
                             hp2x_format_shown shown, const char *prefix,
                             const char *sep, const char *last,
                             const char *after) {
  char list[96];
  hp2x_format_list(list, sizeof list, shown, prefix, sep, last);
  snprintf(help, size, "%s%s%s", before, list, after);
  return help;
}

static const char *output_help(void) {
  static char help[160];
  return list_help(help, sizeof help, "write to FILE (", names_format_extension,
                   ".", " ", " ", "; - = stdout)");
}

static const char *format_help(void) {
  static char help[160];
  return list_help(help, sizeof help, "output format: ", names_format_name, "",
                   ", ", " or ", " (--summary)");
}

static const char *layout_help(void) {
  static char help[160];
  return list_help(help, sizeof help, "several inputs in one file: pages (",
                   names_format_paged_label, "", ", ", ", ", ") or stack");
}

/* The help that names a default reads it where it is set: the library's
 * in hp2x_options_init, the tool's own in cli_int.h; never restated.
 * The text is kept in `help`. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static const char *
help_with_default(char *help, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  hp2x_vsnprintf_c(help, size, fmt, ap);
  va_end(ap);
  return help;
}

static hp2x_options library_defaults(void) {
  hp2x_options d;
  hp2x_options_init(&d);
  return d;
}

static const char *band_count_help(void) {
  static char help[160];
  return help_with_default(help, sizeof help,
                           "at most N bands (default %d; 0 = all, no key)",
                           library_defaults().max_bands);
}

static const char *trace_help(void) {
  static char help[160];
  return help_with_default(
      help, sizeof help,
      "drop bands below PCT percent together (0-5, default %g)",
      library_defaults().trace_pct);
}

static const char *dpi_help(void) {
  static char help[160];
  return help_with_default(
      help, sizeof help,
      "PNG resolution in pixels per inch (default %g; %d-%d)",
      library_defaults().dpi, HP2X_DPI_MIN, HP2X_DPI_MAX);
}

static const char *interval_help(void) {
  static char help[160];
  return help_with_default(
      help, sizeof help,
      "watch mode: at most one render per SECONDS (default %g)",
      CLI_INTERVAL_S);
}

static const char *summary_help(void) {
  static char help[160];
  snprintf(help, sizeof help,
           "print a table (peaks, slopes, leak suspects; with --at one "
           "census's bands), not a picture (= %s)",
           hp2x_format_of(HP2X_FORMAT_TXT)->name);
  return help;
}

/* --format=FMT: a name from the formats' table. */
static cli_outcome set_format(const option_spec *o, const char *val,
                              const char *spelled, tool_args *a, cli_error *e) {
  (void)o, (void)spelled;
  const hp2x_format_info *f = hp2x_format_named(val);
  char list[96];
  if (!f)
    return cli_fail(
        e, "unknown format '%s' (%s)", val,
        hp2x_format_list(list, sizeof list, names_format_name, "", ", ", ", "));
  a->opts.format = f->format;
  return CLI_RUN;
}

static const tool_name palettes[] = {{"label", HP2X_PALETTE_LABEL},
                                     {"hp2ps", HP2X_PALETTE_HP2PS},
                                     {"grey", HP2X_PALETTE_GREY},
                                     {"gray", HP2X_PALETTE_GREY},
                                     {NULL, 0}};
static const tool_name uniform_axes[] = {{"none", HP2X_UNIFORM_NONE},
                                         {"time", HP2X_UNIFORM_TIME},
                                         {"memory", HP2X_UNIFORM_MEMORY},
                                         {"both", HP2X_UNIFORM_BOTH},
                                         {NULL, 0}};
static const tool_name layouts[] = {
    {"pages", HP2X_LAYOUT_PAGES}, {"stack", HP2X_LAYOUT_STACK}, {NULL, 0}};
static const tool_name x_axes[] = {{"time", 0}, {"index", 1}, {NULL, 0}};
static const tool_name charts[] = {{"stacked", HP2X_CHART_STACKED},
                                   {"percent", HP2X_CHART_PERCENT},
                                   {"streamgraph", HP2X_CHART_STREAMGRAPH},
                                   {"lines", HP2X_CHART_LINES},
                                   {NULL, 0}};

static const option_spec options[] = {
    {'o', "output", "FILE", NULL, output_help, .kind = VAL_STRING,
     .field = AT(output)},
    {0, "format", "FMT", NULL, format_help, .given = GIVEN(given.format),
     SPECIAL(set_format)},
    {'e', "eps", "WIDTH",
     "Encapsulated PostScript WIDTH wide (in, mm, cm, pt; > 2in)",
     SPECIAL(set_eps_width)},
    {0, "dpi", "N", NULL, dpi_help, .kind = VAL_DOUBLE, .field = AT(opts.dpi),
     .min = HP2X_DPI_MIN, .max = HP2X_DPI_MAX, .bad = "invalid --dpi ",
     .bad_tail =
         ": pixels per inch, " STR(HP2X_DPI_MIN) " to " STR(HP2X_DPI_MAX)},
    {'c', "colour", NULL, "colour bands (also --color)", FLAG(opts.colour, 1)},
    {'b', "big-title", NULL, "big title box",
     FLAG(opts.title_box, HP2X_TITLE_BIG)},
    {'s', "small-title", NULL, "small title box", SPECIAL(set_small_title)},
    {'d', NULL, NULL, "order bands by standard deviation (= --sort=stddev)",
     FLAG(opts.sort, HP2X_SORT_STDDEV), .given = GIVEN(given.order)},
    {'i', NULL, NULL, "-i, -i+: order by name, ascending; -i-: descending",
     SPECIAL(set_name_order), .style = LETTER_GLUED,
     .given = GIVEN(given.order)},
    {0, "sort", "KEY", "band order: area, stddev, name or name-desc",
     SPECIAL(set_sort), .given = GIVEN(given.order)},
    {0, "chart", "KIND",
     "stacked (default), percent (each census 100%), streamgraph (centred) "
     "or lines (each band to its own peak)",
     .kind = VAL_ENUM, .field = AT(opts.chart), .given = GIVEN(given.chart),
     .names = charts, .bad = "unknown chart ",
     .bad_tail = " (stacked, percent, streamgraph, lines)"},
    {'m', "bands", "N", NULL, band_count_help, SPECIAL(set_band_count),
     .style = LETTER_MAYBE_NUMBER},
    {'t', "trace", "PCT", NULL, trace_help, SPECIAL(set_trace),
     .style = LETTER_MAYBE_NUMBER},
    {'g', "portrait", NULL, "portrait page, unscaled (for screen previewers)",
     FLAG(opts.portrait, 1)},
    {'M', "multipage", NULL, "key on pages of its own, graph full width",
     FLAG(opts.multipage, 1)},
    {'p', "use-aux", NULL, "reuse scaling, order and shades from BASE.aux",
     FLAG(use_aux, 1), .style = LETTER_CHAINS},
    {'y', "no-marks", NULL, "do not draw marks", FLAG(opts.no_marks, 1)},
    {0, "all-samples", NULL,
     "draw every sample (default: per 600 dpi column its extremes)",
     FLAG(opts.all_samples, 1)},
    {0, "from-eventlog", NULL, "read the input as a GHC eventlog",
     FLAG(parse.kind, HP2X_INPUT_EVENTLOG)},
    {0, "from-hp", NULL, "read the input as .hp text",
     FLAG(parse.kind, HP2X_INPUT_HP)},
    {0, "ccs-length", "N",
     "cut eventlog cost-centre stacks like +RTS -LN (default: whole)",
     .kind = VAL_INT, .field = AT(parse.ccs_length), .min = 5, .max = 1000000,
     .bad = "invalid --ccs-length ", .bad_tail = ": a whole number >= 5"},
    {0, "jobs", "N",
     "threads reading the input (default: the cores hp2x may use)",
     .kind = VAL_INT, .field = AT(jobs), .min = 1, .max = 1024,
     .bad = "invalid --jobs ", .bad_tail = ": a whole number, 1 to 1024"},
    {0, "program", "EXE",
     "-hi: name info tables without an IPE record from EXE's symbols",
     .kind = VAL_STRING, .field = AT(program)},
    {0, "watch", NULL, "re-render while the profile grows", FLAG(watch.on, 1)},
    {0, "interval", "SECONDS", NULL, interval_help, .kind = VAL_DOUBLE,
     .field = AT(watch.interval_s), .min = 0.01, .max = 86400.0,
     .bad = "invalid --interval ", .bad_tail = ": seconds, at least 0.01"},
    {0, "idle-exit", "SECONDS", "watch mode: stop after SECONDS without growth",
     .kind = VAL_DOUBLE, .field = AT(watch.idle_exit_s), .min = 0.0, .max = 1e9,
     .min_open = 1, .bad = "invalid --idle-exit ",
     .bad_tail = ": seconds, more than 0"},
    {0, "tee", "FILE",
     "unix:/tcp: input: keep the bytes received in FILE (an eventlog)",
     .kind = VAL_STRING, .field = AT(watch.tee_path)},
    {0, "palette", "NAME",
     "label (-c's default: colour-blind-safe, by name), hp2ps or grey",
     .kind = VAL_ENUM, .field = AT(opts.palette), .given = GIVEN(given.palette),
     .names = palettes, .bad = "unknown palette ",
     .bad_tail = " (label, hp2ps, grey)"},
    {0, "pattern", NULL,
     "hatch patterns instead of colours (black-and-white print)",
     FLAG(opts.pattern, 1)},
    {0, "uniform-scale", "AXES",
     "several inputs: share none, time, memory or both (default)",
     .kind = VAL_ENUM, .field = AT(opts.uniform), .given = GIVEN(given.uniform),
     .names = uniform_axes, .bad = "unknown --uniform-scale ",
     .bad_tail = " (none, time, memory, both)"},
    {0, "layout", "HOW", NULL, layout_help, .kind = VAL_ENUM,
     .field = AT(opts.layout), .given = GIVEN(given.layout), .names = layouts,
     .bad = "unknown --layout ", .bad_tail = " (pages, stack)"},
    {0, "diff", NULL, "two inputs A B: chart B - A per band over % of run time",
     FLAG(diff, 1)},
    {0, "include", "REGEX",
     "only labels matching REGEX (POSIX extended; the name, or a -hi "
     "band's IPE record); the rest go to OTHER",
     .kind = VAL_REGEX, .field = AT(opts.include_re),
     .bad = "invalid --include regex "},
    {0, "exclude", "REGEX",
     "labels matching REGEX go to OTHER, not bands of their own",
     .kind = VAL_REGEX, .field = AT(opts.exclude_re),
     .bad = "invalid --exclude regex "},
    {0, "from", "SECONDS", "only samples from this time on (x axis seconds)",
     .kind = VAL_DOUBLE, .field = AT(view.from_s),
     .given = GIVEN(view.from_given), .min = 0.0, .max = DBL_MAX,
     .bad = "invalid --from ", .bad_tail = ": seconds, a number >= 0"},
    {0, "to", "SECONDS", "only samples up to this time", .kind = VAL_DOUBLE,
     .field = AT(view.to_s), .given = GIVEN(view.to_given), .min = 0.0,
     .max = DBL_MAX, .bad = "invalid --to ",
     .bad_tail = ": seconds, a number >= 0"},
    {0, "last", "SECONDS",
     "only the most recent SECONDS, bands chosen over them (a dashboard)",
     .kind = VAL_DOUBLE, .field = AT(parse.last_s), .min = 0.001, .max = 1e12,
     .bad = "invalid --last ", .bad_tail = ": seconds, at least 0.001"},
    {0, "at", "SECONDS",
     "the census nearest this time: pprof's (default: the peak), CSV's "
     "one row, --summary's table of its bands",
     .kind = VAL_DOUBLE, .field = AT(view.at_s), .given = GIVEN(view.at_given),
     .min = 0.0, .max = DBL_MAX, .bad = "invalid --at ",
     .bad_tail = ": seconds, a number >= 0"},
    {0, "from-marker", "TEXT",
     "only samples from the first marker TEXT on (eventlog traceMarker)",
     .kind = VAL_TEXT, .field = AT(view.from_marker),
     .bad = "--from-marker needs a marker's text"},
    {0, "to-marker", "TEXT",
     "only samples up to the first marker TEXT after the start",
     .kind = VAL_TEXT, .field = AT(view.to_marker),
     .bad = "--to-marker needs a marker's text"},
    {0, "x", "AXIS",
     "x axis: time (default) or index (sample number, no GC warping)",
     .kind = VAL_ENUM, .field = AT(view.x_index), .names = x_axes,
     .bad = "unknown --x ", .bad_tail = " (time, index)"},
    {0, "heap", NULL,
     "eventlog: heap size, blocks size and live bytes as lines, in the key",
     FLAG(opts.heap_overlay, 1)},
    {0, "summary", NULL, NULL, summary_help, SPECIAL(set_summary)},
    {0, "serve", "[ADDR:]PORT",
     "serve the picture live over HTTP (127.0.0.1 unless ADDR; 0: any free "
     "port): a page, /metrics, /picture.EXT; until SIGINT",
     .kind = VAL_STRING, .field = AT(serve_spec)},
    {'q', "quiet", NULL, "no warnings, no status line", FLAG(quiet, 1)},
    {'h', "help", NULL, "show this help and exit", SPECIAL(show_help)},
    {0, "version", NULL, "show the version and exit", SPECIAL(show_version)},
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

int cli_help_row(size_t i, char *left, size_t left_size, const char **help) {
  if (i >= N_OPTIONS) return 0;
  const option_spec *o = &options[i];
  char arg[24] = "";
  if (o->arg_name)
    snprintf(arg, sizeof arg, "%s%s", o->long_name ? "=" : "", o->arg_name);
  if (o->letter && o->long_name)
    snprintf(left, left_size, "-%c, --%s%s", o->letter, o->long_name, arg);
  else if (o->letter)
    snprintf(left, left_size, "-%c%s", o->letter, arg);
  else
    snprintf(left, left_size, "    --%s%s", o->long_name, arg);
  *help = o->help_built ? o->help_built() : o->help;
  return 1;
}

const option_spec *cli_find_long(const char *name, size_t len) {
  if (len == 5 && !strncmp(name, "color", 5)) { /* the one alias */
    name = "colour";
    len = 6;
  }
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (options[i].long_name && strlen(options[i].long_name) == len &&
        !strncmp(options[i].long_name, name, len))
      return &options[i];
  return NULL;
}

const option_spec *cli_find_letter(char c) {
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (options[i].letter == c) return &options[i];
  return NULL;
}
