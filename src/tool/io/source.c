/* source.c -- the input a watch reads as it grows.  A file is opened when
 * it appears and read from where the last read ended; one replaced (a new
 * inode) or shrunk is read again from its start; one that cannot be opened
 * or is deleted is said once and waited out.  Standard input and a FIFO
 * are streams: read only what poll says is there, ended by their end.  A
 * service (unix:PATH, tcp:HOST:PORT; connect.c) is read as a pipe is:
 * until it is up, connecting is tried again each retry_s; its closing the
 * connection (or dropping it) is its end.  Standard input's file status
 * flags are never changed.  Waits go through wakeup.c (inotify on the
 * file's directory, else polling; stop signals wake them at once).
 */
#include "source.h"

#include "wakeup.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Says what is wrong with the input, unless that was the last thing said
 * about it; `problem` NULL: the input is fine again. */
static void note_input_problem(source *s, const char *problem) {
  if (!problem) {
    s->problem[0] = '\0';
    return;
  }
  if (!strcmp(problem, s->problem)) return;
  size_t n = strlen(problem); /* kept whole up to the buffer's size */
  if (n >= sizeof s->problem) n = sizeof s->problem - 1;
  memcpy(s->problem, problem, n);
  s->problem[n] = '\0';
  msg_note(s->spec.notes, "%s: %s", s->spec.display, problem);
}

/* The input cannot be opened for `reason` (an errno). */
static void note_cannot_open(source *s, int reason) {
  s->open_errno = reason;
  char problem[256];
  snprintf(problem, sizeof problem, "cannot open: %s; waiting for it",
           strerror(reason));
  note_input_problem(s, problem);
}

/* A service not connected yet: tries once a retry_s (at once the first
 * time); says once that it is not up.  Returns an exit status: an address
 * that can never be reached, or without keep_trying one not up, ends the
 * run. */
static int check_service(source *s, source_change *change) {
  if (s->fd >= 0 || s->eof) return EXIT_OK;
  double t = wakeup_now_s();
  if (s->last_try_s > 0 && t - s->last_try_s < s->spec.retry_s) return EXIT_OK;
  s->last_try_s = t;
  int not_up = 0;
  s->fd = connect_open(s->spec.service, &not_up, s->connect_problem,
                       sizeof s->connect_problem);
  if (s->fd >= 0) {
    s->fd_is_ours = 1;
    s->ever_connected = 1;
    *change = SOURCE_CONNECTED;
    if (s->problem[0])
      msg_note(s->spec.notes, "%s: connected", s->spec.display);
    note_input_problem(s, NULL);
    return EXIT_OK;
  }
  if (wakeup_stop_signal()) return EXIT_OK;
  if (!not_up || !s->spec.keep_trying) {
    msg_errorf("%s: cannot connect: %s", s->spec.display, s->connect_problem);
    return EXIT_BAD_INPUT;
  }
  char problem[400];
  snprintf(problem, sizeof problem, "not up yet (%s); trying again every %g s",
           s->connect_problem, s->spec.retry_s);
  note_input_problem(s, problem);
  return EXIT_OK;
}

/* Opens the file anew (it appeared, or was replaced): 0, or -1 (said). */
static int reopen_file(source *s) {
  int fd = open(s->spec.path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    note_cannot_open(s, errno);
    return -1;
  }
  if (s->fd >= 0) close(s->fd);
  s->fd = fd;
  s->fd_is_ours = 1;
  struct stat fst;
  if (fstat(s->fd, &fst) == 0) {
    s->dev = fst.st_dev;
    s->ino = fst.st_ino;
  }
  return 0;
}

int source_check(source *s, source_change *change) {
  *change = SOURCE_SAME;
  if (s->spec.service->kind != CONNECT_NONE) return check_service(s, change);
  if (s->is_stream) return EXIT_OK;
  struct stat st;
  if (stat(s->spec.path, &st) != 0) {
    if (errno == ENOENT && s->fd >= 0)
      note_input_problem(s, "deleted; the last picture stays, waiting for "
                            "a new file");
    else
      note_cannot_open(s, errno);
    return EXIT_OK;
  }
  if (S_ISDIR(st.st_mode)) {
    note_cannot_open(s, EISDIR);
    return EXIT_OK;
  }
  int had_file = s->fd >= 0; /* not the first open */
  int replaced = !had_file || st.st_dev != s->dev || st.st_ino != s->ino;
  int shrank = !replaced && st.st_size < s->offset;
  if (!replaced && !shrank) {
    note_input_problem(s, NULL);
    return EXIT_OK;
  }
  if (replaced && reopen_file(s) != 0) return EXIT_OK;
  if (!replaced) lseek(s->fd, 0, SEEK_SET);
  note_input_problem(s, NULL);
  if (had_file)
    msg_note(s->spec.notes, "%s: %s; starting over", s->spec.display,
             replaced ? "file replaced" : "file shrank");
  s->offset = 0;
  *change = SOURCE_RESTARTED;
  return EXIT_OK;
}

