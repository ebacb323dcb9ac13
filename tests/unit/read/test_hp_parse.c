/* test_hp_parse.c -- the .hp front end: real profiles, any chunking gives
 * the same profile, a sweep over every cut point, numbers independent of
 * the locale, allocation failures, and the corpus's edge cases. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "comma_locale.h"

#include "parse_helpers.h"
#include "test_hooks.h"

#include <locale.h>

static size_t count_lines_starting(const unsigned char *b, size_t n,
                                   const char *prefix) {
  size_t count = 0, pl = strlen(prefix);
  for (size_t i = 0; i + pl <= n; i++)
    if ((i == 0 || b[i - 1] == '\n') && !memcmp(b + i, prefix, pl)) count++;
  return count;
}

static void real_profiles_parse(void **state) {
  (void)state;
  const char *names[] = {"leak.hc",    "manycc.hc",    "unicode.hd",
                         "longrun.hT", "textbytes.hb", "markers.hd"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "samples/profiles/%s.hp", names[i]);
    size_t len = 0;
    unsigned char *buf = read_repo_file(rel, &len);
    assert_non_null(buf);
    hp2x_profile *p;
    hp2x_err err;
    assert_int_equal(parse_chunked(buf, len, 0, HP2X_INPUT_AUTO, &p, &err),
                     HP2X_OK);
    assert_int_equal(p->n_samples,
                     count_lines_starting(buf, len, "END_SAMPLE"));
    assert_int_equal(p->n_entries, len ? p->start[p->n_samples] : 0);
    assert_string_equal(p->sample_unit, "seconds");
    assert_string_equal(p->value_unit, "bytes");
    assert_false(p->warn.truncated);
    hp2x_profile_free(p);
    free(buf);
  }
}

/* Samples with the labels of the sample before share its label run; any
 * change of order, set or count gets a run of its own (unless an earlier
 * sample had those labels: label_runs_recurring_shared), and a sample that
 * repeats a label is stored as written.  Values stay per sample. */
static void label_runs_shared_only_when_equal(void **state) {
  (void)state;
  const char *text =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
      "BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
      "BEGIN_SAMPLE 1.0\na\t1\nb\t2\nEND_SAMPLE 1.0\n"
      "BEGIN_SAMPLE 2.0\na\t3\nb\t4\nEND_SAMPLE 2.0\n"   /* shared */
      "BEGIN_SAMPLE 3.0\nb\t5\na\t6\nEND_SAMPLE 3.0\n"   /* reordered */
      "BEGIN_SAMPLE 4.0\nb\t7\nEND_SAMPLE 4.0\n"         /* subset */
      "BEGIN_SAMPLE 5.0\nb\t8\nb\t9\nEND_SAMPLE 5.0\n"   /* repeat */
      "BEGIN_SAMPLE 6.0\nb\t10\nc\t11\nEND_SAMPLE 6.0\n" /* new label */
      "BEGIN_SAMPLE 7.0\nb\t12\nc\t13\nEND_SAMPLE 7.0\n" /* shared */
      "BEGIN_SAMPLE 8.0\nb\t14\nc\t1";                   /* cut */
  static const int64_t want[8][3] = {{0, 0, 0},   {1, 2, 0},  {3, 4, 0},
                                     {6, 5, 0},   {0, 7, 0},  {0, 17, 0},
                                     {0, 10, 11}, {0, 12, 13}};
  for (size_t chunk = 0; chunk <= 7; chunk += 7) {
    hp2x_profile *p;
    hp2x_err err;
    assert_int_equal(parse_chunked((const unsigned char *)text, strlen(text),
                                   chunk, HP2X_INPUT_HP, &p, &err),
                     HP2X_OK);
    assert_int_equal(p->n_samples, 8);
    assert_true(p->warn.truncated);
    for (size_t s = 0; s < 8; s++)
      for (size_t l = 0; l < 3; l++)
        assert_int_equal(hp2x_profile_value(p, s, l), want[s][l]);
    assert_int_equal(p->run_of[2], p->run_of[1]);
    assert_int_equal(p->run_of[7], p->run_of[6]);
    assert_int_not_equal(p->run_of[3], p->run_of[2]);
    /* runs: [a b] [b a] [b] [b b] [b c]; the cut sample's labels dropped */
    assert_int_equal(p->n_run_ids, 9);
    assert_int_equal(profile_entry_label(p, 5, p->start[5] + 1), 1);
    hp2x_profile_free(p);
  }
}

