/* serve.c -- hp2x --serve's HTTP server on libmicrohttpd: the listening
 * socket (made here, so that a port in use is said plainly and --serve=0
 * learns its port), the daemon's bounds (connections, memory per
 * connection, idle time, strict parsing), the answer to each request
 * (request.c decides the route; snapshot.c holds the bytes; push.c pushes
 * a new band set's page to the event streams), and the
 * run's side, the server as one of the run's outputs (io/outputs.h):
 * publishing a redraw, the input's state, serving on after the run until
 * a stop signal.  Nothing is read from disk.
 */
#include "serve_int.h"
#include "warm.h"

#include "io/outset.h"
#include "io/wakeup.h"
#include "util/messages.h"
#include "util/status.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum {
  /* Threads answering requests, so that a scrape or an event is not kept
   * waiting while another thread draws the page after a redraw. */
  SERVER_THREADS = 4,
  DRAWING_AT_ONCE = 2, /* pictures drawn at once (draw_main) */
  MAX_CONNECTIONS = 256,
  IDLE_TIMEOUT_S = 10,
  CONNECTION_MEMORY = 32 * 1024 /* request line and headers, then tool_output */
};

/* The current snapshot, referenced for the caller (unref it). */
static snapshot *current_snapshot(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  snapshot *c = s->current;
  if (c) snapshot_ref(c);
  pthread_mutex_unlock(&s->lock);
  return c;
}

static void unref_snapshot(void *cls) { snapshot_unref(cls); }

/* Queues response r (NULL: MHD_NO) with status, its type and the headers
 * every answer has, and lets go of it. */
static enum MHD_Result queue(struct MHD_Connection *c, unsigned status,
                             const char *type, struct MHD_Response *r) {
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", type);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
    MHD_add_response_header(r, "Allow", "GET, HEAD");
  enum MHD_Result ok = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return ok;
}

/* Queues bytes with the content type and no caching: bytes of `snap`,
 * which the response holds a reference to (so that a slow client shares
 * them with every other, and a new redraw frees nothing it still reads),
 * or, with snap NULL, static or copied bytes. */
static enum MHD_Result answer(struct MHD_Connection *c, unsigned status,
                              const char *type, const void *data, size_t len,
                              snapshot *snap) {
  struct MHD_Response *r;
  if (snap) {
    snapshot_ref(snap);
    r = MHD_create_response_from_buffer_with_free_callback_cls(
        len, (void *)(uintptr_t)data, unref_snapshot, snap);
    if (!r) snapshot_unref(snap);
  } else {
    r = MHD_create_response_from_buffer(len, (void *)(uintptr_t)data,
                                        MHD_RESPMEM_MUST_COPY);
  }
  return queue(c, status, type, r);
}

static enum MHD_Result answer_text(struct MHD_Connection *c, unsigned status,
                                   const char *text) {
  char body[256];
  int n = snprintf(body, sizeof body, "%u %s\n", status, text);
  return answer(c, status, "text/plain; charset=utf-8", body,
                n > 0 ? (size_t)n : 0, NULL);
}

static enum MHD_Result answer_events(serve_server *s,
                                     struct MHD_Connection *c) {
  struct MHD_Response *r = events_response(s, c);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", "text/event-stream");
  MHD_add_response_header(r, "Cache-Control", "no-store");
  enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
  MHD_destroy_response(r);
  return ok;
}

/* A picture's MIME type (the formats' table's). */
static const char *picture_type(hp2x_format f) {
  const hp2x_format_info *row = hp2x_format_of(f);
  return row ? row->media_type : "application/octet-stream";
}

/* The live page without its PNG ("/?lean=1": what a live page that shows
 * a report fetches to swap a newer one in; its script draws the picture,
 * and the page keeps the PNG it has for the picture's size): the same
 * bytes, the base64 taken out of the raster's src. */
static enum MHD_Result answer_lean(struct MHD_Connection *c, const char *page,
                                   size_t len, snapshot *snap) {
  size_t from, to;
  if (!push_page_png(page, &from, &to))
    return answer(c, MHD_HTTP_OK, "text/html; charset=utf-8", page, len, snap);
  char *lean = malloc(len - (to - from));
  if (!lean) return answer_text(c, 503, "out of memory: the page is not sent");
  memcpy(lean, page, from);
  memcpy(lean + from, page + to, len - to);
  struct MHD_Response *r = MHD_create_response_from_buffer(
      len - (to - from), lean, MHD_RESPMEM_MUST_FREE);
  if (!r) free(lean);
  return queue(c, MHD_HTTP_OK, "text/html; charset=utf-8", r);
}

