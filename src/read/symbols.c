/* symbols.c -- a program's symbols and sections as its caller reads them
 * from the executable (hp2x_symbols: the library reads no files), the
 * closure type of an info table in its bytes, and GHC's z-decoding of
 * symbol names.  What the names are used for is name_tables.c's.
 */
#include "tables_int.h"

#include <string.h>

hp2x_status hp2x_symbols_new(unsigned word_bytes, int big_endian,
                             int relocatable, hp2x_symbols **out,
                             hp2x_err *err) {
  *out = NULL;
  if (word_bytes != 8 && word_bytes != 4)
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "words of %u bytes: only 4 and 8 are known", word_bytes);
  hp2x_symbols *s = hpx_calloc(1, sizeof *s);
  if (!s) return hpx_nomem(err);
  s->word_bytes = word_bytes;
  s->big_endian = big_endian != 0;
  s->relocatable = relocatable != 0;
  *out = s;
  return HP2X_OK;
}

void hp2x_symbols_free(hp2x_symbols *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n_sections; i++) hpx_free(s->sections[i].bytes);
  for (size_t i = 0; i < s->n_symbols; i++) hpx_free(s->symbols[i].name);
  hpx_free(s->sections);
  hpx_free(s->symbols);
  hpx_free(s);
}

hp2x_status hp2x_symbols_add_section(hp2x_symbols *s, uint32_t id,
                                     uint64_t address, uint64_t size,
                                     const void *bytes, hp2x_err *err) {
  for (size_t i = 0; i < s->n_sections; i++)
    if (s->sections[i].id == id)
      return hpx_fail(err, HP2X_E_ARG, 0, -1, "section %u given twice",
                      (unsigned)id);
  if (size > UINT64_MAX - address || (bytes && size > SIZE_MAX))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                    "section %u runs past the address space", (unsigned)id);
  if (hpx_grow((void **)&s->sections, &s->cap_sections, s->n_sections + 1,
               sizeof *s->sections, err) != HP2X_OK)
    return err->code;
  unsigned char *copy = NULL;
  if (bytes && size) {
    copy = hpx_malloc((size_t)size);
    if (!copy) return hpx_nomem(err);
    memcpy(copy, bytes, (size_t)size);
  }
  s->sections[s->n_sections++] = (hpx_section){id, address, size, copy};
  return HP2X_OK;
}

hp2x_status hp2x_symbols_add(hp2x_symbols *s, const char *name,
                             uint64_t address, uint64_t size, uint32_t section,
                             hp2x_err *err) {
  size_t k = 0;
  while (k < s->n_sections && s->sections[k].id != section) k++;
  if (k == s->n_sections)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "symbol in unknown section %u",
                    (unsigned)section);
  if (hpx_grow((void **)&s->symbols, &s->cap_symbols, s->n_symbols + 1,
               sizeof *s->symbols, err) != HP2X_OK)
    return err->code;
  char *copy = hpx_strndup(name, strlen(name));
  if (!copy) return hpx_nomem(err);
  s->symbols[s->n_symbols++] = (hpx_symbol){copy, address, size, k};
  return HP2X_OK;
}

long hpx_symbols_table_type(const hp2x_symbols *s, uint64_t at,
                            size_t *section) {
  /* An info table: the layout word, then the closure type as a half
   * word (tables-next-to-code, no profiling header). */
  unsigned half = s->word_bytes / 2, off = s->word_bytes;
  for (size_t i = 0; i < s->n_sections; i++) {
    const hpx_section *c = &s->sections[i];
    if (!c->bytes || at < c->address || at - c->address > c->size ||
        c->size - (at - c->address) < (uint64_t)off + half)
      continue;
    const unsigned char *b = c->bytes + (at - c->address) + off;
    unsigned long v = 0;
    for (unsigned k = 0; k < half; k++)
      v |= (unsigned long)b[s->big_endian ? half - 1 - k : k] << (8 * k);
    *section = i;
    return v > 0 && hpx_closure_type_text((unsigned)v) ? (long)v : -1;
  }
  return -1;
}

/* ------------------------------------------------------- z-decoding */

static char z_lower(char c) {
  static const char from[] = "abcdeghilmnpqrstuvz";
  static const char to[] = "&|^$=>#.<-!+'\\/*_%z";
  const char *p = strchr(from, c);
  return c && p ? to[p - from] : 0;
}

static char z_upper(char c) {
  static const char from[] = "LRMNCZ";
  static const char to[] = "()[]:Z";
  const char *p = strchr(from, c);
  return c && p ? to[p - from] : 0;
}

/* Appends c to out if it fits (one byte kept for the NUL). */
static void put(char *out, size_t cap, size_t *n, char c) {
  if (*n + 1 < cap) out[*n] = c;
  (*n)++;
}

/* "Z3T" -> "(,,)", "Z2H" -> "(#,#)": a tuple of `arity` at s[i] (after
 * the digits, 'T' or 'H'). */
static void put_tuple(char *out, size_t cap, size_t *n, unsigned arity,
                      int unboxed) {
  put(out, cap, n, '(');
  if (unboxed) put(out, cap, n, '#');
  for (unsigned k = 1; k < arity && k < 64; k++) put(out, cap, n, ',');
  if (unboxed) put(out, cap, n, '#');
  put(out, cap, n, ')');
}

size_t hpx_z_decode(const char *s, size_t n, char *out, size_t cap) {
  size_t o = 0, i = 0;
  while (i < n) {
    char c = s[i];
    if ((c == 'z' || c == 'Z') && i + 1 < n) {
      char d = c == 'z' ? z_lower(s[i + 1]) : z_upper(s[i + 1]);
      if (d) {
        put(out, cap, &o, d);
        i += 2;
        continue;
      }
      size_t j = i + 1;
      unsigned v = 0;
      while (j < n && s[j] >= '0' && s[j] <= '9' && j - i < 6)
        v = v * 10 + (unsigned)(s[j++] - '0');
      if (c == 'Z' && j > i + 1 && j < n && (s[j] == 'T' || s[j] == 'H')) {
        put_tuple(out, cap, &o, v, s[j] == 'H');
        i = j + 1;
        continue;
      }
    }
    put(out, cap, &o, c);
    i++;
  }
  if (cap) out[o < cap ? o : cap - 1] = '\0';
  return o;
}
