/* parser.c -- the generic streaming reader (hp2x_parser_*, and
 * hp2x_parse_stream over a FILE): tells the input kind from its first bytes
 * (an eventlog starts "hdrb", .hp text is ASCII) and forwards bytes to that
 * front end (hp_parse.c or eventlog_parse.c), which builds the profile
 * this file hands out.
 */
#include "parts.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct hp2x_parser {
  const char *file; /* borrowed, for messages */
  hp2x_parse_options opt;
  hp2x_input_kind kind;  /* AUTO until decided */
  unsigned char head[4]; /* first bytes while the kind is undecided */
  size_t n_head;
  hp2x_profile *profile; /* owned until finish hands it out */
  hp_parser *hp;         /* owned; set when kind == HP */
  evl_parser *evl;       /* owned; set when kind == EVENTLOG */
  long long bytes;       /* bytes fed so far */
  long long lines_end;   /* bytes up to the last '\n' fed, for .hp */
  hp2x_status status;    /* first error, sticky */
  bool finished;
  parts_count parts; /* parts read on several threads */
};

/* The widest picture a profile is bounded by: 2^20 columns (a graph 44 m
 * wide at 600 dpi). */
#define PICTURE_COLUMNS_MAX ((size_t)1 << 20)

/* The first hp2x_parse_options with a size field ended with max_samples. */
#define PARSE_OPTIONS_MIN_SIZE \
  (offsetof(hp2x_parse_options, max_samples) + sizeof(size_t))

void hp2x_parse_options_init_sized(hp2x_parse_options *o, size_t size) {
  hp2x_parse_options d;
  memset(&d, 0, sizeof d);
  d.size = sizeof d;
  d.kind = HP2X_INPUT_AUTO;
  d.ccs_length = 0;
  hpx_sized_init(o, size, &d, sizeof d);
}

hp2x_parser *hp2x_parser_new(const char *file, const hp2x_parse_options *o,
                             hp2x_err *err) {
  hp2x_parser *ps = hpx_calloc(1, sizeof *ps);
  if (!ps) {
    hpx_nomem(err);
    return NULL;
  }
  ps->file = file;
  hp2x_parse_options_init(&ps->opt);
  if (o && hpx_sized_read(o, PARSE_OPTIONS_MIN_SIZE, &ps->opt, sizeof ps->opt,
                          "parse options", "hp2x_parse_options_init", err)) {
    hpx_free(ps);
    return NULL;
  }
  ps->kind = HP2X_INPUT_AUTO;
  ps->profile = hpx_profile_new(err);
  if (!ps->profile) {
    hpx_free(ps);
    return NULL;
  }
  if (ps->opt.max_labels && ps->opt.max_labels < ps->profile->max_labels)
    ps->profile->max_labels = ps->opt.max_labels;
  if (ps->opt.picture_columns)
    hpx_profile_bound_set(ps->profile,
                          ps->opt.picture_columns < PICTURE_COLUMNS_MAX
                              ? ps->opt.picture_columns
                              : PICTURE_COLUMNS_MAX);
  if (ps->opt.last_s > 0.0 && isfinite(ps->opt.last_s) &&
      hpx_profile_bound_last(ps->profile, ps->opt.last_s, err) != HP2X_OK) {
    hp2x_profile_free(ps->profile);
    hpx_free(ps);
    return NULL;
  }
  if (ps->opt.max_samples && ps->opt.max_samples < ps->profile->max_samples)
    ps->profile->max_samples = ps->opt.max_samples;
  return ps;
}

static hp2x_status start_front_end(hp2x_parser *ps, hp2x_input_kind kind,
                                   hp2x_err *err) {
  ps->kind = kind;
  if (kind == HP2X_INPUT_EVENTLOG) {
    ps->evl = hpx_evl_parse_new(ps->file, ps->profile, &ps->opt, err);
    return ps->evl ? HP2X_OK : err->code;
  }
  ps->hp = hpx_hp_parse_new(ps->file, ps->profile, err);
  return ps->hp ? HP2X_OK : err->code;
}

