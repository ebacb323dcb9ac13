/* eventlog_ipe.c -- names for -hi (info-table) bands: keeps what each IPE
 * event (GHC >= 9.2, -finfo-table-map) says of an info-table address, and
 * names the -hi label with that address ("0x4c8e48", as C's "%p" prints
 * it), whether the event comes before or after the samples that use it.
 * The label keeps its address as key, so .hp output prints the address.
 */
#include "eventlog_int.h"
#include "textout.h"

#include <string.h>

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
  size_t i = (size_t)hp2x_hash_bytes(name, len) & mask;
  for (; t->by_name[i]; i = (i + 1) & mask) {
    const ipe_entry *e = &t->by_address[t->by_name[i] - 1];
    if (e->name_len == len && memcmp(e->name, name, len) == 0) break;
  }
  return i;
}

/* Doubles both tables, keeping every entry. */
static hp2x_status grow_ipe_table(ipe_table *t, hp2x_err *err) {
  size_t cap = t->cap ? t->cap * 2 : 64;
  ipe_table g = {hp2x_calloc(cap, sizeof *g.by_address), cap, t->n,
                 hp2x_calloc(cap, sizeof *g.by_name)};
  if (!g.by_address || !g.by_name) {
    hp2x_free(g.by_address);
    hp2x_free(g.by_name);
    return hp2x_nomem(err);
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
  hp2x_free(t->by_address);
  hp2x_free(t->by_name);
  *t = g;
  return HP2X_OK;
}

/* Gives e's label (if read) e's name.  Names stay unique: when two
 * addresses have the same name (e->ambiguous), both show their address
 * after it. */
static hp2x_status name_entry_label(evl_parser *ev, const ipe_entry *e,
                                    hp2x_err *err) {
  if (e->label == LABEL_NONE) return HP2X_OK;
  if (!e->ambiguous)
    return profile_rename_label(ev->p, e->label, e->name, e->name_len, err);
  const hp2x_label *l = &ev->p->labels[e->label];
  size_t addr_len;
  const char *addr = profile_hp_name(l, &addr_len);
  char *both = hp2x_malloc(e->name_len + 1 + addr_len);
  if (!both) return hp2x_nomem(err);
  memcpy(both, e->name, e->name_len);
  both[e->name_len] = ' ';
  memcpy(both + e->name_len + 1, addr, addr_len);
  hp2x_status st = profile_rename_label(ev->p, e->label, both,
                                        e->name_len + 1 + addr_len, err);
  hp2x_free(both);
  return st;
}

hp2x_status evl_ipe_add(evl_parser *ev, uint64_t address, const char *name,
                        size_t len, hp2x_err *err) {
  ipe_table *t = &ev->ipe;
  if (find_ipe_entry(t, address)) return HP2X_OK;
  if ((t->n + 1) * 2 > t->cap && grow_ipe_table(t, err) != HP2X_OK)
    return err->code;
  char *copy = hp2x_strndup(name, len);
  if (!copy) return hp2x_nomem(err);
  size_t i = address_slot(t, address);
  ipe_entry *e = &t->by_address[i];
  *e = (ipe_entry){address, copy, len, LABEL_NONE, false, true};
  t->n++;
  size_t k = name_slot(t, copy, len);
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
  char text[24];
  int tl = hp2x_fmt(text, sizeof text, "0x%llx", (unsigned long long)address);
  long id = profile_find(ev->p, text, (size_t)tl);
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

hp2x_status evl_ipe_name_label(evl_parser *ev, uint32_t id, const char *s,
                               size_t len, hp2x_err *err) {
  uint64_t address;
  if (!ev->ipe.n || !parse_address(s, len, &address)) return HP2X_OK;
  ipe_entry *e = find_ipe_entry(&ev->ipe, address);
  if (!e || e->label != LABEL_NONE) return HP2X_OK;
  e->label = id;
  return name_entry_label(ev, e, err);
}

void evl_ipe_free(ipe_table *t) {
  for (size_t i = 0; i < t->cap; i++) hp2x_free(t->by_address[i].name);
  hp2x_free(t->by_address);
  hp2x_free(t->by_name);
  memset(t, 0, sizeof *t);
}
