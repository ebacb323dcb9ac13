/* eventlog_parse.c -- the eventlog front end: GHC's binary eventlog
 * (formats spec part B; part C for turning it into .hp samples) into the
 * same sample model as .hp text, streaming.  The header's event-type table
 * gives every event's size; events hp2x does not use are skipped by that
 * size without being copied, across feeds.  An event that hp2x reads is
 * parsed in place when it lies whole in the caller's buffer, else gathered
 * in a small buffer first, so any split of the bytes gives the same result.
 *
 * Decisions: the model holds exactly the censuses (no invented empty
 * samples at 0 and at exit, which the .hp has; see the man page).  Entries
 * outside a sample, an END without a BEGIN and a BEGIN inside an open
 * sample are errors with their byte offset.  Bytes after the end-of-data
 * marker are ignored.  Labels keep their bytes (GHC 9.0 writes Latin-1 for
 * closure and type descriptions); the renderer decides how to show them.
 */
#include "hp2x_int.h"

#include <string.h>
#include <time.h>

enum {
  EV_BLOCK_MARKER = 18,
  EV_RTS_IDENTIFIER = 29,
  EV_PROGRAM_ARGS = 30,
  EV_WALL_CLOCK_TIME = 43,
  EV_HEAP_SIZE = 50,
  EV_HEAP_LIVE = 51,
  EV_USER_MARKER = 58,
  EV_BLOCKS_SIZE = 91,
  EV_HEAP_PROF_BEGIN = 160,
  EV_HEAP_PROF_COST_CENTRE = 161,
  EV_HEAP_PROF_SAMPLE_BEGIN = 162,
  EV_HEAP_PROF_SAMPLE_COST_CENTRE = 163,
  EV_HEAP_PROF_SAMPLE_STRING = 164,
  EV_HEAP_PROF_SAMPLE_END = 165,
  EV_HEAP_BIO_PROF_SAMPLE_BEGIN = 166,
  EV_DATA_END = 0xffff
};

#define UNDECLARED (-2)
#define VARIABLE (-1)
#define MAX_HEADER_BYTES (1u << 22) /* the event-type table: 4 MiB */

typedef struct cost_centre {
  uint32_t id;
  char *label;   /* owned */
  char *module;  /* owned */
  int caf;       /* non-zero flag byte */
  int used;      /* slot in use */
} cost_centre;

struct evl_parser {
  hp2x_profile *p;          /* borrowed: the dispatcher owns it */
  const char *file;         /* borrowed */
  int ccs_length;           /* -L cut for -hc labels; 0 = whole stack */
  /* header */
  int in_header;
  unsigned char *hdr;       /* header bytes so far; owned */
  size_t hdr_len, hdr_cap;
  int32_t *size_of[256];    /* event-type table in pages of 256 ids (see
                               type_size); a page is made when an id in it
                               is declared, NULL = none declared; owned */
  int has_sample_end;       /* type 165 declared (GHC >= 8.10) */
  uint16_t *declared;       /* ids declared by the last header attempt;
                               owned */
  size_t n_declared, declared_cap;
  /* data */
  long long offset;         /* bytes consumed so far */
  long long event_start;    /* offset of the event being read */
  unsigned char *ev;        /* a gathered partial event; owned */
  size_t ev_len, ev_cap, ev_need; /* ev_need: 0 = not gathering */
  uint64_t skip;            /* payload bytes still to skip */
  int at_end;               /* DATA_END read */
  long long block_end;      /* where the current block says it ends */
  int heap_begun;           /* HEAP_PROF_BEGIN seen */
  /* samples */
  int in_sample;
  long long sample_offset;  /* where the open sample began */
  label_track track;        /* repeats and the next-label guess */
  cost_centre *ccs;         /* open addressing by id; owned */
  size_t ccs_cap, n_ccs;
  char *name;               /* scratch for stack labels; owned */
  size_t name_cap;
  /* JOB pieces */
  int profiled;             /* RTS_IDENTIFIER's way has 'p'; -1 unknown */
  char *args;               /* PROGRAM_ARGS payload; owned */
  size_t args_len;
  hp2x_status status;
};

/* ----------------------------------------------------------- helpers */

static uint16_t be16(const unsigned char *b) {
  return (uint16_t)((unsigned)b[0] << 8 | b[1]);
}
static uint32_t be32(const unsigned char *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 |
         b[3];
}
static uint64_t be64(const unsigned char *b) {
  return (uint64_t)be32(b) << 32 | be32(b + 4);
}

/* The declared payload size of event type `id`: VARIABLE, UNDECLARED or
 * bytes.  Entries hold size + 2, so a page fresh from calloc says
 * "undeclared".  Paged (GHC's ids are all below 256: one 1 KiB page)
 * rather than one 256 KiB table, which every parser had to allocate and
 * fill whatever the input. */
