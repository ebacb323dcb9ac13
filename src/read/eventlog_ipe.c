/* eventlog_ipe.c -- names for -hi (info-table) bands: keeps what each IPE
 * event (GHC >= 9.2, -finfo-table-map) says of an info-table address,
 * makes from it a name a Haskell programmer reads (what the closure is,
 * its binding, its source location) and the whole record as the label's
 * detail, and names the -hi label with that address ("0x4c8e48", as C's
 * "%p" prints it), whether the event comes before or after the samples
 * that use it.  The label keeps its address as key, so .hp output prints
 * the address.
 */
#include "eventlog_int.h"
#include "tables_int.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

/* ------------------------------------------------ name and detail */

/* GHC's closure types (rts/include/rts/storage/ClosureTypes.h, the same
 * numbers from GHC 8.0 to 9.12), which GHC 9.6 and 9.10 write as the
 * IPE record's closure description, in decimal. */
static const char *const closure_type_names[] = {
    "INVALID_OBJECT",
    "CONSTR",
    "CONSTR_1_0",
    "CONSTR_0_1",
    "CONSTR_2_0",
    "CONSTR_1_1",
    "CONSTR_0_2",
    "CONSTR_NOCAF",
    "FUN",
    "FUN_1_0",
    "FUN_0_1",
    "FUN_2_0",
    "FUN_1_1",
    "FUN_0_2",
    "FUN_STATIC",
    "THUNK",
    "THUNK_1_0",
    "THUNK_0_1",
    "THUNK_2_0",
    "THUNK_1_1",
    "THUNK_0_2",
    "THUNK_STATIC",
    "THUNK_SELECTOR",
    "BCO",
    "AP",
    "PAP",
    "AP_STACK",
    "IND",
    "IND_STATIC",
    "RET_BCO",
    "RET_SMALL",
    "RET_BIG",
    "RET_FUN",
    "UPDATE_FRAME",
    "CATCH_FRAME",
    "UNDERFLOW_FRAME",
    "STOP_FRAME",
    "BLOCKING_QUEUE",
    "BLACKHOLE",
    "MVAR_CLEAN",
    "MVAR_DIRTY",
    "TVAR",
    "ARR_WORDS",
    "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY",
    "MUT_ARR_PTRS_FROZEN_DIRTY",
    "MUT_ARR_PTRS_FROZEN_CLEAN",
    "MUT_VAR_CLEAN",
    "MUT_VAR_DIRTY",
    "WEAK",
    "PRIM",
    "MUT_PRIM",
    "TSO",
    "STACK",
    "TREC_CHUNK",
    "ATOMICALLY_FRAME",
    "CATCH_RETRY_FRAME",
    "CATCH_STM_FRAME",
    "WHITEHOLE",
    "SMALL_MUT_ARR_PTRS_CLEAN",
    "SMALL_MUT_ARR_PTRS_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_CLEAN",
    "COMPACT_NFDATA",
    "CONTINUATION",
    "ANN_FRAME"};
enum {
  N_CLOSURE_TYPES = sizeof closure_type_names / sizeof *closure_type_names
};

const char *hpx_closure_type_text(unsigned v) {
  return v < N_CLOSURE_TYPES ? closure_type_names[v] : NULL;
}

/* The closure type's name for a description of 1 to 3 decimal digits in
 * range; else the description itself (*len unchanged). */
static const char *closure_type_name(const char *s, size_t *len) {
  unsigned v = 0;
  size_t i = 0;
  for (; i < *len && i < 4 && s[i] >= '0' && s[i] <= '9'; i++)
    v = v * 10 + (unsigned)(s[i] - '0');
  if (i == 0 || i != *len || i > 3 || v >= N_CLOSURE_TYPES) return s;
  *len = strlen(closure_type_names[v]);
  return closure_type_names[v];
}

static int starts_with(const char *s, size_t len, const char *prefix) {
  size_t n = strlen(prefix);
  return len >= n && memcmp(s, prefix, n) == 0;
}

static int ends_with(const char *s, size_t len, const char *suffix) {
  size_t n = strlen(suffix);
  return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* A constructor's name from its info table's: "Just_con_info" is Just's;
 * with -fdistinct-constructor-tables, "D#_Main_0_con_info" is D#'s (the
 * module and a number follow the constructor).  Other table names are
 * taken whole.  Sets *len. */
