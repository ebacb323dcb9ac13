/* key_names.c -- the key's names shortened by meaning, not by characters:
 * for each band the shortenings of its name that read best, longest
 * first (a closure description loses its package version, then its
 * package and module prefixes become initials; a cost-centre stack keeps
 * its innermost frames and its outermost; an -hi name keeps what the
 * table is and where), then cuts at separators with one "…"; the first
 * that fits wins, unless another band already shows the same text.
 * Drawing them is render_key.c's.
 */
#include "key_names.h"

#include <stdlib.h>
#include <string.h>

#define ELL "\xe2\x80\xa6" /* U+2026, the one ellipsis of every cut */
#define ELL_STACK ELL "/"  /* in a stack it stands for frames */

typedef struct cand {
  char *s;  /* owned */
  double w; /* points at 10 pt */
} cand;

typedef struct cands {
  cand *v; /* owned */
  size_t n, cap;
  int nomem;
} cands;

typedef struct measurer {
  layout_measure_fn fn;
  void *ctx;
  double max_w;
  const char *ell; /* ELL, or ELL_STACK in a stack */
  size_t ell_len;
  int stack; /* cuts fall only after a '/' */
} measurer;

static double width_of(const measurer *m, const char *s, size_t len) {
  return len ? m->fn(m->ctx, s, len, 10.0) : 0.0;
}

static int is_sep(const measurer *m, char c) {
  if (m->stack) return c == '/';
  return c == '.' || c == ':' || c == '/' || c == '-' || c == ' ';
}

/* Adds s (owned from now on) as a candidate, unless it is one already. */
static void push_owned(cands *c, char *s, const measurer *m) {
  if (!s) {
    c->nomem = 1;
    return;
  }
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->v[i].s, s) == 0) {
      hpx_free(s);
      return;
    }
  if (hpx_grow((void **)&c->v, &c->cap, c->n + 1, sizeof *c->v, NULL) !=
      HP2X_OK) {
    hpx_free(s);
    c->nomem = 1;
    return;
  }
  c->v[c->n].s = s;
  c->v[c->n].w = width_of(m, s, strlen(s));
  c->n++;
}

/* A new string of up to five pieces (NULL pieces are skipped). */
static char *join(const char *a, size_t na, const char *b, size_t nb,
                  const char *c, size_t nc, const char *d, size_t nd,
                  const char *e, size_t ne) {
  const char *p[5] = {a, b, c, d, e};
  size_t n[5] = {a ? na : 0, b ? nb : 0, c ? nc : 0, d ? nd : 0, e ? ne : 0};
  char *s = hpx_malloc(n[0] + n[1] + n[2] + n[3] + n[4] + 1);
  if (!s) return NULL;
  size_t at = 0;
  for (int i = 0; i < 5; i++) {
    if (n[i]) memcpy(s + at, p[i], n[i]);
    at += n[i];
  }
  s[at] = '\0';
  return s;
}

/* Where a cut may fall in s[0..n): 0, after each separator, and n. */
static size_t cut_points(const measurer *m, const char *s, size_t n,
                         size_t *at) {
  size_t k = 0;
  at[k++] = 0;
  for (size_t i = 0; i < n; i++)
    if (is_sep(m, s[i]) && i + 1 < n) at[k++] = i + 1;
  at[k++] = n;
  return k;
}

typedef struct cut {
  size_t i, j; /* s[0..i) "…" s[j..n) */
  double w;    /* its width, from its parts' */
} cut;

static int by_width_desc(const void *a, const void *b) {
  const cut *x = a, *y = b;
  if (x->w != y->w) return x->w < y->w ? 1 : -1;
  return x->j < y->j ? -1 : x->j > y->j; /* then the longer end */
}

/* The cuts of s[0..n) between pre and post that fit: per place its
 * longest kept end, widest first.  s[n-1]'s segment, the name, is kept
 * unless `end_optional`. */
