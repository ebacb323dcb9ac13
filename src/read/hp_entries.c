/* hp_entries.c -- the .hp reader's fast paths for entry lines (hp_int.h's
 * hpx_hp_fast_entries), tried before the general line reader: a line
 * written as GHC writes an entry, LABEL TAB DIGITS NEWLINE, whose label is
 * one met before.  The labels met are kept in slots (hp->slots), each with
 * its bytes (and, under 32 of them, its TAB) in words, so that a line is
 * compared with one in two 16-byte compares (SSE2; four words without it)
 * and no branch on the label's length.  A line's label is found in turn
 * in the slot that followed the previous line's last time (nothing is
 * searched; wrong, it costs little: see entry_run_in), in its own slot, by
 * a hash of its first and last 8 bytes and its length (its TAB found among
 * its first 32 bytes in two compares: a census in another order costs a
 * hash, not a search), or, for a line the slots do not serve (near
 * the buffer's end, a label not kept yet), as the label that followed the
 * previous entry's label last time or by the label table's hash.  Runs
 * of lines the slots find, whose values the profile keeps in 32 bits as
 * they are, are taken in one loop (entry_run_in) with what they change
 * held in locals and written back once.  Each gives exactly what
 * parse_line gives: a label interned from an entry line neither starts nor
 * ends with a blank, holds no NUL, and never begins with a keyword and a
 * blank (such a line is the keyword's).
 */
#include "hp_int.h"

#include <assert.h>
#include <string.h>

/* Which scan this object holds, by name (test_seams reads it with nm: a
 * compiler may vectorize the portable words' compares, so their
 * instructions do not tell). */
#if defined(HPX_HP_SSE2)
const int hpx_hp_scan_sse2 = 1;
#else
const int hpx_hp_scan_words = 1;
#endif

/* The value of DIGITS at d (up to the line's end at or before end) and
 * the line's end, or NULL unless 1 to 18 digits end it. */
static HPX_ALWAYS_INLINE const char *entry_value(const char *d, const char *end,
                                                 uint64_t *v) {
  const char *c = hp_scan_digits(d, end, v);
  /* 18 digits always fit in int64_t; longer numbers take the slow path. */
  if (c == end || *c != '\n' || c == d || c - d > 18) return NULL;
  return c;
}

/* Adds the entry of label id, value v, from the line ending at nl (its
 * newline): the next line's start (hpx_hp_fast_entries counts the bytes
 * of the lines taken). */
static HPX_ALWAYS_INLINE const char *take_entry(hp_parser *hp, const char *nl,
                                                uint32_t id, uint64_t v,
                                                hp2x_err *err) {
  hp->line++;
  if (hp_add_entry(hp, id, (int64_t)v, err) != HP2X_OK) return NULL;
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
  return take_entry(hp, nl, id, v, err);
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
    return take_entry(hp, nl, id, v, err);
  return NULL;
}

/* ------------------------------------------------ the label slots */

/* The bytes of a label's first word among those of w: 0xff for each of its
 * first k, the rest 0 (no branch on k). */
static HPX_ALWAYS_INLINE uint64_t head_mask(size_t k) {
  static const uint64_t first[9] = {0,
                                    0xff,
                                    0xffff,
                                    0xffffff,
                                    0xffffffff,
                                    0xffffffffff,
                                    0xffffffffffff,
                                    0xffffffffffffff,
                                    0xffffffffffffffff};
  return first[k < 8 ? k : 8];
}

/* The slot of a label of k bytes at b (8 or more bytes readable there):
 * a hash of its first and last 8 bytes and its length (a label of fewer
 * than 8: its bytes, the rest 0, as both). */
static HPX_ALWAYS_INLINE size_t slot_of(const char *b, size_t k) {
  uint64_t head = read_le64(b), tail;
  if (HPX_LIKELY(k >= 8))
    tail = read_le64(b + k - 8);
  else
    head = tail = head & head_mask(k);
  uint64_t h = (head ^ (tail << 29 | tail >> 35) ^ k) * 0x9E3779B97F4A7C15u;
  return (size_t)(h >> (64 - HP_SLOT_BITS));
}

