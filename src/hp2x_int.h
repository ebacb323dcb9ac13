/* hp2x_int.h -- private declarations shared by the files of libhp2x: the
 * sample model's fields, the allocation wrappers, error helpers and the
 * documented input limits.  Never installed; the tool (cli.c, watch.c,
 * main.c) must not include it.
 */
#ifndef HP2X_INT_H
#define HP2X_INT_H

#include "hp2x.h"

#include <stdarg.h>
#include <stdbool.h>

/* ------------------------------------------------------------- limits */
/* Documented in man/hp2x.1 (LIMITS); exceeding one is HP2X_E_LIMIT. */
#define HP2X_MAX_LINE_BYTES (16u << 20)   /* one .hp line, 16 MiB */
#define HP2X_MAX_LABELS (1u << 24)        /* distinct labels, 16 Mi */
#define HP2X_MAX_SAMPLES (1u << 28)       /* complete samples, 256 Mi */
#define HP2X_MAX_ENTRIES ((size_t)1 << 32) /* (label, value) entries */

/* a + b saturated to the int64_t range.  Residencies are >= 0 and at most
 * INT64_MAX each (both parsers check), but their sums (a label repeated in
 * a sample, a band's total, OTHER, a sample's stacked height) can pass
 * INT64_MAX in a damaged or hostile profile, where `+` is undefined. */
static inline int64_t hp2x_add_sat(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
  return a + b;
}

/* ---------------------------------------------------------- allocation */
/* All library allocation goes through these (alloc.c), so tests can fail
 * the nth one (hp2x_alloc_fail_at). */
void *hp2x_malloc(size_t n);
void *hp2x_calloc(size_t count, size_t size);
void *hp2x_realloc(void *ptr, size_t n);
void hp2x_free(void *ptr);
/* Copies len bytes and a NUL. */
char *hp2x_strndup(const char *s, size_t len);

/* Makes room for `need` elements of `elem` bytes in *ptr (capacity *cap,
 * in elements), growing geometrically.  HP2X_E_NOMEM on failure (the old
 * buffer is kept). */
hp2x_status hp2x_grow(void **ptr, size_t *cap, size_t need, size_t elem,
                      hp2x_err *err);

/* Maps bytes [from, to) of ptr's block in one call, where the kernel can
 * (MADV_POPULATE_WRITE), instead of one page fault per 4 KiB page as they
 * are first written: on virtual machines those faults cost as much as the
 * parsing that causes them.  Ranges under 1 MiB are left alone.  A hint
 * only; failure changes nothing. */
void hp2x_prefault(void *ptr, size_t from, size_t to);

/* ---------------------------------------------------------- errors */
/* Records an error unless one is already recorded (the first one wins).
 * Returns `code` (the new one, so callers can `return hp2x_fail(...)`). */
