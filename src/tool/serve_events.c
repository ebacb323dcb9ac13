/* serve_events.c -- the server's long-lived parts: the event streams of
 * /events (Server-Sent Events: an "update" event with the status as JSON
 * after each publish, a comment every few seconds to find clients that
 * went away; a stream with nothing to send is suspended, not polled), and
 * the request deadline (libmicrohttpd's own timeout counts idle time only,
 * so a client that sends a byte a second is shut down here once its
 * request has taken 10 s).  Both run off the server's mutex; libmicrohttpd
 * is called only without it held, but for suspending, which its own
 * thread does from the stream's callback.
 */
#include "serve_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum { REQUEST_DEADLINE_S = 10, HEARTBEAT_S = 5 };

struct sse_client {
  serve_server *s;
  struct MHD_Connection *c;
  long sent;     /* generation last sent; -1 none */
  int suspended; /* suspended by the stream's callback */
  int heartbeat; /* a comment is due */
  char buf[600]; /* the event being sent */
  size_t len, off;
  sse_client *next, **prev;
};

struct guarded {
  int fd;
  double since; /* when the request began, monotonic seconds */
  int answered; /* its request is complete */
  int shut;     /* shut down by the deadline */
  guarded *next, **prev;
};

static double mono_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Fills c's event from the current snapshot if there is news (or a
 * heartbeat is due); 0 when there is none.  Under the lock. */
static int next_event(sse_client *c) {
  serve_server *s = c->s;
  long generation = s->current ? snapshot_generation(s->current) : -1;
  if (s->current && c->sent != generation) {
    char json[400];
    size_t n = snapshot_status_json(s->current, json, sizeof json);
    int k = snprintf(c->buf, sizeof c->buf,
                     "event: update\nid: %ld\ndata: "
                     "%.*s\n\n",
                     generation, (int)n, json);
    c->len = k > 0 && (size_t)k < sizeof c->buf ? (size_t)k : 0;
    c->sent = generation;
  } else if (c->heartbeat) {
    memcpy(c->buf, ":\n\n", 3);
    c->len = 3;
  } else {
    return 0;
  }
  c->heartbeat = 0;
  c->off = 0;
  return 1;
}

static ssize_t read_events(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  sse_client *c = cls;
  serve_server *s = c->s;
  pthread_mutex_lock(&s->lock);
  if (s->closing) {
    pthread_mutex_unlock(&s->lock);
    return MHD_CONTENT_READER_END_OF_STREAM;
  }
  if (c->off >= c->len && !next_event(c)) {
    c->suspended = 1; /* events_notify resumes it */
    MHD_suspend_connection(c->c);
    pthread_mutex_unlock(&s->lock);
    return 0;
  }
  size_t n = c->len - c->off < max ? c->len - c->off : max;
  memcpy(buf, c->buf + c->off, n);
  c->off += n;
  pthread_mutex_unlock(&s->lock);
  return (ssize_t)n;
}

static void free_events(void *cls) {
  sse_client *c = cls;
  pthread_mutex_lock(&c->s->lock);
  if (c->prev) *c->prev = c->next;
  if (c->next) c->next->prev = c->prev;
  pthread_mutex_unlock(&c->s->lock);
  free(c);
}

struct MHD_Response *events_response(serve_server *s,
                                     struct MHD_Connection *conn) {
  sse_client *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->s = s;
  c->c = conn;
  c->sent = -1;
  struct MHD_Response *r = MHD_create_response_from_callback(
      MHD_SIZE_UNKNOWN, 1024, read_events, c, free_events);
  if (!r) {
    free(c);
    return NULL;
  }
  pthread_mutex_lock(&s->lock);
  c->next = s->clients;
  if (c->next) c->next->prev = &c->next;
  c->prev = &s->clients;
  s->clients = c;
  pthread_mutex_unlock(&s->lock);
  return r;
}

/* Resumes the suspended streams that `pick` chooses (all, or those due a
 * heartbeat), outside the lock.  A suspended connection stays until it is
 * resumed, so the pointers taken under the lock stay good. */
static void resume_streams(serve_server *s, int heartbeat) {
  pthread_mutex_lock(&s->lock);
  size_t n = 0;
  for (sse_client *c = s->clients; c; c = c->next) n++;
  struct MHD_Connection **todo = malloc((n ? n : 1) * sizeof *todo);
  size_t k = 0;
  for (sse_client *c = s->clients; c && todo; c = c->next) {
    if (heartbeat) c->heartbeat = 1;
    if (!c->suspended) continue;
    c->suspended = 0;
    todo[k++] = c->c;
  }
  pthread_mutex_unlock(&s->lock);
  for (size_t i = 0; i < k; i++) MHD_resume_connection(todo[i]);
  free(todo);
}

void events_notify(serve_server *s) { resume_streams(s, 0); }

void events_close_all(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  s->closing = 1;
  pthread_mutex_unlock(&s->lock);
  resume_streams(s, 0);
}

/* ------------------------------------------------ the request deadline */

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
    g->since = mono_s();
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
  g->since = mono_s();
  pthread_mutex_unlock(&s->lock);
}

/* Shuts down the connections whose request is late; under the lock, so
 * that no socket is closed (and its number reused) meanwhile. */
static void enforce_deadline(serve_server *s) {
  double now = mono_s();
  for (guarded *g = s->conns; g; g = g->next)
    if (!g->answered && !g->shut && now - g->since >= REQUEST_DEADLINE_S) {
      shutdown(g->fd, SHUT_RDWR);
      g->shut = 1;
    }
}

static void *guard_main(void *arg) {
  serve_server *s = arg;
  double next_beat = mono_s() + HEARTBEAT_S;
  pthread_mutex_lock(&s->lock);
  while (s->guard_running) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    pthread_cond_timedwait(&s->guard_wake, &s->lock, &until);
    enforce_deadline(s);
    if (s->guard_running && mono_s() >= next_beat) {
      next_beat = mono_s() + HEARTBEAT_S;
      pthread_mutex_unlock(&s->lock);
      resume_streams(s, 1);
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
