/* tables_int.h -- private to libhp2x's read stage: a program's symbols
 * and sections (symbols.c) as hp2x_profile_name_tables (name_tables.c)
 * reads them, and GHC's closure types by number (eventlog_ipe.c). */
#ifndef HPX_TABLES_INT_H
#define HPX_TABLES_INT_H

#include "base/base.h"

/* GHC's closure type number v's name ("THUNK"); NULL past the last. */
const char *hpx_closure_type_text(unsigned v);

typedef struct hpx_section {
  uint32_t id;          /* the caller's number for it */
  uint64_t address;     /* file (link-time) address */
  uint64_t size;        /* bytes */
  unsigned char *bytes; /* [size] owned; NULL: none given */
} hpx_section;

typedef struct hpx_symbol {
  char *name;       /* as the file spells it; owned */
  uint64_t address; /* file address */
  uint64_t size;    /* bytes; 0 when the file does not say */
  size_t section;   /* index in sections[] */
} hpx_symbol;

struct hp2x_symbols {
  unsigned word_bytes; /* 8 or 4 */
  int big_endian;
  int relocatable;       /* a PIE: the run's addresses are biased */
  hpx_section *sections; /* owned */
  size_t n_sections, cap_sections;
  hpx_symbol *symbols; /* owned, in the order added */
  size_t n_symbols, cap_symbols;
};

/* The closure type of the info table at file address `at` (its type
 * field, after the layout word), or -1 when `at` is in no section with
 * bytes or the field holds no closure type. *section receives the
 * section's index. */
long hpx_symbols_table_type(const hp2x_symbols *s, uint64_t at,
                            size_t *section);

/* GHC's z-encoded s[0..n) decoded ("GHCziTypes" -> "GHC.Types", "ZC" ->
 * ":", "Z2T" -> "(,)"), into out (cap bytes, NUL-terminated, cut to
 * fit).  Returns the decoded length. */
size_t hpx_z_decode(const char *s, size_t n, char *out, size_t cap);

#endif
