/* run_once.c -- the one-shot run, hp2ps's own: one input read whole, its
 * bands selected, its output (and .aux beside a picture) written once.
 */
#include "run.h"

#include "inputs.h"
#include "outset.h"
#include "program.h"
#include "selection.h"

int run_once(tool_args *a) {
  outset_catch_signals();
  hp2x_aux *aux;
  hp2x_profile *p = NULL;
  hp2x_symbols *syms = NULL;
  int rc = inputs_attach_aux(a, &aux);
  if (rc == EXIT_OK && a->program) rc = program_load(a->program, &syms);
  if (rc == EXIT_OK)
    rc = inputs_read_profile(a->input, a->input_display, &a->parse, &p);
  if (rc == EXIT_OK) {
    inputs_warn_profile(a, a->input_display, p);
    rc = program_name_tables(a, a->input_display, p, syms);
  }
  if (rc == EXIT_OK) rc = selection_view_and_write(a, p, p, NULL);
  hp2x_profile_free(p);
  hp2x_symbols_free(syms);
  inputs_release_aux(a, &aux);
  return rc;
}
