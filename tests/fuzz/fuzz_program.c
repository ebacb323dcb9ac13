/* fuzz_program.c -- libFuzzer target: --program's reading of an
 * executable (the tool's io/program.c, elfutils' libelf) from untrusted
 * bytes, then the library naming a small -hi profile's addresses from
 * what it read.  A malformed file must give a message and exit status 1,
 * never a crash. */
#include "fuzz_common.h"
#include "io/program.h"
#include "util/status.h"

#include <stdio.h>
#include <unistd.h>

/* An -hi .hp whose addresses land where seeds.py's small ELF files put
 * their tables (0x401010, 0x401030, 0x401058) and elsewhere. */
static const char hp_text[] =
    "JOB \"prog +RTS -hi\"\nDATE \"Thu Jan  1 00:00 1970\"\n"
    "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
    "BEGIN_SAMPLE 0.10\n0x401010\t4096\n0x401030\t2048\n0x401058\t1024\n"
    "0x7f0000001000\t512\nEND_SAMPLE 0.10\n";

static char path[] = "/tmp/hp2x-fuzz-program-XXXXXX";
static int fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (fd < 0) fd = mkstemp(path);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(ftruncate(fd, 0) == 0);
  FUZZ_CHECK(pwrite(fd, data, size, 0) == (ssize_t)size);
  hp2x_symbols *s = NULL;
  int rc = program_load(path, &s);
  FUZZ_CHECK(rc == EXIT_OK || rc == EXIT_BAD_INPUT);
  FUZZ_CHECK((rc == EXIT_OK) == (s != NULL));
  if (s) {
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_profile *p = NULL;
    FUZZ_CHECK(fuzz_parse((const uint8_t *)hp_text, sizeof hp_text - 1,
                          HP2X_INPUT_HP, 0, &p) == HP2X_OK);
    hp2x_tables_report r;
    FUZZ_CHECK(hp2x_profile_name_tables(p, s, &r, &err) == HP2X_OK);
    FUZZ_CHECK(r.named <= r.bare && r.bare == 4);
    hp2x_profile_free(p);
    hp2x_symbols_free(s);
  }
  return 0;
}
