/* test_fuzz_regress.c -- replays every input kept in tests/fuzz-regress/
 * (crashes the fuzzers found, and hand-made hard cases) through the same
 * entry points the libFuzzer targets use, plus the small samples (behind
 * the pipeline's option bytes, the stream target's chunking bytes and the
 * threads target's threads, parts and chunks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parse_helpers.h"

#define LLVMFuzzerTestOneInput fuzz_hp_one
#include "../../fuzz/fuzz_hp_parse.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_eventlog_one
#include "../../fuzz/fuzz_eventlog_parse.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_pipeline_one
#include "../../fuzz/fuzz_pipeline.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_stream_one
#include "../../fuzz/fuzz_stream.c"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_threads_one
#include "../../fuzz/fuzz_threads.c"
#undef LLVMFuzzerTestOneInput

typedef int (*entry_fn)(const uint8_t *, size_t);

/* Runs `fn` on every regular file in TOP/dir but dotfiles; returns how
 * many (each folder asserts it is not empty: a lost corpus fails). */
static int replay_dir(const char *dir, entry_fn fn, size_t max_size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", top_dir(), dir);
  DIR *d = opendir(path);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char file[8192];
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    struct stat st;
    if (e->d_name[0] == '.') continue; /* .keep holds an empty folder */
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if ((size_t)st.st_size > max_size) continue;
    if (strstr(e->d_name, ".gz") || strstr(e->d_name, ".tsv")) continue;
    char rel[8192];
    snprintf(rel, sizeof rel, "%s/%s", dir, e->d_name);
    size_t len = 0;
    unsigned char *buf = read_repo_file(rel, &len);
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
  assert_true(replay_dir("tests/fuzz-regress/hp", fuzz_hp_one, 1 << 22) >= 1);
  assert_true(replay_dir("tests/data/malformed", fuzz_hp_one, 1 << 16) > 20);
}

static void regress_eventlog(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz-regress/eventlog", fuzz_eventlog_one,
                         1 << 22) >= 1);
  assert_true(replay_dir("tests/data/malformed", fuzz_eventlog_one, 1 << 16) >
              20);
}

static void regress_pipeline(void **state) {
  (void)state;
  assert_true(replay_dir("tests/fuzz-regress/pipeline", fuzz_pipeline_one,
                         1 << 22) >= 4);
}

static void regress_stream(void **state) {
  (void)state;
  assert_true(
      replay_dir("tests/fuzz-regress/stream", fuzz_stream_one, 1 << 22) >= 4);
}

static void regress_threads(void **state) {
  (void)state;
  assert_true(
      replay_dir("tests/fuzz-regress/threads", fuzz_threads_one, 1 << 22) >= 3);
}

/* The pipeline target's rarer paths on every small malformed and cut-short
 * input: option bytes (see fuzz_pipeline.c) put in front of the file. */
static const uint8_t option_sets[][8] = {
    /* window + sample index, include and exclude filters, -p round trip */
    {20, 40, 2, 1, 2, 3, 0x7c, 90},
    /* compared with its window: stack layout, shared axes, SVG, diff */
    {0, 128, 3, 0x41, 3, 0, 0x84, 200},
    /* PNG at 30 dpi with heap lines, -m 5, every sample, eventlog forced */
    {5, 10, 0, 0xc1, 0, 20, 0x03, 7},
    /* EPS, hatch patterns, label colours, by index, compared on pages */
    {25, 0, 4, 0x18, 0x15, 60, 0x88, 0},
};
/* A target run with option bytes in front of each input: the prefix and
 * target the corpus loops below set. */
static const uint8_t *current_prefix;
static size_t current_prefix_len;
static entry_fn current_target;

static int with_prefix(const uint8_t *data, size_t size) {
  uint8_t *buf = malloc(size + current_prefix_len);
  assert_non_null(buf);
  memcpy(buf, current_prefix, current_prefix_len);
  memcpy(buf + current_prefix_len, data, size);
  current_target(buf, size + current_prefix_len);
  free(buf);
  return 0;
}

/* The small inputs, each behind `len` bytes of `prefix`, into `target`. */
static void replay_small_inputs(const uint8_t *prefix, size_t len,
                                entry_fn target) {
  current_prefix = prefix;
  current_prefix_len = len;
  current_target = target;
  assert_true(replay_dir("tests/data/malformed", with_prefix, 1 << 16) > 20);
  assert_true(replay_dir("tests/data/incomplete", with_prefix, 1 << 16) > 5);
  assert_true(replay_dir("tests/data/eventlogs", with_prefix, 1 << 16) > 10);
}

static void pipeline_options_on_corpus(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof option_sets / sizeof option_sets[0]; i++) {
    size_t before = pictures_drawn;
    replay_small_inputs(option_sets[i], sizeof option_sets[i],
                        fuzz_pipeline_one);
    /* Not only rejections: the accepted inputs were drawn. */
    assert_true(pictures_drawn - before >= 10);
  }
}

/* The stream target on the small inputs: its 4 option bytes (see
 * fuzz_stream.c) in front of each file. */
static const uint8_t stream_headers[][4] = {
    {0x00, 0, 0, 1},    /* kind guessed, CSV after every 1-byte chunk */
    {0x95, 6, 1, 2},    /* .hp named, SVG every 2 chunks <= 64 B, -m3 -d */
    {0xaa, 12, 7, 7},   /* eventlog named, PNG, -m3 -d, up to 4 KiB */
    {0x3f, 16, 9, 200}, /* kind guessed, PDF every 8, up to 64 KiB */
};
static void stream_headers_on_corpus(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof stream_headers / sizeof stream_headers[0]; i++)
    replay_small_inputs(stream_headers[i], sizeof stream_headers[i],
                        fuzz_stream_one);
}

/* The threads target on the small inputs (see fuzz_threads.c). */
static const uint8_t threads_headers[][4] = {
    {0x00, 0, 3, 1},     /* kind guessed, 2 threads, 1-byte parts, chunks */
    {0x1e, 0x84, 0, 0},  /* eventlog named, 9 threads, 16 B parts, whole */
    {0x89, 9, 5, 5},     /* .hp named, 4 threads, 512 B, a picture's bound */
    {0xf2, 1, 9, 200},   /* eventlog, 2 threads, 2 B parts, --last 0.05 */
    {0x05, 0x88, 1, 0},  /* .hp, 3 threads, 256 B parts, from a file */
    {0x1a, 0x8c, 1, 37}, /* eventlog, 8 threads, 4 KiB parts, from a file
                          * after 37 bytes fed from memory */
};
static void threads_headers_on_corpus(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof threads_headers / sizeof threads_headers[0];
       i++)
    replay_small_inputs(threads_headers[i], sizeof threads_headers[i],
                        fuzz_threads_one);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(regress_hp),
      cmocka_unit_test(regress_eventlog),
      cmocka_unit_test(regress_pipeline),
      cmocka_unit_test(regress_stream),
      cmocka_unit_test(pipeline_options_on_corpus),
      cmocka_unit_test(stream_headers_on_corpus),
      cmocka_unit_test(regress_threads),
      cmocka_unit_test(threads_headers_on_corpus),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
