/* aux.c -- hp2ps's .aux file (-p in hp2ps's manual): parsing its X_RANGE,
 * Y_RANGE, ORDER and SHADE lines, and writing them after a render.  hp2ps
 * reads a band name that starts with a digit as a number, and writes
 * shades with two decimals, which cuts its colours (0.RRGGBB) short; here
 * each line is split at its last blank and colours get six decimals, so
 * both survive the round trip.  Numbers are parsed and printed locale-free.
 */
#include "aux.h"
#include "bands_int.h"
#include "palette.h"
#include "base/textout.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

typedef struct aux_entry {
  char *name; /* owned */
  size_t len;
  long order;   /* 0 = no ORDER line */
  double shade; /* -1 = no SHADE line */
} aux_entry;

struct hp2x_aux {
  double x_range, y_range; /* -1 = absent */
  aux_entry *entries;      /* owned */
  size_t n, cap;
  uint32_t *index;  /* open addressing: entry + 1; owned */
  size_t index_cap; /* power of two */
};

void hp2x_aux_free(hp2x_aux *aux) {
  if (!aux) return;
  for (size_t i = 0; i < aux->n; i++) hpx_free(aux->entries[i].name);
  hpx_free(aux->entries);
  hpx_free(aux->index);
  hpx_free(aux);
}

static long find_entry(const hp2x_aux *aux, const char *name, size_t len) {
  if (!aux || !aux->index_cap) return -1;
  size_t mask = aux->index_cap - 1;
  for (size_t i = (size_t)hpx_hash_bytes(name, len) & mask;;
       i = (i + 1) & mask) {
    uint32_t e = aux->index[i];
    if (!e) return -1;
    assert(e <= aux->n);
    const aux_entry *a = &aux->entries[e - 1];
    if (a->len == len && memcmp(a->name, name, len) == 0) return (long)e - 1;
  }
}

static hp2x_status grow_index(hp2x_aux *aux, hp2x_err *err) {
  size_t cap = aux->index_cap ? aux->index_cap * 2 : 64;
  uint32_t *idx = hpx_calloc(cap, sizeof *idx);
  if (!idx) return hpx_nomem(err);
  for (size_t e = 0; e < aux->n; e++) {
    size_t i =
        (size_t)hpx_hash_bytes(aux->entries[e].name, aux->entries[e].len) &
        (cap - 1);
    while (idx[i]) i = (i + 1) & (cap - 1);
    idx[i] = (uint32_t)(e + 1);
  }
  hpx_free(aux->index);
  aux->index = idx;
  aux->index_cap = cap;
  return HP2X_OK;
}

/* The entry of band `name`, added (no ORDER, no SHADE) if new; NULL with
 * the error recorded on failure. */
static aux_entry *find_or_add_entry(hp2x_aux *aux, const char *name, size_t len,
                                    hp2x_err *err) {
  long e = find_entry(aux, name, len);
  if (e >= 0) return &aux->entries[e];
  if ((aux->n + 1) * 2 > aux->index_cap && grow_index(aux, err) != HP2X_OK)
    return NULL;
  if (hpx_grow((void **)&aux->entries, &aux->cap, aux->n + 1,
               sizeof *aux->entries, err) != HP2X_OK)
    return NULL;
  char *copy = hpx_strndup(name, len);
  if (!copy) {
    hpx_nomem(err);
    return NULL;
  }
  assert((aux->n + 1) * 2 <= aux->index_cap && aux->n < aux->cap);
  aux_entry *a = &aux->entries[aux->n];
  a->name = copy;
  a->len = len;
  a->order = 0;
  a->shade = -1.0;
  size_t mask = aux->index_cap - 1;
  size_t i = (size_t)hpx_hash_bytes(name, len) & mask;
  while (aux->index[i]) i = (i + 1) & mask;
  aux->index[i] = (uint32_t)(++aux->n);
  return a;
}