/* A plain profile's sample shares the run of any earlier sample with the
 * same labels in the same order (model.c's run table), not only the one
 * before: GHC lists a census's lines in no fixed order, so a few runs recur
 * in any order.  A profile read for a picture (its runs move as it is
 * thinned) or for --last shares only the run of the sample before. */
static void label_runs_recurring_shared(void **state) {
  (void)state;
  const char *text =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
      "BEGIN_SAMPLE 1.0\na\t1\nb\t2\nEND_SAMPLE 1.0\n"
      "BEGIN_SAMPLE 2.0\nb\t3\na\t4\nEND_SAMPLE 2.0\n"
      "BEGIN_SAMPLE 3.0\na\t5\nb\t6\nEND_SAMPLE 3.0\n" /* as sample 0 */
      "BEGIN_SAMPLE 4.0\nc\t7\nEND_SAMPLE 4.0\n"
      "BEGIN_SAMPLE 5.0\nb\t8\na\t9\nEND_SAMPLE 5.0\n"   /* as sample 1 */
      "BEGIN_SAMPLE 6.0\na\t10\nb\t11\nEND_SAMPLE 6.0\n" /* as sample 0 */
      "BEGIN_SAMPLE 7.0\na\t12\nEND_SAMPLE 7.0\n";
  static const int64_t want[7][3] = {{1, 2, 0}, {4, 3, 0}, {5, 6, 0},
                                     {0, 0, 7}, {9, 8, 0}, {10, 11, 0},
                                     {12, 0, 0}};
  for (int how = 0; how < 3; how++) {
    hp2x_parse_options o;
    hp2x_parse_options_init(&o);
    o.kind = HP2X_INPUT_HP;
    if (how == 1) o.picture_columns = 1000;
    if (how == 2) o.last_s = 100.0;
    hp2x_profile *p = NULL;
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_parser *ps = hp2x_parser_new("t.hp", &o, &err);
    assert_non_null(ps);
    assert_int_equal(hp2x_parser_feed(ps, text, strlen(text), &err), HP2X_OK);
    assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
    hp2x_parser_free(ps);
    assert_int_equal(p->n_samples, 7);
    for (size_t s = 0; s < 7; s++)
      for (size_t l = 0; l < 3; l++)
        assert_int_equal(hp2x_profile_value(p, s, l), want[s][l]);
    if (how == 0) {
      /* runs: [a b] [b a] [c] [a] */
      assert_int_equal(p->run_of[2], p->run_of[0]);
      assert_int_equal(p->run_of[4], p->run_of[1]);
      assert_int_equal(p->run_of[5], p->run_of[0]);
      assert_int_equal(p->n_run_ids, 6);
    } else {
      assert_int_not_equal(p->run_of[2], p->run_of[0]);
      assert_int_not_equal(p->run_of[4], p->run_of[1]);
      assert_true(p->n_run_ids >= 10); /* (a picture's adds its dense run) */
    }
    hp2x_profile_free(p);
  }
}

/* Fuzzer find (tests/fuzz-regress/hp/empty-samples): two empty samples in
 * a row, before any label exists, compared label runs through a NULL
 * pointer (undefined behaviour; UBSan stops there).  They share the empty
 * run. */
