/* pprof.c -- one census as a gzipped pprof profile (hp2x_write_pprof):
 * every label of the census a sample, its stack from pprof_frames.c, its
 * value the label's bytes, the census's time as a numeric label and in
 * comments; the string, function and location tables those make.
 * pprof_encode.c encodes them; when the profile would pass
 * HP2X_PPROF_MAX_BYTES, the smallest labels are summed into one frame.
 */
#include "pprof_int.h"
#include "draw/display_text.h" /* labels as UTF-8 */
#include "select/bands_int.h"  /* hpx_labels_filter */
#include "base/textout.h"

#include <stdlib.h>
#include <string.h>

/* A label of the census and its bytes there. */
typedef struct census_entry {
  uint32_t label;
  int64_t value;
} census_entry;

static void builder_clear(builder *b) {
  for (size_t i = 0; i < b->n_str; i++) hpx_free(b->str[i]);
  hpx_free(b->str);
  hpx_free(b->str_slot);
  hpx_free(b->fn);
  hpx_free(b->fn_slot);
  hpx_free(b->smp);
  hpx_free(b->locs);
  hpx_free(b->labs);
  pprof_frames fr = b->fr;
  const hp2x_profile *p = b->p;
  size_t census = b->census;
  int breakdown = b->breakdown;
  memset(b, 0, sizeof *b);
  b->fr = fr;
  b->p = p;
  b->census = census;
  b->breakdown = breakdown;
}

/* ------------------------------------------------ the tables' indices */

/* Grows an open-addressing table of index + 1 values to hold n + 1 at
 * most half full, placing the entries again by rehash(ctx, i). */
static hp2x_status grow_slots(uint32_t **slot, size_t *slots, size_t n,
                              uint64_t (*rehash)(const builder *, size_t),
                              const builder *b, hp2x_err *err) {
  if ((n + 1) * 2 <= *slots) return HP2X_OK;
  size_t cap = *slots ? *slots * 2 : 1024;
  uint32_t *s = hpx_calloc(cap, sizeof *s);
  if (!s) return hpx_nomem(err);
  for (size_t i = 0; i < n; i++) {
    size_t k = (size_t)rehash(b, i) & (cap - 1);
    while (s[k]) k = (k + 1) & (cap - 1);
    s[k] = (uint32_t)i + 1;
  }
  hpx_free(*slot);
  *slot = s;
  *slots = cap;
  return HP2X_OK;
}

static uint64_t str_hash(const builder *b, size_t i) {
  return hpx_hash_bytes(b->str[i], strlen(b->str[i]));
}

/* Is s (n bytes) shown as it is: printable ASCII? */
static bool shown_as_is(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0x20 || s[i] > 0x7e) return false;
  return true;
}

/* The string table's index of s (n bytes from a label, made UTF-8 as the
 * picture shows them: most are printable ASCII already). */
static hp2x_status intern(builder *b, const char *s, size_t n, int64_t *at,
                          hp2x_err *err) {
  char *u = NULL;
  if (!shown_as_is(s, n)) {
    if (!(u = hpx_render_display_text(s, n))) return hpx_nomem(err);
    s = u;
    n = strlen(u);
  }
  hp2x_status st =
      grow_slots(&b->str_slot, &b->str_slots, b->n_str, str_hash, b, err);
  if (st == HP2X_OK)
    st = hpx_grow((void **)&b->str, &b->cap_str, b->n_str + 1, sizeof *b->str,
                  err);
  size_t mask = b->str_slots - 1;
  size_t k = st == HP2X_OK ? (size_t)hpx_hash_bytes(s, n) & mask : 0;
  for (; st == HP2X_OK && b->str_slot[k]; k = (k + 1) & mask) {
    const char *t = b->str[b->str_slot[k] - 1];
    if (!strncmp(t, s, n) && t[n] == '\0') { /* labels hold no NUL */
      hpx_free(u);
      *at = (int64_t)b->str_slot[k] - 1;
      return HP2X_OK;
    }
  }
  if (st == HP2X_OK && !u && !(u = hpx_strndup(s, n))) st = hpx_nomem(err);
  if (st != HP2X_OK) {
    hpx_free(u);
    return st;
  }
  b->str[b->n_str] = u;
  b->str_slot[k] = (uint32_t)++b->n_str;
  *at = (int64_t)b->n_str - 1;
  return HP2X_OK;
}

static hp2x_status intern_c(builder *b, const char *s, int64_t *at,
                            hp2x_err *err) {
  return intern(b, s, strlen(s), at, err);
}

static uint64_t fn_key(int64_t name, int64_t system, int64_t file,
                       int64_t line) {
  const int64_t k[4] = {name, system, file, line};
  return hpx_hash_bytes(k, sizeof k);
}

