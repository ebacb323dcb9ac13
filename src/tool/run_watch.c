/* run_watch.c -- watch mode: follows a profile that is still being
 * written and re-renders it whenever new complete samples arrive, at most
 * once per --interval.  The parser and its model live across updates, so
 * each update reads and parses only the new bytes, and a follower (the
 * library's hp2x_follower) keeps the bands, so it selects and draws at the
 * cost of the new samples.  Outputs go through selection.c and the atomic
 * output set.  Waits through wakeup.c (inotify, else polling; stop signals
 * wake it at once); a shrinking or replaced file starts over; an input
 * that cannot be opened or is deleted, and an output that cannot be
 * written, are said once and waited out; SIGINT/SIGTERM/SIGHUP, an
 * eventlog's end-of-data marker or --idle-exit end the run after a final
 * render.  Standard input's file status flags are never changed.
 * A service (unix:PATH, tcp:HOST:PORT; connect.c) is read as a pipe is:
 * until it is up, connecting is tried again each interval; its closing the
 * connection ends the run; --tee copies what it sends as it comes and is
 * cut back to the last whole event at the end.  Without --watch a service
 * is read the same way and drawn once, at its end.
 */
#include "run.h"

#include "connect.h"
#include "inputs.h"
#include "messages.h"
#include "outset.h"
#include "selection.h"
#include "serve.h"
#include "wakeup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { READ_CHUNK = 1 << 16 };

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct watch_state {
  const tool_args *a;
  int fd;         /* the input; -1 while it does not exist */
  int is_stream;  /* standard input / FIFO: no seeking or stat */
  int fd_is_ours; /* fd was opened here (else standard input) */
  dev_t dev;      /* identity of the open file, to see replacement */
  ino_t ino;
  long long offset;        /* bytes read and fed */
  hp2x_parser *parser;     /* owned */
  hp2x_follower *follow;   /* the parser's growing profile's bands; owned */
  long generation;         /* restarts so far */
  size_t rendered_samples; /* samples in the last render; (size_t)-1 none */
  long rendered_generation;
  double last_render_s;
  double last_growth_s;
  long renders;
  long long last_output_bytes;
  int status_line;           /* stderr is a terminal and not --quiet */
  int eof;                   /* stream input ended */
  int change_fd;             /* wakeup.c's directory watch; -1 none (polls) */
  char input_problem[320];   /* what was last said about the input ("" none),
                                so that each problem is said once */
  int open_errno;            /* why the input could not be opened; 0 none */
  int output_failing;        /* the last render's output could not be written */
  connect_address service;   /* the input's address; kind CONNECT_NONE for
                                a file or standard input */
  int ever_connected;        /* the service was reached */
  double last_connect_s;     /* when connecting was last tried */
  char connect_problem[256]; /* why the last try failed */
  int tee_fd;                /* --tee's file; -1 none */
  long long tee_bytes;       /* bytes written to it */
  int tee_failed;            /* writing it failed (said once): exit 1 */
} watch_state;

/* A note about the run, on its own line (clearing the status line); not
 * with --quiet. */
static void note(watch_state *w, const char *fmt, ...) MSG_PRINTF(2);
static void note(watch_state *w, const char *fmt, ...) {
  if (w->a->quiet) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (w->status_line) msg_status_clear();
  msg_errorf("%s", line);
}

/* Says what is wrong with the input, unless that was the last thing said
 * about it; `problem` NULL: the input is fine again. */
static void note_input_problem(watch_state *w, const char *problem) {
  if (!problem) {
    w->input_problem[0] = '\0';
    return;
  }
  if (!strcmp(problem, w->input_problem)) return;
  snprintf(w->input_problem, sizeof w->input_problem, "%s", problem);
  note(w, "%s: %s", w->a->input_display, problem);
}

/* The input cannot be opened for `reason` (an errno). */
static void note_cannot_open(watch_state *w, int reason) {
  w->open_errno = reason;
  char problem[256];
  snprintf(problem, sizeof problem, "cannot open: %s; waiting for it",
           strerror(reason));
  note_input_problem(w, problem);
}

/* The status line about p: the profile being read, or the finished one
 * (the parser holds none after hp2x_parser_finish). */
