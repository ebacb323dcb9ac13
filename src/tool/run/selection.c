/* selection.c -- from one parsed profile to the run's outputs: the view of
 * view_pick.c (when an output draws one), the band selection (afresh, or a
 * watch follower's), and one frame published to the outputs
 * (io/outputs.c): the server copies what it shows, the files (files.c) are
 * written from the bands.
 */
#include "selection.h"

#include "view_pick.h"
#include "io/outfile.h"
#include "util/messages.h"
#include "util/status.h"
#include "util/tuning.h"

#include <string.h>
#include <unistd.h>

/* The bands of p: *shown, owned by `follow` or, as *owned, by the caller;
 * none for .hp conversion.  Returns an exit status. */
static int select_bands(const tool_run *r, const hp2x_profile *p,
                        hp2x_follower *follow, hp2x_bands **owned,
                        const hp2x_bands **shown) {
  *owned = NULL;
  *shown = NULL;
  if (!hp2x_format_needs_bands(r->opts.format)) return EXIT_OK;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_status st = follow
                       ? hp2x_follower_select(follow, p, &r->opts, shown, &err)
                       : hp2x_bands_select(p, &r->opts, owned, &err);
  if (*owned) *shown = *owned;
  if (st != HP2X_OK) {
    msg_report(r->names.display, &err, NULL);
    return msg_exit_status(err.code);
  }
  return EXIT_OK;
}

/* Whether the commit of `output` will hold the file it replaces for the
 * run's end to let go of beside it (io/outfile.h): probed by holding it a
 * moment (the close of a file still named lets go of nothing).  "-" and
 * none: no. */
static int replaced_file_held(const char *output) {
  if (!output || !strcmp(output, "-")) return 0;
  int fd = outfile_hold_replaced(output);
  if (fd < 0) return 0;
  close(fd);
  return 1;
}

/* Whether the profiles' entries are dropped before the files are written
 * from the bands: so that drawing (a picture, the report's) has their
 * memory.  A text output (CSV, the summary) needs none: when the run's
 * end lets go of a replaced file beside it (util/tuning.h: a file is
 * held), the entries are freed with the rest of the profile, meanwhile,
 * instead of on the run's path before the output is written. */
static int drop_entries_first(const tool_run *r) {
  hp2x_format f = r->opts.format;
  if (!hp2x_format_needs_bands(f)) return 0;
  int drawn = hp2x_format_is_picture(f) || f == HP2X_FORMAT_HTML;
  return drawn || !tuning_lets_go_beside() ||
         !replaced_file_held(r->names.output);
}

int selection_view_and_write(const tool_run *r, const hp2x_profile *p,
                             hp2x_profile *disposable, hp2x_follower *follow) {
  const hp2x_profile *whole = p;
  hp2x_profile *view = NULL;
  int rc = outputs_want_view(&r->outs)
               ? view_pick(&r->args->view, r->names.display, p, &view)
               : EXIT_OK;
  if (rc != EXIT_OK) return rc;
  if (view) p = view;
  hp2x_bands *b = NULL;
  const hp2x_bands *shown = NULL;
  rc = select_bands(r, p, view ? NULL : follow, &b, &shown);
  if (rc == EXIT_OK) {
    output_frame f = {whole, p, shown, {NULL, NULL}};
    if (drop_entries_first(r)) {
      f.drop[0] = view;
      f.drop[1] = disposable;
    }
    rc = outputs_publish(&r->outs, &f);
  }
  hp2x_bands_free(b);
  hp2x_profile_free(view);
  return rc;
}
