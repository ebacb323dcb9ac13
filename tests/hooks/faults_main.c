/* faults_main.c -- the main of the test build of the tool,
 * BUILD/hp2x-faults: the hp2x tool (tool_main) linked with
 * BUILD/libhp2x-hooks.a, whose nth allocation fails, n from the
 * HP2X_ALLOC_FAIL_AT variable.  tests/e2e/test_faults.sh and
 * test_aids_faults.sh run it; the shipped hp2x has neither the variable
 * nor the hook.
 */
#include "run/run.h"
#include "test_hooks.h"

#include <stdlib.h>

int main(int argc, char **argv) {
  const char *fail_at = getenv("HP2X_ALLOC_FAIL_AT");
  if (fail_at && *fail_at) hpx_alloc_fail_at(strtol(fail_at, NULL, 10));
  return tool_main(argc, argv);
}
