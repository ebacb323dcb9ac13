/* name_tables.c -- hp2x_profile_name_tables: -hi labels that are bare
 * info-table addresses named from the program's symbols (symbols.c): the
 * load bias of a position-independent program from the IPE records, the
 * checks that the program is the one that ran, and the names ("(:)
 * [GHC.Types]", "thunk in map [GHC.Internal.Base]").  GHC places an info
 * table right before its code, which its "..._info" symbol labels: 16
 * bytes (two words) on a 64-bit program without profiling.
 */
#include "tables_int.h"
#include "base/textout.h"
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

#define NAME_CAP 512

typedef struct sym_index {
  const hp2x_symbols *s;
  const hpx_symbol **by_address; /* owned array, borrowed symbols */
  size_t n;
  int64_t bias; /* run-time - file address */
} sym_index;

static int by_address(const void *a, const void *b) {
  const hpx_symbol *x = *(const hpx_symbol *const *)a;
  const hpx_symbol *y = *(const hpx_symbol *const *)b;
  if (x->address != y->address) return x->address < y->address ? -1 : 1;
  return strcmp(x->name, y->name); /* a stable order among aliases */
}

/* Symbols that can name code: not empty, not an assembler's local or
 * mapping symbol. */
static int usable(const hpx_symbol *y) {
  return y->name[0] && y->name[0] != '.' && y->name[0] != '$';
}

static int index_symbols(const hp2x_symbols *s, sym_index *x) {
  *x = (sym_index){s, NULL, 0, 0};
  x->by_address =
      hpx_calloc(s->n_symbols ? s->n_symbols : 1, sizeof *x->by_address);
  if (!x->by_address) return 0;
  for (size_t i = 0; i < s->n_symbols; i++)
    if (usable(&s->symbols[i])) x->by_address[x->n++] = &s->symbols[i];
  qsort(x->by_address, x->n, sizeof *x->by_address, by_address);
  return 1;
}

