/* snapshot.c -- what --serve answers from, one per redraw: the
 * metrics text and the status (made when published, on the run's thread:
 * a few hundred bytes), and copies of the profile and its bands from which
 * the server's thread draws a picture the first time one is asked for,
 * keeping it for the next requests until the next redraw; likewise the
 * live pages' update (the newest censuses, which they draw themselves,
 * and, where the report thins, what changed in the censuses it holds
 * since the update made before: the server's snapshot_chain).
 * A snapshot is
 * freed when its last reader lets it go, so a slow client holds an old
 * one without holding up the run.
 */
#include "serve_int.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  N_DRAWN = 16,         /* > every hp2x_format value */
  UPDATE = N_DRAWN,     /* the update's lock and flag */
  KEY = N_DRAWN + 1,    /* the key's */
  N_MADE = N_DRAWN + 2, /* locks and flags */
};
_Static_assert((int)HP2X_FORMAT_PPROF < (int)SNAPSHOT_LEAN_HTML &&
                   (int)SNAPSHOT_LEAN_HTML < (int)N_DRAWN,
               "a slot each format, and the lean page's");

typedef struct membuf {
  char *data;
  size_t len, cap;
} membuf;

/* Empties m (what a failed drawing left in it). */
static void membuf_clear(membuf *m) {
  free(m->data);
  memset(m, 0, sizeof *m);
}

/* hp2x_write_fn into a membuf. */
static int membuf_write(void *closure, const void *buf, size_t len) {
  membuf *m = closure;
  if (m->len + len + 1 > m->cap) {
    size_t cap = m->cap ? m->cap : 4096;
    while (cap < m->len + len + 1) cap *= 2;
    char *d = realloc(m->data, cap);
    if (!d) return -1;
    m->data = d;
    m->cap = cap;
  }
  memcpy(m->data + m->len, buf, len);
  m->len += len;
  m->data[m->len] = '\0';
  return 0;
}

/* The censuses the live pages hold after the newest update made
 * (hp2x_write_live_step's): one a server, shared by its snapshots, each
 * new one's taken from the one before. */
typedef struct snapshot_chain {
  atomic_int refs;
  pthread_mutex_t lock; /* held while an update is made */
  hp2x_live_held held;
} snapshot_chain;

static snapshot_chain *chain_new(void) {
  snapshot_chain *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  atomic_init(&c->refs, 1);
  pthread_mutex_init(&c->lock, NULL);
  c->held = (hp2x_live_held)HP2X_LIVE_HELD_INIT;
  return c;
}