static int32_t type_size(const evl_parser *ev, unsigned id) {
  const int32_t *page = ev->size_of[id >> 8];
  return page ? page[id & 255] - 2 : UNDECLARED;
}

static hp2x_status fail_at(evl_parser *ev, hp2x_err *err, long long off,
                           const char *msg) {
  return ev->status = hp2x_fail(err, HP2X_E_SYNTAX, 0, off, "%s", msg);
}

evl_parser *evl_parse_new(const char *file, hp2x_profile *p,
                          const hp2x_parse_options *o, hp2x_err *err) {
  evl_parser *ev = hp2x_calloc(1, sizeof *ev);
  if (!ev) {
    hp2x_nomem(err);
    return NULL;
  }
  ev->p = p;
  ev->file = file;
  label_track_init(&ev->track);
  ev->ccs_length = o ? o->ccs_length : 0;
  ev->in_header = 1;
  ev->profiled = -1;
  /* Until PROGRAM_ARGS says otherwise, JOB is the file's name (spec C.5). */
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file ? file : "";
  size_t bl = strlen(base);
  if (bl > 9 && !strcmp(base + bl - 9, ".eventlog")) bl -= 9;
  if (profile_set_header(p, PROFILE_JOB, base, bl, err) != HP2X_OK ||
      profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, err) !=
          HP2X_OK ||
      profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, err) != HP2X_OK) {
    evl_parse_free(ev);
    return NULL;
  }
  return ev;
}

void evl_parse_free(evl_parser *ev) {
  if (!ev) return;
  for (size_t i = 0; i < ev->ccs_cap; i++) {
    hp2x_free(ev->ccs[i].label);
    hp2x_free(ev->ccs[i].module);
  }
  hp2x_free(ev->ccs);
  hp2x_free(ev->hdr);
  for (size_t i = 0; i < 256; i++) hp2x_free(ev->size_of[i]);
  hp2x_free(ev->declared);
  hp2x_free(ev->ev);
  label_track_free(&ev->track);
  hp2x_free(ev->name);
  hp2x_free(ev->args);
  hp2x_free(ev);
}

int evl_parse_at_end(const evl_parser *ev) { return ev->at_end; }

/* ------------------------------------------------------------- header */

/* Sanity bounds on the sizes of the fixed-size heap events: the format
 * lets fields be appended, but not kilobytes of them.  Corrupt headers
 * are caught here, before an event "runs past the end of the file". */
static int max_fixed_size(unsigned id) {
  switch (id) {
  case EV_HEAP_PROF_SAMPLE_BEGIN:
  case EV_HEAP_PROF_SAMPLE_END:
  case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
  case EV_BLOCK_MARKER:
  case EV_WALL_CLOCK_TIME:
  case EV_HEAP_SIZE:
  case EV_HEAP_LIVE:
  case EV_BLOCKS_SIZE:
    return 1024;
  default:
    return INT16_MAX;
  }
}

/* The largest payload a variable-size heap sample event may claim: a
 * 255-deep stack plus room for appended fields. */
#define MAX_STACK_EVENT (10 + 4 * 255 + 1024)

/* Parses the whole header from ev->hdr.  Returns 1 when complete (sets
 * *used to its length), 0 when more bytes are needed, -1 on error. */
