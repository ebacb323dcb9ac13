/* serve_int.h -- private to --serve's files: the server's state, what one
 * redraw publishes (a snapshot: snapshot.c), the event streams (events.c)
 * and the request deadline (guard.c).  One mutex, the server's, guards the
 * current snapshot, the input's state, the lists of connections and the
 * count of drawing threads, and is held only to read or change them:
 * nothing is drawn, no update made and nothing written to a socket while
 * it is held, and no other lock is taken under it.  A snapshot's pictures
 * and its update are each made under a lock of their own (snapshot.c),
 * on threads of serve.c's, never libmicrohttpd's (but for the update,
 * made once a redraw by the first event stream to send it).
 */
#ifndef HPX_TOOL_SERVE_INT_H
#define HPX_TOOL_SERVE_INT_H

#include "serve.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* -------------------------------------------------------- snapshot.c */

/* What one redraw publishes, immutable but for pictures drawn on demand
 * (each at most once); shared by reference count. */
typedef struct snapshot snapshot;

/* A snapshot of p with bands b (either may be NULL: nothing drawn yet),
 * drawn with options o (copied, but for the strings and regexes they
 * point to, which live as long as the server); NULL when out of memory. */
snapshot *snapshot_new(const hp2x_options *o, const hp2x_profile *p,
                       const hp2x_bands *b, snapshot *after, long generation,
                       input_state input, long long censuses);
/* old's pictures, with another input state; NULL when out of memory. */
snapshot *snapshot_restate(snapshot *old, long generation, input_state input);
void snapshot_ref(snapshot *s);
void snapshot_unref(snapshot *s);
long snapshot_generation(const snapshot *s);
/* The redraw whose pictures s has (a restated one has the last redraw's). */
long snapshot_picture_generation(const snapshot *s);
/* The metrics text, never NULL; the status as one line of JSON, for the
 * page, returning its length. */
const char *snapshot_metrics(const snapshot *s, size_t *len);
size_t snapshot_status_json(const snapshot *s, char *buf, size_t size);
/* The live pages' update of s (hp2x_write_live_step, against the one made
 * before: snapshot_new's `after`'s, or none), made on the first call: 0
 * with *data (owned by s) and *len, or -1 (no census, or no bands kept). */
int snapshot_update(snapshot *s, const char **data, size_t *len);
/* s's band set's key (hp2x_write_live_key), made when `make` (push.c's),
 * else read once made: *data (s's), *len, and 1 when s's update holds
 * every census (a page draws the new set from it), else 0; or -1. */
int snapshot_key(snapshot *s, int make, const char **data, size_t *len);
/* The picture in format f (HP2X_FORMAT_HTML: the live page, or before the
 * first census or when the report cannot be drawn, the waiting page),
 * drawn on the first call (snapshot_draw): 0 with *data (owned by s) and
 * *len, or -1 (no census yet, or the drawing failed). */
int snapshot_picture(snapshot *s, hp2x_format f, const char **data,
                     size_t *len);
/* The lean page (hp2x_write_live_lean_html, push.c's): a slot of its own
 * for snapshot_picture and snapshot_draw; none before the first census. */
#define SNAPSHOT_LEAN_HTML ((hp2x_format)15)
/* Whether snapshot_picture(s, f) would answer at once (drawn, failed, or
 * never to be drawn). */
int snapshot_picture_made(snapshot *s, hp2x_format f);
/* Turns to draw: at most `most` pictures drawn at once, under a lock of
 * their own (taken for a moment, after a picture's lock). */
typedef struct draw_slots {
  pthread_mutex_t lock;
  pthread_cond_t turn;
  int drawing, most;
} draw_slots;
void snapshot_slots_init(draw_slots *d, int most);
void snapshot_slots_destroy(draw_slots *d);
/* Draws s's picture in format f unless it is made: the long work, done by
 * serve.c's drawing threads, one at a time a picture (each format and the
 * update under a lock of their own), in a turn of `slots` (NULL: at once). */
void snapshot_draw(snapshot *s, hp2x_format f, draw_slots *slots);

/* ----------------------------------------------------- the server */

typedef struct sse_client sse_client;
typedef struct guarded guarded;

/* A "report" event (push.c), shared by the streams sending it. */
typedef struct pushed {
  atomic_int refs;
  long picture; /* the redraw whose page it is */
  size_t len;
  char data[]; /* the event's bytes */
} pushed;

/* push.c's state, in the server's (under its mutex but for `set`). */
typedef struct push_state {
  pushed *report;      /* the newest report event; a reference */
  pthread_t thread;    /* push.c's thread */
  pthread_cond_t wake; /* timed on `clock` (wakeup_cond_init) */
  clockid_t clock;
  int running, stop;
  long cleared; /* the newest picture the pusher looked at: the streams
                   send no update of a newer one (its report first) */
  char set[16]; /* the last band set pushed (the pusher's); 0: none */
} push_state;

