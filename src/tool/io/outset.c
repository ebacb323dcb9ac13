/* outset.c -- the tool's output set: each output goes to a temporary file
 * beside its target (outfile.c), and the set's files are renamed into place
 * together once all are written, so that a failure leaves none of them; "-" is
 * standard output.  On a fatal signal the temporary files of the set being
 * written are removed: their paths are published to the handler through
 * lock-free atomics, with the signals blocked in this thread while a path
 * changes.
 */
#include "outset.h"

#include "outfile.h"
#include "util/messages.h"
#include "util/status.h"

#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Temporary files a fatal signal must remove.  A slot's path is read by
 * the handler only while its state is SLOT_ARMED, and written only while
 * it is SLOT_CHANGING, with the fatal signals blocked in the writing
 * thread; a handler running on another thread meanwhile waits for the
 * change to end. */
enum { SLOT_IDLE, SLOT_CHANGING, SLOT_ARMED };
_Static_assert(ATOMIC_INT_LOCK_FREE == 2,
               "signal handlers need lock-free atomic ints");
static char cleanup_path[OUTSET_MAX_FILES][4096];
static atomic_int cleanup_state[OUTSET_MAX_FILES];

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { N_FATAL = sizeof fatal_signals / sizeof fatal_signals[0] };

/* Opens a change of slot's path: blocks the fatal signals in this thread
 * (saving the mask in *old). */
static void begin_change(size_t slot, sigset_t *old) {
  sigset_t block;
  sigemptyset(&block);
  for (int i = 0; i < N_FATAL; i++) sigaddset(&block, fatal_signals[i]);
  pthread_sigmask(SIG_BLOCK, &block, old);
  atomic_store(&cleanup_state[slot], SLOT_CHANGING);
}

/* Ends the change: slot now names temp_path (NULL: nothing). */
static void end_change(size_t slot, const char *temp_path,
                       const sigset_t *old) {
  int armed = temp_path && strlen(temp_path) < sizeof cleanup_path[slot];
  if (armed) memcpy(cleanup_path[slot], temp_path, strlen(temp_path) + 1);
  atomic_store(&cleanup_state[slot], armed ? SLOT_ARMED : SLOT_IDLE);
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

void outset_die_of_signal(int sig) {
  for (size_t i = 0; i < OUTSET_MAX_FILES; i++) {
    int state;
    while ((state = atomic_load(&cleanup_state[i])) == SLOT_CHANGING) {
    }
    if (state == SLOT_ARMED) unlink(cleanup_path[i]);
  }
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  raise(sig); /* blocked in this handler: delivered when it returns */
}

void outset_catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = outset_die_of_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < N_FATAL; i++) sigaddset(&sa.sa_mask, fatal_signals[i]);
  sa.sa_flags = SA_RESTART;
  for (int i = 0; i < N_FATAL; i++) {
    struct sigaction was;
    /* Ignored from the start (nohup): stays ignored. */
    if (sigaction(fatal_signals[i], NULL, &was) == 0 &&
        was.sa_handler == SIG_IGN)
      continue;
    sigaction(fatal_signals[i], &sa, NULL);
  }
}

/* What the last outset_write came to, and its failure, if any, to say
 * only once while it repeats (outset_quiet_repeats). */
static outset_outcome last_outcome = OUTSET_WRITTEN;
static int quiet_repeats;
static char last_failure[4096 + 256];

static int write_stdout(void *closure, const void *buf, size_t len) {
  (void)closure;
  if (len && fwrite(buf, 1, len, stdout) != len) return -1;
  return 0;
}

/* Removes the temporary files f[from..to). */
static void abort_files(outfile **f, size_t from, size_t to) {
  for (size_t j = from; j < to; j++) {
    sigset_t old;
    begin_change(j, &old);
    if (f[j]) outfile_abort(f[j]);
    f[j] = NULL;
    end_change(j, NULL, &old);
  }
}

static int report_failure(const char *path, const hp2x_err *err,
                          outset_arg_failure arg) {
  const char *shown = strcmp(path, "-") ? path : "<stdout>";
  last_outcome = err->code == HP2X_E_IO ? OUTSET_OUTPUT_FAILED
                                        : OUTSET_OTHER_FAILED;
  char said[sizeof last_failure];
  snprintf(said, sizeof said, "%s\n%s", shown, err->msg);
  if (!quiet_repeats || strcmp(said, last_failure) != 0)
    msg_report(shown, err, NULL);
  memcpy(last_failure, said, sizeof said);
  return arg == OUTSET_ARG_IS_USAGE ? msg_exit_status(err->code)
                                    : EXIT_BAD_INPUT;
}

void outset_quiet_repeats(void) { quiet_repeats = 1; }

outset_outcome outset_last_outcome(void) { return last_outcome; }

/* Output i of the set, to standard output or into *f (a temporary file). */
static hp2x_status fill_one(const char *path, size_t i, outfile **f,
                            outset_fill_fn fill, void *ctx, hp2x_err *err) {
  if (!strcmp(path, "-")) {
    hp2x_status st = fill(ctx, i, write_stdout, NULL, err);
    if (st == HP2X_OK && fflush(stdout) != 0) {
      st = err->code = HP2X_E_IO;
      snprintf(err->msg, sizeof err->msg, "write failed: %s", strerror(errno));
    }
    return st;
  }
  sigset_t old;
  begin_change(i, &old);
  hp2x_status st = outfile_open(path, f, err);
  end_change(i, st == HP2X_OK ? outfile_temp_path(*f) : NULL, &old);
  if (st != HP2X_OK) return st;
  return fill(ctx, i, outfile_write, *f, err);
}

int outset_write(const char *const *paths, size_t n, outset_fill_fn fill,
                 void *ctx, outset_arg_failure arg) {
  assert(n >= 1 && n <= OUTSET_MAX_FILES);
  outfile *f[OUTSET_MAX_FILES] = {NULL};
  hp2x_err err;
  for (size_t i = 0; i < n; i++) {
    hp2x_err_init(&err);
    if (fill_one(paths[i], i, &f[i], fill, ctx, &err) != HP2X_OK) {
      abort_files(f, 0, i + 1);
      return report_failure(paths[i], &err, arg);
    }
  }
  /* Every file written out and closed before any is renamed: a late
   * write failure (the .aux's last bytes on a full disk) leaves none. */
  for (size_t i = 0; i < n; i++) {
    hp2x_err_init(&err);
    if (f[i] && outfile_finish(f[i], &err) != HP2X_OK) {
      abort_files(f, 0, n);
      return report_failure(paths[i], &err, arg);
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (!f[i]) continue;
    hp2x_err_init(&err);
    sigset_t old;
    begin_change(i, &old);
    hp2x_status st = outfile_commit(f[i], &err);
    f[i] = NULL;
    end_change(i, NULL, &old);
    if (st != HP2X_OK) {
      abort_files(f, i + 1, n);
      return report_failure(paths[i], &err, arg);
    }
  }
  last_outcome = OUTSET_WRITTEN;
  last_failure[0] = '\0';
  return EXIT_OK;
}