static void empty_samples_before_any_label(void **state) {
  (void)state;
  const char *text =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
      "BEGIN_SAMPLE 0.\nEND_SAMPLE 0.\nBEGIN_SAMPLE 3.\nEND_SAMPLE 3.\n"
      "BEGIN_SAMPLE 4.\na\t1\nEND_SAMPLE 4.\n";
  hp2x_profile *p;
  hp2x_err err;
  assert_int_equal(parse_chunked((const unsigned char *)text, strlen(text), 0,
                                 HP2X_INPUT_HP, &p, &err),
                   HP2X_OK);
  assert_int_equal(p->n_samples, 3);
  assert_int_equal(p->run_of[1], p->run_of[0]);
  assert_int_equal(hp2x_profile_value(p, 1, 0), 0);
  assert_int_equal(hp2x_profile_value(p, 2, 0), 1);
  hp2x_profile_free(p);
}

static void spot_values(void **state) {
  (void)state;
  const char *text =
      "JOB \"a \"\"b\"\" c\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
      "VALUE_UNIT \"bytes\"\nMARK 0.5\nBEGIN_SAMPLE 0.010486\n"
      "(1)x y\t36816\nMAIN\t160\nMAIN\t40\nEND_SAMPLE 0.010486\n";
  hp2x_profile *p;
  hp2x_err err;
  assert_int_equal(parse_chunked((const unsigned char *)text, strlen(text), 0,
                                 HP2X_INPUT_HP, &p, &err),
                   HP2X_OK);
  assert_string_equal(p->job, "a \"b\" c");
  assert_true(p->times[0] == 0.010486);
  assert_int_equal(p->n_marks, 1);
  assert_string_equal(hp2x_profile_label(p, 0), "(1)x y");
  assert_int_equal(hp2x_profile_value(p, 0, 1), 200);
  assert_int_equal(p->warn.duplicate_labels, 1);
  assert_int_equal(p->warn.first_duplicate_line, 9);
  hp2x_profile_free(p);
}

/* Values are kept in 32 bits until one does not fit; the one that does not
 * widens them all, and none changes on the way. */
static void wide_values(void **state) {
  (void)state;
  const char *text = "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\n"
                     "VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.1\n"
                     "a\t4294967295\nb\t7\nEND_SAMPLE 0.1\n"
                     "BEGIN_SAMPLE 0.2\na\t4294967296\nb\t9\nEND_SAMPLE 0.2\n"
                     "BEGIN_SAMPLE 0.3\na\t9223372036854775807\nb\t1\n"
                     "END_SAMPLE 0.3\n";
  hp2x_profile *p;
  hp2x_err err;
  size_t len = strlen(text);
  size_t cut = (size_t)(strstr(text, "BEGIN_SAMPLE 0.2") - text);
  assert_int_equal(parse_chunked((const unsigned char *)text, cut, 0,
                                 HP2X_INPUT_HP, &p, &err),
                   HP2X_OK);
  assert_false(p->wide_values);
  assert_int_equal(hp2x_profile_value(p, 0, 0), 4294967295LL);
  hp2x_profile_free(p);
  assert_int_equal(parse_chunked((const unsigned char *)text, len, 7,
                                 HP2X_INPUT_HP, &p, &err),
                   HP2X_OK);
  assert_true(p->wide_values); /* the tail: every value (a small input) */
  assert_null(p->value32);
  static const int64_t want[3][2] = {
      {4294967295LL, 7}, {4294967296LL, 9}, {INT64_MAX, 1}};
  for (size_t s = 0; s < 3; s++)
    for (size_t l = 0; l < 2; l++)
      assert_true(hp2x_profile_value(p, s, l) == want[s][l]);
  hp2x_profile_free(p);
}

static void chunking_never_matters(void **state) {
  (void)state;
  size_t len = 0;
  unsigned char *buf = read_repo_file("samples/profiles/unicode.hc.hp", &len);
  assert_non_null(buf);
  hp2x_profile *whole, *p;
  hp2x_err err;
  assert_int_equal(parse_chunked(buf, len, 0, HP2X_INPUT_AUTO, &whole, &err),
                   HP2X_OK);
  size_t steps[] = {1, 2, 3, 7, 64, 4095};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    assert_int_equal(
        parse_chunked(buf, len, steps[i], HP2X_INPUT_AUTO, &p, &err), HP2X_OK);
    assert_true(same_profile(whole, p));
    hp2x_profile_free(p);
  }
  hp2x_profile_free(whole);
  free(buf);
}

