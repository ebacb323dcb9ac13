/* test_wakeup.c -- the tool's io/wakeup.c, the waits' clock: a condition
 * variable made by wakeup_cond_init times its waits on the monotonic clock
 * on Linux (the realtime clock in a portable build, POSIX's default), and
 * a wait until wakeup_deadline's time ends at that time, no sooner; the
 * deadline's nanoseconds stay under a second. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "io/wakeup.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

static void clock_of_the_waits(void **state) {
  (void)state;
  pthread_cond_t c;
  clockid_t clock = (clockid_t)-1;
  assert_int_equal(wakeup_cond_init(&c, &clock), 0);
#if defined(__linux__) && !defined(HP2X_PORTABLE)
  assert_int_equal(clock, CLOCK_MONOTONIC);
#else
  assert_int_equal(clock, CLOCK_REALTIME);
#endif
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  double t0 = wakeup_now_s();
  struct timespec until = wakeup_deadline(clock, 60);
  pthread_mutex_lock(&m);
  int e;
  do e = pthread_cond_timedwait(&c, &m, &until);
  while (e == 0); /* a spurious wakeup */
  pthread_mutex_unlock(&m);
  assert_int_equal(e, ETIMEDOUT);
  double waited = wakeup_now_s() - t0;
  assert_true(waited >= 0.059); /* the deadline, on the wait's own clock */
  assert_true(waited < 5.0);
  pthread_cond_destroy(&c);
}

static void deadline_normalized(void **state) {
  (void)state;
  static const long ms[] = {0, 1, 999, 1000, 1999, 123456};
  for (size_t i = 0; i < sizeof ms / sizeof *ms; i++) {
    struct timespec now, t;
    clock_gettime(CLOCK_MONOTONIC, &now);
    t = wakeup_deadline(CLOCK_MONOTONIC, ms[i]);
    assert_true(t.tv_nsec >= 0 && t.tv_nsec < 1000000000L);
    double d = (double)(t.tv_sec - now.tv_sec) +
               (double)(t.tv_nsec - now.tv_nsec) / 1e9;
    assert_true(d >= (double)ms[i] / 1000 && d < (double)ms[i] / 1000 + 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(clock_of_the_waits),
      cmocka_unit_test(deadline_normalized),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
