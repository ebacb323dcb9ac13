/* hp_int.h -- private to the .hp front end: the line reader's state
 * (hp_parser), which hp_parse.c reads lines with and hp_parts.c reads a
 * part of the input with (on a thread of its own) and merges from.
 */
#ifndef HPX_HP_INT_H
#define HPX_HP_INT_H

#include "frontends.h"
#include "hp_breakdown.h"
#include "hp_scan.h"

/* A header or MARK line met while reading a part (hp_parts.c): read later,
 * in order, by the real reader, which knows what came before. */
typedef struct hp_deferred {
  char *s;          /* a copy of the line's bytes (the part's input is
                       its reader's a piece at a time); owned */
  size_t n;         /* without its '\n' */
  long line;        /* its line number within the part (1-based) */
  long long offset; /* its byte offset in the input */
  size_t samples;   /* samples the part had completed before it */
} hp_deferred;

/* What a part's reader keeps apart from its profile (hp_parts.c). */
typedef struct hp_part_lines {
  hp_deferred *deferred; /* owned */
  size_t n_deferred, cap_deferred;
} hp_part_lines;

#define HP_KNOWN_SLOTS 2048
#define HP_SLOT_BITS 9 /* at most 15 */
#define HP_SLOTS (1u << HP_SLOT_BITS)
/* Where hp_parser.after's guess comes from at a sample's start, and after
 * a line whose label has no slot. */
#define HP_SAMPLE_START HP_SLOTS
#define HP_NO_SLOT (HP_SLOTS + 1)
#define HP_SLOT_BYTES 32 /* a label's bytes a slot holds */

/* A label with no TAB nor NUL in it, as an entry line begins with it
 * (hp_entries.c): its first HP_SLOT_BYTES bytes in words, with the TAB
 * after it when it is shorter (so that bytes equal to a short slot's are
 * its label and TAB: the line's first TAB is where the label ends), zero
 * after that, which of them are compared, and its length (the bytes
 * after the 32nd are compared with its name). */
typedef struct hp_label_slot {
  uint64_t word[4]; /* bytes 0-31 (an empty slot: word[0] 1, which no
                       line with a TAB among its first 32 bytes has) */
#if defined(HPX_HP_SSE2)
  uint32_t past; /* bit i set for each byte i of the 32 past the label's
                    TAB (a long or empty slot: 0, all 32 compared) */
#else
  uint64_t mask[4]; /* 0xff for each byte of the words compared */
#endif
  uint32_t id;  /* the label; LABEL_NONE: an empty slot */
  uint32_t len; /* its bytes (an empty slot: HP_SLOT_EMPTY) */
} hp_label_slot;

#define HP_SLOT_EMPTY UINT32_MAX

struct hp_parser {
  hp2x_profile *p;  /* borrowed: the dispatcher owns it */
  const char *file; /* borrowed, for messages */
  char *carry;      /* partial line between feeds; owned */
  size_t carry_len, carry_cap;
  long line;            /* lines completed so far */
  long long offset;     /* byte offset of the next line's start */
  long long total;      /* bytes fed */
  unsigned header_seen; /* bit per profile_field */
  bool in_sample;
  long begin_line;        /* line of the open sample's BEGIN_SAMPLE */
  long long begin_offset; /* its byte offset */
  double begin_time;      /* its time, seconds */
  char begin_text[24];    /* its time as written, when read by the fast
                             path (an END_SAMPLE the same bytes has it) */
  size_t begin_text_len;  /* 0: not kept */
  bool have_prev;
  double prev_time;               /* time of the previous BEGIN_SAMPLE */
  label_track track;              /* repeats and the next-label guess */
  hp_breakdown breakdown;         /* what JOB and the labels say it is */
  hp_part_lines *part;            /* reading a part: its deferred lines; else
                                     NULL; borrowed */
  uint32_t known[HP_KNOWN_SLOTS]; /* labels met, by a hash of their first
                               bytes and length (hp_entries.c); LABEL_NONE
                               = none */
  hp_label_slot slots[HP_SLOTS];  /* labels met, by a hash of their first
                                and last 8 bytes and length (hp_entries.c) */
  uint16_t after[HP_SLOTS + 2];   /* per slot: the slot of the line after
                                 its label's line last time; [HP_SAMPLE_START]:
                                 of a sample's first line */
  uint16_t prev_slot;             /* the open sample's last line's slot, or
                                     HP_SAMPLE_START or HP_NO_SLOT */
  hp2x_status status;             /* first error, sticky */
};

/* The blanks of .hp text (a line's end, '\n', is not one). */
static inline bool hp_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

/* Records entry (id, v) of the open sample; the first repeated label's
 * line is kept for the warning. */
static HPX_ALWAYS_INLINE hp2x_status hp_add_entry(hp_parser *hp, uint32_t id,
                                                  int64_t v, hp2x_err *err) {
  int repeated;
  if (hpx_label_track_add(&hp->track, hp->p, id, v, &repeated, err) != HP2X_OK)
    return hp->status = err->code;
  if (repeated && hp->p->warn.duplicate_labels == 1)
    hp->p->warn.first_duplicate_line = hp->line;
  return HP2X_OK;
}

/* hp_entries.c: the entry lines from b on (the buffer ends at end) of the
 * open sample, while each is written as GHC writes one (LABEL TAB DIGITS
 * NEWLINE) and its label is the one expected or one already known: read
 * as hp_parse.c's parse_line would read them.  Returns the start of the
 * first line left to parse_line (hp->status tells a failure apart). */
const char *hpx_hp_fast_entries(hp_parser *hp, const char *b, const char *end,
                                hp2x_err *err);

/* hp_samples.c: BEGIN_SAMPLE t (opens a census: none open, t not before
 * the last census's) and END_SAMPLE t (closes the open census, begun at
 * t), as parse_line reads them. */
hp2x_status hpx_hp_begin_sample(hp_parser *hp, double t, hp2x_err *err);
hp2x_status hpx_hp_end_sample(hp_parser *hp, double t, hp2x_err *err);

/* hp_samples.c: the BEGIN_SAMPLE or END_SAMPLE line at b (before end) if
 * written as GHC writes it, read as parse_line reads it: the next line's
 * start, or NULL (an error in hp->status, or the line left to parse_line). */
const char *hpx_hp_sample_line(hp_parser *hp, const char *b, const char *end,
                               hp2x_err *err);

/* hp_samples.c: the open census's END_SAMPLE line at b and, when the next
 * line is a BEGIN_SAMPLE, that one too, each as hpx_hp_sample_line reads
 * it: the start of the line after those read (b: none), or NULL on an
 * error (hp->status). */
const char *hpx_hp_census_turn(hp_parser *hp, const char *b, const char *end,
                               hp2x_err *err);

/* hp_entries.c: empties hp->slots (a new reader's). */
void hpx_hp_slots_init(hp_parser *hp);

/* hp_parse.c: reads one line s..s+n (no '\n') as the next line, as a feed
 * would; a model error is given the line's number and offset. */
hp2x_status hpx_hp_parse_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err);

/* hp_parse.c: keeps a copy of the line s..s+n (a header line or a MARK,
 * outside a sample) of a part for the real reader to read in order
 * (hp_parts.c). */
hp2x_status hpx_hp_defer_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err);

#endif
