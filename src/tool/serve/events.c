/* events.c -- the event streams of /events (Server-Sent Events): an
 * "update" event after each publish, its JSON the status and, once there
 * is a census, the live pages' update (snapshot_update: the newest
 * censuses, which the page draws itself), in a buffer that grows to the
 * event, sent once push.c has looked at the redraw's band set
 * (serve_server.push.cleared), with its band set's key when the stream has
 * not sent that set (snapshot_key: push.c makes it when the set changes),
 * and in the key, for a waiting page's first update, the first report's
 * picture and data when the update holds every census and that report is
 * drawn (first_report, put_first: the page draws census 1 into its warm-up);
 * when a new band set's page was pushed (push.c),
 * the "report" event, sent from the one copy every stream shares (a
 * stream that falls behind skips to the newest update and report, holding
 * at most one of each); a comment when the deadline thread (guard.c) calls for
 * a heartbeat, every few seconds, to find clients that went away.  A stream
 * with nothing to send is suspended, not polled.  The streams' list and
 * their flags are under the server's mutex; an event is made without it
 * (the update may take a while the first time), and libmicrohttpd is
 * called only without it held, but for suspending, which its own thread
 * does from the stream's callback.  Also the JSON string escape (push.c's
 * report event's too).
 */
#include "serve_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sse_client {
  serve_server *s;
  struct MHD_Connection *c;
  long sent;     /* generation last sent; -1 none */
  int suspended; /* suspended by the stream's callback */
  int heartbeat; /* a comment is due */
  char *buf;     /* the update or heartbeat being sent; owned */
  size_t len, off, cap;
  const char *out; /* the event being sent: buf, or held's bytes */
  pushed *held;    /* the report event being sent (push.c); a reference */
  long reported;   /* the redraw of the last report sent; -1 none */
  long pictured;   /* the redraw of the last update sent; -1 none */
  char set[16];    /* the band set of the last update sent; 0: none */
  int waiting;     /* a page with no report (?shown=-1) sent no update yet */
  sse_client *next, **prev;
};

/* Room for n bytes in c's buffer; 0 when out of memory. */
static int reserve(sse_client *c, size_t n) {
  if (n <= c->cap) return 1;
  size_t cap = c->cap ? c->cap : 1024;
  while (cap < n) cap *= 2;
  char *b = realloc(c->buf, cap);
  if (!b) return 0;
  c->buf = b;
  c->cap = cap;
  return 1;
}

/* The JSON string escape of byte c into o (room for 6), its length. */
static size_t escape(unsigned char c, char *o) {
  static const char hex[] = "0123456789abcdef";
  const char *short_form = c == '"'    ? "\\\""
                           : c == '\\' ? "\\\\"
                           : c == '\n' ? "\\n"
                           : c == '\r' ? "\\r"
                           : c == '\t' ? "\\t"
                                       : NULL;
  if (short_form) {
    memcpy(o, short_form, 2);
    return 2;
  }
  if (c >= 0x20) {
    o[0] = (char)c;
    return 1;
  }
  memcpy(o, "\\u00", 4);
  o[4] = hex[c >> 4], o[5] = hex[c & 15];
  return 6;
}

size_t events_escaped(char *buf, const char *text, size_t n) {
  size_t len = 0;
  char e[6];
  for (size_t i = 0; i < n; i++) {
    size_t k = escape((unsigned char)text[i], e);
    if (buf) memcpy(buf + len, e, k);
    len += k;
  }
  return len;
}

/* Where page (NUL-ended) has `open`, to the first `close` after it:
 * [*from, *to), the two left out; 0 when it has none. */
static int page_part(const char *page, const char *open, const char *close,
                     size_t *from, size_t *to) {
  const char *o = strstr(page, open);
  const char *c = o ? strstr(o + strlen(open), close) : NULL;
  if (!c) return 0;
  *from = (size_t)(o + strlen(open) - page);
  *to = (size_t)(c - page);
  return 1;
}