/* The first symbol at or above file address a: its index (n: none). */
static size_t lower_bound(const sym_index *x, uint64_t a) {
  size_t lo = 0, hi = x->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (x->by_address[mid]->address < a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The "..._info" symbol labelling code at file address a, or NULL. */
static const hpx_symbol *info_symbol_at(const sym_index *x, uint64_t a) {
  for (size_t i = lower_bound(x, a); i < x->n; i++) {
    if (x->by_address[i]->address != a) break;
    if (ends_with(x->by_address[i]->name, "_info")) return x->by_address[i];
  }
  return NULL;
}

/* The nearest symbol below file address a in section `sec`, or NULL. */
static const hpx_symbol *symbol_below(const sym_index *x, uint64_t a,
                                      size_t sec) {
  for (size_t i = lower_bound(x, a + 1); i-- > 0;) {
    const hpx_symbol *y = x->by_address[i];
    if (y->section == sec) return y;
    if (a - y->address > ((uint64_t)1 << 32)) break;
  }
  return NULL;
}

/* Bytes from an info table to its code: two words. */
static uint64_t code_offset(const hp2x_symbols *s) {
  return 2u * s->word_bytes;
}

/* ------------------------------------------------- symbol to name */

typedef struct sym_parts {
  char name[NAME_CAP];   /* decoded binding or constructor */
  char module[NAME_CAP]; /* decoded module, "" unknown; "RTS" for stg_ */
  char origin[NAME_CAP]; /* -fdistinct-constructor-tables: the module
                            whose table it is ("Main"); "" */
  int constructor;       /* a "..._con_info" symbol */
} sym_parts;

/* Splits a GHC symbol "[pkg_]Module_name[_Module_N]_con_info" or
 * "[pkg_]Module_name_info" (z-encoded: '_' only between parts) into its
 * decoded binding and module. */
static void split_symbol(const char *sym, sym_parts *out) {
  *out = (sym_parts){{0}, {0}, {0}, 0};
  size_t n = strlen(sym);
  if (strncmp(sym, "stg_", 4) == 0) { /* the runtime's own, in C */
    size_t e = ends_with(sym, "_info") ? n - 5 : n;
    hpx_fmt(out->name, sizeof out->name, "%.*s", (int)(e - 4), sym + 4);
    hpx_fmt(out->module, sizeof out->module, "RTS");
    return;
  }
  const char *part[8];
  size_t len[8], k = 0;
  for (const char *p = sym; k < 8;) {
    const char *u = strchr(p, '_');
    part[k] = p;
    len[k++] = u ? (size_t)(u - p) : strlen(p);
    if (!u) break;
    p = u + 1;
  }
  if (k >= 2 && len[k - 1] == 4 && memcmp(part[k - 1], "info", 4) == 0) k--;
  if (k >= 2 && len[k - 1] == 3 && memcmp(part[k - 1], "con", 3) == 0)
    k--, out->constructor = 1;
  if (out->constructor && k >= 4 &&
      strspn(part[k - 1], "0123456789") == len[k - 1]) {
    /* -fdistinct-constructor-tables: "_Main_3" after the name */
    hpx_z_decode(part[k - 2], len[k - 2], out->origin, sizeof out->origin);
    k -= 2;
  }
  if (k < 2 || k > 3) { /* not GHC's shape: the whole symbol */
    hpx_z_decode(sym, n, out->name, sizeof out->name);
    return;
  }
  hpx_z_decode(part[k - 1], len[k - 1], out->name, sizeof out->name);
  hpx_z_decode(part[k - 2], len[k - 2], out->module, sizeof out->module);
}

/* What a closure of type t is, in a name: as eventlog_ipe.c says it. */
static const char *what_of(long t) {
  const char *c = t > 0 ? hpx_closure_type_text((unsigned)t) : NULL;
  if (!c) return "table";
  if (strncmp(c, "THUNK_SELECTOR", 14) == 0) return "selector thunk";
  if (strncmp(c, "THUNK", 5) == 0) return "thunk";
  if (strncmp(c, "FUN", 3) == 0) return "function";
  if (strncmp(c, "CONSTR", 6) == 0) return "constructor";
  return c;
}

/* An operator (":", ":|", "++") is written in parentheses; GHC's own
 * names of workers and wrappers ("$wgo", "$WEntry") are not operators. */
static int is_operator(const char *s) {
  unsigned char c = (unsigned char)s[0], d = c ? (unsigned char)s[1] : 0;
  if (c == '$' && ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z'))) return 0;
  return !(c >= 0x80 || c == '_' || c == '(' || c == '[' ||
           (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* Writes the name of the table with closure type t whose code its own
 * symbol `own` labels, or, without one, that lies below `below`'s code:
 * "(:) [GHC.Types]", "function map [GHC.Internal.Base]", "thunk in map
 * [GHC.Internal.Base]".  *kh, *kt: the bytes of what it is and of its
 * module, which the key keeps whole. */
static void table_name(const hpx_symbol *own, const hpx_symbol *below, long t,
                       char *out, size_t cap, uint32_t *kh, uint32_t *kt) {
  sym_parts sp;
  split_symbol(own ? own->name : below->name, &sp);
  int rts = strcmp(sp.module, "RTS") == 0, n;
  int op = !rts && is_operator(sp.name); /* "(:)", "(++)" */
  const char *l = op ? "(" : "", *r = op ? ")" : "";
  if (own && (sp.constructor || rts)) {
    n = hpx_fmt(out, cap, "%s%s%s", l, sp.name, r);
    *kh = (uint32_t)n;
  } else {
    const char *what = what_of(t);
    n = hpx_fmt(out, cap, "%s%s %s%s%s", what, own ? "" : " in", l, sp.name, r);
    *kh = (uint32_t)strlen(what);
  }
  *kt = 0;
  if (sp.module[0] && (size_t)n + 4 < cap) {
    int m = hpx_fmt(out + n, cap - (size_t)n, " [%s]%s%s", sp.module,
                    own && sp.origin[0] ? " in " : "", own ? sp.origin : "");
    *kt = (uint32_t)(m - 1);
  }
  if (*kh + *kt > strlen(out)) *kh = *kt = 0;
}

/* The IPE record of label l (eventlog_ipe.c's detail: "table T; closure
 * C; ...; address 0xA"): T, C and A.  0 when it has none. */
static int ipe_of(const hpx_label *l, char *table, size_t cap, char *closure,
                  size_t ccap, uint64_t *address) {
  const char *d = l->text.detail;
  if (l->kind != LABEL_ADDRESS || !d || strncmp(d, "table ", 6) != 0) return 0;
  const char *e = strstr(d, "; ");
  hpx_fmt(table, cap, "%.*s", (int)((e ? (size_t)(e - d) : strlen(d)) - 6),
          d + 6);
  closure[0] = '\0';
  const char *c = strstr(d, "; closure ");
  if (c) {
    c += 10;
    e = strstr(c, "; ");
    hpx_fmt(closure, ccap, "%.*s", (int)(e ? (size_t)(e - c) : strlen(c)), c);
  }
  const char *a = strstr(d, "; address 0x");
  if (!a) return 0;
  *address = strtoull(a + 12, NULL, 16);
  return 1;
}

/* Whether z-encoded symbol `sym` is the table IPE names `table` (its
 * decoded name is it, or ends with "_" and it: the IPE record leaves out
 * the package and module; or with ":" and it: GHC 9.10 names a record
 * field's selector "Main_$fld:Book:title_info", its IPE record
 * "title_info"). */
static int names_table(const char *sym, const char *table) {
  char d[NAME_CAP];
  size_t n = hpx_z_decode(sym, strlen(sym), d, sizeof d);
  size_t k = strlen(table);
  if (n >= sizeof d || k == 0 || k > n) return 0;
  return strcmp(d + n - k, table) == 0 &&
         (n == k || d[n - k - 1] == '_' || d[n - k - 1] == ':');
}

/* A bare -hi label's address: "0x4107f0" as C's "%p" writes it. */
static int bare_address(const hpx_label *l, uint64_t *a) {
  const char *s = l->name;
  if (l->kind != LABEL_TEXT || l->name_len < 3 || l->name_len > 18 ||
      s[0] != '0' || s[1] != 'x')
    return 0;
  if (strspn(s + 2, "0123456789abcdef") != l->name_len - 2) return 0;
  *a = strtoull(s + 2, NULL, 16);
  return 1;
}

size_t hp2x_profile_bare_tables(const hp2x_profile *p) {
  size_t n = 0;
  uint64_t a;
  for (size_t i = 0; p && i < p->n_labels; i++)
    n += bare_address(&p->labels[i], &a);
  return n;
}

/* ------------------------------------------------ bias and checks */

#define BIAS_TABLES 16

typedef struct ipe_pick {
  char table[NAME_CAP];
  uint64_t address; /* run-time */
  size_t matches;   /* symbols naming the table */
  int64_t bias;     /* from the last of them */
} ipe_pick;

/* The load bias of a position-independent program: for up to
 * BIAS_TABLES constructor tables that IPE records name, the bias that
 * puts each before its one symbol; the value most of them agree on. */
static int find_bias(const hp2x_profile *p, const sym_index *x, int64_t *bias) {
  ipe_pick *pk = hpx_calloc(BIAS_TABLES, sizeof *pk);
  if (!pk) return 0;
  size_t n = 0;
  char closure[64];
  for (size_t i = 0; i < p->n_labels && n < BIAS_TABLES; i++)
    if (ipe_of(&p->labels[i], pk[n].table, NAME_CAP, closure, sizeof closure,
               &pk[n].address) &&
        ends_with(pk[n].table, "_con_info"))
      n++;
  uint64_t off = code_offset(x->s);
  for (size_t i = 0; i < x->n && n; i++) {
    const hpx_symbol *y = x->by_address[i];
    if (!ends_with(y->name, "_con_info")) continue;
    for (size_t t = 0; t < n; t++)
      if (names_table(y->name, pk[t].table)) {
        pk[t].matches++;
        pk[t].bias = (int64_t)(pk[t].address + off - y->address);
      }
  }
  size_t best = 0, best_votes = 0;
  for (size_t t = 0; t < n; t++) {
    size_t votes = 0;
    for (size_t u = 0; u < n; u++)
      votes += pk[t].matches == 1 && pk[u].matches == 1 &&
               pk[u].bias == pk[t].bias;
    if (votes > best_votes) best = t, best_votes = votes;
  }
  if (best_votes) *bias = pk[best].bias;
  hpx_free(pk);
  return best_votes > 0;
}

/* Whether file address a lies in one of the program's sections. */
static int inside(const hp2x_symbols *s, uint64_t a) {
  for (size_t i = 0; i < s->n_sections; i++)
    if (a >= s->sections[i].address &&
        a - s->sections[i].address < s->sections[i].size)
      return 1;
  return 0;
}

/* The IPE records whose tables lie in the program, held against it:
 * r->ipe_checked of them, r->ipe_disagreeing whose table's symbol names
 * another table or whose closure type differs, the first of those at
 * r->disagrees. */
static void ipe_disagreement(const hp2x_profile *p, const sym_index *x,
                             hp2x_tables_report *r) {
  char table[NAME_CAP], closure[64];
  uint64_t a, off = code_offset(x->s);
  for (size_t i = 0; i < p->n_labels; i++) {
    if (!ipe_of(&p->labels[i], table, sizeof table, closure, sizeof closure,
                &a))
      continue;
    uint64_t fa = a - (uint64_t)x->bias;
    if (!inside(x->s, fa)) continue;
    r->ipe_checked++;
    const hpx_symbol *own = info_symbol_at(x, fa + off);
    size_t sec;
    long t = hpx_symbols_table_type(x->s, fa, &sec);
    int bad =
        (own && !names_table(own->name, table)) ||
        (closure[0] &&
         (t < 0 || strcmp(hpx_closure_type_text((unsigned)t), closure) != 0));
    if (bad && !r->ipe_disagreeing++) r->disagrees = a;
  }
}

/* ------------------------------------------------------- naming */

typedef struct plan {
  uint32_t id;             /* the label */
  uint64_t address;        /* run-time */
  const hpx_symbol *own;   /* its symbol, or NULL */
  const hpx_symbol *below; /* without one: the nearest below, or NULL */
  long type;               /* closure type in the program, -1 unknown */
  char name[NAME_CAP];     /* its name (table_name) */
  uint32_t kh, kt;         /* what the key keeps whole of it */
  int ambiguous;           /* another label has that name too */
} plan;

/* Where each bare label lands in the program: fills pl (one per bare
 * label) and the report's counts. */
static size_t plan_names(const hp2x_profile *p, const sym_index *x, plan *pl,
                         hp2x_tables_report *r) {
  size_t n = 0;
  uint64_t a, off = code_offset(x->s);
  for (size_t i = 0; i < p->n_labels; i++) {
    if (!bare_address(&p->labels[i], &a)) continue;
    uint64_t fa = a - (uint64_t)x->bias;
    if (!inside(x->s, fa)) {
      r->outside++;
      continue;
    }
    size_t sec = 0;
    long t = hpx_symbols_table_type(x->s, fa, &sec);
    const hpx_symbol *own = t > 0 ? info_symbol_at(x, fa + off) : NULL;
    const hpx_symbol *below = t > 0 && !own ? symbol_below(x, fa, sec) : NULL;
    if (!own && !below) {
      r->off_table++;
      continue;
    }
    plan *e = &pl[n++];
    *e = (plan){(uint32_t)i, a, own, below, t, {0}, 0, 0, 0};
    table_name(own, below, t, e->name, sizeof e->name, &e->kh, &e->kt);
  }
  return n;
}

/* Marks the planned names another label has too (planned, or an IPE
 * record's): those show their address after the name, as eventlog_ipe.c
 * does for its own. */
static void mark_ambiguous(const hp2x_profile *p, plan *pl, size_t n) {
  for (size_t k = 0; k < n; k++) {
    for (size_t j = k + 1; j < n && !pl[k].ambiguous; j++)
      if (strcmp(pl[k].name, pl[j].name) == 0)
        pl[k].ambiguous = pl[j].ambiguous = 1;
    for (size_t i = 0; i < p->n_labels && !pl[k].ambiguous; i++)
      if (i != pl[k].id && strcmp(p->labels[i].name, pl[k].name) == 0)
        pl[k].ambiguous = 1;
  }
}

/* Renames plan entry e's label and gives it its detail. */
static hp2x_status name_one(hp2x_profile *p, const plan *e, int64_t bias,
                            hp2x_err *err) {
  char name[NAME_CAP + 24], detail[2 * NAME_CAP];
  uint32_t kt = e->kt;
  int nl = hpx_fmt(name, sizeof name, "%s", e->name);
  if (e->ambiguous) {
    int al = hpx_fmt(name + nl, sizeof name - (size_t)nl, " 0x%llx",
                     (unsigned long long)e->address);
    kt = kt ? kt + (uint32_t)al : (uint32_t)al - 1;
    nl += al;
  }
  const char *ct = hpx_closure_type_text((unsigned)e->type);
  const hpx_symbol *y = e->own ? e->own : e->below;
  uint64_t fa = e->address - (uint64_t)bias;
  int n = hpx_fmt(detail, sizeof detail, "%s %s",
                  e->own ? "symbol" : "nearest symbol below", y->name);
  if (!e->own)
    n += hpx_fmt(detail + n, sizeof detail - (size_t)n, " (+0x%llx)",
                 (unsigned long long)(fa - y->address));
  n += hpx_fmt(detail + n, sizeof detail - (size_t)n,
               "; closure %s; address 0x%llx", ct ? ct : "?",
               (unsigned long long)e->address);
  if (bias)
    hpx_fmt(detail + n, sizeof detail - (size_t)n, " (0x%llx in the file)",
            (unsigned long long)fa);
  hp2x_status st = hpx_profile_rename_label(p, e->id, name, (size_t)nl, err);
  if (st != HP2X_OK) return st;
  label_text t = {detail, strlen(detail), e->kh, kt};
  if (t.keep_head + t.keep_tail > (uint32_t)nl) t.keep_head = t.keep_tail = 0;
  return hpx_profile_set_label_text(p, e->id, &t, err);
}

/* The verdict before any naming; HP2X_TABLES_NAMED to go on. */
static hp2x_tables_verdict first_verdict(const hp2x_profile *p, sym_index *x,
                                         hp2x_tables_report *r) {
  if (!r->bare) return HP2X_TABLES_NOTHING;
  if (x->s->n_symbols == 0) return HP2X_TABLES_NO_SYMBOLS;
  if (x->s->relocatable && !find_bias(p, x, &x->bias))
    return HP2X_TABLES_NO_BIAS;
  r->bias = x->bias;
  ipe_disagreement(p, x, r);
  /* A wrong program disagrees on nearly every record; one of a few that
   * GHC names in a way not foreseen here should not cost every name. */
  return 4 * r->ipe_disagreeing > r->ipe_checked ? HP2X_TABLES_WRONG_PROGRAM
                                                 : HP2X_TABLES_NAMED;
}

hp2x_status hp2x_profile_name_tables(hp2x_profile *p, const hp2x_symbols *syms,
                                     hp2x_tables_report *report,
                                     hp2x_err *err) {
  hp2x_tables_report r = {0};
  r.bare = hp2x_profile_bare_tables(p);
  sym_index x;
  plan *pl = hpx_calloc(r.bare ? r.bare : 1, sizeof *pl);
  if (!pl || !index_symbols(syms, &x)) {
    hpx_free(pl);
    return hpx_nomem(err);
  }
  hp2x_status st = HP2X_OK;
  r.verdict = first_verdict(p, &x, &r);
  if (r.verdict == HP2X_TABLES_NAMED) {
    size_t n = plan_names(p, &x, pl, &r);
    if (2 * n < n + r.off_table) { /* fewer than half on a table */
      r.verdict = HP2X_TABLES_WRONG_PROGRAM;
    } else {
      mark_ambiguous(p, pl, n);
      for (size_t k = 0; k < n && st == HP2X_OK; k++) {
        st = name_one(p, &pl[k], x.bias, err);
        r.named += st == HP2X_OK;
      }
    }
  }
  hpx_free(x.by_address);
  hpx_free(pl);
  if (report) *report = r;
  return st;
}
