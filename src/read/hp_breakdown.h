/* hp_breakdown.h -- private to libhp2x's read stage: a .hp file's
 * breakdown, from its JOB line or the shape of its labels
 * (hp_breakdown.c), for hp_parse.c. */
#ifndef HPX_HP_BREAKDOWN_H
#define HPX_HP_BREAKDOWN_H

#include "hp2x.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct hp_breakdown {
  int job;            /* the breakdown JOB's +RTS -hX names; 0: none */
  bool profiled;      /* JOB has +RTS words: a profiling build */
  size_t labels;      /* distinct labels seen */
  bool all_ccs;       /* every one "(N)..." or "MAIN", as -hc's */
  bool all_addresses; /* every one "0x...", as -hi's */
} hp_breakdown;

/* Reads the JOB string (len bytes, as unquoted): the last "-hX" among the
 * words after its last "+RTS". */
void hpx_hp_breakdown_job(hp_breakdown *b, const char *job, size_t len);
/* Notes a new label's shape. */
void hpx_hp_breakdown_label(hp_breakdown *b, const char *label, size_t n);
/* The breakdown (an hp2x_breakdown) so far: JOB's flag, else -hc when
 * every label is "(N)...", else, for a build without profiling (no +RTS
 * in JOB), -hi when every label is an address and -hT otherwise; 0 when
 * nothing tells.  GHC names -hc's root stack "MAIN", without "(N)". */
int hpx_hp_breakdown_of(const hp_breakdown *b);

#endif
