/* hp_scan.h -- private to the .hp front end: the scan's hot path, bytes
 * read eight (or, with SSE2, sixteen) at a time: a line's first TAB,
 * digits and their value, the first TAB or newline (hp_parse.c and
 * hp_entries.c read lines with them).
 */
#ifndef HPX_HP_SCAN_H
#define HPX_HP_SCAN_H

#include "frontends.h"

/* SSE2 finds an entry line's TAB (hp_first_tab32) and compares its label
 * with a slot's; HPX_NO_SSE2 leaves both to the portable words, as on
 * machines without it, and so does a PORTABLE=1 build (HP2X_PORTABLE),
 * whose tests are then those words' (tests/e2e/test_seams.sh). */
#if defined(__SSE2__) && !defined(HPX_NO_SSE2) && !defined(HP2X_PORTABLE)
#define HPX_HP_SSE2 1
#include <emmintrin.h>
#endif

/* The value of the 8 digits of w, each byte a digit's value (0 to 9;
 * hp_load8's order: the first digit in the low byte), three
 * multiplications for all eight. */
static HPX_ALWAYS_INLINE uint64_t hp_eight_values(uint64_t w) {
  w = (w * 10) + (w >> 8);
  return (((w & 0x000000FF000000FFu) * 0x000F424000000064u) +
          (((w >> 16) & 0x000000FF000000FFu) * 0x0000271000000001u)) >>
         32;
}

/* The value of the 8 ASCII digits of w (hp_load8's order). */
static HPX_ALWAYS_INLINE uint64_t hp_eight_digits(uint64_t w) {
  return hp_eight_values(w - 0x3030303030303030u);
}

/* The place of the lowest bit set in m, not 0. */
static HPX_ALWAYS_INLINE unsigned hp_ctz64(uint64_t m) { return hpx_ctz64(m); }

/* Bit i set for each byte i of w that is a TAB, from the first TAB on:
 * a byte's zero test can be wrong only above a byte that is zero, and the
 * multiplication gathers byte i's high bit into bit 56 + i. */
static HPX_ALWAYS_INLINE uint64_t hp_tab_bits8(uint64_t w) {
  const uint64_t ones = 0x0101010101010101u;
  uint64_t t = w ^ (ones * '\t');
  uint64_t m = ((t - ones) & ~t & (ones << 7)) >> 7;
  return (m * 0x0102040810204080u) >> 56;
}

/* The place of the first TAB among the 32 bytes at b, or 32: eight bytes
 * a step, with no branch (hp_first_tab32 where the machine has no SSE2). */
static HPX_ALWAYS_INLINE unsigned hp_first_tab32_words(const char *b) {
  uint64_t m = hp_tab_bits8(read_le64(b)) |
               hp_tab_bits8(read_le64(b + 8)) << 8 |
               hp_tab_bits8(read_le64(b + 16)) << 16 |
               hp_tab_bits8(read_le64(b + 24)) << 24 | (uint64_t)1 << 32;
  return hp_ctz64(m);
}

/* The place of the first TAB among the 32 bytes at b, or 32: two 16-byte
 * compares where the machine has SSE2 (every x86-64), else
 * hp_first_tab32_words. */
static HPX_ALWAYS_INLINE unsigned hp_first_tab32(const char *b) {
#if defined(HPX_HP_SSE2)
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i *v = (const __m128i *)(const void *)b;
  uint64_t lo =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v), tab));
  uint64_t hi =
      (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(v + 1), tab));
  return hp_ctz64(lo | hi << 16 | (uint64_t)1 << 32);
#else
  return hp_first_tab32_words(b);
#endif
}

/* The place (0 to 7) of the lowest byte of m, not 0, with a bit set. */
static HPX_ALWAYS_INLINE unsigned hp_first_byte(uint64_t m) {
  return hp_ctz64(m) >> 3;
}

/* For x, eight bytes XORed with '0's: a byte's high half set (not 0) where
 * the byte was no ASCII digit, from the first such byte on (a digit's
 * value is at most 9 and its high half 0; a carry out of a byte that is no
 * digit only reaches bytes after it). */
static HPX_ALWAYS_INLINE uint64_t hp_not_digits(uint64_t x) {
  return (x | (x + 0x0606060606060606u)) & 0xF0F0F0F0F0F0F0F0u;
}

/* The place of the first byte of w that is no ASCII digit (0 to 7), or 8:
 * a byte's digit value is at most 9, and its high half 0 (a carry out of
 * a byte that is no digit only reaches bytes after it). */
static HPX_ALWAYS_INLINE unsigned hp_digit_run(uint64_t w) {
  uint64_t x = w ^ 0x3030303030303030u;
  uint64_t other = hp_not_digits(x);
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

/* hp_scan_digits, from one word when 1 to 7 digits and a dot are at c
 * (8 bytes or more before end): a census's time, with no loop. */
static HPX_ALWAYS_INLINE const char *hp_scan_short_digits(const char *c,
                                                          const char *end,
                                                          uint64_t *v) {
  if (end - c >= 8) {
    uint64_t x = read_le64(c) ^ 0x3030303030303030u;
    unsigned n = hp_first_byte(hp_not_digits(x) | (uint64_t)1 << 63);
    if (n != 0 && c[n] == '.') {
      *v = hp_eight_values(x << (8 * (8 - n)));
      return c + n;
    }
  }
  return hp_scan_digits(c, end, v);
}

#endif
