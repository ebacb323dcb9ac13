/* guard.c -- the request deadline of --serve's connections:
 * libmicrohttpd's own timeout counts idle time only, so a client that
 * sends a byte a second is shut down here once its request has taken 10 s
 * (from its first byte, or from the end of the one before on a kept-alive
 * connection).  A thread of its own looks every second, and calls for the
 * event streams' heartbeat (events.c) every few.  The list of connections
 * is under the server's mutex.
 */
#include "serve_int.h"

#include "io/wakeup.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

enum { REQUEST_DEADLINE_S = 10, HEARTBEAT_S = 5 };

struct guarded {
  int fd;
  double since; /* when the request began, monotonic seconds */
  int answered; /* its request is complete */
  int shut;     /* shut down by the deadline */
  guarded *next, **prev;
};

void guard_on_connection(void *cls, struct MHD_Connection *c, void **ctx,
                         enum MHD_ConnectionNotificationCode toe) {
  serve_server *s = cls;
  if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
    guarded *g = calloc(1, sizeof *g);
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!g || !info) {
      free(g);
      *ctx = NULL;
      return;
    }
    g->fd = info->connect_fd;
    g->since = wakeup_now_s();
    pthread_mutex_lock(&s->lock);
    g->next = s->conns;
    if (g->next) g->next->prev = &g->next;
    g->prev = &s->conns;
    s->conns = g;
    pthread_mutex_unlock(&s->lock);
    *ctx = g;
    return;
  }
  guarded *g = *ctx; /* closed: before its socket is */
  if (!g) return;
  pthread_mutex_lock(&s->lock);
  *g->prev = g->next;
  if (g->next) g->next->prev = g->prev;
  pthread_mutex_unlock(&s->lock);
  free(g);
  *ctx = NULL;
}

static guarded *guarded_of(struct MHD_Connection *c) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? info->socket_context : NULL;
}

void guard_request_begun(serve_server *s, struct MHD_Connection *c) {
  guarded *g = guarded_of(c);
  if (!g) return;
  pthread_mutex_lock(&s->lock);
  g->answered = 1;
  pthread_mutex_unlock(&s->lock);
}

void guard_on_completed(void *cls, struct MHD_Connection *c, void **ctx,
                        enum MHD_RequestTerminationCode toe) {
  (void)ctx;
  (void)toe;
  serve_server *s = cls;
  guarded *g = guarded_of(c);
  if (!g) return;
  pthread_mutex_lock(&s->lock); /* the next request's clock starts */
  g->answered = 0;
  g->since = wakeup_now_s();
  pthread_mutex_unlock(&s->lock);
}

/* Shuts down the connections whose request is late; under the lock, so
 * that no socket is closed (and its number reused) meanwhile. */
static void enforce_deadline(serve_server *s) {
  double now = wakeup_now_s();
  for (guarded *g = s->conns; g; g = g->next)
    if (!g->answered && !g->shut && now - g->since >= REQUEST_DEADLINE_S) {
      shutdown(g->fd, SHUT_RDWR);
      g->shut = 1;
    }
}

static void *guard_main(void *arg) {
  serve_server *s = arg;
  double next_beat = wakeup_now_s() + HEARTBEAT_S;
  pthread_mutex_lock(&s->lock);
  while (s->guard_running) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_cond_timedwait(&s->guard_wake, &s->lock, &until);
    enforce_deadline(s);
    if (s->guard_running && wakeup_now_s() >= next_beat) {
      next_beat = wakeup_now_s() + HEARTBEAT_S;
      pthread_mutex_unlock(&s->lock);
      events_heartbeat(s);
      pthread_mutex_lock(&s->lock);
    }
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

int guard_start(serve_server *s) {
  pthread_cond_init(&s->guard_wake, NULL);
  s->guard_running = 1;
  if (pthread_create(&s->guard, NULL, guard_main, s) != 0) {
    s->guard_running = 0;
    return -1;
  }
  return 0;
}

void guard_stop(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  int running = s->guard_running;
  s->guard_running = 0;
  pthread_cond_signal(&s->guard_wake);
  pthread_mutex_unlock(&s->lock);
  if (running) pthread_join(s->guard, NULL);
  pthread_cond_destroy(&s->guard_wake);
}
