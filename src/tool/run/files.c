/* files.c -- the files of a run of one input, as one of its outputs: the
 * output in any format (hp2x_write_output; a format of one census writes
 * the census view_pick_census chooses in the whole profile) and hp2ps's
 * .aux beside a picture, written as one set (io/outset.c).  The drawing
 * reserve (util/tuning.c) is given back just before the output is written.
 * Drawn from the bands alone, the files come after the profile's entries
 * are dropped (when they are: run/selection.c).
 */
#include "files.h"

#include "view_pick.h"
#include "io/outset.h"
#include "util/status.h"
#include "util/tuning.h"

/* One set's contents: the output (or table) and, as hp2ps, its .aux. */
typedef struct profile_outputs {
  const tool_run *r;
  const hp2x_profile *p;
  const hp2x_bands *b;
  hp2x_options o; /* the run's, with the census of a format of one */
} profile_outputs;

static hp2x_status fill_output(void *ctx, size_t which, hp2x_write_fn w,
                               void *closure, hp2x_err *err) {
  const profile_outputs *m = ctx;
  if (which == OUTSET_AUX)
    return hp2x_write_aux(m->p, m->b, &m->o, w, closure, err);
  tuning_release_reserve();
  return hp2x_write_output(m->p, m->b, m->r->names.display, &m->o, w, closure,
                           err);
}

/* The run's format holds one census (pprof). */
static int one_census(const tool_run *r) {
  const hp2x_format_info *f = hp2x_format_of(r->opts.format);
  return f && f->span == HP2X_SPAN_CENSUS;
}

static int publish_files(tool_output *o, const output_frame *f) {
  const tool_run *r = ((const files_output *)o)->run;
  const tool_args *a = r->args;
  profile_outputs m = {r, f->shown, f->bands, r->opts};
  int rc = EXIT_OK;
  if (one_census(r)) {
    m.p = f->whole; /* its census, chosen in the window */
    rc = view_pick_census(&a->view, a->watch.on, r->names.display, f->whole,
                          &m.o.census);
  } else if (a->view.at_given) {
    /* CSV's row, --summary's moment table: the census chosen (and --at
     * checked) in the whole profile's window is the view's, at the same
     * time, by the same choice */
    rc = view_pick_census(&a->view, a->watch.on, r->names.display, f->whole,
                          &m.o.census);
    m.o.span = HP2X_SPAN_CENSUS;
  }
  if (rc != EXIT_OK) return rc;
  const names_one *n = &r->names;
  const char *paths[OUTSET_MAX_FILES] = {n->output, n->aux_path};
  return outset_write(paths, n->write_aux && n->aux_path && f->bands ? 2 : 1,
                      fill_output, &m, OUTSET_ARG_IS_BAD_INPUT);
}

static void finish_files(tool_output *o, int run_ok) {
  (void)o;
  (void)run_ok;
}

static const output_kind files_kind = {publish_files, NULL, finish_files};

tool_output *files_output_init(files_output *f, const tool_run *r) {
  f->base.kind = &files_kind;
  /* One census is chosen in the window of the whole profile. */
  f->base.wants_view = !one_census(r);
  f->base.copies = 0;
  f->run = r;
  return &f->base;
}
