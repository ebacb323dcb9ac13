/* aux.c -- hp2ps's .aux file (hp2ps spec 8): parsing X_RANGE, Y_RANGE,
 * ORDER and SHADE lines for -p, and writing them after a render.  Fixes
 * hp2ps's quirk 21 (names starting with a digit) by splitting each line at
 * its last blank, and quirk 12 (colour shades written with two decimals) by
 * writing colours with six.  Numbers are parsed and printed locale-free.
 */
#include "aux.h"
#include "bands_int.h"
#include "palette.h"
#include "textout.h"

#include <errno.h>
#include <string.h>

typedef struct aux_entry {
  char *name;     /* owned */
  size_t len;
  long order;     /* 0 = no ORDER line */
  double shade;   /* -1 = no SHADE line */
} aux_entry;

struct hp2x_aux {
  double x_range, y_range; /* -1 = absent */
  aux_entry *entries;      /* owned */
  size_t n, cap;
  uint32_t *index;         /* open addressing: entry + 1; owned */
  size_t index_cap;        /* power of two */
};

void hp2x_aux_free(hp2x_aux *aux) {
  if (!aux) return;
  for (size_t i = 0; i < aux->n; i++) hp2x_free(aux->entries[i].name);
  hp2x_free(aux->entries);
  hp2x_free(aux->index);
  hp2x_free(aux);
}

static long find(const hp2x_aux *aux, const char *name, size_t len) {
  if (!aux || !aux->index_cap) return -1;
  size_t mask = aux->index_cap - 1;
  for (size_t i = (size_t)hp2x_hash_bytes(name, len) & mask;;
       i = (i + 1) & mask) {
    uint32_t e = aux->index[i];
    if (!e) return -1;
    const aux_entry *a = &aux->entries[e - 1];
    if (a->len == len && memcmp(a->name, name, len) == 0) return (long)e - 1;
  }
}

static hp2x_status reindex(hp2x_aux *aux, hp2x_err *err) {
  size_t cap = aux->index_cap ? aux->index_cap * 2 : 64;
  uint32_t *idx = hp2x_calloc(cap, sizeof *idx);
  if (!idx) return hp2x_nomem(err);
  for (size_t e = 0; e < aux->n; e++) {
    size_t i = (size_t)hp2x_hash_bytes(aux->entries[e].name,
                                       aux->entries[e].len) & (cap - 1);
    while (idx[i]) i = (i + 1) & (cap - 1);
    idx[i] = (uint32_t)(e + 1);
  }
  hp2x_free(aux->index);
  aux->index = idx;
  aux->index_cap = cap;
  return HP2X_OK;
}

