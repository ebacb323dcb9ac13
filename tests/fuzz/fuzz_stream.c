/* fuzz_stream.c -- libFuzzer target: a stream read as watch mode reads it
 * (src/tool/run/watch.c), the bytes arriving in chunks whose sizes the
 * input chooses.  One parser is fed chunk by chunk; now and then the
 * profile so far is drawn from a follower's bands, as each watch update
 * does; at the end the finished profile is drawn once more.  Checks:
 *   - while feeding, complete samples never decrease, the bytes read are
 *     the bytes fed, and the follower's bands equal a fresh selection's;
 *   - all fed, the same last whole event (hp2x --tee's cut), end marker and
 *     kind as one feed of the same bytes;
 *   - the chunked read ends as a one-shot read of the same bytes (one
 *     feed) does: the same status, error message, line and byte offset;
 *     on success the same profile (header, samples, labels, values, marks,
 *     warnings);
 *   - the final output, in the input's chosen format, from the follower's
 *     bands of the finished profile, equals the one-shot output byte for
 *     byte; CSV and .hp text too.
 *
 *   byte 0  kind (bits 0-1: auto, .hp, eventlog, auto), the picture
 *           format (bits 2-3: CSV, SVG, PNG at 10 dpi, PDF), draw after
 *           every 2^n chunks (bits 4-6), -m3 -d (bit 7)
 *   byte 1  the largest chunk: 2^((b & 31) % 17) bytes (1 B to 64 KiB);
 *           bits 5-7: the profile's bound (profile_bound.c): 0-3 none,
 *           4-5 a picture 2 columns wide (thinned from 8 samples on),
 *           6 the same and --last 0.5 s, 7 --last 0.05 s alone
 *   byte 2-3  the seed of the chunk sizes (1 to the largest)
 *   byte 4- the stream
 */
#include "fuzz_common.h"

/* Updates drawn per input at most (each costs a render). */
#define MAX_UPDATES 24

static int count_bytes(void *closure, const void *buf, size_t len) {
  (void)buf;
  *(size_t *)closure += len;
  return 0;
}

/* The output of p and b in format f, into memory. */
static blob output(const hp2x_profile *p, const hp2x_bands *b,
                   const hp2x_options *o, hp2x_format f) {
  hp2x_options of = *o;
  of.format = f;
  hp2x_err err;
  hp2x_err_init(&err);
  blob t = {NULL, 0, 0};
  FUZZ_CHECK(hp2x_write_output(p, b, "fuzz", &of, blob_write, &t, &err) ==
             HP2X_OK);
  return t;
}

static void check_same_output(blob a, blob b) {
  FUZZ_CHECK(a.len == b.len);
  FUZZ_CHECK(a.len == 0 || memcmp(a.data, b.data, a.len) == 0);
  free(a.data);
  free(b.data);
}

/* The follower's bands are those of a fresh selection. */
static void check_same_bands(const hp2x_bands *a, const hp2x_bands *b) {
  size_t nb = hp2x_bands_count(b), n = hp2x_bands_sample_count(b);
  FUZZ_CHECK(hp2x_bands_count(a) == nb);
  FUZZ_CHECK(hp2x_bands_sample_count(a) == n);
  for (size_t k = 0; k < nb; k++) {
    FUZZ_CHECK(strcmp(hp2x_bands_name(a, k), hp2x_bands_name(b, k)) == 0);
    for (size_t s = 0; s < n; s++)
      FUZZ_CHECK(hp2x_bands_value(a, k, s) == hp2x_bands_value(b, k, s));
  }
}

/* One watch update (run/watch.c's render_update): nothing before a header
 * or before the heap profile began; else the follower's bands, drawn. */