/* A picture's answer from snap, drawn now if it is not yet (the page's
 * route: the report, or before the first census the waiting page; with
 * "lean" asked, without its PNG). */
static enum MHD_Result answer_picture(struct MHD_Connection *c, snapshot *snap,
                                      serve_route route, hp2x_format f) {
  const char *data;
  size_t len;
  int page = route == SERVE_ROUTE_PAGE;
  if (snapshot_picture(snap, f, &data, &len) != 0)
    return answer_text(c, 503,
                       page ? "out of memory: the page is not drawn"
                            : "no picture yet: no census has come");
  if (page && MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "lean"))
    return answer_lean(c, data, len, snap);
  return answer(c, MHD_HTTP_OK,
                page ? "text/html; charset=utf-8" : picture_type(f), data, len,
                snap);
}

/* A request whose picture is being drawn: suspended, while a thread of
 * its own draws the picture (at most DRAWING_AT_ONCE pictures drawn at
 * once: draw_slots; the threads of one picture wait for it), then
 * resumed, when handle answers it (answer_pending).  libmicrohttpd's
 * threads never draw, so that while a page is drawn for seconds every
 * other connection, the event streams and /metrics included, is served. */
typedef struct pending {
  serve_server *s;
  struct MHD_Connection *c;
  snapshot *snap; /* a reference */
  serve_route route;
  hp2x_format f;
} pending;

static void pending_free(pending *w) {
  snapshot_unref(w->snap);
  free(w);
}

static void *draw_main(void *arg) {
  pending *w = arg; /* the handler's again once resumed */
  serve_server *s = w->s;
  struct MHD_Connection *c = w->c;
  snapshot_draw(w->snap, w->f, &s->slots);
  MHD_resume_connection(c);
  pthread_mutex_lock(&s->lock);
  s->drawers--;
  pthread_cond_broadcast(&s->drawn);
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

/* Suspends c until its picture is drawn by a thread of its own: 0, with
 * *con_cls the pending request; -1 to draw it here (out of memory or
 * threads, or the server is stopping). */
static int draw_aside(serve_server *s, struct MHD_Connection *c, snapshot *snap,
                      const serve_answer *a, void **con_cls) {
  pending *w = calloc(1, sizeof *w);
  if (!w) return -1;
  pthread_mutex_lock(&s->lock);
  int open = !s->closing;
  if (open) s->drawers++;
  pthread_mutex_unlock(&s->lock);
  if (!open) {
    free(w);
    return -1;
  }
  snapshot_ref(snap);
  *w = (pending){s, c, snap, a->route, a->format};
  *con_cls = w;
  MHD_suspend_connection(c);
  pthread_t t;
  pthread_attr_t at;
  int made = pthread_attr_init(&at) == 0;
  if (made) {
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    made = pthread_create(&t, &at, draw_main, w) == 0;
    pthread_attr_destroy(&at);
  }
  if (!made) { /* drawn here, answered when resumed */
    snapshot_draw(snap, a->format, &s->slots);
    MHD_resume_connection(c);
    pthread_mutex_lock(&s->lock);
    s->drawers--;
    pthread_cond_broadcast(&s->drawn);
    pthread_mutex_unlock(&s->lock);
  }
  return 0;
}

static enum MHD_Result answer_route(serve_server *s, struct MHD_Connection *c,
                                    const serve_answer *a, void **con_cls) {
  if (a->route == SERVE_ROUTE_EVENTS) return answer_events(s, c);
  if (a->route == SERVE_ROUTE_PAGE &&
      MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "warm"))
    return s->warm ? answer(c, MHD_HTTP_OK, "text/html; charset=utf-8", s->warm,
                            strlen(s->warm), NULL)
                   : answer_text(c, 404, "no warm-up page");
  snapshot *snap = current_snapshot(s);
  if (!snap) return answer_text(c, 503, "starting");
  enum MHD_Result ok = MHD_YES;
  hp2x_format f = a->route == SERVE_ROUTE_PAGE ? HP2X_FORMAT_HTML : a->format;
  serve_answer drawn = *a;
  drawn.format = f;
  if (a->route == SERVE_ROUTE_METRICS) {
    size_t len;
    const char *data = snapshot_metrics(snap, &len);
    ok = answer(c, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
                data, len, snap);
  } else if (snapshot_picture_made(snap, f) ||
             draw_aside(s, c, snap, &drawn, con_cls) != 0) {
    ok = answer_picture(c, snap, a->route, f);
  }
  snapshot_unref(snap);
  return ok;
}

