/* threads.c -- the library's own threads (base.h): started with every
 * signal blocked, so the caller's signals keep reaching the caller's
 * threads, and joined before the call that started them returns; and the
 * one pattern selection and the CSV writer need, a few tasks run at once
 * (each a range of samples or rows), once or, by a crew (crew.h) whose
 * threads wait between rounds, many times.  Reading in parts has a
 * pipeline of its own (read/parts.c) over the same start.
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
#include "crew.h"

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

/* ------------------------------------------------------------- crews */

/* A crew's thread: which task of each round is its own. */
typedef struct crew_member {
  hpx_crew *crew;
  size_t task;
} crew_member;

struct hpx_crew {
  pthread_mutex_t lock; /* guards everything below but ids and member */
  pthread_cond_t go;    /* a round begun, or the crew's end */
  pthread_cond_t done;  /* a member done with its round */
  unsigned long round;  /* rounds begun */
  size_t waiting;       /* members not yet done with this round */
  size_t n_tasks;       /* this round's */
  void (*fn)(void *ctx, size_t task);
  void *ctx;
  int quit;
  size_t started; /* members: tasks 1 .. started */
  pthread_t ids[HPX_MAX_TASKS];
  crew_member member[HPX_MAX_TASKS];
};

static void *crew_loop(void *arg) {
  crew_member *m = arg;
  hpx_crew *c = m->crew;
  unsigned long seen = 0;
  pthread_mutex_lock(&c->lock);
  for (;;) {
    while (c->round == seen && !c->quit) pthread_cond_wait(&c->go, &c->lock);
    if (c->quit) break;
    seen = c->round;
    if (m->task < c->n_tasks) {
      void (*fn)(void *, size_t) = c->fn;
      void *ctx = c->ctx;
      pthread_mutex_unlock(&c->lock);
      fn(ctx, m->task);
      pthread_mutex_lock(&c->lock);
    }
    if (--c->waiting == 0) pthread_cond_signal(&c->done);
  }
  pthread_mutex_unlock(&c->lock);
  return NULL;
}

hpx_crew *hpx_crew_start(size_t threads) {
  if (threads > HPX_MAX_TASKS) threads = HPX_MAX_TASKS;
  hpx_crew *c = hpx_calloc(1, sizeof *c);
  if (!c) return NULL;
  pthread_mutex_init(&c->lock, NULL);
  pthread_cond_init(&c->go, NULL);
  pthread_cond_init(&c->done, NULL);
  void *arg[HPX_MAX_TASKS];
  for (size_t i = 0; i + 1 < threads; i++) {
    c->member[i] = (crew_member){c, i + 1};
    arg[i] = &c->member[i];
  }
  c->started = threads > 1
                   ? hpx_threads_start(c->ids, threads - 1, crew_loop, arg, 0)
                   : 0;
  return c;
}

void hpx_crew_run(hpx_crew *c, size_t n, void (*fn)(void *ctx, size_t task),
                  void *ctx) {
  if (!c) {
    hpx_run_tasks(n, fn, ctx);
    return;
  }
  if (n > HPX_MAX_TASKS) n = HPX_MAX_TASKS;
  pthread_mutex_lock(&c->lock);
  c->fn = fn;
  c->ctx = ctx;
  c->n_tasks = n;
  c->waiting = c->started;
  c->round++;
  pthread_cond_broadcast(&c->go);
  pthread_mutex_unlock(&c->lock);
  /* The caller's own task, and those no member has. */
  if (n) fn(ctx, 0);
  for (size_t i = 1 + c->started; i < n; i++) fn(ctx, i);
  pthread_mutex_lock(&c->lock);
  while (c->waiting) pthread_cond_wait(&c->done, &c->lock);
  pthread_mutex_unlock(&c->lock);
}

void hpx_crew_end(hpx_crew *c) {
  if (!c) return;
  pthread_mutex_lock(&c->lock);
  c->quit = 1;
  pthread_cond_broadcast(&c->go);
  pthread_mutex_unlock(&c->lock);
  for (size_t i = 0; i < c->started; i++) pthread_join(c->ids[i], NULL);
  pthread_cond_destroy(&c->done);
  pthread_cond_destroy(&c->go);
  pthread_mutex_destroy(&c->lock);
  hpx_free(c);
}