/* Should len bytes be read in parts, on several threads? */
static bool in_parts(const hp2x_parser *ps, size_t len) {
  if (ps->opt.threads < 2) return false;
  return ps->opt.part_bytes ? len > ps->opt.part_bytes
                            : len >= HPX_PARTS_MIN_FEED;
}

static hp2x_status feed_hp(void *fe, const unsigned char *bytes, size_t len,
                           hp2x_err *err) {
  return hpx_hp_parse_feed(fe, (const char *)bytes, len, err);
}

static hp2x_status feed_evl(void *fe, const unsigned char *bytes, size_t len,
                            hp2x_err *err) {
  return hpx_evl_parse_feed(fe, bytes, len, err);
}

/* Hands src's bytes to the front end chosen: in parts on several threads
 * when there are enough of them, else in order (a file's a piece at a
 * time). */
static hp2x_status forward_bytes(hp2x_parser *ps, parts_src *src,
                                 hp2x_err *err) {
  assert(ps->kind == HP2X_INPUT_EVENTLOG ? ps->evl != NULL : ps->hp != NULL);
  if (!src->len) return HP2X_OK;
  bool evl = ps->kind == HP2X_INPUT_EVENTLOG;
  if (in_parts(ps, src->len)) {
    feed_plan plan = {ps->opt.threads, ps->opt.part_bytes, &ps->parts};
    return evl ? hpx_evl_parse_feed_parts(ps->evl, src, &plan, err)
               : hpx_hp_parse_feed_parts(ps->hp, src, &plan, err);
  }
  parts_buf b = {NULL, 0};
  hp2x_status st =
      evl ? hpx_src_feed(src, 0, src->len, feed_evl, ps->evl, &b, err)
          : hpx_src_feed(src, 0, src->len, feed_hp, ps->hp, &b, err);
  hpx_free(b.p);
  return st;
}

/* An eventlog starts with "hdrb"; .hp text starts with "JOB" (ASCII).  A
 * damaged eventlog ("hdr" then something else) or any binary start is
 * read as an eventlog, so its error names a byte offset. */
static int looks_binary(const unsigned char *h, size_t n) {
  if (n >= 3 && memcmp(h, "hdr", 3) == 0) return 1;
  for (size_t i = 0; i < n; i++)
    if (h[i] >= 0x80 || (h[i] < 0x20 && h[i] != '\t' && h[i] != '\n' &&
                         h[i] != '\r' && h[i] != '\f' && h[i] != '\v'))
      return 1;
  return 0;
}

/* Chooses the input kind (the one the options give, else from the first
 * bytes), starts its front end and forwards the bytes held so far. */
static hp2x_status choose_front_end(hp2x_parser *ps, hp2x_err *err) {
  assert(ps->kind == HP2X_INPUT_AUTO && ps->n_head <= sizeof ps->head);
  hp2x_input_kind k = ps->opt.kind;
  if (k == HP2X_INPUT_AUTO)
    k = looks_binary(ps->head, ps->n_head) ? HP2X_INPUT_EVENTLOG
                                           : HP2X_INPUT_HP;
  hp2x_status st = start_front_end(ps, k, err);
  if (st != HP2X_OK) return st;
  parts_src head; /* the input's first bytes */
  hpx_src_mem(&head, ps->head, ps->n_head, 0);
  return forward_bytes(ps, &head, err);
}

/* Bytes up to src's last '\n' (0: none), read back from its end. */
static size_t lines_end(parts_src *src) {
  const size_t window = (size_t)64 << 10;
  size_t end = src->len, avail;
  while (end > 0) {
    size_t from = end > window ? end - window : 0;
    const unsigned char *p = hpx_src_at(src, from, end - from, &avail);
    if (!p) return 0; /* the reading of those bytes says why */
    for (size_t i = end - from; i > 0; i--)
      if (p[i - 1] == '\n') return from + i;
    end = from;
  }
  return 0;
}