hp2x_status hp2x_fail(hp2x_err *err, hp2x_status code, long line,
                      long long offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
hp2x_status hp2x_nomem(hp2x_err *err);

/* Appends `s` to `dst` (size dst_size) with bytes outside printable ASCII
 * shown as \xNN, cut to fit; for quoting input text in messages. */
void hp2x_quote_bytes(char *dst, size_t dst_size, const char *s, size_t len);

/* ---------------------------------------------------------- the model */

/* What a label's key is, when it has one apart from its name. */
typedef enum {
  LABEL_TEXT,    /* no key: the name is the identity (every .hp label) */
  LABEL_STACK,   /* key: an eventlog cost-centre stack's ids; name: the
                    stack as the .hp prints it */
  LABEL_ADDRESS  /* key: an -hi info-table address as the .hp prints it
                    ("0x4c8e48"); name: what its IPE event says it is */
} label_kind;

typedef struct hp2x_label {
  char *name;      /* display text, NUL-terminated; owned */
  size_t name_len; /* bytes, without the NUL */
  char *key;       /* identity bytes when they differ from name; owned;
                      NULL = same as name (kind LABEL_TEXT) */
  size_t key_len;
  uint64_t hash;   /* of the key bytes */
  label_kind kind;
} hp2x_label;

typedef struct hp2x_series {
  size_t n, cap;
  double *time_s;  /* owned */
  int64_t *bytes;  /* owned */
} hp2x_series;

struct hp2x_profile {
  char *job, *date, *sample_unit, *value_unit; /* owned, never NULL */

  /* labels, interned: index = label id, in order of first appearance */
  hp2x_label *labels;      /* owned array */
  size_t n_labels, cap_labels;
  uint32_t *label_index;   /* open-addressing table of id+1 (0 = empty) */
  size_t index_cap;        /* power of two */

  /* complete samples: entries of sample s are [start[s], start[s+1]) */
  size_t n_samples, cap_samples;
  double *times;           /* [n_samples] seconds; owned */
  size_t *start;           /* [n_samples + 1]; owned */
  size_t *label_run;       /* [n_samples]: where in run_label the labels of
                              sample s begin (entry e's label is
                              run_label[label_run[s] + e - start[s]]);
                              cap_samples slots; owned */
  size_t cap_start;

  /* values (bytes, VALUE_UNIT) of complete samples' entries, then those
   * of the open sample: 32 bits each while every value is in
   * 0..UINT32_MAX, as in nearly every profile (it takes 4 GiB in one cost
   * centre at one sample to exceed it); the first value that is not
   * widens them all to 64 bits.  Read them with profile_value. */
  size_t n_entries, cap_entries; /* cap_entries: usable (prefaulted) */
  size_t alloc_entries;    /* allocated capacity, >= cap_entries */
  bool wide_values;        /* value64 in use, not value32 */
  uint32_t *value32;       /* owned; NULL once wide */
  int64_t *value64;        /* owned; NULL until wide */
  /* Label runs: a sample's labels in order.  A sample whose labels are
   * those of the sample before it (as GHC mostly writes them) shares that
   * sample's run, so a label costs nothing per entry.  The open sample's
   * labels are at the end, from open_run on. */
  uint32_t *run_label;     /* label ids; owned */
  size_t n_run_labels, cap_run_labels;
  size_t open_run;
  bool sample_open;        /* a BEGIN has been seen without its END */
  double open_time;        /* time of the open sample, seconds */

  /* marks */
  size_t n_marks, cap_marks;
  double *mark_time;       /* seconds; owned */
  char **mark_label;       /* owned strings, "" for .hp MARKs */

  /* eventlog extras (for overlays); empty for .hp input */
  hp2x_series heap_size, heap_live, blocks_size;
  int breakdown;           /* HEAP_PROF_BEGIN breakdown code; 0 = unknown */
  bool heap_profile;       /* the input holds a heap profile: .hp text
                              always, an eventlog from HEAP_PROF_BEGIN on */
  uint64_t interval_ns;    /* sampling period; 0 = unknown */

  hp2x_warnings warn;
  bool entries_dropped;    /* hp2x_profile_drop_entries was called */

  /* limits this profile is read with (HP2X_MAX_* or lower) */
  size_t max_labels, max_samples;
};

hp2x_profile *profile_new(hp2x_err *err);

/* Header field setters; copy `len` bytes of `s`. */
typedef enum { PROFILE_JOB, PROFILE_DATE, PROFILE_SAMPLE_UNIT,
               PROFILE_VALUE_UNIT } profile_field;
hp2x_status profile_set_header(hp2x_profile *p, profile_field f,
                               const char *s, size_t len, hp2x_err *err);

/* Interns a label by its key bytes; `name` (display) may be NULL when it
 * equals the key.  *id receives the label id.  HP2X_E_LIMIT past
 * HP2X_MAX_LABELS. */
hp2x_status profile_intern(hp2x_profile *p, const char *key, size_t key_len,
                           const char *name, size_t name_len, uint32_t *id,
                           hp2x_err *err);

/* Gives label `id` the display name `name` (len bytes, copied), keeping
 * its identity: a LABEL_TEXT label's name becomes its key, and the label
 * becomes LABEL_ADDRESS (the .hp text still names it by that key).  Bands
 * chosen before a rename keep the old name; a follower sees the new one
 * in its next plan and starts over.  HP2X_E_NOMEM leaves the label as it
 * was. */
hp2x_status profile_rename_label(hp2x_profile *p, uint32_t id,
                                 const char *name, size_t len, hp2x_err *err);

/* The bytes that name label l in .hp text: its key for LABEL_ADDRESS,
 * else its name. */
static inline const char *profile_hp_name(const hp2x_label *l, size_t *len) {
  if (l->kind == LABEL_ADDRESS) {
    *len = l->key_len;
    return l->key;
  }
  *len = l->name_len;
  return l->name;
}

/* HP2X_E_ARG once hp2x_profile_drop_entries has freed p's entries. */
hp2x_status profile_require_entries(const hp2x_profile *p, hp2x_err *err);

/* Looks a key up without interning; returns id or -1. */
long profile_find(const hp2x_profile *p, const char *key, size_t key_len);

/* Sample building: begin (opens), add entries, end (commits) or abort
 * (drops the open sample's entries). */
void profile_begin_sample(hp2x_profile *p, double time_s);
/* Makes room for one more entry (HP2X_E_LIMIT past HP2X_MAX_ENTRIES). */
hp2x_status profile_grow_entries(hp2x_profile *p, hp2x_err *err);
/* Stores every value in 64 bits from now on (HP2X_E_NOMEM). */
hp2x_status profile_widen_values(hp2x_profile *p, hp2x_err *err);
/* Appends an entry to the open sample: inline, as it runs once per line. */
static inline hp2x_status profile_add_entry(hp2x_profile *p, uint32_t label,
                                            int64_t value, hp2x_err *err) {
  if ((p->n_entries >= p->cap_entries ||
       p->n_run_labels >= p->cap_run_labels) &&
      profile_grow_entries(p, err) != HP2X_OK)
    return err->code;
  if (!p->wide_values && (uint64_t)value <= UINT32_MAX) {
    p->value32[p->n_entries] = (uint32_t)value;
  } else {
    if (!p->wide_values && profile_widen_values(p, err) != HP2X_OK)
      return err->code;
    p->value64[p->n_entries] = value;
  }
  p->n_entries++;
  p->run_label[p->n_run_labels++] = label;
  return HP2X_OK;
}
/* The value of entry e. */
static inline int64_t profile_value(const hp2x_profile *p, size_t e) {
  return p->wide_values ? p->value64[e] : (int64_t)p->value32[e];
}
/* The label of entry e of complete sample s. */
static inline uint32_t profile_entry_label(const hp2x_profile *p, size_t s,
                                           size_t e) {
  return p->run_label[p->label_run[s] + (e - p->start[s])];
}
hp2x_status profile_end_sample(hp2x_profile *p, hp2x_err *err);
void profile_abort_sample(hp2x_profile *p);

/* The labels of the sample being parsed, for both front ends: labels
 * repeated within a sample (counted for one warning), and the label that
 * followed each label last time.  GHC writes a sample's labels in much the
 * same order every time, so the guess spares most lookups. */
#define LABEL_NONE UINT32_MAX
typedef struct label_track {
  size_t *seen_in;   /* per label: 1 + index of the last sample it was in */
  uint32_t *next;    /* per label: the label after it last time */
  size_t cap;        /* slots in both arrays */
  uint32_t first;    /* the first label of the previous sample */
  uint32_t prev;     /* the open sample's last label, or LABEL_NONE */
} label_track;

void label_track_init(label_track *t);
void label_track_free(label_track *t);
/* A new sample begins. */
static inline void label_track_begin(label_track *t) { t->prev = LABEL_NONE; }
/* The label expected next, or LABEL_NONE. */
static inline uint32_t label_track_guess(const label_track *t) {
  return t->prev == LABEL_NONE ? t->first : t->next[t->prev];
}
/* Records label `id` in the open sample of `p` (which counts repeats in its
 * warnings; *repeated says whether this one was) and appends the entry. */
hp2x_status label_track_add(label_track *t, hp2x_profile *p, uint32_t id,
                            int64_t value, int *repeated, hp2x_err *err);

hp2x_status profile_add_mark(hp2x_profile *p, double time_s,
                             const char *label, size_t len, hp2x_err *err);
hp2x_status profile_series_add(hp2x_series *s, double time_s, int64_t bytes,
                               hp2x_err *err);

/* Entries of complete samples only (excludes an open sample). */
static inline size_t profile_complete_entries(const hp2x_profile *p) {
  return p->start[p->n_samples];
}

/* 64-bit FNV-1a over bytes. */
uint64_t hp2x_hash_bytes(const void *data, size_t len);

/* ------------------------------------------------- per-format parsers */
/* Each front end implements the streaming trio for the generic parser in
 * parser.c; the state is opaque to it. */
typedef struct hp_parser hp_parser;
hp_parser *hp_parse_new(const char *file, hp2x_profile *p, hp2x_err *err);
hp2x_status hp_parse_feed(hp_parser *hp, const char *buf, size_t len,
                          hp2x_err *err);
hp2x_status hp_parse_finish(hp_parser *hp, hp2x_err *err);
void hp_parse_free(hp_parser *hp);

typedef struct evl_parser evl_parser;
evl_parser *evl_parse_new(const char *file, hp2x_profile *p,
                          const hp2x_parse_options *o, hp2x_err *err);
hp2x_status evl_parse_feed(evl_parser *ev, const unsigned char *buf,
                           size_t len, hp2x_err *err);
hp2x_status evl_parse_finish(evl_parser *ev, hp2x_err *err);
int evl_parse_at_end(const evl_parser *ev);
void evl_parse_free(evl_parser *ev);

/* ---------------------------------------------------- band internals */
struct hp2x_bands {
  size_t n_bands;
  size_t n_samples;
  char **names;       /* [n_bands] owned; index 0 = bottom */
  int is_other;       /* 1 when band 0 is the merged OTHER band */
  int64_t *values;    /* band-major: band k's value at sample s is
                         values[k * stride + s]; owned */
  size_t stride;      /* >= n_samples: room per band (a follower's bands
                         grow in place) */
  const struct band_points_source *points; /* how drawing gets the bands'
                         points when not from values (band_points.h): a
                         follower's index, borrowed from it; NULL */
  double xrange;      /* seconds: the samples' time span, or the .aux
                         X_RANGE when larger; 1.0 instead of 0 */
  double yrange;      /* VALUE_UNIT: the largest stacked height (and
                         --heap point), or the .aux Y_RANGE when larger,
                         or with a shared axis the profiles' largest;
                         1.0 instead of 0 */
  double area;        /* VALUE_UNIT x seconds: the stacked heights'
                         trapezoid area over time */
  double *shades;     /* [n_bands] aux SHADE value or -1 if none; owned */
  double x0;          /* seconds at the graph's left edge: the first
                         sample's time, or with a shared time axis the
                         earliest first sample of all the profiles */
  int x_span_ticks;   /* x ticks run to x0 + xrange (a shared axis), not
                         only to the last sample (hp2ps) */
  double ymin;        /* VALUE_UNIT at the graph's bottom: 0, or below 0
                         for a diff chart; yrange spans ymin .. top */
  int is_signed;      /* values may be negative (diff chart): drawn
                         diverging from zero */
};

/* bands.c, the steps of hp2x_bands_select for follow.c. */
hp2x_status bands_check_options(const hp2x_options *o, hp2x_err *err);
/* Label totals over the complete samples, by label id. */
typedef struct bands_totals {
  const int64_t *total;          /* sum of the label's values */
  const unsigned char *present;  /* 1 if it has an entry */
} bands_totals;
/* hp2ps's selection over p's labels, from the totals t (NULL: computed
 * from p): sets b's n_bands, is_other, names and shades (owned by b), and
 * band_of[id] for each of p's labels: its band, or -1. */
hp2x_status bands_plan(const hp2x_profile *p, const hp2x_options *o,
                       const bands_totals *t, hp2x_bands *b,
                       int32_t *band_of, hp2x_err *err);
/* Adds the values of p's samples [from, b->n_samples) to b->values (zero
 * there before), label id l going to band band_of[to_names ? to_names[l] :
 * l]. */
void bands_fill(hp2x_bands *b, const int32_t *band_of,
                const uint32_t *to_names, const hp2x_profile *p,
                size_t from);
/* Running figures over the samples' stacked heights: the y range and the
 * area in the title. */
typedef struct bands_heights {
  double ymax;  /* largest stacked height, VALUE_UNIT */
  double area;  /* trapezoid area so far */
  double prev;  /* the last sample's stacked height */
} bands_heights;
/* Folds samples [from, b->n_samples) of b into h, in order. */
void bands_heights_scan(const hp2x_bands *b, const hp2x_profile *p,
                        size_t from, bands_heights *h);
/* b's x0, xrange, yrange and area from h, the --heap lines and the .aux. */
void bands_set_ranges(hp2x_bands *b, const hp2x_profile *p,
                      const hp2x_options *o, const bands_heights *h);

/* bands.c: v rounded to the nearest int64, saturating (NaN: 0). */
int64_t bands_round(double v);

/* ------------------------------------------------------------ palette */
/* palette.c: hp2ps's shading (spec 7).  Fills shade[band] for every band,
 * bottom first: aux SHADE values where b->shades has them, else the next
 * entry of the grey (10) or colour (27, entry 15 fixed, no white) cycle,
 * or for the label palette colour_assign's choice.  The value is what
 * .aux stores: a grey level, a colour encoded hp2ps's way as decimal digit
 * pairs in tenths (0.100505 = r 1.0, g 0.5, b 0.5), or a label colour as
 * 1 + pairs in 99ths (1.990000 = r 1.0, g 0, b 0). */
void palette_assign(const hp2x_bands *b, const hp2x_options *o,
                    double *shade);
/* Whether the options draw in colour (shades are colour encodings). */
int palette_is_colour(const hp2x_options *o);
/* Decodes a shade value into r, g, b in 0..1. */
void palette_rgb(double shade, int colour, double rgb[3]);

/* colour.c: the label palette's slots and their assignment. */
size_t colour_slot_count(void);
/* Slot `slot`'s shade value (1.RRGGBB, channels in 99ths). */
double colour_slot_shade(size_t slot);
/* The slot a name hashes to (FNV-1a of its bytes mod the slot count). */
size_t colour_preferred_slot(const char *name, size_t len);
/* Fills shade[k] for every band: aux shades kept, the others from the top
 * of the key down, each its preferred slot or the next free one. */
void colour_assign(const hp2x_bands *b, double *shade);

/* ------------------------------------------------------------ numbers */
/* fmt.c: snprintf under the C numeric locale, whatever the process locale
 * is (a '.' decimal point, no grouping).  Returns the length written: at
 * most size - 1, so a result cut short never reads past buf. */
int hp2x_fmt(char *buf, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Writes v with ',' every three digits (1234567 -> "1,234,567"); returns
 * the length. */
size_t hp2x_fmt_thousands(char *buf, size_t size, int64_t v);
/* Writes v in plain decimal, without a NUL, into buf (room for 20 bytes);
 * returns the length.  The writers' hot path: no printf, no locale. */
size_t hp2x_fmt_int(char *buf, int64_t v);
/* Writes v as printf's "%.6f" would in the C locale (the same bytes,
 * rounding included) and a NUL; returns the length.  Times in the text
 * writers: no printf below 9e12 seconds.  Any double fits in
 * HP2X_FIXED6_SIZE bytes (DBL_MAX has 309 digits). */
#define HP2X_FIXED6_SIZE 330
size_t hp2x_fmt_fixed6(char *buf, double v);

/* ------------------------------------------------------ buffered sink */
/* writebuf.c: buffered output for the text writers. */
typedef struct writebuf {
  hp2x_write_fn write; /* the caller's sink */
  void *closure;
  char *buf;           /* pending bytes; owned until finish */
  size_t used;
  int failed;          /* the sink failed; errno kept in saved_errno */
  int saved_errno;
} writebuf;

hp2x_status writebuf_init(writebuf *w, hp2x_write_fn write, void *closure,
                          hp2x_err *err);
void writebuf_put(writebuf *w, const char *s, size_t n);
/* Flushes and frees; HP2X_E_IO when the sink failed at any point. */
hp2x_status writebuf_finish(writebuf *w, hp2x_err *err);

#endif