static int parse_header(evl_parser *ev, size_t *used, hp2x_err *err) {
  const unsigned char *h = ev->hdr;
  size_t n = ev->hdr_len, pos = 0;
  /* The header is parsed again from its start as bytes arrive: forget
   * what the previous, incomplete attempt declared. */
  for (size_t i = 0; i < ev->n_declared; i++)
    ev->size_of[ev->declared[i] >> 8][ev->declared[i] & 255] = 0;
  ev->n_declared = 0;
  ev->has_sample_end = 0;
#define NEED(k) \
  do {          \
    if (n - pos < (k)) return 0; \
  } while (0)
  NEED(4);
  if (memcmp(h, "hdrb", 4) != 0)
    return fail_at(ev, err, 0, "expected the eventlog magic 'hdrb'"), -1;
  pos = 4;
  NEED(4);
  if (memcmp(h + pos, "hetb", 4) != 0)
    return fail_at(ev, err, (long long)pos,
                   "expected 'hetb' (start of the event-type list)"), -1;
  pos += 4;
  for (;;) {
    NEED(4);
    if (memcmp(h + pos, "hete", 4) == 0) {
      pos += 4;
      break;
    }
    if (memcmp(h + pos, "etb\0", 4) != 0)
      return fail_at(ev, err, (long long)pos,
                     "expected an event type ('etb') or the end of the "
                     "list ('hete')"), -1;
    size_t at = pos;
    pos += 4;
    NEED(8);
    uint16_t id = be16(h + pos);
    int16_t size = (int16_t)be16(h + pos + 2);
    uint32_t dlen = be32(h + pos + 4);
    pos += 8;
    if (dlen > 65536)
      return fail_at(ev, err, (long long)pos - 4,
                     "event type description longer than 64 KiB"), -1;
    NEED((size_t)dlen + 4);
    pos += dlen;
    uint32_t elen = be32(h + pos);
    pos += 4;
    if (elen > 65536)
      return fail_at(ev, err, (long long)pos - 4,
                     "event type extra info longer than 64 KiB"), -1;
    NEED((size_t)elen + 4);
    pos += elen;
    if (memcmp(h + pos, "ete\0", 4) != 0)
      return fail_at(ev, err, (long long)pos,
                     "expected 'ete' (end of an event type)"), -1;
    pos += 4;
    if (id == EV_DATA_END)
      return fail_at(ev, err, (long long)at,
                     "event type 65535 is reserved for the data end"), -1;
    if (type_size(ev, id) != UNDECLARED) {
      char msg[96];
      hp2x_fmt(msg, sizeof msg, "event type %u is declared twice", id);
      return fail_at(ev, err, (long long)at, msg), -1;
    }
    if (size < -1)
      return fail_at(ev, err, (long long)at + 6,
                     "event size must be -1 (variable) or >= 0"), -1;
    if (size > max_fixed_size(id)) {
      char msg[160];
      hp2x_fmt(msg, sizeof msg,
               "event type %u is declared %d bytes long; GHC writes it much "
               "shorter (at most %d accepted)",
               id, size, max_fixed_size(id));
      return fail_at(ev, err, (long long)at + 6, msg), -1;
    }
    if (hp2x_grow((void **)&ev->declared, &ev->declared_cap,
                  ev->n_declared + 1, sizeof *ev->declared, err) != HP2X_OK)
      return ev->status = err->code, -1;
    int32_t **page = &ev->size_of[id >> 8];
    if (!*page && !(*page = hp2x_calloc(256, sizeof **page)))
      return ev->status = hp2x_nomem(err), -1;
    ev->declared[ev->n_declared++] = id;
    (*page)[id & 255] = size + 2;
    if (id == EV_HEAP_PROF_SAMPLE_END) ev->has_sample_end = 1;
  }
  NEED(4);
  if (memcmp(h + pos, "hdre", 4) != 0)
    return fail_at(ev, err, (long long)pos,
                   "expected 'hdre' (end of the header)"), -1;
  pos += 4;
  NEED(4);
  if (memcmp(h + pos, "datb", 4) != 0)
    return fail_at(ev, err, (long long)pos,
                   "expected 'datb' (start of the data)"), -1;
  pos += 4;
#undef NEED
  *used = pos;
  return 1;
}

/* ----------------------------------------------------- cost centres */

static cost_centre *cc_find(const evl_parser *ev, uint32_t id) {
  if (!ev->ccs_cap) return NULL;
  size_t mask = ev->ccs_cap - 1;
  for (size_t i = (id * 2654435761u) & mask;; i = (i + 1) & mask) {
    if (!ev->ccs[i].used) return NULL;
    if (ev->ccs[i].id == id) return &ev->ccs[i];
  }
}

static hp2x_status cc_add(evl_parser *ev, uint32_t id, const char *label,
                          size_t llen, const char *module, size_t mlen,
                          int caf, hp2x_err *err) {
  if ((ev->n_ccs + 1) * 2 > ev->ccs_cap) {
    size_t cap = ev->ccs_cap ? ev->ccs_cap * 2 : 256;
    cost_centre *t = hp2x_calloc(cap, sizeof *t);
    if (!t) return hp2x_nomem(err);
    for (size_t i = 0; i < ev->ccs_cap; i++) {
      if (!ev->ccs[i].used) continue;
      size_t j = (ev->ccs[i].id * 2654435761u) & (cap - 1);
      while (t[j].used) j = (j + 1) & (cap - 1);
      t[j] = ev->ccs[i];
    }
    hp2x_free(ev->ccs);
    ev->ccs = t;
    ev->ccs_cap = cap;
  }
  cost_centre *c = cc_find(ev, id);
  if (!c) {
    size_t j = (id * 2654435761u) & (ev->ccs_cap - 1);
    while (ev->ccs[j].used) j = (j + 1) & (ev->ccs_cap - 1);
    c = &ev->ccs[j];
    c->used = 1;
    c->id = id;
    ev->n_ccs++;
  }
  char *l = hp2x_strndup(label, llen), *m = hp2x_strndup(module, mlen);
  if (!l || !m) {
    hp2x_free(l);
    hp2x_free(m);
    return hp2x_nomem(err);
  }
  hp2x_free(c->label);
  hp2x_free(c->module);
  c->label = l;
  c->module = m;
  c->caf = caf;
  return HP2X_OK;
}