/* Takes the input's first bytes (those its kind is told by) from src,
 * read into a room of their own (no allocation): a file that cannot be
 * read there says why, and is not taken for an input that ends there. */
static hp2x_status take_head(hp2x_parser *ps, parts_src *src, hp2x_err *err) {
  unsigned char room[sizeof ps->head];
  parts_buf b = {room, sizeof room};
  size_t k = sizeof ps->head - ps->n_head;
  if (k > src->len) k = src->len;
  const unsigned char *p = k ? hpx_src_bytes(src, 0, k, &b, err) : room;
  if (!p) return err->code;
  memcpy(ps->head + ps->n_head, p, k);
  ps->n_head += k;
  hpx_src_skip(src, k);
  return ps->n_head == sizeof ps->head ? choose_front_end(ps, err) : HP2X_OK;
}

hp2x_status hpx_parser_feed_src(hp2x_parser *ps, parts_src *src,
                                hp2x_err *err) {
  if (ps->status != HP2X_OK) return ps->status;
  if (ps->finished)
    return ps->status =
               hpx_fail(err, HP2X_E_ARG, 0, -1, "parser fed after finish");
  size_t len = src->len, nl = lines_end(src);
  if (nl) ps->lines_end = ps->bytes + (long long)nl;
  src->offset = ps->bytes;
  ps->bytes += (long long)len;
  /* a big feed packs its censuses, from the first (model.h's pack_values):
   * decided on the whole feed, before its first bytes tell the kind */
  size_t pack = ps->opt.pack_bytes ? ps->opt.pack_bytes : HPX_PACK_FROM_BYTES;
  if (len >= pack && ps->profile->n_samples == 0 && !ps->profile->sample_open)
    ps->profile->pack_values = true;
  hp2x_status st = HP2X_OK;
  if (ps->kind == HP2X_INPUT_AUTO) {
    st = ps->opt.kind != HP2X_INPUT_AUTO ? choose_front_end(ps, err)
                                         : take_head(ps, src, err);
  }
  if (st == HP2X_OK && ps->kind != HP2X_INPUT_AUTO)
    st = forward_bytes(ps, src, err);
  return ps->status = st;
}

hp2x_status hp2x_parser_feed(hp2x_parser *ps, const void *buf, size_t len,
                             hp2x_err *err) {
  parts_src src;
  hpx_src_mem(&src, buf, len, 0);
  return hpx_parser_feed_src(ps, &src, err);
}

const hp2x_profile *hp2x_parser_peek(const hp2x_parser *ps) {
  return ps->profile;
}

hp2x_status hp2x_parser_finish(hp2x_parser *ps, hp2x_profile **out,
                               hp2x_err *err) {
  *out = NULL;
  if (ps->status != HP2X_OK) return ps->status;
  if (ps->finished)
    return ps->status =
               hpx_fail(err, HP2X_E_ARG, 0, -1, "parser finished twice");
  ps->finished = true;
  hp2x_status st = HP2X_OK;
  if (ps->kind == HP2X_INPUT_AUTO) st = choose_front_end(ps, err);
  if (st == HP2X_OK)
    st = ps->kind == HP2X_INPUT_EVENTLOG ? hpx_evl_parse_finish(ps->evl, err)
                                         : hpx_hp_parse_finish(ps->hp, err);
  if (st != HP2X_OK) return ps->status = st;
  *out = ps->profile;
  ps->profile = NULL;
  return HP2X_OK;
}