static void chain_unref(snapshot_chain *c) {
  if (!c || atomic_fetch_sub(&c->refs, 1) != 1) return;
  hp2x_live_held_clear(&c->held);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

/* The copies pictures are drawn from, shared by the snapshots of one
 * redraw (a change of the input's state draws nothing new). */
typedef struct pictures {
  atomic_int refs;
  long generation; /* of the snapshot that published it */
  hp2x_profile *p; /* owned; NULL: nothing drawn yet */
  hp2x_bands *b;   /* owned */
  hp2x_options o;  /* the run's when published, without its
                      .aux (the bands carry what it gave) */
  /* Each picture, the update and the key are made under a lock of their
   * own, and read once `made` is set without one; nothing else waits. */
  pthread_mutex_t lock[N_MADE]; /* by format; then UPDATE, KEY */
  atomic_int made[N_MADE];
  membuf drawn[N_DRAWN]; /* by format */
  membuf update;         /* the live pages' update (hp2x_write_live_update) */
  membuf key;            /* and its new band set (hp2x_write_live_key) */
  int key_whole; /* the update's censuses are every one: a page draws the
                    new set from it alone */
  snapshot_chain *chain; /* a reference; NULL: none */
} pictures;

struct snapshot {
  atomic_int refs;
  long generation;
  input_state input;
  long long censuses;
  int has_census;
  double last_census_s;
  membuf metrics;
  pictures *pics; /* a reference */
};

static void pictures_unref(pictures *pc) {
  if (!pc || atomic_fetch_sub(&pc->refs, 1) != 1) return;
  for (int i = 0; i < N_DRAWN; i++) free(pc->drawn[i].data);
  free(pc->update.data);
  free(pc->key.data);
  for (int i = 0; i < N_MADE; i++) pthread_mutex_destroy(&pc->lock[i]);
  hp2x_bands_free(pc->b);
  hp2x_profile_free(pc->p);
  chain_unref(pc->chain);
  free(pc);
}

static pictures *pictures_new(const hp2x_options *o, const hp2x_profile *p,
                              const hp2x_bands *b, snapshot_chain *chain,
                              long generation) {
  pictures *pc = calloc(1, sizeof *pc);
  if (!pc) return NULL;
  pc->generation = generation;
  if (chain) atomic_fetch_add(&chain->refs, 1);
  pc->chain = chain ? chain : chain_new(); /* NULL: updates against none */
  atomic_init(&pc->refs, 1);
  pc->o = *o;
  pc->o.aux = NULL; /* the run frees it; the run's regexes outlive us */
  for (int i = 0; i < N_MADE; i++) {
    pthread_mutex_init(&pc->lock[i], NULL);
    atomic_init(&pc->made[i], 0);
  }
  hp2x_err err;
  hp2x_err_init(&err);
  if (p && hp2x_profile_sample_count(p) > 0 &&
      (hp2x_profile_window(p, -INFINITY, INFINITY, &pc->p, &err) != HP2X_OK ||
       (b && hp2x_bands_copy(b, &pc->b, &err) != HP2X_OK))) {
    pictures_unref(pc);
    return NULL;
  }
  return pc;
}

/* The metrics text and the status of s, from its pictures' copies. */
static int snapshot_fill(snapshot *s) {
  const hp2x_profile *p = s->pics->p;
  size_t n = p ? hp2x_profile_sample_count(p) : 0;
  s->has_census = n > 0;
  s->last_census_s = n ? hp2x_profile_sample_time(p, n - 1) : 0.0;
  hp2x_metrics_state st = {s->censuses, s->input == INPUT_CONNECTED};
  hp2x_err err;
  hp2x_err_init(&err);
  return hp2x_write_metrics(p, s->pics->b, &st, membuf_write, &s->metrics,
                            &err) == HP2X_OK &&
                 s->metrics.data
             ? 0
             : -1;
}

static snapshot *snapshot_with(pictures *pc, long generation, input_state input,
                               long long censuses) {
  snapshot *s = calloc(1, sizeof *s);
  if (!s) {
    pictures_unref(pc);
    return NULL;
  }
  atomic_init(&s->refs, 1);
  s->generation = generation;
  s->input = input;
  s->censuses = censuses;
  s->pics = pc;
  if (snapshot_fill(s) != 0) {
    snapshot_unref(s);
    return NULL;
  }
  return s;
}

snapshot *snapshot_new(const hp2x_options *o, const hp2x_profile *p,
                       const hp2x_bands *b, snapshot *after, long generation,
                       input_state input, long long censuses) {
  pictures *pc =
      pictures_new(o, p, b, after ? after->pics->chain : NULL, generation);
  return pc ? snapshot_with(pc, generation, input, censuses) : NULL;
}

snapshot *snapshot_restate(snapshot *old, long generation, input_state input) {
  atomic_fetch_add(&old->pics->refs, 1);
  return snapshot_with(old->pics, generation, input, old->censuses);
}

long snapshot_generation(const snapshot *s) { return s->generation; }

long snapshot_picture_generation(const snapshot *s) {
  return s->pics->generation;
}

void snapshot_ref(snapshot *s) { atomic_fetch_add(&s->refs, 1); }

void snapshot_unref(snapshot *s) {
  if (!s || atomic_fetch_sub(&s->refs, 1) != 1) return;
  free(s->metrics.data);
  pictures_unref(s->pics);
  free(s);
}

const char *snapshot_metrics(const snapshot *s, size_t *len) {
  *len = s->metrics.len;
  return s->metrics.data;
}

size_t snapshot_status_json(const snapshot *s, char *buf, size_t size) {
  static const char *const names[] = {"waiting", "connected", "closed"};
  char last[64] = "null";
  if (s->has_census) snprintf(last, sizeof last, "%.6f", s->last_census_s);
  int n = snprintf(buf, size,
                   "{\"generation\":%ld,\"picture\":%ld,\"input\":\"%s\","
                   "\"censuses\":%lld,\"last_census\":%s}",
                   s->generation, s->pics->generation, names[s->input],
                   s->censuses, last);
  return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* Draws pc's picture in format f into pc->drawn[f], once; left empty
 * when drawing fails.  The page (HTML) is the report, or, with no
 * profile yet or a report that cannot be drawn, the waiting page; pprof
 * (/debug/pprof/heap) the last census. */
static void draw_once(pictures *pc, hp2x_format f) {
  membuf *out = &pc->drawn[f];
  hp2x_options o = pc->o;
  /* the lean report is the page's format (SNAPSHOT_LEAN_HTML is a slot,
   * not a format) */
  o.format = f == SNAPSHOT_LEAN_HTML ? HP2X_FORMAT_HTML : f;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *fresh = NULL;
  const hp2x_bands *b = pc->b;
  const hp2x_format_info *row = hp2x_format_of(f);
  if (row && row->span == HP2X_SPAN_CENSUS) { /* pprof: the last census */
    hp2x_census_choice_init(&o.census);
    o.census.rule = HP2X_CENSUS_LAST;
    if (hp2x_write_output(pc->p, NULL, NULL, &o, membuf_write, out, &err) !=
        HP2X_OK)
      membuf_clear(out);
    return;
  }
  if (pc->p && !b && hp2x_bands_select(pc->p, &o, &fresh, &err) == HP2X_OK)
    b = fresh;
  hp2x_status st = !b ? HP2X_E_ARG
                   : f == SNAPSHOT_LEAN_HTML
                       ? hp2x_write_live_lean_html(pc->p, b, &o, pc->generation,
                                                   membuf_write, out, &err)
                   : f == HP2X_FORMAT_HTML
                       ? hp2x_write_live_html(pc->p, b, &o, pc->generation,
                                              membuf_write, out, &err)
                       : hp2x_render(pc->p, b, &o, membuf_write, out, &err);
  if (st != HP2X_OK) membuf_clear(out);
  if (st != HP2X_OK && f == HP2X_FORMAT_HTML &&
      hp2x_write_live_waiting_html(pc->p ? pc->generation : -1, membuf_write,
                                   out, &err) != HP2X_OK)
    membuf_clear(out);
  hp2x_bands_free(fresh);
}

/* The newest censuses a live update carries: up to HPX_LIVE_TAIL (64),
 * fewer with many bands, so that they stay near 64 KB (the marks, at most
 * 50 KB and only in an update where they changed, and the --heap lines,
 * at most ~150 KB, come on top). */
static size_t update_tail(const hp2x_bands *b) {
  size_t per = 40 + 12 * hp2x_bands_count(b), n = 65536 / per;
  return n < 1 ? 1 : n > 64 ? 64 : n;
}

/* pc's bands: kept, or selected into *fresh (free it); NULL when that
 * fails. */
static const hp2x_bands *bands_of(const pictures *pc, hp2x_bands **fresh) {
  hp2x_err err;
  hp2x_err_init(&err);
  *fresh = NULL;
  if (pc->b) return pc->b;
  return hp2x_bands_select(pc->p, &pc->o, fresh, &err) == HP2X_OK ? *fresh
                                                                  : NULL;
}

/* Makes pc's update, once: against the update made before it (an older
 * redraw's made later is written against none: its pages load the
 * report where it thins). */
static void update_once(pictures *pc) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *fresh;
  const hp2x_bands *b = bands_of(pc, &fresh);
  if (pc->chain) pthread_mutex_lock(&pc->chain->lock);
  if (!b ||
      hp2x_write_live_step(pc->p, b, &pc->o, update_tail(b), pc->generation,
                           pc->chain ? &pc->chain->held : NULL, membuf_write,
                           &pc->update, &err) != HP2X_OK)
    membuf_clear(&pc->update);
  if (pc->chain) pthread_mutex_unlock(&pc->chain->lock);
  hp2x_bands_free(fresh);
}

/* Makes pc's key, once. */
static void key_once(pictures *pc) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *fresh;
  const hp2x_bands *b = bands_of(pc, &fresh);
  if (!b || hp2x_write_live_key(pc->p, b, &pc->o, membuf_write, &pc->key,
                                &err) != HP2X_OK)
    membuf_clear(&pc->key);
  else
    pc->key_whole = hp2x_bands_sample_count(b) <= update_tail(b);
  hp2x_bands_free(fresh);
}

