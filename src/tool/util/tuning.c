/* tuning.c -- process tuning, decided once by run/entry.c from the command
 * line and invisible in the output: the memory reserve held back for
 * drawing, glibc's malloc settings (glibc only: nothing
 * elsewhere), the font-warming thread and the thread that lets go of
 * the files an output replaced (and starts the writeback of the file
 * replacing one as it is written).  The fourth piece, the zlib
 * level of the PDF streams cairo compresses, is an interposition
 * (zlib_level.c defines zlib's deflateInit_ in the binary) and needs no
 * call: it is a file of its own so that benchmarks can link it alone
 * (mk/bench.mk).
 */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define _GNU_SOURCE /* sync_file_range */
#endif
#include "tuning.h"

#include "hp2x.h"

#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The allocator seam: glibc's mallopt on Linux; elsewhere (and under
 * PORTABLE=1) nothing: musl's <malloc.h> has no M_ settings, other systems
 * no <malloc.h>. */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#include <malloc.h>
#endif

/* Memory held back while parsing and selecting, given back just before
 * drawing: the profile may take all there is (a ulimit), and glib, under
 * pango, aborts when an allocation fails where hp2x's own code reports
 * it; with the reserve, hp2x's own allocations fail first. */
enum { DRAWING_RESERVE_BYTES = 16 << 20 };
static void *drawing_reserve;

/* Inputs above this size load the fonts before they are read. */
enum { BIG_INPUT_BYTES = 1 << 20 };

static pthread_t font_thread;
static int font_thread_started;
static int applied;

/* The font set-up: the tool owns its process, so fontconfig's default
 * configuration may be the pinned one (hp2x.h).  Errors are the render's
 * to report. */
static void *prepare_fonts(void *fonts_conf) {
  (void)hp2x_fonts_make_process_default(fonts_conf, NULL);
  return NULL;
}

/* Font set-up (fontconfig, font files) takes as long as parsing a few
 * megabytes: for a small input, do it on the other core meanwhile (if no
 * thread can be started, the render does it itself).  Before a big input,
 * where it saves little, it comes first, so that its memory is taken
 * before the profile's (see DRAWING_RESERVE_BYTES). */
static void warm_fonts(const char *input, const char *fonts_conf) {
  struct stat st;
  int big = input && strcmp(input, "-") && stat(input, &st) == 0 &&
            st.st_size > BIG_INPUT_BYTES;
  if (big)
    prepare_fonts((void *)(uintptr_t)fonts_conf);
  else
    font_thread_started = pthread_create(&font_thread, NULL, prepare_fonts,
                                         (void *)(uintptr_t)fonts_conf) == 0;
}

/* Every watch update allocates and frees the same big arrays (a band
 * matrix and per-sample coordinates: megabytes for a long profile).  glibc
 * would hand them back to the kernel each time and the next update would
 * fault them in afresh: a watcher keeps them instead.  Its peak memory is
 * what one update needs anyway, provided the memory kept is shared: glibc
 * gives threads arenas of their own (up to 8 a core), each keeping what
 * its threads freed, so a served watch, whose pictures are drawn on
 * threads that come and go, would keep a picture's peak once per arena,
 * its memory growing in steps hours into a run.  Two arenas, one a core
 * of this machine kind, are what its threads need at once. */
static void keep_freed_memory(void) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
#if defined(M_ARENA_MAX)
  mallopt(M_ARENA_MAX, 2);
#endif
}

/* A run that is not a watch reads its input's parts on other threads,
 * each into a profile of its own freed once taken: glibc, seeing big
 * blocks freed, raises the size from which it maps blocks of their own
 * (up to 32 MiB), and the parts' next blocks come from the threads'
 * arenas, which keep what was freed: 9 MB more at the peak reading the
 * 1.6 GB eventlog of bench/memgen.c with --jobs=2 (bench/RESULTS.md, 14k).
 * Setting the threshold, to glibc's first value, keeps it there. */
static void steady_mmap_threshold(void) {
#if defined(M_MMAP_THRESHOLD)
  mallopt(M_MMAP_THRESHOLD, 128 << 10);
#endif
}

/* The let-go thread's work, in order (guarded by let_go.lock): files to
 * close (tuning_let_go_file: to < 0) and writebacks to start
 * (tuning_write_back: bytes [from, to) of fd, a copy closed after). */
