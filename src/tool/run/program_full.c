/* program_full.c -- the full hp2x program (program.h): it draws and
 * serves, so every run is its own.
 */
#include "program.h"

#include "serve/serve.h"
#include "util/status.h"

int run_handoff(const tool_args *a, char **argv) {
  (void)a, (void)argv;
  return RUN_GOES_ON;
}

int run_serve_start(const tool_args *a, tool_output **out) {
  return serve_start(&a->serve_at, &a->opts, out);
}