static uint64_t fn_hash(const builder *b, size_t i) {
  const HpxPprof__Function *f = &b->fn[i];
  return fn_key(f->name, f->system_name, f->filename, f->start_line);
}

/* The location id of frame f (a function of its own per distinct name,
 * system name, file and line; location i + 1 is function i + 1). */
static hp2x_status location_of(builder *b, const pprof_frame *f, uint64_t *id,
                               hp2x_err *err) {
  int64_t name, system, file = 0;
  const char *t = b->fr.text;
  hp2x_status st = intern(b, t + f->name, f->name_len, &name, err);
  if (st == HP2X_OK) st = intern(b, t + f->system, f->system_len, &system, err);
  /* A system name that says no more than the name is left out: readers
   * demangle a name equal to its system name (pprof turns "<cc 9>" into
   * "" and "_Z3foov" into "foo"). */
  if (st == HP2X_OK && system == name) system = 0;
  if (st == HP2X_OK && f->file_len)
    st = intern(b, t + f->file, f->file_len, &file, err);
  if (st == HP2X_OK)
    st = grow_slots(&b->fn_slot, &b->fn_slots, b->n_fn, fn_hash, b, err);
  if (st == HP2X_OK)
    st = hpx_grow((void **)&b->fn, &b->cap_fn, b->n_fn + 1, sizeof *b->fn, err);
  if (st != HP2X_OK) return st;
  size_t mask = b->fn_slots - 1;
  size_t k = (size_t)fn_key(name, system, file, f->line) & mask;
  for (; b->fn_slot[k]; k = (k + 1) & mask) {
    const HpxPprof__Function *g = &b->fn[b->fn_slot[k] - 1];
    if (g->name == name && g->system_name == system && g->filename == file &&
        g->start_line == f->line) {
      *id = g->id;
      return HP2X_OK;
    }
  }
  HpxPprof__Function init = HPX_PPROF__FUNCTION__INIT;
  init.id = b->n_fn + 1;
  init.name = name;
  init.system_name = system;
  init.filename = file;
  init.start_line = f->line;
  b->fn[b->n_fn] = init;
  b->fn_slot[k] = (uint32_t)++b->n_fn;
  *id = init.id;
  return HP2X_OK;
}

/* ------------------------------------------------------------ samples */

/* Label key = num (unit; NULL: none) or key = str (str non-NULL). */
static hp2x_status add_label(builder *b, const char *key, int64_t num,
                             const char *unit, const char *str, hp2x_err *err) {
  hp2x_status st = hpx_grow((void **)&b->labs, &b->cap_labs, b->n_labs + 1,
                            sizeof *b->labs, err);
  if (st != HP2X_OK) return st;
  HpxPprof__Label l = HPX_PPROF__LABEL__INIT;
  st = intern_c(b, key, &l.key, err);
  if (st == HP2X_OK && str) st = intern_c(b, str, &l.str, err);
  if (st == HP2X_OK && unit) st = intern_c(b, unit, &l.num_unit, err);
  if (!str) l.num = num;
  if (st == HP2X_OK) b->labs[b->n_labs++] = l;
  return st;
}

/* The census's time in ns, for a numeric label. */
static int64_t census_ns(const builder *b) {
  double t = b->p->times[b->census] * 1e9;
  return t < 9e18 && t > -9e18 ? (int64_t)(t + (t < 0 ? -0.5 : 0.5)) : 0;
}

/* A sample of the frames in b->fr, `value` bytes. */
static hp2x_status add_sample(builder *b, int64_t value, hp2x_err *err) {
  hp2x_status st = hpx_grow((void **)&b->smp, &b->cap_smp, b->n_smp + 1,
                            sizeof *b->smp, err);
  if (st == HP2X_OK)
    st = hpx_grow((void **)&b->locs, &b->cap_locs, b->n_locs + b->fr.n,
                  sizeof *b->locs, err);
  sample_rec r = {b->n_locs, b->fr.n, b->n_labs, 0, value};
  for (size_t i = 0; i < b->fr.n && st == HP2X_OK; i++)
    st = location_of(b, &b->fr.f[i], &b->locs[b->n_locs + i], err);
  if (st == HP2X_OK)
    st = add_label(b, "census_time", census_ns(b), "nanoseconds", NULL, err);
  if (st == HP2X_OK && b->fr.ccs_id >= 0)
    st = add_label(b, "ccs_id", b->fr.ccs_id, NULL, NULL, err);
  if (st == HP2X_OK && b->fr.stack_id >= 0)
    st = add_label(b, "stack_id", b->fr.stack_id, NULL, NULL, err);
  if (st == HP2X_OK && b->fr.cut)
    st = add_label(b, "cut", 0, NULL, "by the runtime's -L", err);
  if (st != HP2X_OK) return st;
  b->n_locs += b->fr.n;
  r.lab_n = b->n_labs - r.lab_from;
  b->smp[b->n_smp++] = r;
  return HP2X_OK;
}