/* The request of pending w, resumed: its picture is drawn. */
static enum MHD_Result answer_pending(serve_server *s, pending *w,
                                      void **con_cls) {
  *con_cls = s;
  enum MHD_Result ok = answer_picture(w->c, w->snap, w->route, w->f);
  pending_free(w);
  return ok;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **con_cls) {
  (void)version;
  (void)upload;
  serve_server *s = cls;
  if (*con_cls == s) { /* a body: not read, the answer is queued already */
    *upload_size = 0;
    return MHD_YES;
  }
  if (*con_cls) { /* resumed: its picture is drawn */
    *upload_size = 0;
    return answer_pending(s, *con_cls, con_cls);
  }
  *con_cls = s;
  guard_request_begun(s, c);
  const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
  serve_answer a = serve_route_request(method, url, host, s->loopback);
  if (a.status != 200) return answer_text(c, (unsigned)a.status, a.reason);
  return answer_route(s, c, &a, con_cls);
}

/* A request ended: a pending one that was never answered (its client went
 * away) is freed; then the deadline's clock (guard.c). */
static void on_completed(void *cls, struct MHD_Connection *c, void **ctx,
                         enum MHD_RequestTerminationCode toe) {
  if (ctx && *ctx && *ctx != cls) {
    pending_free(*ctx);
    *ctx = NULL;
  }
  guard_on_completed(cls, c, ctx, toe);
}

/* A listening socket on ad (its port filled in when 0); -1 with errno. */
static int listen_on(serve_address *ad) {
  struct sockaddr_storage ss;
  memset(&ss, 0, sizeof ss);
  socklen_t len;
  if (ad->family == AF_INET6) {
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&ss;
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons((uint16_t)ad->port);
    inet_pton(AF_INET6, ad->host, &v6->sin6_addr);
    len = sizeof *v6;
  } else {
    struct sockaddr_in *v4 = (struct sockaddr_in *)&ss;
    v4->sin_family = AF_INET;
    v4->sin_port = htons((uint16_t)ad->port);
    inet_pton(AF_INET, ad->host, &v4->sin_addr);
    len = sizeof *v4;
  }
  int fd = socket(ad->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (ad->family == AF_INET6)
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&ss, len) != 0 || listen(fd, 64) != 0 ||
      getsockname(fd, (struct sockaddr *)&ss, &len) != 0) {
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  ad->port = ntohs(ad->family == AF_INET6
                       ? ((struct sockaddr_in6 *)&ss)->sin6_port
                       : ((struct sockaddr_in *)&ss)->sin_port);
  return fd;
}

/* The daemon on fd, its threads with the stop signals blocked (they stay
 * the run's), and the deadline thread. */
static int start_daemon(serve_server *s, int fd, int v6) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  s->daemon = MHD_start_daemon(
      MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
          (v6 ? MHD_USE_IPv6 : 0),
      0, NULL, NULL, handle, s, MHD_OPTION_LISTEN_SOCKET, fd,
      MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVER_THREADS,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_TIMEOUT_S,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
      MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_NOTIFY_CONNECTION,
      guard_on_connection, s, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
      MHD_OPTION_END);
  int rc = s->daemon && guard_start(s) == 0 && push_start(s) == 0 ? 0 : -1;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return rc;
}

static void serve_free(serve_server *s) {
  if (!s) return;
  if (s->daemon) {
    MHD_quiesce_daemon(s->daemon);
    events_close_all(s); /* and no more drawing threads */
    push_stop(s);
    pthread_mutex_lock(&s->lock);
    while (s->drawers > 0) pthread_cond_wait(&s->drawn, &s->lock);
    pthread_mutex_unlock(&s->lock);
    guard_stop(s);
    MHD_stop_daemon(s->daemon);
  }
  push_stop(s); /* what it holds, when the daemon never started */
  snapshot_unref(s->current);
  pthread_cond_destroy(&s->push.wake);
  pthread_cond_destroy(&s->drawn);
  snapshot_slots_destroy(&s->slots);
  pthread_mutex_destroy(&s->lock);
  free(s->warm);
  free(s);
}