static hp2x_status name_put(evl_parser *ev, size_t *len, const char *s,
                            size_t n, hp2x_err *err) {
  if (hp2x_grow((void **)&ev->name, &ev->name_cap, *len + n + 1, 1, err) !=
      HP2X_OK)
    return err->code;
  memcpy(ev->name + *len, s, n);
  *len += n;
  return HP2X_OK;
}

/* The .hp label of a cost-centre stack (formats spec A.4.1), without the
 * (ccsID) prefix the eventlog cannot know. */
static hp2x_status stack_name(evl_parser *ev, const unsigned char *ids,
                              size_t depth, size_t *len, hp2x_err *err) {
  *len = 0;
  if (depth == 0) return name_put(ev, len, "MAIN", 4, err);
  for (size_t i = 0; i < depth; i++) {
    uint32_t id = be32(ids + 4 * i);
    const cost_centre *c = cc_find(ev, id);
    char unknown[32];
    const char *label = unknown;
    if (c) {
      label = c->label;
    } else {
      hp2x_fmt(unknown, sizeof unknown, "<cc %u>", id);
      ev->p->warn.unknown_cost_centres++;
    }
    hp2x_status st;
    if (c && !strcmp(c->label, "CAF")) {
      st = name_put(ev, len, c->module, strlen(c->module), err);
      if (st == HP2X_OK) st = name_put(ev, len, ".CAF", 4, err);
    } else {
      st = name_put(ev, len, label, strlen(label), err);
      if (st == HP2X_OK && i + 1 < depth) st = name_put(ev, len, "/", 1, err);
    }
    if (st != HP2X_OK) return st;
  }
  size_t L = (size_t)ev->ccs_length;
  if (L >= 5 && *len > L) {
    *len = L - 4;
    return name_put(ev, len, "...", 3, err);
  }
  return HP2X_OK;
}

/* ------------------------------------------------------------ samples */

static hp2x_status add_entry(evl_parser *ev, uint32_t id, uint64_t bytes,
                             hp2x_err *err) {
  if (bytes > (uint64_t)INT64_MAX)
    return fail_at(ev, err, ev->event_start,
                   "residency does not fit in 64 signed bits");
  int repeated;
  return label_track_add(&ev->track, ev->p, id, (int64_t)bytes, &repeated,
                         err);
}

/* Is the expected label's identity `key`? */
static int guessed(const evl_parser *ev, uint32_t id, const void *key,
                   size_t len, int stack) {
  if (id == LABEL_NONE) return 0;
  const hp2x_label *l = &ev->p->labels[id];
  if (stack != (l->key != NULL)) return 0;
  const char *k = stack ? l->key : l->name;
  size_t klen = stack ? l->key_len : l->name_len;
  return klen == len && memcmp(k, key, len) == 0;
}

static hp2x_status begin_sample(evl_parser *ev, double t, hp2x_err *err) {
  if (!ev->heap_begun)
    return fail_at(ev, err, ev->event_start,
                   "a heap sample before HEAP_PROF_BEGIN: no heap profile "
                   "was started");
  if (ev->in_sample) {
    if (ev->has_sample_end) {
      char msg[128];
      hp2x_fmt(msg, sizeof msg,
               "a heap sample begins while the one begun at byte %lld is "
               "still open",
               ev->sample_offset);
      return fail_at(ev, err, ev->event_start, msg);
    }
    if (profile_end_sample(ev->p, err) != HP2X_OK) return err->code;
  }
  ev->in_sample = 1;
  ev->sample_offset = ev->event_start;
  label_track_begin(&ev->track);
  profile_begin_sample(ev->p, t);
  return HP2X_OK;
}

/* ------------------------------------------------------------- JOB, DATE */

static int word_is(const char *s, const char *w) { return !strcmp(s, w); }

