/* options.c -- the command line: one typed option table that drives
 * parsing and --help (and through --help the man-page check in
 * tests/e2e/test_cli_usage.sh).  hp2ps's flags keep hp2ps's meanings (its
 * manual: -e width, -m bands, -t trace, -p .aux, -b/-s title, -i order,
 * values glued to the letter) next to GNU long options.  Each entry says
 * what kind of value it takes, its range or words and the field it sets;
 * the few hp2ps flags with rules of their own are small functions.  Errors
 * are returned, never printed (messages.c prints them).  The environment
 * variables the library needs (fonts, source date) are read here too and
 * passed on in the options.
 */
#include "options.h"

#include "connect.h"
#include "names.h"
#include "numbers.h"

#include <assert.h>
#include <errno.h>
#include <float.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Enum fields are set through an int. */
_Static_assert(sizeof(hp2x_format) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_sort) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_palette) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_layout) == sizeof(int), "enum size");
_Static_assert(sizeof(hp2x_input_kind) == sizeof(int), "enum size");

/* ---------------------------------------------------------------- types */

typedef enum value_kind {
  VAL_FLAG,    /* no value: stores `set` */
  VAL_INT,     /* a whole number in [min, max] */
  VAL_DOUBLE,  /* a number in [min, max] (min itself out when min_open) */
  VAL_ENUM,    /* one of `names`: stores its value */
  VAL_STRING,  /* any text, borrowed from argv */
  VAL_TEXT,    /* text, not empty */
  VAL_REGEX,   /* a POSIX extended regex, borrowed from argv */
  VAL_SPECIAL  /* hp2ps's own rules: `special` */
} value_kind;

/* How the hp2ps letter reads its value (hp2ps's manual). */
typedef enum letter_style {
  LETTER_PLAIN,        /* -Xvalue or -X value; a flag ignores the rest of
                          its word (-cg is -c) */
  LETTER_GLUED,        /* the rest of the word only, maybe empty (-i-) */
  LETTER_MAYBE_NUMBER, /* the rest of the word, or the next word when it
                          is a number; may be empty (-m alone is -m0) */
  LETTER_CHAINS        /* a flag after which letters go on (-pc = -p -c) */
} letter_style;

typedef struct option_spec option_spec;
typedef options_outcome (*special_fn)(const option_spec *o, const char *val,
                                      const char *spelled, tool_args *a,
                                      options_error *e);

struct option_spec {
  char letter;             /* hp2ps letter or 0 */
  const char *long_name;   /* GNU name or NULL */
  const char *arg_name;    /* the value in --help; NULL: takes none */
  const char *help;
  const char *(*help_built)(void); /* else: help made from a table */
  value_kind kind;
  size_t field;            /* offsetof(tool_args, ...) of what it sets */
  size_t given;            /* 1 + offsetof an int also set to 1; 0 none */
  int set;                 /* VAL_FLAG: the value stored */
  double min, max;         /* VAL_INT, VAL_DOUBLE: the range */
  int min_open;            /* VAL_DOUBLE: min is out of range */
  const tool_name *names;  /* VAL_ENUM: the words, ended by {NULL} */
  const char *bad;         /* a bad value's message: bad 'VALUE' bad_tail */
  const char *bad_tail;
  special_fn special;      /* VAL_SPECIAL */
  letter_style style;
};

#define AT(f) offsetof(tool_args, f)
#define GIVEN(f) (1 + offsetof(tool_args, f))
#define FLAG(f, v) .kind = VAL_FLAG, .field = AT(f), .set = (v)
#define SPECIAL(fn) .kind = VAL_SPECIAL, .special = (fn)

/* ---------------------------------------------------------------- errors */

