/* csv_write.c -- the selected bands as CSV (RFC 4180): a header
 * "time,<band>,..." in the key's order (top of the key first, so OTHER,
 * hp2ps's bottom band, comes last), then one row per complete sample with
 * the time in seconds and each band's value as an integer in VALUE_UNIT.
 * Several profiles with one selection go in one file, each row starting
 * with the name of its input.  One census of each (--at) is the row the
 * whole run's CSV has for it.
 */
#include "csv_int.h"
#include "select/bands_int.h"
#include "base/textout.h"

#include <stdbool.h>
#include <string.h>

/* Writes the bytes of parts[0..n) as one field.  A field is quoted when
 * it holds a comma, quote, CR or LF, or starts or ends with a space (RFC
 * 4180 allows quoting any field). */
static void put_csv_parts(writebuf *o, const char *const *parts, size_t n) {
  const char *first = n ? parts[0] : "", *last = n ? parts[n - 1] : "";
  size_t last_len = strlen(last);
  int quote = first[0] == ' ' || (last_len && last[last_len - 1] == ' ');
  for (size_t i = 0; i < n && !quote; i++)
    quote = strpbrk(parts[i], ",\"\r\n") != NULL;
  if (!quote) {
    for (size_t i = 0; i < n; i++) hpx_writebuf_puts(o, parts[i]);
    return;
  }
  hpx_writebuf_put(o, "\"", 1);
  for (size_t i = 0; i < n; i++) {
    const char *s = parts[i];
    size_t len = strlen(s);
    for (const char *q; (q = memchr(s, '"', len)) != NULL;) {
      hpx_writebuf_put(o, s, (size_t)(q - s) + 1);
      hpx_writebuf_put(o, "\"", 1);
      len -= (size_t)(q - s) + 1;
      s = q + 1;
    }
    hpx_writebuf_put(o, s, len);
  }
  hpx_writebuf_put(o, "\"", 1);
}

static void put_csv_field(writebuf *o, const char *s) {
  put_csv_parts(o, &s, 1);
}

/* The header row: `first` ("time" or "input,time"), then the band names
 * from the top of the key down, each followed by "; " and what it leaves
 * out when it does (a -hi band's whole IPE record). */
static void put_header_row(writebuf *o, const char *first,
                           const hp2x_bands *b) {
  hpx_writebuf_puts(o, first);
  for (size_t k = b->n_bands; k-- > 0;) {
    hpx_writebuf_put(o, ",", 1);
    const char *detail = b->texts ? b->texts[k].detail : NULL;
    const char *parts[3] = {b->names[k], "; ", detail};
    put_csv_parts(o, parts, detail ? 3 : 1);
  }
  hpx_writebuf_put(o, "\r\n", 2);
}

enum { NUM = 21 }; /* ',' and an int64 */

/* ",value" at d for bands k - 1 down to k - n at sample s; returns the
 * end. */
static char *format_values(char *d, const hp2x_bands *b, size_t s, size_t k,
                           size_t n) {
  return hpx_fmt_int_fields(d, b->values + s, b->stride, k, n);
}

/* Sample s's time, ",value" for each band from the top of the key down,
 * and the row's end, at d (room for row_room(b)); returns the end. */
static char *format_row(char *d, const hp2x_profile *p, const hp2x_bands *b,
                        size_t s) {
  return hpx_fmt_row(d, p->times[s], b->values + s, b->stride, b->n_bands,
                     b->n_bands);
}

/* A row's bytes at most, its time's NUL included. */
static size_t row_room(const hp2x_bands *b) {
  return HPX_FIXED6_SIZE + b->n_bands * NUM + 2;
}

/* ",value" for each band at sample s, from the top of the key down, and
 * the row's end: formatted in place, a few hundred bands at a time (a row
 * too wide for the buffer's room). */
static void put_band_values(writebuf *o, const hp2x_bands *b, size_t s) {
  enum { AT_ONCE = 256 }; /* bands per room */
  for (size_t k = b->n_bands; k > 0;) {
    size_t n = k < AT_ONCE ? k : AT_ONCE;
    char *d = writebuf_room(o, n * NUM + 2);
    o->used += (size_t)(format_values(d, b, s, k, n) - d);
    k -= n;
  }
  hpx_writebuf_put(o, "\r\n", 2);
}

/* The rows of samples [from, to) of p, each led by `name`'s field when
 * it is not NULL: a row that fits the buffer's room formatted there in
 * one pass (the time, its values, its end). */
static void put_rows(writebuf *o, const hp2x_profile *p, const hp2x_bands *b,
                     const char *name, size_t from, size_t to) {
  size_t room = 1 + row_room(b); /* ',' after the name */
  for (size_t s = from; s < to && !o->failed; s++) {
    if (name) put_csv_field(o, name);
    if (room <= HPX_WRITEBUF_SIZE) {
      char *d = writebuf_room(o, room), *d0 = d;
      if (name) *d++ = ',';
      o->used += (size_t)(format_row(d, p, b, s) - d0);
      continue;
    }
    char num[HPX_FIXED6_SIZE + 1];
    num[0] = ',';
    size_t n = 1 + hpx_fmt_fixed6(num + 1, p->times[s]);
    hpx_writebuf_put(o, name ? num : num + 1, name ? n : n - 1);
    put_band_values(o, b, s);
  }
}

