/* program.h -- --program=EXE (program.c): the executable's symbols for
 * naming a -hi profile's info tables. */
#ifndef HPX_TOOL_PROGRAM_H
#define HPX_TOOL_PROGRAM_H

#include "hp2x.h"

/* Reads executable `path` (ELF) into a new *out (free it with
 * hp2x_symbols_free).  Returns an exit status; a failure is said. */
int program_load(const char *path, hp2x_symbols **out);

/* Names p's bare info-table addresses from syms, read from `program`
 * (NULL: no --program), saying once a run what could not be named and
 * why (nothing when `quiet`), or, without --program, that it would name
 * them; nothing for .hp output (`format`), which keeps GHC's labels.
 * Messages name input `display`.  Returns an exit status: EXIT_BAD_INPUT
 * only when out of memory. */
int program_name_tables(const char *program, const hp2x_symbols *syms,
                        hp2x_format format, int quiet, const char *display,
                        hp2x_profile *p);

#endif
