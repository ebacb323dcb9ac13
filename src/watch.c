/* watch.c -- watch mode: follows a profile that is still being written and
 * re-renders it whenever new complete samples arrive, at most once per
 * --interval.  The parser and its model live across updates, so each update
 * reads and parses only the new bytes, and a follower (follow.c) keeps the
 * bands, so it selects and draws at the cost of the new samples.  Outputs
 * go through cli.c's atomic writer.  Wakes on inotify (Linux), else polls;
 * a shrinking or replaced
 * file starts over; SIGINT/SIGTERM, an eventlog's end-of-data marker or
 * --idle-exit end the run after a final render.
 */
#define _GNU_SOURCE 1
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
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
  const cli_args *a;
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
} watch_state;

static void status(watch_state *w, const char *what) {
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
  hp2x_err_init(&err, w->a->input_display);
  hp2x_parser_free(w->parser);
  w->parser = hp2x_parser_new(w->a->input_display, &w->a->parse, &err);
  if (!w->parser) {
    cli_report(w->a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  hp2x_follower_reset(w->follow); /* a new profile */
  w->offset = 0;
  w->generation++;
  return EXIT_OK;
}

/* (Re)opens the input when it appeared, was replaced or shrank. */
static int check_file(watch_state *w) {
  if (w->is_stream) return EXIT_OK;
  struct stat st;
  if (stat(w->a->input, &st) != 0) return EXIT_OK; /* gone: wait for it */
  int replaced = w->fd < 0 || st.st_dev != w->dev || st.st_ino != w->ino;
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
  if (w->generation > 0 && !w->a->quiet && !w->status_line)
    cli_errorf("%s: %s; starting over", w->a->input_display,
               replaced ? "file replaced" : "file shrank");
  w->last_growth_s = now_s();
  return new_parser(w);
}

/* Reads and feeds whatever is new.  Returns an exit status, or -1 to go
 * on. */
static int read_new(watch_state *w, unsigned char *buf) {
  if (w->fd < 0) return -1;
  for (;;) {
    ssize_t n = read(w->fd, buf, READ_CHUNK);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return -1;
      cli_errorf("%s: read failed: %s", w->a->input_display, strerror(errno));
      return EXIT_BAD_INPUT;
    }
    if (n == 0) {
      if (w->is_stream) w->eof = 1;
      return -1;
    }
    hp2x_err err;
    hp2x_err_init(&err, w->a->input_display);
    if (hp2x_parser_feed(w->parser, buf, (size_t)n, &err) != HP2X_OK) {
      if (w->status_line) fputc('\n', stderr);
      cli_report(w->a->input_display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    w->offset += n;
    w->last_growth_s = now_s();
  }
}

static int render(watch_state *w, const hp2x_profile *p) {
  size_t n = hp2x_profile_sample_count(p);
  if (w->rendered_generation == w->generation && w->rendered_samples == n)
    return EXIT_OK; /* never the same data twice */
  if (hp2x_profile_job(p)[0] == '\0' && n == 0) return EXIT_OK; /* no header */
  /* An eventlog whose program has not begun its heap profile yet. */
  if (!hp2x_profile_has_heap_profile(p)) return EXIT_OK;
  int rc = cli_write_outputs(w->a, p, NULL, w->follow);
  if (rc != EXIT_OK) return rc;
  w->rendered_samples = n;
  w->rendered_generation = w->generation;
  w->last_render_s = now_s();
  w->renders++;
  struct stat st;
  if (stat(w->a->output, &st) == 0) w->last_output_bytes = st.st_size;
  status(w, NULL);
  return EXIT_OK;
}

/* The last render, from the finished parse (an incomplete sample dropped). */
static int final_render(watch_state *w) {
  hp2x_err err;
  hp2x_err_init(&err, w->a->input_display);
  hp2x_profile *p = NULL;
  if (hp2x_parser_finish(w->parser, &p, &err) != HP2X_OK) {
    if (w->status_line) fputc('\n', stderr);
    /* A header still incomplete at the end: nothing to draw. */
    cli_report(w->a->input_display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  int rc = render(w, p);
  if (w->status_line) {
    status(w, "done");
    fputc('\n', stderr);
  }
  cli_warn_profile(w->a, p);
  hp2x_profile_free(p);
  return rc;
}

static int setup_inotify(const cli_args *a) {
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return -1;
  /* Watch the directory, so creation and replacement are seen too. */
  char *dir = strdup(a->input);
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

/* Every update allocates and frees the same big arrays (a band matrix and
 * per-sample coordinates: megabytes for a long profile).  glibc would hand
 * them back to the kernel each time and the next update would fault them
 * in afresh, a sixth of an update's time on a 90 MB profile: a watcher
 * keeps them instead.  Its peak memory is what one update needs anyway. */
static void keep_freed_memory(void) {
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

int watch_run(const cli_args *a) {
  keep_freed_memory();
  watch_state w;
  memset(&w, 0, sizeof w);
  w.a = a;
  w.fd = -1;
  w.rendered_samples = (size_t)-1;
  w.rendered_generation = -1;
  w.status_line = !a->quiet && isatty(STDERR_FILENO);
  w.is_stream = !strcmp(a->input, "-");
  if (!w.is_stream) {
    struct stat st;
    if (stat(a->input, &st) == 0 && S_ISFIFO(st.st_mode)) w.is_stream = 1;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  unsigned char *buf = malloc(READ_CHUNK);
  if (!buf) {
    cli_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  hp2x_err ferr;
  hp2x_err_init(&ferr, a->input_display);
  w.follow = hp2x_follower_new(&ferr);
  if (!w.follow) {
    free(buf);
    cli_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  int rc = new_parser(&w);
  if (w.is_stream) {
    w.fd = strcmp(a->input, "-") ? open(a->input, O_RDONLY | O_CLOEXEC)
                                 : STDIN_FILENO;
    if (w.fd < 0) {
      cli_errorf("%s: cannot open: %s", a->input, strerror(errno));
      rc = EXIT_BAD_INPUT;
    } else {
      fcntl(w.fd, F_SETFL, fcntl(w.fd, F_GETFL) | O_NONBLOCK);
    }
  }
  int ino = w.is_stream ? -1 : setup_inotify(a);
  w.last_growth_s = now_s();
  int done = rc != EXIT_OK;
  while (!done) {
    rc = check_file(&w);
    if (rc != EXIT_OK) break;
    int r = read_new(&w, buf);
    if (r >= 0) {
      rc = r;
      break;
    }
    double t = now_s();
    int ended = stop_requested || w.eof || hp2x_parser_at_end(w.parser) ||
                (a->idle_exit_s > 0 && t - w.last_growth_s >= a->idle_exit_s);
    if (ended) {
      rc = final_render(&w);
      break;
    }
    double wait_s = 0.0;
    if (t - w.last_render_s >= a->interval_s || w.renders == 0) {
      rc = render(&w, hp2x_parser_peek(w.parser));
      if (rc != EXIT_OK) break;
    } else {
      wait_s = a->interval_s - (t - w.last_render_s);
    }
    /* Sleep until something changes, the interval ends, or the idle
     * timeout; with no inotify, poll at the interval. */
    double sleep_s = wait_s > 0 ? wait_s : a->interval_s;
    if (a->idle_exit_s > 0) {
      double idle_left = a->idle_exit_s - (now_s() - w.last_growth_s);
      if (idle_left < sleep_s) sleep_s = idle_left > 0 ? idle_left : 0;
    }
    struct pollfd pfd = {w.is_stream ? w.fd : ino, POLLIN, 0};
    int timeout_ms = (int)(sleep_s * 1000.0) + 1;
    if (pfd.fd >= 0) {
      if (poll(&pfd, 1, timeout_ms) > 0 && !w.is_stream) drain(ino);
      /* Rate limit: even when woken early, render no more often than
       * --interval (reading goes on at once). */
    } else {
      struct timespec ts = {(time_t)sleep_s,
                            (long)((sleep_s - (double)(time_t)sleep_s) * 1e9)};
      nanosleep(&ts, NULL);
    }
  }
  if (ino >= 0) close(ino);
  if (w.fd >= 0 && w.fd != STDIN_FILENO) close(w.fd);
  hp2x_parser_free(w.parser);
  hp2x_follower_free(w.follow);
  free(buf);
  return rc;
}
