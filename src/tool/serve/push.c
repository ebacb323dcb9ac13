/* push.c -- a new band set for the live pages: when a redraw's band set
 * (the update's "set") differs from the last redraw's, or at the run's
 * first redraw with a census, its key (the bands' names and colours, where
 * the graph and key lie: snapshot_key) is made and goes with the update,
 * from which a page draws the new set itself when the update holds every
 * census.  Otherwise (a longer run, or the first redraw: the waiting page
 * has no report) every live page would fetch the report again; instead
 * the server draws the page once,
 * lean (without its PNG, which is not drawn at all:
 * hp2x_write_live_lean_html), on threads
 * of its own, never the run's, and sends it to every /events client as a
 * "report" event.  Only when an /events client is connected.  Every
 * redraw's update waits until this thread has looked at its band set
 * (serve_server.push.cleared), and a changed set's update until its page is
 * drawn, for at most HOLD_MS (monotonic): drawn while the pages are not yet
 * woken by the update, the page is drawn 2-10x sooner with ten pages on two
 * cores (bench/RESULTS.md 12.5e).  One copy of the newest report event is kept,
 * by reference count; a stream sending one holds a reference, so a slow
 * client holds at most one report (events.c).  Also the report's PNG in a
 * page (what "/?lean=1" leaves out, serve.c) and the event's encoding.
 */
#include "serve_int.h"

#include "io/wakeup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
  SET_LEN = 16,  /* the band set's fingerprint: 16 hex digits */
  HOLD_MS = 500, /* the longest a redraw's update waits for its report */
};

int push_page_png(const char *page, size_t *from, size_t *to) {
  static const char img[] = "<img id=\"hp2x-raster\"",
                    src[] = " src=\"data:image/png;base64,";
  const char *i = strstr(page, img);
  const char *s = i ? strstr(i, src) : NULL;
  const char *e = s ? strchr(s + sizeof src - 1, '"') : NULL;
  if (!e || memchr(i, '>', (size_t)(s - i))) return 0; /* another tag's */
  *from = (size_t)(s + sizeof src - 1 - page);
  *to = (size_t)(e - page);
  return 1;
}

size_t push_format(char *buf, size_t size, long picture, const char *set,
                   int lean, const char *page, size_t len, size_t cut_from,
                   size_t cut_to) {
  char head[128];
  int k = snprintf(head, sizeof head,
                   "event: report\ndata: {\"picture\":%ld,\"set\":\"%.16s\","
                   "\"lean\":%s,\"page\":\"",
                   picture, set, lean ? "true" : "false");
  size_t hn = k > 0 ? (size_t)k : 0;
  static const char tail[] = "\"}\n\n";
  size_t n = hn + events_escaped(NULL, page, cut_from) +
             events_escaped(NULL, page + cut_to, len - cut_to) + sizeof tail -
             1;
  if (n > size) return n;
  char *o = buf;
  memcpy(o, head, hn), o += hn;
  o += events_escaped(o, page, cut_from);
  o += events_escaped(o, page + cut_to, len - cut_to);
  memcpy(o, tail, sizeof tail - 1);
  return n;
}

/* The report event of snap's page, lean (drawn now if it is not yet, in
 * a turn of `slots`, NULL: at once; without its PNG:
 * hp2x_write_live_lean_html; a waiting page sizes the picture from its
 * SVG); NULL when it has no report or out of memory. */
static pushed *report_of(draw_slots *slots, snapshot *snap, const char *set) {
  const char *page;
  size_t len, from, to;
  snapshot_draw(snap, SNAPSHOT_LEAN_HTML, slots);
  if (snapshot_picture(snap, SNAPSHOT_LEAN_HTML, &page, &len) != 0 ||
      !push_page_png(page, &from, &to))
    return NULL;
  long picture = snapshot_picture_generation(snap);
  size_t n = push_format(NULL, 0, picture, set, 1, page, len, from, to);
  pushed *r = malloc(sizeof *r + n);
  if (!r) return NULL;
  atomic_init(&r->refs, 1);
  r->picture = picture;
  r->len = push_format(r->data, n, picture, set, 1, page, len, from, to);
  return r;
}

/* A report drawn by a thread of its own (draw_report), while the pusher
 * holds the streams' updates for at most HOLD_MS. */
typedef struct drawing {
  serve_server *s;
  snapshot *snap;
  const char *set;
  int done;
  pushed *r;
} drawing;

static void *draw_report(void *arg) {
  drawing *d = arg;
  pushed *r = report_of(&d->s->slots, d->snap, d->set);
  pthread_mutex_lock(&d->s->lock);
  d->r = r, d->done = 1;
  pthread_cond_broadcast(&d->s->push.wake);
  pthread_mutex_unlock(&d->s->lock);
  return NULL;
}

/* Lets every update go, until the report being drawn is (cleared again
 * by push_main). */
static void release_updates(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  s->push.cleared = LONG_MAX;
  pthread_mutex_unlock(&s->lock);
  events_notify(s);
}

