/* outset.c -- the tool's output set: each output goes to a temporary file
 * beside its target (the library's hp2x_outfile), and the set's files are
 * renamed into place together once all are written, so that a failure
 * leaves none of them; "-" is standard output.  On a fatal signal the
 * temporary files of the set being written are removed.
 */
#include "outset.h"

#include "messages.h"
#include "tool.h"
#include "tool_support.h"

#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Temporary files a fatal signal must remove. */
static char cleanup_path[OUTSET_MAX_FILES][4096];

static void set_cleanup(size_t slot, const char *temp_path) {
  cleanup_path[slot][0] = '\0';
  if (temp_path && strlen(temp_path) < sizeof cleanup_path[slot])
    memcpy(cleanup_path[slot], temp_path, strlen(temp_path) + 1);
}

static void on_fatal_signal(int sig) {
  for (size_t i = 0; i < OUTSET_MAX_FILES; i++)
    if (cleanup_path[i][0]) unlink(cleanup_path[i]);
  signal(sig, SIG_DFL);
  raise(sig);
}

void outset_catch_signals(void) {
  signal(SIGINT, on_fatal_signal);
  signal(SIGTERM, on_fatal_signal);
  signal(SIGHUP, on_fatal_signal);
}

static int write_stdout(void *closure, const void *buf, size_t len) {
  (void)closure;
  if (len && fwrite(buf, 1, len, stdout) != len) return -1;
  return 0;
}

/* Removes the temporary files f[from..to). */
static void abort_files(hp2x_outfile **f, size_t from, size_t to) {
  for (size_t j = from; j < to; j++) {
    if (f[j]) hp2x_outfile_abort(f[j]);
    f[j] = NULL;
    set_cleanup(j, NULL);
  }
}

static int report_failure(const char *path, const hp2x_err *err,
                          int arg_is_usage) {
  msg_report(strcmp(path, "-") ? path : "<stdout>", err, NULL);
  return arg_is_usage && err->code == HP2X_E_ARG ? EXIT_USAGE
                                                 : EXIT_BAD_INPUT;
}

/* Output i of the set, to standard output or into *f (a temporary file). */
static hp2x_status fill_one(const char *path, size_t i, hp2x_outfile **f,
                            outset_fill_fn fill, void *ctx, hp2x_err *err) {
  if (!strcmp(path, "-")) {
    hp2x_status st = fill(ctx, i, write_stdout, NULL, err);
    if (st == HP2X_OK && fflush(stdout) != 0) {
      st = err->code = HP2X_E_IO;
      snprintf(err->msg, sizeof err->msg, "write failed: %s",
               strerror(errno));
    }
    return st;
  }
  hp2x_status st = hp2x_outfile_open(path, f, err);
  if (st != HP2X_OK) return st;
  set_cleanup(i, hp2x_outfile_temp_path(*f));
  return fill(ctx, i, hp2x_outfile_write, *f, err);
}

int outset_write(const char *const *paths, size_t n, outset_fill_fn fill,
                 void *ctx, int arg_is_usage) {
  assert(n >= 1 && n <= OUTSET_MAX_FILES);
  hp2x_outfile *f[OUTSET_MAX_FILES] = {NULL};
  hp2x_err err;
  for (size_t i = 0; i < n; i++) {
    hp2x_err_init(&err);
    if (fill_one(paths[i], i, &f[i], fill, ctx, &err) != HP2X_OK) {
      abort_files(f, 0, i + 1);
      return report_failure(paths[i], &err, arg_is_usage);
    }
  }
  /* Every file written out and closed before any is renamed: a late
   * write failure (the .aux's last bytes on a full disk) leaves none. */
  for (size_t i = 0; i < n; i++) {
    hp2x_err_init(&err);
    if (f[i] && hp2x_outfile_finish(f[i], &err) != HP2X_OK) {
      abort_files(f, 0, n);
      return report_failure(paths[i], &err, arg_is_usage);
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (!f[i]) continue;
    hp2x_err_init(&err);
    hp2x_status st = hp2x_outfile_commit(f[i], &err);
    f[i] = NULL;
    set_cleanup(i, NULL);
    if (st != HP2X_OK) {
      abort_files(f, i + 1, n);
      return report_failure(paths[i], &err, arg_is_usage);
    }
  }
  return EXIT_OK;
}
