/* test_hp_entries.c -- the .hp entry lines' fast paths (hp_entries.c):
 * the TAB finder (SSE2 and the portable words against a byte loop), and
 * profiles written to meet every way a label is found (its slot, its
 * slot's neighbour, the guess, the label table) and every way it must not
 * be (prefixes, the same first and last bytes, blanks, a TAB or CR in the
 * line, long values), read whole and a byte a feed (the general line
 * parser alone), to the same profile, warnings and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#define TEST_RNG_SEED 0x2545f4914f6cdd1dull
#include "parse_helpers.h"
#include "read/hp_int.h"
#include "test_rng.h"

#define SAME_CHECK(c) assert_true(c)
#include "profile_same.h"

/* The first TAB of the 32 bytes at b, or 32, a byte at a time. */
static unsigned first_tab_bytes(const char *b) {
  unsigned i = 0;
  while (i < 32 && b[i] != '\t') i++;
  return i;
}

/* hp_first_tab32 (SSE2 where the machine has it) and its portable words
 * agree with a byte loop, whatever the other bytes (NUL, 0x89, 0x08 and
 * 0x0a beside TAB's value, bytes with the high bit set). */
static void first_tab_finders_agree(void **state) {
  (void)state;
  static const char pool[] = {'\t',       '\n', 0,   0x08, 0x0a, (char)0x89,
                              (char)0xff, 'a',  ' ', '\r', 0x19, 0x29};
  char buf[40];
  for (unsigned round = 0; round < 20000; round++) {
    for (size_t i = 0; i < sizeof buf; i++)
      buf[i] = rnd(3) ? pool[rnd(sizeof pool)] : (char)rnd(256);
    /* From time to time no TAB at all, or one only at a chosen place. */
    if (round % 4 == 0) {
      for (size_t i = 0; i < sizeof buf; i++)
        if (buf[i] == '\t') buf[i] = 'x';
      if (round % 8 == 0) buf[rnd(33)] = '\t';
    }
    unsigned want = first_tab_bytes(buf);
    assert_int_equal(hp_first_tab32(buf), want);
    assert_int_equal(hp_first_tab32_words(buf), want);
  }
}

/* A label made of the pattern's bytes, n long, its last byte varied by
 * v (labels the same but at one place). */
static void make_label(char *out, const char *pattern, size_t n, unsigned v,
                       size_t at) {
  size_t m = strlen(pattern);
  for (size_t i = 0; i < n; i++) out[i] = pattern[i % m];
  if (n) out[at < n ? at : n - 1] = (char)('A' + v % 26);
  out[n] = '\0';
}

enum { N_LABELS = 72, TEXT_CAP = 1 << 22 };

/* The labels: short ones and one that is a prefix of another, labels
 * sharing their first and last 8 bytes and their length (differing only
 * in the middle: the same slot, so one lives in its neighbour), lengths
 * about 8, 31, 32, 33 and 70, blanks inside, a label that begins as
 * END_SAMPLE does, and one holding a TAB (only the line parser reads
 * it). */
static void the_labels(char labels[N_LABELS][96]) {
  static const char *const fixed[] = {"MAIN",
                                      "a",
                                      "ab",
                                      "abc",
                                      "abcdefgh",
                                      "abcdefghi",
                                      "(100)main",
                                      "(100)main.loop",
                                      "a b c",
                                      "x  y",
                                      "END_SAMPLER",
                                      "BEGIN_SAMPLEX",
                                      "GHC.Conc.Signal.CAF",
                                      "x\ty"};
  size_t n = 0;
  for (; n < sizeof fixed / sizeof *fixed; n++) strcpy(labels[n], fixed[n]);
  /* Pairs with the same first and last 8 bytes and length (the same
   * slot), one byte apart: in each word a slot compares, and after them. */
  static const size_t len_at[][2] = {{24, 8},  {24, 12}, {31, 8},  {31, 16},
                                     {31, 20}, {32, 16}, {32, 20}, {33, 8},
                                     {33, 24}, {40, 16}, {40, 24}, {40, 28},
                                     {70, 24}, {70, 30}, {70, 40}, {70, 50}};
  for (size_t i = 0; i < sizeof len_at / sizeof *len_at; i++)
    for (unsigned v = 0; v < 2; v++)
      make_label(labels[n++], "ghc-internal:GHC.Internal.", len_at[i][0], v,
                 len_at[i][1]);
  /* Short ones, 1 to 8 bytes, the same first byte. */
  for (size_t i = 0; n < N_LABELS; i++)
    make_label(labels[n++], "q", 1 + i % 8, (unsigned)i, i % 8);
}

/* A new order for the next census: shuffled (two times in three), or,
 * unless shuffle, the last one's with a few neighbours swapped (the
 * guess then mostly right, and wrong about a label much like it). */
