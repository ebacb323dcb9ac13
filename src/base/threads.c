/* threads.c -- the library's own threads (base.h): started with every
 * signal blocked, so the caller's signals keep reaching the caller's
 * threads, and joined before the call that started them returns; and the
 * one pattern selection and the CSV writer need, a few tasks run at once
 * (a range of samples each, or a share of the CSV's chunks of rows).
 * Reading in parts and the CSV's rows have pipelines of their own
 * (read/parts.c, write/csv_write.c) over the same start.
 *
 * The placement seam, for the threads started `away` (the parts'
 * readers): with glibc on Linux (pthread_attr_setaffinity_np,
 * sched_getcpu), such a thread starts on a CPU other than its caller's
 * when the caller may run on another, and is then let run on every CPU
 * the caller may; elsewhere, and under PORTABLE=1, the system places it
 * (and here too when such a start fails).  Linux often queues a new
 * thread on its parent's CPU, where the two share one CPU for
 * milliseconds while another stands idle.  A short task the caller waits
 * for is left where the system puts it: sent to a CPU busy with another
 * program, it would keep the caller waiting (bench/RESULTS.md, 14w).
 */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, sched_getcpu */
#include <sched.h>
#if defined(__GLIBC__) /* musl has no pthread_attr_setaffinity_np */
#define HPX_PLACE_THREADS 1
#endif
#endif
#include "base.h"

#include <pthread.h>
#include <signal.h>

/* Where the threads a call starts begin: `attr` (initialised when `set`)
 * allows every CPU the caller may use but the one it is on, `cpus` all of
 * them. */
typedef struct placement {
  int set;
#if defined(HPX_PLACE_THREADS)
  pthread_attr_t attr;
  cpu_set_t cpus;
#endif
} placement;

static void place_begin(placement *pl) {
  pl->set = 0;
#if defined(HPX_PLACE_THREADS)
  int me = sched_getcpu();
  if (me < 0 || me >= CPU_SETSIZE ||
      pthread_getaffinity_np(pthread_self(), sizeof pl->cpus, &pl->cpus) != 0)
    return;
  cpu_set_t others = pl->cpus;
  CPU_CLR(me, &others);
  if (CPU_COUNT(&others) == 0 || pthread_attr_init(&pl->attr) != 0) return;
  if (pthread_attr_setaffinity_np(&pl->attr, sizeof others, &others) == 0)
    pl->set = 1;
  else
    pthread_attr_destroy(&pl->attr);
#endif
}

/* Starts one thread as `pl` says: queued away from the caller's CPU, then
 * free to move (widening its CPUs does not move it from where it is). */
static int place_start(placement *pl, pthread_t *id, void *(*fn)(void *),
                       void *arg) {
#if defined(HPX_PLACE_THREADS)
  if (pl->set && pthread_create(id, &pl->attr, fn, arg) == 0) {
    (void)pthread_setaffinity_np(*id, sizeof pl->cpus, &pl->cpus);
    return 0;
  }
#endif
  (void)pl;
  return pthread_create(id, NULL, fn, arg);
}

static void place_end(placement *pl) {
#if defined(HPX_PLACE_THREADS)
  if (pl->set) pthread_attr_destroy(&pl->attr);
#endif
  pl->set = 0;
}

size_t hpx_threads_start(pthread_t *ids, size_t n, void *(*fn)(void *),
                         void *const *args, int away) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  placement pl = {0};
  if (away) place_begin(&pl);
  size_t started = 0;
  while (started < n && place_start(&pl, &ids[started], fn, args[started]) == 0)
    started++;
  place_end(&pl);
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
  size_t started = n > 1 ? hpx_threads_start(ids, n - 1, run_task, arg + 1, 0)
                         : 0;
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
