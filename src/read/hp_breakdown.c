/* hp_breakdown.c -- what a .hp file is broken down by, which GHC's text
 * does not say in so many words: its JOB line's +RTS flags (rts/ProfHeap.c
 * writes "PROG ARGS... +RTS RTSARGS..." in a profiling build, the program's
 * name alone otherwise), else the shape of its labels.  hp_parse.c calls
 * it with the JOB string and with each new label; the answer is the
 * model's text_breakdown (hp2x_profile_breakdown).
 */
#include "hp_breakdown.h"

#include <string.h>

/* The breakdown of one RTS word: "-hX" chooses X's breakdown (as
 * rts/RtsFlags.c's read_heap_profiling_flag: -hc/-hC, -hm/-hM, -hd/-hD,
 * -hy/-hY, -hr/-hR, -hb/-hB, -hT, -hi, -he; "-h" alone is -hc in a
 * profiling build, which a JOB with +RTS is); a longer "-hX..." is a
 * filter (-hcMain), not a breakdown.  0 for any other word. */
static int word_breakdown(const char *w, size_t n) {
  if (n < 2 || w[0] != '-' || w[1] != 'h') return 0;
  if (n == 2) return HP2X_BREAKDOWN_COST_CENTRE;
  if (n != 3) return 0;
  switch (w[2]) {
  case 'c':
  case 'C': return HP2X_BREAKDOWN_COST_CENTRE;
  case 'm':
  case 'M': return HP2X_BREAKDOWN_MODULE;
  case 'd':
  case 'D': return HP2X_BREAKDOWN_CLOSURE_DESCR;
  case 'y':
  case 'Y': return HP2X_BREAKDOWN_TYPE;
  case 'r':
  case 'R': return HP2X_BREAKDOWN_RETAINER;
  case 'b':
  case 'B': return HP2X_BREAKDOWN_BIOGRAPHY;
  case 'T': return HP2X_BREAKDOWN_CLOSURE_TYPE;
  case 'i': return HP2X_BREAKDOWN_INFO_TABLE;
  case 'e': return HP2X_BREAKDOWN_ERA;
  default: return 0;
  }
}

/* The word of s..end starting at *at (spaces skipped), its length in *n;
 * NULL past the last. */
static const char *next_word(const char **at, const char *end, size_t *n) {
  const char *s = *at;
  while (s < end && *s == ' ') s++;
  if (s == end) return NULL;
  const char *e = s;
  while (e < end && *e != ' ') e++;
  *n = (size_t)(e - s);
  *at = e;
  return s;
}

void hpx_hp_breakdown_job(hp_breakdown *b, const char *job, size_t len) {
  const char *end = job + len, *at = job, *w, *rts = NULL;
  size_t n;
  /* The RTS's words follow the last "+RTS": the program's own arguments
   * come first and may hold anything, a "+RTS" after "--RTS" included. */
  while ((w = next_word(&at, end, &n)))
    if (n == 4 && !memcmp(w, "+RTS", 4)) rts = at;
  b->profiled = rts != NULL;
  b->job = 0;
  if (!rts) return;
  at = rts;
  while ((w = next_word(&at, end, &n))) {
    int k = word_breakdown(w, n);
    if (k) b->job = k;
  }
}

/* "(ccsID)stack", or "MAIN": GHC prints the root stack without its id. */
static bool is_ccs_label(const char *s, size_t n) {
  size_t i = 1;
  if (n == 4 && !memcmp(s, "MAIN", 4)) return true;
  if (n < 3 || s[0] != '(') return false;
  while (i < n && s[i] >= '0' && s[i] <= '9') i++;
  return i > 1 && i < n && s[i] == ')';
}

static bool is_address_label(const char *s, size_t n) {
  if (n < 3 || s[0] != '0' || s[1] != 'x') return false;
  for (size_t i = 2; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

void hpx_hp_breakdown_label(hp_breakdown *b, const char *label, size_t n) {
  if (!b->labels) b->all_ccs = b->all_addresses = true;
  b->labels++;
  b->all_ccs = b->all_ccs && is_ccs_label(label, n);
  b->all_addresses = b->all_addresses && is_address_label(label, n);
}

int hpx_hp_breakdown_of(const hp_breakdown *b) {
  if (b->job) return b->job;
  if (!b->labels) return 0;
  /* Only -hc labels are "(ccsID)stack" or "MAIN" (-hr's too, but a
   * profiling build names its flag).  A build without profiling writes no +RTS
   * words and can only break down by closure type or info table (an address).
   */
  if (b->all_ccs) return HP2X_BREAKDOWN_COST_CENTRE;
  if (b->profiled) return 0;
  return b->all_addresses ? HP2X_BREAKDOWN_INFO_TABLE
                          : HP2X_BREAKDOWN_CLOSURE_TYPE;
}
