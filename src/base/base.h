/* base.h -- private to libhp2x: what every stage of the library uses.
 * The documented input limits, saturating addition, the allocation
 * wrappers (alloc.c), error recording (err.c) and the hash of the label
 * tables (hash.c).  Never installed.
 */
#ifndef HPX_BASE_H
#define HPX_BASE_H

#include "hp2x.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* HPX_ALWAYS_INLINE: a function of the readers' per-entry path, inlined
 * wherever it is called (compilers weigh a function called from several
 * places against inlining it; these are worth it).  HPX_NOINLINE: one kept
 * out of line, the rare case of such a path, whose set-up (registers
 * saved) the common case need not pay for.  HPX_LIKELY: a condition of
 * such a path that is almost always true (laid out as the straight line). */
#if defined(__GNUC__)
#define HPX_ALWAYS_INLINE inline __attribute__((always_inline))
#define HPX_NOINLINE __attribute__((noinline))
#define HPX_LIKELY(c) __builtin_expect(!!(c), 1)
#else
#define HPX_ALWAYS_INLINE inline
#define HPX_NOINLINE
#define HPX_LIKELY(c) (c)
#endif

/* The place of the lowest bit set in m, not 0. */
static HPX_ALWAYS_INLINE unsigned hpx_ctz64(uint64_t m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(m);
#else
  unsigned n = 0;
  while (!(m & 1)) m >>= 1, n++;
  return n;
#endif
}

/* ------------------------------------------------------------- limits */
/* Documented in man/hp2x.1 (LIMITS); exceeding one is HP2X_E_LIMIT. */
#define HPX_MAX_LINE_BYTES (16u << 20)    /* one .hp line, 16 MiB */
#define HPX_MAX_LABELS (1u << 24)         /* distinct labels, 16 Mi */
#define HPX_MAX_SAMPLES (1u << 28)        /* complete samples, 256 Mi */
#define HPX_MAX_ENTRIES ((size_t)1 << 32) /* (label, value) entries */

/* a + b saturated to the int64_t range.  Residencies are >= 0 and at most
 * INT64_MAX each (both parsers check), but their sums (a label repeated in
 * a sample, a band's total, OTHER, a sample's stacked height) can pass
 * INT64_MAX in a damaged or hostile profile, where `+` is undefined. */
static inline int64_t hpx_add_sat(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}

/* --------------------------------------------------------- allocation */
/* All library allocation goes through these (alloc.c), so tests can fail
 * the nth one (hpx_alloc_fail_at, in test builds). */
void *hpx_malloc(size_t n);
void *hpx_calloc(size_t count, size_t size);
void *hpx_realloc(void *ptr, size_t n);
void hpx_free(void *ptr);
/* Copies len bytes and a NUL. */
char *hpx_strndup(const char *s, size_t len);
/* Makes the nth allocation from now on fail (1 = the next one); 0 turns
 * it off.  Returns how many allocations were made since the last call.
 * Not thread-safe.  Only in a library compiled with -DHPX_TEST_HOOKS
 * (BUILD/libhp2x-hooks.a), for the unit tests, the fuzzers and the test
 * build of the tool (tests/hooks/faults_main.c). */
long hpx_alloc_fail_at(long nth);

/* Makes room for `need` elements of `elem` bytes in *ptr (capacity *cap,
 * in elements), growing geometrically.  HP2X_E_NOMEM on failure (the old
 * buffer is kept; recorded in err unless it is NULL). */
hp2x_status hpx_grow(void **ptr, size_t *cap, size_t need, size_t elem,
                     hp2x_err *err);

/* Maps the whole pages of bytes [from, to) of ptr's block at once where
 * the kernel can (MADV_POPULATE_WRITE), not one fault (costly on VMs) a
 * page; no huge pages are asked for.  Ranges under 1 MiB are left alone
 * (hpx_prefault_all: 64 KiB).  Hints: failure is nothing. */
void hpx_prefault(void *ptr, size_t from, size_t to);
void hpx_prefault_all(void *ptr, size_t from, size_t to);