void hpx_hp_slots_init(hp_parser *hp) {
  static const hp_label_slot empty = {
    .word = {1},
#if !defined(HPX_HP_SSE2)
    .mask = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0},
#endif
    .id = LABEL_NONE,
    .len = HP_SLOT_EMPTY
  };
  for (size_t i = 0; i < HP_SLOTS; i++) hp->slots[i] = empty;
  memset(hp->after, 0, sizeof hp->after);
  hp->prev_slot = HP_SAMPLE_START;
}

/* Keeps label id in its slot, if it can be kept there (no TAB or NUL in
 * it: a line beginning with it then has its first TAB where it ends), and
 * returns the slot, else HP_NO_SLOT.  The label it replaces moves to the
 * slot's neighbour (slot ^ 1), where a line is looked up second: two
 * labels whose slots are the same are both kept. */
static size_t remember(hp_parser *hp, uint32_t id) {
  const hpx_label *l = &hp->p->labels[id];
  size_t k = l->name_len;
  char buf[HP_SLOT_BYTES] = {0};
  memcpy(buf, l->name, k < HP_SLOT_BYTES ? k : HP_SLOT_BYTES);
  if (k < HP_SLOT_BYTES) buf[k] = '\t'; /* (slot_of masks it out) */
  size_t i = slot_of(k < 8 ? buf : l->name, k);
  hp_label_slot *s = &hp->slots[i];
  if (s->id == id) return i;
  /* entry_run relies on it: every kept label has its place in the track */
  assert(id < hp->track.cap);
  if (k == 0 || memchr(l->name, '\t', k) || memchr(l->name, '\0', k))
    return HP_NO_SLOT;
  if (s->id != LABEL_NONE) hp->slots[i ^ 1] = *s;
  for (size_t j = 0; j < 4; j++) s->word[j] = read_le64(buf + 8 * j);
  size_t compared = k < HP_SLOT_BYTES ? k + 1 : HP_SLOT_BYTES; /* its TAB */
#if defined(HPX_HP_SSE2)
  s->past = compared < HP_SLOT_BYTES ? ~(uint32_t)0 << compared : 0;
#else
  for (size_t j = 0; j < 4; j++) {
    size_t from = 8 * j, in = compared > from ? compared - from : 0;
    s->mask[j] = in >= 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * in)) - 1;
  }
#endif
  s->id = id;
  s->len = (uint32_t)k;
  return i;
}

/* Do the bytes at b (32 or more before the buffer's end) begin with slot
 * s's words: a short label's bytes and TAB, a long one's first 32 bytes
 * (its others are compared apart)?  An empty slot's (1 and zeros) are no
 * line's with a TAB among its first 32 bytes.  Two 16-byte compares where
 * the machine has SSE2, else four word compares. */
static HPX_ALWAYS_INLINE bool slot_words(const hp_label_slot *s,
                                         const char *b) {
#if defined(HPX_HP_SSE2)
  const __m128i *v = (const __m128i *)(const void *)b;
  const __m128i *w = (const __m128i *)(const void *)s->word;
  uint64_t same = (uint32_t)_mm_movemask_epi8(
                      _mm_cmpeq_epi8(_mm_loadu_si128(v), _mm_loadu_si128(w))) |
                  (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(
                      _mm_loadu_si128(v + 1), _mm_loadu_si128(w + 1)))
                      << 16;
  return (uint32_t)(same | s->past) == UINT32_MAX;
#else
  return (((read_le64(b) & s->mask[0]) ^ s->word[0]) |
          ((read_le64(b + 8) & s->mask[1]) ^ s->word[1]) |
          ((read_le64(b + 16) & s->mask[2]) ^ s->word[2]) |
          ((read_le64(b + 24) & s->mask[3]) ^ s->word[3])) == 0;
#endif
}

/* Slot s's long label's bytes after its 32nd against those at b (its
 * length or more before the buffer's end). */
static bool slot_tail(const hp_parser *hp, const hp_label_slot *s,
                      const char *b) {
  return read_same_bytes(b + HP_SLOT_BYTES,
                         hp->p->labels[s->id].name + HP_SLOT_BYTES,
                         s->len - HP_SLOT_BYTES);
}