/* Every prefix: no crash; complete samples never decrease; the whole file
 * gives the whole profile. */
/* Every cut of a few small real profiles (closure names, UTF-8 labels,
 * MARK lines, -hb): only a cut header is an error; the complete samples
 * never decrease, are always the whole profile's first ones, and the last
 * cut gives the whole profile. */
static void truncation_sweep(void **state) {
  (void)state;
  const char *files[] = {"mapwave.hm", "unicode.hr", "markers.hm",
                         "markers.hb"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "samples/profiles/%s.hp", files[i]);
    size_t len = 0;
    unsigned char *buf = read_repo_file(rel, &len);
    assert_non_null(buf);
    hp2x_profile *whole, *p;
    hp2x_err err;
    assert_int_equal(parse_chunked(buf, len, 0, HP2X_INPUT_HP, &whole, &err),
                     HP2X_OK);
    size_t last = 0;
    int header_done = 0;
    for (size_t cut = 0; cut <= len; cut++) {
      hp2x_status st = parse_chunked(buf, cut, 0, HP2X_INPUT_HP, &p, &err);
      if (st != HP2X_OK) {
        assert_int_equal(st, HP2X_E_SYNTAX);
        assert_false(header_done); /* only a cut header is an error */
        continue;
      }
      header_done = 1;
      assert_true(p->n_samples >= last);
      assert_true(same_prefix(p, whole));
      last = p->n_samples;
      if (cut == len) {
        assert_false(p->warn.truncated);
        assert_true(same_profile(p, whole));
      }
      hp2x_profile_free(p);
    }
    assert_int_equal(last, count_lines_starting(buf, len, "END_SAMPLE"));
    hp2x_profile_free(whole);
    free(buf);
  }
}

static void numbers_ignore_locale(void **state) {
  (void)state;
  const char *text =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n"
      "BEGIN_SAMPLE 1.250000\nx\t5\nEND_SAMPLE 1.250000\n";
  enter_comma_locale_or_skip();
  hp2x_profile *p;
  hp2x_err err;
  hp2x_status st = parse_chunked((const unsigned char *)text, strlen(text), 0,
                                 HP2X_INPUT_HP, &p, &err);
  setlocale(LC_ALL, "C");
  assert_int_equal(st, HP2X_OK);
  assert_true(p->times[0] == 1.25);
  hp2x_profile_free(p);
}

static void allocation_failures(void **state) {
  (void)state;
  size_t len = 0;
  unsigned char *buf = read_repo_file("samples/profiles/leak.hm.hp", &len);
  assert_non_null(buf);
  for (long n = 1;; n++) {
    hp2x_profile *p;
    hp2x_err err;
    hpx_alloc_fail_at(n);
    hp2x_status st = parse_chunked(buf, len, 333, HP2X_INPUT_AUTO, &p, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      hp2x_profile_free(p);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_true(n < 100000);
  }
  free(buf);
}

static void line_limit(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("x", NULL, &err);
  static char chunk[1 << 20];
  memset(chunk, 'a', sizeof chunk);
  hp2x_status st = hp2x_parser_feed(ps, "JOB \"j\"\n", 8, &err);
  for (int i = 0; i < 20 && st == HP2X_OK; i++)
    st = hp2x_parser_feed(ps, chunk, sizeof chunk, &err);
  assert_int_equal(st, HP2X_E_LIMIT);
  assert_int_equal(err.line, 2);
  hp2x_parser_free(ps);
}

/* Parses text with the given label and sample limits (0 = built-in). */
static hp2x_status parse_limited(const char *text, size_t max_labels,
                                 size_t max_samples, hp2x_err *err) {
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.max_labels = max_labels;
  o.max_samples = max_samples;
  hp2x_err_init(err);
  hp2x_parser *ps = hp2x_parser_new("x", &o, err);
  assert_non_null(ps);
  hp2x_status st = hp2x_parser_feed(ps, text, strlen(text), err);
  hp2x_profile *p = NULL;
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, &p, err);
  hp2x_profile_free(p);
  hp2x_parser_free(ps);
  return st;
}

