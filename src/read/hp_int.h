/* hp_int.h -- private to the .hp front end: the line reader's state
 * (hp_parser), which hp_parse.c reads lines with and hp_parts.c reads a
 * part of the input with (on a thread of its own) and merges from.
 */
#ifndef HPX_HP_INT_H
#define HPX_HP_INT_H

#include "frontends.h"
#include "hp_breakdown.h"

/* A header or MARK line met while reading a part (hp_parts.c): read later,
 * in order, by the real reader, which knows what came before. */
typedef struct hp_deferred {
  const char *s;    /* the line's bytes, in the part's input */
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
#define HP_PREFIX_BITS 10

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
  bool have_prev;
  double prev_time;               /* time of the previous BEGIN_SAMPLE */
  label_track track;              /* repeats and the next-label guess */
  hp_breakdown breakdown;         /* what JOB and the labels say it is */
  hp_part_lines *part;            /* reading a part: its deferred lines; else
                                     NULL; borrowed */
  uint32_t known[HP_KNOWN_SLOTS]; /* labels met, by a hash of their first
                               bytes and length (hp_entries.c); LABEL_NONE
                               = none */
  uint32_t by_prefix[1u << HP_PREFIX_BITS]; /* the last label met whose
                               line began with these 8 bytes, by their hash
                               (hp_entries.c); LABEL_NONE = none */
  hp2x_status status;                       /* first error, sticky */
};

/* ------------------------------------------------ the scan's hot path */

/* The value of the 8 ASCII digits of w (hp_load8's order: the first digit
 * in the low byte), three multiplications for all eight. */
static HPX_ALWAYS_INLINE uint64_t hp_eight_digits(uint64_t w) {
  w -= 0x3030303030303030u;
  w = (w * 10) + (w >> 8);
  return (((w & 0x000000FF000000FFu) * 0x000F424000000064u) +
          (((w >> 16) & 0x000000FF000000FFu) * 0x0000271000000001u)) >>
         32;
}

/* The place (0 to 7) of the lowest byte of m, not 0, with a bit set. */
static HPX_ALWAYS_INLINE unsigned hp_first_byte(uint64_t m) {
#if defined(__GNUC__)
  return (unsigned)__builtin_ctzll(m) >> 3;
#else
  unsigned n = 0;
  while (!(m & 0xFF)) m >>= 8, n++;
  return n;
#endif
}

/* The place of the first byte of w that is no ASCII digit (0 to 7), or 8:
 * a byte's digit value is at most 9, and its high half 0 (a carry out of
 * a byte that is no digit only reaches bytes after it). */
static HPX_ALWAYS_INLINE unsigned hp_digit_run(uint64_t w) {
  uint64_t x = w ^ 0x3030303030303030u;
  uint64_t other = (x & 0xF0F0F0F0F0F0F0F0u) |
                   ((x + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u);
  return other ? hp_first_byte(other) : 8;
}

/* The first TAB or newline from b on (before end), or end: eight bytes a
 * step.  A byte's zero test (x - 1) & ~x & 0x80 can be wrong only above a
 * byte that is zero, so the lowest bit set marks the first of them. */
static HPX_ALWAYS_INLINE const char *hp_tab_or_newline(const char *b,
                                                       const char *end) {
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  for (; end - b >= 8; b += 8) {
    uint64_t w = read_le64(b), t = w ^ (ones * '\t'), n = w ^ (ones * '\n');
    uint64_t m = (((t - ones) & ~t) | ((n - ones) & ~n)) & highs;
    if (m) return b + hp_first_byte(m);
  }
  while (b < end && *b != '\t' && *b != '\n') b++;
  return b;
}

/* Reads the run of ASCII digits at c (not past end): returns the byte
 * after it, *v its value (modulo 2^64: a caller that cares checks the
 * run's length).  Eight digits a step while eight bytes remain. */
static HPX_ALWAYS_INLINE const char *hp_scan_digits(const char *c,
                                                    const char *end,
                                                    uint64_t *v) {
  static const uint64_t pow10[8] = {1,     10,     100,     1000,
                                    10000, 100000, 1000000, 10000000};
  uint64_t acc = 0;
  while (end - c >= 8) {
    uint64_t w = read_le64(c);
    unsigned n = hp_digit_run(w);
    if (n == 8) {
      acc = acc * 100000000u + hp_eight_digits(w);
      c += 8;
      continue;
    }
    if (n) { /* the n digits at the top, '0's before them */
      unsigned shift = 8 * (8 - n);
      w = (w << shift) | (0x3030303030303030u >> (64 - shift));
      acc = acc * pow10[n] + hp_eight_digits(w);
    }
    *v = acc;
    return c + n;
  }
  for (; c < end && (unsigned char)(*c - '0') < 10; c++)
    acc = acc * 10 + (uint64_t)(*c - '0');
  *v = acc;
  return c;
}

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

/* hp_parse.c: reads one line s..s+n (no '\n') as the next line, as a feed
 * would; a model error is given the line's number and offset. */
hp2x_status hpx_hp_parse_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err);

/* hp_parse.c: keeps the line s..s+n (a header line or a MARK, outside a
 * sample) of a part for the real reader to read in order (hp_parts.c). */
hp2x_status hpx_hp_defer_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err);

#endif
