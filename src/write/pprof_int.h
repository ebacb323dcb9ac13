/* pprof_int.h -- private to libhp2x's pprof writer: a label of a census as
 * the frames of its pprof stack (pprof_frames.c), which pprof.c turns
 * into the tables of a profile (its builder), which pprof_encode.c
 * encodes.
 */
#ifndef HPX_PPROF_INT_H
#define HPX_PPROF_INT_H

#include "model/model.h"

#include "pprof.pb-c.h"

/* One frame: offsets into its pprof_frames' text (bytes as the label has
 * them; pprof.c makes them UTF-8). */
typedef struct pprof_frame {
  size_t name, name_len;     /* what a flame graph shows */
  size_t system, system_len; /* the name qualified (Module.label) */
  size_t file, file_len;     /* source file; file_len 0: none */
  int64_t line;              /* source line; 0: unknown */
} pprof_frame;

/* A label's stack, leaf first, and the pprof labels of its sample. */
typedef struct pprof_frames {
  pprof_frame *f; /* owned */
  size_t n, cap;
  char *text; /* the frames' bytes; owned */
  size_t len, text_cap;
  int64_t ccs_id;   /* a .hp -hc label's (N); -1: none */
  int64_t stack_id; /* an eventlog -hc stack's label id; -1: none */
  bool cut;         /* the runtime cut the label (-L): its last frame ends
                       in "..." */
} pprof_frames;

/* Makes in fr (emptied first; reused from label to label) the frames of
 * label `label` of p, whose breakdown is `breakdown` (an hp2x_breakdown):
 * an eventlog's -hc stack from the profile's cost centres; a .hp's -hc
 * label split at '/'; -hi's table under its module; "pkg:Module.Name"
 * and "<pkg:Module.name>" as name, module, package; -he's "era N"; any
 * other label one frame.  HP2X_E_NOMEM. */
hp2x_status hpx_pprof_frames_of(pprof_frames *fr, const hp2x_profile *p,
                                int breakdown, uint32_t label, hp2x_err *err);
/* One frame named `name` (len bytes), for the sample of the labels that
 * did not fit ("(N labels dropped)").  HP2X_E_NOMEM. */
hp2x_status hpx_pprof_frames_one(pprof_frames *fr, const char *name, size_t len,
                                 hp2x_err *err);
void hpx_pprof_frames_free(pprof_frames *fr);

/* The line a GHC source span starts at ("leak.hs:12:5-20",
 * "leak.hs:(12,5)-(14,20)", "leak.hs:12:5"): *file_len receives the file
 * name's length (the bytes before the span); 0 when s is no such span
 * ("<built-in>", "<entire-module>"). */
int64_t hpx_pprof_span_line(const char *s, size_t n, size_t *file_len);

/* ------------------------------------------------ pprof.c's builder */

/* A sample as it is built: its locations and labels are ranges of the
 * builder's arrays (which move while they grow). */
typedef struct sample_rec {
  size_t loc_from, loc_n, lab_from, lab_n;
  int64_t value;
} sample_rec;

/* The profile's tables as pprof.c fills them for one census. */
typedef struct builder {
  const hp2x_profile *p;
  size_t census;
  int breakdown;
  char **str; /* the string table, [0] = ""; owned */
  size_t n_str, cap_str;
  uint32_t *str_slot; /* open addressing: index + 1; owned */
  size_t str_slots;
  HpxPprof__Function *fn; /* functions: location i + 1 is fn[i] */
  size_t n_fn, cap_fn;
  uint32_t *fn_slot; /* open addressing: index + 1; owned */
  size_t fn_slots;
  sample_rec *smp;
  size_t n_smp, cap_smp;
  uint64_t *locs; /* every sample's location ids */
  size_t n_locs, cap_locs;
  HpxPprof__Label *labs; /* every sample's labels */
  size_t n_labs, cap_labs;
  int64_t comment[8];                         /* string indices */
  int64_t inuse_space, bytes, space, program; /* the strings the head
                                names: sample and period types, unit, the
                                program's name (JOB's first word) */
  size_t n_comment;
  pprof_frames fr;
} builder;

/* pprof_encode.c: b's profile (its tables, the sample type, the period,
 * the program's mapping, the comments, the census's Unix time) encoded
 * and gzipped: *out (owned, hpx_free), *len.  HP2X_E_NOMEM,
 * HP2X_E_LIMIT. */
hp2x_status hpx_pprof_encode(builder *b, unsigned char **out, size_t *len,
                             hp2x_err *err);

#endif
