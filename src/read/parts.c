/* parts.c -- reading a stretch of input on several threads (parts.h): the
 * parts are cut one after another (the front end says where each may
 * end), read on every thread at once, at most RING_PER_THREAD per thread
 * ahead of the one being taken, and taken into the real reader in order on
 * the calling thread, which also reads parts while none is ready to take.
 * The reader's profile is only ever touched by the calling thread; the
 * other threads see the input and the front end's fixed configuration,
 * and block every signal (the caller's keep theirs).  A file's part is
 * read with pread a piece at a time into its reader's own buffer, reused
 * piece after piece (parsed hot in the cache, few fresh pages, and no page
 * of the file ever mapped): a part read ahead holds its result, not its
 * bytes, so taking it reads them again only when it is fed.  A result
 * taken is kept as a spare, whose memory the next part read reuses (fresh
 * pages cost more to fault in than the reading of them saves).  Also the
 * stretch itself (parts_src): bytes in memory, or a file read with pread,
 * EINTR and short reads taken care of, a file that ends early an error.
 */
#include "parts.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Parts read ahead of the one being taken, per thread: enough that a
 * thread rarely waits for the calling thread, few enough that the memory
 * held (each part's bytes and its profile) stays small. */
#define RING_PER_THREAD 3

/* ... and parts of at most READ_BYTES over the threads, whose bytes are
 * in memory at once while they are read (a file's in its readers'
 * buffers), and no more parts in flight than
 * hold RING_BYTES of input (a part read ahead holds its profile), nor
 * fewer than one a thread and two more: the memory held stays about the
 * same for any number of threads (issue 41: --jobs=7 passed 95 MB
 * reading the 1.6 GB eventlog of bench/memgen.c). */
#define READ_BYTES ((size_t)8 << 20)
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
  size_t most = READ_BYTES / (threads ? threads : 1);
  if (want > most) want = most;
  if (want < AUTO_PART_MIN) want = AUTO_PART_MIN;
  if (want > AUTO_PART_MAX) want = AUTO_PART_MAX;
  return want;
}

/* The window the cutter reads a file through: 4 KiB where it jumps (the
 * next cut is most often a few lines or one block marker on), twice the
 * last one, up to 256 KiB, where it goes on reading past it; and the
 * piece a file is fed at a time. */
#define SRC_WINDOW_MIN ((size_t)4 << 10)
#define SRC_WINDOW_MAX ((size_t)256 << 10)
#define SRC_PIECE ((size_t)256 << 10)

/* A file's part is read a quarter of a part at a time, within these
 * bounds: its reader's buffer stays small (few fresh pages, and hot in
 * the cache as it is parsed) whatever the part, and the tests' small
 * parts are read in several pieces too. */
#define PIECE_MIN ((size_t)256)
#define PIECE_MAX ((size_t)256 << 10)

/* ------------------------------------------------------ the stretch */

void hpx_src_mem(parts_src *s, const unsigned char *buf, size_t len,
                 long long offset) {
  memset(s, 0, sizeof *s);
  s->mem = buf;
  s->fd = -1;
  s->len = len;
  s->offset = offset;
}

void hpx_src_fd(parts_src *s, int fd, long long at, size_t len,
                long long offset) {
  memset(s, 0, sizeof *s);
  s->fd = fd;
  s->at = at;
  s->len = len;
  s->offset = offset;
}

void hpx_src_skip(parts_src *s, size_t n) {
  if (n > s->len) n = s->len;
  if (s->mem) s->mem += n;
  s->at += (long long)n;
  s->offset += (long long)n;
  s->len -= n;
  s->win_len = 0;
}

void hpx_src_free(parts_src *s) {
  hpx_free(s->win);
  s->win = NULL;
  s->win_cap = s->win_len = 0;
}

/* Makes room for n bytes in b: 0, or -1 when out of memory.  Grown by
 * half again at least, so that pieces a little longer do not each take a
 * fresh buffer.  The n bytes' pages are mapped at once: a read fills
 * them (a fault a page otherwise, on each thread's first piece). */
static int buf_room(parts_buf *b, size_t n) {
  if (b->cap >= n) return 0;
  size_t need = n;
  if (n < b->cap + b->cap / 2) n = b->cap + b->cap / 2;
  unsigned char *p = hpx_malloc(n);
  if (!p) return -1;
  hpx_prefault_all(p, 0, need);
  hpx_free(b->p);
  b->p = p;
  b->cap = n;
  return 0;
}

/* Reads bytes [pos, pos + n) of the file into `into`: 0, or -1 with errno
 * set (0 when the file ends early). */
static int src_pread(const parts_src *s, size_t pos, size_t n,
                     unsigned char *into, size_t *got) {
  *got = 0;
  while (*got < n) {
    ssize_t r = pread(s->fd, into + *got, n - *got,
                      (off_t)(s->at + (long long)(pos + *got)));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) {
      errno = 0;
      return -1;
    }
    *got += (size_t)r;
  }
  return 0;
}