/* ------------------------------------------------------------ census */

static int by_value_desc(const void *x, const void *y) {
  const census_entry *a = x, *b = y;
  if (a->value != b->value) return a->value > b->value ? -1 : 1;
  return a->label < b->label ? -1 : a->label > b->label;
}

static int by_label(const void *x, const void *y) {
  const census_entry *a = x, *b = y;
  return a->label < b->label ? -1 : a->label > b->label;
}

/* What is written of the census, and what is said of it. */
typedef struct census_facts {
  census_entry *e; /* its labels with bytes (a label written twice in
                      it summed), largest first; owned */
  size_t n;
  int64_t total;   /* their bytes */
  size_t left_out; /* labels the include/exclude patterns left out */
  size_t peak;     /* the run's census of the largest total */
  int64_t peak_total;
} census_facts;

/* The facts of census s of p, `filtered` (NULL: none) leaving labels
 * out. */
static hp2x_status census_facts_of(const hp2x_profile *p, size_t s,
                                   const unsigned char *filtered,
                                   census_facts *c, hp2x_err *err) {
  size_t from = p->start[s], to = p->start[s + 1], k = 0;
  *c = (census_facts){
      hpx_malloc((to - from ? to - from : 1) * sizeof *c->e), 0, 0, 0, 0, -1};
  if (!c->e) return hpx_nomem(err);
  hpx_values r;
  hpx_values_of(p, s, &r);
  for (size_t i = from; i < to; i++) {
    uint32_t l = profile_entry_label(p, s, i);
    int64_t v = hpx_values_next(&r);
    if (filtered && filtered[l])
      c->left_out += v > 0;
    else if (v > 0)
      c->e[k++] = (census_entry){l, v};
  }
  qsort(c->e, k, sizeof *c->e, by_label);
  for (size_t i = 0; i < k; i++) {
    if (c->n && c->e[c->n - 1].label == c->e[i].label)
      c->e[c->n - 1].value = hpx_add_sat(c->e[c->n - 1].value, c->e[i].value);
    else
      c->e[c->n++] = c->e[i];
    c->total = hpx_add_sat(c->total, c->e[i].value);
  }
  qsort(c->e, c->n, sizeof *c->e, by_value_desc);
  for (size_t t = 0; t < p->n_samples; t++) {
    int64_t sum = 0;
    hpx_values_of(p, t, &r);
    for (size_t e = p->start[t]; e < p->start[t + 1]; e++)
      sum = hpx_add_sat(sum, hpx_values_next(&r));
    if (sum > c->peak_total) c->peak_total = sum, c->peak = t;
  }
  return HP2X_OK;
}

static hp2x_status add_comment(builder *b, const char *text, hp2x_err *err) {
  if (b->n_comment == sizeof b->comment / sizeof *b->comment) return HP2X_OK;
  return intern_c(b, text, &b->comment[b->n_comment++], err);
}

/* What the comments say: which census, of what run, and what it holds;
 * `kept` labels written as themselves. */
static hp2x_status add_comments(builder *b, const census_facts *c, size_t kept,
                                hp2x_err *err) {
  const hp2x_profile *p = b->p;
  char line[512], num[32], peak[32];
  hpx_fmt(line, sizeof line, "hp2x %s: the census at %.6f %s, of %zu read",
          hp2x_version(), p->times[b->census], p->sample_unit, p->n_committed);
  hp2x_status st = add_comment(b, line, err);
  if (st == HP2X_OK && *p->job) st = add_comment(b, p->job, err);
  const char *words = hp2x_breakdown_text(hp2x_profile_breakdown(p));
  if (st == HP2X_OK && words) st = add_comment(b, words, err);
  hpx_fmt_thousands(num, sizeof num, c->total);
  hpx_fmt_thousands(peak, sizeof peak, c->peak_total);
  hpx_fmt(line, sizeof line,
          "%s %s in %zu labels; the run's peak: %s %s at %.6f %s", num,
          p->value_unit, c->n, peak, p->value_unit, p->times[c->peak],
          p->sample_unit);
  if (st == HP2X_OK) st = add_comment(b, line, err);
  if (st == HP2X_OK && kept < c->n) {
    int64_t rest = 0;
    for (size_t i = kept; i < c->n; i++)
      rest = hpx_add_sat(rest, c->e[i].value);
    hpx_fmt_thousands(num, sizeof num, rest);
    hpx_fmt(line, sizeof line,
            "the %zu smallest labels (%s %s) are one frame, to keep the "
            "profile within %d bytes",
            c->n - kept, num, p->value_unit, HP2X_PPROF_MAX_BYTES);
    st = add_comment(b, line, err);
  }
  if (st == HP2X_OK && c->left_out) {
    hpx_fmt(line, sizeof line,
            "%zu labels left out by the include and "
            "exclude patterns",
            c->left_out);
    st = add_comment(b, line, err);
  }
  return st;
}