/* ------------------------------------------------ rows on several threads */

/* The rows cut into chunks, each formatted by whichever thread claims it
 * next into a slot of its own, and written from there in order by the
 * calling thread, which claims and formats chunks too whenever the next
 * to write is not ready.  No thread's share is fixed: a thread the
 * system leaves waiting (its CPU busy) holds up at most the chunk it has
 * claimed, and the writing overlaps the formatting from the first chunk
 * on.  A chunk is claimed only when its slot is free (the chunk before
 * it in that slot written), so no thread holding a claim ever waits. */

/* A chunk's formatted text; its memory kept from chunk to chunk. */
typedef struct row_slot {
  char *s;      /* owned; room for a chunk's rows */
  size_t n;     /* bytes */
  size_t chunk; /* 1 + the chunk formatted here, not yet written; 0: none */
  bool failed;  /* no memory for s: the calling thread formats the rows */
} row_slot;

#define SLOTS_PER_TASK 2

typedef struct row_pipe {
  const hp2x_profile *p;
  const hp2x_bands *b;
  writebuf *o; /* the calling thread's (task 0's) alone */
  size_t rows, per, chunks, n_slots;
  pthread_mutex_t lock;   /* guards what follows */
  pthread_cond_t changed; /* a chunk formatted or written */
  size_t next;            /* the next chunk to claim */
  size_t written;         /* chunks written */
  bool stop;              /* the sink failed: the rest is not written */
  row_slot slot[SLOTS_PER_TASK * HPX_MAX_TASKS];
} row_pipe;

/* Formats chunk c into sl (its claimer alone touches it meanwhile). */
static void format_chunk(row_pipe *pp, size_t c, row_slot *sl) {
  size_t s = c * pp->per, to = pp->rows - s < pp->per ? pp->rows : s + pp->per;
  if (!sl->s) sl->s = hpx_malloc(pp->per * row_room(pp->b));
  sl->failed = !sl->s;
  char *d = sl->s;
  for (; d && s < to; s++) d = format_row(d, pp->p, pp->b, s);
  sl->n = sl->s ? (size_t)(d - sl->s) : 0;
}

/* Writes chunk c from sl, or formats it here when sl had no memory. */
static void write_chunk(row_pipe *pp, size_t c, const row_slot *sl) {
  size_t s = c * pp->per, to = pp->rows - s < pp->per ? pp->rows : s + pp->per;
  if (!sl->failed)
    hpx_writebuf_put(pp->o, sl->s, sl->n);
  else
    put_rows(pp->o, pp->p, pp->b, NULL, s, to);
}

/* One thread's part (task 0: the calling thread's, the only one that
 * writes; it ends when every chunk is written, the others when every
 * chunk is claimed).  Every wait is for a chunk being formatted, or for
 * one to be written: one thread is always working. */
static void pipe_task(void *ctx, size_t task) {
  row_pipe *pp = ctx;
  pthread_mutex_lock(&pp->lock);
  while (pp->written < pp->chunks && !pp->stop) {
    size_t w = pp->written;
    row_slot *next = &pp->slot[w % pp->n_slots];
    if (task == 0 && next->chunk == w + 1) {
      pthread_mutex_unlock(&pp->lock);
      write_chunk(pp, w, next);
      pthread_mutex_lock(&pp->lock);
      next->chunk = 0;
      pp->written = w + 1;
      pp->stop = pp->o->failed != 0;
      pthread_cond_broadcast(&pp->changed);
    } else if (pp->next < pp->chunks && pp->next < w + pp->n_slots) {
      size_t c = pp->next++;
      row_slot *sl = &pp->slot[c % pp->n_slots];
      pthread_mutex_unlock(&pp->lock);
      format_chunk(pp, c, sl);
      pthread_mutex_lock(&pp->lock);
      sl->chunk = c + 1;
      if (task != 0) pthread_cond_broadcast(&pp->changed);
    } else if (task != 0 && pp->next == pp->chunks) {
      break;
    } else {
      pthread_cond_wait(&pp->changed, &pp->lock);
    }
  }
  pthread_mutex_unlock(&pp->lock);
}

/* The fewest values (a row holds its bands' and its time) worth a thread:
 * a narrow table needs more rows, a wide one fewer; bands past MAX_BANDS
 * make rows too long to hold many (one thread then). */
#define LEAST_VALUES 32768
#define MAX_BANDS 4096
/* A chunk's rows: about CHUNKS_PER_TASK a task, at most CHUNK_ROWS and
 * CHUNK_BYTES of room (a row's at most: its text is about a tenth). */
#define CHUNKS_PER_TASK 8
#define CHUNK_ROWS 4096
#define CHUNK_BYTES ((size_t)1 << 20)