const unsigned char *hpx_src_at(parts_src *s, size_t pos, size_t need,
                                size_t *avail) {
  *avail = 0;
  if (pos >= s->len) return NULL;
  size_t rest = s->len - pos;
  if (s->mem) {
    *avail = rest;
    return s->mem + pos;
  }
  if (need > rest) need = rest;
  if (pos >= s->win_from && pos + need <= s->win_from + s->win_len) {
    *avail = s->win_from + s->win_len - pos;
    return s->win + (pos - s->win_from);
  }
  size_t n = SRC_WINDOW_MIN, got;
  if (s->win_len && pos >= s->win_from && pos - s->win_from < 2 * s->win_len)
    n = 2 * s->win_len < SRC_WINDOW_MAX ? 2 * s->win_len : SRC_WINDOW_MAX;
  if (n < need) n = need;
  if (n > rest) n = rest;
  parts_buf b = {s->win, s->win_cap};
  s->win_len = 0;
  if (buf_room(&b, n) != 0) return NULL;
  s->win = b.p;
  s->win_cap = b.cap;
  if (src_pread(s, pos, n, s->win, &got) != 0) return NULL;
  s->win_from = pos;
  s->win_len = *avail = n;
  return s->win;
}

const unsigned char *hpx_src_bytes(const parts_src *s, size_t pos, size_t n,
                                   parts_buf *b, hp2x_err *err) {
  if (s->mem) return s->mem + pos;
  size_t got;
  if (buf_room(b, n ? n : 1) != 0) {
    hpx_nomem(err);
    return NULL;
  }
  if (src_pread(s, pos, n, b->p, &got) == 0) return b->p;
  long long at = s->offset + (long long)(pos + got);
  if (errno)
    hpx_fail(err, HP2X_E_IO, 0, at, "read failed: %s", strerror(errno));
  else
    hpx_fail(err, HP2X_E_IO, 0, at,
             "the file ends here: it shrank while read (it had %lld bytes)",
             s->at + (long long)s->len);
  return NULL;
}

hp2x_status hpx_src_feed(const parts_src *s, size_t pos, size_t n,
                         hp2x_status (*feed)(void *fe, const unsigned char *,
                                             size_t, hp2x_err *),
                         void *fe, parts_buf *b, hp2x_err *err) {
  size_t piece = s->mem ? n : SRC_PIECE;
  hp2x_status st = HP2X_OK;
  for (size_t at = 0; st == HP2X_OK && at < n; at += piece) {
    size_t k = n - at < piece ? n - at : piece;
    const unsigned char *p = hpx_src_bytes(s, pos + at, k, b, err);
    st = p ? feed(fe, p, k, err) : err->code;
  }
  return st;
}

/* ------------------------------------------------- a part's pieces */

struct parts_pieces {
  const parts_src *src;
  size_t at, end; /* the bytes still to read */
  size_t piece;   /* a piece's bytes (a file's) */
  parts_buf *b;   /* the reader's buffer (a file's) */
  int failed;
};

const unsigned char *hpx_pieces_next(parts_pieces *in, size_t *n) {
  *n = 0;
  if (in->failed || in->at >= in->end) return NULL;
  size_t k = in->end - in->at;
  if (!in->src->mem && k > in->piece) k = in->piece;
  hp2x_err err;
  hp2x_err_init(&err);
  const unsigned char *p = hpx_src_bytes(in->src, in->at, k, in->b, &err);
  if (!p) {
    in->failed = 1;
    return NULL;
  }
  in->at += k;
  *n = k;
  return p;
}

int hpx_pieces_failed(const parts_pieces *in) { return in->failed; }

/* ------------------------------------------------------- the parts */

typedef enum { SLOT_READING, SLOT_READ } slot_state;

typedef struct part_slot {
  size_t start, len;   /* the part's bytes in buf */
  void *result;        /* the front end's, once read; NULL: none */
  hp2x_profile *spare; /* a part's profile done with, for its reading */
  slot_state state;
} part_slot;

typedef struct parts_run {
  const parts_front *f;
  parts_src *src;         /* the stretch; its window is the cutter's */
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
} parts_run;

/* Cuts the next part for the calling thread, under the lock: its slot,
 * or NULL when there is none to cut now. */
static part_slot *claim(parts_run *r) {
  size_t len = r->src->len;
  if (r->stop || r->cut >= len || r->claimed - r->taken >= r->cap) return NULL;
  part_slot *s = &r->ring[r->claimed % r->cap];
  size_t end = r->f->part_end(r->f->cfg, r->src, r->cut, r->want);
  if (end <= r->cut || end > len) end = len;
  s->start = r->cut;
  s->len = end - r->cut;
  s->result = NULL;
  s->spare = r->n_spares ? r->spares[--r->n_spares] : NULL;
  s->state = SLOT_READING;
  r->cut = end;
  r->claimed++;
  return s;
}

/* Reads part [start, start + len) of the stretch, a piece at a time into
 * b when its bytes are a file's: the result, or NULL (out of memory, or
 * the bytes not to be had: the part is then fed in order). */
