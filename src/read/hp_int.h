/* hp_int.h -- private to the .hp front end: the line reader's state
 * (hp_parser), which hp_parse.c reads lines with and hp_parts.c reads a
 * part of the input with (on a thread of its own) and merges from.
 */
#ifndef HPX_HP_INT_H
#define HPX_HP_INT_H

#include "frontends.h"

/* A header or MARK line met while reading a part (hp_parts.c): read later,
 * in order, by the real reader, which knows what came before. */
typedef struct hp_deferred {
  const char *s;       /* the line's bytes, in the part's input */
  size_t n;            /* without its '\n' */
  long line;           /* its line number within the part (1-based) */
  long long offset;    /* its byte offset in the input */
  size_t samples;      /* samples the part had completed before it */
} hp_deferred;

/* What a part's reader keeps apart from its profile (hp_parts.c). */
typedef struct hp_part_lines {
  hp_deferred *deferred; /* owned */
  size_t n_deferred, cap_deferred;
} hp_part_lines;

struct hp_parser {
  hp2x_profile *p;          /* borrowed: the dispatcher owns it */
  const char *file;         /* borrowed, for messages */
  char *carry;              /* partial line between feeds; owned */
  size_t carry_len, carry_cap;
  long line;                /* lines completed so far */
  long long offset;         /* byte offset of the next line's start */
  long long total;          /* bytes fed */
  unsigned header_seen;     /* bit per profile_field */
  bool in_sample;
  long begin_line;          /* line of the open sample's BEGIN_SAMPLE */
  long long begin_offset;   /* its byte offset */
  double begin_time;        /* its time, seconds */
  bool have_prev;
  double prev_time;         /* time of the previous BEGIN_SAMPLE */
  label_track track;        /* repeats and the next-label guess */
  hp_part_lines *part;      /* reading a part: its deferred lines; else
                               NULL; borrowed */
  hp2x_status status;       /* first error, sticky */
};

/* hp_parse.c: reads one line s..s+n (no '\n') as the next line, as a feed
 * would; a model error is given the line's number and offset. */
hp2x_status hpx_hp_parse_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err);

/* hp_parts.c: keeps the line s..s+n (a header line or a MARK, outside a
 * sample) of a part for the real reader to read in order. */
hp2x_status hpx_hp_defer_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err);

#endif