/* The model's limits are errors at the line that passes them, found by
 * the general line parser and by the fast path for predicted labels. */
static void model_limits_name_the_line(void **state) {
  (void)state;
  const char *text =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
      "BEGIN_SAMPLE 0.0\na\t1\nb\t2\nEND_SAMPLE 0.0\n"        /* 5-8 */
      "BEGIN_SAMPLE 1.0\na\t3\nb\t4\nc\t5\nEND_SAMPLE 1.0\n"  /* 9-13 */
      "BEGIN_SAMPLE 2.0\na\t3\nb\t4\nc\t5\nEND_SAMPLE 2.0\n"; /* 14-18 */
  hp2x_err err;
  assert_int_equal(parse_limited(text, 0, 0, &err), HP2X_OK);
  assert_int_equal(parse_limited(text, 3, 3, &err), HP2X_OK);

  assert_int_equal(parse_limited(text, 2, 0, &err), HP2X_E_LIMIT);
  assert_int_equal(err.line, 12);
  assert_true(err.offset > 0 && !memcmp(text + err.offset, "c\t5\n", 4));
  assert_non_null(strstr(err.msg, "more than 2 distinct labels"));

  assert_int_equal(parse_limited(text, 0, 2, &err), HP2X_E_LIMIT);
  assert_int_equal(err.line, 18);
  assert_true(err.offset > 0 &&
              !memcmp(text + err.offset, "END_SAMPLE 2.0", 14));
  assert_non_null(strstr(err.msg, "more than 2 samples"));
}

/* Parses text whole (the fast paths for entry and sample lines) and a
 * byte a feed (every line through the general line parser). */
static void parse_both(const char *text, hp2x_status want, hp2x_profile **fast,
                       hp2x_profile **slow, hp2x_err *fe, hp2x_err *se) {
  size_t n = strlen(text);
  assert_int_equal(
      parse_chunked((const unsigned char *)text, n, 0, HP2X_INPUT_HP, fast, fe),
      want);
  assert_int_equal(
      parse_chunked((const unsigned char *)text, n, 1, HP2X_INPUT_HP, slow, se),
      want);
}

/* The fast paths read what the line parser reads: censuses in a new order
 * (labels found by their first 8 bytes, some shared), labels holding a TAB
 * or ending in a blank, short labels at the input's end, a label repeated,
 * sample lines not written as GHC writes them (two blanks, a CR, a time
 * of 7 decimals, an END_SAMPLE time written otherwise); and the same error
 * at the same line when an END_SAMPLE's time differs. */
static void fast_paths_read_as_lines(void **state) {
  (void)state;
  const char *text =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"b\"\n"
      "BEGIN_SAMPLE 0.000000\n(100)abcdefgh\t1\n(100)abcdXfgh\t2\n"
      "(101)x\ty\t3\nlong label, more than 8\t4\nEND_SAMPLE 0.000000\n"
      "BEGIN_SAMPLE 1.500000\n(101)x\ty\t5\n(100)abcdXfgh\t6\n"
      "long label, more than 8\t7\n(100)abcdefgh\t8\nEND_SAMPLE 1.5\n"
      "BEGIN_SAMPLE  2.000000\n(100)abcdefgh \t9\n(100)abcdXfgh\t10\n"
      "(100)abcdXfgh\t11\nEND_SAMPLE 2.000000\r\n"
      "BEGIN_SAMPLE 2.0000001\n(100)abcdXfgh\t12\n(100)abcdefgh\t13\n"
      "END_SAMPLE 2.0000001\nBEGIN_SAMPLE 3.250000\nx\t1\ny\t2\n"
      "(100)abcdXfgh\t14\nEND_SAMPLE 3.250000\nBEGIN_SAMPLE 4.000000\n"
      "y\t3\nx\t4\nEND_SAMPLE 4.000000\n";
  hp2x_profile *fast, *slow;
  hp2x_err fe, se;
  parse_both(text, HP2X_OK, &fast, &slow, &fe, &se);
  assert_int_equal(fast->n_samples, 6);
  assert_true(same_profile(fast, slow));
  assert_int_equal(fast->n_labels, slow->n_labels);
  assert_int_equal(fast->warn.duplicate_labels, 1);
  assert_int_equal(slow->warn.duplicate_labels, 1);
  assert_int_equal(fast->warn.first_duplicate_line,
                   slow->warn.first_duplicate_line);
  hp2x_profile_free(fast);
  hp2x_profile_free(slow);

  const char *bad =
      "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"b\"\n"
      "BEGIN_SAMPLE 1.000000\na\t1\nEND_SAMPLE 1.000001\n";
  parse_both(bad, HP2X_E_SYNTAX, &fast, &slow, &fe, &se);
  assert_int_equal(fe.line, 7);
  assert_int_equal(fe.line, se.line);
  assert_int_equal(fe.offset, se.offset);
  assert_string_equal(fe.msg, se.msg);
}