static void update(hp2x_follower *f, const hp2x_profile *p,
                   const hp2x_options *o) {
  if (hp2x_profile_job(p)[0] == '\0' && hp2x_profile_sample_count(p) == 0)
    return;
  if (!hp2x_profile_has_heap_profile(p)) return;
  hp2x_err err;
  hp2x_err_init(&err);
  const hp2x_bands *fb = NULL;
  hp2x_bands *sb = NULL;
  hp2x_status a = hp2x_follower_select(f, p, o, &fb, &err);
  hp2x_status b = hp2x_bands_select(p, o, &sb, &err);
  FUZZ_CHECK(a == b);
  if (a == HP2X_OK) {
    check_same_bands(fb, sb);
    size_t bytes = 0;
    hp2x_err_init(&err);
    FUZZ_CHECK(hp2x_write_output(p, fb, "fuzz", o, count_bytes, &bytes, &err) ==
               HP2X_OK);
  }
  hp2x_bands_free(sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) return 0;
  static const hp2x_format formats[] = {HP2X_FORMAT_CSV, HP2X_FORMAT_SVG,
                                        HP2X_FORMAT_PNG, HP2X_FORMAT_PDF};
  hp2x_input_kind kind = fuzz_kind(data[0]);
  hp2x_options o;
  hp2x_options_init(&o);
  o.format = formats[(data[0] >> 2) & 3];
  o.dpi = 10;
  o.source_date_epoch = 1700000000; /* else PDF carries the clock */
  if (data[0] & 128) {
    o.max_bands = 3;
    o.sort = HP2X_SORT_STDDEV;
  }
  size_t every = (size_t)1 << ((data[0] >> 4) & 7);
  size_t largest = (size_t)1 << ((data[1] & 31) % 17);
  static const size_t bound_columns[] = {0, 0, 0, 0, 2, 2, 2, 0};
  static const double bound_last[] = {0, 0, 0, 0, 0, 0, 0.5, 0.05};
  size_t columns = bound_columns[data[1] >> 5];
  double last_s = bound_last[data[1] >> 5];
  uint32_t x = ((uint32_t)data[2] << 8 | data[3]) * 2654435761u | 1u;
  const uint8_t *stream = data + 4;
  size_t len = size - 4;

  /* Watch mode: the chunks as they come. */
  hp2x_err err;
  hp2x_parser *ps = fuzz_parser_bounded(kind, columns, last_s, &err);
  hp2x_follower *f = hp2x_follower_new(&err);
  FUZZ_CHECK(ps && f);
  hp2x_status st = HP2X_OK;
  size_t samples = 0, chunks = 0, updates = 0;
  for (size_t pos = 0; pos < len;) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    size_t n = 1 + x % largest;
    if (n > len - pos) n = len - pos;
    hp2x_err_init(&err);
    st = hp2x_parser_feed(ps, stream + pos, n, &err);
    pos += n;
    if (st != HP2X_OK) break;
    FUZZ_CHECK(hp2x_parser_bytes(ps) == (long long)pos);
    const hp2x_profile *p = hp2x_parser_peek(ps);
    /* samples read (a bounded profile holds fewer, and at most 4 C + 2
     * once it thins: profile_bound.c) */
    FUZZ_CHECK(hp2x_profile_samples_read(p) >= samples);
    samples = hp2x_profile_samples_read(p);
    FUZZ_CHECK(!columns || hp2x_profile_sample_count(p) <= 4 * columns + 2);
    /* Not monotonic: an event taken as whole may turn out, from the bytes
     * after it, to start a corrupt stretch (eventlog_resync.c's resume_at) */
    long long w = hp2x_parser_whole_bytes(ps);
    FUZZ_CHECK(w >= 0 && w <= (long long)pos);
    if (++chunks % every == 0 && updates < MAX_UPDATES) {
      update(f, p, &o);
      updates++;
    }
  }
  hp2x_err chunked_err = err;
  long long whole = hp2x_parser_whole_bytes(ps);
  int at_end = hp2x_parser_at_end(ps);
  hp2x_input_kind seen = hp2x_parser_kind(ps);
  hp2x_status fed = st;
  hp2x_profile *chunked = NULL;
  if (st == HP2X_OK) {
    hp2x_err_init(&chunked_err);
    st = hp2x_parser_finish(ps, &chunked, &chunked_err);
  }

  /* One-shot: the same bytes in one feed. */
  hp2x_err once_err;
  hp2x_parser *ps1 = fuzz_parser_bounded(kind, columns, last_s, &once_err);
  FUZZ_CHECK(ps1 != NULL);
  hp2x_profile *once = NULL;
  hp2x_status st1 = len ? hp2x_parser_feed(ps1, stream, len, &once_err)
                        : HP2X_OK;
  if (st1 == HP2X_OK) {
    /* All fed: where the last whole event ends, the end marker, the kind
     * (--tee cuts there; watch mode stops at the marker). */
    FUZZ_CHECK(fed == HP2X_OK);
    FUZZ_CHECK(hp2x_parser_whole_bytes(ps1) == whole);
    FUZZ_CHECK(hp2x_parser_at_end(ps1) == at_end);
    FUZZ_CHECK(hp2x_parser_kind(ps1) == seen);
    hp2x_err_init(&once_err);
    st1 = hp2x_parser_finish(ps1, &once, &once_err);
  }
  FUZZ_CHECK(st == st1);
  if (st != HP2X_OK) {
    FUZZ_CHECK(chunked_err.code == once_err.code);
    FUZZ_CHECK(strcmp(chunked_err.msg, once_err.msg) == 0);
    FUZZ_CHECK(chunked_err.line == once_err.line);
    FUZZ_CHECK(chunked_err.offset == once_err.offset);
  } else {
    fuzz_check_same_profile(chunked, once, (size_t)-1);
    /* The final render (run/watch.c's render_final): the finished
     * profile, a new one to the follower. */
    hp2x_err_init(&err);
    const hp2x_bands *fb = NULL;
    hp2x_bands *ob = NULL;
    hp2x_status a = hp2x_follower_select(f, chunked, &o, &fb, &err);
    hp2x_status b = hp2x_bands_select(once, &o, &ob, &err);
    FUZZ_CHECK(a == b);
    if (a == HP2X_OK) {
      check_same_bands(fb, ob);
      check_same_output(output(chunked, fb, &o, o.format),
                        output(once, ob, &o, o.format));
      if (o.format != HP2X_FORMAT_CSV)
        check_same_output(output(chunked, fb, &o, HP2X_FORMAT_CSV),
                          output(once, ob, &o, HP2X_FORMAT_CSV));
    }
    hp2x_bands_free(ob);
    blob h1 = {NULL, 0, 0}, h2 = {NULL, 0, 0};
    hp2x_status w1 = hp2x_write_hp(chunked, blob_write, &h1, &err);
    hp2x_status w2 = hp2x_write_hp(once, blob_write, &h2, &err);
    FUZZ_CHECK(w1 == w2); /* may refuse odd labels, both alike */
    check_same_output(h1, h2);
  }
  hp2x_profile_free(chunked);
  hp2x_profile_free(once);
  hp2x_parser_free(ps1);
  hp2x_follower_free(f);
  hp2x_parser_free(ps);
  return 0;
}
