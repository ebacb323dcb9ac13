/* test_threads.c -- hp2x.h's thread-safety promise: two threads, started
 * before anything has loaded the fonts, each select and draw a different
 * profile, many times at once, in turn in two formats each (PDF and PNG,
 * PS and SVG), while a third draws the first thread's profile (shared,
 * const) as SVG and EPS; every output is byte-identical to the same render
 * done alone afterwards, SVG included (cairo numbers its surface ids by the
 * surfaces made in the process so far; surface.c renumbers them, and the
 * third thread's hatch patterns make several).
 * Run by `make check` and, under ThreadSanitizer, by `make check-tsan`
 * (mk/tsan.mk). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hp2x.h"
#include "mem_sink.h"
#include "parse_helpers.h"
#include "test_options.h"

#include <pthread.h>

enum { ROUNDS = 12 };

typedef struct job {
  const char *input;      /* repository path of the profile */
  hp2x_format formats[2]; /* round r draws formats[r % 2] */
  int colour;
  int pattern;     /* hatch patterns (SVG: several surfaces) */
  int shares;      /* 1 + the index of the job whose profile this
                      one draws too; 0 = its own */
  hp2x_profile *p; /* owned unless shares */
  mem out[ROUNDS]; /* each round's bytes; owned */
  hp2x_status status[ROUNDS];
  char msg[ROUNDS][256];
} job;

static hp2x_profile *load(const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", top_dir(), rel);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  assert_int_equal(hp2x_parse_stream(f, rel, NULL, &p, &err), HP2X_OK);
  fclose(f);
  return p;
}

static void job_options(const job *j, int round, hp2x_options *o) {
  test_options_init(o);
  o->format = j->formats[round % 2];
  o->dpi = 40; /* PNG: small, as TSan is slow */
  o->colour = j->colour;
  if (j->colour) o->palette = HP2X_PALETTE_LABEL;
  o->pattern = j->pattern;
  o->source_date_epoch = 1700000000; /* PDF dates are otherwise cairo's
                                        clock */
}

/* Selects and draws j's profile once, as round `round` does, into *m. */
static hp2x_status draw_once(const job *j, int round, mem *m, char *msg) {
  hp2x_options o;
  job_options(j, round, &o);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b = NULL;
  hp2x_status st = hp2x_bands_select(j->p, &o, &b, &err);
  if (st == HP2X_OK)
    st = hp2x_write_output(j->p, b, "t", &o, mem_write, m, &err);
  hp2x_bands_free(b);
  snprintf(msg, 256, "%s", err.msg);
  return st;
}

static void *run_job(void *arg) {
  job *j = arg;
  for (int r = 0; r < ROUNDS; r++)
    j->status[r] = draw_once(j, r, &j->out[r], j->msg[r]);
  return NULL;
}

static void concurrent_renders_equal_lone_ones(void **state) {
  (void)state;
  enum { JOBS = 3 };
  job jobs[JOBS] = {
      {.input = "samples/profiles/leak.hc.hp",
       .formats = {HP2X_FORMAT_PDF, HP2X_FORMAT_PNG}},
      {.input = "samples/profiles/leak.hT.eventlog",
       .formats = {HP2X_FORMAT_PS, HP2X_FORMAT_SVG},
       .colour = 1},
      {.input = "samples/profiles/leak.hc.hp",
       .shares = 1,
       .formats = {HP2X_FORMAT_SVG, HP2X_FORMAT_EPS},
       .colour = 1,
       .pattern = 1},
  };
  for (int i = 0; i < JOBS; i++)
    jobs[i].p = jobs[i].shares ? jobs[jobs[i].shares - 1].p
                               : load(jobs[i].input);
  /* No render before the threads: they race to load the fonts. */
  pthread_t t[JOBS];
  for (int i = 0; i < JOBS; i++)
    assert_int_equal(pthread_create(&t[i], NULL, run_job, &jobs[i]), 0);
  for (int i = 0; i < JOBS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < JOBS; i++) {
    for (int r = 0; r < ROUNDS; r++) {
      mem alone = {NULL, 0, 0, 0};
      char msg[256];
      assert_int_equal(draw_once(&jobs[i], r, &alone, msg), HP2X_OK);
      assert_true(alone.len > 1000);
      if (jobs[i].status[r] != HP2X_OK)
        fail_msg("%s round %d: %s", jobs[i].input, r, jobs[i].msg[r]);
      if (jobs[i].out[r].len != alone.len)
        fail_msg("%s round %d: %zu bytes, alone %zu", jobs[i].input, r,
                 jobs[i].out[r].len, alone.len);
      assert_memory_equal(jobs[i].out[r].buf, alone.buf, alone.len);
      free(jobs[i].out[r].buf);
      free(alone.buf);
    }
  }
  for (int i = 0; i < JOBS; i++)
    if (!jobs[i].shares) hp2x_profile_free(jobs[i].p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(concurrent_renders_equal_lone_ones),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