static aux_entry *entry_for(hp2x_aux *aux, const char *name, size_t len,
                            hp2x_err *err) {
  long e = find(aux, name, len);
  if (e >= 0) return &aux->entries[e];
  if ((aux->n + 1) * 2 > aux->index_cap && reindex(aux, err) != HP2X_OK)
    return NULL;
  if (hp2x_grow((void **)&aux->entries, &aux->cap, aux->n + 1,
                sizeof *aux->entries, err) != HP2X_OK)
    return NULL;
  char *copy = hp2x_strndup(name, len);
  if (!copy) {
    hp2x_nomem(err);
    return NULL;
  }
  aux_entry *a = &aux->entries[aux->n];
  a->name = copy;
  a->len = len;
  a->order = 0;
  a->shade = -1.0;
  size_t mask = aux->index_cap - 1;
  size_t i = (size_t)hp2x_hash_bytes(name, len) & mask;
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

hp2x_status hp2x_aux_parse(const char *text, size_t len, const char *file,
                           hp2x_aux **out, hp2x_err *err) {
  (void)file;
  *out = NULL;
  hp2x_aux *aux = hp2x_calloc(1, sizeof *aux);
  if (!aux) return hp2x_nomem(err);
  aux->x_range = aux->y_range = -1.0;
  long line = 0;
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end;
    line++;
    const char *s = p, *e = le;
    p = nl ? nl + 1 : end;
    while (s < e && is_blank(*s)) s++;
    while (e > s && is_blank(e[-1])) e--;
    if (s == e) continue;
    const char *kw_end = s;
    while (kw_end < e && !is_blank(*kw_end)) kw_end++;
    size_t kwlen = (size_t)(kw_end - s);
    const char *num = e;
    while (num > kw_end && !is_blank(num[-1])) num--;
    const char *name_end = num;
    while (name_end > kw_end && is_blank(name_end[-1])) name_end--;
    const char *name = kw_end;
    while (name < name_end && is_blank(*name)) name++;
    double v;
    int is_range = (kwlen == 7 && (!memcmp(s, "X_RANGE", 7) ||
                                   !memcmp(s, "Y_RANGE", 7)));
    int is_order = kwlen == 5 && !memcmp(s, "ORDER", 5);
    int is_shade = kwlen == 5 && !memcmp(s, "SHADE", 5);
    const char *what = NULL;
    if (!is_range && !is_order && !is_shade)
      what = "X_RANGE, Y_RANGE, ORDER or SHADE";
    else if (num == kw_end)
      what = "a number at the end of the line";
    else if (is_range && name != name_end)
      what = "one number after the keyword";
    else if (!is_range && name == name_end)
      what = "a band name and a number";
    else if (!parse_decimal(num, (size_t)(e - num), &v) ||
             (is_order && memchr(num, '.', (size_t)(e - num))))
      what = is_order ? "a whole number" : "a decimal number";
    if (what) {
      char found[64] = "";
      hp2x_quote_bytes(found, sizeof found, s,
                       (size_t)(e - s) > 40 ? 40 : (size_t)(e - s));
      hp2x_aux_free(aux);
      return hp2x_fail(err, HP2X_E_SYNTAX, line, -1,
                       "expected %s, found \"%s\"", what, found);
    }
    if (is_range) {
      if (s[0] == 'X')
        aux->x_range = v;
      else
        aux->y_range = v;
      continue;
    }
    aux_entry *a = entry_for(aux, name, (size_t)(name_end - name), err);
    if (!a) {
      hp2x_aux_free(aux);
      return err->code;
    }
    if (is_order)
      a->order = v > 2e9 ? 2000000000L : (long)v;
    else
      a->shade = v;
  }
  *out = aux;
  return HP2X_OK;
}

double aux_x_range(const hp2x_aux *aux) { return aux ? aux->x_range : -1.0; }
double aux_y_range(const hp2x_aux *aux) { return aux ? aux->y_range : -1.0; }

long aux_order(const hp2x_aux *aux, const char *name, size_t len) {
  long e = find(aux, name, len);
  return e >= 0 ? aux->entries[e].order : 0;
}

double aux_shade(const hp2x_aux *aux, const char *name, size_t len) {
  long e = find(aux, name, len);
  return e >= 0 ? aux->entries[e].shade : -1.0;
}

hp2x_status hp2x_write_aux(const hp2x_profile *p, const hp2x_bands *b,
                           const hp2x_options *o, hp2x_write_fn write,
                           void *closure, hp2x_err *err) {
  (void)p;
  double *shade = hp2x_malloc((b->n_bands ? b->n_bands : 1) * sizeof *shade);
  if (!shade) return hp2x_nomem(err);
  palette_assign(b, o, shade);
  char line[2 * HP2X_FIXED6_SIZE + 32]; /* any two doubles as %.2f */
  int n = hp2x_fmt(line, sizeof line, "X_RANGE %.2f\nY_RANGE %.2f\n",
                   b->xrange, b->yrange);
  int failed = write(closure, line, (size_t)n) != 0;
  for (int pass = 0; pass < 2 && !failed; pass++) {
    for (size_t k = 0; k < b->n_bands && !failed; k++) {
      const char *name = b->names[k];
      /* A name with a line break cannot be stored; it is left out. */
      if (strpbrk(name, "\n\r") || !name[0]) continue;
      if (pass == 0)
        n = hp2x_fmt(line, sizeof line, " %zu\n", k + 1);
      else
        n = hp2x_fmt(line, sizeof line,
                     palette_is_colour(o) ? " %.6f\n" : " %.2f\n", shade[k]);
      const char *kw = pass == 0 ? "ORDER " : "SHADE ";
      failed = write(closure, kw, 6) != 0 ||
               write(closure, name, strlen(name)) != 0 ||
               write(closure, line, (size_t)n) != 0;
    }
  }
  hp2x_free(shade);
  if (failed)
    return hp2x_fail(err, HP2X_E_IO, 0, -1, "write failed: %s",
                     strerror(errno));
  return HP2X_OK;
}