static void push_cuts(cands *c, const char *pre, size_t npre, const char *s,
                      size_t n, const char *post, size_t npost,
                      int end_optional, const measurer *m) {
  if (n == 0 || c->nomem) return;
  size_t *at = hpx_malloc((n + 2) * sizeof *at);
  double *w = hpx_malloc((n + 2) * 2 * sizeof *w);
  cut *cuts = hpx_malloc((n + 2) * sizeof *cuts);
  size_t k = at ? cut_points(m, s, n, at) : 0, nc = 0;
  if (at && w && cuts) {
    double fixed = width_of(m, pre, npre) + width_of(m, post, npost) +
                   width_of(m, m->ell, m->ell_len);
    for (size_t x = 0; x < k; x++) {
      w[2 * x] = width_of(m, s, at[x]);                 /* head s[0..at) */
      w[2 * x + 1] = width_of(m, s + at[x], n - at[x]); /* tail s[at..n) */
    }
    for (size_t x = 0; x < k; x++)
      for (size_t y = x + 1; y < k; y++) {
        if (y == k - 1 && !end_optional) break;
        double tw = fixed + w[2 * x] + w[2 * y + 1];
        if (tw > m->max_w) continue;
        cuts[nc++] = (cut){at[x], at[y], tw};
        break; /* the longest end for this head */
      }
    qsort(cuts, nc, sizeof *cuts, by_width_desc);
    for (size_t q = 0; q < nc; q++)
      push_owned(c,
                 join(pre, npre, s, cuts[q].i, m->ell, m->ell_len,
                      s + cuts[q].j, n - cuts[q].j, post, npost),
                 m);
  } else {
    c->nomem = 1;
  }
  hpx_free(at);
  hpx_free(w);
  hpx_free(cuts);
}

/* The package id at s's start ("containers-0.6.7" of
 * "containers-0.6.7:Data.Map.Bin"): its length, or 0 without one. */