/* Sample times as GHC writes them, of 1 to 13 whole digits (the fast
 * path's one-word read up to 7, its loop past that), leading zeros, and
 * times it leaves to the line parser (a letter among the whole digits, 8
 * digits then a letter, no whole digits, five decimals): whole and a byte
 * a feed, the same times to the bit. */
static void sample_times_read_as_lines(void **state) {
  (void)state;
  static const char *const odd[] = {"0012.500000", "12a.000000", "12345678x.5",
                                    ".5", "99.12345"};
  enum { CAP = 1 << 16 };
  char *t = malloc(CAP);
  assert_non_null(t);
  for (size_t k = 0; k <= sizeof odd / sizeof *odd; k++) {
    size_t n = (size_t)snprintf(
        t, CAP, "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n");
    unsigned long long whole = 0;
    for (unsigned d = 1; d <= 13; d++)
      for (unsigned r = 1; r <= 3; r++) {
        whole = whole * (r == 1 ? 10 : 1) + r;
        char time[40];
        if (k < sizeof odd / sizeof *odd && d == 3 && r == 1)
          snprintf(time, sizeof time, "%s", odd[k]);
        else
          snprintf(time, sizeof time, "%llu.%06u", whole, 137u * d * r);
        n += (size_t)snprintf(t + n, CAP - n,
                              "BEGIN_SAMPLE %s\na\t%u\nEND_SAMPLE %s\n", time,
                              d, time);
      }
    hp2x_profile *fast, *slow;
    hp2x_err fe, se;
    hp2x_status fs = parse_chunked((const unsigned char *)t, n, 0,
                                   HP2X_INPUT_HP, &fast, &fe);
    hp2x_status ss = parse_chunked((const unsigned char *)t, n, 1,
                                   HP2X_INPUT_HP, &slow, &se);
    assert_int_equal(fs, ss);
    if (fs != HP2X_OK) {
      assert_int_equal(fe.line, se.line);
      assert_string_equal(fe.msg, se.msg);
      continue;
    }
    assert_int_equal(fast->n_samples, 39);
    assert_int_equal(slow->n_samples, 39);
    assert_memory_equal(fast->times, slow->times, 39 * sizeof *fast->times);
    hp2x_profile_free(fast);
    hp2x_profile_free(slow);
  }
  free(t);
}

/* A census's END_SAMPLE and the next BEGIN_SAMPLE, read from the entry
 * runs (hp_samples.c's hpx_hp_census_turn) far from the input's end, as
 * the line parser reads them: times of 1 to 9 whole digits, an
 * END_SAMPLE written otherwise than its BEGIN_SAMPLE, a MARK, a blank
 * line or a BEGIN_SAMPLE with two blanks between censuses; and, at a
 * census among the others, an END_SAMPLE of another time, a BEGIN_SAMPLE
 * before the last census's time, an END_SAMPLE with no time: the same
 * error, line, offset and message, whole and a byte a feed. */