typedef struct serve_server {
  tool_output base; /* the server as an output of the run: first */
  struct MHD_Daemon *daemon;
  pthread_mutex_t lock;
  snapshot *current;        /* owned reference */
  long published;           /* snapshots made so far (the run's thread) */
  input_state input;        /* the run's thread's */
  const hp2x_options *opts; /* the pictures' (the command line's) */
  int loopback;             /* bound to loopback: Host is checked */
  int closing;              /* stopping: event streams end */
  sse_client *clients;      /* event streams, a list */
  guarded *conns;           /* every connection, a list */
  pthread_t guard;          /* guard.c's deadline thread */
  pthread_cond_t guard_wake;
  int guard_running;
  int drawers;          /* serve.c's drawing threads alive */
  pthread_cond_t drawn; /* drawers went down */
  draw_slots slots;     /* their turns */
  push_state push;      /* push.c's */
  char *warm;           /* "/?warm=1", NUL-ended (warm.h); NULL: none */
} serve_server;

/* ---------------------------------------------------------- events.c */

/* The response of /events (Server-Sent Events) for c; NULL: no memory. */
struct MHD_Response *events_response(serve_server *s, struct MHD_Connection *c);
/* An "update" event for redraw `generation` into buf (size bytes): the
 * status JSON with members "update" and "key" (NULL: none; no key without
 * it), in the key a waiting page's first report cut from lean page `first`
 * (NULL: none): "first":{"picture":"SVG","data":JSON}.  Returns its
 * length; nothing is written when over size (or the status is empty). */
size_t events_format(char *buf, size_t size, long generation,
                     const char *status, size_t status_len, const char *update,
                     size_t update_len, const char *key, size_t key_len,
                     const char *first);
/* Wakes every event stream waiting for news (called without the lock);
 * marks every stream due a heartbeat (a comment, to find clients that went
 * away: the deadline thread's, every few seconds) and wakes them; ends
 * every stream (the server is stopping). */
void events_notify(serve_server *s);
void events_heartbeat(serve_server *s);
void events_close_all(serve_server *s);
/* What a stream sent and what there is, for events_choose. */
typedef struct events_view {
  int news, heartbeat;     /* a snapshot it has not sent; a comment is due */
  long news_picture;       /* that snapshot's redraw */
  long cleared;            /* the newest redraw whose update may go (push.c) */
  long report;             /* the newest report's redraw; -1 none */
  long reported, pictured; /* of the last report, update sent; -1 none */
} events_view;
typedef enum events_next {
  EVENTS_UPDATE,
  EVENTS_REPORT,
  EVENTS_HEARTBEAT,
  EVENTS_WAIT /* nothing */
} events_next;
/* What a stream sends next: the news's update once push.c cleared it, but
 * a report due right after the first update sent as new as its redraw (a
 * stream always behind still sends it); the report; a heartbeat. */
events_next events_choose(const events_view *v);
void events_report_unref(pushed *r); /* of a report event (push.c's) */
/* text[0, n) as a JSON string's bytes into buf (NULL: counted); its length */
size_t events_escaped(char *buf, const char *text, size_t n);

/* ------------------------------------------------------------ push.c */

/* Where the report's PNG (its raster's src's base64) is in the page
 * (NUL-ended): [*from, *to); 0 when it has none (the waiting page). */
int push_page_png(const char *page, size_t *from, size_t *to);
/* A "report" event for redraw `picture`, of band set `set` (its 16 hex
 * digits), into buf (size bytes): one line of JSON data,
 * {"picture":N,"set":"...","lean":B,"page":"..."}, the page but bytes
 * [cut_from, cut_to) (the PNG's base64, when lean) as a JSON string.
 * Returns the event's length, writing nothing when it is over size. */
size_t push_format(char *buf, size_t size, long picture, const char *set,
                   int lean, const char *page, size_t len, size_t cut_from,
                   size_t cut_to);
/* Starts the pushing thread (0), which looks at each new snapshot once
 * push_wake is called; push_stop ends it, letting go of the last report. */
int push_start(serve_server *s);
void push_wake(serve_server *s);
void push_stop(serve_server *s);

/* ----------------------------------------------------------- guard.c */

/* The request deadline: a connection whose request is not complete 10 s
 * after it began (or after the previous one ended) is shut down;
 * guard_request_begun: c's request is complete (the handler answers it). */
int guard_start(serve_server *s);
void guard_stop(serve_server *s);
void guard_on_connection(void *cls, struct MHD_Connection *c, void **ctx,
                         enum MHD_ConnectionNotificationCode toe);
void guard_on_completed(void *cls, struct MHD_Connection *c, void **ctx,
                        enum MHD_RequestTerminationCode toe);
void guard_request_begun(serve_server *s, struct MHD_Connection *c);

#endif