/* Writes (buf non-NULL) or counts text[0, n) with each line break a
 * space: JSON whose breaks lie between its tokens, on one data line. */
static size_t put_line(char *buf, const char *text, size_t n) {
  for (size_t i = 0; buf && i < n; i++)
    buf[i] = text[i] == '\n' || text[i] == '\r' ? ' ' : text[i];
  return n;
}

/* ,"first":{"picture":"SVG","data":JSON} of a lean page (NUL-ended) into
 * buf (NULL: counted), its length; 0 when the page lacks either. */
static size_t put_first(char *buf, const char *page) {
  /* the picture whole (the SVG element), the data inside its script */
  static const char svg[] = "<svg id=\"hp2x-picture\"", svg_end[] = "</svg>",
                    data[] = "<script type=\"application/json\" "
                             "id=\"hp2x-data\">",
                    head[] = ",\"first\":{\"picture\":\"",
                    mid[] = "\",\"data\":";
  size_t sf, st, df, dt;
  if (!page_part(page, svg, svg_end, &sf, &st) ||
      !page_part(page, data, "</script>", &df, &dt) || df == dt)
    return 0;
  sf -= sizeof svg - 1, st += sizeof svg_end - 1; /* the tags too */
  size_t n = sizeof head - 1;
  if (buf) memcpy(buf, head, sizeof head - 1);
  n += events_escaped(buf ? buf + n : NULL, page + sf, st - sf);
  if (buf) memcpy(buf + n, mid, sizeof mid - 1);
  n += sizeof mid - 1;
  n += put_line(buf ? buf + n : NULL, page + df, dt - df);
  if (buf) buf[n] = '}';
  return n + 1;
}

size_t events_format(char *buf, size_t size, long generation,
                     const char *status, size_t status_len, const char *update,
                     size_t update_len, const char *key, size_t key_len,
                     const char *first) {
  /* the status object, with the update and the key as its last members,
   * the first report the key's last */
  static const char head[] = "event: update\nid: ", data[] = "\ndata: ",
                    member[] = ",\"update\":", keyed[] = ",\"key\":",
                    tail[] = "}\n\n";
  char id[24];
  int k = snprintf(id, sizeof id, "%ld", generation);
  size_t idn = k > 0 ? (size_t)k : 0;
  size_t n = sizeof head - 1 + idn + sizeof data - 1 + status_len;
  if (!update) key = NULL;
  /* first goes after the key's last member: none in an empty key */
  if (!key || key_len < 3 || key[key_len - 1] != '}' || key[key_len - 2] == '{')
    first = NULL;
  size_t fn = first ? put_first(NULL, first) : 0;
  if (key) n += sizeof keyed - 1 + key_len + fn;
  if (update) /* the status's '}' goes after the update */
    n += sizeof member - 1 + update_len + sizeof tail - 1 - 1;
  else
    n += 2;
  if (n > size || status_len == 0) return n;
  char *o = buf;
  memcpy(o, head, sizeof head - 1), o += sizeof head - 1;
  memcpy(o, id, idn), o += idn;
  memcpy(o, data, sizeof data - 1), o += sizeof data - 1;
  if (!update) {
    memcpy(o, status, status_len), o += status_len;
    memcpy(o, "\n\n", 2);
    return n;
  }
  memcpy(o, status, status_len - 1), o += status_len - 1; /* without '}' */
  memcpy(o, member, sizeof member - 1), o += sizeof member - 1;
  memcpy(o, update, update_len), o += update_len;
  if (key) {
    memcpy(o, keyed, sizeof keyed - 1), o += sizeof keyed - 1;
    memcpy(o, key, key_len - !!fn), o += key_len - !!fn; /* '}' after it */
    if (fn) {
      o += put_first(o, first);
      *o++ = '}';
    }
  }
  memcpy(o, tail, sizeof tail - 1);
  return n;
}

