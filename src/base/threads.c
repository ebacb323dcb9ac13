/* threads.c -- the library's own threads (base.h): started with every
 * signal blocked, so the caller's signals keep reaching the caller's
 * threads, and joined before the call that started them returns; and the
 * one pattern selection and the CSV writer need, a few tasks run at once
 * (each a range of samples or rows).  Reading in parts has a pipeline of
 * its own (read/parts.c) over the same start.
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

/* One task of hpx_run_tasks. */
typedef struct task_arg {
  void (*fn)(void *ctx, size_t task);
  void *ctx;
  size_t task;
} task_arg;

static void *run_task(void *arg) {
  task_arg *t = arg;
  t->fn(t->ctx, t->task);
  return NULL;
}

void hpx_run_tasks(size_t n, void (*fn)(void *ctx, size_t task), void *ctx) {
  if (n > HPX_MAX_TASKS) n = HPX_MAX_TASKS;
  task_arg task[HPX_MAX_TASKS];
  void *arg[HPX_MAX_TASKS];
  pthread_t ids[HPX_MAX_TASKS];
  for (size_t i = 0; i < n; i++) {
    task[i] = (task_arg){fn, ctx, i};
    arg[i] = &task[i];
  }
  size_t started = n > 1 ? hpx_threads_start(ids, n - 1, run_task, arg + 1) : 0;
  /* The caller's own task, and those no thread was started for. */
  if (n) run_task(&task[0]);
  for (size_t i = 1 + started; i < n; i++) run_task(&task[i]);
  for (size_t i = 0; i < started; i++) pthread_join(ids[i], NULL);
}

size_t hpx_task_count(size_t items, size_t threads, size_t least) {
  size_t k = threads < 1               ? 1
             : threads > HPX_MAX_TASKS ? HPX_MAX_TASKS
                                       : threads;
  if (least && items / least < k) k = items / least ? items / least : 1;
  return k;
}
