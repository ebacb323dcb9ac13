/* run_watch.c -- watch mode: follows a profile that is still being
 * written and re-renders it whenever new complete samples arrive, at most
 * once per --interval.  The parser and its model live across updates, so
 * each update reads and parses only the new bytes, and a follower (the
 * library's hp2x_follower) keeps the bands, so it selects and draws at the
 * cost of the new samples.  Outputs go through selection.c and the atomic
 * output set.  Wakes on inotify (Linux), else polls; a shrinking or
 * replaced file starts over; SIGINT/SIGTERM, an eventlog's end-of-data
 * marker or --idle-exit end the run after a final render.
 */
#define _GNU_SOURCE 1
#include "run.h"

#include "inputs.h"
#include "messages.h"
#include "outset.h"
#include "selection.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { READ_CHUNK = 1 << 16 };

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig) {
  (void)sig;
  stop_requested = 1;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct watch_state {
  const tool_args *a;
  int fd;                 /* the input; -1 while it does not exist */
  int is_stream;          /* standard input / FIFO: no seeking or stat */
  dev_t dev;              /* identity of the open file, to see replacement */
  ino_t ino;
  long long offset;       /* bytes read and fed */
  hp2x_parser *parser;    /* owned */
  hp2x_follower *follow;  /* the parser's growing profile's bands; owned */
  long generation;        /* restarts so far */
  size_t rendered_samples; /* samples in the last render; (size_t)-1 none */
  long rendered_generation;
  double last_render_s;
  double last_growth_s;
  long renders;
  long long last_output_bytes;
  int status_line;        /* stderr is a terminal and not --quiet */
  int eof;                /* stream input ended */
  int inotify_fd;         /* the directory's inotify; -1 none (polls) */
} watch_state;

static void show_status(watch_state *w, const char *what) {
  if (!w->status_line) return;
  const hp2x_profile *p = hp2x_parser_peek(w->parser);
  fprintf(stderr, "\r\033[Khp2x: %s: %zu samples, %lld bytes read, %ld "
          "renders, output %lld bytes%s%s",
          w->a->input_display, hp2x_profile_sample_count(p), w->offset,
          w->renders, w->last_output_bytes, what ? " - " : "",
          what ? what : "");
  fflush(stderr);
}

static int new_parser(watch_state *w) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser_free(w->parser);
  w->parser = hp2x_parser_new(w->a->input_display, &w->a->parse, &err);
  if (!w->parser) {
    msg_report(w->a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  hp2x_follower_reset(w->follow); /* a new profile */
  w->offset = 0;
  w->generation++;
  return EXIT_OK;
}

/* (Re)opens the input when it appeared, was replaced or shrank. */
static int check_input_file(watch_state *w) {
  if (w->is_stream) return EXIT_OK;
  struct stat st;
  if (stat(w->a->input, &st) != 0) return EXIT_OK; /* gone: wait for it */
  int had_file = w->fd >= 0; /* not the first open */
  int replaced = !had_file || st.st_dev != w->dev || st.st_ino != w->ino;
  int shrank = !replaced && st.st_size < w->offset;
  if (!replaced && !shrank) return EXIT_OK;
  if (replaced) {
    if (w->fd >= 0) close(w->fd);
    w->fd = open(w->a->input, O_RDONLY | O_CLOEXEC);
    if (w->fd < 0) return EXIT_OK;
    struct stat fst;
    if (fstat(w->fd, &fst) == 0) {
      w->dev = fst.st_dev;
      w->ino = fst.st_ino;
    }
  } else {
    lseek(w->fd, 0, SEEK_SET);
  }
  if (had_file && !w->a->quiet && !w->status_line)
    msg_errorf("%s: %s; starting over", w->a->input_display,
               replaced ? "file replaced" : "file shrank");
  w->last_growth_s = now_s();
  return new_parser(w);
}

/* Reads and feeds whatever is new.  Returns an exit status, or -1 to go
 * on. */
static int read_new_bytes(watch_state *w, unsigned char *buf) {
  if (w->fd < 0) return -1;
  for (;;) {
    ssize_t n = read(w->fd, buf, READ_CHUNK);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return -1;
      msg_errorf("%s: read failed: %s", w->a->input_display, strerror(errno));
      return EXIT_BAD_INPUT;
    }
    if (n == 0) {
      if (w->is_stream) w->eof = 1;
      return -1;
    }
    hp2x_err err;
    hp2x_err_init(&err);
    if (hp2x_parser_feed(w->parser, buf, (size_t)n, &err) != HP2X_OK) {
      if (w->status_line) fputc('\n', stderr);
      msg_report(w->a->input_display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    w->offset += n;
    w->last_growth_s = now_s();
  }
}

static int render_update(watch_state *w, const hp2x_profile *p) {
  size_t n = hp2x_profile_sample_count(p);
  if (w->rendered_generation == w->generation && w->rendered_samples == n)
    return EXIT_OK; /* never the same data twice */
  if (hp2x_profile_job(p)[0] == '\0' && n == 0) return EXIT_OK; /* no header */
  /* An eventlog whose program has not begun its heap profile yet. */
  if (!hp2x_profile_has_heap_profile(p)) return EXIT_OK;
  int rc = selection_write_outputs(w->a, p, NULL, w->follow);
  if (rc != EXIT_OK) return rc;
  w->rendered_samples = n;
  w->rendered_generation = w->generation;
  w->last_render_s = now_s();
  w->renders++;
  struct stat st;
  if (stat(w->a->output, &st) == 0) w->last_output_bytes = st.st_size;
  show_status(w, NULL);
  return EXIT_OK;
}

/* The last render, from the finished parse (an incomplete sample dropped). */
static int render_final(watch_state *w) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  if (hp2x_parser_finish(w->parser, &p, &err) != HP2X_OK) {
    if (w->status_line) fputc('\n', stderr);
    /* A header still incomplete at the end: nothing to draw. */
    msg_report(w->a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  int rc = render_update(w, p);
  if (w->status_line) {
    show_status(w, "done");
    fputc('\n', stderr);
  }
  inputs_warn_profile(w->a, w->a->input_display, p);
  hp2x_profile_free(p);
  return rc;
}

static int setup_inotify(const char *input) {
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return -1;
  /* Watch the directory, so creation and replacement are seen too. */
  char *dir = strdup(input);
  if (!dir) {
    close(fd);
    return -1;
  }
  char *slash = strrchr(dir, '/');
  const char *d = ".";
  if (slash) {
    *slash = '\0';
    d = slash == dir ? "/" : dir;
  }
  int wd = inotify_add_watch(fd, d,
                             IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE |
                                 IN_MOVED_TO | IN_DELETE | IN_ATTRIB);
  free(dir);
  if (wd < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static void drain(int fd) {
  char buf[4096];
  while (read(fd, buf, sizeof buf) > 0) {
  }
}

/* The state before the first read: the follower, the first parser and,
 * for a stream, its descriptor.  Returns an exit status, reported. */
static int start_watch(watch_state *w, const tool_args *a) {
  memset(w, 0, sizeof *w);
  w->a = a;
  w->fd = -1;
  w->inotify_fd = -1;
  w->rendered_samples = (size_t)-1;
  w->rendered_generation = -1;
  w->status_line = !a->quiet && isatty(STDERR_FILENO);
  w->is_stream = !strcmp(a->input, "-");
  if (!w->is_stream) {
    struct stat st;
    if (stat(a->input, &st) == 0 && S_ISFIFO(st.st_mode)) w->is_stream = 1;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  w->follow = hp2x_follower_new(&err);
  if (!w->follow) {
    msg_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  int rc = new_parser(w);
  if (w->is_stream) {
    w->fd = strcmp(a->input, "-") ? open(a->input, O_RDONLY | O_CLOEXEC)
                                   : STDIN_FILENO;
    if (w->fd < 0) {
      msg_errorf("%s: cannot open: %s", a->input, strerror(errno));
      rc = EXIT_BAD_INPUT;
    } else {
      fcntl(w->fd, F_SETFL, fcntl(w->fd, F_GETFL) | O_NONBLOCK);
    }
  }
  w->inotify_fd = w->is_stream ? -1 : setup_inotify(a->input);
  w->last_growth_s = now_s();
  return rc;
}

/* Sleeps until something changes, `wait_s` (the rest of the interval, or
 * 0 for a whole one) ends, or the idle timeout; with no inotify, polls at
 * the interval. */
static void wait_for_change(watch_state *w, double wait_s) {
  const tool_args *a = w->a;
  double sleep_s = wait_s > 0 ? wait_s : a->interval_s;
  if (a->idle_exit_s > 0) {
    double idle_left = a->idle_exit_s - (now_s() - w->last_growth_s);
    if (idle_left < sleep_s) sleep_s = idle_left > 0 ? idle_left : 0;
  }
  struct pollfd pfd = {w->is_stream ? w->fd : w->inotify_fd, POLLIN, 0};
  int timeout_ms = (int)(sleep_s * 1000.0) + 1;
  if (pfd.fd >= 0) {
    if (poll(&pfd, 1, timeout_ms) > 0 && !w->is_stream) drain(w->inotify_fd);
    /* Rate limit: even when woken early, render no more often than
     * --interval (reading goes on at once). */
  } else {
    struct timespec ts = {(time_t)sleep_s,
                          (long)((sleep_s - (double)(time_t)sleep_s) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

/* One turn of the watch: reads what is new, renders when due, then waits.
 * Returns an exit status when the run is over, else -1. */
static int advance_watch(watch_state *w, unsigned char *buf) {
  const tool_args *a = w->a;
  int rc = check_input_file(w);
  if (rc != EXIT_OK) return rc;
  rc = read_new_bytes(w, buf);
  if (rc >= 0) return rc;
  double t = now_s();
  int ended = stop_requested || w->eof || hp2x_parser_at_end(w->parser) ||
              (a->idle_exit_s > 0 && t - w->last_growth_s >= a->idle_exit_s);
  if (ended) return render_final(w);
  double wait_s = 0.0;
  if (t - w->last_render_s >= a->interval_s || w->renders == 0) {
    rc = render_update(w, hp2x_parser_peek(w->parser));
    if (rc != EXIT_OK) return rc;
  } else {
    wait_s = a->interval_s - (t - w->last_render_s);
  }
  wait_for_change(w, wait_s);
  return -1;
}

static void stop_watch(watch_state *w) {
  if (w->inotify_fd >= 0) close(w->inotify_fd);
  if (w->fd >= 0 && w->fd != STDIN_FILENO) close(w->fd);
  hp2x_parser_free(w->parser);
  hp2x_follower_free(w->follow);
}

int run_watch(tool_args *a) {
  outset_catch_signals();
  hp2x_aux *aux;
  int rc = inputs_attach_aux(a, &aux);
  if (rc != EXIT_OK) {
    inputs_release_aux(a, &aux);
    return rc;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  unsigned char *buf = malloc(READ_CHUNK);
  rc = EXIT_BAD_INPUT;
  if (!buf) {
    msg_errorf("out of memory");
  } else {
    watch_state w;
    rc = start_watch(&w, a);
    while (rc == EXIT_OK && (rc = advance_watch(&w, buf)) < 0)
      rc = EXIT_OK;
    stop_watch(&w);
  }
  free(buf);
  inputs_release_aux(a, &aux);
  return rc;
}
