/* compare.c -- the tool's runs over several inputs (comparing runs):
 * reads every profile, selects the bands once for all of them, and writes
 * one output (a page each, a stack, or one CSV with an input column) or a
 * file each (-o DIR, or a name with %s for the input's base name); --diff
 * charts the second input minus the first.  A run is a table of steps,
 * each ending it on failure.  Only wiring: the library does the work,
 * messages.c prints.
 */
#include "run.h"

#include "view_pick.h"
#include "cli/names.h"
#include "io/inputs.h"
#include "io/outset.h"
#include "io/program.h"
#include "util/messages.h"
#include "util/status.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct input {
  const char *path; /* as opened: argv's name or `resolved` */
  char *resolved;   /* NAME.hp for a NAME that does not exist; owned */
  char *stem;       /* base name without .hp/.eventlog; owned */
  char *out;        /* its own output file (a file each); owned */
} input;

typedef struct comparison {
  const tool_args *a;
  size_t n;                   /* inputs, >= 2 */
  input *in;                  /* n; owned */
  hp2x_profile **profiles;    /* n; each owned (a view when windowed) */
  hp2x_bands **bands;         /* n; each owned; NULL for .hp conversion */
  const char **names;         /* n; each input's name in messages, borrowed */
  int per_file;               /* a file per input, not one for all */
  char *diff_out;             /* --diff without -o: B-minus-A.EXT; owned */
  hp2x_options opts;          /* a's, with -p's .aux */
  char *aux_path;             /* -p: BASE.aux beside the output; owned */
  hp2x_aux *aux;              /* -p's .aux; owned */
  hp2x_census_choice *census; /* a format of one census, or --at: each
                                 input's */
  hp2x_profile *diff_p;       /* --diff: the chart's profile and bands; owned */
  hp2x_bands *diff_b;
  size_t current; /* the input a file-each write is about */
} comparison;

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int out_of_memory(void) {
  msg_errorf("out of memory");
  return EXIT_BAD_INPUT;
}

/* ----------------------------------------------------------------- steps */

/* The picture formats a file of which holds one picture, from format.c's
 * table ("EPS"). */
static const char *one_picture_label(const hp2x_format_info *row) {
  return row->writer == HP2X_WRITER_PICTURE && !row->holds_several ? row->label
                                                                   : NULL;
}

/* The formats one file of which holds several inputs ("ps"). */
static const char *several_name(const hp2x_format_info *row) {
  return row->holds_several ? row->name : NULL;
}

/* The formats that take a band selection, and so --diff's chart ("PS"). */
static const char *banded_label(const hp2x_format_info *row) {
  return row->needs_bands ? row->label : NULL;
}

static int name_inputs(comparison *c) {
  for (size_t i = 0; i < c->n; i++) {
    input *in = &c->in[i];
    const char *arg = c->a->inputs[i];
    in->path = names_input_path(arg, &in->resolved);
    c->names[i] = names_display(in->path);
    in->stem = names_input_stem(strcmp(in->path, "-") ? in->path : "stdin");
    if (!in->stem) return out_of_memory();
  }
  return EXIT_OK;
}

/* Usage errors of the combination of inputs, outputs and options; decides
 * between one output and a file each. */
static int check_outputs(comparison *c) {
  const tool_args *a = c->a;
  const hp2x_options *o = &c->opts;
  const hp2x_format_info *f = hp2x_format_of(o->format);
  assert(f); /* cli.c sets formats from the table */
  int picture = f->writer == HP2X_WRITER_PICTURE;
  char list[96];
  const char *pct = a->output ? strstr(a->output, "%s") : NULL;
  c->per_file = !a->diff && (!a->output || is_dir(a->output) || pct);
  int one_file = !c->per_file && !a->diff;
  if (pct && strstr(pct + 2, "%s"))
    return msg_usagef("'%s' names the input twice: use one %%s", a->output);
  if (c->per_file && o->layout == HP2X_LAYOUT_STACK)
    return msg_usagef("--layout=stack draws one picture: give -o a file "
                      "name, not %s",
                      a->output ? a->output : "none");
  if (a->use_aux && (c->per_file || a->diff || !strcmp(a->output, "-")))
    return msg_usagef(
        "%s: with several inputs -p needs one output file "
        "(-o NAME%s), and no --diff",
        a->output ? a->output : "no -o",
        hp2x_format_list(list, sizeof list, several_name, ".", ", ", " or "));
  if (one_file && !picture && !f->holds_several)
    return msg_usagef("several %s files cannot share '%s': use -o DIR/ or "
                      "a name with %%s",
                      f->label, a->output);
  if (one_file && o->layout == HP2X_LAYOUT_PAGES && picture &&
      !f->holds_several)
    return msg_usagef("%s hold one picture: use --layout=stack, -o DIR/ or "
                      "-o 'NAME-%%s.%s' (a file per input)",
                      hp2x_format_list(list, sizeof list, one_picture_label, "",
                                       ", ", " and "),
                      f->name);
  if (a->diff && !f->needs_bands)
    return msg_usagef(
        "--diff draws a chart (%s): not %s",
        hp2x_format_list(list, sizeof list, banded_label, "", ", ", " or "),
        f->label);
  int stdin_seen = 0;
  for (size_t i = 0; i < c->n; i++)
    if (!strcmp(c->in[i].path, "-") && stdin_seen++)
      return msg_usagef("standard input (%s) can be read once", "-");
  return EXIT_OK;
}