/* ------------------------------------------------------------ threads */
/* The library's own threads (threads.c).  hpx_threads_start starts up to
 * n threads running fn(args[i]), every signal blocked in them, and returns
 * how many started (the caller joins them; those not started are the
 * caller's to do); `away`: each begins off the caller's CPU where the
 * platform can say so (threads working beside the caller: reading in
 * parts), else where the system puts it (short tasks the caller waits
 * for).  hpx_run_tasks runs fn(ctx, 0) to fn(ctx, n - 1) at once, task 0
 * on the calling thread and each other on a thread of its own (on the
 * caller's when one cannot start), and returns when all are done; n is at
 * most HPX_MAX_TASKS, and each task must write only what it owns.
 * hpx_task_count is how many tasks n items make on `threads` threads when
 * each task should have at least `least` items: 1 to
 * min(threads, HPX_MAX_TASKS). */
#include <pthread.h>
size_t hpx_threads_start(pthread_t *ids, size_t n, void *(*fn)(void *),
                         void *const *args, int away);
#define HPX_MAX_TASKS 64
void hpx_run_tasks(size_t n, void (*fn)(void *ctx, size_t task), void *ctx);
size_t hpx_task_count(size_t items, size_t threads, size_t least);

/* ------------------------------------------------------------- errors */
/* Records an error unless one is already recorded (the first one wins).
 * Returns `code` (the new one, so callers can `return hpx_fail(...)`). */
hp2x_status hpx_fail(hp2x_err *err, hp2x_status code, long line,
                     long long offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
hp2x_status hpx_nomem(hp2x_err *err);

/* Printable ASCII (0x20..0x7e): the one rule for the bytes that go as they
 * are into messages (hpx_quote_bytes shows the others as \xNN) and into
 * PostScript comments and PDF metadata (surface.c shows them as '?'). */
static inline int hpx_is_plain_ascii(unsigned char c) {
  return c >= 0x20 && c < 0x7f;
}

/* Appends `s` to `dst` (size dst_size) with bytes outside printable ASCII
 * shown as \xNN, cut to fit; for quoting input text in messages. */
void hpx_quote_bytes(char *dst, size_t dst_size, const char *s, size_t len);

/* ------------------------------------------------------------ options */
/* PNG's pixels per inch when the options leave it at 0 (the default
 * hp2x_options_init sets). */
#define HPX_DEFAULT_DPI 150.0

/* The caller's options with every field this library knows: the fields
 * within given->size copied, the rest hp2x_options_init's defaults (see
 * hp2x.h on growing structs).  Every public function taking options reads
 * them through this.  HP2X_E_ARG when given->size < HP2X_OPTIONS_MIN_SIZE
 * (options.c). */
hp2x_status hpx_options_complete(const hp2x_options *given, hp2x_options *full,
                                 hp2x_err *err);

/* The growing structs' two halves (hp2x.h), for any struct that opens with
 * `size_t size` (hp2x_options, hp2x_parse_options), in options.c.
 * hpx_sized_init: the first min(size, full_size) bytes of `defaults` (a
 * whole struct of full_size bytes) into the caller's struct `o`, its size
 * field set to that count; nothing when size cannot hold the size field.
 * hpx_sized_read: `full` (already holding the defaults) takes the first
 * given->size bytes of `given` and its size field becomes full_size;
 * HP2X_E_ARG ("WHAT of N bytes: start them with INIT") when given->size is
 * under min_size, with `full` left at its defaults. */
void hpx_sized_init(void *o, size_t size, const void *defaults,
                    size_t full_size);
hp2x_status hpx_sized_read(const void *given, size_t min_size, void *full,
                           size_t full_size, const char *what, const char *init,
                           hp2x_err *err);

/* --------------------------------------------------------------- hash */
/* The label tables' hash (hash.c): eight bytes a step, then a
 * 64-bit finaliser.  Not the colour hash (colour.c keeps FNV-1a). */
uint64_t hpx_hash_bytes(const void *data, size_t len);

#endif
