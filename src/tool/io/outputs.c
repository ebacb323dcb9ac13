/* outputs.c -- the list of a run's outputs, and publishing to them in the
 * order that lets a big profile go before it is drawn: the outputs that
 * copy what they keep (a server) first, then the profile's entries are
 * dropped, then the outputs drawn from the bands alone (the files).
 */
#include "outputs.h"

#include "util/status.h"

#include <assert.h>

void outputs_add(tool_outputs *all, tool_output *o) {
  assert(all->n < OUTPUTS_MAX);
  all->list[all->n++] = o;
}

int outputs_want_view(const tool_outputs *all) {
  for (size_t i = 0; i < all->n; i++)
    if (all->list[i]->wants_view) return 1;
  return 0;
}

/* Publishes f to the outputs that copy (`copies`) or to the others, while
 * rc is EXIT_OK; returns rc. */
static int publish_some(const tool_outputs *all, const output_frame *f,
                        int copies, int rc) {
  for (size_t i = 0; i < all->n && rc == EXIT_OK; i++) {
    tool_output *o = all->list[i];
    if (!o->copies == !copies) rc = o->kind->publish(o, f);
  }
  return rc;
}

int outputs_publish(const tool_outputs *all, const output_frame *f) {
  int rc = publish_some(all, f, 1, EXIT_OK);
  if (rc != EXIT_OK) return rc;
  for (size_t i = 0; i < sizeof f->drop / sizeof f->drop[0]; i++)
    if (f->drop[i]) hp2x_profile_drop_entries(f->drop[i]);
  return publish_some(all, f, 0, rc);
}

void outputs_input_state(const tool_outputs *all, input_state state) {
  for (size_t i = 0; i < all->n; i++)
    if (all->list[i]->kind->input_state)
      all->list[i]->kind->input_state(all->list[i], state);
}

void outputs_finish(tool_outputs *all, int run_ok) {
  while (all->n > 0) {
    tool_output *o = all->list[--all->n];
    o->kind->finish(o, run_ok);
  }
}
