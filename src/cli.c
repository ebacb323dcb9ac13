/* cli.c -- the command line: one option table that drives parsing, --help
 * and the man-page check; hp2ps's flags with hp2ps's meanings (spec 1.1,
 * 1.2) next to GNU long options; every message and exit status of the tool.
 * The library does the work; this file only wires files to it.
 */
#include "cli.h"
#include "test_hooks.h"
#include "tool_support.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ messages */

void cli_errorf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hp2x: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void cli_report(const char *file, const hp2x_err *err, const char *what) {
  char where[64] = "";
  if (err->line > 0)
    snprintf(where, sizeof where, ":%ld", err->line);
  else if (err->offset >= 0)
    snprintf(where, sizeof where, ": byte %lld", err->offset);
  fprintf(stderr, "hp2x: %s%s: %s%s%s\n", file ? file : "<stdin>", where,
          what ? what : "", what ? ": " : "", err->msg);
}

static void usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hp2x: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputs("\nTry 'hp2x --help' for more information.\n", stderr);
  va_end(ap);
}

/* -------------------------------------------------------- option table */

enum opt_id {
  OPT_OUTPUT, OPT_FORMAT, OPT_EPS, OPT_COLOUR, OPT_BIG, OPT_SMALL,
  OPT_STDDEV, OPT_NAME, OPT_SORT, OPT_BANDS, OPT_TRACE, OPT_PORTRAIT,
  OPT_MULTIPAGE, OPT_AUX, OPT_NO_MARKS, OPT_ALL_SAMPLES, OPT_FROM_EVENTLOG,
  OPT_FROM_HP, OPT_CCS_LENGTH, OPT_WATCH, OPT_INTERVAL, OPT_IDLE_EXIT,
  OPT_PALETTE, OPT_PATTERN, OPT_UNIFORM, OPT_LAYOUT, OPT_DIFF, OPT_INCLUDE, OPT_EXCLUDE,
  OPT_FROM, OPT_TO, OPT_FROM_MARKER, OPT_TO_MARKER, OPT_X,
  OPT_SUMMARY, OPT_DPI, OPT_HEAP,
  OPT_QUIET,
  OPT_HELP, OPT_VERSION
};

enum arg_kind { ARG_NONE, ARG_REQUIRED };

typedef struct cli_option {
  enum opt_id id;
  char short_name;       /* hp2ps letter or 0 */
  const char *long_name; /* GNU name */
  enum arg_kind arg;
  const char *arg_name;  /* for --help */
  const char *help;
} cli_option;

