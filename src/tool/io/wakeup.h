/* wakeup.h -- the tool's platform seam for waiting (wakeup.c): watch
 * mode's stop signals brought into poll(), file-change wakeups (inotify on
 * Linux, else none: the wait ends at its timeout and the caller polls) and
 * the monotonic clock waits are measured by.
 */
#ifndef HPX_TOOL_WAKEUP_H
#define HPX_TOOL_WAKEUP_H

#include <pthread.h>
#include <time.h>

/* What ended a wait. */
typedef enum wakeup_reason {
  WAKEUP_TIMEOUT, /* the time given ran out */
  WAKEUP_CHANGE,  /* the watched directory or the stream has news */
  WAKEUP_STOP     /* a stop signal arrived (see wakeup_stop_signal) */
} wakeup_reason;

/* Catches SIGINT, SIGTERM and SIGHUP, leaving ignored those ignored at
 * the start (nohup, a non-interactive shell's background job): each sets
 * the stop flag and wakes any wait, at once and without a race (a
 * self-pipe that poll() watches).  A second stop signal calls `again(sig)`
 * from the handler, which must be async-signal-safe and must not return
 * (outset_die_of_signal).  Installs the handlers even when the pipe cannot
 * be made; waits then wake every 50 ms to look at the flag. */
void wakeup_catch_stop_signals(void (*again)(int sig));

/* Puts back the handlers wakeup_catch_stop_signals replaced and closes
 * its pipe. */
void wakeup_release_stop_signals(void);

/* The stop signal received (SIGINT, SIGTERM or SIGHUP), or 0. */
int wakeup_stop_signal(void);

/* A descriptor that becomes readable when an entry of `path`'s directory
 * changes (inotify), to give wakeup_wait; -1 when there is none: not
 * Linux, a portable build (HP2X_PORTABLE), HP2X_WATCH_POLL=1 in the
 * environment (man page, ENVIRONMENT) or a failure.  Release it with
 * wakeup_unwatch. */
int wakeup_watch_directory_of(const char *path);

/* Closes what wakeup_watch_directory_of returned (-1: nothing). */
void wakeup_unwatch(int change_fd);

/* Waits up to `timeout_s` seconds for a stop signal, news on change_fd
 * (from wakeup_watch_directory_of; drained here) or input on stream_fd
 * (not read); either descriptor may be -1.  Returns WAKEUP_STOP at once
 * when a stop signal came before the call. */
wakeup_reason wakeup_wait(int change_fd, int stream_fd, double timeout_s);

/* Initializes *c (0, or an error number) to time its waits on the
 * monotonic clock where the platform has pthread_condattr_setclock (not in
 * a portable build: the realtime clock, which a change of the system's
 * time moves); *clock is the clock its deadlines are on. */
int wakeup_cond_init(pthread_cond_t *c, clockid_t *clock);

/* The deadline `ms` milliseconds from now on `clock` (wakeup_cond_init's),
 * for pthread_cond_timedwait. */
struct timespec wakeup_deadline(clockid_t clock, long ms);

/* The monotonic clock, in seconds, that waits and deadlines are measured
 * by. */
double wakeup_now_s(void);

#endif
