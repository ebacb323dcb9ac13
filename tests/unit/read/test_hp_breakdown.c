/* test_hp_breakdown.c -- a .hp file's breakdown (hp2x_profile_breakdown):
 * from JOB's +RTS flag, else from the labels' shape.  Every real .hp in
 * samples/ against the HEAP_PROF_BEGIN of the eventlog of the same run;
 * real GHC 9.6/9.10 runs without profiling (JOB names no flag); each rule
 * on JOB words; a real -hc file whose JOB lost its flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "read/hp_breakdown.h"

static hp2x_breakdown breakdown_of(const unsigned char *buf, size_t len) {
  hp2x_profile *p;
  hp2x_err err;
  assert_int_equal(parse_chunked(buf, len, 0, HP2X_INPUT_AUTO, &p, &err),
                   HP2X_OK);
  hp2x_breakdown b = hp2x_profile_breakdown(p);
  hp2x_profile_free(p);
  return b;
}

static hp2x_breakdown file_breakdown(const char *rel) {
  size_t len;
  unsigned char *buf = read_repo_file(rel, &len);
  assert_non_null(buf);
  hp2x_breakdown b = breakdown_of(buf, len);
  free(buf);
  return b;
}

/* Every .hp of samples/profiles with its run's eventlog beside it: the
 * .hp's breakdown is the eventlog's HEAP_PROF_BEGIN code (-hc, -hm, -hd,
 * -hy, -hr, -hb, -hT from JOB; manycc.ipehi, a build without profiling,
 * from its addresses). */
static void samples_agree_with_their_eventlogs(void **state) {
  (void)state;
  const char *progs[] = {"leak",    "manycc",    "mapwave",
                         "markers", "textbytes", "unicode"};
  const char *modes[] = {"hc", "hm", "hd", "hy", "hr", "hb", "hT", "ipehi"};
  int pairs = 0;
  for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
      char hp[128], evl[128];
      snprintf(hp, sizeof hp, "samples/profiles/%s.%s.hp", progs[i], modes[m]);
      snprintf(evl, sizeof evl, "samples/profiles/%s.%s.eventlog", progs[i],
               modes[m]);
      size_t len;
      unsigned char *buf = read_repo_file(evl, &len);
      if (!buf) continue;
      hp2x_breakdown want = breakdown_of(buf, len);
      free(buf);
      assert_int_not_equal(want, HP2X_BREAKDOWN_UNKNOWN);
      if (file_breakdown(hp) != want) fail_msg("%s: not %d", hp, (int)want);
      pairs++;
    }
  assert_true(pairs >= 40);
}

/* GHC 9.6 and 9.10 runs built without profiling write JOB "leak": -hi's
 * labels are addresses, -hT's closure descriptions. */
static void builds_without_profiling(void **state) {
  (void)state;
  static const struct {
    const char *rel;
    hp2x_breakdown want;
  } runs[] = {
      {"tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.hp.gz",
       HP2X_BREAKDOWN_INFO_TABLE},
      {"tests/data/ghc-modern/ghc-9.10.3/markers.ipehi.hp.gz",
       HP2X_BREAKDOWN_INFO_TABLE},
      {"tests/data/ghc-modern/ghc-9.6.6/mapwave.ipehT.hp.gz",
       HP2X_BREAKDOWN_CLOSURE_TYPE},
      {"tests/data/ghc-modern/ghc-9.10.3/leak.ipehT.hp.gz",
       HP2X_BREAKDOWN_CLOSURE_TYPE},
      {"tests/data/ghc-modern/ghc-9.10.3/mapwave.he.hp.gz", HP2X_BREAKDOWN_ERA},
      {"tests/data/ghc-modern/ghc-9.6.6/mapwave.hc.hp.gz",
       HP2X_BREAKDOWN_COST_CENTRE},
  };
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    size_t len;
    unsigned char *buf = read_repo_gz(runs[i].rel, &len);
    assert_non_null(buf);
    assert_true(len > 0);
    assert_true(memcmp(buf, "JOB \"", 5) == 0);
    if (breakdown_of(buf, len) != runs[i].want)
      fail_msg("%s: not %d", runs[i].rel, (int)runs[i].want);
    free(buf);
  }
}

static int job_says(const char *job) {
  hp_breakdown b = {0};
  hpx_hp_breakdown_job(&b, job, strlen(job));
  return hpx_hp_breakdown_of(&b);
}

/* GHC's rules for -h words (rts/RtsFlags.c): a word of three bytes is a
 * breakdown, a longer one a filter; -h alone is -hc in a profiling build;
 * -hT, -hi and -he only so spelt; the RTS's words are those after the
 * last +RTS (the program's own arguments come first). */