parts_count hpx_parser_parts(const hp2x_parser *ps) { return ps->parts; }
hp2x_input_kind hp2x_parser_kind(const hp2x_parser *ps) { return ps->kind; }
long long hp2x_parser_bytes(const hp2x_parser *ps) { return ps->bytes; }
long long hp2x_parser_whole_bytes(const hp2x_parser *ps) {
  if (ps->evl) return hpx_evl_parse_whole_bytes(ps->evl);
  return ps->hp ? ps->lines_end : 0;
}
int hp2x_parser_at_end(const hp2x_parser *ps) {
  return ps->evl ? hpx_evl_parse_at_end(ps->evl) : 0;
}

void hp2x_parser_free(hp2x_parser *ps) {
  if (!ps) return;
  hpx_hp_parse_free(ps->hp);
  hpx_evl_parse_free(ps->evl);
  hp2x_profile_free(ps->profile);
  hpx_free(ps);
}

/* ------------------------------------------------- file descriptors */

/* A buffer for the piece read at a time from what cannot be mapped: with
 * threads, big enough to be read in parts, else (or when that much memory
 * is not to be had) 64 KiB.  NULL when not even that is. */
static unsigned char *read_piece(const hp2x_parser *ps, size_t *size) {
  unsigned char *buf = NULL;
  if (ps->opt.threads > 1) buf = hpx_malloc(*size = (size_t)64 << 20);
  if (!buf) buf = hpx_malloc(*size = (size_t)1 << 16);
  return buf;
}

/* Feeds what read() gives of fd until its end. */
static hp2x_status feed_by_reading(hp2x_parser *ps, int fd, hp2x_err *err) {
  size_t piece;
  unsigned char *buf = read_piece(ps, &piece);
  if (!buf) return ps->status = hpx_nomem(err);
  hp2x_status st = HP2X_OK;
  for (;;) {
    ssize_t n = read(fd, buf, piece);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      st = ps->status = hpx_fail(err, HP2X_E_IO, 0, ps->bytes,
                                 "read failed: %s", strerror(errno));
    if (n <= 0) break;
    if ((st = hp2x_parser_feed(ps, buf, (size_t)n, err)) != HP2X_OK) break;
  }
  hpx_free(buf);
  return st;
}

hp2x_status hp2x_parser_feed_fd(hp2x_parser *ps, int fd, unsigned flags,
                                hp2x_err *err) {
  if (ps->status != HP2X_OK) return ps->status;
  struct stat st;
  off_t at = lseek(fd, 0, SEEK_CUR);
  if ((flags & HP2X_FEED_NO_MAP) || at < 0 || fstat(fd, &st) != 0 ||
      !S_ISREG(st.st_mode) || st.st_size <= at ||
      (uintmax_t)(st.st_size - at) > SIZE_MAX)
    return feed_by_reading(ps, fd, err);
  parts_src src;
  hpx_src_fd(&src, fd, (long long)at, (size_t)(st.st_size - at), 0);
  hp2x_status s = hpx_parser_feed_src(ps, &src, err);
  hpx_src_free(&src);
  if (s == HP2X_OK) (void)lseek(fd, st.st_size, SEEK_SET);
  return s;
}

hp2x_status hp2x_parse_stream(FILE *in, const char *file,
                              const hp2x_parse_options *o, hp2x_profile **out,
                              hp2x_err *err) {
  *out = NULL;
  hp2x_parser *ps = hp2x_parser_new(file, o, err);
  if (!ps) return err->code;
  size_t chunk;
  unsigned char *buf = read_piece(ps, &chunk);
  if (!buf) {
    hp2x_parser_free(ps);
    return hpx_nomem(err);
  }
  hp2x_status st = HP2X_OK;
  size_t n;
  while (st == HP2X_OK && (n = fread(buf, 1, chunk, in)) > 0)
    st = hp2x_parser_feed(ps, buf, n, err);
  if (st == HP2X_OK && ferror(in))
    st = hpx_fail(err, HP2X_E_IO, 0, ps->bytes, "read failed: %s",
                  strerror(errno));
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, out, err);
  hpx_free(buf);
  hp2x_parser_free(ps);
  return st;
}
