/* selection.c -- from one parsed profile to its files: the view of
 * view_pick.c, the band selection (afresh, or a watch follower's), and the
 * output set of outset.c: the output in any format (hp2x_write_output; a
 * format of one census writes the census view_pick_census chooses in the
 * whole profile) and hp2ps's .aux beside a picture.  The drawing reserve
 * (tuning.c) is given back just before the output is written.
 */
#include "selection.h"

#include "messages.h"
#include "outset.h"
#include "serve.h"
#include "tuning.h"
#include "view_pick.h"

/* One run's outputs: the picture (or table) and, as hp2ps, its .aux. */
typedef struct profile_outputs {
  const tool_args *a;
  const hp2x_profile *p;
  const hp2x_bands *b;
  hp2x_options o; /* a's, with the census of a format of one */
} profile_outputs;

static hp2x_status fill_output(void *ctx, size_t which, hp2x_write_fn w,
                               void *closure, hp2x_err *err) {
  const profile_outputs *m = ctx;
  if (which == OUTSET_AUX)
    return hp2x_write_aux(m->p, m->b, &m->o, w, closure, err);
  tuning_release_reserve();
  return hp2x_write_output(m->p, m->b, m->a->input_display, &m->o, w, closure,
                           err);
}

/* The bands of p: *shown, owned by `follow` or, as *owned, by the caller;
 * none for .hp conversion.  Returns an exit status. */
static int select_bands(const tool_args *a, const hp2x_profile *p,
                        hp2x_follower *follow, hp2x_bands **owned,
                        const hp2x_bands **shown) {
  *owned = NULL;
  *shown = NULL;
  if (!hp2x_format_needs_bands(a->opts.format)) return EXIT_OK;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_status st = follow
                       ? hp2x_follower_select(follow, p, &a->opts, shown, &err)
                       : hp2x_bands_select(p, &a->opts, owned, &err);
  if (*owned) *shown = *owned;
  if (st != HP2X_OK) {
    msg_report(a->input_display, &err, NULL);
    return msg_exit_status(err.code);
  }
  return EXIT_OK;
}

/* a's format holds one census (pprof). */
static int one_census(const tool_args *a) {
  const hp2x_format_info *f = hp2x_format_of(a->opts.format);
  return f && f->span == HP2X_SPAN_CENSUS;
}

int selection_view_and_write(const tool_args *a, const hp2x_profile *p,
                             hp2x_profile *disposable, hp2x_follower *follow) {
  const hp2x_profile *original = p;
  hp2x_profile *view = NULL;
  /* One census is chosen in the window of the whole profile: a view only
   * for the server's pictures. */
  int rc = one_census(a) && !a->server
               ? EXIT_OK
               : view_pick(a, a->input_display, p, &view);
  if (rc != EXIT_OK) return rc;
  if (view) p = view;
  hp2x_bands *b = NULL;
  const hp2x_bands *shown = NULL;
  rc = select_bands(a, p, view ? NULL : follow, &b, &shown);
  if (rc == EXIT_OK && a->server) /* copies what it needs */
    serve_publish(a->server, p, shown,
                  (long long)hp2x_profile_samples_read(original));
  if (rc == EXIT_OK && hp2x_format_needs_bands(a->opts.format)) {
    if (view) hp2x_profile_drop_entries(view);
    if (disposable) hp2x_profile_drop_entries(disposable);
  }
  profile_outputs m = {a, p, shown, a->opts};
  if (rc == EXIT_OK && a->output && one_census(a)) {
    m.p = original; /* its census, chosen in the window */
    rc = view_pick_census(a, a->input_display, original, &m.o.census);
  } else if (rc == EXIT_OK && a->output && a->at_given) {
    /* CSV's row, --summary's moment table: the census chosen (and --at
     * checked) in the whole profile's window is the view's, at the same
     * time, by the same choice */
    rc = view_pick_census(a, a->input_display, original, &m.o.census);
    m.o.span = HP2X_SPAN_CENSUS;
  }
  if (rc == EXIT_OK && a->output) {
    const char *paths[OUTSET_MAX_FILES] = {a->output, a->aux_path};
    rc = outset_write(paths, a->write_aux && a->aux_path && shown ? 2 : 1,
                      fill_output, &m, OUTSET_ARG_IS_BAD_INPUT);
  }
  hp2x_bands_free(b);
  hp2x_profile_free(view);
  return rc;
}
