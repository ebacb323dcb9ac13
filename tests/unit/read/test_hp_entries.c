/* test_hp_entries.c -- the .hp entry lines' fast paths (hp_entries.c):
 * the TAB finder (SSE2 and the portable words against a byte loop), and
 * profiles written to meet every way a label is found (its slot, its
 * slot's neighbour, the guess, the label table) and every way it must not
 * be (prefixes, the same first and last bytes, labels one last byte or
 * one byte of length apart, blanks, a TAB or CR in the line, long
 * values), with values the runs of entry lines take and values
 * they leave (past 32 bits, malformed), read whole and a byte a feed (the
 * general line parser alone), to the same profile, warnings and errors. */
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

/* The n labels of order in a new order, any of them. */
static void shuffle_order(unsigned *order, unsigned n) {
  for (unsigned i = n - 1; i > 0; i--) {
    unsigned j = rnd(i + 1), x = order[i];
    order[i] = order[j];
    order[j] = x;
  }
}

/* A profile's header lines at t: their bytes. */
static size_t write_header(char *t, size_t cap) {
  return (size_t)snprintf(t, cap,
                          "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
                          "VALUE_UNIT \"bytes\"\n");
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
  if (rnd(3)) shuffle_order(order, N_LABELS);
}

/* How write_profile writes a profile: the most digits of a value (19:
 * past 32 bits from the first census on, so the profile's values are
 * soon 64-bit; 9: below 2^32, as the runs of entry lines take them), and
 * whether the labels are met census by census (new labels after runs of
 * known ones) and END_SAMPLE's time is now and then written otherwise
 * (a leading 0: the same time, other bytes). */
typedef struct shape {
  unsigned max_digits;
  bool gradual, other_end;
} shape;

static const shape any_values = {19, false, false};

/* Writes END_SAMPLE for the last BEGIN_SAMPLE before t + n: its time
 * copied from that line (a 0 before it when other). */
static size_t write_end(char *t, size_t n, size_t cap, bool other) {
  const char *begin = t + n;
  while (begin > t && memcmp(begin, "BEGIN_SAMPLE ", 13) != 0) begin--;
  const char *nl = strchr(begin, '\n');
  return (size_t)snprintf(t + n, cap - n, "END_SAMPLE %s%.*s\n",
                          other ? "0" : "", (int)(nl - begin - 13), begin + 13);
}

/* Writes a profile of `censuses` censuses of the labels (in orders
 * next_order gives), a label now and then left out or repeated, values of
 * 1 to sh->max_digits digits; one line in fifty with a CR before its
 * newline or a blank before its TAB. */
static size_t write_profile_as(char *t, size_t cap, size_t censuses,
                               bool shuffle, const shape *sh) {
  char labels[N_LABELS][96];
  the_labels(labels);
  unsigned order[N_LABELS];
  for (unsigned i = 0; i < N_LABELS; i++) order[i] = i;
  size_t n = write_header(t, cap);
  for (size_t c = 0; c < censuses && n + 8192 < cap; c++) {
    next_order(order, shuffle);
    n += (size_t)snprintf(t + n, cap - n, "BEGIN_SAMPLE %zu.%06u\n", c,
                          (unsigned)rnd(1000000));
    for (unsigned i = 0; i < N_LABELS; i++) {
      if (rnd(20) == 0) continue;
      unsigned l = rnd(40) == 0 ? order[rnd(N_LABELS)] : order[i];
      if (sh->gradual && l > 4 + c / 3) continue;
      unsigned digits = 1 + rnd(rnd(8) ? 7 : sh->max_digits);
      const char *odd = rnd(50) == 0 ? (rnd(2) ? "\r" : "") : "";
      const char *gap = rnd(50) == 0 ? " " : "";
      n += (size_t)snprintf(t + n, cap - n, "%s%s\t", labels[l], gap);
      for (unsigned d = 0; d < digits; d++) /* 19 digits: below 2^63 */
        t[n++] = (char)('0' + (d ? rnd(10) : digits == 19 ? 1 : 1 + rnd(9)));
      n += (size_t)snprintf(t + n, cap - n, "%s\n", odd);
    }
    n += write_end(t, n, cap, sh->other_end && rnd(10) == 0);
  }
  return n;
}