/* snap's report, drawn while the streams hold its update (so that the
 * pages, not yet woken by it, leave the cores to the drawing), but for
 * at most HOLD_MS on the monotonic clock (push.clock): a page drawn for
 * longer lets the update go first, as does a drawing that gets no thread
 * of its own (drawn here, the updates not held). */
static pushed *drawn_report(serve_server *s, snapshot *snap, const char *set) {
  drawing d = {s, snap, set, 0, NULL};
  pthread_t t;
  if (pthread_create(&t, NULL, draw_report, &d) != 0) {
    release_updates(s);
    return report_of(&s->slots, snap, set);
  }
  struct timespec until = wakeup_deadline(s->push.clock, HOLD_MS);
  pthread_mutex_lock(&s->lock);
  while (!d.done &&
         pthread_cond_timedwait(&s->push.wake, &s->lock, &until) == 0) {
  }
  int late = !d.done;
  pthread_mutex_unlock(&s->lock);
  if (late) release_updates(s); /* the update goes first */
  pthread_join(t, NULL);
  return d.r;
}

/* When snap's band set is not the last one's: makes its key, which goes
 * with its update (events.c), and pushes its report unless the update
 * holds every census (then every page draws the new set from the update
 * and key) or at the first redraw heard (a waiting page has no report to
 * draw it into).  That first report, when the update holds every census
 * (at most 64: a few ms to draw, though 0.1-0.9 s with 5,000-20,000
 * bands, as it was on a thread, the key's making most of it), is drawn
 * here at once, neither on a thread of its own nor in a turn: the census
 * that a waiting page shows only with it waits for no thread to start, be
 * scheduled and hand it back (on two loaded cores each took up to tens
 * of ms: RESULTS 12.5n).
 * With no event stream, nothing is made (not even the update): the first
 * redraw after one comes counts as a change. */
static void push_one(serve_server *s, snapshot *snap) {
  const char *up;
  size_t un;
  static const char key[] = "\"set\":\""; /* the update's first member */
  pthread_mutex_lock(&s->lock);
  int listened = s->clients != NULL;
  pthread_mutex_unlock(&s->lock);
  if (!listened) {
    s->push.set[0] = 0; /* none: the next redraw heard is a change */
    return;
  }
  if (snapshot_update(snap, &up, &un) != 0 || un < 1 + sizeof key + SET_LEN ||
      memcmp(up + 1, key, sizeof key - 1) != 0)
    return;
  const char *set = up + sizeof key, *kd;
  size_t kn;
  int first = !s->push.set[0];
  if (!first && memcmp(s->push.set, set, SET_LEN) == 0) return;
  memcpy(s->push.set, set, SET_LEN);
  /* the key goes with the update: a page whose censuses the update holds
   * draws the new set itself, and needs no report */
  int whole = snapshot_key(snap, 1, &kd, &kn) == 1;
  if (whole && !first) return;
  pushed *r = whole ? report_of(NULL, snap, set) : drawn_report(s, snap, set);
  if (!r) return;
  pthread_mutex_lock(&s->lock);
  pushed *old = s->push.report;
  s->push.report = r;
  pthread_mutex_unlock(&s->lock);
  events_report_unref(old);
}

/* The pushing thread: each new picture's band set looked at (the newest
 * only: redraws that came while one was drawn are skipped). */
static void *push_main(void *arg) {
  serve_server *s = arg;
  long seen = -1;
  pthread_mutex_lock(&s->lock);
  for (;;) {
    while (!s->push.stop && snapshot_picture_generation(s->current) == seen)
      pthread_cond_wait(&s->push.wake, &s->lock);
    if (s->push.stop) break;
    snapshot *snap = s->current;
    snapshot_ref(snap);
    seen = snapshot_picture_generation(snap);
    pthread_mutex_unlock(&s->lock);
    push_one(s, snap);
    snapshot_unref(snap);
    pthread_mutex_lock(&s->lock);
    s->push.cleared = seen; /* its update, and its report, may go */
    pthread_mutex_unlock(&s->lock);
    events_notify(s);
    pthread_mutex_lock(&s->lock);
  }
  pthread_mutex_unlock(&s->lock);
  return NULL;
}

int push_start(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  s->push.running = 1;
  pthread_mutex_unlock(&s->lock);
  int made = pthread_create(&s->push.thread, NULL, push_main, s) == 0;
  pthread_mutex_lock(&s->lock);
  s->push.running = made;
  pthread_mutex_unlock(&s->lock);
  return made ? 0 : -1;
}

void push_wake(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  pthread_cond_signal(&s->push.wake);
  pthread_mutex_unlock(&s->lock);
}

void push_stop(serve_server *s) {
  if (s->push.running) {
    pthread_mutex_lock(&s->lock);
    s->push.stop = 1;
    pthread_cond_signal(&s->push.wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->push.thread, NULL);
    s->push.running = 0;
  }
  pthread_mutex_lock(&s->lock);
  pushed *r = s->push.report;
  s->push.report = NULL;
  pthread_mutex_unlock(&s->lock);
  events_report_unref(r);
}
