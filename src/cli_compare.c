/* cli_compare.c -- the tool's runs over several inputs (comparing runs):
 * reads every profile, selects the bands once for all of them, and writes
 * one output (a page each, a stack, or one CSV with an input column) or a
 * file each (-o DIR, or a name with %s for the input's base name); --diff
 * charts the second input minus the first.  Only wiring, as in cli.c: the
 * library does the work, and messages go through cli.c's printers.
 */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct input {
  const char *path;    /* as opened: argv's name or `resolved` */
  char *resolved;      /* NAME.hp for a NAME that does not exist; owned */
  const char *display; /* name in messages */
  char *stem;          /* base name without .hp/.eventlog; owned */
  char *out;           /* its own output file (a file each); owned */
  hp2x_profile *p;     /* owned */
  hp2x_bands *b;       /* owned; NULL for .hp conversion */
} input;

typedef struct run {
  const cli_args *a;
  input *in;
  size_t n;
  size_t which;        /* the input a per-file write is about */
  hp2x_profile *dp;    /* --diff: the chart's profile and bands; owned */
  hp2x_bands *db;
} run;

static int usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int usage(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hp2x: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'hp2x --help' for more information.\n", stderr);
  return EXIT_USAGE;
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_picture(hp2x_format f) {
  return f != HP2X_FORMAT_CSV && f != HP2X_FORMAT_HP && f != HP2X_FORMAT_TXT;
}

/* `pattern` with its one %s replaced by `stem`; malloc'ed. */
static char *expand(const char *pattern, const char *stem) {
  const char *at = strstr(pattern, "%s");
  size_t n = strlen(pattern) + strlen(stem) + 1;
  char *s = malloc(n);
  if (!s) return NULL;
  if (!at) {
    memcpy(s, pattern, strlen(pattern) + 1);
    return s;
  }
  snprintf(s, n, "%.*s%s%s", (int)(at - pattern), pattern, stem, at + 2);
  return s;
}

/* The per-file pattern: -o as given (with %s), DIR/%s.EXT, or ./%s.EXT. */
static char *file_pattern(const cli_args *a) {
  const char *ext = cli_format_ext(a->opts.format);
  if (a->output && strstr(a->output, "%s")) return expand(a->output, "%s");
  const char *dir = a->output ? a->output : ".";
  size_t n = strlen(dir) + strlen(ext) + 8;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s%s%%s.%s", dir,
             dir[strlen(dir) - 1] == '/' ? "" : "/", ext);
  return s;
}

static hp2x_status emit(void *closure_run, hp2x_write_fn w, void *closure,
                        hp2x_err *err, int what) {
  run *r = closure_run;
  const hp2x_options *o = &r->a->opts;
  if (what == 1) /* the .aux of a -p run */
    return hp2x_write_aux(r->in[0].p, r->in[0].b, o, w, closure, err);
  if (r->dp && o->format == HP2X_FORMAT_TXT) {
    const hp2x_profile *dp = r->dp;
    const hp2x_bands *db = r->db;
    const char *name = "difference";
    return hp2x_write_summary(&dp, &db, &name, 1, w, closure, err);
  }
  if (r->dp) {
    if (o->format == HP2X_FORMAT_CSV)
      return hp2x_write_csv(r->dp, r->db, w, closure, err);
    return hp2x_render(r->dp, r->db, o, w, closure, err);
  }
  if (what == 2) { /* one input's own file */
    const input *in = &r->in[r->which];
    switch (o->format) {
    case HP2X_FORMAT_HP: return hp2x_write_hp(in->p, w, closure, err);
    case HP2X_FORMAT_CSV: return hp2x_write_csv(in->p, in->b, w, closure, err);
    case HP2X_FORMAT_TXT: {
      const hp2x_profile *p = in->p;
      const hp2x_bands *b = in->b;
      return hp2x_write_summary(&p, &b, &in->display, 1, w, closure, err);
    }
    default: return hp2x_render(in->p, in->b, o, w, closure, err);
    }
  }
  const hp2x_profile **ps = malloc(r->n * sizeof *ps);
  const hp2x_bands **bs = malloc(r->n * sizeof *bs);
  const char **names = malloc(r->n * sizeof *names);
  hp2x_status st;
  if (!ps || !bs || !names) {
    st = HP2X_E_NOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    err->code = st;
  } else {
    for (size_t i = 0; i < r->n; i++) {
      ps[i] = r->in[i].p;
      bs[i] = r->in[i].b;
      names[i] = r->in[i].display;
    }
    if (o->format == HP2X_FORMAT_CSV)
      st = hp2x_write_csv_many(ps, bs, names, r->n, w, closure, err);
    else if (o->format == HP2X_FORMAT_TXT)
      st = hp2x_write_summary(ps, bs, names, r->n, w, closure, err);
    else
      st = hp2x_render_many(ps, bs, r->n, o, w, closure, err);
  }
  free(ps);
  free(bs);
  free(names);
  return st;
}