static const cli_option options[] = {
    {OPT_OUTPUT, 'o', "output", ARG_REQUIRED, "FILE",
     "write to FILE (.ps .eps .pdf .svg .png .csv .hp .txt; - = stdout)"},
    {OPT_FORMAT, 0, "format", ARG_REQUIRED, "FMT",
     "output format: ps, eps, pdf, svg, png, csv, hp or txt (--summary)"},
    {OPT_EPS, 'e', "eps", ARG_REQUIRED, "WIDTH",
     "Encapsulated PostScript WIDTH wide (in, mm, cm, pt; > 2in)"},
    {OPT_DPI, 0, "dpi", ARG_REQUIRED, "N",
     "PNG resolution in pixels per inch (default 150; 10-1200)"},
    {OPT_COLOUR, 'c', "colour", ARG_NONE, NULL, "colour bands (also --color)"},
    {OPT_BIG, 'b', "big-title", ARG_NONE, NULL, "big title box"},
    {OPT_SMALL, 's', "small-title", ARG_NONE, NULL, "small title box"},
    {OPT_STDDEV, 'd', NULL, ARG_NONE, NULL,
     "order bands by standard deviation (= --sort=stddev)"},
    {OPT_NAME, 'i', NULL, ARG_NONE, NULL,
     "-i, -i+: order by name, ascending; -i-: descending"},
    {OPT_SORT, 0, "sort", ARG_REQUIRED, "KEY",
     "band order: area, stddev, name or name-desc"},
    {OPT_BANDS, 'm', "bands", ARG_REQUIRED, "N",
     "at most N bands (default 20; 0 = all, no key)"},
    {OPT_TRACE, 't', "trace", ARG_REQUIRED, "PCT",
     "drop bands below PCT percent together (0-5, default 1)"},
    {OPT_PORTRAIT, 'g', "portrait", ARG_NONE, NULL,
     "portrait page, unscaled (for screen previewers)"},
    {OPT_MULTIPAGE, 'M', "multipage", ARG_NONE, NULL,
     "key on pages of its own, graph full width"},
    {OPT_AUX, 'p', "use-aux", ARG_NONE, NULL,
     "reuse scaling, order and shades from BASE.aux"},
    {OPT_NO_MARKS, 'y', "no-marks", ARG_NONE, NULL, "do not draw marks"},
    {OPT_ALL_SAMPLES, 0, "all-samples", ARG_NONE, NULL,
     "draw every sample (default: per 600 dpi column its extremes)"},
    {OPT_FROM_EVENTLOG, 0, "from-eventlog", ARG_NONE, NULL,
     "read the input as a GHC eventlog"},
    {OPT_FROM_HP, 0, "from-hp", ARG_NONE, NULL,
     "read the input as .hp text"},
    {OPT_CCS_LENGTH, 0, "ccs-length", ARG_REQUIRED, "N",
     "cut eventlog cost-centre stacks like +RTS -LN (default: whole)"},
    {OPT_WATCH, 0, "watch", ARG_NONE, NULL,
     "re-render while the profile grows"},
    {OPT_INTERVAL, 0, "interval", ARG_REQUIRED, "SECONDS",
     "watch mode: at most one render per SECONDS (default 1)"},
    {OPT_IDLE_EXIT, 0, "idle-exit", ARG_REQUIRED, "SECONDS",
     "watch mode: stop after SECONDS without growth"},
    {OPT_PALETTE, 0, "palette", ARG_REQUIRED, "NAME",
     "label (-c's default: colour-blind-safe, by name), hp2ps or grey"},
    {OPT_PATTERN, 0, "pattern", ARG_NONE, NULL,
     "hatch patterns instead of colours (black-and-white print)"},
    {OPT_UNIFORM, 0, "uniform-scale", ARG_REQUIRED, "AXES",
     "several inputs: share none, time, memory or both (default)"},
    {OPT_LAYOUT, 0, "layout", ARG_REQUIRED, "HOW",
     "several inputs in one file: pages (PS, PDF) or stack"},
    {OPT_DIFF, 0, "diff", ARG_NONE, NULL,
     "two inputs A B: chart B - A per band over % of run time"},
    {OPT_INCLUDE, 0, "include", ARG_REQUIRED, "REGEX",
     "only labels matching REGEX (POSIX extended); the rest go to OTHER"},
    {OPT_EXCLUDE, 0, "exclude", ARG_REQUIRED, "REGEX",
     "labels matching REGEX go to OTHER, not bands of their own"},
    {OPT_FROM, 0, "from", ARG_REQUIRED, "SECONDS",
     "only samples from this time on (x axis seconds)"},
    {OPT_TO, 0, "to", ARG_REQUIRED, "SECONDS", "only samples up to this time"},
    {OPT_FROM_MARKER, 0, "from-marker", ARG_REQUIRED, "TEXT",
     "only samples from the first marker TEXT on (eventlog traceMarker)"},
    {OPT_TO_MARKER, 0, "to-marker", ARG_REQUIRED, "TEXT",
     "only samples up to the first marker TEXT after the start"},
    {OPT_X, 0, "x", ARG_REQUIRED, "AXIS",
     "x axis: time (default) or index (sample number, no GC warping)"},
    {OPT_HEAP, 0, "heap", ARG_NONE, NULL,
     "eventlog: heap size, blocks size and live bytes as lines, in the key"},
    {OPT_SUMMARY, 0, "summary", ARG_NONE, NULL,
     "print a table (peaks, slopes, leak suspects), not a picture (= txt)"},
    {OPT_QUIET, 'q', "quiet", ARG_NONE, NULL, "no warnings, no status line"},
    {OPT_HELP, 'h', "help", ARG_NONE, NULL, "show this help and exit"},
    {OPT_VERSION, 0, "version", ARG_NONE, NULL, "show the version and exit"},
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

static void print_help(void) {
  printf("Usage: hp2x [OPTION]... [FILE[.hp] | FILE.eventlog | -]...\n"
         "Draw a GHC heap profile (.hp or eventlog) as PostScript, EPS, PDF, "
         "SVG or PNG,\nor convert it to CSV or .hp text.  Without -o, writes "
         "BASE.ps (and BASE.aux)\nin the current directory, as hp2ps "
         "does; without FILE, reads standard input\nand writes standard "
         "output.\n"
         "Several FILEs are compared: one band selection and one colour per "
         "label for all,\nshared scales; PS and PDF get a page each, -o "
         "'DIR/' or 'NAME-%%s.svg' a file\neach (%%s = the input's base "
         "name), CSV one file with an input column.\n\n");
  for (size_t i = 0; i < N_OPTIONS; i++) {
    const cli_option *o = &options[i];
    char left[64];
    char arg[24] = "";
    if (o->arg == ARG_REQUIRED)
      snprintf(arg, sizeof arg, "%s%s", o->long_name ? "=" : "", o->arg_name);
    if (o->short_name && o->long_name)
      snprintf(left, sizeof left, "-%c, --%s%s", o->short_name, o->long_name,
               arg);
    else if (o->short_name)
      snprintf(left, sizeof left, "-%c%s", o->short_name, arg);
    else
      snprintf(left, sizeof left, "    --%s%s", o->long_name, arg);
    printf("  %-28s %s\n", left, o->help);
  }
  printf("\nhp2ps's flags work as in hp2ps: values are glued to the letter "
         "(-m5, -t0.5,\n-e15cm; -e 15cm also works), and a letter other "
         "than -p takes the rest of its\nargument (-cg is -c).\n"
         "Exit status: 0 success (also for an incomplete profile, with a "
         "warning),\n1 bad input or I/O failure, 2 usage error.\n");
}

/* ------------------------------------------------------- value parsing */

/* Parses a whole decimal number; 0 when not all of s is one. */
static int parse_double(const char *s, double *v) {
  if (!*s) return 0;
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return *end == '\0' && errno == 0;
}

static int parse_int(const char *s, long *v) {
  if (!*s) return 0;
  char *end;
  errno = 0;
  *v = strtol(s, &end, 10);
  return *end == '\0' && errno == 0;
}

/* hp2ps's -e: a width with an optional unit; hp2x adds cm. */
static int parse_width(const char *s, double *pt) {
  size_t n = strlen(s);
  double scale = 1.0;
  char num[64];
  if (n > 2) {
    const char *u = s + n - 2;
    if (!strcmp(u, "in")) scale = 72.0;
    else if (!strcmp(u, "mm")) scale = 72.0 / 25.4;
    else if (!strcmp(u, "cm")) scale = 72.0 / 2.54;
    else if (!strcmp(u, "pt")) scale = 1.0;
    else u = s + n;
    n = (size_t)(u - s);
  }
  if (n == 0 || n >= sizeof num) return 0;
  memcpy(num, s, n);
  num[n] = '\0';
  double v;
  if (!parse_double(num, &v)) return 0;
  *pt = v * scale;
  return 1;
}

static int looks_numeric(const char *s) {
  if (!s || !*s) return 0;
  for (; *s; s++)
    if ((*s < '0' || *s > '9') && *s != '.') return 0;
  return 1;
}

static int format_from_name(const char *s, hp2x_format *f) {
  static const struct { const char *name; hp2x_format f; } names[] = {
      {"ps", HP2X_FORMAT_PS},   {"eps", HP2X_FORMAT_EPS},
      {"pdf", HP2X_FORMAT_PDF}, {"svg", HP2X_FORMAT_SVG},
      {"csv", HP2X_FORMAT_CSV}, {"hp", HP2X_FORMAT_HP},
      {"txt", HP2X_FORMAT_TXT}, {"png", HP2X_FORMAT_PNG}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(s, names[i].name)) {
      *f = names[i].f;
      return 1;
    }
  return 0;
}

const char *cli_format_ext(hp2x_format f) {
  switch (f) {
  case HP2X_FORMAT_PS: return "ps";
  case HP2X_FORMAT_EPS: return "eps";
  case HP2X_FORMAT_PDF: return "pdf";
  case HP2X_FORMAT_SVG: return "svg";
  case HP2X_FORMAT_CSV: return "csv";
  case HP2X_FORMAT_HP: return "hp";
  case HP2X_FORMAT_TXT: return "txt";
  case HP2X_FORMAT_PNG: return "png";
  }
  return "ps";
}

/* --------------------------------------------------------- arguments */

typedef struct parse_state {
  int format_given;   /* --format */
  int eps_given;      /* -e */
  int done;           /* --help / --version handled */
} parse_state;

/* Applies option `o` with value `val` (NULL for flags).  Returns 0 or
 * EXIT_USAGE. */
static int apply(cli_args *a, parse_state *st, const cli_option *o,
                 const char *val, const char *spelled) {
  double d;
  long l;
  switch (o->id) {
  case OPT_OUTPUT: a->output = val; break;
  case OPT_FORMAT:
    if (!format_from_name(val, &a->opts.format)) {
      usage_error("unknown format '%s' (ps, eps, pdf, svg, png, csv, hp, "
                  "txt)", val);
      return EXIT_USAGE;
    }
    st->format_given = 1;
    break;
  case OPT_EPS:
    if (!parse_width(val, &d) || !(d > 144.0) || d > 14400.0) {
      usage_error("invalid EPS width '%s': a number > 2in with unit in, mm, "
                  "cm or pt",
                  val);
      return EXIT_USAGE;
    }
    a->opts.eps_width_pt = d;
    st->eps_given = 1;
    break;
  case OPT_COLOUR: a->opts.colour = 1; break;
  case OPT_BIG: a->opts.title_box = 1; break;
  case OPT_SMALL:
    if (a->opts.title_box != 1) a->opts.title_box = 0; /* -b beats -s */
    break;
  case OPT_STDDEV: a->opts.sort = HP2X_SORT_STDDEV; break;
  case OPT_NAME: a->opts.name_order = (val && !strcmp(val, "-")) ? -1 : 1; break;
  case OPT_SORT:
    if (!strcmp(val, "area")) {
      a->opts.sort = HP2X_SORT_AREA;
      a->opts.name_order = 0;
    } else if (!strcmp(val, "stddev")) {
      a->opts.sort = HP2X_SORT_STDDEV;
    } else if (!strcmp(val, "name")) {
      a->opts.name_order = 1;
    } else if (!strcmp(val, "name-desc")) {
      a->opts.name_order = -1;
    } else {
      usage_error("unknown sort key '%s' (area, stddev, name, name-desc)",
                  val);
      return EXIT_USAGE;
    }
    break;
  case OPT_BANDS:
    if (*val == '\0') {
      l = 0; /* hp2ps: -m alone is -m0 */
    } else if (!parse_int(val, &l) || l < 0 || l > 1000000) {
      usage_error("invalid band count '%s' in %s", val, spelled);
      return EXIT_USAGE;
    }
    a->opts.max_bands = (int)l;
    if (l > 20) a->opts.multipage = 1; /* hp2ps: -m > 20 pages the key */
    break;
  case OPT_TRACE:
    if (*val == '\0') {
      d = 0.0; /* hp2ps: -t alone is -t0 */
    } else if (!parse_double(val, &d) || d < 0.0 || d > 5.0) {
      usage_error("invalid trace percentage '%s' in %s: 0 to 5", val, spelled);
      return EXIT_USAGE;
    }
    a->opts.trace_pct = d;
    break;
  case OPT_PORTRAIT: a->opts.portrait = 1; break;
  case OPT_MULTIPAGE: a->opts.multipage = 1; break;
  case OPT_AUX: a->use_aux = 1; break;
  case OPT_NO_MARKS: a->opts.no_marks = 1; break;
  case OPT_ALL_SAMPLES: a->opts.all_samples = 1; break;
  case OPT_FROM_EVENTLOG: a->parse.kind = HP2X_INPUT_EVENTLOG; break;
  case OPT_FROM_HP: a->parse.kind = HP2X_INPUT_HP; break;
  case OPT_CCS_LENGTH:
    if (!parse_int(val, &l) || l < 5 || l > 1000000) {
      usage_error("invalid --ccs-length '%s': a whole number >= 5", val);
      return EXIT_USAGE;
    }
    a->parse.ccs_length = (int)l;
    break;
  case OPT_WATCH: a->watch = 1; break;
  case OPT_INTERVAL:
    if (!parse_double(val, &d) || !(d >= 0.01) || d > 86400.0) {
      usage_error("invalid --interval '%s': seconds, at least 0.01", val);
      return EXIT_USAGE;
    }
    a->interval_s = d;
    break;
  case OPT_IDLE_EXIT:
    if (!parse_double(val, &d) || !(d > 0.0) || d > 1e9) {
      usage_error("invalid --idle-exit '%s': seconds, more than 0", val);
      return EXIT_USAGE;
    }
    a->idle_exit_s = d;
    break;
  case OPT_PALETTE:
    if (!strcmp(val, "label")) {
      a->opts.palette = HP2X_PALETTE_LABEL;
    } else if (!strcmp(val, "hp2ps")) {
      a->opts.palette = HP2X_PALETTE_HP2PS;
    } else if (!strcmp(val, "grey") || !strcmp(val, "gray")) {
      a->opts.palette = HP2X_PALETTE_GREY;
    } else {
      usage_error("unknown palette '%s' (label, hp2ps, grey)", val);
      return EXIT_USAGE;
    }
    a->palette_given = 1;
    break;
  case OPT_PATTERN: a->opts.pattern = 1; break;
  case OPT_UNIFORM:
    if (!strcmp(val, "none")) a->opts.uniform = 0;
    else if (!strcmp(val, "time")) a->opts.uniform = HP2X_UNIFORM_TIME;
    else if (!strcmp(val, "memory")) a->opts.uniform = HP2X_UNIFORM_MEMORY;
    else if (!strcmp(val, "both"))
      a->opts.uniform = HP2X_UNIFORM_TIME | HP2X_UNIFORM_MEMORY;
    else {
      usage_error("unknown --uniform-scale '%s' (none, time, memory, both)",
                  val);
      return EXIT_USAGE;
    }
    a->uniform_given = 1;
    break;
  case OPT_LAYOUT:
    if (!strcmp(val, "pages")) a->opts.layout = HP2X_LAYOUT_PAGES;
    else if (!strcmp(val, "stack")) a->opts.layout = HP2X_LAYOUT_STACK;
    else {
      usage_error("unknown --layout '%s' (pages, stack)", val);
      return EXIT_USAGE;
    }
    a->layout_given = 1;
    break;
  case OPT_DIFF: a->diff = 1; break;
  case OPT_FROM:
  case OPT_TO:
    if (!parse_double(val, &d) || !isfinite(d) || d < 0.0) {
      usage_error("invalid --%s '%s': seconds, a number >= 0", o->long_name,
                  val);
      return EXIT_USAGE;
    }
    if (o->id == OPT_FROM) a->from_s = d, a->from_given = 1;
    else a->to_s = d, a->to_given = 1;
    break;
  case OPT_FROM_MARKER:
  case OPT_TO_MARKER:
    if (!*val) {
      usage_error("--%s needs a marker's text", o->long_name);
      return EXIT_USAGE;
    }
    if (o->id == OPT_FROM_MARKER) a->from_marker = val;
    else a->to_marker = val;
    break;
  case OPT_DPI:
    if (!parse_double(val, &d) || !(d >= 10.0) || d > 1200.0) {
      usage_error("invalid --dpi '%s': pixels per inch, 10 to 1200", val);
      return EXIT_USAGE;
    }
    a->opts.dpi = d;
    break;
  case OPT_HEAP: a->opts.heap_overlay = 1; break;
  case OPT_SUMMARY:
    a->opts.format = HP2X_FORMAT_TXT;
    st->format_given = 1;
    a->summary = 1;
    break;
  case OPT_X:
    if (!strcmp(val, "time")) a->x_index = 0;
    else if (!strcmp(val, "index")) a->x_index = 1;
    else {
      usage_error("unknown --x '%s' (time, index)", val);
      return EXIT_USAGE;
    }
    break;
  case OPT_INCLUDE:
  case OPT_EXCLUDE: {
    regex_t re;
    int rc = regcomp(&re, val, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
      char why[128];
      regerror(rc, &re, why, sizeof why);
      usage_error("invalid --%s regex '%s': %s", o->long_name, val, why);
      return EXIT_USAGE;
    }
    regfree(&re);
    if (o->id == OPT_INCLUDE) a->opts.include_re = val;
    else a->opts.exclude_re = val;
    break;
  }
  case OPT_QUIET: a->quiet = 1; break;
  case OPT_HELP:
    print_help();
    st->done = 1;
    break;
  case OPT_VERSION:
    printf("hp2x %s\n", HP2X_VERSION);
    st->done = 1;
    break;
  }
  return 0;
}

static const cli_option *find_long(const char *name, size_t len) {
  if (len == 5 && !strncmp(name, "color", 5)) name = "colour";
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (options[i].long_name && strlen(options[i].long_name) == len &&
        !strncmp(options[i].long_name, name, len))
      return &options[i];
  return NULL;
}

static const cli_option *find_short(char c) {
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (options[i].short_name == c) return &options[i];
  return NULL;
}

/* Reads argv into *a.  Returns -1 to go on, else an exit status. */
static int parse_args(int argc, char **argv, cli_args *a) {
  parse_state st = {0, 0, 0};
  int only_files = 0;
  int n_inputs = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_files || arg[0] != '-' || !strcmp(arg, "-")) {
      a->inputs[n_inputs++] = arg; /* room for argc - 1 */
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_files = 1;
      continue;
    }
    if (arg[1] == '-') {
      const char *name = arg + 2;
      const char *eq = strchr(name, '=');
      size_t len = eq ? (size_t)(eq - name) : strlen(name);
      const cli_option *o = find_long(name, len);
      if (!o) {
        usage_error("unknown option '--%.*s'", (int)len, name);
        return EXIT_USAGE;
      }
      const char *val = NULL;
      if (o->arg == ARG_REQUIRED) {
        if (eq) {
          val = eq + 1;
        } else if (i + 1 < argc) {
          val = argv[++i];
        } else {
          usage_error("option '--%s' needs a value (%s)", o->long_name,
                      o->arg_name);
          return EXIT_USAGE;
        }
      } else if (eq) {
        usage_error("option '--%s' takes no value", o->long_name);
        return EXIT_USAGE;
      }
      int rc = apply(a, &st, o, val, arg);
      if (rc) return rc;
      if (st.done) return EXIT_OK;
      continue;
    }
    /* hp2ps-style short options: the letter takes the rest of the
     * argument, except -p, after which letters go on (-pc = -p -c). */
    for (const char *c = arg + 1; *c;) {
      const cli_option *o = find_short(*c);
      if (!o) {
        usage_error("unknown option '-%c'", *c);
        return EXIT_USAGE;
      }
      const char *rest = c + 1;
      const char *val = NULL;
      if (o->id == OPT_NAME) {
        val = rest;
      } else if (o->arg == ARG_REQUIRED) {
        val = rest;
        int takes_next = *rest == '\0' && i + 1 < argc;
        /* -e 15cm and -o FILE take the next word; -m 5 and -t 0.5 only
         * when it is a number, since hp2ps reads -m alone as -m0. */
        if (takes_next && (o->id == OPT_BANDS || o->id == OPT_TRACE))
          takes_next = looks_numeric(argv[i + 1]);
        if (takes_next) val = argv[++i];
        if (*val == '\0' && o->id != OPT_BANDS && o->id != OPT_TRACE) {
          usage_error("option '-%c' needs a value (%s)", *c, o->arg_name);
          return EXIT_USAGE;
        }
      }
      char spelled[4] = {'-', *c, '\0', '\0'};
      int rc = apply(a, &st, o, val, spelled);
      if (rc) return rc;
      if (st.done) return EXIT_OK;
      if (o->id != OPT_AUX) break;
      c = rest;
    }
  }
  a->n_inputs = n_inputs;
  a->input = n_inputs ? a->inputs[0] : "-";
  if (a->opts.eps_width_pt > 0 && !st.format_given) {
    a->opts.format = HP2X_FORMAT_EPS;
  }
  struct stat dir;
  int to_dir = n_inputs > 1 && a->output && stat(a->output, &dir) == 0 &&
               S_ISDIR(dir.st_mode); /* several inputs: a file each */
  if (a->output && strcmp(a->output, "-") != 0 && !st.format_given &&
      !to_dir) {
    const char *dot = strrchr(a->output, '.');
    const char *slash = strrchr(a->output, '/');
    if (!dot || (slash && dot < slash) ||
        !format_from_name(dot + 1, &a->opts.format)) {
      usage_error("cannot tell the format of '%s' from its name: use "
                  "--format=ps|eps|pdf|svg|png|csv|hp|txt",
                  a->output);
      return EXIT_USAGE;
    }
  }
  if (a->summary && !a->output) a->output = "-"; /* to the terminal */
  if (a->watch && (!a->output || !strcmp(a->output, "-"))) {
    usage_error("--watch needs an output file (-o FILE)");
    return EXIT_USAGE;
  }
  if (a->watch && n_inputs > 1) {
    usage_error("--watch follows one input, got %d", n_inputs);
    return EXIT_USAGE;
  }
  if (a->from_given && a->from_marker) {
    usage_error("--from and --from-marker both give the window's start");
    return EXIT_USAGE;
  }
  if (a->to_given && a->to_marker) {
    usage_error("--to and --to-marker both give the window's end");
    return EXIT_USAGE;
  }
  if (a->from_given && a->to_given && !(a->from_s < a->to_s)) {
    usage_error("--from %g is not before --to %g", a->from_s, a->to_s);
    return EXIT_USAGE;
  }
  if (a->diff && n_inputs != 2) {
    usage_error("--diff needs two inputs (A B, drawn as B - A), got %d",
                n_inputs);
    return EXIT_USAGE;
  }
  return -1;
}