static size_t package_len(const char *s) {
  size_t i = 0;
  while (s[i] && (s[i] == '-' || s[i] == '.' || s[i] == '_' ||
                  (s[i] >= '0' && s[i] <= '9') ||
                  (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
    i++;
  if (i == 0 || s[i] != ':' || s[i - 1] == '.') return 0;
  return (s[i + 1] >= 'A' && s[i + 1] <= 'Z') ? i : 0;
}

/* The bytes of package id s[0..n) that name it without its version: up to
 * the first '-' followed by a version ("0.6.7"); n when there is none. */
static size_t package_name_len(const char *s, size_t n) {
  for (size_t i = 1; i + 1 < n; i++) {
    if (s[i] != '-' || s[i + 1] < '0' || s[i + 1] > '9') continue;
    size_t j = i + 1;
    while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.')) j++;
    if (j == n || s[j] == '-') return i;
  }
  return n;
}

/* The bytes of a UTF-8 character starting at s. */
static size_t char_len(const char *s) {
  size_t k = 1;
  while (s[k] && ((unsigned char)s[k] & 0xc0) == 0x80) k++;
  return k;
}

#define MAX_UNITS 64

/* The units of description s that may become initials: its package name
 * (s[0..pn), when has_pkg) and each module segment but the last (a
 * segment: capitalised, followed by '.' and more).  Fills start/len;
 * returns how many. */
static size_t abbreviable_units(const char *s, size_t pn, int has_pkg,
                                size_t *start, size_t *len) {
  size_t k = 0, q = has_pkg ? pn + 1 : 0;
  if (has_pkg) start[k] = 0, len[k] = pn, k++;
  size_t seg_start[MAX_UNITS], seg_len[MAX_UNITS], ns = 0;
  while (s[q] >= 'A' && s[q] <= 'Z' && ns < MAX_UNITS) {
    size_t d = q;
    while (s[d] && s[d] != '.' && s[d] != ' ' && s[d] != ':') d++;
    if (s[d] != '.' || !s[d + 1]) break;
    seg_start[ns] = q, seg_len[ns] = d - q, ns++;
    q = d + 1;
  }
  for (size_t i = 0; i + 1 < ns && k < MAX_UNITS; i++)
    start[k] = seg_start[i], len[k] = seg_len[i], k++;
  return k;
}

/* s with its first t units made initials: a new string, NULL if out of
 * memory. */
static char *initials(const char *s, const size_t *start, const size_t *len,
                      size_t t) {
  size_t n = strlen(s);
  char *out = hpx_malloc(n + 1);
  if (!out) return NULL;
  size_t at = 0, from = 0;
  for (size_t u = 0; u < t; u++) {
    memcpy(out + at, s + from, start[u] - from);
    at += start[u] - from;
    size_t c = char_len(s + start[u]);
    if (c > len[u]) c = len[u];
    memcpy(out + at, s + start[u], c);
    at += c;
    from = start[u] + len[u];
  }
  memcpy(out + at, s + from, n - from + 1);
  return out;
}

/* A closure description's shortenings: without its package's version
 * ("containers:Data.Sequence.Internal.Node3"), then its package and
 * module segments but the last made initials one by one from the left
 * ("c:D.S.Internal.Node3"), then cuts of that, then of the whole. */
static void push_plain(cands *c, const char *s, const measurer *m) {
  size_t n = strlen(s), pl = package_len(s);
  size_t pn = pl ? package_name_len(s, pl) : 0;
  char *base = pl && pn < pl
                   ? join(s, pn, s + pl, n - pl, NULL, 0, NULL, 0, NULL, 0)
                   : hpx_strndup(s, n);
  if (!base) {
    c->nomem = 1;
    return;
  }
  push_owned(c, hpx_strndup(base, strlen(base)), m);
  size_t start[MAX_UNITS], len[MAX_UNITS];
  size_t nu = abbreviable_units(base, pl ? pn : 0, pl != 0, start, len);
  char *last = NULL;
  for (size_t t = 1; t <= nu && !c->nomem; t++) {
    hpx_free(last);
    last = initials(base, start, len, t);
    if (last)
      push_owned(c, hpx_strndup(last, strlen(last)), m);
    else
      c->nomem = 1;
  }
  const char *cut_of = last ? last : base;
  push_cuts(c, NULL, 0, cut_of, strlen(cut_of), NULL, 0, 0, m);
  push_cuts(c, NULL, 0, s, n, NULL, 0, 0, m);
  hpx_free(last);
  hpx_free(base);
}

/* An innermost frame too long for the key, cut at its own separators
 * (a '.' in "Module.fn"), before "/…/" and the outermost frame
 * ("…schlüssel/…/main"), or "/" and it when there are only two. */
static void push_inner_cuts(cands *c, const char *s, const char *last,
                            size_t nf, const measurer *m) {
  measurer plain = *m;
  plain.stack = 0;
  plain.ell = ELL;
  plain.ell_len = strlen(ELL);
  size_t f0 = (size_t)(strchr(s, '/') - s);
  char *post = join(nf > 2 ? "/" ELL : "", nf > 2 ? 1 + strlen(ELL) : 0, last,
                    strlen(last), NULL, 0, NULL, 0, NULL, 0);
  if (!post) {
    c->nomem = 1;
    return;
  }
  push_cuts(c, NULL, 0, s, f0, post, strlen(post), 0, &plain);
  hpx_free(post);
}

/* A cost-centre stack's shortenings (frames innermost first): its
 * innermost frame and as many next ones as fit, "…", its outermost
 * ("go/main.run/…/MAIN"), then cuts anywhere. */
static void push_stack(cands *c, const char *s, const measurer *m) {
  size_t n = strlen(s), nf = 1;
  for (size_t i = 0; i < n; i++) nf += s[i] == '/';
  const char *last = strrchr(s, '/');
  if (nf >= 3 && last) {
    size_t end = 0; /* bytes of s up to the kept frames' last '/' */
    for (size_t f = 0; f + 2 < nf && !c->nomem; f++) {
      const char *slash = strchr(s + end, '/');
      end = (size_t)(slash - s) + 1;
    }
    /* from most frames kept to the innermost alone */
    while (end > 0 && !c->nomem) {
      push_owned(c,
                 join(s, end, m->ell, m->ell_len, last + 1, strlen(last + 1),
                      NULL, 0, NULL, 0),
                 m);
      size_t e = end - 1;
      while (e > 0 && s[e - 1] != '/') e--;
      end = e;
    }
  }
  if (last) push_inner_cuts(c, s, last, nf, m);
  push_cuts(c, NULL, 0, s, n, NULL, 0, 0, m);
}

/* An -hi name's shortenings: what the table is and where, whole, with
 * cuts of what lies between (its binding), down to "…" alone; then cuts
 * of the whole. */
static void push_kept(cands *c, const char *s, size_t kh, size_t kt,
                      const measurer *m) {
  size_t n = strlen(s);
  if (kh + kt <= n && (kh || kt)) {
    size_t m0 = kh, m1 = n - kt;
    while (m0 < m1 && s[m0] == ' ') m0++;
    while (m1 > m0 && s[m1 - 1] == ' ') m1--;
    char *pre = join(s, kh, " ", kh ? 1 : 0, NULL, 0, NULL, 0, NULL, 0);
    char *post =
        join(" ", kt ? 1 : 0, s + n - kt, kt, NULL, 0, NULL, 0, NULL, 0);
    if (pre && post && m1 > m0)
      push_cuts(c, pre, strlen(pre), s + m0, m1 - m0, post, strlen(post), 1, m);
    if (pre && post)
      push_owned(c,
                 join(pre, strlen(pre), m->ell, m->ell_len, post, strlen(post),
                      NULL, 0, NULL, 0),
                 m);
    else
      c->nomem = 1;
    hpx_free(pre);
    hpx_free(post);
  }
  push_cuts(c, NULL, 0, s, n, NULL, 0, 0, m);
}

static void cands_free(cands *c) {
  for (size_t i = 0; i < c->n; i++) hpx_free(c->v[i].s);
  hpx_free(c->v);
  *c = (cands){0};
}

/* c's candidates narrowed to those that fit, in order. */
static void keep_fitting(cands *c, double max_w) {
  size_t k = 0;
  for (size_t i = 0; i < c->n; i++) {
    if (c->v[i].w <= max_w)
      c->v[k++] = c->v[i];
    else
      hpx_free(c->v[i].s);
  }
  c->n = k;
}

/* The shortenings of name that fit, in order of preference; the name
 * alone when it fits, or when none does (the renderer then cuts it: the
 * one cut that may fall inside a word, where a name has no separator). */
static void candidates(cands *c, const char *name, key_name_kind kind,
                       size_t kh, size_t kt, const measurer *m) {
  size_t n = strlen(name);
  push_owned(c, hpx_strndup(name, n), m);
  if (c->nomem || c->v[0].w <= m->max_w) return;
  cand whole = c->v[0];
  c->v[0].s = NULL; /* kept aside as the last resort */
  c->n = 0;
  if (kind == KEY_STACK)
    push_stack(c, name, m);
  else if (kind == KEY_KEPT)
    push_kept(c, name, kh, kt, m);
  else
    push_plain(c, name, m);
  int any_fits = 0;
  for (size_t i = 0; i < c->n; i++) any_fits |= c->v[i].w <= m->max_w;
  if (!any_fits) {
    cands_free(c);
    push_owned(c, whole.s, m);
    return;
  }
  hpx_free(whole.s);
  keep_fitting(c, m->max_w);
}

static measurer measurer_for(layout_measure_fn fn, void *ctx, double max_w,
                             key_name_kind kind) {
  int stack = kind == KEY_STACK;
  return (measurer){fn,
                    ctx,
                    max_w,
                    stack ? ELL_STACK : ELL,
                    strlen(stack ? ELL_STACK : ELL),
                    stack};
}

char *hpx_key_shorten(const char *name, key_name_kind kind, size_t keep_head,
                      size_t keep_tail, double max_w, layout_measure_fn measure,
                      void *ctx) {
  measurer m = measurer_for(measure, ctx, max_w, kind);
  cands c = {0};
  candidates(&c, name, kind, keep_head, keep_tail, &m);
  char *out = NULL;
  if (!c.nomem && c.n > 0) {
    out = c.v[0].s;
    c.v[0].s = NULL;
  }
  cands_free(&c);
  return out;
}

/* The band, other than k, whose shown text is k's and whose name shares
 * the longest start with k's; -1 when no other band shows k's text. */
static long twin_of(char *const *shown, const char *const *names, size_t n,
                    size_t k, size_t *differ_at) {
  long best = -1;
  *differ_at = 0;
  for (size_t o = 0; o < n; o++) {
    if (o == k || strcmp(shown[o], shown[k]) != 0) continue;
    size_t p = 0;
    while (names[k][p] && names[k][p] == names[o][p]) p++;
    if (best < 0 || p > *differ_at) best = (long)o, *differ_at = p;
  }
  return best;
}

/* Name s (n bytes) kept where it differs from its twin, at byte p: the
 * segment there whole, with as much of s's start and end as fits around
 * it, "…" for each part left out.  NULL when none fits (or no memory). */
static char *distinguishing_cut(const char *s, size_t p, const measurer *m,
                                int keep_ends) {
  size_t n = strlen(s), *at = hpx_malloc((n + 2) * sizeof *at);
  if (!at) return NULL;
  size_t k = cut_points(m, s, n, at), a = 0, b = n;
  for (size_t x = 0; x < k; x++) {
    if (at[x] <= p) a = at[x];
    if (at[x] > p && b == n) b = at[x];
  }
  char *best = NULL;
  double best_w = -1.0;
  for (size_t x = 0; x < k && at[x] <= a; x++)
    for (size_t y = 0; y < k; y++) {
      if (at[y] < b ||
          (keep_ends && ((at[x] == 0 && a > 0) || (at[y] == n && b < n))))
        continue;
      size_t i = at[x], j = at[y]; /* s[0..i) … s[a..b) … s[j..n) */
      char *t = join(s, i, m->ell, i < a ? m->ell_len : 0, s + a, b - a,
                     j == n ? ELL : m->ell,
                     j > b ? (j == n ? strlen(ELL) : m->ell_len) : 0, s + j,
                     n - j);
      double w = t ? width_of(m, t, strlen(t)) : 0.0;
      if (t && w <= m->max_w && w > best_w) {
        hpx_free(best);
        best = t, best_w = w;
      } else {
        hpx_free(t);
      }
      if (t && w <= m->max_w) break; /* the longest end that fits */
    }
  hpx_free(at);
  return best;
}

/* Parts bands that show the same text: each shows instead where its name
 * differs from its twin's (distinguishing_cut; a stack keeps its first
 * and last frames if it can), for a few rounds, then, where that does not
 * fit or is shown twice again, its whole name (cut by the renderer). */
static int part_twins(char **shown, const char *const *names, size_t n,
                      const key_name_kind *kinds, const measurer *m0) {
  for (int round = 0; round < 4; round++) {
    int any = 0;
    for (size_t k = 0; k < n; k++) {
      size_t p;
      if (twin_of(shown, names, n, k, &p) < 0) continue;
      any = 1;
      measurer m = measurer_for(m0->fn, m0->ctx, m0->max_w, kinds[k]);
      char *t = NULL;
      if (round < 3 && m.stack) t = distinguishing_cut(names[k], p, &m, 1);
      if (round < 3 && !t) t = distinguishing_cut(names[k], p, &m, 0);
      if (!t) t = hpx_strndup(names[k], strlen(names[k]));
      if (!t) return 0;
      hpx_free(shown[k]);
      shown[k] = t;
    }
    if (!any) break;
  }
  return 1;
}

static key_name_kind kind_of(const hp2x_bands *b, const char *s, size_t k,
                             int breakdown) {
  if (b->texts && (b->texts[k].keep_head || b->texts[k].keep_tail))
    return KEY_KEPT;
  if (breakdown == HP2X_BREAKDOWN_COST_CENTRE) return KEY_STACK;
  if (breakdown == HP2X_BREAKDOWN_UNKNOWN && strchr(s, '/')) return KEY_STACK;
  return KEY_PLAIN;
}

char **hpx_key_names(const hp2x_bands *b, const char *const *texts,
                     int breakdown, double max_w, layout_measure_fn measure,
                     void *ctx) {
  size_t n = b->n_bands;
  const char *const *names = texts ? texts : (const char *const *)b->names;
  measurer m = measurer_for(measure, ctx, max_w, KEY_PLAIN);
  char **out = hpx_calloc(n ? n : 1, sizeof *out);
  key_name_kind *kinds = hpx_calloc(n ? n : 1, sizeof *kinds);
  int ok = out && kinds;
  for (size_t k = 0; k < n && ok; k++) {
    const label_text *t = b->texts ? &b->texts[k] : NULL;
    kinds[k] = kind_of(b, names[k], k, breakdown);
    out[k] = hpx_key_shorten(names[k], kinds[k], t ? t->keep_head : 0,
                             t ? t->keep_tail : 0, max_w, measure, ctx);
    ok = out[k] != NULL;
  }
  if (ok) ok = part_twins(out, names, n, kinds, &m);
  hpx_free(kinds);
  if (!ok && out) {
    hpx_key_names_free(out, n);
    out = NULL;
  }
  return out;
}

void hpx_key_names_free(char **names, size_t n) {
  if (!names) return;
  for (size_t k = 0; k < n; k++) hpx_free(names[k]);
  hpx_free(names);
}