static size_t write_profile(char *t, size_t cap, size_t censuses,
                            bool shuffle) {
  return write_profile_as(t, cap, censuses, shuffle, &any_values);
}

/* The profile of text read in feeds of step bytes (0: whole). */
static hp2x_status read_text(const char *t, size_t n, size_t step,
                             hp2x_profile **p, hp2x_err *err) {
  return parse_chunked((const unsigned char *)t, n, step, HP2X_INPUT_HP, p,
                       err);
}

/* Reads text t of n bytes whole, in feeds of 4093 bytes and a byte a
 * feed: the three give the same profile, returned (read whole). */
static hp2x_profile *read_three_ways(const char *t, size_t n) {
  hp2x_profile *whole, *some, *bytes;
  hp2x_err e1, e2, e3;
  assert_int_equal(read_text(t, n, 0, &whole, &e1), HP2X_OK);
  assert_int_equal(read_text(t, n, 4093, &some, &e2), HP2X_OK);
  assert_int_equal(read_text(t, n, 1, &bytes, &e3), HP2X_OK);
  same_profile_exactly(whole, bytes);
  same_profile_exactly(some, bytes);
  hp2x_profile_free(some);
  hp2x_profile_free(bytes);
  return whole;
}

/* Profiles of every kind above read to the same model whole, in feeds of
 * 4093 bytes and a byte a feed (where no fast path runs). */
static void fast_paths_read_as_lines(void **state) {
  (void)state;
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  for (unsigned round = 0; round < 4; round++) {
    size_t n = write_profile(t, TEXT_CAP, 300, round < 2);
    hp2x_profile *whole = read_three_ways(t, n);
    assert_true(whole->n_samples >= 290);
    assert_true(whole->warn.duplicate_labels > 0);
    hp2x_profile_free(whole);
  }
  free(t);
}

/* Runs of entry lines (values below 2^32, so the runs take them): in
 * shuffled and steady orders, labels met census by census, more entries
 * than a run's room, END_SAMPLE times written otherwise, and a value past
 * 32 bits in the middle of a run (in words of 8 bytes when every value is
 * whole words, else 64 bits from there on), read whole, in feeds of 4093
 * bytes and a byte a feed, to the same profile. */
static void runs_read_as_lines(void **state) {
  (void)state;
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  static const shape small = {9, true, true};
  static const char *const big[] = {"", "MAIN\t4294967296\n",
                                    "MAIN\t8589934592\n",
                                    "MAIN\t999999999999999999\n"};
  for (unsigned round = 0; round < 8; round++) {
    size_t n = write_profile_as(t, TEXT_CAP, 400, round % 2, &small);
    /* A big value among the entries of a census past the half. */
    const char *b = big[round / 2];
    char *at = strstr(t + n / 2, "\nBEGIN_SAMPLE ") + 1;
    at = strchr(strchr(at, '\n') + 1, '\n') + 1;
    memmove(at + strlen(b), at, (size_t)(t + n - at));
    memcpy(at, b, strlen(b));
    n += strlen(b);
    if (round / 2 == 2) /* every value whole words: 8 bytes a word */
      for (char *c = t; c < t + n; c++)
        if (*c == '\t' && c[1] >= '0' && c[1] <= '9') {
          char *e = c + 1;
          while (*e >= '0' && *e <= '9') e++;
          if (e - c == 2) e[-1] = '8'; /* 8, 80, 1000 */
          if (e - c == 3) memcpy(e - 2, "80", 2);
          if (e - c > 3) memcpy(e - 3, "000", 3);
        }
    hp2x_profile *whole = read_three_ways(t, n);
    assert_true(whole->n_entries > 8192);
    assert_true(whole->warn.duplicate_labels > 0);
    assert_int_equal(whole->wide_values, round / 2 == 1 || round / 2 == 3);
    assert_int_equal(whole->value_shift, round / 2 == 2 ? 3 : 0);
    hp2x_profile_free(whole);
  }
  free(t);
}

