/* fuzz_eventlog_parse.c -- libFuzzer target: the eventlog parser, whole and
 * in chunks. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_parse_both_ways(data, size, HP2X_INPUT_EVENTLOG);
  return 0;
}
