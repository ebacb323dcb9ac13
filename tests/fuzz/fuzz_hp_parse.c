/* fuzz_hp_parse.c -- libFuzzer target: the .hp parser, whole and in chunks. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_parse_both_ways(data, size, HP2X_INPUT_HP);
  return 0;
}