/* b's profile with the census's `kept` largest labels as themselves and
 * the rest, if any, as one frame. */
static hp2x_status build(builder *b, const census_facts *c, size_t kept,
                         hp2x_err *err) {
  builder_clear(b);
  int64_t at;
  hp2x_status st = intern(b, "", 0, &at, err); /* index 0: "" */
  for (size_t i = 0; i < kept && st == HP2X_OK; i++) {
    st = hpx_pprof_frames_of(&b->fr, b->p, b->breakdown, c->e[i].label, err);
    if (st == HP2X_OK) st = add_sample(b, c->e[i].value, err);
  }
  if (st == HP2X_OK && kept < c->n) {
    int64_t rest = 0;
    for (size_t i = kept; i < c->n; i++)
      rest = hpx_add_sat(rest, c->e[i].value);
    char name[64];
    int n = hpx_fmt(name, sizeof name, "(%zu labels dropped)", c->n - kept);
    st = hpx_pprof_frames_one(&b->fr, name, (size_t)n, err);
    if (st == HP2X_OK) st = add_sample(b, rest, err);
  }
  if (st == HP2X_OK) st = add_comments(b, c, kept, err);
  const char *job = b->p->job, *sp = strchr(job, ' ');
  if (st == HP2X_OK) st = intern_c(b, "inuse_space", &b->inuse_space, err);
  if (st == HP2X_OK) st = intern_c(b, "bytes", &b->bytes, err);
  if (st == HP2X_OK) st = intern_c(b, "space", &b->space, err);
  if (st == HP2X_OK)
    st =
        intern(b, job, sp ? (size_t)(sp - job) : strlen(job), &b->program, err);
  return st;
}

/* The labels to keep of c so that the profile fits, from a profile of
 * `kept` labels that came to `len` bytes: in proportion, with a margin. */
static size_t fewer(size_t kept, size_t len) {
  double k = (double)kept * HP2X_PPROF_MAX_BYTES / (double)len * 0.9;
  return k < (double)kept ? (size_t)k : kept - 1;
}

/* Encodes census c of b, as many labels as fit: *out (owned), *len. */
static hp2x_status encode_fitting(builder *b, const census_facts *c,
                                  unsigned char **out, size_t *len,
                                  hp2x_err *err) {
  size_t kept = c->n;
  for (;;) {
    hp2x_status st = build(b, c, kept, err);
    if (st == HP2X_OK) st = hpx_pprof_encode(b, out, len, err);
    if (st != HP2X_OK || *len <= HP2X_PPROF_MAX_BYTES || kept == 0) return st;
    hpx_free(*out);
    *out = NULL;
    kept = fewer(kept, *len);
  }
}

hp2x_status hp2x_write_pprof(const hp2x_profile *p, size_t sample,
                             const hp2x_options *given, hp2x_write_fn write,
                             void *closure, hp2x_err *err) {
  hp2x_options o;
  hp2x_status st = hpx_options_complete(given, &o, err);
  if (st == HP2X_OK) st = hpx_profile_require_entries(p, err);
  if (st != HP2X_OK) return st;
  if (sample >= p->n_samples)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "census %zu of a profile of %zu censuses", sample,
                    p->n_samples);
  unsigned char *filtered = NULL, *out = NULL;
  census_facts c = {0};
  builder b;
  memset(&b, 0, sizeof b);
  b.p = p;
  b.census = sample;
  b.breakdown = (int)hp2x_profile_breakdown(p);
  size_t len = 0;
  st = hpx_labels_filter(p, &o, &filtered, err);
  if (st == HP2X_OK) st = census_facts_of(p, sample, filtered, &c, err);
  if (st == HP2X_OK) st = encode_fitting(&b, &c, &out, &len, err);
  writebuf w;
  if (st == HP2X_OK) st = hpx_writebuf_init(&w, write, closure, err);
  if (st == HP2X_OK) {
    hpx_writebuf_put(&w, (const char *)out, len);
    st = hpx_writebuf_finish(&w, err);
  }
  hpx_free(out);
  hpx_free(c.e);
  hpx_free(filtered);
  builder_clear(&b);
  hpx_pprof_frames_free(&b.fr);
  return st;
}