static void next_order(unsigned *order, bool shuffle) {
  if (!shuffle) {
    for (unsigned k = 0; k < 4; k++) {
      unsigned i = rnd(N_LABELS - 1), x = order[i];
      order[i] = order[i + 1];
      order[i + 1] = x;
    }
    return;
  }
  if (rnd(3))
    for (unsigned i = N_LABELS - 1; i > 0; i--) {
      unsigned j = rnd(i + 1), x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
}

/* Writes a profile of `censuses` censuses of the labels (in orders
 * next_order gives), a label now and then left out or repeated, values of
 * 1 to 19 digits; one line in fifty with a CR before its newline or a
 * blank before its TAB. */
static size_t write_profile(char *t, size_t cap, size_t censuses,
                            bool shuffle) {
  char labels[N_LABELS][96];
  the_labels(labels);
  unsigned order[N_LABELS];
  for (unsigned i = 0; i < N_LABELS; i++) order[i] = i;
  size_t n = (size_t)snprintf(t, cap,
                              "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
                              "VALUE_UNIT \"bytes\"\n");
  for (size_t c = 0; c < censuses && n + 8192 < cap; c++) {
    next_order(order, shuffle);
    n += (size_t)snprintf(t + n, cap - n, "BEGIN_SAMPLE %zu.%06u\n", c,
                          (unsigned)rnd(1000000));
    for (unsigned i = 0; i < N_LABELS; i++) {
      if (rnd(20) == 0) continue;
      unsigned l = rnd(40) == 0 ? order[rnd(N_LABELS)] : order[i];
      unsigned digits = 1 + rnd(rnd(8) ? 7 : 19);
      const char *odd = rnd(50) == 0 ? (rnd(2) ? "\r" : "") : "";
      const char *gap = rnd(50) == 0 ? " " : "";
      n += (size_t)snprintf(t + n, cap - n, "%s%s\t", labels[l], gap);
      for (unsigned d = 0; d < digits; d++) /* 19 digits: below 2^63 */
        t[n++] = (char)('0' + (d ? rnd(10) : digits == 19 ? 1 : 1 + rnd(9)));
      n += (size_t)snprintf(t + n, cap - n, "%s\n", odd);
    }
    /* END_SAMPLE's time is BEGIN_SAMPLE's: copy it from that line. */
    const char *begin = t + n;
    while (begin > t && memcmp(begin, "BEGIN_SAMPLE ", 13) != 0) begin--;
    const char *nl = strchr(begin, '\n');
    n += (size_t)snprintf(t + n, cap - n, "END_SAMPLE %.*s\n",
                          (int)(nl - begin - 13), begin + 13);
  }
  return n;
}

/* The profile of text read in feeds of step bytes (0: whole). */
static hp2x_status read_text(const char *t, size_t n, size_t step,
                             hp2x_profile **p, hp2x_err *err) {
  return parse_chunked((const unsigned char *)t, n, step, HP2X_INPUT_HP, p,
                       err);
}

/* Profiles of every kind above read to the same model whole, in feeds of
 * 4093 bytes and a byte a feed (where no fast path runs). */
static void fast_paths_read_as_lines(void **state) {
  (void)state;
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  for (unsigned round = 0; round < 4; round++) {
    size_t n = write_profile(t, TEXT_CAP, 300, round < 2);
    hp2x_profile *whole, *some, *bytes;
    hp2x_err e1, e2, e3;
    assert_int_equal(read_text(t, n, 0, &whole, &e1), HP2X_OK);
    assert_int_equal(read_text(t, n, 4093, &some, &e2), HP2X_OK);
    assert_int_equal(read_text(t, n, 1, &bytes, &e3), HP2X_OK);
    assert_true(whole->n_samples >= 290);
    assert_true(whole->warn.duplicate_labels > 0);
    same_profile_exactly(whole, bytes);
    same_profile_exactly(some, bytes);
    hp2x_profile_free(whole);
    hp2x_profile_free(some);
    hp2x_profile_free(bytes);
  }
  free(t);
}

/* An error found on a line the slots read (a value too big for 64 bits
 * after censuses that filled them; a NUL where a label's byte should be)
 * names the same line, offset and message as the line parser's. */
static void errors_name_the_same_line(void **state) {
  (void)state;
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  const char *bad[] = {"abcdefghi\t99999999999999999999\n", "abcde\0ghi\t5\n",
                       "ab\t\t5\n", "(100)main\t12a\n"};
  const size_t bad_len[] = {31, 12, 6, 14};
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    size_t n = write_profile(t, TEXT_CAP, 40, k % 2);
    /* Cut the last END_SAMPLE line, put the bad line before it. */
    size_t end_at = n - 1;
    while (end_at > 0 && t[end_at - 1] != '\n') end_at--;
    char last[64];
    size_t last_len = n - end_at;
    memcpy(last, t + end_at, last_len);
    memcpy(t + end_at, bad[k], bad_len[k]);
    memcpy(t + end_at + bad_len[k], last, last_len);
    n = end_at + bad_len[k] + last_len;
    /* Padding after, so that the bad line is read by the slots. */
    for (int i = 0; i < 4; i++)
      n += (size_t)snprintf(t + n, TEXT_CAP - n, "MARK %d.0\n", 1000 + i);
    hp2x_profile *pw = NULL, *pb = NULL;
    hp2x_err ew, eb;
    hp2x_status sw = read_text(t, n, 0, &pw, &ew);
    hp2x_status sb = read_text(t, n, 1, &pb, &eb);
    assert_int_equal(sw, sb);
    if (sw == HP2X_OK) {
      same_profile_exactly(pw, pb);
    } else {
      assert_int_equal(ew.line, eb.line);
      assert_int_equal(ew.offset, eb.offset);
      assert_string_equal(ew.msg, eb.msg);
    }
    hp2x_profile_free(pw);
    hp2x_profile_free(pb);
  }
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(first_tab_finders_agree),
      cmocka_unit_test(fast_paths_read_as_lines),
      cmocka_unit_test(errors_name_the_same_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
