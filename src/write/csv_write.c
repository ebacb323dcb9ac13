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
#include "base/crew.h"
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

/* Rows formatted in memory by one task (hpx_run_tasks). */
typedef struct row_text {
  char *s; /* owned */
  size_t n, cap;
  bool failed; /* no memory for them: the caller formats them itself */
} row_text;

/* A batch of rows, from .. to - 1, cut into n_tasks ranges: task 0's
 * [from, lead_to), the others' the rest in equal shares. */
typedef struct row_batch {
  size_t from, to, lead_to, n_tasks;
  row_text text[HPX_MAX_TASKS];
} row_batch;

/* The batches: one formatted while the one before it is written on the
 * calling thread (task 0's), so that the writing does not wait for every
 * formatting to end. */
typedef struct row_tasks {
  const hp2x_profile *p;
  const hp2x_bands *b;
  size_t room;       /* a row's bytes at most, its time's NUL included */
  writebuf *o;       /* written by task 0 only */
  row_batch *now;    /* the batch being formatted */
  row_batch *before; /* the one before it, to write; NULL: none */
  row_batch batch[2];
} row_tasks;

static size_t task_start(const row_batch *t, size_t task) {
  if (task == 0) return t->from;
  if (t->n_tasks < 2) return t->to;
  return t->lead_to + (t->to - t->lead_to) * (task - 1) / (t->n_tasks - 1);
}

/* Writes batch t's rows in order: each task's text, or its rows
 * formatted here when it had no memory for them. */
static void write_batch(writebuf *o, const row_tasks *rt, const row_batch *t) {
  for (size_t i = 0; i < t->n_tasks && !o->failed; i++) {
    const row_text *r = &t->text[i];
    if (!r->failed)
      hpx_writebuf_put(o, r->s, r->n);
    else
      put_rows(o, rt->p, rt->b, NULL, task_start(t, i), task_start(t, i + 1));
  }
}

/* Formats task `task`'s rows (task 0 first writes the batch before).
 * Every field it uses, shared or its own, is read once into locals and
 * its own written once at the end: the tasks' row_text sit side by side
 * (with the batch's fields), and a field written per row would bounce
 * their cache line between the threads. */
static void row_task(void *ctx, size_t task) {
  row_tasks *rt = ctx;
  if (task == 0 && rt->before) write_batch(rt->o, rt, rt->before);
  const row_batch *t = rt->now;
  row_text *r = &rt->now->text[task];
  const hp2x_profile *p = rt->p;
  const hp2x_bands *b = rt->b;
  size_t room = rt->room, n = 0, cap = r->cap;
  char *text = r->s;
  hp2x_err err = {0};
  bool failed = false;
  for (size_t s = task_start(t, task), to = task_start(t, task + 1); s < to;
       s++) {
    if (cap - n < room &&
        hpx_grow((void **)&text, &cap, n + room, 1, &err) != HP2X_OK) {
      failed = true;
      break;
    }
    n = (size_t)(format_row(text + n, p, b, s) - text);
  }
  r->s = text;
  r->cap = cap;
  r->n = n;
  r->failed = failed;
}

/* Rows a task formats at a time, and the fewest values (a row holds its
 * bands' and its time) worth a thread: a narrow table needs more rows, a
 * wide one fewer; bands past MAX_BANDS make rows too long to hold many
 * (one thread then). */
#define ROWS_PER_TASK 8192
#define TASK_TEXT_BYTES ((size_t)4 << 20) /* a task's rows' text, about */
#define LEAST_VALUES 32768
#define MAX_BANDS 4096
/* What writing a row costs against formatting it, about (a stretch's
 * rows, bench/RESULTS.md 14w): task 0, which also writes the batch
 * before, formats that much fewer rows than the others. */
#define WRITE_PER_FORMAT 0.3

/* The rows each of `tasks` tasks formats at a time for rows of `room`
 * bytes at most: ROWS_PER_TASK, fewer for wide rows, so that a batch's
 * texts (two sets of them while one is written) stay a few megabytes a
 * task; past two tasks, two tasks' rows shared among them, so that the
 * texts held stay the same whatever the threads (issue 41: seven tasks'
 * texts took --jobs=7's peak from 82 MB to 97 MB). */
static size_t rows_per_task(size_t room, size_t tasks) {
  size_t rows = TASK_TEXT_BYTES / (room ? room : 1);
  if (rows > ROWS_PER_TASK) rows = ROWS_PER_TASK;
  if (tasks > 2) rows = rows * 2 / tasks;
  return rows < 64 ? 64 : rows;
}

/* The fewest rows of b worth a thread. */
static size_t least_rows(const hp2x_bands *b) {
  size_t rows = LEAST_VALUES / (b->n_bands + 1);
  return rows < 256 ? 256 : rows;
}

/* Cuts rows [from, to) into t's tasks (at most `tasks`), task 0's share
 * the smaller when it writes a batch before them (`writes`). */
static void cut_batch(row_batch *t, const hp2x_bands *b, size_t from, size_t to,
                      size_t tasks, bool writes) {
  t->from = from;
  t->to = to;
  t->n_tasks = hpx_task_count(to - from, tasks, least_rows(b));
  double k = (double)t->n_tasks,
         lead = (1.0 - (writes ? WRITE_PER_FORMAT * (k - 1) : 0.0)) / k;
  size_t rows = to - from;
  if (t->n_tasks > 1) rows = lead > 0.0 ? (size_t)((double)rows * lead) : 0;
  t->lead_to = from + rows;
}

/* The rows of every sample, as put_rows writes them: formatted a batch at
 * a time, a range of the batch on each thread, and written in order (each
 * batch while the next is formatted, when there are three or more). */
static void put_rows_threads(writebuf *o, const hp2x_profile *p,
                             const hp2x_bands *b, size_t threads) {
  size_t n = b->n_samples;
  size_t tasks =
      b->n_bands > MAX_BANDS ? 1 : hpx_task_count(n, threads, least_rows(b));
  row_tasks *t = tasks < 2 ? NULL : hpx_calloc(1, sizeof *t);
  if (!t) {
    put_rows(o, p, b, NULL, 0, n);
    return;
  }
  /* One set of threads for every batch: a thread started per batch would
   * start some tens of microseconds late each time. */
  hpx_crew *crew = hpx_crew_start(tasks);
  t->p = p;
  t->b = b;
  t->room = row_room(b);
  t->o = o;
  /* Three batches or more: each written while the next is formatted, into
   * a second set of texts.  Fewer: each written once formatted, since the
   * second set's fresh pages would cost more than the overlap saves. */
  size_t per = tasks * rows_per_task(t->room, tasks);
  bool overlap = n > 2 * per;
  for (size_t s = 0, k = 0; s < n && !o->failed; k = overlap ? k ^ 1 : 0) {
    size_t to = n - s < per ? n : s + per;
    t->now = &t->batch[k];
    cut_batch(t->now, b, s, to, tasks, t->before != NULL);
    hpx_crew_run(crew, t->now->n_tasks, row_task, t);
    if (overlap)
      t->before = t->now;
    else
      write_batch(o, t, t->now);
    s = to;
  }
  if (t->before) write_batch(o, t, t->before);
  hpx_crew_end(crew);
  for (size_t k = 0; k < 2; k++)
    for (size_t i = 0; i < HPX_MAX_TASKS; i++) hpx_free(t->batch[k].text[i].s);
  hpx_free(t);
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