/* Slot i's membuf m of s, made by make(pc) on the first call when `make`,
 * else only when made already: 0 with *data and *len, or -1. */
static int made_once(snapshot *s, int i, membuf *m, void (*make)(pictures *),
                     int may_make, const char **data, size_t *len) {
  pictures *pc = s->pics;
  *data = NULL, *len = 0;
  if (!pc->p) return -1; /* nothing drawn yet */
  if (!atomic_load(&pc->made[i])) {
    if (!may_make) return -1;
    pthread_mutex_lock(&pc->lock[i]);
    if (!atomic_load(&pc->made[i])) {
      make(pc);
      atomic_store(&pc->made[i], 1);
    }
    pthread_mutex_unlock(&pc->lock[i]);
  }
  *data = m->data;
  *len = m->len;
  return *data ? 0 : -1;
}

int snapshot_update(snapshot *s, const char **data, size_t *len) {
  return made_once(s, UPDATE, &s->pics->update, update_once, 1, data, len);
}

int snapshot_key(snapshot *s, int make, const char **data, size_t *len) {
  if (made_once(s, KEY, &s->pics->key, key_once, make, data, len) != 0)
    return -1;
  return s->pics->key_whole ? 1 : 0;
}

/* f has no picture in s, ever. */
static int never_drawn(const pictures *pc, hp2x_format f) {
  return (unsigned)f >= N_DRAWN || (!pc->p && f != HP2X_FORMAT_HTML);
}

