/* threads.c -- the library's own threads (base.h): started with every
 * signal blocked, so the caller's signals keep reaching the caller's
 * threads, and joined before the call that started them returns; and the
 * one pattern selection and the CSV writer need, a loop over ranges of
 * items on several threads.  Reading in parts has a pipeline of its own
 * (read/parts.c) over the same start.
 */
#include "base.h"

#include <pthread.h>
#include <signal.h>

size_t hpx_threads_start(pthread_t *ids, size_t n, void *(*fn)(void *),
                         void *const *args) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  size_t started = 0;
  while (started < n &&
         pthread_create(&ids[started], NULL, fn, args[started]) == 0)
    started++;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return started;
}

/* One thread's share of hpx_run_ranges. */
typedef struct range_task {
  void (*fn)(void *ctx, size_t from, size_t to);
  void *ctx;
  size_t from, to;
} range_task;

static void *run_range(void *arg) {
  range_task *t = arg;
  t->fn(t->ctx, t->from, t->to);
  return NULL;
}

/* Ranges run at most this many at once; more threads than this gain
 * nothing here. */
#define MAX_RANGES 64

void hpx_run_ranges(size_t n, size_t threads, size_t least,
                    void (*fn)(void *ctx, size_t from, size_t to), void *ctx) {
  size_t k = threads < 1 ? 1 : threads > MAX_RANGES ? MAX_RANGES : threads;
  if (least && n / least < k) k = n / least ? n / least : 1;
  range_task task[MAX_RANGES];
  void *arg[MAX_RANGES];
  pthread_t ids[MAX_RANGES];
  for (size_t i = 0; i < k; i++) {
    task[i] = (range_task){fn, ctx, n * i / k, n * (i + 1) / k};
    arg[i] = &task[i];
  }
  size_t started = k > 1 ? hpx_threads_start(ids, k - 1, run_range, arg + 1)
                         : 0;
  /* The caller's own share, and the shares no thread was started for. */
  run_range(&task[0]);
  for (size_t i = 1 + started; i < k; i++) run_range(&task[i]);
  for (size_t i = 0; i < started; i++) pthread_join(ids[i], NULL);
}