/* ------------------------------------------------------ file names */

static char *dup_printf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static char *dup_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

int cli_ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* hp2ps reads NAME.hp when given NAME; hp2x reads NAME itself when it
 * exists, else NAME.hp. */
char *cli_resolve_input(const char *name) {
  struct stat st;
  if (!strcmp(name, "-") || stat(name, &st) == 0) return NULL;
  char *with = dup_printf("%s.hp", name);
  if (with && stat(with, &st) == 0) return with;
  free(with);
  return NULL;
}

/* The input's base name without directory and .hp/.eventlog suffix. */
char *cli_input_stem(const char *input) {
  const char *slash = strrchr(input, '/');
  const char *base = slash ? slash + 1 : input;
  size_t n = strlen(base);
  if (cli_ends_with(base, ".hp")) n -= 3;
  else if (cli_ends_with(base, ".eventlog")) n -= 9;
  return dup_printf("%.*s", (int)n, base);
}

/* BASE.aux beside the output: the output's name without its extension. */
char *cli_aux_beside(const char *output) {
  const char *slash = strrchr(output, '/');
  const char *dot = strrchr(output, '.');
  size_t n = (dot && (!slash || dot > slash)) ? (size_t)(dot - output)
                                               : strlen(output);
  return dup_printf("%.*s.aux", (int)n, output);
}