static const char *constructor_name(const ipe_fields *f, size_t *len) {
  const char *t = f->s[IPE_TABLE];
  size_t n = f->len[IPE_TABLE];
  if (!ends_with(t, n, "_con_info")) {
    *len = n;
    return t;
  }
  n -= strlen("_con_info");
  size_t d = n;
  while (d > 0 && t[d - 1] >= '0' && t[d - 1] <= '9') d--;
  size_t m = f->len[IPE_MODULE];
  if (d < n && d > m + 1 && t[d - 1] == '_' && t[d - 2 - m] == '_' &&
      memcmp(t + d - 1 - m, f->s[IPE_MODULE], m) == 0)
    n = d - 2 - m;
  *len = n;
  return t;
}

/* An operator constructor (":", ":|") is written in parentheses. */
static int is_operator(const char *s, size_t n) {
  unsigned char c = n ? (unsigned char)s[0] : 'a';
  return !(c >= 0x80 || c == '_' || c == '(' || c == '[' ||
           (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

/* A growing text: the name or the detail being written. */
typedef struct text_out {
  char *buf;
  size_t len, cap;
} text_out;

/* Appends n bytes of s with each run of white space (a type spans lines)
 * made one space, none at either end of the field. */
static void put_field(text_out *o, const char *s, size_t n) {
  int space = 0;
  size_t from = o->len;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' ||
        c == '\v') {
      space = 1;
      continue;
    }
    if (space && o->len > from) o->buf[o->len++] = ' ';
    space = 0;
    o->buf[o->len++] = c;
  }
}

static void put_str(text_out *o, const char *s) {
  size_t n = strlen(s);
  memcpy(o->buf + o->len, s, n);
  o->len += n;
}

/* "KEY VALUE" after "; " unless first; nothing for an empty value. */
static void put_detail(text_out *o, const char *key, const char *s, size_t n) {
  size_t before = o->len;
  if (o->len) put_str(o, "; ");
  put_str(o, key);
  size_t at = o->len;
  put_field(o, s, n);
  if (o->len == at) o->len = before;
}

/* What the closure is: its constructor, "thunk", "function", "selector
 * thunk", or the closure type's own name (PAP, ARR_WORDS, ...); without
 * a closure type, the table name. */
static void put_what(text_out *o, const ipe_fields *f) {
  size_t n = f->len[IPE_CLOSURE];
  const char *c = closure_type_name(f->s[IPE_CLOSURE], &n);
  if (starts_with(c, n, "CONSTR")) {
    size_t cn;
    const char *con = constructor_name(f, &cn);
    int op = is_operator(con, cn);
    if (op) put_str(o, "(");
    put_field(o, con, cn);
    if (op) put_str(o, ")");
  } else if (starts_with(c, n, "THUNK_SELECTOR")) {
    put_str(o, "selector thunk");
  } else if (starts_with(c, n, "THUNK")) {
    put_str(o, "thunk");
  } else if (starts_with(c, n, "FUN")) {
    put_str(o, "function");
  } else if (n) {
    put_field(o, c, n);
  } else {
    put_field(o, f->s[IPE_TABLE], f->len[IPE_TABLE]);
  }
}

/* The detail: every field of the record, by name. */
static void put_record(text_out *o, const ipe_fields *f, size_t src_len,
                       uint64_t address) {
  size_t cl = f->len[IPE_CLOSURE];
  const char *closure = closure_type_name(f->s[IPE_CLOSURE], &cl);
  put_detail(o, "table ", f->s[IPE_TABLE], f->len[IPE_TABLE]);
  put_detail(o, "closure ", closure, cl);
  put_detail(o, "type ", f->s[IPE_TYPE], f->len[IPE_TYPE]);
  put_detail(o, "label ", f->s[IPE_LABEL], f->len[IPE_LABEL]);
  put_detail(o, "module ", f->s[IPE_MODULE], f->len[IPE_MODULE]);
  put_detail(o, "source ", f->s[IPE_SOURCE], src_len);
  char addr[32];
  int al = hpx_fmt(addr, sizeof addr, "0x%llx", (unsigned long long)address);
  put_detail(o, "address ", addr, (size_t)al);
}

hp2x_status hpx_evl_ipe_describe(const ipe_fields *f, uint64_t address,
                                 char **name, size_t *name_len, label_text *t,
                                 hp2x_err *err) {
  *name = NULL;
  *name_len = 0;
  *t = (label_text){0};
  size_t all = 0;
  for (int i = 0; i < IPE_N_FIELDS; i++) all += f->len[i];
  const char *src = f->s[IPE_SOURCE];
  size_t src_len = f->len[IPE_SOURCE];
  if (src_len == 1 && src[0] == ':') src_len = 0; /* no location */
  /* Room: every field (twice for the name's module and label), the
   * closure type's name, the words between and the address. */
  size_t cap = 2 * all + 256;
  text_out nm = {hpx_malloc(cap), 0, cap}, dt = {hpx_malloc(cap), 0, cap};
  if (!nm.buf || !dt.buf) {
    hpx_free(nm.buf);
    hpx_free(dt.buf);
    return hpx_nomem(err);
  }
  put_what(&nm, f);
  size_t what = nm.len;
  size_t at = nm.len;
  put_str(&nm, " in ");
  size_t binding = nm.len;
  if (!src_len && f->len[IPE_MODULE]) { /* the module says where */
    put_field(&nm, f->s[IPE_MODULE], f->len[IPE_MODULE]);
    if (f->len[IPE_LABEL]) put_str(&nm, ".");
  }
  put_field(&nm, f->s[IPE_LABEL], f->len[IPE_LABEL]);
  if (nm.len == binding) nm.len = at; /* no " in " without a binding */
  if (src_len) {
    if (nm.len) put_str(&nm, " ");
    size_t loc = nm.len;
    put_field(&nm, src, src_len);
    t->keep_tail = (uint32_t)(nm.len - loc);
  }
  t->keep_head = (uint32_t)(what < nm.len ? what : nm.len);
  if (t->keep_head + t->keep_tail > nm.len) t->keep_head = 0;

  put_record(&dt, f, src_len, address);
  assert(nm.len < cap && dt.len < cap);
  nm.buf[nm.len] = '\0';
  dt.buf[dt.len] = '\0';
  if (!nm.len) {
    hpx_free(nm.buf);
    hpx_free(dt.buf);
    *t = (label_text){0};
    return HP2X_OK;
  }
  *name = nm.buf;
  *name_len = nm.len;
  t->detail = dt.buf;
  t->detail_len = dt.len;
  return HP2X_OK;
}

/* ------------------------------------------------ the address table */

static size_t address_slot(const ipe_table *t, uint64_t address) {
  size_t mask = t->cap - 1;
  size_t i = (size_t)((address >> 3) * 0x9e3779b97f4a7c15u) & mask;
  while (t->by_address[i].used && t->by_address[i].address != address)
    i = (i + 1) & mask;
  return i;
}

static ipe_entry *find_ipe_entry(const ipe_table *t, uint64_t address) {
  if (!t->cap) return NULL;
  ipe_entry *e = &t->by_address[address_slot(t, address)];
  return e->used ? e : NULL;
}

/* The slot in by_name for name, holding the first entry so named, or an
 * empty one. */
static size_t name_slot(const ipe_table *t, const char *name, size_t len) {
  size_t mask = t->cap - 1;
  size_t i = (size_t)hpx_hash_bytes(name, len) & mask;
  for (; t->by_name[i]; i = (i + 1) & mask) {
    const ipe_entry *e = &t->by_address[t->by_name[i] - 1];
    if (e->name_len == len && memcmp(e->name, name, len) == 0) break;
  }
  return i;
}

/* Doubles both tables, keeping every entry. */
static hp2x_status grow_ipe_table(ipe_table *t, hp2x_err *err) {
  size_t cap = t->cap ? t->cap * 2 : 64;
  ipe_table g = {hpx_calloc(cap, sizeof *g.by_address), cap, t->n,
                 hpx_calloc(cap, sizeof *g.by_name)};
  if (!g.by_address || !g.by_name) {
    hpx_free(g.by_address);
    hpx_free(g.by_name);
    return hpx_nomem(err);
  }
  for (size_t i = 0; i < t->cap; i++)
    if (t->by_address[i].used)
      g.by_address[address_slot(&g, t->by_address[i].address)] =
          t->by_address[i];
  for (size_t i = 0; i < cap; i++) {
    const ipe_entry *e = &g.by_address[i];
    if (!e->used) continue;
    size_t k = name_slot(&g, e->name, e->name_len);
    if (!g.by_name[k]) g.by_name[k] = (uint32_t)(i + 1);
  }
  hpx_free(t->by_address);
  hpx_free(t->by_name);
  *t = g;
  return HP2X_OK;
}

/* Gives e's label (if read) e's name and text.  Names stay unique: when
 * two addresses have the same name (e->ambiguous), both show their
 * address after it, kept whole with the location. */
static hp2x_status name_entry_label(evl_parser *ev, const ipe_entry *e,
                                    hp2x_err *err) {
  if (e->label == LABEL_NONE) return HP2X_OK;
  if (!e->ambiguous)
    return hpx_profile_rename_label(ev->p, e->label, e->name, e->name_len,
                                    err) != HP2X_OK
               ? err->code
               : hpx_profile_set_label_text(ev->p, e->label, &e->text, err);
  const hpx_label *l = &ev->p->labels[e->label];
  size_t addr_len;
  const char *addr = profile_hp_name(l, &addr_len);
  char *both = hpx_malloc(e->name_len + 1 + addr_len);
  if (!both) return hpx_nomem(err);
  memcpy(both, e->name, e->name_len);
  both[e->name_len] = ' ';
  memcpy(both + e->name_len + 1, addr, addr_len);
  label_text t = e->text;
  t.keep_tail = (uint32_t)((t.keep_tail ? t.keep_tail + 1 : 0) + addr_len);
  hp2x_status st = hpx_profile_rename_label(ev->p, e->label, both,
                                            e->name_len + 1 + addr_len, err);
  if (st == HP2X_OK) st = hpx_profile_set_label_text(ev->p, e->label, &t, err);
  hpx_free(both);
  return st;
}

hp2x_status hpx_evl_ipe_add(evl_parser *ev, uint64_t address,
                            const ipe_fields *f, hp2x_err *err) {
  ipe_table *t = &ev->ipe;
  if (find_ipe_entry(t, address)) return HP2X_OK;
  char *name;
  size_t len;
  label_text text;
  if (hpx_evl_ipe_describe(f, address, &name, &len, &text, err) != HP2X_OK)
    return err->code;
  if (!name) return HP2X_OK; /* the record says nothing */
  if ((t->n + 1) * 2 > t->cap && grow_ipe_table(t, err) != HP2X_OK) {
    hpx_free(name);
    hpx_free(text.detail);
    return err->code;
  }
  size_t i = address_slot(t, address);
  ipe_entry *e = &t->by_address[i];
  *e = (ipe_entry){address, name, len, text, LABEL_NONE, false, true};
  t->n++;
  size_t k = name_slot(t, name, len);
  if (!t->by_name[k]) {
    t->by_name[k] = (uint32_t)(i + 1);
  } else { /* a second address with this name: both show their address */
    ipe_entry *first = &t->by_address[t->by_name[k] - 1];
    e->ambiguous = true;
    if (!first->ambiguous) {
      first->ambiguous = true;
      if (name_entry_label(ev, first, err) != HP2X_OK) return err->code;
    }
  }
  /* The address's label may have been read before this event. */
  char addr[24];
  int al = hpx_fmt(addr, sizeof addr, "0x%llx", (unsigned long long)address);
  long id = hpx_profile_find(ev->p, addr, (size_t)al);
  if (id < 0 || ev->p->labels[id].kind == LABEL_STACK) return HP2X_OK;
  e->label = (uint32_t)id;
  return name_entry_label(ev, e, err);
}

/* Parses "0x" and 1 to 16 lower-case hex digits, as "%p" prints. */
static int parse_address(const char *s, size_t len, uint64_t *address) {
  if (len < 3 || len > 18 || s[0] != '0' || s[1] != 'x') return 0;
  uint64_t a = 0;
  for (size_t i = 2; i < len; i++) {
    char c = s[i];
    unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                 : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                                        : 16u;
    if (d == 16) return 0;
    a = a << 4 | d;
  }
  *address = a;
  return 1;
}

hp2x_status hpx_evl_ipe_name_label(evl_parser *ev, uint32_t id, const char *s,
                                   size_t len, hp2x_err *err) {
  uint64_t address;
  if (!ev->ipe.n || !parse_address(s, len, &address)) return HP2X_OK;
  ipe_entry *e = find_ipe_entry(&ev->ipe, address);
  if (!e || e->label != LABEL_NONE) return HP2X_OK;
  e->label = id;
  return name_entry_label(ev, e, err);
}

void hpx_evl_ipe_free(ipe_table *t) {
  for (size_t i = 0; i < t->cap; i++) {
    hpx_free(t->by_address[i].name);
    hpx_free(t->by_address[i].text.detail);
  }
  hpx_free(t->by_address);
  hpx_free(t->by_name);
  memset(t, 0, sizeof *t);
}