static void job_words(void **state) {
  (void)state;
  assert_int_equal(job_says("leak +RTS -hc -l -i0.01"), 1);
  assert_int_equal(job_says("leak +RTS -hC"), 1);
  assert_int_equal(job_says("leak +RTS -h -i0.5"), 1);
  assert_int_equal(job_says("leak +RTS -hM"), 2);
  assert_int_equal(job_says("leak +RTS -hd"), 3);
  assert_int_equal(job_says("leak +RTS -hY"), 4);
  assert_int_equal(job_says("leak +RTS -hr"), 5);
  assert_int_equal(job_says("leak +RTS -hB"), 6);
  assert_int_equal(job_says("leak +RTS -hT -l"), 7);
  assert_int_equal(job_says("leak +RTS -hi"), 8);
  assert_int_equal(job_says("leak +RTS -he"), 9);
  assert_int_equal(job_says("leak +RTS -ht"), 0); /* no such flag */
  assert_int_equal(job_says("leak +RTS -hI -hE"), 0);
  /* A filter is not a breakdown: -hd restricted to cost centre Main. */
  assert_int_equal(job_says("leak +RTS -hcMain -hd"), 3);
  assert_int_equal(job_says("leak +RTS -hd -hc{Main.f}"), 3);
  /* The program's own -hy, before the RTS's words, is its own. */
  assert_int_equal(job_says("grep -hy x +RTS -hm"), 2);
  assert_int_equal(job_says("prog +RTS x -hy --RTS +RTS -hb"), 6);
  assert_int_equal(job_says("prog  +RTS   -hd  "), 3);
  /* No +RTS: a build without profiling; the labels will tell. */
  assert_int_equal(job_says("leak -hc"), 0);
  assert_int_equal(job_says(""), 0);
  assert_int_equal(job_says("leak +RTS -l"), 0);
}

static int labels_say(const char *job, const char *const *labels, size_t n) {
  hp_breakdown b = {0};
  hpx_hp_breakdown_job(&b, job, strlen(job));
  for (size_t i = 0; i < n; i++)
    hpx_hp_breakdown_label(&b, labels[i], strlen(labels[i]));
  return hpx_hp_breakdown_of(&b);
}

static void label_shapes(void **state) {
  (void)state;
  const char *ccs[] = {"MAIN", "(313)tallyBuckets/main.buc...", "(2)x"};
  const char *addr[] = {"0x43ce38", "0x4c8e48"};
  const char *mixed[] = {"0x43ce38", "THUNK"};
  const char *descr[] = {"(,)", "ghc-internal:GHC.Internal.Types.:"};
  const char *not_ccs[] = {"()", "(x)y", "(12", "MAINS"};
  assert_int_equal(labels_say("leak", ccs, 3), 1);
  assert_int_equal(labels_say("leak +RTS -l", ccs, 3), 1);
  assert_int_equal(labels_say("leak", addr, 2), 8);
  assert_int_equal(labels_say("leak", mixed, 2), 7);
  assert_int_equal(labels_say("leak", descr, 2), 7);
  assert_int_equal(labels_say("leak", not_ccs, 4), 7);
  /* A profiling build that names no flag: only "(N)" labels tell. */
  assert_int_equal(labels_say("leak +RTS -l", addr, 2), 0);
  assert_int_equal(labels_say("leak +RTS -l", descr, 2), 0);
  assert_int_equal(labels_say("leak", NULL, 0), 0);
  /* JOB's flag wins over the labels. */
  assert_int_equal(labels_say("leak +RTS -hr", ccs, 3), 5);
}

/* A real -hc file whose JOB lost its +RTS words (copied by hand, say) is
 * still -hc by its "(N)" labels, once the first label is read. */
static void real_hc_without_flags(void **state) {
  (void)state;
  char *text = read_repo_text("samples/profiles/leak.hc.hp");
  assert_non_null(text);
  assert_true(!strncmp(text, "JOB \"leak +RTS -hc -l -i0.01\"\n", 30));
  char *rest = strchr(text, '\n');
  size_t n = strlen(rest);
  char *copy = malloc(n + 16);
  assert_non_null(copy);
  int k = snprintf(copy, 16, "JOB \"leak\"");
  memcpy(copy + k, rest, n + 1);
  assert_int_equal(breakdown_of((const unsigned char *)copy, strlen(copy)),
                   HP2X_BREAKDOWN_COST_CENTRE);
  /* Before any label: nothing tells yet. */
  const char *head = "JOB \"leak +RTS -l\"\nDATE \"d\"\n"
                     "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
                     "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n";
  assert_int_equal(breakdown_of((const unsigned char *)head, strlen(head)),
                   HP2X_BREAKDOWN_UNKNOWN);
  free(copy);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(samples_agree_with_their_eventlogs),
      cmocka_unit_test(builds_without_profiling),
      cmocka_unit_test(job_words),
      cmocka_unit_test(label_shapes),
      cmocka_unit_test(real_hc_without_flags),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