/* Is the line at b (9 or more bytes past k before the buffer's end), whose
 * first 32 bytes are slot s's words, s's long label and a TAB, its first
 * TAB k bytes on?  (Not an empty slot.) */
static bool long_slot_is(const hp_parser *hp, const hp_label_slot *s,
                         const char *b, size_t k) {
  return s->id != LABEL_NONE && s->len == k && b[k] == '\t' &&
         slot_tail(hp, s, b);
}

/* The value of 1 to 7 digits at d (8 bytes or more before the buffer's
 * end) and the newline they end at (returned), else NULL: one word, its
 * digits' values moved to its top (the bytes below them 0s). */
static HPX_ALWAYS_INLINE const char *short_value(const char *d, uint64_t *v) {
  uint64_t x = read_le64(d) ^ 0x3030303030303030u;
  /* n: the first byte that is no digit (7 if all are: not '\n') */
  unsigned n = hp_first_byte(hp_not_digits(x) | (uint64_t)1 << 63);
  if (n - 1u >= 7u || d[n] != '\n') return NULL;
  *v = hp_eight_values(x << (8 * (8 - n)));
  return d + n;
}

/* The value of the digits at d (8 bytes or more before end), to the
 * newline they end at (returned; 1 to 7 of them in one step, up to 18 by
 * entry_value), or NULL. */
static HPX_ALWAYS_INLINE const char *line_value(const char *d, const char *end,
                                                uint64_t *v) {
  const char *nl = short_value(d, v);
  return nl ? nl : entry_value(d, end, v);
}

/* Takes the entry line ending at nl as slot i's label's, slot i then
 * following the previous line's. */
static HPX_ALWAYS_INLINE const char *take_slot(hp_parser *hp, size_t i,
                                               const char *nl, uint64_t v,
                                               hp2x_err *err) {
  hp->after[hp->prev_slot] = (uint16_t)i;
  hp->prev_slot = (uint16_t)i;
  return take_entry(hp, nl, hp->slots[i].id, v, err);
}

/* Does the line at b (72 bytes or more before end) begin with slot s's
 * label and a TAB?  A short label's words hold its TAB. */
static HPX_ALWAYS_INLINE bool slot_label_at(const hp_parser *hp,
                                            const hp_label_slot *s,
                                            const char *b, const char *end) {
  return slot_words(s, b) && (HPX_LIKELY(s->len < HP_SLOT_BYTES) ||
                              ((size_t)(end - b) >= (size_t)s->len + 9 &&
                               long_slot_is(hp, s, b, s->len)));
}

/* hashed_slot for a line with no TAB among its first 32 bytes: a long
 * label's (kept out of the loops), an END_SAMPLE line, or no entry line.
 * Returns the slot, its label's length in the upper 32 bits (no pointer:
 * the caller's length stays in a register), or HP_NO_SLOT. */
static HPX_NOINLINE uint64_t long_hashed_slot(const hp_parser *hp,
                                              const char *b, const char *end) {
  if (read_le64(b) == read_le64("END_SAMPLE")) return HP_NO_SLOT;
  const char *tab = hp_tab_or_newline(b + HP_SLOT_BYTES, end);
  if (end - tab < 9 || *tab != '\t') return HP_NO_SLOT;
  size_t k = (size_t)(tab - b), i = slot_of(b, k);
  const hp_label_slot *s = &hp->slots[i], *n = &hp->slots[i ^ 1];
  if (slot_words(s, b) && long_slot_is(hp, s, b, k))
    return i | (uint64_t)k << 32;
  if (slot_words(n, b) && long_slot_is(hp, n, b, k))
    return (i ^ 1) | (uint64_t)k << 32;
  return HP_NO_SLOT;
}

/* The slot of the label the line at b (72 bytes or more before end)
 * begins with, up to its first TAB: the label's own slot or the slot's
 * neighbour (tried when the first's words or its bytes after the 32nd
 * differ); HP_NO_SLOT if neither.  A short slot whose words the line's
 * bytes equal is its label's (its TAB where the slot's is). */