/* A plain decimal: digits with at most one '.', nothing else. */
static int parse_decimal(const char *s, size_t n, double *v) {
  uint64_t mant = 0;
  int frac = -1, digits = 0;
  if (!n) return 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '.' && frac < 0) {
      frac = 0;
    } else if (s[i] >= '0' && s[i] <= '9') {
      if (digits >= 18) return 0;
      mant = mant * 10 + (uint64_t)(s[i] - '0');
      if (mant) digits++;
      if (frac >= 0) frac++;
    } else {
      return 0;
    }
  }
  double d = (double)mant;
  for (int i = 0; i < frac; i++) d /= 10.0;
  *v = d;
  return 1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* One non-blank line of an .aux file, cut at its first and its last blank:
 * keyword, band name (blanks around it trimmed; empty for the ranges) and
 * number.  Cutting at the last blank lets a name hold blanks and start
 * with a digit. */
typedef struct aux_line {
  const char *kw, *kw_end;     /* the keyword */
  const char *name, *name_end; /* the band name; name == name_end: none */
  const char *num, *end;       /* the number; num == kw_end: none */
} aux_line;

/* Splits s..e (trimmed, not empty) into an aux_line. */
static void split_line(const char *s, const char *e, aux_line *l) {
  l->kw = s;
  l->end = e;
  l->kw_end = s;
  while (l->kw_end < e && !is_blank(*l->kw_end)) l->kw_end++;
  l->num = e;
  while (l->num > l->kw_end && !is_blank(l->num[-1])) l->num--;
  l->name_end = l->num;
  while (l->name_end > l->kw_end && is_blank(l->name_end[-1])) l->name_end--;
  l->name = l->kw_end;
  while (l->name < l->name_end && is_blank(*l->name)) l->name++;
}

typedef enum { AUX_RANGE, AUX_ORDER, AUX_SHADE, AUX_UNKNOWN } aux_keyword;

static aux_keyword keyword_of(const aux_line *l) {
  size_t n = (size_t)(l->kw_end - l->kw);
  if (n == 7 && (!memcmp(l->kw, "X_RANGE", 7) || !memcmp(l->kw, "Y_RANGE", 7)))
    return AUX_RANGE;
  if (n == 5 && !memcmp(l->kw, "ORDER", 5)) return AUX_ORDER;
  if (n == 5 && !memcmp(l->kw, "SHADE", 5)) return AUX_SHADE;
  return AUX_UNKNOWN;
}

/* Checks line l of keyword kw and reads its number into *v.  Returns NULL,
 * or what was expected instead (for the message). */
static const char *check_line(const aux_line *l, aux_keyword kw, double *v) {
  int has_name = l->name != l->name_end;
  size_t num_len = (size_t)(l->end - l->num);
  if (kw == AUX_UNKNOWN) return "X_RANGE, Y_RANGE, ORDER or SHADE";
  if (l->num == l->kw_end) return "a number at the end of the line";
  if (kw == AUX_RANGE && has_name) return "one number after the keyword";
  if (kw != AUX_RANGE && !has_name) return "a band name and a number";
  if (!parse_decimal(l->num, num_len, v) ||
      (kw == AUX_ORDER && memchr(l->num, '.', num_len)))
    return kw == AUX_ORDER ? "a whole number" : "a decimal number";
  return NULL;
}

/* Parses the non-blank line s..e (trimmed), line number `line`, into
 * aux. */
static hp2x_status parse_aux_line(hp2x_aux *aux, const char *s, const char *e,
                                  long line, hp2x_err *err) {
  aux_line l;
  split_line(s, e, &l);
  aux_keyword kw = keyword_of(&l);
  double v = 0.0;
  const char *what = check_line(&l, kw, &v);
  if (what) {
    char found[64] = "";
    hpx_quote_bytes(found, sizeof found, s,
                    (size_t)(e - s) > 40 ? 40 : (size_t)(e - s));
    return hpx_fail(err, HP2X_E_SYNTAX, line, -1, "expected %s, found \"%s\"",
                    what, found);
  }
  if (kw == AUX_RANGE) {
    if (s[0] == 'X')
      aux->x_range = v;
    else
      aux->y_range = v;
    return HP2X_OK;
  }
  aux_entry *a =
      find_or_add_entry(aux, l.name, (size_t)(l.name_end - l.name), err);
  if (!a) return err->code;
  if (kw == AUX_ORDER)
    a->order = v > 2e9 ? 2000000000L : (long)v;
  else
    a->shade = v;
  return HP2X_OK;
}