/* The band set update names (its band set first: push.c) when it is
 * another than the last one c sent with its key, else NULL.  It becomes
 * c's once an event carries its key (fill_event). */
static const char *new_set(const sse_client *c, const char *update,
                           size_t len) {
  static const char key[] = "\"set\":\""; /* after the object's opening */
  const char *set = update + sizeof key;
  if (len < sizeof key + sizeof c->set ||
      memcmp(update + 1, key, sizeof key - 1) != 0 ||
      memcmp(c->set, set, sizeof c->set) == 0)
    return NULL;
  return set;
}

/* A waiting page's first report, when it takes news's whole key: the lean
 * page, cut by put_first, when it is drawn (push.c draws it for the
 * run's first redraw; never drawn here), else NULL. */
static const char *first_report(snapshot *news, int whole) {
  const char *page;
  size_t len;
  if (whole != 1 || !snapshot_picture_made(news, SNAPSHOT_LEAN_HTML) ||
      snapshot_picture(news, SNAPSHOT_LEAN_HTML, &page, &len) != 0)
    return NULL;
  return page;
}

/* Fills c's event from snapshot `news` (the status and its update, made
 * at most once a snapshot: snapshot_update), or with news NULL, a
 * heartbeat.  Without the server's mutex: only c's own thread touches its
 * buffer. */
static void fill_event(sse_client *c, snapshot *news) {
  c->off = 0;
  if (!news) {
    c->len = reserve(c, 3) ? 3 : 0;
    if (c->len) memcpy(c->buf, ":\n\n", 3);
    return;
  }
  long generation = snapshot_generation(news);
  char json[400];
  size_t n = snapshot_status_json(news, json, sizeof json);
  const char *update = NULL, *key = NULL, *first = NULL;
  size_t un = 0, kn = 0;
  if (snapshot_update(news, &update, &un) != 0) update = NULL;
  /* the key, with a band set this stream has not sent: made by push.c
   * when the set changed, or here for a stream that skipped that update */
  const char *set = update ? new_set(c, update, un) : NULL;
  int whole = set ? snapshot_key(news, 1, &key, &kn) : -1;
  if (whole < 0) key = NULL;
  if (c->waiting) first = first_report(news, whole);
  size_t need =
      events_format(NULL, 0, generation, json, n, update, un, key, kn, first);
  if (!reserve(c, need)) { /* no memory for it: the status alone */
    update = key = first = NULL;
    need = events_format(NULL, 0, generation, json, n, NULL, 0, NULL, 0, NULL);
  }
  c->len = reserve(c, need) ? events_format(c->buf, c->cap, generation, json, n,
                                            update, un, key, kn, first)
                            : 0;
  /* the set is c's once its key goes: else the next update tries again */
  if (key && c->len) memcpy(c->set, set, sizeof c->set);
  if (update && c->len) c->waiting = 0; /* its first report went, or not */
}

events_next events_choose(const events_view *v) {
  int report_due = v->report > v->reported;
  /* a report due goes right after the first update sent that is as new
   * as its redraw (its own, or a newer one for a stream that skipped it),
   * before any other: a stream that falls behind, with a newer update
   * each time it asks, still sends the report */
  if (v->news && (!report_due || v->report > v->pictured) &&
      v->news_picture <= v->cleared)
    return EVENTS_UPDATE;
  if (report_due) return EVENTS_REPORT;
  return v->heartbeat ? EVENTS_HEARTBEAT : EVENTS_WAIT;
}

/* The stream's callback: the rest of c's event, or the next one when
 * there is news (or a heartbeat is due), or, with none, the stream
 * suspended until events_notify.  The lock is held only to look at the
 * current snapshot and the flags: the event is made without it. */