static void census_turns_read_as_lines(void **state) {
  (void)state;
  /* census 6's line: its text, its time's whole seconds and the rest
   * after them; which line it replaces (0: none, after the census) */
  static const struct {
    const char *pre;
    int timed;
    const char *post;
    char replaces;
    hp2x_status want;
  } odd[] = {{"", 0, "", 0, HP2X_OK},
             {"END_SAMPLE ", 1, ".5\n", 'E', HP2X_OK},
             {"MARK ", 1, ".75\n", 0, HP2X_OK},
             {"\n", 0, "", 0, HP2X_OK},
             {"BEGIN_SAMPLE  ", 1, ".500000\n", 'B', HP2X_OK},
             {"END_SAMPLE ", 1, ".500001\n", 'E', HP2X_E_SYNTAX},
             {"BEGIN_SAMPLE 1.000000\n", 0, "", 'B', HP2X_E_SYNTAX},
             {"END_SAMPLE\n", 0, "", 'E', HP2X_E_SYNTAX}};
  enum { CAP = 1 << 14, CENSUSES = 12 };
  char *t = malloc(CAP);
  assert_non_null(t);
  for (size_t v = 0; v < sizeof odd / sizeof *odd; v++) {
    size_t n = (size_t)snprintf(
        t, CAP, "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"s\"\nVALUE_UNIT \"b\"\n");
    unsigned long long whole = 0;
    for (unsigned c = 1; c <= CENSUSES; c++) {
      whole = whole * 10 + c % 10; /* 1 to 9 digits, then more */
      char line[64] = "";
      if (c == 6) {
        size_t k = (size_t)snprintf(line, sizeof line, "%s", odd[v].pre);
        if (odd[v].timed)
          snprintf(line + k, sizeof line - k, "%llu%s", whole, odd[v].post);
      }
      char r = c == 6 ? odd[v].replaces : 0;
      if (r == 'B')
        n += (size_t)snprintf(t + n, CAP - n, "%s", line);
      else
        n += (size_t)snprintf(t + n, CAP - n, "BEGIN_SAMPLE %llu.500000\n",
                              whole);
      n += (size_t)snprintf(t + n, CAP - n,
                            "(100)first label\t%u\n(201)second\t%u\n"
                            "(302)third label, longer\t%u\nMAIN\t%u\n",
                            c, 10 * c, 100 * c, 1000 * c);
      if (r == 'E')
        n += (size_t)snprintf(t + n, CAP - n, "%s", line);
      else
        n += (size_t)snprintf(t + n, CAP - n, "END_SAMPLE %llu.500000\n%s",
                              whole, r ? "" : line);
    }
    hp2x_profile *fast = NULL, *slow = NULL;
    hp2x_err fe, se;
    parse_both(t, odd[v].want, &fast, &slow, &fe, &se);
    if (odd[v].want != HP2X_OK) {
      assert_true(fe.line > 20);
      assert_int_equal(fe.line, se.line);
      assert_int_equal(fe.offset, se.offset);
      assert_string_equal(fe.msg, se.msg);
      continue;
    }
    assert_int_equal(fast->n_samples, CENSUSES);
    assert_true(same_profile(fast, slow));
    assert_memory_equal(fast->times, slow->times,
                        CENSUSES * sizeof *fast->times);
    assert_int_equal(fast->n_marks, slow->n_marks);
    hp2x_profile_free(fast);
    hp2x_profile_free(slow);
  }
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(real_profiles_parse),
      cmocka_unit_test(model_limits_name_the_line),
      cmocka_unit_test(spot_values),
      cmocka_unit_test(wide_values),
      cmocka_unit_test(label_runs_shared_only_when_equal),
      cmocka_unit_test(label_runs_recurring_shared),
      cmocka_unit_test(empty_samples_before_any_label),
      cmocka_unit_test(chunking_never_matters),
      cmocka_unit_test(truncation_sweep),
      cmocka_unit_test(numbers_ignore_locale),
      cmocka_unit_test(allocation_failures),
      cmocka_unit_test(line_limit),
      cmocka_unit_test(fast_paths_read_as_lines),
      cmocka_unit_test(sample_times_read_as_lines),
      cmocka_unit_test(census_turns_read_as_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