hp2x_status hp2x_aux_parse(const char *text, size_t len, const char *file,
                           hp2x_aux **out, hp2x_err *err) {
  (void)file;
  *out = NULL;
  hp2x_aux *aux = hpx_calloc(1, sizeof *aux);
  if (!aux) return hpx_nomem(err);
  aux->x_range = aux->y_range = -1.0;
  long line = 0;
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *s = p, *e = nl ? nl : end;
    line++;
    p = nl ? nl + 1 : end;
    while (s < e && is_blank(*s)) s++;
    while (e > s && is_blank(e[-1])) e--;
    if (s == e) continue;
    if (parse_aux_line(aux, s, e, line, err) != HP2X_OK) {
      hp2x_aux_free(aux);
      return err->code;
    }
  }
  *out = aux;
  return HP2X_OK;
}

double hpx_aux_x_range(const hp2x_aux *aux) {
  return aux ? aux->x_range : -1.0;
}
double hpx_aux_y_range(const hp2x_aux *aux) {
  return aux ? aux->y_range : -1.0;
}

long hpx_aux_order(const hp2x_aux *aux, const char *name, size_t len) {
  long e = find_entry(aux, name, len);
  return e >= 0 ? aux->entries[e].order : 0;
}

double hpx_aux_shade(const hp2x_aux *aux, const char *name, size_t len) {
  long e = find_entry(aux, name, len);
  return e >= 0 ? aux->entries[e].shade : -1.0;
}

/* Writes "ORDER name k" (k = 1 for the bottom band) or "SHADE name value"
 * for every band.  Returns nonzero when the sink failed. */
static int write_band_lines(const hp2x_bands *b, const double *shade, int order,
                            int colour, hp2x_write_fn write, void *closure) {
  char line[HPX_FIXED6_SIZE + 32];
  const char *kw = order ? "ORDER " : "SHADE ";
  for (size_t k = 0; k < b->n_bands; k++) {
    const char *name = b->names[k];
    /* A name with a line break cannot be stored; it is left out. */
    if (strpbrk(name, "\n\r") || !name[0]) continue;
    int n = order ? hpx_fmt(line, sizeof line, " %zu\n", k + 1)
                  : hpx_fmt(line, sizeof line, colour ? " %.6f\n" : " %.2f\n",
                            shade[k]);
    if (write(closure, kw, 6) != 0 || write(closure, name, strlen(name)) != 0 ||
        write(closure, line, (size_t)n) != 0)
      return 1;
  }
  return 0;
}

hp2x_status hp2x_write_aux(const hp2x_profile *p, const hp2x_bands *b,
                           const hp2x_options *given, hp2x_write_fn write,
                           void *closure, hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = hpx_options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  (void)p;
  double *shade = hpx_malloc((b->n_bands ? b->n_bands : 1) * sizeof *shade);
  if (!shade) return hpx_nomem(err);
  hpx_palette_assign(b, o, shade);
  char line[2 * HPX_FIXED6_SIZE + 32]; /* any two doubles as %.2f */
  int n = hpx_fmt(line, sizeof line, "X_RANGE %.2f\nY_RANGE %.2f\n", b->xrange,
                  b->yrange);
  int colour = hpx_palette_is_colour(o);
  int failed = write(closure, line, (size_t)n) != 0 ||
               write_band_lines(b, shade, 1, colour, write, closure) ||
               write_band_lines(b, shade, 0, colour, write, closure);
  hpx_free(shade);
  if (failed)
    return hpx_fail(err, HP2X_E_IO, 0, -1, "write failed: %s", strerror(errno));
  return HP2X_OK;
}