static HPX_ALWAYS_INLINE size_t hashed_slot(const hp_parser *hp, const char *b,
                                            const char *end, size_t *len) {
  size_t k = *len = hp_first_tab32(b);
  if (!HPX_LIKELY(k < HP_SLOT_BYTES)) {
    uint64_t r = long_hashed_slot(hp, b, end);
    *len = (size_t)(r >> 32);
    return (size_t)(uint32_t)r;
  }
  size_t i = slot_of(b, k);
  if (slot_words(&hp->slots[i], b)) return i;
  if (slot_words(&hp->slots[i ^ 1], b)) return i ^ 1;
  return HP_NO_SLOT;
}

/* The entry line at b (72 bytes or more before end) if its label is slot
 * i's (HP_NO_SLOT: none): the next line's start, else NULL (hp->status
 * tells a failure apart).  Where the next line starts depends on the
 * slot's length and the digits alone. */
static HPX_ALWAYS_INLINE const char *slot_entry(hp_parser *hp, size_t i,
                                                const char *b, const char *end,
                                                hp2x_err *err) {
  uint64_t v;
  const char *nl;
  if (i == HP_NO_SLOT || !(nl = line_value(b + hp->slots[i].len + 1, end, &v)))
    return NULL;
  return take_slot(hp, i, nl, v, err);
}

/* One entry line at b, as hpx_hp_fast_entries reads it: the next line's
 * start, or NULL.  Tried in turn: the slot that followed the previous
 * line's, the line's own slot (or its neighbour), the label that followed
 * the previous one last time, any label met (each of the last two then
 * kept in its slot).  An END_SAMPLE line is seen at once. */
static HPX_ALWAYS_INLINE const char *fast_entry(hp_parser *hp, const char *b,
                                                const char *end,
                                                hp2x_err *err) {
  const char *next;
  if (end - b >= 72) {
    size_t guess = hp->after[hp->prev_slot], k;
    if (slot_label_at(hp, &hp->slots[guess], b, end) &&
        ((next = slot_entry(hp, guess, b, end, err)) != NULL ||
         hp->status != HP2X_OK))
      return next;
    if ((next = slot_entry(hp, hashed_slot(hp, b, end, &k), b, end, err)) !=
            NULL ||
        hp->status != HP2X_OK || read_le64(b) == read_le64("END_SAMPLE"))
      return next;
  }
  uint32_t id = label_track_guess(&hp->track);
  if ((id == LABEL_NONE || (next = entry_of(hp, id, b, end, err)) == NULL) &&
      (hp->status != HP2X_OK || (next = known_entry(hp, b, end, err)) == NULL))
    return NULL;
  size_t i = remember(hp, hp->track.prev);
  if (i != HP_NO_SLOT) hp->after[hp->prev_slot] = (uint16_t)i;
  hp->prev_slot = (uint16_t)i;
  return next;
}

/* ------------------------------------------------ runs of entry lines */

/* The entry lines from b on (72 bytes or more before end each) that the
 * slots find, as fast_entry finds them (the guess first, then the hash),
 * whose label is not yet in the census and whose value the profile keeps
 * in 32 bits as it is: each taken as fast_entry takes it, with what it
 * changes (the profile's entries, the track, the guesses' links) held in
 * locals and written back once.  Returns the first line it leaves (to
 * fast_entry), *at_end set when its first 8 bytes are "END_SAMP" (an
 * END_SAMPLE line, or an entry whose label begins so, which fast_entry's
 * line parser then reads as the entry it is).  The profile's
 * values are 32-bit, unshifted, with room for `room` entries.
 *
 * Where a line's value starts is the guessed slot's length, else where
 * its first TAB is (the length of the slot the hash then finds): neither
 * waits for the hash, so that the next line's start depends on the bytes
 * and the guess alone, and the processor reads on while the label is
 * checked.  A guess wrong in most lines costs little: it is foretold
 * wrong (bench/RESULTS.md, 14v). */