/* JOB from PROGRAM_ARGS (formats spec C.5). */
static hp2x_status make_job(evl_parser *ev, hp2x_err *err) {
  if (!ev->args) return HP2X_OK;
  const char *a = ev->args, *end = ev->args + ev->args_len;
  char *prog = NULL, *rts = NULL;
  size_t plen = 0, rlen = 0, pcap = 0, rcap = 0;
  int first = 1, in_rts = 0, rts_done = 0;
  hp2x_status st = HP2X_OK;
  while (a < end && st == HP2X_OK) {
    const char *z = memchr(a, '\0', (size_t)(end - a));
    size_t n = z ? (size_t)(z - a) : (size_t)(end - a);
    char word[16];
    snprintf(word, sizeof word, "%.*s", (int)(n < 15 ? n : 15), a);
    if (first) {
      const char *base = a;
      for (const char *c = a; c < a + n; c++)
        if (*c == '/') base = c + 1;
      n -= (size_t)(base - a);
      a = base;
      first = 0;
    } else if (!rts_done && n == 4 && word_is(word, "+RTS")) {
      in_rts = 1;
      goto next;
    } else if (!rts_done && n == 4 && word_is(word, "-RTS")) {
      in_rts = 0;
      goto next;
    } else if (!rts_done && n == 5 && word_is(word, "--RTS")) {
      in_rts = 0;
      rts_done = 1;
      goto next;
    }
    {
      char **dst = in_rts ? &rts : &prog;
      size_t *len = in_rts ? &rlen : &plen, *cap = in_rts ? &rcap : &pcap;
      if (hp2x_grow((void **)dst, cap, *len + n + 2, 1, err) != HP2X_OK) {
        st = err->code;
        break;
      }
      if (*len) (*dst)[(*len)++] = ' ';
      memcpy(*dst + *len, a, n);
      *len += n;
    }
  next:
    a += n + 1;
  }
  if (st == HP2X_OK && rlen && ev->profiled != 0) {
    if (hp2x_grow((void **)&prog, &pcap, plen + rlen + 7, 1, err) != HP2X_OK) {
      st = err->code;
    } else {
      memcpy(prog + plen, " +RTS ", 6);
      memcpy(prog + plen + 6, rts, rlen);
      plen += rlen + 6;
    }
  }
  if (st == HP2X_OK && ev->profiled == 0) {
    /* A non-profiled RTS writes only the program's name. */
    const char *sp = prog ? memchr(prog, ' ', plen) : NULL;
    if (sp) plen = (size_t)(sp - prog);
  }
  if (st == HP2X_OK)
    st = profile_set_header(ev->p, PROFILE_JOB, prog ? prog : "", plen, err);
  hp2x_free(prog);
  hp2x_free(rts);
  return st;
}

/* DATE as the RTS writes it: ctime without the seconds, local time, in
 * English whatever the locale. */
static hp2x_status make_date(evl_parser *ev, uint64_t secs, hp2x_err *err) {
  static const char days[] = "SunMonTueWedThuFriSat";
  static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  time_t t = (time_t)secs;
  struct tm tm;
  if (!localtime_r(&t, &tm)) return HP2X_OK;
  char buf[64];
  int n = hp2x_fmt(buf, sizeof buf, "%.3s %.3s %2d %02d:%02d %d",
                   days + 3 * (tm.tm_wday % 7), months + 3 * (tm.tm_mon % 12),
                   tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_year + 1900);
  return profile_set_header(ev->p, PROFILE_DATE, buf, (size_t)n, err);
}

/* ------------------------------------------------------------- events */

/* Is the type one hp2x reads (so its payload must be gathered)? */
static int wanted(unsigned type) {
  switch (type) {
  case EV_BLOCK_MARKER:
  case EV_RTS_IDENTIFIER: case EV_PROGRAM_ARGS: case EV_WALL_CLOCK_TIME:
  case EV_HEAP_SIZE: case EV_HEAP_LIVE: case EV_USER_MARKER:
  case EV_BLOCKS_SIZE: case EV_HEAP_PROF_BEGIN: case EV_HEAP_PROF_COST_CENTRE:
  case EV_HEAP_PROF_SAMPLE_BEGIN: case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
  case EV_HEAP_PROF_SAMPLE_STRING: case EV_HEAP_PROF_SAMPLE_END:
  case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
    return 1;
  default:
    return 0;
  }
}

/* Length of a NUL-terminated string starting at s within n bytes, or -1. */
static long str_in(const unsigned char *s, size_t n) {
  const unsigned char *z = memchr(s, '\0', n);
  return z ? (long)(z - s) : -1;
}

static hp2x_status short_event(evl_parser *ev, hp2x_err *err,
                               const char *what) {
  char msg[128];
  hp2x_fmt(msg, sizeof msg, "%s event is shorter than its fields", what);
  return fail_at(ev, err, ev->event_start, msg);
}

