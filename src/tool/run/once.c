/* once.c -- the one-shot run, hp2ps's own: one input read whole, its bands
 * selected, published once to the run's outputs (its output, and .aux
 * beside a picture; the server's pictures).
 */
#include "run.h"

#include "selection.h"
#include "io/inputs.h"
#include "io/outset.h"
#include "io/program.h"
#include "util/status.h"

int run_once(tool_run *r) {
  const tool_args *a = r->args;
  const char *display = r->names.display;
  outset_catch_signals();
  hp2x_profile *p = NULL;
  hp2x_symbols *syms = NULL;
  int rc = inputs_attach_aux(a->use_aux ? r->names.aux_path : NULL, &r->opts,
                             &r->aux);
  if (rc == EXIT_OK && a->program) rc = program_load(a->program, &syms);
  if (rc == EXIT_OK)
    rc = inputs_read_profile(r->names.input, display, &a->parse, &p);
  if (rc == EXIT_OK) {
    if (!a->quiet)
      inputs_warn_profile(display, p, &a->opts,
                          a->service.kind != CONNECT_NONE);
    rc = program_name_tables(a->program, syms, a->opts.format, a->quiet,
                             display, p);
  }
  if (rc == EXIT_OK) rc = selection_view_and_write(r, p, p, NULL);
  hp2x_profile_free(p);
  hp2x_symbols_free(syms);
  inputs_release_aux(&r->opts, &r->aux);
  return rc;
}