static void show_status(watch_state *w, const hp2x_profile *p,
                        const char *what) {
  if (!w->status_line) return;
  size_t read = hp2x_profile_samples_read(p),
         held = hp2x_profile_sample_count(p);
  char kept[64] = "";
  if (held < read) /* a bounded profile (profile_bound.c) */
    snprintf(kept, sizeof kept, " (%zu held for the picture)", held);
  msg_status_show("%s: %zu samples%s, %lld bytes read, %ld renders, output "
                  "%lld bytes%s%s",
                  w->a->input_display, read, kept, w->offset, w->renders,
                  w->last_output_bytes, what ? " - " : "", what ? what : "");
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

/* A service not connected yet: tries once an interval (at once the first
 * time); says once that it is not up.  Returns an exit status: an address
 * that can never be reached, or without --watch one not up, ends the run. */
static int check_service(watch_state *w) {
  if (w->fd >= 0 || w->eof) return EXIT_OK;
  double t = now_s();
  if (w->last_connect_s > 0 && t - w->last_connect_s < w->a->interval_s)
    return EXIT_OK;
  w->last_connect_s = t;
  int not_up = 0;
  w->fd = connect_open(&w->service, &not_up, w->connect_problem,
                       sizeof w->connect_problem);
  if (w->fd >= 0) {
    w->fd_is_ours = 1;
    w->ever_connected = 1;
    serve_set_input(w->a->server, SERVE_INPUT_CONNECTED);
    w->last_growth_s = now_s();
    if (w->input_problem[0]) note(w, "%s: connected", w->a->input_display);
    note_input_problem(w, NULL);
    return EXIT_OK;
  }
  if (wakeup_stop_signal()) return EXIT_OK;
  if (!not_up || !w->a->watch) {
    msg_errorf("%s: cannot connect: %s", w->a->input_display,
               w->connect_problem);
    return EXIT_BAD_INPUT;
  }
  char problem[400];
  snprintf(problem, sizeof problem, "not up yet (%s); trying again every %g s",
           w->connect_problem, w->a->interval_s);
  note_input_problem(w, problem);
  return EXIT_OK;
}

/* Appends what was received to --tee's file; a failure is said once. */
static void tee_bytes(watch_state *w, const unsigned char *buf, size_t n) {
  if (w->tee_fd < 0 || w->tee_failed) return;
  while (n > 0) {
    ssize_t k = write(w->tee_fd, buf, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      msg_errorf("%s: cannot write: %s; no more bytes kept there",
                 w->a->tee_path, strerror(errno));
      w->tee_failed = 1;
      return;
    }
    buf += k;
    n -= (size_t)k;
    w->tee_bytes += k;
  }
}

/* Cuts --tee's file back to the last whole event (a valid eventlog, or
 * .hp text of whole lines) and closes it. */
static void close_tee(watch_state *w) {
  if (w->tee_fd < 0) return;
  long long whole = w->parser ? hp2x_parser_whole_bytes(w->parser) : 0;
  if (whole < w->tee_bytes && ftruncate(w->tee_fd, (off_t)whole) != 0 &&
      !w->tee_failed) {
    msg_errorf("%s: cannot cut back to the last whole event: %s",
               w->a->tee_path, strerror(errno));
    w->tee_failed = 1;
  }
  if (close(w->tee_fd) != 0 && !w->tee_failed) {
    msg_errorf("%s: cannot write: %s", w->a->tee_path, strerror(errno));
    w->tee_failed = 1;
  }
  w->tee_fd = -1;
}

/* (Re)opens the input when it appeared, was replaced or shrank; says once
 * why it cannot be opened, or that it was deleted. */
static int check_input_file(watch_state *w) {
  if (w->service.kind != CONNECT_NONE) return check_service(w);
  if (w->is_stream) return EXIT_OK;
  struct stat st;
  if (stat(w->a->input, &st) != 0) {
    if (errno == ENOENT && w->fd >= 0)
      note_input_problem(w, "deleted; the last picture stays, waiting for "
                            "a new file");
    else
      note_cannot_open(w, errno);
    return EXIT_OK;
  }
  if (S_ISDIR(st.st_mode)) {
    note_cannot_open(w, EISDIR);
    return EXIT_OK;
  }
  int had_file = w->fd >= 0; /* not the first open */
  int replaced = !had_file || st.st_dev != w->dev || st.st_ino != w->ino;
  int shrank = !replaced && st.st_size < w->offset;
  if (!replaced && !shrank) {
    note_input_problem(w, NULL);
    return EXIT_OK;
  }
  if (replaced) {
    int fd = open(w->a->input, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      note_cannot_open(w, errno);
      return EXIT_OK;
    }
    if (w->fd >= 0) close(w->fd);
    w->fd = fd;
    w->fd_is_ours = 1;
    struct stat fst;
    if (fstat(w->fd, &fst) == 0) {
      w->dev = fst.st_dev;
      w->ino = fst.st_ino;
    }
  } else {
    lseek(w->fd, 0, SEEK_SET);
  }
  note_input_problem(w, NULL);
  serve_set_input(w->a->server, SERVE_INPUT_CONNECTED);
  if (had_file)
    note(w, "%s: %s; starting over", w->a->input_display,
         replaced ? "file replaced" : "file shrank");
  w->last_growth_s = now_s();
  return new_parser(w);
}

/* A file's first read, from its start for a new parser: on --jobs
 * threads (the library reads big pieces in parts), never through a memory
 * map, since a file that shrinks under a mapping kills the process with
 * SIGBUS.  Returns an exit status, or RUN_GOES_ON. */
static int read_file_start(watch_state *w) {
  hp2x_err err;
  hp2x_err_init(&err);
  long long before = hp2x_parser_bytes(w->parser);
  if (hp2x_parser_feed_fd(w->parser, w->fd, HP2X_FEED_NO_MAP, &err) !=
      HP2X_OK) {
    if (w->status_line) msg_status_end();
    msg_report(w->a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  long long n = hp2x_parser_bytes(w->parser) - before;
  if (n > 0) {
    w->offset += n;
    w->last_growth_s = now_s();
  }
  return RUN_GOES_ON;
}

/* Reads and feeds whatever is new.  Returns an exit status, or
 * RUN_GOES_ON. */
static int read_new_bytes(watch_state *w, unsigned char *buf) {
  if (w->fd < 0) return RUN_GOES_ON;
  if (w->offset == 0 && !w->is_stream && w->service.kind == CONNECT_NONE) {
    int rc = read_file_start(w);
    if (rc != RUN_GOES_ON || wakeup_stop_signal()) return rc;
  }
  for (;;) {
    /* A writer faster than us: the stop still comes. */
    if (wakeup_stop_signal()) return RUN_GOES_ON;
    if (w->is_stream) {
      /* Standard input stays blocking (its flags are shared with the
       * process that gave it): read only what poll says is there. */
      struct pollfd pfd = {w->fd, POLLIN, 0};
      int r = poll(&pfd, 1, 0);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) return RUN_GOES_ON;
    }
    ssize_t n = read(w->fd, buf, READ_CHUNK);
    if (n < 0 && w->service.kind != CONNECT_NONE && errno == ECONNRESET)
      n = 0; /* the service dropped us: as closing */
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return RUN_GOES_ON;
      msg_errorf("%s: read failed: %s", w->a->input_display, strerror(errno));
      return EXIT_BAD_INPUT;
    }
    if (n == 0) {
      if (w->is_stream) w->eof = 1;
      if (w->is_stream) serve_set_input(w->a->server, SERVE_INPUT_CLOSED);
      return RUN_GOES_ON;
    }
    tee_bytes(w, buf, (size_t)n);
    hp2x_err err;
    hp2x_err_init(&err);
    if (hp2x_parser_feed(w->parser, buf, (size_t)n, &err) != HP2X_OK) {
      if (w->status_line) msg_status_end();
      msg_report(w->a->input_display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    w->offset += n;
    w->last_growth_s = now_s();
  }
}

/* Renders p unless it was rendered already.  An output that cannot be
 * written (said once by outset.c) keeps the previous picture: the watch
 * goes on, and tries again at the next turn, unless `last`. */
static int render_update(watch_state *w, const hp2x_profile *p, int last) {
  size_t n = hp2x_profile_samples_read(p); /* only grows, held or not */
  if (w->rendered_generation == w->generation && w->rendered_samples == n)
    return EXIT_OK; /* never the same data twice */
  if (hp2x_profile_job(p)[0] == '\0' && n == 0) return EXIT_OK; /* no header */
  /* An eventlog whose program has not begun its heap profile yet. */
  if (!hp2x_profile_has_heap_profile(p)) return EXIT_OK;
  int rc = selection_view_and_write(w->a, p, NULL, w->follow);
  if (rc != EXIT_OK && outset_last_outcome() == OUTSET_OUTPUT_FAILED && !last) {
    if (!w->output_failing)
      note(w, "%s: the previous picture stays; trying again", w->a->output);
    w->output_failing = 1;
    w->last_render_s = now_s(); /* try again in an interval */
    return EXIT_OK;
  }
  if (rc != EXIT_OK) return rc;
  if (w->output_failing) note(w, "%s: written again", w->a->output);
  w->output_failing = 0;
  w->rendered_samples = n;
  w->rendered_generation = w->generation;
  w->last_render_s = now_s();
  w->renders++;
  struct stat st;
  if (w->a->output && stat(w->a->output, &st) == 0)
    w->last_output_bytes = st.st_size;
  show_status(w, p, NULL);
  return EXIT_OK;
}

/* A service's stream that stopped inside an event: one warning (one that
 * stops between events is a service that ended or dropped us). */
static void note_cut_event(watch_state *w, const hp2x_profile *p) {
  if (w->service.kind == CONNECT_NONE || w->a->quiet ||
      hp2x_parser_at_end(w->parser))
    return;
  long long whole = hp2x_parser_whole_bytes(w->parser);
  if (whole >= w->offset) return;
  hp2x_err e;
  hp2x_err_init(&e);
  e.offset = whole;
  snprintf(e.msg, sizeof e.msg,
           "the connection closed inside an event (%lld bytes of it "
           "received); using the %zu complete samples",
           w->offset - whole, hp2x_profile_samples_read(p));
  msg_report(w->a->input_display, &e, "warning");
}

/* The last render, from the finished parse (an incomplete sample dropped). */
static int render_final(watch_state *w) {
  if (w->service.kind != CONNECT_NONE && !w->ever_connected) {
    if (w->a->quiet || !w->a->watch)
      msg_errorf("%s: cannot connect: %s", w->a->input_display,
                 w->connect_problem[0] ? w->connect_problem : "stopped");
    return EXIT_BAD_INPUT;
  }
  if (!w->is_stream && w->fd < 0) {
    /* Never opened: said already, unless --quiet. */
    if (w->a->quiet)
      msg_errorf("%s: cannot open: %s", w->a->input_display,
                 strerror(w->open_errno ? w->open_errno : ENOENT));
    return EXIT_BAD_INPUT;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  if (hp2x_parser_finish(w->parser, &p, &err) != HP2X_OK) {
    if (w->status_line) msg_status_end();
    /* A header still incomplete at the end: nothing to draw. */
    msg_report(w->a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  int rc = render_update(w, p, 1);
  if (w->status_line) {
    show_status(w, p, "done");
    msg_status_end();
  }
  inputs_warn_profile(w->a, w->a->input_display, p);
  note_cut_event(w, p);
  hp2x_profile_free(p);
  return rc;
}

/* Opens the FIFO a->input: open() blocks until a writer opens it, or a
 * stop signal interrupts it.  (One that comes between the check and the
 * call is seen only when a writer comes: POSIX leaves a reader that opens
 * without blocking unable to tell "no writer yet" from the end.)  Returns
 * an exit status, reported. */
static int open_fifo(watch_state *w) {
  errno = 0;
  while (!wakeup_stop_signal() &&
         (w->fd = open(w->a->input, O_RDONLY | O_CLOEXEC)) < 0 &&
         errno == EINTR) {
  }
  if (w->fd < 0 && (errno == EINTR || errno == 0)) {
    w->eof = 1; /* stopped before any writer came */
  } else if (w->fd < 0) {
    msg_errorf("%s: cannot open: %s", w->a->input, strerror(errno));
    return EXIT_BAD_INPUT;
  } else {
    w->fd_is_ours = 1;
  }
  return EXIT_OK;
}

/* What the input is (a file, standard input, a FIFO or a service) and
 * --tee's file.  Returns an exit status, reported. */
static int classify_input(watch_state *w, const tool_args *a) {
  w->is_stream = !strcmp(a->input, "-");
  char why[400];
  if (connect_parse(a->input, &w->service, why, sizeof why) != 0) {
    msg_errorf("%s", why); /* cli_settle.c checked it */
    return EXIT_USAGE;
  }
  if (w->service.kind != CONNECT_NONE) w->is_stream = 1;
  if (a->tee_path) {
    w->tee_fd =
        open(a->tee_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (w->tee_fd < 0) {
      msg_errorf("%s: cannot open: %s", a->tee_path, strerror(errno));
      return EXIT_BAD_INPUT;
    }
  }
  if (!w->is_stream) {
    struct stat st;
    if (stat(a->input, &st) == 0 && S_ISFIFO(st.st_mode)) w->is_stream = 1;
  }
  return EXIT_OK;
}

/* The state before the first read: the follower, the first parser and,
 * for a stream, its descriptor.  Returns an exit status, reported. */
static int start_watch(watch_state *w, const tool_args *a) {
  memset(w, 0, sizeof *w);
  w->a = a;
  w->fd = -1;
  w->change_fd = -1;
  w->rendered_samples = (size_t)-1;
  w->rendered_generation = -1;
  w->status_line = !a->quiet && isatty(STDERR_FILENO);
  w->tee_fd = -1;
  int rc = classify_input(w, a);
  if (rc != EXIT_OK) return rc;
  hp2x_err err;
  hp2x_err_init(&err);
  w->follow = hp2x_follower_new(&err);
  if (!w->follow) {
    msg_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  rc = new_parser(w);
  if (rc == EXIT_OK && w->service.kind != CONNECT_NONE)
    rc = check_service(w); /* the first try */
  else if (rc == EXIT_OK && w->is_stream && strcmp(a->input, "-") != 0)
    rc = open_fifo(w);
  else if (w->is_stream)
    w->fd = STDIN_FILENO;
  if (rc == EXIT_OK && w->is_stream && w->fd >= 0)
    serve_set_input(a->server, SERVE_INPUT_CONNECTED);
  w->change_fd = w->is_stream ? -1 : wakeup_watch_directory_of(a->input);
  w->last_growth_s = now_s();
  return rc;
}

/* Sleeps until something changes, `wait_s` (the rest of the interval, or
 * 0 for a whole one) ends, the idle timeout, or a stop signal; with no
 * file-change wakeups, polls at the interval.  Even when woken early it
 * renders no more often than --interval (reading goes on at once). */
static void wait_for_change(watch_state *w, double wait_s) {
  const tool_args *a = w->a;
  double sleep_s = wait_s > 0 ? wait_s : a->interval_s;
  if (a->idle_exit_s > 0) {
    double idle_left = a->idle_exit_s - (now_s() - w->last_growth_s);
    if (idle_left < sleep_s) sleep_s = idle_left > 0 ? idle_left : 0;
  }
  wakeup_wait(w->change_fd, w->is_stream && !w->eof ? w->fd : -1, sleep_s);
}

/* One turn of the watch: reads what is new, renders when due, then waits.
 * Returns an exit status when the run is over, else RUN_GOES_ON. */
static int advance_watch(watch_state *w, unsigned char *buf) {
  const tool_args *a = w->a;
  int rc = check_input_file(w);
  if (rc != EXIT_OK) return rc;
  rc = read_new_bytes(w, buf);
  if (rc != RUN_GOES_ON) return rc;
  double t = now_s();
  int ended = wakeup_stop_signal() || w->eof || hp2x_parser_at_end(w->parser) ||
              (a->idle_exit_s > 0 && t - w->last_growth_s >= a->idle_exit_s);
  if (ended) return render_final(w);
  double wait_s = 0.0;
  if (!a->watch) {
    /* A service without --watch: drawn once, at its end. */
  } else if (t - w->last_render_s >= a->interval_s || w->renders == 0) {
    rc = render_update(w, hp2x_parser_peek(w->parser), 0);
    if (rc != EXIT_OK) return rc;
  } else {
    wait_s = a->interval_s - (t - w->last_render_s);
  }
  wait_for_change(w, wait_s);
  return RUN_GOES_ON;
}

static void stop_watch(watch_state *w) {
  close_tee(w);
  wakeup_unwatch(w->change_fd);
  if (w->fd >= 0 && w->fd_is_ours) close(w->fd);
  hp2x_parser_free(w->parser);
  hp2x_follower_free(w->follow);
}

int run_watch(tool_args *a) {
  /* A stop signal ends the run after a final render; a second one removes
   * the temporary files of a render in progress and kills the process. */
  wakeup_catch_stop_signals(outset_die_of_signal);
  outset_quiet_repeats();
  hp2x_aux *aux;
  int rc = inputs_attach_aux(a, &aux);
  if (rc != EXIT_OK) {
    inputs_release_aux(a, &aux);
    wakeup_release_stop_signals();
    return rc;
  }
  unsigned char *buf = malloc(READ_CHUNK);
  rc = EXIT_BAD_INPUT;
  if (!buf) {
    msg_errorf("out of memory");
  } else {
    watch_state w;
    rc = start_watch(&w, a);
    while (rc == EXIT_OK && (rc = advance_watch(&w, buf)) == RUN_GOES_ON)
      rc = EXIT_OK;
    stop_watch(&w);
    if (rc == EXIT_OK && w.tee_failed) rc = EXIT_BAD_INPUT;
  }
  free(buf);
  inputs_release_aux(a, &aux);
  wakeup_release_stop_signals();
  return rc;
}