/* Handles one whole event of a wanted type; pl/n is its payload. */
static hp2x_status event(evl_parser *ev, unsigned type, uint64_t ts,
                         const unsigned char *pl, size_t n, hp2x_err *err) {
  hp2x_profile *p = ev->p;
  double t = (double)ts / 1e9;
  switch (type) {
  case EV_HEAP_PROF_BEGIN:
    if (n < 13) return short_event(ev, err, "HEAP_PROF_BEGIN");
    p->interval_ns = be64(pl + 1);
    p->breakdown = (int)be32(pl + 9);
    ev->heap_begun = 1;
    return HP2X_OK;
  case EV_BLOCK_MARKER:
    if (n < 4) return short_event(ev, err, "BLOCK_MARKER");
    ev->block_end = ev->event_start + (long long)be32(pl);
    return HP2X_OK;
  case EV_HEAP_PROF_COST_CENTRE: {
    if (n < 4) return short_event(ev, err, "HEAP_PROF_COST_CENTRE");
    uint32_t id = be32(pl);
    size_t pos = 4;
    long l1 = str_in(pl + pos, n - pos);
    if (l1 < 0) return short_event(ev, err, "HEAP_PROF_COST_CENTRE");
    const unsigned char *label = pl + pos;
    pos += (size_t)l1 + 1;
    long l2 = str_in(pl + pos, n - pos);
    if (l2 < 0) return short_event(ev, err, "HEAP_PROF_COST_CENTRE");
    const unsigned char *module = pl + pos;
    pos += (size_t)l2 + 1;
    long l3 = str_in(pl + pos, n - pos);
    if (l3 < 0) return short_event(ev, err, "HEAP_PROF_COST_CENTRE");
    pos += (size_t)l3 + 1;
    int caf = pos < n ? pl[pos] != 0 : 0;
    return cc_add(ev, id, (const char *)label, (size_t)l1,
                  (const char *)module, (size_t)l2, caf, err);
  }
  case EV_HEAP_PROF_SAMPLE_BEGIN:
    if (n < 8) return short_event(ev, err, "HEAP_PROF_SAMPLE_BEGIN");
    return begin_sample(ev, t, err);
  case EV_HEAP_BIO_PROF_SAMPLE_BEGIN:
    if (n < 16) return short_event(ev, err, "HEAP_BIO_PROF_SAMPLE_BEGIN");
    return begin_sample(ev, (double)be64(pl + 8) / 1e9, err);
  case EV_HEAP_PROF_SAMPLE_END:
    if (!ev->in_sample)
      return fail_at(ev, err, ev->event_start,
                     "HEAP_PROF_SAMPLE_END without a sample begun");
    ev->in_sample = 0;
    return profile_end_sample(p, err);
  case EV_HEAP_PROF_SAMPLE_COST_CENTRE:
  case EV_HEAP_PROF_SAMPLE_STRING: {
    int stack = type == EV_HEAP_PROF_SAMPLE_COST_CENTRE;
    const char *what = stack ? "HEAP_PROF_SAMPLE_COST_CENTRE"
                             : "HEAP_PROF_SAMPLE_STRING";
    if (!ev->in_sample) {
      char msg[128];
      hp2x_fmt(msg, sizeof msg, "%s outside any heap sample", what);
      return fail_at(ev, err, ev->event_start, msg);
    }
    if (n < 10) return short_event(ev, err, what);
    uint64_t bytes = be64(pl + 1);
    uint32_t id;
    hp2x_status st;
    if (stack) {
      size_t depth = pl[9];
      if (n < 10 + 4 * depth) {
        char msg[128];
        hp2x_fmt(msg, sizeof msg,
                 "HEAP_PROF_SAMPLE_COST_CENTRE claims %zu cost centres but "
                 "its payload holds %zu",
                 depth, (n - 10) / 4);
        return fail_at(ev, err, ev->event_start, msg);
      }
      /* Key: the id sequence itself, so stacks that print alike stay
       * apart; a leading 0x01 keeps keys apart from string labels. */
      unsigned char key[1 + 4 * 255];
      key[0] = 1;
      memcpy(key + 1, pl + 10, 4 * depth);
      uint32_t guess = label_track_guess(&ev->track);
      long found = guessed(ev, guess, key, 1 + 4 * depth, 1)
                       ? (long)guess
                       : profile_find(p, (const char *)key, 1 + 4 * depth);
      if (found >= 0) {
        id = (uint32_t)found;
      } else {
        size_t len;
        if (stack_name(ev, pl + 10, depth, &len, err) != HP2X_OK)
          return ev->status = err->code;
        st = profile_intern(p, (const char *)key, 1 + 4 * depth, ev->name, len,
                            &id, err);
        if (st != HP2X_OK) return st;
      }
    } else {
      long l = str_in(pl + 9, n - 9);
      if (l < 0)
        return fail_at(ev, err, ev->event_start,
                       "HEAP_PROF_SAMPLE_STRING label has no terminating NUL");
      id = label_track_guess(&ev->track);
      if (!guessed(ev, id, pl + 9, (size_t)l, 0)) {
        st = profile_intern(p, (const char *)pl + 9, (size_t)l, NULL, 0, &id,
                            err);
        if (st != HP2X_OK) return st;
      }
    }
    return add_entry(ev, id, bytes, err);
  }
  case EV_RTS_IDENTIFIER: {
    if (n < 4) return short_event(ev, err, "RTS_IDENTIFIER");
    /* "GHC-9.0.2 rts_p": profiled when a '_'-separated part of the way is
     * "p". */
    const unsigned char *s = pl + 4, *e = pl + n;
    const unsigned char *sp = memchr(s, ' ', (size_t)(e - s));
    ev->profiled = 0;
    if (sp) {
      const unsigned char *w = sp + 1;
      while (w < e) {
        const unsigned char *u = w;
        while (u < e && *u != '_' && *u != '\0') u++;
        if (u - w == 1 && *w == 'p') ev->profiled = 1;
        if (u >= e || *u == '\0') break;
        w = u + 1;
      }
    }
    return make_job(ev, err);
  }
  case EV_PROGRAM_ARGS: {
    if (n < 4) return short_event(ev, err, "PROGRAM_ARGS");
    char *copy = hp2x_strndup((const char *)pl + 4, n - 4);
    if (!copy) return hp2x_nomem(err);
    hp2x_free(ev->args);
    ev->args = copy;
    ev->args_len = n - 4;
    while (ev->args_len && ev->args[ev->args_len - 1] == '\0') ev->args_len--;
    return make_job(ev, err);
  }
  case EV_WALL_CLOCK_TIME:
    if (n < 16) return short_event(ev, err, "WALL_CLOCK_TIME");
    return make_date(ev, be64(pl + 4), err);
  case EV_USER_MARKER: {
    size_t len = n;
    const unsigned char *z = memchr(pl, '\0', n);
    if (z) len = (size_t)(z - pl);
    return profile_add_mark(p, t, (const char *)pl, len, err);
  }
  case EV_HEAP_SIZE:
  case EV_HEAP_LIVE:
  case EV_BLOCKS_SIZE: {
    if (n < 12) return short_event(ev, err, "heap statistics");
    uint64_t b = be64(pl + 4);
    hp2x_series *s = type == EV_HEAP_SIZE   ? &p->heap_size
                     : type == EV_HEAP_LIVE ? &p->heap_live
                                            : &p->blocks_size;
    return profile_series_add(s, t, b > (uint64_t)INT64_MAX ? INT64_MAX
                                                            : (int64_t)b,
                              err);
  }
  default:
    return HP2X_OK;
  }
}