static const output_kind server_kind;

int serve_start(const serve_address *at, const hp2x_options *o,
                tool_output **out) {
  *out = NULL;
  serve_address ad = *at; /* its port filled in for 0 */
  serve_server *s = calloc(1, sizeof *s);
  if (!s) {
    msg_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  pthread_mutex_init(&s->lock, NULL);
  pthread_cond_init(&s->drawn, NULL);
  wakeup_cond_init(&s->push.wake, &s->push.clock);
  snapshot_slots_init(&s->slots, DRAWING_AT_ONCE);
  s->base.kind = &server_kind;
  s->base.wants_view = 1; /* the window drawn, as -o's */
  s->base.copies = 1;
  s->opts = o;
  s->loopback = ad.loopback;
  s->current = snapshot_new(s->opts, NULL, NULL, NULL, 0, INPUT_WAITING, 0);
  s->warm = serve_warm_page(s->opts);
  int fd = s->current ? listen_on(&ad) : -1;
  const char *v6l = ad.family == AF_INET6 ? "[" : "",
             *v6r = ad.family == AF_INET6 ? "]" : "";
  if (fd < 0) {
    msg_errorf("cannot serve on %s%s%s:%u: %s", v6l, ad.host, v6r, ad.port,
               s->current ? strerror(errno) : "out of memory");
    serve_free(s);
    return EXIT_BAD_INPUT;
  }
  if (start_daemon(s, fd, ad.family == AF_INET6) != 0) {
    if (!s->daemon) close(fd);
    msg_errorf("cannot serve on %s%s%s:%u: the HTTP server did not start", v6l,
               ad.host, v6r, ad.port);
    serve_free(s);
    return EXIT_BAD_INPUT;
  }
  fprintf(stderr, "hp2x: serving http://%s%s%s:%u/\n", v6l, ad.host, v6r,
          ad.port);
  fflush(stderr);
  *out = &s->base;
  return EXIT_OK;
}

/* Makes `next` current (taking its reference) and tells the streams. */
static void make_current(serve_server *s, snapshot *next) {
  if (!next) return; /* out of memory: the last one stays */
  pthread_mutex_lock(&s->lock);
  snapshot *old = s->current;
  s->current = next;
  pthread_mutex_unlock(&s->lock);
  snapshot_unref(old);
  events_notify(s);
}

/* What the run just drew: the profile `shown` (a window's view, or the
 * parser's growing profile) with its bands (NULL: selected afresh when a
 * picture is asked for), and the censuses read so far.  Copies what it
 * needs: the frame's profiles and bands may change or go once it returns.
 * Out of memory keeps the last snapshot. */
static int serve_publish(tool_output *o, const output_frame *f) {
  serve_server *s = (serve_server *)o;
  long long censuses = (long long)hp2x_profile_samples_read(f->whole);
  make_current(s, snapshot_new(s->opts, f->shown, f->bands, s->current,
                               ++s->published, s->input, censuses));
  push_wake(s); /* a new band set's page, pushed (push.c) */
  return EXIT_OK;
}

static void serve_set_input(tool_output *o, input_state state) {
  serve_server *s = (serve_server *)o;
  if (s->input == state) return;
  s->input = state;
  snapshot *cur = current_snapshot(s);
  if (cur) make_current(s, snapshot_restate(cur, ++s->published, state));
  snapshot_unref(cur);
}

/* After the run: with `run_ok`, serves until SIGINT, SIGTERM or SIGHUP
 * (none when one ended the run), then stops the server and frees it. */
static void serve_finish(tool_output *o, int run_ok) {
  int serve_on = run_ok && !wakeup_stop_signal();
  /* caught before the input is said closed: a client that sees it closed
   * and stops the server ends it cleanly, not by the signal */
  if (serve_on) wakeup_catch_stop_signals(outset_die_of_signal);
  serve_set_input(o, INPUT_CLOSED);
  if (serve_on) {
    while (!wakeup_stop_signal()) wakeup_wait(-1, -1, 3600.0);
    wakeup_release_stop_signals();
  }
  serve_free((serve_server *)o);
}

static const output_kind server_kind = {serve_publish, serve_set_input,
                                        serve_finish};