static HPX_ALWAYS_INLINE const char *entry_run_in(hp_parser *hp, const char *b,
                                                  const char *end, size_t room,
                                                  bool *at_end) {
  hp2x_profile *p = hp->p;
  label_track *t = &hp->track;
  /* A line taken holds 4 bytes at least (a label, its TAB, a digit, the
   * newline): the lines that start at or before `last` fit in the room. */
  const char *last = end - 72; /* the last line start with 72 bytes */
  if (room < (size_t)(last - b) / 4 + 1) last = b + 4 * (room - 1);
  size_t ps = hp->prev_slot;
  /* the values' tail: entry e at value32[e - value_base] (packed before) */
  uint32_t *vals = p->value32 + (p->n_entries - p->value_base);
  uint32_t *ids = p->run_ids + p->n_run_ids, *ids0 = ids;
  size_t *seen = t->seen_in, mark = p->n_committed + 1 + t->dropped;
  uint64_t low = 0, v;
  while (b <= last) {
    size_t i = hp->after[ps], k;
    if (slot_label_at(hp, &hp->slots[i], b, end)) {
      k = hp->slots[i].len;
    } else if (read_le64(b) == read_le64("END_SAMPLE")) {
      *at_end = true; /* (no label begins with END_SAMPLE and a blank) */
      break;
    } else if ((i = hashed_slot(hp, b, end, &k)) == HP_NO_SLOT) {
      break; /* a new label, or another line */
    } else {
      hp->after[ps] = (uint16_t)i; /* (a guess: kept if the line is not) */
    }
    uint32_t at = hp->slots[i].id;
    const char *d = b + k + 1, *nl = short_value(d, &v);
    /* (1 to 7 digits always fit in 32 bits) */
    if (!nl && (!(nl = entry_value(d, end, &v)) || v > UINT32_MAX)) break;
    if (seen[at] == mark) break;
    seen[at] = mark;
    low |= v;
    *vals++ = (uint32_t)v;
    *ids++ = at;
    ps = i;
    b = nl + 1;
  }
  size_t lines = (size_t)(ids - ids0);
  if (lines) t->prev = ids[-1]; /* (t->next's guesses: the other paths') */
  p->n_run_ids += lines;
  p->n_entries += lines;
  p->low_bits |= (uint32_t)low & 7u;
  hp->prev_slot = (uint16_t)ps;
  hp->line += (long)lines;
  return b;
}

/* Room for the entries a run takes at once: made when less is left, so
 * that a run stops for it once per RUN_ROOM / 7 lines at most. */
#define RUN_ROOM ((size_t)1 << 12)

/* entry_run_in when the profile's values allow it (1 or more lines: b is
 * 72 bytes or more before end, and room is made); else b. */
static HPX_ALWAYS_INLINE const char *entry_run(hp_parser *hp, const char *b,
                                               const char *end, bool *at_end) {
  hp2x_profile *p = hp->p;
  if (p->wide_values || p->value_shift || hp->status != HP2X_OK || end - b < 72)
    return b;
  size_t room = p->cap_entries - p->n_entries;
  if (p->cap_run_ids - p->n_run_ids < room)
    room = p->cap_run_ids - p->n_run_ids;
  if (room < RUN_ROOM) {
    hp2x_err scratch; /* a failure is fast_entry's to meet and report */
    hp2x_err_init(&scratch);
    if (hpx_profile_reserve_entries(p, RUN_ROOM, &scratch) != HP2X_OK) return b;
    room = RUN_ROOM;
  }
  return entry_run_in(hp, b, end, room, at_end);
}

/* Past a run that stopped at an END_SAMPLE line, the census's close and
 * the next census's BEGIN_SAMPLE line are read here (hpx_hp_census_turn,
 * which counts their bytes), and the next census's entry lines after them,
 * without going back to hp_parse.c's line loop. */
const char *hpx_hp_fast_entries(hp_parser *hp, const char *b, const char *end,
                                hp2x_err *err) {
  const char *from = b, *next;
  while (b < end) {
    bool at_end = false;
    next = entry_run(hp, b, end, &at_end);
    if (at_end) {
      hp->offset += next - from; /* the lines taken */
      from = b = next;
      if ((next = hpx_hp_census_turn(hp, b, end, err)) == NULL || next == b)
        break;
      from = b = next;
      if (!hp->in_sample) break;
      continue;
    }
    if (next == b && (next = fast_entry(hp, b, end, err)) == NULL) break;
    b = next;
  }
  hp->offset += b - from; /* the lines taken; b: the first left */
  return b;
}