/* Reads events from buf; returns bytes consumed (all, unless an error). */
static hp2x_status data(evl_parser *ev, const unsigned char *buf, size_t len,
                        hp2x_err *err) {
  size_t pos = 0;
  while (pos < len && !ev->at_end) {
    if (ev->skip) {
      size_t k = ev->skip < len - pos ? (size_t)ev->skip : len - pos;
      ev->skip -= k;
      pos += k;
      ev->offset += (long long)k;
      continue;
    }
    if (ev->ev_need) { /* gathering a partial event */
      size_t k = ev->ev_need - ev->ev_len;
      if (k > len - pos) k = len - pos;
      memcpy(ev->ev + ev->ev_len, buf + pos, k);
      ev->ev_len += k;
      pos += k;
      ev->offset += (long long)k;
      if (ev->ev_len < ev->ev_need) return HP2X_OK;
      ev->ev_need = 0;
      /* fall through to parse it from ev->ev below */
    }
    const unsigned char *e;
    size_t avail;
    int gathered = ev->ev_len > 0;
    if (gathered) {
      e = ev->ev;
      avail = ev->ev_len;
    } else {
      e = buf + pos;
      avail = len - pos;
      ev->event_start = ev->offset;
    }
    /* The event header: type, timestamp, [payload size]. */
    size_t head = 2;
    if (avail >= 2) {
      unsigned type = be16(e);
      if (type == EV_DATA_END) {
        if (ev->event_start < ev->block_end) {
          char msg[160];
          hp2x_fmt(msg, sizeof msg,
                   "the data ends inside a block whose marker claims it "
                   "runs to byte %lld",
                   ev->block_end);
          return fail_at(ev, err, ev->event_start, msg);
        }
        ev->at_end = 1;
        if (!gathered) {
          pos += 2;
          ev->offset += 2;
        }
        ev->ev_len = 0;
        break;
      }
      int32_t size = type_size(ev, type);
      if (size == UNDECLARED) {
        char msg[128];
        hp2x_fmt(msg, sizeof msg,
                 "event type %u is not declared in the header (corrupt "
                 "eventlog?)",
                 type);
        return fail_at(ev, err, ev->event_start, msg);
      }
      head = size == VARIABLE ? 12 : 10;
      if (avail >= head) {
        /* Both sizes are 16-bit: an event is at most 64 KiB. */
        uint64_t payload = size == VARIABLE ? be16(e + 10) : (uint64_t)size;
        if (type == EV_HEAP_PROF_SAMPLE_COST_CENTRE &&
            payload > MAX_STACK_EVENT) {
          char msg[160];
          hp2x_fmt(msg, sizeof msg,
                   "HEAP_PROF_SAMPLE_COST_CENTRE claims %u bytes; a 255-deep "
                   "stack needs %d",
                   (unsigned)payload, 10 + 4 * 255);
          return fail_at(ev, err, ev->event_start, msg);
        }
        size_t total = head + (size_t)payload;
        if (!wanted(type)) { /* skip without copying */
          ev->ev_len = 0;
          if (gathered) {
            ev->skip = payload - (avail - head);
          } else {
            pos += head;
            ev->offset += (long long)head;
            ev->skip = payload;
          }
          continue;
        }
        if (avail >= total) {
          hp2x_status st = event(ev, type, be64(e + 2), e + head,
                                 (size_t)payload, err);
          if (st != HP2X_OK) {
            /* The model's errors (a limit, memory) are this event's. */
            if (err && err->offset < 0) err->offset = ev->event_start;
            return ev->status = st;
          }
          if (!gathered) {
            pos += total;
            ev->offset += (long long)total;
          }
          ev->ev_len = 0;
          continue;
        }
        head = total; /* gather the whole event */
      }
    }
    /* Not enough bytes for `head`: gather them. */
    if (!gathered) {
      if (hp2x_grow((void **)&ev->ev, &ev->ev_cap, head, 1, err) != HP2X_OK)
        return ev->status = err->code;
      size_t k = avail < head ? avail : head;
      memcpy(ev->ev, e, k);
      ev->ev_len = k;
      pos += k;
      ev->offset += (long long)k;
    } else if (hp2x_grow((void **)&ev->ev, &ev->ev_cap, head, 1, err) !=
               HP2X_OK) {
      return ev->status = err->code;
    }
    ev->ev_need = head;
  }
  if (ev->at_end) ev->offset += (long long)(len - pos);
  return HP2X_OK;
}