/* The fewest rows of b worth a thread. */
static size_t least_rows(const hp2x_bands *b) {
  size_t rows = LEAST_VALUES / (b->n_bands + 1);
  return rows < 256 ? 256 : rows;
}

/* The rows of every sample, as put_rows writes them: on `tasks` threads
 * through a row_pipe when there are rows for two, else on this one. */
static void put_rows_threads(writebuf *o, const hp2x_profile *p,
                             const hp2x_bands *b, size_t threads) {
  size_t n = b->n_samples;
  size_t tasks =
      b->n_bands > MAX_BANDS ? 1 : hpx_task_count(n, threads, least_rows(b));
  row_pipe *pp = tasks < 2 ? NULL : hpx_calloc(1, sizeof *pp);
  if (!pp) {
    put_rows(o, p, b, NULL, 0, n);
    return;
  }
  size_t per = n / (tasks * CHUNKS_PER_TASK), most = CHUNK_BYTES / row_room(b);
  per = per > CHUNK_ROWS ? CHUNK_ROWS : per;
  per = per > most ? most : per;
  *pp =
      (row_pipe){.p = p, .b = b, .o = o, .rows = n, .per = per < 16 ? 16 : per};
  pp->chunks = (n + pp->per - 1) / pp->per;
  pp->n_slots = SLOTS_PER_TASK * tasks;
  pthread_mutex_init(&pp->lock, NULL);
  pthread_cond_init(&pp->changed, NULL);
  hpx_run_tasks(tasks, pipe_task, pp);
  pthread_cond_destroy(&pp->changed);
  pthread_mutex_destroy(&pp->lock);
  for (size_t i = 0; i < pp->n_slots; i++) hpx_free(pp->slot[i].s);
  hpx_free(pp);
}

hp2x_status hpx_write_csv_threads(const hp2x_profile *p, const hp2x_bands *b,
                                  size_t threads, hp2x_write_fn write,
                                  void *closure, hp2x_err *err) {
  writebuf o;
  if (hpx_writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  put_header_row(&o, "time", b);
  put_rows_threads(&o, p, b, threads);
  return hpx_writebuf_finish(&o, err);
}

hp2x_status hp2x_write_csv(const hp2x_profile *p, const hp2x_bands *b,
                           hp2x_write_fn write, void *closure, hp2x_err *err) {
  return hpx_write_csv_threads(p, b, 1, write, closure, err);
}

/* Do a and b have the same bands, by name, in the same order? */
static int same_bands(const hp2x_bands *a, const hp2x_bands *b) {
  if (a->n_bands != b->n_bands) return 0;
  for (size_t k = 0; k < a->n_bands; k++)
    if (strcmp(a->names[k], b->names[k]) != 0) return 0;
  return 1;
}

/* HP2X_E_ARG unless there are profiles, all with the first's bands. */
static hp2x_status check_selection(const hp2x_bands *const *bs, size_t n,
                                   hp2x_err *err) {
  if (n == 0) return hpx_fail(err, HP2X_E_ARG, 0, -1, "no profiles to write");
  for (size_t i = 1; i < n; i++)
    if (!same_bands(bs[i], bs[0]))
      return hpx_fail(err, HP2X_E_ARG, 0, -1,
                      "profile %zu has other bands than the first: select "
                      "them together",
                      i + 1);
  return HP2X_OK;
}

hp2x_status hp2x_write_csv_many(const hp2x_profile *const *ps,
                                const hp2x_bands *const *bs,
                                const char *const *names, size_t n,
                                hp2x_write_fn write, void *closure,
                                hp2x_err *err) {
  if (check_selection(bs, n, err) != HP2X_OK) return err->code;
  writebuf o;
  if (hpx_writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  put_header_row(&o, "input,time", bs[0]);
  for (size_t i = 0; i < n; i++)
    put_rows(&o, ps[i], bs[i], names[i], 0, bs[i]->n_samples);
  return hpx_writebuf_finish(&o, err);
}

hp2x_status hp2x_write_csv_censuses(const hp2x_profile *const *ps,
                                    const hp2x_bands *const *bs,
                                    const char *const *names,
                                    const size_t *samples, size_t n,
                                    hp2x_write_fn write, void *closure,
                                    hp2x_err *err) {
  if (check_selection(bs, n, err) != HP2X_OK) return err->code;
  for (size_t i = 0; i < n; i++)
    if (samples[i] >= bs[i]->n_samples)
      return hpx_fail(err, HP2X_E_ARG, 0, -1,
                      "census %zu is past the last of %zu", samples[i],
                      bs[i]->n_samples);
  writebuf o;
  if (hpx_writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  put_header_row(&o, n > 1 ? "input,time" : "time", bs[0]);
  for (size_t i = 0; i < n; i++)
    put_rows(&o, ps[i], bs[i], n > 1 ? names[i] : NULL, samples[i],
             samples[i] + 1);
  return hpx_writebuf_finish(&o, err);
}