static ssize_t read_events(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  sse_client *c = cls;
  serve_server *s = c->s;
  pthread_mutex_lock(&s->lock);
  if (s->closing) {
    pthread_mutex_unlock(&s->lock);
    return MHD_CONTENT_READER_END_OF_STREAM;
  }
  if (c->off >= c->len) {
    pushed *done = c->held, *report = s->push.report;
    c->held = NULL;
    snapshot *news = s->current;
    events_view v = {news && c->sent != snapshot_generation(news),
                     c->heartbeat,
                     news ? snapshot_picture_generation(news) : -1,
                     s->push.running ? s->push.cleared : LONG_MAX,
                     report ? report->picture : -1,
                     c->reported,
                     c->pictured};
    events_next next = events_choose(&v);
    if (next == EVENTS_UPDATE) {
      snapshot_ref(news);
      c->sent = snapshot_generation(news);
      c->pictured = snapshot_picture_generation(news);
    } else if (next == EVENTS_REPORT) {
      /* the newest report, sent from the shared copy (at times before
       * its redraw's update: the page takes either order) */
      atomic_fetch_add(&report->refs, 1);
      c->held = report;
      c->reported = report->picture;
      c->out = report->data, c->len = report->len, c->off = 0;
    } else if (next == EVENTS_HEARTBEAT) {
      news = NULL;
    } else {
      c->suspended = 1; /* events_notify resumes it */
      MHD_suspend_connection(c->c);
      pthread_mutex_unlock(&s->lock);
      events_report_unref(done);
      return 0;
    }
    if (!c->held) c->heartbeat = 0;
    pthread_mutex_unlock(&s->lock);
    events_report_unref(done);
    if (!c->held) {
      fill_event(c, news);
      c->out = c->buf; /* where reserve left it */
      snapshot_unref(news);
    }
  } else {
    pthread_mutex_unlock(&s->lock);
  }
  size_t n = c->len - c->off < max ? c->len - c->off : max;
  memcpy(buf, c->out + c->off, n);
  c->off += n;
  return (ssize_t)n;
}

void events_report_unref(pushed *r) {
  if (r && atomic_fetch_sub(&r->refs, 1) == 1) free(r);
}

static void free_events(void *cls) {
  sse_client *c = cls;
  pthread_mutex_lock(&c->s->lock);
  if (c->prev) *c->prev = c->next;
  if (c->next) c->next->prev = c->prev;
  pthread_mutex_unlock(&c->s->lock);
  events_report_unref(c->held);
  free(c->buf);
  free(c);
}

/* The redraw a page following /events?shown=N shows (N, 0 or more; -1:
 * none, the waiting page), or -2 when it says nothing: then a report
 * pushed before the stream came is not sent, as a page just loaded has
 * its redraw's report. */
static long shown_of(struct MHD_Connection *conn) {
  const char *v =
      MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "shown");
  char *end;
  if (v && strcmp(v, "-1") == 0) return -1;
  if (!v || *v < '0' || *v > '9') return -2;
  errno = 0;
  long n = strtol(v, &end, 10);
  return *end || errno ? -2 : n;
}

struct MHD_Response *events_response(serve_server *s,
                                     struct MHD_Connection *conn) {
  sse_client *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->s = s;
  c->c = conn;
  c->sent = -1;
  c->pictured = -1;
  long shown = shown_of(conn);
  c->reported = shown >= -1 ? shown : -1;
  c->waiting = shown == -1;
  struct MHD_Response *r = MHD_create_response_from_callback(
      MHD_SIZE_UNKNOWN, 1024, read_events, c, free_events);
  if (!r) {
    free(c);
    return NULL;
  }
  pthread_mutex_lock(&s->lock);
  /* a report pushed before it came: sent when newer than what the page
   * says it shows (?shown=N: a stream followed again, by a page that
   * reconnects or takes the lead); without it, not sent */
  if (s->push.report && shown == -2) c->reported = s->push.report->picture;
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

void events_heartbeat(serve_server *s) { resume_streams(s, 1); }

void events_close_all(serve_server *s) {
  pthread_mutex_lock(&s->lock);
  s->closing = 1;
  pthread_mutex_unlock(&s->lock);
  resume_streams(s, 0);
}