/* ------------------------------------------------------------- running */

/* Temporary files a fatal signal must remove. */
static char cleanup_path[CLI_MAX_OUTPUTS][4096];

static void set_cleanup(size_t slot, const char *temp_path) {
  cleanup_path[slot][0] = '\0';
  if (temp_path && strlen(temp_path) < sizeof cleanup_path[slot])
    memcpy(cleanup_path[slot], temp_path, strlen(temp_path) + 1);
}

static void on_fatal_signal(int sig) {
  for (size_t i = 0; i < CLI_MAX_OUTPUTS; i++)
    if (cleanup_path[i][0]) unlink(cleanup_path[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

void cli_catch_signals(void) {
  signal(SIGINT, on_fatal_signal);
  signal(SIGTERM, on_fatal_signal);
  signal(SIGHUP, on_fatal_signal);
}

static int write_stdout(void *closure, const void *buf, size_t len) {
  (void)closure;
  if (len && fwrite(buf, 1, len, stdout) != len) return -1;
  return 0;
}

/* Memory held back while parsing and selecting, given back just before
 * drawing: the profile may take all there is (a ulimit), and glib, under
 * pango, aborts when an allocation fails where hp2x's own code reports
 * it; with the reserve, hp2x's own allocations fail first. */
enum { DRAWING_RESERVE = 16 << 20 };
static void *drawing_reserve;

static void hold_reserve(void) {
  if (!drawing_reserve) drawing_reserve = malloc(DRAWING_RESERVE);
}

static void release_reserve(void) {
  free(drawing_reserve);
  drawing_reserve = NULL;
}

static hp2x_status emit_main(const cli_args *a, const hp2x_profile *p,
                             const hp2x_bands *b, hp2x_write_fn w,
                             void *closure, hp2x_err *err) {
  release_reserve();
  switch (a->opts.format) {
  case HP2X_FORMAT_HP: return hp2x_write_hp(p, w, closure, err);
  case HP2X_FORMAT_CSV: return hp2x_write_csv(p, b, w, closure, err);
  case HP2X_FORMAT_TXT: {
    const char *name = a->input_display;
    return hp2x_write_summary(&p, (const hp2x_bands *const *)&b, &name, 1, w,
                              closure, err);
  }
  default: return hp2x_render(p, b, &a->opts, w, closure, err);
  }
}

static hp2x_status emit_aux(const cli_args *a, const hp2x_profile *p,
                            const hp2x_bands *b, hp2x_write_fn w,
                            void *closure, hp2x_err *err) {
  return hp2x_write_aux(p, b, &a->opts, w, closure, err);
}

static int write_failed(const char *path, const hp2x_err *err,
                        int arg_is_usage) {
  cli_report(strcmp(path, "-") ? path : "<stdout>", err, NULL);
  return arg_is_usage && err->code == HP2X_E_ARG ? EXIT_USAGE : EXIT_BAD_INPUT;
}

int cli_write_files(const char *const *paths, size_t n, cli_emit_fn emit,
                    void *ctx, int arg_is_usage) {
  hp2x_outfile *f[CLI_MAX_OUTPUTS] = {NULL};
  hp2x_err err;
  for (size_t i = 0; i < n; i++) {
    hp2x_err_init(&err, paths[i]);
    hp2x_status st;
    if (!strcmp(paths[i], "-")) {
      st = emit(ctx, (int)i, write_stdout, NULL, &err);
      if (st == HP2X_OK && fflush(stdout) != 0) {
        st = err.code = HP2X_E_IO;
        snprintf(err.msg, sizeof err.msg, "write failed: %s", strerror(errno));
      }
    } else {
      st = hp2x_outfile_open(paths[i], &f[i], &err);
      if (st == HP2X_OK) {
        set_cleanup(i, hp2x_outfile_temp_path(f[i]));
        st = emit(ctx, (int)i, hp2x_outfile_write, f[i], &err);
      }
    }
    if (st != HP2X_OK) {
      for (size_t j = 0; j <= i; j++) {
        if (f[j]) hp2x_outfile_abort(f[j]);
        set_cleanup(j, NULL);
      }
      return write_failed(paths[i], &err, arg_is_usage);
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (!f[i]) continue;
    hp2x_err_init(&err, paths[i]);
    hp2x_status st = hp2x_outfile_commit(f[i], &err);
    set_cleanup(i, NULL);
    if (st != HP2X_OK) {
      for (size_t j = i + 1; j < n; j++) {
        if (f[j]) hp2x_outfile_abort(f[j]);
        set_cleanup(j, NULL);
      }
      return write_failed(paths[i], &err, arg_is_usage);
    }
  }
  return EXIT_OK;
}

/* One run's outputs: the picture (or table) and, as hp2ps, its .aux. */
typedef struct main_outputs {
  const cli_args *a;
  const hp2x_profile *p;
  const hp2x_bands *b;
} main_outputs;

static hp2x_status emit_output(void *ctx, int which, hp2x_write_fn w,
                               void *closure, hp2x_err *err) {
  const main_outputs *m = ctx;
  return which == 0 ? emit_main(m->a, m->p, m->b, w, closure, err)
                    : emit_aux(m->a, m->p, m->b, w, closure, err);
}

int cli_view(const cli_args *a, const char *display, const hp2x_profile *p,
             hp2x_profile **view) {
  *view = NULL;
  int window = a->from_given || a->to_given || a->from_marker || a->to_marker;
  if (!window && !a->x_index) return EXIT_OK;
  hp2x_err err;
  hp2x_err_init(&err, display);
  hp2x_profile *w = NULL;
  if (window) {
    double lo = a->from_given ? a->from_s : -INFINITY;
    double hi = a->to_given ? a->to_s : INFINITY;
    if (a->from_marker) {
      long m = hp2x_profile_find_mark(p, a->from_marker, -INFINITY);
      if (m < 0) {
        cli_errorf("%s: no marker '%s' (--from-marker)", display,
                   a->from_marker);
        return EXIT_BAD_INPUT;
      }
      lo = hp2x_profile_mark_time(p, (size_t)m);
    }
    if (a->to_marker) {
      long m = hp2x_profile_find_mark(p, a->to_marker, lo);
      if (m < 0) {
        cli_errorf("%s: no marker '%s' at or after the window's start "
                   "(--to-marker)", display, a->to_marker);
        return EXIT_BAD_INPUT;
      }
      hi = hp2x_profile_mark_time(p, (size_t)m);
    }
    if (lo > hi) {
      cli_errorf("%s: the window starts (%g s) after it ends (%g s)", display,
                 lo, hi);
      return EXIT_BAD_INPUT;
    }
    if (hp2x_profile_window(p, lo, hi, &w, &err) != HP2X_OK) {
      cli_report(display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    if (hp2x_profile_sample_count(w) == 0) {
      cli_errorf("%s: no samples between %g s and %g s", display, lo, hi);
      hp2x_profile_free(w);
      return EXIT_BAD_INPUT;
    }
  }
  if (a->x_index) {
    hp2x_profile *ix = NULL;
    hp2x_status st = hp2x_profile_by_index(w ? w : p, &ix, &err);
    hp2x_profile_free(w);
    if (st != HP2X_OK) {
      cli_report(display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    w = ix;
  }
  *view = w;
  return EXIT_OK;
}

int cli_write_outputs(const cli_args *a, const hp2x_profile *p,
                      hp2x_profile *disposable, hp2x_follower *follow) {
  hp2x_err err;
  hp2x_err_init(&err, a->input_display);
  hp2x_profile *view = NULL;
  int rc = cli_view(a, a->input_display, p, &view);
  if (rc != EXIT_OK) return rc;
  if (view) p = view;
  hp2x_bands *b = NULL; /* owned */
  const hp2x_bands *shown = NULL;
  hp2x_status st = HP2X_OK;
  if (a->opts.format != HP2X_FORMAT_HP && follow && !view)
    st = hp2x_follower_select(follow, p, &a->opts, &shown, &err);
  else if (a->opts.format != HP2X_FORMAT_HP)
    st = hp2x_bands_select(p, &a->opts, &b, &err);
  if (b) shown = b;
  if (st != HP2X_OK) {
    cli_report(a->input_display, &err, NULL);
    hp2x_profile_free(view);
    return err.code == HP2X_E_ARG ? EXIT_USAGE : EXIT_BAD_INPUT;
  }
  if (a->opts.format != HP2X_FORMAT_HP) {
    if (view) hp2x_profile_drop_entries(view);
    if (disposable) hp2x_profile_drop_entries(disposable);
  }
  main_outputs m = {a, p, shown};
  const char *paths[2] = {a->output, a->aux_path};
  rc = cli_write_files(paths, a->write_aux && a->aux_path && shown ? 2 : 1,
                       emit_output, &m, 0);
  hp2x_bands_free(b);
  hp2x_profile_free(view);
  return rc;
}

void cli_warn_profile(const cli_args *a, const hp2x_profile *p) {
  if (a->quiet) return;
  const hp2x_warnings *w = hp2x_profile_warnings(p);
  hp2x_err e;
  if (w->truncated) {
    hp2x_err_init(&e, a->input_display);
    e.line = w->truncated_line;
    e.offset = w->truncated_offset;
    snprintf(e.msg, sizeof e.msg,
             "profile ends inside a sample (still being written, or the "
             "program was killed); using the %zu complete samples",
             hp2x_profile_sample_count(p));
    cli_report(a->input_display, &e, "warning");
  }
  if (w->duplicate_labels) {
    hp2x_err_init(&e, a->input_display);
    e.line = w->first_duplicate_line;
    snprintf(e.msg, sizeof e.msg,
             "%ld repeated label(s) within a sample; their values are added",
             w->duplicate_labels);
    cli_report(a->input_display, &e, "warning");
  }
  if (a->opts.heap_overlay && hp2x_profile_heap_points(p) == 0 &&
      hp2x_profile_sample_count(p) > 0) {
    hp2x_err_init(&e, a->input_display);
    snprintf(e.msg, sizeof e.msg,
             "--heap: no heap size events (only eventlogs have them); no "
             "lines drawn");
    cli_report(a->input_display, &e, "warning");
  }
  if (w->unknown_cost_centres) {
    hp2x_err_init(&e, a->input_display);
    snprintf(e.msg, sizeof e.msg,
             "%ld stack(s) name cost centres the eventlog never defines; "
             "shown as <cc N>",
             w->unknown_cost_centres);
    cli_report(a->input_display, &e, "warning");
  }
}

/* Reads BASE.aux for -p. */
int cli_load_aux(const cli_args *a, hp2x_aux **aux) {
  *aux = NULL;
  if (!a->use_aux || !a->aux_path) return EXIT_OK;
  FILE *f = fopen(a->aux_path, "rb");
  if (!f) {
    cli_errorf("%s: cannot open: %s", a->aux_path, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  size_t cap = 4096, len = 0;
  char *text = malloc(cap);
  size_t n;
  while (text && (n = fread(text + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len > CLI_MAX_AUX_BYTES) {
      free(text);
      fclose(f);
      cli_errorf("%s: byte %zu: larger than %d MiB: not an hp2ps .aux file",
                 a->aux_path, (size_t)CLI_MAX_AUX_BYTES,
                 CLI_MAX_AUX_BYTES >> 20);
      return EXIT_BAD_INPUT;
    }
    if (len == cap) {
      char *t = realloc(text, cap *= 2);
      if (!t) free(text);
      text = t;
    }
  }
  int read_failed = ferror(f);
  fclose(f);
  if (!text || read_failed) {
    free(text);
    cli_errorf("%s: cannot read: %s", a->aux_path,
               read_failed ? strerror(errno) : "out of memory");
    return EXIT_BAD_INPUT;
  }
  hp2x_err err;
  hp2x_err_init(&err, a->aux_path);
  hp2x_status st = hp2x_aux_parse(text, len, a->aux_path, aux, &err);
  free(text);
  if (st != HP2X_OK) {
    cli_report(a->aux_path, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

static int parse_and_write(cli_args *a) {
  FILE *in = stdin;
  if (strcmp(a->input, "-") != 0) {
    in = fopen(a->input, "rb");
    if (!in) {
      cli_errorf("%s: cannot open: %s", a->input, strerror(errno));
      return EXIT_BAD_INPUT;
    }
  }
  hp2x_err err;
  hp2x_err_init(&err, a->input_display);
  hp2x_profile *p = NULL;
  hold_reserve();
  hp2x_status st = hp2x_parse_stream(in, a->input_display, &a->parse, &p,
                                     &err);
  if (in != stdin) fclose(in);
  if (st != HP2X_OK) {
    release_reserve();
    cli_report(a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  cli_warn_profile(a, p);
  int rc = cli_write_outputs(a, p, p, NULL);
  release_reserve();
  hp2x_profile_free(p);
  return rc;
}

static void *prepare_fonts(void *unused) {
  (void)unused;
  hp2x_fonts_prepare();
  return NULL;
}

static int is_picture(hp2x_format f) {
  return f != HP2X_FORMAT_CSV && f != HP2X_FORMAT_HP && f != HP2X_FORMAT_TXT;
}

static int run_once(cli_args *a) {
  /* Font set-up (fontconfig, font files) takes as long as parsing a few
   * megabytes: for a small input, do it on the other core meanwhile (if
   * no thread can be started, the render does it itself).  Before a big
   * input, where it saves little, it comes first, so that its memory is
   * taken before the profile's (see DRAWING_RESERVE). */
  pthread_t fonts;
  struct stat st;
  int big = strcmp(a->input, "-") && stat(a->input, &st) == 0 &&
            st.st_size > (1 << 20);
  if (is_picture(a->opts.format) && big) hp2x_fonts_prepare();
  int fonts_started = is_picture(a->opts.format) && !big &&
                      pthread_create(&fonts, NULL, prepare_fonts, NULL) == 0;
  int rc = parse_and_write(a);
  if (fonts_started) pthread_join(fonts, NULL);
  return rc;
}

int cli_main(int argc, char **argv) {
  /* Testing hook: fail the library's nth allocation (man page, ENVIRONMENT). */
  const char *fail_at = getenv("HP2X_ALLOC_FAIL_AT");
  if (fail_at && *fail_at) hp2x_alloc_fail_at(strtol(fail_at, NULL, 10));
  cli_args a;
  memset(&a, 0, sizeof a);
  hp2x_options_init(&a.opts);
  hp2x_parse_options_init(&a.parse);
  a.interval_s = 1.0;
  a.inputs = calloc((size_t)argc, sizeof *a.inputs);
  if (!a.inputs) {
    cli_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0) {
    free(a.inputs);
    return rc;
  }
  /* -c draws the label palette unless --palette says otherwise. */
  if (a.opts.colour && !a.palette_given) a.opts.palette = HP2X_PALETTE_LABEL;

  if (a.n_inputs > 1 || a.diff) {
    rc = compare_run(&a);
    free(a.inputs);
    return rc;
  }
  char *resolved = cli_resolve_input(a.input);
  if (resolved) a.input = resolved;
  int filter = !strcmp(a.input, "-");
  a.input_display = filter ? "<stdin>" : a.input;
  char *stem = NULL;
  if (!a.output) {
    if (filter) {
      a.output = "-";
    } else {
      stem = cli_input_stem(a.input);
      /* hp2ps writes BASE.ps even for -e; other formats get their own. */
      const char *ext = a.opts.format == HP2X_FORMAT_EPS && a.opts.eps_width_pt
                            ? "ps"
                            : cli_format_ext(a.opts.format);
      a.output_owned = stem ? dup_printf("%s.%s", stem, ext) : NULL;
      a.output = a.output_owned;
      a.write_aux = is_picture(a.opts.format);
    }
  }
  if (a.use_aux) a.write_aux = 1;
  if (a.output && strcmp(a.output, "-") != 0 && !filter)
    a.aux_path = cli_aux_beside(a.output);
  if (!a.output || (!filter && !a.aux_path && strcmp(a.output, "-"))) {
    cli_errorf("out of memory");
    free(resolved);
    free(stem);
    free(a.output_owned);
    free(a.inputs);
    return EXIT_BAD_INPUT;
  }

  cli_catch_signals();

  hp2x_aux *aux = NULL;
  rc = cli_load_aux(&a, &aux);
  if (rc == EXIT_OK) {
    a.opts.aux = aux;
    rc = a.watch ? watch_run(&a) : run_once(&a);
  }
  hp2x_aux_free(aux);
  free(resolved);
  free(stem);
  free(a.output_owned);
  free(a.aux_path);
  free(a.inputs);
  return rc;
}
