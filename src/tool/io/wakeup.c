/* wakeup.c -- the tool's platform seam for waiting: watch mode's stop
 * signals (SIGINT, SIGTERM, SIGHUP) set a flag and write a byte into a
 * self-pipe that every wait polls, so a signal that comes during a render
 * or just before a wait ends the next wait at once; and file-change
 * wakeups, from inotify on the input's directory on Linux, else none (the
 * caller then polls at its interval); and the monotonic clock that waits
 * and deadlines are measured by.  Linux code is under
 * `defined(__linux__) && !defined(HP2X_PORTABLE)`; the rest is POSIX.
 */
#include "wakeup.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) && !defined(HP2X_PORTABLE)
#include <sys/inotify.h>
#define WAKEUP_HAS_INOTIFY 1
#define WAKEUP_HAS_COND_CLOCK 1 /* pthread_condattr_setclock */
#else
#define WAKEUP_HAS_INOTIFY 0
#define WAKEUP_HAS_COND_CLOCK 0
#endif

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { N_STOP_SIGNALS = sizeof stop_signals / sizeof stop_signals[0] };

/* Shared with the handler: written before the handlers are installed
 * (signal_pipe, on_again) or only by the handler (stop_signal). */
static volatile sig_atomic_t stop_signal;
static int signal_pipe[2] = {-1, -1}; /* read end, write end; nonblocking */
static void (*on_again)(int sig);
static struct sigaction replaced[N_STOP_SIGNALS];
static int caught;

static void on_stop_signal(int sig) {
  if (stop_signal && on_again) on_again(sig); /* does not return */
  int saved_errno = errno;
  stop_signal = sig;
  if (signal_pipe[1] >= 0) {
    char byte = 0;
    ssize_t n = write(signal_pipe[1], &byte, 1); /* full pipe: awake already */
    (void)n;
  }
  errno = saved_errno;
}

static int set_fd_flags(int fd) {
  int fl = fcntl(fd, F_GETFL);
  int fdfl = fcntl(fd, F_GETFD);
  return fl < 0 || fdfl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
                 fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC) < 0
             ? -1
             : 0;
}

static void close_pipe(void) {
  for (int i = 0; i < 2; i++) {
    if (signal_pipe[i] >= 0) close(signal_pipe[i]);
    signal_pipe[i] = -1;
  }
}

void wakeup_catch_stop_signals(void (*again)(int sig)) {
  if (caught) return;
  stop_signal = 0;
  on_again = again;
  if (pipe(signal_pipe) != 0) {
    signal_pipe[0] = signal_pipe[1] = -1;
  } else if (set_fd_flags(signal_pipe[0]) || set_fd_flags(signal_pipe[1])) {
    close_pipe();
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < N_STOP_SIGNALS; i++)
    sigaddset(&sa.sa_mask, stop_signals[i]);
  /* No SA_RESTART: a blocking open() of a FIFO returns EINTR. */
  sa.sa_flags = 0;
  for (int i = 0; i < N_STOP_SIGNALS; i++) {
    /* A signal ignored from the start stays ignored (nohup, a
     * non-interactive shell's background job). */
    sigaction(stop_signals[i], NULL, &replaced[i]);
    if (replaced[i].sa_handler != SIG_IGN)
      sigaction(stop_signals[i], &sa, NULL);
  }
  caught = 1;
}

void wakeup_release_stop_signals(void) {
  if (!caught) return;
  for (int i = 0; i < N_STOP_SIGNALS; i++)
    sigaction(stop_signals[i], &replaced[i], NULL);
  close_pipe();
  caught = 0;
}

int wakeup_stop_signal(void) { return (int)stop_signal; }

static int polling_forced(void) {
  const char *v = getenv("HP2X_WATCH_POLL");
  return v && *v && strcmp(v, "0") != 0;
}

#if WAKEUP_HAS_INOTIFY
int wakeup_watch_directory_of(const char *path) {
  if (polling_forced()) return -1;
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return -1;
  char *dir = strdup(path);
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
  /* The directory, so that creation, deletion and replacement are seen
   * as well as growth. */
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
#else
int wakeup_watch_directory_of(const char *path) {
  (void)path;
  (void)polling_forced;
  return -1;
}
#endif

void wakeup_unwatch(int change_fd) {
  if (change_fd >= 0) close(change_fd);
}

static void drain(int fd) {
  char buf[4096];
  while (read(fd, buf, sizeof buf) > 0) {
  }
}

wakeup_reason wakeup_wait(int change_fd, int stream_fd, double timeout_s) {
  struct pollfd pfd[3];
  nfds_t n = 0;
  int sig_at = -1, change_at = -1, stream_at = -1;
  if (signal_pipe[0] >= 0) {
    sig_at = (int)n;
    pfd[n++] = (struct pollfd){signal_pipe[0], POLLIN, 0};
  }
  if (change_fd >= 0) {
    change_at = (int)n;
    pfd[n++] = (struct pollfd){change_fd, POLLIN, 0};
  }
  if (stream_fd >= 0) {
    stream_at = (int)n;
    pfd[n++] = (struct pollfd){stream_fd, POLLIN, 0};
  }
  double limit_s = timeout_s > 0 ? timeout_s : 0;
  /* Without the pipe, look at the flag every 50 ms. */
  if (sig_at < 0 && limit_s > 0.05) limit_s = 0.05;
  if (limit_s > 86400.0) limit_s = 86400.0;
  /* A signal after this check has written the pipe: poll returns at once. */
  if (stop_signal) return WAKEUP_STOP;
  int r = poll(pfd, n, (int)(limit_s * 1000.0) + (limit_s > 0));
  if (stop_signal) return WAKEUP_STOP;
  if (r <= 0) return WAKEUP_TIMEOUT; /* EINTR: another signal */
  if (change_at >= 0 && pfd[change_at].revents) drain(change_fd);
  if ((change_at >= 0 && pfd[change_at].revents) ||
      (stream_at >= 0 && pfd[stream_at].revents))
    return WAKEUP_CHANGE;
  return WAKEUP_TIMEOUT;
}

double wakeup_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int wakeup_cond_init(pthread_cond_t *c, clockid_t *clock) {
#if WAKEUP_HAS_COND_CLOCK
  pthread_condattr_t a;
  if (pthread_condattr_init(&a) == 0) {
    int e = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    if (e == 0) e = pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
    if (e == 0) {
      *clock = CLOCK_MONOTONIC;
      return 0;
    }
  }
#endif
  *clock = CLOCK_REALTIME; /* the fallback: POSIX's default */
  return pthread_cond_init(c, NULL);
}

struct timespec wakeup_deadline(clockid_t clock, long ms) {
  struct timespec t;
  clock_gettime(clock, &t);
  t.tv_sec += ms / 1000;
  t.tv_nsec += (ms % 1000) * 1000000L;
  t.tv_sec += t.tv_nsec / 1000000000L;
  t.tv_nsec %= 1000000000L;
  return t;
}