hp2x_status evl_parse_feed(evl_parser *ev, const unsigned char *buf,
                           size_t len, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  if (ev->in_header) {
    size_t take = len;
    if (ev->hdr_len + take > MAX_HEADER_BYTES) take = MAX_HEADER_BYTES - ev->hdr_len;
    if (hp2x_grow((void **)&ev->hdr, &ev->hdr_cap, ev->hdr_len + take, 1,
                  err) != HP2X_OK)
      return ev->status = err->code;
    memcpy(ev->hdr + ev->hdr_len, buf, take);
    size_t before = ev->hdr_len;
    ev->hdr_len += take;
    size_t used = 0;
    int r = parse_header(ev, &used, err);
    if (r < 0) return ev->status;
    if (r == 0) {
      if (ev->hdr_len >= MAX_HEADER_BYTES)
        return fail_at(ev, err, (long long)ev->hdr_len,
                       "eventlog header larger than 4 MiB");
      return HP2X_OK;
    }
    ev->in_header = 0;
    ev->offset = (long long)used;
    size_t from = used - before; /* header ends inside this buffer */
    hp2x_free(ev->hdr);
    ev->hdr = NULL;
    ev->hdr_len = ev->hdr_cap = 0;
    return data(ev, buf + from, len - from, err);
  }
  return data(ev, buf, len, err);
}

hp2x_status evl_parse_finish(evl_parser *ev, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  if (ev->in_header) {
    if (ev->hdr_len == 0)
      return ev->status = hp2x_fail(err, HP2X_E_SYNTAX, 0, 0,
                                    "empty input: expected an eventlog");
    return fail_at(ev, err, (long long)ev->hdr_len,
                   "the file ends inside the eventlog header");
  }
  if (ev->at_end) {
    /* Without SAMPLE_END (GHC < 8.10) the data end closes a sample. */
    if (ev->in_sample && !ev->has_sample_end) {
      ev->in_sample = 0;
      hp2x_status st = profile_end_sample(ev->p, err);
      if (st != HP2X_OK && err && err->offset < 0) err->offset = ev->offset;
      return st;
    }
    if (!ev->in_sample) return HP2X_OK;
  }
  /* No data-end marker: the program was killed or is still running. */
  ev->p->warn.truncated = 1;
  ev->p->warn.truncated_offset = ev->in_sample ? ev->sample_offset
                                 : ev->ev_len || ev->skip ? ev->event_start
                                                          : ev->offset;
  if (ev->in_sample) profile_abort_sample(ev->p);
  ev->in_sample = 0;
  return HP2X_OK;
}