/* The low bits of values a run took decide how a later value past 32
 * bits is kept (every value whole words so far: counted in words; else
 * 64 bits): censuses of values that are whole words while the labels are
 * met and kept, others once the runs take them, then 2^32. */
static void runs_keep_low_bits(void **state) {
  (void)state;
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  size_t n = write_header(t, TEXT_CAP);
  for (unsigned c = 0; c < 50; c++) {
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "BEGIN_SAMPLE %u.0\n", c);
    for (unsigned l = 0; l < 20; l++)
      n += (size_t)snprintf(t + n, TEXT_CAP - n, "label_%u\t%u\n", l,
                            c > 1 ? 8 * l + c : 8 * l);
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "%sEND_SAMPLE %u.0\n",
                          c == 49 ? "label_99\t4294967296\n" : "", c);
  }
  for (int i = 0; i < 8; i++) /* the last census's lines not near the end */
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "MARK %d.0\n", 1000 + i);
  hp2x_profile *whole, *bytes;
  hp2x_err e1, e2;
  assert_int_equal(read_text(t, n, 0, &whole, &e1), HP2X_OK);
  assert_int_equal(read_text(t, n, 1, &bytes, &e2), HP2X_OK);
  assert_true(whole->wide_values);
  same_profile_exactly(whole, bytes);
  hp2x_profile_free(whole);
  hp2x_profile_free(bytes);
  free(t);
}

/* Labels the slots must tell apart by their last byte (the first 32's
 * mask, the hash's last 8 bytes) or their length: for lengths about 8,
 * 16, 24, 32 and 64, forty labels differing only in their last byte (so
 * that some share a slot and one lives in its neighbour), the label one
 * byte shorter and one longer; censuses of them in a new order each time
 * (a label in another slot's place), a label now and then repeated in its
 * census, values of 1 to 9 digits with and without leading zeros (the
 * one-word value's edges: 7 digits and 8), read whole, in feeds and a
 * byte a feed, to the same profile. */
static void slots_tell_last_bytes_apart(void **state) {
  (void)state;
  static const size_t lens[] = {7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 64};
  enum { VARIANTS = 40, PER_LEN = VARIANTS + 2 };
  enum { N = PER_LEN * sizeof lens / sizeof *lens };
  static char names[N][80];
  size_t n_names = 0;
  for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
    size_t k = lens[i];
    for (unsigned v = 0; v < PER_LEN; v++) {
      size_t len = v == VARIANTS ? k - 1 : v == VARIANTS + 1 ? k + 1 : k;
      make_label(names[n_names], "(7)ghc-internal:GHC.Internal.Base", len, 0,
                 len);
      names[n_names][len - 1] = (char)(v < VARIANTS ? '0' + v : 'a' + i);
      n_names++;
    }
  }
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  unsigned order[N];
  for (unsigned i = 0; i < N; i++) order[i] = i;
  size_t n = write_header(t, TEXT_CAP);
  for (unsigned c = 0; c < 60; c++) {
    shuffle_order(order, N);
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "BEGIN_SAMPLE %u.5\n", c);
    for (unsigned i = 0; i < N; i++) {
      unsigned l = rnd(60) == 0 ? order[rnd(N)] : order[i];
      unsigned digits = 1 + rnd(9), zeros = rnd(4) == 0 ? rnd(digits) : 0;
      n += (size_t)snprintf(t + n, TEXT_CAP - n, "%s\t", names[l]);
      for (unsigned d = 0; d < digits; d++)
        t[n++] = (char)(d < zeros ? '0' : '0' + rnd(10));
      t[n++] = '\n';
    }
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "END_SAMPLE %u.5\n", c);
  }
  hp2x_profile *whole = read_three_ways(t, n);
  assert_int_equal(whole->n_labels, N);
  assert_int_equal(whole->n_samples, 60);
  assert_true(whole->warn.duplicate_labels > 0);
  hp2x_profile_free(whole);
  free(t);
}