static options_outcome fail(options_error *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Records a usage error (the first one; parsing stops at it). */
static options_outcome fail(options_error *e, const char *fmt, ...) {
  assert(!e->message);
  va_list ap;
  va_start(ap, fmt);
  int n = numbers_vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  e->message = n < 0 ? NULL : malloc((size_t)n + 1);
  e->is_usage = e->message != NULL;
  if (e->message) {
    va_start(ap, fmt);
    numbers_vsnprintf(e->message, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  return OPTIONS_FAILED;
}

static options_outcome out_of_memory(options_error *e) {
  e->message = NULL;
  e->is_usage = 0;
  return OPTIONS_FAILED;
}

/* ---------------------------------------------------------------- values */

/* Parses a whole decimal number, '.' for the point in any locale; 0 when
 * not all of s is one. */
static int parse_double(const char *s, double *v) {
  return numbers_parse_double(s, v);
}

static int parse_long(const char *s, long *v) {
  if (!*s) return 0;
  char *end;
  errno = 0;
  *v = strtol(s, &end, 10);
  return *end == '\0' && errno == 0;
}

static int looks_numeric(const char *s) {
  if (!s || !*s) return 0;
  for (; *s; s++)
    if ((*s < '0' || *s > '9') && *s != '.') return 0;
  return 1;
}

static const tool_name *find_name(const tool_name *names, const char *s) {
  for (; names->name; names++)
    if (!strcmp(s, names->name)) return names;
  return NULL;
}

/* ------------------------------------------------ hp2ps's special flags */

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

static options_outcome set_eps_width(const option_spec *o, const char *val,
                                     const char *spelled, tool_args *a,
                                     options_error *e) {
  (void)o, (void)spelled;
  double pt;
  if (!parse_width(val, &pt) || !(pt > 144.0) || pt > 14400.0)
    return fail(e, "invalid EPS width '%s': a number > 2in with unit in, "
                   "mm, cm or pt", val);
  a->opts.eps_width_pt = pt;
  return OPTIONS_RUN;
}

/* -b beats -s, whichever comes first. */
static options_outcome set_small_title(const option_spec *o, const char *val,
                                       const char *spelled, tool_args *a,
                                       options_error *e) {
  (void)o, (void)val, (void)spelled, (void)e;
  if (a->opts.title_box != HP2X_TITLE_BIG) a->opts.title_box = HP2X_TITLE_SMALL;
  return OPTIONS_RUN;
}

/* -i and -i+ ascending, -i- descending. */
static options_outcome set_name_order(const option_spec *o, const char *val,
                                      const char *spelled, tool_args *a,
                                      options_error *e) {
  (void)o, (void)spelled, (void)e;
  a->opts.name_order = (val && !strcmp(val, "-"))
                           ? HP2X_NAME_ORDER_DESCENDING
                           : HP2X_NAME_ORDER_ASCENDING;
  return OPTIONS_RUN;
}

/* --sort: area and stddev are -d's key (area also ends -i), name and
 * name-desc are -i's order. */
static options_outcome set_sort(const option_spec *o, const char *val,
                                const char *spelled, tool_args *a,
                                options_error *e) {
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
    return fail(e, "unknown sort key '%s' (area, stddev, name, name-desc)",
                val);
  }
  return OPTIONS_RUN;
}

/* hp2ps's -m: -m alone is -m0 (every band, no key); more than 20 bands
 * page the key. */
static options_outcome set_band_count(const option_spec *o, const char *val,
                                      const char *spelled, tool_args *a,
                                      options_error *e) {
  (void)o;
  long l = 0;
  if (*val != '\0' && (!parse_long(val, &l) || l < 0 || l > 1000000))
    return fail(e, "invalid band count '%s' in %s", val, spelled);
  a->opts.max_bands = (int)l;
  if (l > 20) a->opts.multipage = 1;
  return OPTIONS_RUN;
}

/* hp2ps's -t: -t alone is -t0; at most 5 percent. */
static options_outcome set_trace(const option_spec *o, const char *val,
                                 const char *spelled, tool_args *a,
                                 options_error *e) {
  (void)o;
  double d = 0.0;
  if (*val != '\0' && (!parse_double(val, &d) || d < 0.0 || d > 5.0))
    return fail(e, "invalid trace percentage '%s' in %s: 0 to 5", val,
                spelled);
  a->opts.trace_pct = d;
  return OPTIONS_RUN;
}

static options_outcome set_summary(const option_spec *o, const char *val,
                                   const char *spelled, tool_args *a,
                                   options_error *e) {
  (void)o, (void)val, (void)spelled, (void)e;
  a->opts.format = HP2X_FORMAT_TXT;
  a->format_given = 1;
  a->summary = 1;
  return OPTIONS_RUN;
}

static options_outcome show_help(const option_spec *o, const char *val,
                                 const char *spelled, tool_args *a,
                                 options_error *e) {
  (void)o, (void)val, (void)spelled, (void)a, (void)e;
  return OPTIONS_SHOW_HELP;
}

static options_outcome show_version(const option_spec *o, const char *val,
                                    const char *spelled, tool_args *a,
                                    options_error *e) {
  (void)o, (void)val, (void)spelled, (void)a, (void)e;
  return OPTIONS_SHOW_VERSION;
}

/* ----------------------------------------------------------- the table */

/* The output formats' lists, from the library's table (format.c). */
static const char *output_help(void) {
  static char help[160];
  char list[96];
  snprintf(help, sizeof help, "write to FILE (%s; - = stdout)",
           names_format_list(list, sizeof list, ".", " ", " "));
  return help;
}

static const char *format_help(void) {
  static char help[160];
  char list[96];
  snprintf(help, sizeof help, "output format: %s (--summary)",
           names_format_list(list, sizeof list, "", ", ", " or "));
  return help;
}

/* --format=FMT: a name from the formats' table. */
static options_outcome set_format(const option_spec *o, const char *val,
                                  const char *spelled, tool_args *a,
                                  options_error *e) {
  (void)o, (void)spelled;
  const hpx_format_info *f = hpx_format_named(val);
  char list[96];
  if (!f)
    return fail(e, "unknown format '%s' (%s)", val,
                names_format_list(list, sizeof list, "", ", ", ", "));
  a->opts.format = f->format;
  return OPTIONS_RUN;
}

static const tool_name palettes[] = {
    {"label", HP2X_PALETTE_LABEL}, {"hp2ps", HP2X_PALETTE_HP2PS},
    {"grey", HP2X_PALETTE_GREY},   {"gray", HP2X_PALETTE_GREY},
    {NULL, 0}};
static const tool_name uniform_axes[] = {
    {"none", HP2X_UNIFORM_NONE},
    {"time", HP2X_UNIFORM_TIME},
    {"memory", HP2X_UNIFORM_MEMORY},
    {"both", HP2X_UNIFORM_BOTH},
    {NULL, 0}};
static const tool_name layouts[] = {
    {"pages", HP2X_LAYOUT_PAGES}, {"stack", HP2X_LAYOUT_STACK}, {NULL, 0}};
static const tool_name x_axes[] = {{"time", 0}, {"index", 1}, {NULL, 0}};

static const option_spec options[] = {
    {'o', "output", "FILE", NULL, output_help, .kind = VAL_STRING,
     .field = AT(output)},
    {0, "format", "FMT", NULL, format_help, .given = GIVEN(format_given),
     SPECIAL(set_format)},
    {'e', "eps", "WIDTH",
     "Encapsulated PostScript WIDTH wide (in, mm, cm, pt; > 2in)",
     SPECIAL(set_eps_width)},
    {0, "dpi", "N", "PNG resolution in pixels per inch (default 150; 10-1200)",
     .kind = VAL_DOUBLE, .field = AT(opts.dpi), .min = 10.0, .max = 1200.0,
     .bad = "invalid --dpi ", .bad_tail = ": pixels per inch, 10 to 1200"},
    {'c', "colour", NULL, "colour bands (also --color)", FLAG(opts.colour, 1)},
    {'b', "big-title", NULL, "big title box", FLAG(opts.title_box, HP2X_TITLE_BIG)},
    {'s', "small-title", NULL, "small title box", SPECIAL(set_small_title)},
    {'d', NULL, NULL, "order bands by standard deviation (= --sort=stddev)",
     FLAG(opts.sort, HP2X_SORT_STDDEV)},
    {'i', NULL, NULL, "-i, -i+: order by name, ascending; -i-: descending",
     SPECIAL(set_name_order), .style = LETTER_GLUED},
    {0, "sort", "KEY", "band order: area, stddev, name or name-desc",
     SPECIAL(set_sort)},
    {'m', "bands", "N", "at most N bands (default 20; 0 = all, no key)",
     SPECIAL(set_band_count), .style = LETTER_MAYBE_NUMBER},
    {'t', "trace", "PCT",
     "drop bands below PCT percent together (0-5, default 1)",
     SPECIAL(set_trace), .style = LETTER_MAYBE_NUMBER},
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
    {0, "watch", NULL, "re-render while the profile grows", FLAG(watch, 1)},
    {0, "interval", "SECONDS",
     "watch mode: at most one render per SECONDS (default 1)",
     .kind = VAL_DOUBLE, .field = AT(interval_s), .min = 0.01, .max = 86400.0,
     .bad = "invalid --interval ", .bad_tail = ": seconds, at least 0.01"},
    {0, "idle-exit", "SECONDS", "watch mode: stop after SECONDS without growth",
     .kind = VAL_DOUBLE, .field = AT(idle_exit_s), .min = 0.0, .max = 1e9,
     .min_open = 1, .bad = "invalid --idle-exit ",
     .bad_tail = ": seconds, more than 0"},
    {0, "tee", "FILE",
     "unix:/tcp: input: keep the bytes received in FILE (an eventlog)",
     .kind = VAL_STRING, .field = AT(tee_path)},
    {0, "palette", "NAME",
     "label (-c's default: colour-blind-safe, by name), hp2ps or grey",
     .kind = VAL_ENUM, .field = AT(opts.palette),
     .given = GIVEN(palette_given), .names = palettes,
     .bad = "unknown palette ", .bad_tail = " (label, hp2ps, grey)"},
    {0, "pattern", NULL,
     "hatch patterns instead of colours (black-and-white print)",
     FLAG(opts.pattern, 1)},
    {0, "uniform-scale", "AXES",
     "several inputs: share none, time, memory or both (default)",
     .kind = VAL_ENUM, .field = AT(opts.uniform),
     .given = GIVEN(uniform_given), .names = uniform_axes,
     .bad = "unknown --uniform-scale ",
     .bad_tail = " (none, time, memory, both)"},
    {0, "layout", "HOW", "several inputs in one file: pages (PS, PDF) or stack",
     .kind = VAL_ENUM, .field = AT(opts.layout), .given = GIVEN(layout_given),
     .names = layouts, .bad = "unknown --layout ",
     .bad_tail = " (pages, stack)"},
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
     .kind = VAL_DOUBLE, .field = AT(from_s), .given = GIVEN(from_given),
     .min = 0.0, .max = DBL_MAX, .bad = "invalid --from ",
     .bad_tail = ": seconds, a number >= 0"},
    {0, "to", "SECONDS", "only samples up to this time", .kind = VAL_DOUBLE,
     .field = AT(to_s), .given = GIVEN(to_given), .min = 0.0, .max = DBL_MAX,
     .bad = "invalid --to ", .bad_tail = ": seconds, a number >= 0"},
    {0, "last", "SECONDS",
     "only the most recent SECONDS, bands chosen over them (a dashboard)",
     .kind = VAL_DOUBLE, .field = AT(parse.last_s), .min = 0.001,
     .max = 1e12, .bad = "invalid --last ",
     .bad_tail = ": seconds, at least 0.001"},
    {0, "from-marker", "TEXT",
     "only samples from the first marker TEXT on (eventlog traceMarker)",
     .kind = VAL_TEXT, .field = AT(from_marker),
     .bad = "--from-marker needs a marker's text"},
    {0, "to-marker", "TEXT",
     "only samples up to the first marker TEXT after the start",
     .kind = VAL_TEXT, .field = AT(to_marker),
     .bad = "--to-marker needs a marker's text"},
    {0, "x", "AXIS",
     "x axis: time (default) or index (sample number, no GC warping)",
     .kind = VAL_ENUM, .field = AT(x_index), .names = x_axes,
     .bad = "unknown --x ", .bad_tail = " (time, index)"},
    {0, "heap", NULL,
     "eventlog: heap size, blocks size and live bytes as lines, in the key",
     FLAG(opts.heap_overlay, 1)},
    {0, "summary", NULL,
     "print a table (peaks, slopes, leak suspects), not a picture (= txt)",
     SPECIAL(set_summary)},
    {'q', "quiet", NULL, "no warnings, no status line", FLAG(quiet, 1)},
    {'h', "help", NULL, "show this help and exit", SPECIAL(show_help)},
    {0, "version", NULL, "show the version and exit", SPECIAL(show_version)},
};
enum { N_OPTIONS = sizeof options / sizeof options[0] };

int options_help_row(size_t i, char *left, size_t left_size,
                     const char **help) {
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
/* ------------------------------------------------------- applying one */

/* Stores a checked value of a table-driven kind into o->field. */
static options_outcome set_value(const option_spec *o, const char *val,
                                 tool_args *a, options_error *e) {
  char *field = (char *)a + o->field;
  double d;
  long l;
  const tool_name *n;
  switch (o->kind) {
  case VAL_FLAG: *(int *)field = o->set; break;
  case VAL_INT:
    if (!parse_long(val, &l) || !((double)l >= o->min && (double)l <= o->max))
      return fail(e, "%s'%s'%s", o->bad, val, o->bad_tail);
    *(int *)field = (int)l;
    break;
  case VAL_DOUBLE:
    if (!parse_double(val, &d) || !(o->min_open ? d > o->min : d >= o->min) ||
        !(d <= o->max))
      return fail(e, "%s'%s'%s", o->bad, val, o->bad_tail);
    *(double *)field = d;
    break;
  case VAL_ENUM:
    if (!(n = find_name(o->names, val)))
      return fail(e, "%s'%s'%s", o->bad, val, o->bad_tail);
    *(int *)field = n->value;
    break;
  case VAL_TEXT:
    if (!*val) return fail(e, "%s", o->bad);
    *(const char **)field = val;
    break;
  case VAL_STRING: *(const char **)field = val; break;
  case VAL_REGEX:
  case VAL_SPECIAL: assert(0 && "not a plain value"); break;
  }
  return OPTIONS_RUN;
}

/* A regex the library will compile: checked here, so that a bad one is a
 * usage error before any input is read. */
static options_outcome set_regex(const option_spec *o, const char *val,
                                 tool_args *a, options_error *e) {
  regex_t re;
  int rc = regcomp(&re, val, REG_EXTENDED | REG_NOSUB);
  if (rc != 0) {
    char why[128];
    regerror(rc, &re, why, sizeof why);
    return fail(e, "%s'%s': %s", o->bad, val, why);
  }
  regfree(&re);
  *(const char **)((char *)a + o->field) = val;
  return OPTIONS_RUN;
}

/* Applies option `o` with value `val` (NULL for flags); `spelled` is the
 * option as written, for messages. */
static options_outcome apply_option(const option_spec *o, const char *val,
                                    const char *spelled, tool_args *a,
                                    options_error *e) {
  options_outcome r;
  if (o->kind == VAL_SPECIAL)
    r = o->special(o, val, spelled, a, e);
  else if (o->kind == VAL_REGEX)
    r = set_regex(o, val, a, e);
  else
    r = set_value(o, val, a, e);
  if (r == OPTIONS_RUN && o->given) *(int *)((char *)a + o->given - 1) = 1;
  return r;
}
/* ------------------------------------------------------------- the words */

typedef struct cursor {
  int argc;
  char **argv;
  int i; /* the word being read */
} cursor;

static const option_spec *find_long(const char *name, size_t len) {
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

static const option_spec *find_letter(char c) {
  for (size_t i = 0; i < N_OPTIONS; i++)
    if (options[i].letter == c) return &options[i];
  return NULL;
}

/* --name, --name=value or --name value. */
static options_outcome read_long_option(cursor *c, tool_args *a,
                                        options_error *e) {
  const char *arg = c->argv[c->i];
  const char *name = arg + 2;
  const char *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const option_spec *o = find_long(name, len);
  if (!o) return fail(e, "unknown option '--%.*s'", (int)len, name);
  const char *val = NULL;
  if (o->arg_name) {
    if (eq)
      val = eq + 1;
    else if (c->i + 1 < c->argc)
      val = c->argv[++c->i];
    else
      return fail(e, "option '--%s' needs a value (%s)", o->long_name,
                  o->arg_name);
  } else if (eq) {
    return fail(e, "option '--%s' takes no value", o->long_name);
  }
  return apply_option(o, val, arg, a, e);
}

/* The value of hp2ps letter `o` whose word goes on at `rest`. */
static options_outcome read_letter_value(cursor *c, const option_spec *o,
                                         const char *rest, const char **val,
                                         options_error *e) {
  *val = NULL;
  if (o->style == LETTER_GLUED) {
    *val = rest;
  } else if (o->arg_name) {
    *val = rest;
    int takes_next = *rest == '\0' && c->i + 1 < c->argc;
    if (takes_next && o->style == LETTER_MAYBE_NUMBER)
      takes_next = looks_numeric(c->argv[c->i + 1]);
    if (takes_next) *val = c->argv[++c->i];
    if (**val == '\0' && o->style != LETTER_MAYBE_NUMBER)
      return fail(e, "option '-%c' needs a value (%s)", o->letter,
                  o->arg_name);
  }
  return OPTIONS_RUN;
}

/* hp2ps-style letters: a letter takes the rest of its word, except -p,
 * after which letters go on. */
static options_outcome read_letters(cursor *c, tool_args *a,
                                    options_error *e) {
  for (const char *l = c->argv[c->i] + 1; *l;) {
    const option_spec *o = find_letter(*l);
    if (!o) return fail(e, "unknown option '-%c'", *l);
    const char *val;
    options_outcome r = read_letter_value(c, o, l + 1, &val, e);
    char spelled[4] = {'-', *l, '\0', '\0'};
    if (r == OPTIONS_RUN) r = apply_option(o, val, spelled, a, e);
    if (r != OPTIONS_RUN || o->style != LETTER_CHAINS) return r;
    l++;
  }
  return OPTIONS_RUN;
}

/* ------------------------------------------------------- the whole line */

/* The format when --format is not given: EPS for -e, else the output's
 * extension (none for a directory that several inputs each write into). */
static options_outcome settle_format(tool_args *a, options_error *e) {
  if (a->opts.eps_width_pt > 0 && !a->format_given)
    a->opts.format = HP2X_FORMAT_EPS;
  struct stat dir;
  int to_dir = a->n_inputs > 1 && a->output && stat(a->output, &dir) == 0 &&
               S_ISDIR(dir.st_mode); /* several inputs: a file each */
  if (a->output && strcmp(a->output, "-") != 0 && !a->format_given &&
      !to_dir) {
    const char *dot = strrchr(a->output, '.');
    const char *slash = strrchr(a->output, '/');
    const hpx_format_info *f = NULL;
    char list[96];
    if (dot && (!slash || dot >= slash)) f = hpx_format_named(dot + 1);
    if (!f)
      return fail(e, "cannot tell the format of '%s' from its name: use "
                     "--format=%s", a->output,
                  names_format_list(list, sizeof list, "", "|", "|"));
    a->opts.format = f->format;
  }
  return OPTIONS_RUN;
}

static options_outcome check_watch(const tool_args *a, options_error *e) {
  if (a->watch && (!a->output || !strcmp(a->output, "-")))
    return fail(e, "--watch needs an output file (-o FILE)");
  if (a->watch && a->n_inputs > 1)
    return fail(e, "--watch follows one input, got %d", a->n_inputs);
  return OPTIONS_RUN;
}

/* Sets input_is_service for an input that is a service address; refuses
 * a malformed address and a service read with other inputs. */
static options_outcome find_service(tool_args *a, options_error *e) {
  for (int i = 0; i < a->n_inputs; i++) {
    connect_address ad;
    char why[400];
    if (connect_parse(a->inputs[i], &ad, why, sizeof why) != 0)
      return fail(e, "%s", why);
    if (ad.kind == CONNECT_NONE) continue;
    if (a->n_inputs > 1 || a->diff)
      return fail(e, "%s: a service is read alone, not with other inputs",
                  a->inputs[i]);
    a->input_is_service = 1;
  }
  return OPTIONS_RUN;
}

/* Checks what no single option can: the combination.  Changes nothing. */
static options_outcome check_combination(const tool_args *a,
                                         options_error *e) {
  if (a->tee_path && !a->input_is_service)
    return fail(e, "--tee needs a service input (unix:PATH or tcp:HOST:PORT)");
  if (a->tee_path && !*a->tee_path)
    return fail(e, "--tee needs a file name");
  if (a->from_given && a->from_marker)
    return fail(e, "--from and --from-marker both give the window's start");
  if (a->to_given && a->to_marker)
    return fail(e, "--to and --to-marker both give the window's end");
  if (a->parse.last_s > 0.0 &&
      (a->from_given || a->to_given || a->from_marker || a->to_marker))
    return fail(e, "--last gives the window already: not with --from, --to "
                   "or their markers");
  if (a->parse.last_s > 0.0 && a->n_inputs > 1)
    return fail(e, "--last draws one input, got %d", a->n_inputs);
  if (a->from_given && a->to_given && !(a->from_s < a->to_s))
    return fail(e, "--from %g is not before --to %g", a->from_s, a->to_s);
  if (a->diff && a->n_inputs != 2)
    return fail(e, "--diff needs two inputs (A B, drawn as B - A), got %d",
                a->n_inputs);
  return OPTIONS_RUN;
}

/* The defaults that follow from other options, once the line is valid. */
static void set_derived_defaults(tool_args *a) {
  /* -c draws the label palette unless --palette says otherwise. */
  if (a->opts.colour && !a->palette_given)
    a->opts.palette = HP2X_PALETTE_LABEL;
  /* Runs compared share both axes unless --uniform-scale says otherwise. */
  if (a->n_inputs > 1 && !a->uniform_given)
    a->opts.uniform = HP2X_UNIFORM_BOTH;
  /* One input drawn whole keeps only what its picture shows, in memory
   * bounded by the picture; outputs that list every sample (CSV, .hp,
   * --all-samples, --summary), a window, --x=index and comparisons read
   * every sample. */
  if (hp2x_format_is_picture(a->opts.format) && !a->opts.all_samples &&
      !a->summary && a->n_inputs <= 1 && !a->from_given && !a->to_given &&
      !a->from_marker && !a->to_marker && !a->x_index)
    a->parse.picture_columns = hp2x_picture_columns(&a->opts);
}

/* After every word is read: the format and output the line implies, the
 * checks of the combination, then the defaults that follow from it. */
static options_outcome settle_line(tool_args *a, options_error *e) {
  options_outcome r = settle_format(a, e);
  if (r != OPTIONS_RUN) return r;
  if (a->summary && !a->output) a->output = "-"; /* to the terminal */
  if ((r = check_watch(a, e)) != OPTIONS_RUN ||
      (r = find_service(a, e)) != OPTIONS_RUN ||
      (r = check_combination(a, e)) != OPTIONS_RUN)
    return r;
  set_derived_defaults(a);
  return OPTIONS_RUN;
}

/* What the tool takes from the environment (man page, ENVIRONMENT) and
 * hands to the library, which never reads it: HP2X_FONTS_CONF, the fonts
 * to draw with, and SOURCE_DATE_EPOCH, the date of every picture (a whole
 * number of seconds >= 0; anything else is ignored, as if unset). */
static void read_environment(tool_args *a) {
  const char *fonts = getenv("HP2X_FONTS_CONF");
  if (fonts && *fonts) a->opts.fonts_conf = fonts;
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  if (sde && *sde) {
    char *end;
    errno = 0;
    long long v = strtoll(sde, &end, 10);
    if (!*end && v >= 0 && errno == 0) a->opts.source_date_epoch = v;
  }
}

options_outcome options_parse(int argc, char **argv, tool_args *a,
                              options_error *e) {
  memset(a, 0, sizeof *a);
  memset(e, 0, sizeof *e);
  hp2x_options_init(&a->opts);
  hp2x_parse_options_init(&a->parse);
  read_environment(a);
  a->interval_s = 1.0;
  a->inputs = calloc((size_t)argc, sizeof *a->inputs);
  if (!a->inputs) return out_of_memory(e);
  cursor c = {argc, argv, 1};
  int only_files = 0;
  for (; c.i < argc; c.i++) {
    const char *arg = argv[c.i];
    options_outcome r = OPTIONS_RUN;
    if (only_files || arg[0] != '-' || !strcmp(arg, "-"))
      a->inputs[a->n_inputs++] = arg; /* room for argc - 1 */
    else if (!strcmp(arg, "--"))
      only_files = 1;
    else if (arg[1] == '-')
      r = read_long_option(&c, a, e);
    else
      r = read_letters(&c, a, e);
    if (r != OPTIONS_RUN) return r;
  }
  a->input = a->n_inputs ? a->inputs[0] : "-";
  return settle_line(a, e);
}

void options_free(tool_args *a, options_error *e) {
  free(a->inputs);
  a->inputs = NULL;
  free(e->message);
  e->message = NULL;
}
