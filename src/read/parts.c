/* parts.c -- reading a stretch of input on several threads (parts.h): the
 * parts are cut one after another (the front end says where each may
 * end), read on every thread at once, at most RING_PER_THREAD per thread
 * ahead of the one being taken, and taken into the real reader in order on
 * the calling thread, which also reads parts while none is ready to take.
 * The reader's profile is only ever touched by the calling thread; the
 * other threads see the input and the front end's fixed configuration,
 * and block every signal (the caller's keep theirs).  A mapped file's
 * part lets go of its pages once read: a part read ahead holds its result,
 * not its bytes (taking it reads them again only when it is fed); the
 * parts taken are let go of by dropping their pages, not by unmapping
 * them (plan->let_go), since cutting the mapping would make the other
 * threads' faults and drops in it wait, and a thread woken from such a
 * wait is often put on the CPU of the one that woke it.  A
 * result taken is kept as a spare, whose memory the next part read reuses
 * (fresh pages cost more to fault in than the reading of them saves).
 */
#include "parts.h"

#include <string.h>

/* Parts read ahead of the one being taken, per thread: enough that a
 * thread rarely waits for the calling thread, few enough that the memory
 * held (each part's bytes and its profile) stays small. */
#define RING_PER_THREAD 3

/* ... and parts of at most MAPPED_BYTES over the threads, whose pages are
 * mapped at once while they are read, and no more parts in flight than
 * hold RING_BYTES of input (a part read ahead holds its profile), nor
 * fewer than one a thread and two more: the memory held stays about the
 * same for any number of threads (issue 41: --jobs=7 passed 95 MB
 * reading the 1.6 GB eventlog of bench/memgen.c). */
#define MAPPED_BYTES ((size_t)8 << 20)
#define RING_BYTES ((size_t)18 << 20)

/* The parts in flight for `threads` threads of parts of `want` bytes. */
static size_t ring_cap(size_t threads, size_t want) {
  size_t cap = RING_PER_THREAD * threads;
  size_t by_bytes = RING_BYTES / (want ? want : 1);
  if (by_bytes < threads + 2) by_bytes = threads + 2;
  return by_bytes < cap ? by_bytes : cap;
}

/* Part sizes chosen when the parser sets none. */
#define AUTO_PART_MIN ((size_t)256 << 10)
#define AUTO_PART_MAX ((size_t)3 << 20)

size_t hpx_parts_auto_bytes(size_t len, size_t threads) {
  size_t want = len / (8 * (threads ? threads : 1));
  size_t most = MAPPED_BYTES / (threads ? threads : 1);
  if (want > most) want = most;
  if (want < AUTO_PART_MIN) want = AUTO_PART_MIN;
  if (want > AUTO_PART_MAX) want = AUTO_PART_MAX;
  return want;
}

typedef enum { SLOT_READING, SLOT_READ } slot_state;

typedef struct part_slot {
  size_t start, len;   /* the part's bytes in buf */
  void *result;        /* the front end's, once read; NULL: none */
  hp2x_profile *spare; /* a part's profile done with, for its reading */
  slot_state state;
} part_slot;

typedef struct parts_run {
  const parts_front *f;
  const unsigned char *buf;
  size_t len;
  long long offset;       /* of buf[0] in the input */
  size_t want;            /* bytes a part should have */
  pthread_mutex_t lock;   /* guards everything below */
  pthread_cond_t changed; /* a part read or taken, or the run stopped */
  part_slot *ring;        /* [cap]: part k in ring[k % cap]; owned */
  size_t cap;
  hp2x_profile **spares; /* [cap]: parts' profiles done with; owned */
  size_t n_spares;
  size_t cut;            /* where the next part starts */
  size_t claimed, taken; /* parts cut so far; parts taken in order */
  int stop;              /* an error: no more parts */
  int mapped;            /* buf is a file's memory map (plan->mapped):
                            each part's pages are mapped in one call before
                            it is read, and let go of after */
} parts_run;

/* Cuts the next part for the calling thread, under the lock: its slot,
 * or NULL when there is none to cut now. */
static part_slot *claim(parts_run *r) {
  if (r->stop || r->cut >= r->len || r->claimed - r->taken >= r->cap)
    return NULL;
  part_slot *s = &r->ring[r->claimed % r->cap];
  size_t end = r->f->part_end(r->f->cfg, r->buf, r->len, r->cut, r->want);
  if (end <= r->cut || end > r->len) end = r->len;
  s->start = r->cut;
  s->len = end - r->cut;
  s->result = NULL;
  s->spare = r->n_spares ? r->spares[--r->n_spares] : NULL;
  s->state = SLOT_READING;
  r->cut = end;
  r->claimed++;
  return s;
}

/* Reads the claimed part s outside the lock, then publishes it; called and
 * returns with the lock held. */
static void read_part(parts_run *r, part_slot *s) {
  size_t start = s->start, len = s->len;
  hp2x_profile *spare = s->spare;
  s->spare = NULL;
  pthread_mutex_unlock(&r->lock);
  if (r->mapped) hpx_map_prefetch(r->buf + start, len);
  void *result = r->f->read(r->f->cfg, r->buf + start, len,
                            r->offset + (long long)start, spare);
  if (r->mapped) hpx_map_drop(r->buf + start, len);
  pthread_mutex_lock(&r->lock);
  s->result = result;
  s->state = SLOT_READ;
  pthread_cond_broadcast(&r->changed);
}

