/* hp_entries.c -- the .hp reader's fast paths for entry lines (hp_int.h's
 * hpx_hp_fast_entries), tried before the general line reader: a line
 * written as GHC writes an entry, LABEL TAB DIGITS NEWLINE, whose label is
 * the one that followed the previous entry's label last time (a census
 * mostly repeats the order of the one before), or else the last label
 * whose line began with the same 8 bytes (a pointer's compare when GHC
 * shuffles a census's order), or else one already met, found by its first
 * bytes and length in a small table before the label table's hash (the
 * label ends at the line's first TAB, found eight bytes a step).  Each
 * gives exactly what parse_line gives: a label interned from an entry line
 * neither starts nor ends with a blank, holds no NUL, and never begins
 * with a keyword and a blank (such a line is the keyword's).
 */
#include "hp_int.h"

#include <string.h>

/* The value of DIGITS at d (up to the line's end at or before end) and
 * the line's end, or NULL unless 1 to 18 digits end it. */
static HPX_ALWAYS_INLINE const char *entry_value(const char *d, const char *end,
                                                 uint64_t *v) {
  const char *c = hp_scan_digits(d, end, v);
  /* 18 digits always fit in int64_t; longer numbers take the slow path. */
  if (c == end || *c != '\n' || c == d || c - d > 18) return NULL;
  return c;
}

/* Adds the entry of label id, value v, from the line b .. nl (its
 * newline). */
static HPX_ALWAYS_INLINE const char *take_entry(hp_parser *hp, const char *b,
                                                const char *nl, uint32_t id,
                                                uint64_t v, hp2x_err *err) {
  hp->line++;
  if (hp_add_entry(hp, id, (int64_t)v, err) != HP2X_OK) return NULL;
  hp->offset += nl + 1 - b;
  return nl + 1;
}

/* The slot of a label of k bytes at b in hp->known. */
static size_t known_slot(const char *b, size_t k) {
  uint64_t w = k >= 8 ? read_le64(b) : 0;
  if (k < 8) memcpy(&w, b, k);
  w ^= (uint64_t)k * 0x9E3779B97F4A7C15u;
  return (size_t)((w * 0xff51afd7ed558ccdu) >> 55) & (HP_KNOWN_SLOTS - 1);
}

/* The label of the k bytes at b if it has been met: LABEL_NONE if not. */
static uint32_t known_label(hp_parser *hp, const char *b, size_t k) {
  size_t slot = known_slot(b, k);
  uint32_t id = hp->known[slot];
  if (id != LABEL_NONE) {
    const hpx_label *l = &hp->p->labels[id];
    if (l->name_len == k && read_same_bytes(b, l->name, k)) return id;
  }
  long found = hpx_profile_find(hp->p, b, k);
  if (found < 0) return LABEL_NONE;
  hp->known[slot] = (uint32_t)found;
  return (uint32_t)found;
}

/* Any label met before: the bytes up to the line's first TAB, no blank at
 * either end, then the digits and the newline.  A label that holds a TAB
 * itself is left to parse_line (its digits do not follow the first). */
static const char *known_entry(hp_parser *hp, const char *b, const char *end,
                               hp2x_err *err) {
  const char *tab = hp_tab_or_newline(b, end);
  if (tab == end || *tab != '\t' || tab == b) return NULL;
  size_t k = (size_t)(tab - b);
  if (hp_is_space(b[0]) || hp_is_space(b[k - 1])) return NULL;
  uint32_t id = known_label(hp, b, k);
  if (id == LABEL_NONE) return NULL;
  uint64_t v;
  const char *nl = entry_value(tab + 1, end, &v);
  if (!nl || (size_t)(nl - b) > HPX_MAX_LINE_BYTES) return NULL;
  return take_entry(hp, b, nl, id, v, err);
}

/* The entry line at b if its label is id's (LABEL TAB DIGITS NEWLINE):
 * the next line's start, else NULL. */
static HPX_ALWAYS_INLINE const char *entry_of(hp_parser *hp, uint32_t id,
                                              const char *b, const char *end,
                                              hp2x_err *err) {
  const hpx_label *l = &hp->p->labels[id];
  size_t k = l->name_len;
  uint64_t v;
  const char *nl;
  if ((size_t)(end - b) >= k + 3 && b[k] == '\t' &&
      read_same_bytes(b, l->name, k) &&
      (nl = entry_value(b + k + 1, end, &v)) != NULL)
    return take_entry(hp, b, nl, id, v, err);
  return NULL;
}

/* The slot in hp->by_prefix of the line that begins with the 8 bytes w. */
static HPX_ALWAYS_INLINE size_t prefix_slot(uint64_t w) {
  return (size_t)((w * 0x9E3779B97F4A7C15u) >> (64 - HP_PREFIX_BITS));
}

/* One entry line at b, as hpx_hp_fast_entries reads it: the next line's
 * start, or NULL.  Tried in turn: the label that followed the previous
 * one last time, the last label whose line began with the same 8 bytes,
 * any label met (which the second then remembers). */
static HPX_ALWAYS_INLINE const char *fast_entry(hp_parser *hp, const char *b,
                                                const char *end,
                                                hp2x_err *err) {
  uint32_t id = label_track_guess(&hp->track);
  const char *next;
  if (id != LABEL_NONE && (next = entry_of(hp, id, b, end, err)) != NULL)
    return next;
  if (hp->status != HP2X_OK) return NULL;
  if (end - b < 8) return known_entry(hp, b, end, err);
  uint32_t *slot = &hp->by_prefix[prefix_slot(read_le64(b))];
  if (*slot != LABEL_NONE && *slot != id &&
      (next = entry_of(hp, *slot, b, end, err)) != NULL)
    return next;
  if (hp->status != HP2X_OK) return NULL;
  if ((next = known_entry(hp, b, end, err)) != NULL) *slot = hp->track.prev;
  return next;
}

const char *hpx_hp_fast_entries(hp_parser *hp, const char *b, const char *end,
                                hp2x_err *err) {
  for (const char *next; b < end && (next = fast_entry(hp, b, end, err));)
    b = next;
  return b;
}