/* A file each: names them, and refuses two inputs writing one file. */
static int name_own_files(comparison *c) {
  if (!c->per_file) return EXIT_OK;
  char *pattern = names_file_pattern(c->a->output, c->opts.format);
  if (!pattern) return out_of_memory();
  for (size_t i = 0; i < c->n; i++) {
    input *in = &c->in[i];
    if (!(in->out = names_expand(pattern, in->stem))) break;
    for (size_t j = 0; j < i; j++)
      if (!strcmp(in->out, c->in[j].out)) {
        free(pattern);
        return msg_usagef("two inputs would both write '%s': rename one, "
                          "or give -o one file",
                          in->out);
      }
  }
  free(pattern);
  return c->in[c->n - 1].out ? EXIT_OK : out_of_memory();
}

static int name_diff_output(comparison *c) {
  if (!c->a->diff || c->a->output) return EXIT_OK;
  c->diff_out = names_diff_output(c->in[0].stem, c->in[1].stem, c->opts.format);
  return c->diff_out ? EXIT_OK : out_of_memory();
}

/* -p: BASE.aux beside the one output. */
static int attach_aux(comparison *c) {
  if (!c->a->use_aux) return EXIT_OK;
  c->aux_path = names_aux_beside(c->a->output);
  if (!c->aux_path) return out_of_memory();
  return inputs_attach_aux(c->aux_path, &c->opts, &c->aux);
}

static int catch_signals(comparison *c) {
  (void)c;
  outset_catch_signals();
  return EXIT_OK;
}

/* a's format holds one census and nothing else (pprof). */
static int one_census_only(const tool_args *a) {
  const hp2x_format_info *f = hp2x_format_of(a->opts.format);
  return f && f->span == HP2X_SPAN_CENSUS;
}

/* c's options, for one census when --at asks CSV or the summary for one
 * (its window is the view's: the census the same) */
static hp2x_options census_options(const comparison *c,
                                   const hp2x_census_choice *census) {
  hp2x_options o = c->opts;
  if (census) o.census = *census;
  if (census && !one_census_only(c->a)) o.span = HP2X_SPAN_CENSUS;
  return o;
}

/* Each profile, warned about and cut to its window. */
static int read_inputs(comparison *c) {
  const tool_args *a = c->a;
  hp2x_symbols *syms = NULL;
  int rc = a->program ? program_load(a->program, &syms) : EXIT_OK;
  for (size_t i = 0; i < c->n && rc == EXIT_OK; i++) {
    hp2x_profile **p = &c->profiles[i];
    rc = inputs_read_profile(c->in[i].path, c->names[i], &a->parse, p);
    if (rc != EXIT_OK) break;
    if (!a->quiet)
      inputs_warn_profile(c->names[i], *p, &a->opts,
                          a->service.kind != CONNECT_NONE);
    rc = program_name_tables(a->program, syms, a->opts.format, a->quiet,
                             c->names[i], *p);
    hp2x_profile *view = NULL;
    if (rc == EXIT_OK && c->census) /* its census: in the whole run */
      rc = view_pick_census(&a->view, a->watch.on, c->names[i], *p,
                            &c->census[i]);
    if (rc == EXIT_OK && !one_census_only(a)) /* CSV, --summary: the view's */
      rc = view_pick(&a->view, c->names[i], *p, &view);
    if (view) {
      hp2x_profile_free(*p);
      *p = view;
    }
  }
  hp2x_symbols_free(syms);
  return rc;
}

/* One selection for all, and --diff's chart. */
static int select_bands_for_all(comparison *c) {
  const tool_args *a = c->a;
  if (!hp2x_format_needs_bands(c->opts.format)) return EXIT_OK;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_status st = hp2x_bands_select_many(
      (const hp2x_profile *const *)c->profiles, c->n, &c->opts, c->bands, &err);
  if (st == HP2X_OK && a->diff)
    st = hp2x_diff_new(c->profiles[0], c->bands[0], c->profiles[1], c->bands[1],
                       &c->diff_p, &c->diff_b, &err);
  if (st != HP2X_OK) {
    msg_report(a->diff ? c->names[1] : c->names[0], &err, NULL);
    return msg_exit_status(st);
  }
  return EXIT_OK;
}