int snapshot_picture_made(snapshot *s, hp2x_format f) {
  return never_drawn(s->pics, f) || atomic_load(&s->pics->made[f]);
}

void snapshot_slots_init(draw_slots *d, int most) {
  pthread_mutex_init(&d->lock, NULL);
  pthread_cond_init(&d->turn, NULL);
  d->drawing = 0;
  d->most = most;
}

void snapshot_slots_destroy(draw_slots *d) {
  pthread_cond_destroy(&d->turn);
  pthread_mutex_destroy(&d->lock);
}

/* Waits for a turn to draw (d NULL: none to wait for). */
static void slot_take(draw_slots *d) {
  if (!d) return;
  pthread_mutex_lock(&d->lock);
  while (d->drawing >= d->most) pthread_cond_wait(&d->turn, &d->lock);
  d->drawing++;
  pthread_mutex_unlock(&d->lock);
}

static void slot_give(draw_slots *d) {
  if (!d) return;
  pthread_mutex_lock(&d->lock);
  d->drawing--;
  pthread_cond_signal(&d->turn);
  pthread_mutex_unlock(&d->lock);
}

void snapshot_draw(snapshot *s, hp2x_format f, draw_slots *slots) {
  pictures *pc = s->pics;
  if (snapshot_picture_made(s, f)) return;
  pthread_mutex_lock(&pc->lock[f]);
  if (!atomic_load(&pc->made[f])) {
    slot_take(slots);
    draw_once(pc, f);
    atomic_store(&pc->made[f], 1);
    slot_give(slots);
  }
  pthread_mutex_unlock(&pc->lock[f]);
}

int snapshot_picture(snapshot *s, hp2x_format f, const char **data,
                     size_t *len) {
  *data = NULL, *len = 0;
  if (never_drawn(s->pics, f)) return -1;
  snapshot_draw(s, f, NULL);
  *data = s->pics->drawn[f].data;
  *len = s->pics->drawn[f].len;
  return *data ? 0 : -1;
}
