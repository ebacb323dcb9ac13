/* test_fuzz_regress.c -- replays every input kept in tests/fuzz-regress/
 * (crashes the fuzzers found, and hand-made hard cases) through the same
 * entry points the libFuzzer targets use, plus the small samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LLVMFuzzerTestOneInput fuzz_hp_one
#include "../fuzz/fuzz_hp_parse.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_eventlog_one
#include "../fuzz/fuzz_eventlog_parse.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pipeline_one
#include "../fuzz/fuzz_pipeline.c"
#undef LLVMFuzzerTestOneInput

typedef int (*entry_fn)(const uint8_t *, size_t);

static const char *top(void) {
  const char *t = getenv("TOP");
  return t ? t : ".";
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
  *len = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return buf;
}

/* Runs `fn` on every regular file in TOP/dir; returns how many. */
static int replay_dir(const char *dir, entry_fn fn, size_t max_size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", top(), dir);
  DIR *d = opendir(path);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char file[8192];
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    struct stat st;
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if ((size_t)st.st_size > max_size) continue;
    if (strstr(e->d_name, ".gz") || strstr(e->d_name, ".tsv")) continue;
    size_t len = 0;
    unsigned char *buf = slurp(file, &len);
    assert_non_null(buf);
    fn(buf, len);
    free(buf);
    n++;
  }
  closedir(d);
  return n;
}

static void regress_hp(void **state) {
  (void)state;
  replay_dir("tests/fuzz-regress/hp", fuzz_hp_one, 1 << 22);
  assert_true(replay_dir("tests/data/malformed", fuzz_hp_one, 1 << 16) > 20);
}

static void regress_eventlog(void **state) {
  (void)state;
  replay_dir("tests/fuzz-regress/eventlog", fuzz_eventlog_one, 1 << 22);
  assert_true(replay_dir("tests/data/malformed", fuzz_eventlog_one, 1 << 16) >
              20);
}

static void regress_pipeline(void **state) {
  (void)state;
  replay_dir("tests/fuzz-regress/pipeline", fuzz_pipeline_one, 1 << 22);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(regress_hp),
      cmocka_unit_test(regress_eventlog),
      cmocka_unit_test(regress_pipeline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