source_read_result source_read(source *s, unsigned char *buf, size_t size,
                               size_t *n) {
  *n = 0;
  if (s->fd < 0) return SOURCE_NONE;
  if (s->is_stream) {
    /* Standard input stays blocking (its flags are shared with the
     * process that gave it): read only what poll says is there. */
    struct pollfd pfd = {s->fd, POLLIN, 0};
    int r = poll(&pfd, 1, 0);
    if (r < 0 && errno == EINTR) return SOURCE_AGAIN;
    if (r == 0) return SOURCE_NONE;
  }
  ssize_t k = read(s->fd, buf, size);
  if (k < 0 && source_is_service(s) && errno == ECONNRESET)
    k = 0; /* the service dropped us: as closing */
  if (k < 0) {
    if (errno == EINTR) return SOURCE_AGAIN;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return SOURCE_NONE;
    msg_errorf("%s: read failed: %s", s->spec.display, strerror(errno));
    return SOURCE_FAILED;
  }
  if (k == 0) {
    if (s->is_stream) s->eof = 1;
    return SOURCE_NONE;
  }
  *n = (size_t)k;
  s->offset += k;
  return SOURCE_DATA;
}

int source_at_file_start(const source *s) {
  return s->fd >= 0 && !s->is_stream && s->offset == 0;
}

void source_consumed(source *s, long long n) { s->offset += n; }

int source_end(const source *s) {
  const msg_notes *n = s->spec.notes;
  if (source_is_service(s) && !s->ever_connected) {
    if (n->quiet || !s->spec.keep_trying)
      msg_errorf("%s: cannot connect: %s", s->spec.display,
                 s->connect_problem[0] ? s->connect_problem : "stopped");
    return EXIT_BAD_INPUT;
  }
  if (!s->is_stream && s->fd < 0) {
    /* Never opened: said already, unless --quiet. */
    if (n->quiet)
      msg_errorf("%s: cannot open: %s", s->spec.display,
                 strerror(s->open_errno ? s->open_errno : ENOENT));
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

int source_is_service(const source *s) {
  return s->spec.service->kind != CONNECT_NONE;
}

/* Opens the FIFO: open() blocks until a writer opens it, or a stop signal
 * interrupts it.  (One that comes between the check and the call is seen
 * only when a writer comes: POSIX leaves a reader that opens without
 * blocking unable to tell "no writer yet" from the end.)  Returns an exit
 * status, reported. */
static int open_fifo(source *s) {
  errno = 0;
  while (!wakeup_stop_signal() &&
         (s->fd = open(s->spec.path, O_RDONLY | O_CLOEXEC)) < 0 &&
         errno == EINTR) {
  }
  if (s->fd < 0 && (errno == EINTR || errno == 0)) {
    s->eof = 1; /* stopped before any writer came */
  } else if (s->fd < 0) {
    msg_errorf("%s: cannot open: %s", s->spec.path, strerror(errno));
    return EXIT_BAD_INPUT;
  } else {
    s->fd_is_ours = 1;
  }
  return EXIT_OK;
}

int source_open(source *s, const source_spec *spec) {
  memset(s, 0, sizeof *s);
  s->spec = *spec;
  s->fd = -1;
  s->change_fd = -1;
  int is_stdin = !strcmp(spec->path, "-");
  struct stat st;
  s->is_stream = is_stdin || source_is_service(s) ||
                 (stat(spec->path, &st) == 0 && S_ISFIFO(st.st_mode));
  int rc = EXIT_OK;
  source_change change;
  if (source_is_service(s))
    rc = check_service(s, &change); /* the first try */
  else if (s->is_stream && !is_stdin)
    rc = open_fifo(s);
  else if (s->is_stream)
    s->fd = STDIN_FILENO;
  else
    s->change_fd = wakeup_watch_directory_of(spec->path);
  return rc;
}

void source_wait(const source *s, double timeout_s) {
  wakeup_wait(s->change_fd, s->is_stream && !s->eof ? s->fd : -1, timeout_s);
}

void source_close(source *s) {
  wakeup_unwatch(s->change_fd);
  s->change_fd = -1;
  if (s->fd >= 0 && s->fd_is_ours) close(s->fd);
  s->fd = -1;
}