/* Input c->current's own file. */
static hp2x_status fill_own_file(void *ctx, size_t which, hp2x_write_fn w,
                                 void *closure, hp2x_err *err) {
  const comparison *c = ctx;
  assert(which == OUTSET_OUTPUT);
  hp2x_options o = census_options(c, c->census ? &c->census[c->current] : NULL);
  return hp2x_write_output(c->profiles[c->current], c->bands[c->current],
                           c->names[c->current], &o, w, closure, err);
}

/* Each input's census of --at (in its view) in one CSV or summary. */
static hp2x_status write_censuses(const comparison *c, hp2x_write_fn w,
                                  void *closure, hp2x_err *err) {
  size_t *samples = calloc(c->n, sizeof *samples);
  if (!samples) {
    err->code = HP2X_E_NOMEM;
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return err->code;
  }
  hp2x_status st = HP2X_OK;
  for (size_t i = 0; i < c->n && st == HP2X_OK; i++)
    st = hp2x_census_choose(c->profiles[i], &c->census[i], &samples[i], err);
  const hp2x_profile *const *ps = (const hp2x_profile *const *)c->profiles;
  const hp2x_bands *const *bs = (const hp2x_bands *const *)c->bands;
  if (st == HP2X_OK)
    st = c->a->opts.format == HP2X_FORMAT_CSV
             ? hp2x_write_csv_censuses(ps, bs, c->names, samples, c->n, w,
                                       closure, err)
             : hp2x_write_moment(ps, bs, c->names, samples, c->n, w, closure,
                                 err);
  free(samples);
  return st;
}

/* The one output for all (or --diff's chart), then -p's .aux. */
static hp2x_status fill_shared_file(void *ctx, size_t which, hp2x_write_fn w,
                                    void *closure, hp2x_err *err) {
  const comparison *c = ctx;
  const hp2x_options *o = &c->opts;
  if (which == OUTSET_OUTPUT && c->census && !one_census_only(c->a))
    return write_censuses(c, w, closure, err);
  if (which == OUTSET_AUX)
    return hp2x_write_aux(c->profiles[0], c->bands[0], o, w, closure, err);
  if (c->diff_p)
    return hp2x_write_output(c->diff_p, c->diff_b, "difference", o, w, closure,
                             err);
  return hp2x_write_output_many((const hp2x_profile *const *)c->profiles,
                                (const hp2x_bands *const *)c->bands, c->names,
                                c->n, o, w, closure, err);
}

static int write_outputs(comparison *c) {
  const tool_args *a = c->a;
  if (c->per_file) {
    int rc = EXIT_OK;
    for (c->current = 0; c->current < c->n && rc == EXIT_OK; c->current++) {
      const char *path = c->in[c->current].out;
      rc = outset_write(&path, 1, fill_own_file, c, OUTSET_ARG_IS_USAGE);
    }
    return rc;
  }
  const char *paths[OUTSET_MAX_FILES] = {c->diff_out ? c->diff_out : a->output,
                                         NULL};
  if (a->use_aux && hp2x_format_is_picture(c->opts.format))
    paths[OUTSET_AUX] = c->aux_path;
  return outset_write(paths, paths[OUTSET_AUX] ? 2 : 1, fill_shared_file, c,
                      OUTSET_ARG_IS_USAGE);
}

/* ------------------------------------------------------------ the run */

static int (*const steps[])(comparison *) = {
    name_inputs,      check_outputs,        name_own_files,
    name_diff_output, attach_aux,           catch_signals,
    read_inputs,      select_bands_for_all, write_outputs,
};

static void free_comparison(comparison *c) {
  for (size_t i = 0; c->in && i < c->n; i++) {
    free(c->in[i].resolved);
    free(c->in[i].stem);
    free(c->in[i].out);
    if (c->profiles) hp2x_profile_free(c->profiles[i]);
    if (c->bands) hp2x_bands_free(c->bands[i]);
  }
  hp2x_profile_free(c->diff_p);
  hp2x_bands_free(c->diff_b);
  inputs_release_aux(&c->opts, &c->aux);
  free(c->aux_path);
  c->aux_path = NULL;
  free(c->diff_out);
  free(c->in);
  free(c->profiles);
  free(c->bands);
  free(c->names);
  free(c->census);
}

int run_compare(const tool_args *a) {
  comparison c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.opts = a->opts;
  c.n = (size_t)a->n_inputs;
  c.in = calloc(c.n, sizeof *c.in);
  c.profiles = calloc(c.n, sizeof *c.profiles);
  c.bands = calloc(c.n, sizeof *c.bands);
  c.names = calloc(c.n, sizeof *c.names);
  int census = one_census_only(a) || a->view.at_given; /* pprof, or --at */
  if (census) c.census = calloc(c.n, sizeof *c.census);
  int rc = c.in && c.profiles && c.bands && c.names && (c.census || !census)
               ? EXIT_OK
               : out_of_memory();
  for (size_t i = 0; i < sizeof steps / sizeof steps[0] && rc == EXIT_OK; i++)
    rc = steps[i](&c);
  free_comparison(&c);
  return rc;
}