/* An error found on a line the slots or a run of entry lines read (a
 * value too big for 64 bits, or malformed, after censuses that filled
 * them; a NUL where a label's byte should be; an END_SAMPLE's other time)
 * names the same line, offset and message as the line parser's. */
static void errors_name_the_same_line(void **state) {
  (void)state;
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  const char *bad[] = {"abcdefghi\t99999999999999999999\n",
                       "abcde\0ghi\t5\n",
                       "ab\t\t5\n",
                       "(100)main\t12a\n",
                       "abcdefghi\t9999999999999999999\n",
                       "abcdefghi\t-5\n",
                       "abcdefghi\t5 \n",
                       "abcdefghi\t\n",
                       "abcdefghi\t0x10\n",
                       "END_SAMPLE 99999.000000\n"};
  const size_t bad_len[] = {31, 12, 6, 14, 30, 13, 13, 11, 15, 24};
  static const shape small = {9, false, false};
  for (size_t k = 0; k < 2 * sizeof bad / sizeof *bad; k++) {
    size_t n = write_profile_as(t, TEXT_CAP, 40, (k / 2) % 2,
                                k % 2 ? &small : &any_values);
    /* Cut the last END_SAMPLE line, put the bad line before it. */
    size_t end_at = n - 1;
    while (end_at > 0 && t[end_at - 1] != '\n') end_at--;
    char last[64];
    size_t last_len = n - end_at;
    memcpy(last, t + end_at, last_len);
    const char *line = bad[k / 2];
    size_t len = bad_len[k / 2];
    memcpy(t + end_at, line, len);
    memcpy(t + end_at + len, last, last_len);
    n = end_at + len + last_len;
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

/* Lines whose first 32 bytes are an empty slot's words (1, then 31 NULs:
 * the slots' guess and hash find such a slot for them), after a label
 * whose guess is that slot (its line was a census's last): no slot takes
 * them, and each gives the line parser's error (the NUL), line and offset,
 * or the line parser's profile. */
static void empty_slots_take_no_line(void **state) {
  (void)state;
  static const char *const tails[] = {"\t5\n", "xy\t5\n", "\n", "\t\n"};
  char *t = malloc(TEXT_CAP);
  assert_non_null(t);
  for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
    size_t n = write_header(t, TEXT_CAP);
    n += (size_t)snprintf(t + n, TEXT_CAP - n,
                          "BEGIN_SAMPLE 1.0\na\t1\nb\t2\nEND_SAMPLE 1.0\n"
                          "BEGIN_SAMPLE 2.0\nb\t2\n");
    t[n++] = 1;
    memset(t + n, 0, 31);
    n += 31;
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "%s", tails[k]);
    for (int i = 0; i < 8;
         i++) /* the line read by the slots, not near the end */
      n += (size_t)snprintf(t + n, TEXT_CAP - n, "a\t%d\n", i);
    n += (size_t)snprintf(t + n, TEXT_CAP - n, "END_SAMPLE 2.0\n");
    hp2x_profile *pw = NULL, *pb = NULL;
    hp2x_err ew, eb;
    hp2x_status sw = read_text(t, n, 0, &pw, &ew);
    hp2x_status sb = read_text(t, n, 1, &pb, &eb);
    assert_int_equal(sw, sb);
    assert_int_not_equal(sw, HP2X_OK); /* a NUL in a label, or no value */
    assert_int_equal(ew.line, eb.line);
    assert_int_equal(ew.line, 11);
    assert_int_equal(ew.offset, eb.offset);
    assert_string_equal(ew.msg, eb.msg);
    hp2x_profile_free(pw);
    hp2x_profile_free(pb);
  }
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(first_tab_finders_agree),
      cmocka_unit_test(fast_paths_read_as_lines),
      cmocka_unit_test(runs_read_as_lines),
      cmocka_unit_test(runs_keep_low_bits),
      cmocka_unit_test(slots_tell_last_bytes_apart),
      cmocka_unit_test(errors_name_the_same_line),
      cmocka_unit_test(empty_slots_take_no_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