enum { LET_GO_MAX = 16 };
typedef struct let_go_job {
  int fd;
  long long from, to;
} let_go_job;
static struct {
  int planned, started, done;
  pthread_t id;
  pthread_mutex_t lock;
  pthread_cond_t more;
  let_go_job job[LET_GO_MAX]; /* a ring: n from head */
  size_t head, n;
} let_go = {.lock = PTHREAD_MUTEX_INITIALIZER,
            .more = PTHREAD_COND_INITIALIZER};

/* The writeback seam: Linux's sync_file_range, which starts the writing
 * of a range's dirty pages and returns (it waits only where the device's
 * queue is full); elsewhere, and under PORTABLE=1, nothing: the file is
 * written back when the system decides (or, replacing a file on ext4 or
 * btrfs, in the rename). */
static void let_go_do(const let_go_job *j) {
#if defined(SYNC_FILE_RANGE_WRITE)
  if (j->to >= 0)
    (void)sync_file_range(j->fd, (off_t)j->from, (off_t)(j->to - j->from),
                          SYNC_FILE_RANGE_WRITE);
#endif
  close(j->fd);
}

static void *let_go_loop(void *arg) {
  (void)arg;
  pthread_mutex_lock(&let_go.lock);
  for (;;) {
    while (!let_go.n && !let_go.done)
      pthread_cond_wait(&let_go.more, &let_go.lock);
    if (!let_go.n) break;
    let_go_job j = let_go.job[let_go.head];
    let_go.head = (let_go.head + 1) % LET_GO_MAX;
    let_go.n--;
    pthread_mutex_unlock(&let_go.lock);
    let_go_do(&j);
    pthread_mutex_lock(&let_go.lock);
  }
  pthread_mutex_unlock(&let_go.lock);
  return NULL;
}

/* Starts the let-go thread with every signal blocked (the caller's
 * handlers run on the caller's threads). */
static int let_go_start(void) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int ok = pthread_create(&let_go.id, NULL, let_go_loop, NULL) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return ok;
}

/* Hands j to the let-go thread (started by the first job, when planned);
 * 0 when it cannot take it: the caller does it. */
static int let_go_queue(let_go_job j) {
  pthread_mutex_lock(&let_go.lock);
  int queued = 0;
  if (let_go.planned && !let_go.started && !let_go.done)
    let_go.started = let_go_start() ? 1 : -1;
  if (let_go.started == 1 && !let_go.done && let_go.n < LET_GO_MAX) {
    let_go.job[(let_go.head + let_go.n++) % LET_GO_MAX] = j;
    pthread_cond_signal(&let_go.more);
    queued = 1;
  }
  pthread_mutex_unlock(&let_go.lock);
  return queued;
}

void tuning_let_go_file(int fd) {
  if (fd < 0) return;
  if (!let_go_queue((let_go_job){fd, 0, -1})) close(fd);
}

void tuning_write_back(int fd, long long from, long long to) {
#if defined(SYNC_FILE_RANGE_WRITE)
  if (!let_go.planned || from < 0 || to <= from) return;
  int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy >= 0 && !let_go_queue((let_go_job){copy, from, to})) close(copy);
#else
  (void)fd, (void)from, (void)to;
#endif
}

int tuning_lets_go_beside(void) { return let_go.planned; }

/* Waits for the let-go thread to do what it was given. */
static void let_go_finish(void) {
  pthread_mutex_lock(&let_go.lock);
  let_go.done = 1;
  pthread_cond_signal(&let_go.more);
  int started = let_go.started == 1;
  pthread_mutex_unlock(&let_go.lock);
  if (started) pthread_join(let_go.id, NULL);
}

void tuning_apply(const tuning_plan *plan) {
  assert(!applied);
  applied = 1;
  if (plan->keep_freed_memory)
    keep_freed_memory();
  else
    steady_mmap_threshold();
  if (plan->warm_fonts) warm_fonts(plan->input, plan->fonts_conf);
  if (plan->hold_reserve) drawing_reserve = malloc(DRAWING_RESERVE_BYTES);
  let_go.planned = plan->let_go_beside;
}

void tuning_release_reserve(void) {
  free(drawing_reserve);
  drawing_reserve = NULL;
}

void tuning_finish(void) {
  if (font_thread_started) pthread_join(font_thread, NULL);
  font_thread_started = 0;
  let_go_finish();
  tuning_release_reserve();
}