/* Outputs of one comparison, by emit()'s `what`. */
typedef struct compare_outputs {
  run *r;
  int what[CLI_MAX_OUTPUTS];
} compare_outputs;

static hp2x_status emit_output(void *ctx, int which, hp2x_write_fn w,
                               void *closure, hp2x_err *err) {
  compare_outputs *c = ctx;
  return emit(c->r, w, closure, err, c->what[which]);
}

/* Writes `path` (what: as emit()) and, if aux_path, the .aux with it, as
 * one set. */
static int write_paths(run *r, const char *path, int what,
                       const char *aux_path) {
  compare_outputs c = {r, {what, 1}};
  const char *paths[2] = {path, aux_path};
  return cli_write_files(paths, aux_path ? 2 : 1, emit_output, &c, 1);
}

static void *prepare_fonts(void *unused) {
  (void)unused;
  hp2x_fonts_prepare();
  return NULL;
}

static int read_input(const cli_args *a, input *in) {
  FILE *f = stdin;
  if (strcmp(in->path, "-") != 0 && !(f = fopen(in->path, "rb"))) {
    cli_errorf("%s: cannot open: %s", in->path, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  hp2x_err err;
  hp2x_err_init(&err, in->display);
  hp2x_status st = hp2x_parse_stream(f, in->display, &a->parse, &in->p, &err);
  if (f != stdin) fclose(f);
  if (st != HP2X_OK) {
    cli_report(in->display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  cli_args one = *a;
  one.input_display = in->display;
  cli_warn_profile(&one, in->p);
  hp2x_profile *view = NULL;
  int rc = cli_view(a, in->display, in->p, &view);
  if (view) {
    hp2x_profile_free(in->p);
    in->p = view;
  }
  return rc;
}

/* Checks the combination of inputs, outputs and options; an exit status,
 * or -1 to go on.  Sets *per_file. */
static int check_outputs(cli_args *a, input *in, size_t n, int *per_file) {
  const hp2x_options *o = &a->opts;
  *per_file = !a->diff && (!a->output || is_dir(a->output) ||
                           strstr(a->output, "%s") != NULL);
  if (a->output && strstr(a->output, "%s") &&
      strstr(strstr(a->output, "%s") + 2, "%s"))
    return usage("'%s' names the input twice: use one %%s", a->output);
  if (*per_file && a->opts.layout == HP2X_LAYOUT_STACK)
    return usage("--layout=stack draws one picture: give -o a file name, "
                 "not %s", a->output ? a->output : "none");
  if (a->use_aux && (*per_file || !strcmp(a->output, "-") || a->diff))
    return usage("%s: with several inputs -p needs one output file "
                 "(-o NAME.pdf, .ps or .csv), and no --diff",
                 a->output ? a->output : "no -o");
  if (!*per_file && !a->diff && o->format == HP2X_FORMAT_HP)
    return usage("several .hp files cannot share '%s': use -o DIR/ or a "
                 "name with %%s", a->output);
  if (!*per_file && !a->diff && o->layout == HP2X_LAYOUT_PAGES &&
      (o->format == HP2X_FORMAT_EPS || o->format == HP2X_FORMAT_SVG ||
       o->format == HP2X_FORMAT_PNG))
    return usage("EPS, SVG and PNG hold one picture: use --layout=stack, -o DIR/ "
                 "or -o 'NAME-%%s.%s' (a file per input)",
                 cli_format_ext(o->format));
  if (a->diff && o->format == HP2X_FORMAT_HP)
    return usage("--diff draws a chart (%s): not .hp", "PS, EPS, PDF, SVG "
                 "or CSV");
  int stdin_seen = 0;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(in[i].path, "-") && stdin_seen++)
      return usage("standard input (%s) can be read once", "-");
  if (*per_file) {
    char *pat = file_pattern(a);
    for (size_t i = 0; pat && i < n; i++) {
      in[i].out = expand(pat, in[i].stem);
      if (!in[i].out) break;
      for (size_t j = 0; j < i; j++)
        if (!strcmp(in[i].out, in[j].out)) {
          free(pat);
          return usage("two inputs would both write '%s': rename one, or "
                       "give -o one file", in[i].out);
        }
    }
    int ok = pat && in[n - 1].out;
    free(pat);
    if (!ok) {
      cli_errorf("out of memory");
      return EXIT_BAD_INPUT;
    }
  }
  return -1;
}

int compare_run(cli_args *a) {
  size_t n = (size_t)a->n_inputs;
  input *in = calloc(n, sizeof *in);
  run r = {a, in, n, 0, NULL, NULL};
  char *diff_out = NULL;
  hp2x_aux *aux = NULL;
  int rc = EXIT_OK;
  if (!in) {
    cli_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  if (!a->uniform_given)
    a->opts.uniform = HP2X_UNIFORM_TIME | HP2X_UNIFORM_MEMORY;
  for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
    in[i].resolved = cli_resolve_input(a->inputs[i]);
    in[i].path = in[i].resolved ? in[i].resolved : a->inputs[i];
    in[i].display = strcmp(in[i].path, "-") ? in[i].path : "<stdin>";
    in[i].stem = cli_input_stem(strcmp(in[i].path, "-") ? in[i].path
                                                         : "stdin");
    if (!in[i].stem) rc = EXIT_BAD_INPUT, cli_errorf("out of memory");
  }
  int per_file = 0;
  if (rc == EXIT_OK) {
    int c = check_outputs(a, in, n, &per_file);
    if (c >= 0) rc = c;
  }
  if (rc == EXIT_OK && a->diff && !a->output) {
    /* B - A without -o: ./B-minus-A.EXT */
    const char *ext = cli_format_ext(a->opts.format);
    size_t len = strlen(in[0].stem) + strlen(in[1].stem) + strlen(ext) + 9;
    diff_out = malloc(len);
    if (diff_out)
      snprintf(diff_out, len, "%s-minus-%s.%s", in[1].stem, in[0].stem, ext);
    else
      rc = EXIT_BAD_INPUT, cli_errorf("out of memory");
  }
  if (rc == EXIT_OK && a->use_aux) {
    a->aux_path = cli_aux_beside(a->output);
    rc = a->aux_path ? cli_load_aux(a, &aux) : EXIT_BAD_INPUT;
    a->opts.aux = aux;
  }
  if (rc == EXIT_OK) cli_catch_signals();
  /* As in cli.c: fonts load on the other core while the inputs parse. */
  pthread_t fonts;
  int fonts_started = rc == EXIT_OK && is_picture(a->opts.format) &&
                      pthread_create(&fonts, NULL, prepare_fonts, NULL) == 0;
  for (size_t i = 0; i < n && rc == EXIT_OK; i++) rc = read_input(a, &in[i]);
  if (fonts_started) pthread_join(fonts, NULL);
  hp2x_err err;
  hp2x_err_init(&err, NULL);
  if (rc == EXIT_OK && a->opts.format != HP2X_FORMAT_HP) {
    const hp2x_profile **ps = malloc(n * sizeof *ps);
    hp2x_bands **bs = malloc(n * sizeof *bs);
    hp2x_status st = HP2X_E_NOMEM;
    if (ps && bs) {
      for (size_t i = 0; i < n; i++) ps[i] = in[i].p;
      st = hp2x_bands_select_many(ps, n, &a->opts, bs, &err);
      for (size_t i = 0; st == HP2X_OK && i < n; i++) in[i].b = bs[i];
      if (st == HP2X_OK && a->diff)
        st = hp2x_diff_new(in[0].p, in[0].b, in[1].p, in[1].b, &r.dp, &r.db,
                           &err);
    } else {
      snprintf(err.msg, sizeof err.msg, "out of memory");
    }
    free(ps);
    free(bs);
    if (st != HP2X_OK) {
      cli_report(a->diff ? in[1].display : in[0].display, &err, NULL);
      rc = st == HP2X_E_ARG ? EXIT_USAGE : EXIT_BAD_INPUT;
    }
  }
  if (rc == EXIT_OK && per_file) {
    for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
      r.which = i;
      rc = write_paths(&r, in[i].out, 2, NULL);
    }
  } else if (rc == EXIT_OK) {
    rc = write_paths(&r, diff_out ? diff_out : a->output, 0,
                     a->use_aux && is_picture(a->opts.format) ? a->aux_path
                                                              : NULL);
  }
  for (size_t i = 0; i < n; i++) {
    free(in[i].resolved);
    free(in[i].stem);
    free(in[i].out);
    hp2x_profile_free(in[i].p);
    hp2x_bands_free(in[i].b);
  }
  hp2x_profile_free(r.dp);
  hp2x_bands_free(r.db);
  hp2x_aux_free(aux);
  free(a->aux_path);
  a->aux_path = NULL;
  free(diff_out);
  free(in);
  return rc;
}