static void *read_bytes(const parts_run *r, size_t start, size_t len,
                        parts_buf *b, hp2x_profile *spare) {
  size_t piece = r->want / 4;
  if (piece < PIECE_MIN) piece = PIECE_MIN;
  if (piece > PIECE_MAX) piece = PIECE_MAX;
  parts_pieces in = {r->src, start, start + len, piece, b, 0};
  return r->f->read(r->f->cfg, &in, len, r->src->offset + (long long)start,
                    spare);
}

/* Reads the claimed part s outside the lock (its bytes in b when they are
 * a file's), then publishes it; called and returns with the lock held. */
static void read_part(parts_run *r, part_slot *s, parts_buf *b) {
  hp2x_profile *spare = s->spare;
  s->spare = NULL;
  pthread_mutex_unlock(&r->lock);
  void *result = read_bytes(r, s->start, s->len, b, spare);
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
  parts_buf b = {NULL, 0};
  pthread_mutex_lock(&r->lock);
  while (!r->stop) {
    part_slot *s = claim(r);
    if (s) {
      read_part(r, s, &b);
      continue;
    }
    if (r->cut >= r->src->len) {
      free_spares(r);
      break;
    }
    pthread_cond_wait(&r->changed, &r->lock);
  }
  pthread_mutex_unlock(&r->lock);
  hpx_free(b.p);
  return NULL;
}

/* Takes part s into the reader: its result merged, or its bytes fed (read
 * again into b when they are a file's); the result is left in s, done
 * with.  Called without the lock. */
static hp2x_status take_part(parts_run *r, part_slot *s, const feed_plan *plan,
                             parts_buf *b, hp2x_err *err) {
  const parts_front *f = r->f;
  int merged = 0;
  hp2x_status st = HP2X_OK;
  if (s->result) st = f->merge(f->fe, s->result, &merged, err);
  if (st == HP2X_OK && !merged)
    st = hpx_src_feed(r->src, s->start, s->len, f->feed, f->fe, b, err);
  if (plan->count) {
    if (merged)
      plan->count->merged++;
    else
      plan->count->fed++;
  }
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
static hp2x_status lead(parts_run *r, const feed_plan *plan, parts_buf *b,
                        hp2x_err *err) {
  hp2x_status st = HP2X_OK;
  pthread_mutex_lock(&r->lock);
  while (r->taken < r->claimed || r->cut < r->src->len) {
    part_slot *next = &r->ring[r->taken % r->cap];
    if (r->taken < r->claimed && next->state == SLOT_READ) {
      pthread_mutex_unlock(&r->lock);
      st = take_part(r, next, plan, b, err);
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
      read_part(r, s, b);
    else
      pthread_cond_wait(&r->changed, &r->lock);
  }
  r->stop = 1;
  pthread_cond_broadcast(&r->changed);
  pthread_mutex_unlock(&r->lock);
  return st;
}

hp2x_status hpx_parts_read(const parts_front *f, parts_src *src, size_t from,
                           const feed_plan *plan, hp2x_err *err) {
  size_t threads = plan->threads ? plan->threads : 1;
  parts_run r;
  memset(&r, 0, sizeof r);
  r.f = f;
  r.src = src;
  r.cut = from;
  r.want = plan->part_bytes ? plan->part_bytes
                            : hpx_parts_auto_bytes(src->len - from, threads);
  r.cap = ring_cap(threads, r.want);
  r.ring = hpx_calloc(r.cap, sizeof *r.ring);
  r.spares = hpx_calloc(r.cap, sizeof *r.spares);
  pthread_t *ids = threads > 1 ? hpx_calloc(threads - 1, sizeof *ids) : NULL;
  parts_buf b = {NULL, 0};
  hp2x_status st;
  if (!r.ring || !r.spares || (threads > 1 && !ids)) {
    st = hpx_src_feed(src, from, src->len - from, f->feed, f->fe, &b, err);
    goto done;
  }
  pthread_mutex_init(&r.lock, NULL);
  pthread_cond_init(&r.changed, NULL);
  void **args = threads > 1 ? hpx_calloc(threads - 1, sizeof *args) : NULL;
  for (size_t i = 0; args && i < threads - 1; i++) args[i] = &r;
  size_t started = args ? hpx_threads_start(ids, threads - 1, worker, args, 1)
                        : 0;
  hpx_free(args);
  st = lead(&r, plan, &b, err);
  for (size_t i = 0; i < started; i++) pthread_join(ids[i], NULL);
  for (size_t k = r.taken; k < r.claimed; k++) {
    part_slot *s = &r.ring[k % r.cap];
    if (s->result) hp2x_profile_free(f->release(s->result));
  }
  for (size_t i = 0; i < r.n_spares; i++) hp2x_profile_free(r.spares[i]);
  pthread_cond_destroy(&r.changed);
  pthread_mutex_destroy(&r.lock);
done:
  hpx_free(r.spares);
  hpx_free(r.ring);
  hpx_free(ids);
  hpx_free(b.p);
  return st;
}