/* Once every part is cut, no part is read any more: the spares that the
 * calling thread's takes leave are freed here, beside its merging of the
 * parts still to take, instead of on it once they are all taken (under
 * the lock; returns with it held).  The last part's spare is left to the
 * calling thread: waiting for it, this thread would have to be woken
 * after the last take, and the calling thread would wait for that wake-up
 * (milliseconds on a busy machine) in its join. */
static void free_spares(parts_run *r) {
  for (;;) {
    if (r->n_spares) {
      hp2x_profile *p = r->spares[--r->n_spares];
      pthread_mutex_unlock(&r->lock);
      hp2x_profile_free(p);
      pthread_mutex_lock(&r->lock);
    } else if (r->stop || r->claimed - r->taken <= 1) {
      return;
    } else {
      pthread_cond_wait(&r->changed, &r->lock);
    }
  }
}

static void *worker(void *arg) {
  parts_run *r = arg;
  pthread_mutex_lock(&r->lock);
  while (!r->stop) {
    part_slot *s = claim(r);
    if (s) {
      read_part(r, s);
      continue;
    }
    if (r->cut >= r->len) {
      free_spares(r);
      break;
    }
    pthread_cond_wait(&r->changed, &r->lock);
  }
  pthread_mutex_unlock(&r->lock);
  return NULL;
}

/* Takes part s into the reader: its result merged, or its bytes fed; the
 * result is left in s, done with.  Called without the lock. */
static hp2x_status take_part(parts_run *r, part_slot *s, const feed_plan *plan,
                             hp2x_err *err) {
  const parts_front *f = r->f;
  int merged = 0;
  hp2x_status st = HP2X_OK;
  if (s->result) st = f->merge(f->fe, s->result, &merged, err);
  if (st == HP2X_OK && !merged)
    st = f->feed(f->fe, r->buf + s->start, s->len, err);
  if (plan->count) {
    if (merged)
      plan->count->merged++;
    else
      plan->count->fed++;
  }
  void (*go)(void *, const unsigned char *) = plan->let_go ? plan->let_go
                                                           : plan->release;
  if (st == HP2X_OK && go) go(plan->release_ctx, r->buf + s->start + s->len);
  return st;
}

/* Frees a result taken but its profile, kept for a later part's reading
 * to reuse (under the lock).  Results in the ring and spares together
 * never pass the ring's size (a take moves one from the ring to the
 * spares; a claim takes a spare when there is one), so the free below is
 * a guard, not a path. */
static void keep_spare(parts_run *r, void *result) {
  if (!result) return;
  hp2x_profile *p = r->f->release(result);
  if (p && r->n_spares < r->cap)
    r->spares[r->n_spares++] = p;
  else
    hp2x_profile_free(p);
}

/* The calling thread's loop: takes parts in order, reading one whenever
 * the next to take is not ready. */
static hp2x_status lead(parts_run *r, const feed_plan *plan, hp2x_err *err) {
  hp2x_status st = HP2X_OK;
  pthread_mutex_lock(&r->lock);
  while (r->taken < r->claimed || r->cut < r->len) {
    part_slot *next = &r->ring[r->taken % r->cap];
    if (r->taken < r->claimed && next->state == SLOT_READ) {
      pthread_mutex_unlock(&r->lock);
      st = take_part(r, next, plan, err);
      pthread_mutex_lock(&r->lock);
      keep_spare(r, next->result);
      next->result = NULL;
      r->taken++;
      pthread_cond_broadcast(&r->changed);
      if (st != HP2X_OK) break;
      continue;
    }
    part_slot *s = claim(r);
    if (s)
      read_part(r, s);
    else
      pthread_cond_wait(&r->changed, &r->lock);
  }
  r->stop = 1;
  pthread_cond_broadcast(&r->changed);
  pthread_mutex_unlock(&r->lock);
  return st;
}

hp2x_status hpx_parts_read(const parts_front *f, const unsigned char *buf,
                           size_t len, long long offset, const feed_plan *plan,
                           hp2x_err *err) {
  size_t threads = plan->threads ? plan->threads : 1;
  parts_run r;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.buf = buf;
  r.len = len;
  r.offset = offset;
  r.want = plan->part_bytes ? plan->part_bytes
                            : hpx_parts_auto_bytes(len, threads);
  r.cap = ring_cap(threads, r.want);
  r.mapped = plan->mapped;
  r.ring = hpx_calloc(r.cap, sizeof *r.ring);
  r.spares = hpx_calloc(r.cap, sizeof *r.spares);
  pthread_t *ids = threads > 1 ? hpx_calloc(threads - 1, sizeof *ids) : NULL;
  if (!r.ring || !r.spares || (threads > 1 && !ids)) {
    hpx_free(r.ring);
    hpx_free(r.spares);
    hpx_free(ids);
    return f->feed(f->fe, buf, len, err);
  }
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.changed, NULL);
  void **args = threads > 1 ? hpx_calloc(threads - 1, sizeof *args) : NULL;
  for (size_t i = 0; args && i < threads - 1; i++) args[i] = &r;
  size_t started = args ? hpx_threads_start(ids, threads - 1, worker, args, 1)
                        : 0;
  hpx_free(args);
  hp2x_status st = lead(&r, plan, err);
  for (size_t i = 0; i < started; i++) pthread_join(ids[i], NULL);
  for (size_t k = r.taken; k < r.claimed; k++) {
    part_slot *s = &r.ring[k % r.cap];
    if (s->result) hp2x_profile_free(f->release(s->result));
  }
  for (size_t i = 0; i < r.n_spares; i++) hp2x_profile_free(r.spares[i]);
  hpx_free(r.spares);
  pthread_cond_destroy(&r.changed);
  pthread_mutex_destroy(&r.lock);
  hpx_free(r.ring);
  hpx_free(ids);
  return st;
}
