/* test_eventlog_parse.c -- the eventlog front end: the malformed table
 * (cases.tsv) and the cut-short table (cuts.tsv) read at run time, any
 * chunking gives the same profile, a sweep over every cut point, stack
 * labels cut like +RTS -L, a stream joined mid-run, allocation failures,
 * headers read a step at a time from a feed that holds more. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "test_hooks.h"

static hp2x_status parse_file(const char *rel, size_t step, int ccs,
                              hp2x_profile **p, hp2x_err *err) {
  size_t len = 0;
  unsigned char *buf = read_repo_file(rel, &len);
  assert_non_null(buf);
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.ccs_length = ccs;
  hp2x_err_init(err);
  hp2x_parser *ps = hp2x_parser_new(rel, &o, err);
  *p = NULL;
  if (!ps) {
    free(buf);
    return err->code;
  }
  hp2x_status st = HP2X_OK;
  for (size_t pos = 0; st == HP2X_OK && pos < len;) {
    size_t k = step && step < len - pos ? step : len - pos;
    st = hp2x_parser_feed(ps, buf + pos, k, err);
    pos += k;
  }
  *p = NULL;
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, p, err);
  hp2x_parser_free(ps);
  free(buf);
  return st;
}

/* Every eventlog row of tests/data/malformed/cases.tsv. */
static void malformed_table(void **state) {
  (void)state;
  char *tsv = read_repo_text("tests/data/malformed/cases.tsv");
  assert_non_null(tsv);
  int rows = 0;
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    char file[128], expected[64];
    if (sscanf(line, "%127[^\t]\t%63[^\t]", file, expected) != 2) continue;
    if (!strstr(file, ".eventlog")) continue;
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/malformed/%s", file);
    hp2x_profile *p;
    hp2x_err err;
    hp2x_status st = parse_file(rel, 0, 0, &p, &err);
    rows++;
    if (!strncmp(expected, "accept", 6)) {
      if (st != HP2X_OK) print_message("%s: %s\n", file, err.msg);
      assert_int_equal(st, HP2X_OK);
      if (strstr(expected, "same samples as small-valid-hc")) {
        hp2x_profile *base;
        assert_int_equal(
            parse_file("tests/data/malformed/small-valid-hc.eventlog", 0, 0,
                       &base, &err),
            HP2X_OK);
        assert_true(same_profile(base, p));
        hp2x_profile_free(base);
      }
    } else if (!strncmp(expected, "recover", 7)) {
      /* a corrupt event inside the data: small-valid-hc's samples but the
       * census it is in, one corrupt stretch reported */
      if (st != HP2X_OK) print_message("%s: %s\n", file, err.msg);
      assert_int_equal(st, HP2X_OK);
      hp2x_profile *base;
      assert_int_equal(
          parse_file("tests/data/malformed/small-valid-hc.eventlog", 0, 0,
                     &base, &err),
          HP2X_OK);
      size_t lost = 0;
      assert_true(same_but_one(p, base, &lost));
      const hp2x_warnings *w = hp2x_profile_warnings(p);
      assert_int_equal(w->corrupt_regions, 1);
      assert_int_equal(w->censuses_lost, 1);
      assert_true(w->first_lost_census_s == base->times[lost]);
      assert_true(w->corrupt_from > 0 && w->corrupt_to > w->corrupt_from);
      assert_false(p->warn.truncated);
      /* any chunking resumes at the same place */
      for (size_t step = 1; step < 40; step += 6) {
        hp2x_profile *q;
        assert_int_equal(parse_file(rel, step, 0, &q, &err), HP2X_OK);
        assert_true(same_profile(p, q));
        assert_int_equal(q->warn.corrupt_to, w->corrupt_to);
        hp2x_profile_free(q);
      }
      hp2x_profile_free(base);
    } else if (!strcmp(expected, "reject") ||
               !strncmp(expected, "reject at", 9)) {
      assert_int_not_equal(st, HP2X_OK);
      assert_true(err.offset >= 0); /* a byte offset, always */
      if (strstr(expected, "byte 0")) assert_int_equal(err.offset, 0);
    } else if (st == HP2X_OK) { /* "reject or warn": a warning then */
      assert_true(p->warn.unknown_cost_centres || p->warn.truncated ||
                  p->warn.duplicate_labels);
    }
    hp2x_profile_free(p);
  }
  free(tsv);
  assert_true(rows >= 15);
}

/* tests/data/incomplete/cuts.tsv: complete samples of each cut eventlog. */
static void cut_table(void **state) {
  (void)state;
  char *tsv = read_repo_text("tests/data/incomplete/cuts.tsv");
  assert_non_null(tsv);
  int rows = 0;
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    char file[128], source[128];
    long offset, left;
    if (sscanf(line, "%127[^\t]\t%127[^\t]\t%ld\t%ld", file, source, &offset,
               &left) != 4 ||
        !strstr(file, ".eventlog"))
      continue;
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/incomplete/%s", file);
    hp2x_profile *p;
    hp2x_err err;
    hp2x_status st = parse_file(rel, 4093, 25, &p, &err);
    rows++;
    if (strstr(line, "header incomplete") || offset <= 2684) {
      if (offset < 2688) {
        assert_int_not_equal(st, HP2X_OK);
        continue;
      }
    }
    if (st == HP2X_E_NO_PROFILE) { /* cut before HEAP_PROF_BEGIN */
      assert_int_equal(left, 0);
      assert_non_null(strstr(err.msg, "no heap profile"));
      continue;
    }
    assert_int_equal(st, HP2X_OK);
    assert_int_equal((long)p->n_samples, left);
    assert_true(p->warn.truncated);
    hp2x_profile_free(p);
  }
  free(tsv);
  assert_true(rows >= 8);
}

/* Parses rel whole with label and sample limits; the event type at the
 * error's offset in *type (-1 if none). */
static hp2x_status parse_limited(const char *rel, size_t max_labels,
                                 size_t max_samples, hp2x_err *err, int *type) {
  size_t len = 0;
  unsigned char *buf = read_repo_file(rel, &len);
  assert_non_null(buf);
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.max_labels = max_labels;
  o.max_samples = max_samples;
  hp2x_err_init(err);
  hp2x_parser *ps = hp2x_parser_new(rel, &o, err);
  assert_non_null(ps);
  hp2x_status st = hp2x_parser_feed(ps, buf, len, err);
  hp2x_profile *p = NULL;
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, &p, err);
  *type = err->offset >= 0 && (size_t)err->offset + 2 <= len
              ? buf[err->offset] << 8 | buf[err->offset + 1]
              : -1;
  hp2x_profile_free(p);
  hp2x_parser_free(ps);
  free(buf);
  return st;
}

/* The model's limits are errors at the event that passes them. */
static void model_limits_name_the_event(void **state) {
  (void)state;
  const char *rel = "tests/data/malformed/small-valid-hc.eventlog";
  hp2x_profile *whole;
  hp2x_err err;
  int type;
  assert_int_equal(parse_file(rel, 0, 0, &whole, &err), HP2X_OK);
  size_t labels = whole->n_labels, samples = whole->n_samples;
  hp2x_profile_free(whole);
  assert_true(labels > 1 && samples > 1);
  assert_int_equal(parse_limited(rel, labels, samples, &err, &type), HP2X_OK);

  assert_int_equal(parse_limited(rel, labels - 1, 0, &err, &type),
                   HP2X_E_LIMIT);
  assert_int_equal(type, 163); /* HEAP_PROF_SAMPLE_COST_CENTRE */
  assert_non_null(strstr(err.msg, "distinct labels"));

  assert_int_equal(parse_limited(rel, 0, samples - 1, &err, &type),
                   HP2X_E_LIMIT);
  assert_true(type == 165 || type == 162); /* the sample's END, or BEGIN */
  assert_non_null(strstr(err.msg, "samples"));
}

/* Feeds an eventlog header declaring one event type, `type`, `size`
 * bytes long, up to "datb": the status of the feed. */
static hp2x_status feed_declaring(unsigned type, int size, hp2x_err *err) {
  unsigned char h[40];
  size_t n = 0;
  memcpy(h + n, "hdrbhetbetb", 12); /* with etb's NUL */
  n += 12;
  h[n++] = (unsigned char)(type >> 8);
  h[n++] = (unsigned char)type;
  h[n++] = (unsigned char)((unsigned)size >> 8);
  h[n++] = (unsigned char)size;
  memset(h + n, 0, 8); /* no description, no extra info */
  n += 8;
  memcpy(h + n, "ete\0hetehdredatb", 16);
  n += 16;
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  hp2x_err_init(err);
  hp2x_parser *ps = hp2x_parser_new("declared.eventlog", &o, err);
  assert_non_null(ps);
  hp2x_status st = hp2x_parser_feed(ps, h, n, err);
  hp2x_parser_free(ps);
  return st;
}

/* The header's size rule (eventlog_events.c's event_kinds): a fixed-size
 * type hp2x reads may be declared at most 1024 bytes long; a
 * variable-size one it reads, or a type it skips, any size. */
static void declared_sizes(void **state) {
  (void)state;
  hp2x_err err;
  assert_int_equal(feed_declaring(162, 1024, &err), HP2X_OK);
  assert_int_not_equal(feed_declaring(162, 1025, &err), HP2X_OK);
  assert_non_null(strstr(err.msg, "event type 162 is declared 1025 bytes "
                                  "long"));
  assert_non_null(strstr(err.msg, "at most 1024 accepted"));
  assert_int_not_equal(feed_declaring(18, 2000, &err), HP2X_OK);
  assert_int_equal(feed_declaring(163, 2000, &err), HP2X_OK);
  assert_int_equal(feed_declaring(230, 2000, &err), HP2X_OK);
  assert_int_equal(feed_declaring(7, 2000, &err), HP2X_OK);
}

/* A copy of the eventlog buf[0..len) whose header declares `extra` more
 * event types (ids 60000 on, of no size, described by `desc` bytes each),
 * put before its own: the header grows past the steps its bytes are
 * copied in (16 KiB, doubling), or past its 4 MiB limit.  *out_len is the
 * copy's length. */
static unsigned char *padded_header(const unsigned char *buf, size_t len,
                                    size_t extra, size_t desc,
                                    size_t *out_len) {
  size_t one = 4 + 8 + desc + 4 + 4;
  unsigned char *o = malloc(len + extra * one);
  assert_non_null(o);
  assert_true(len > 8 && memcmp(buf + 4, "hetb", 4) == 0);
  memcpy(o, buf, 8); /* "hdrb" "hetb" */
  size_t n = 8;
  for (size_t i = 0; i < extra; i++) {
    unsigned id = 60000 + (unsigned)i;
    memcpy(o + n, "etb", 4); /* with its NUL */
    unsigned char f[8] = {(unsigned char)(id >> 8),
                          (unsigned char)id,
                          0,
                          0,
                          (unsigned char)(desc >> 24),
                          (unsigned char)(desc >> 16),
                          (unsigned char)(desc >> 8),
                          (unsigned char)desc};
    memcpy(o + n + 4, f, 8);
    memset(o + n + 12, 'd', desc);
    memset(o + n + 12 + desc, 0, 4); /* no extra info */
    memcpy(o + n + 16 + desc, "ete", 4);
    n += one;
  }
  memcpy(o + n, buf + 8, len - 8);
  *out_len = n + len - 8;
  return o;
}

/* The header is copied and parsed a step at a time when a feed holds
 * more (a whole file read at once): headers ending on either side of a step's
 * edge read the same profile whole as in chunks and as without the
 * padding; one past 4 MiB fails at its limit, whole and in chunks. */
static void header_steps(void **state) {
  (void)state;
  const char *rel = "tests/data/eventlogs/ghc92-hc.eventlog";
  size_t len;
  unsigned char *buf = read_repo_file(rel, &len);
  assert_non_null(buf);
  hp2x_profile *plain;
  hp2x_err err;
  assert_int_equal(
      parse_chunked(buf, len, 0, HP2X_INPUT_EVENTLOG, &plain, &err), HP2X_OK);
  assert_true(plain->n_samples > 1);
  /* (types, description): headers of about 16, 32 and 64 KiB, each
   * nudged across the edge, and one of 48 KiB */
  static const size_t pads[][2] = {{16, 1000}, {16, 1010}, {16, 1020},
                                   {32, 1000}, {32, 1010}, {32, 1020},
                                   {64, 1000}, {64, 1020}, {48, 1000}};
  static const size_t steps[] = {0, 4096, 16384, 70000};
  for (size_t i = 0; i < sizeof pads / sizeof *pads; i++)
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
      size_t n;
      unsigned char *pad = padded_header(buf, len, pads[i][0], pads[i][1], &n);
      hp2x_profile *p;
      hp2x_status st =
          parse_chunked(pad, n, steps[k], HP2X_INPUT_EVENTLOG, &p, &err);
      if (st != HP2X_OK) print_message("%zu/%zu: %s\n", i, k, err.msg);
      assert_int_equal(st, HP2X_OK);
      assert_true(same_profile(p, plain));
      hp2x_profile_free(p);
      free(pad);
    }
  /* 4,300 types of 1,000 bytes: past 4 MiB before "hete" */
  size_t n;
  unsigned char *pad = padded_header(buf, len, 4300, 1000, &n);
  static const size_t big_steps[] = {0, (size_t)1 << 20, 3000000};
  for (size_t k = 0; k < sizeof big_steps / sizeof *big_steps; k++) {
    hp2x_profile *p;
    assert_int_equal(
        parse_chunked(pad, n, big_steps[k], HP2X_INPUT_EVENTLOG, &p, &err),
        HP2X_E_SYNTAX);
    assert_non_null(strstr(err.msg, "eventlog header larger than 4 MiB"));
    assert_int_equal(err.offset, 4194304);
  }
  free(pad);
  hp2x_profile_free(plain);
  free(buf);
}

/* -hi fixtures: each address named by its IPE event, before or after the
 * samples, whatever the chunking; an address without one keeps it; two
 * with the same description show their address; .hp names stay. */
static void ipe_names(void **state) {
  (void)state;
  static const char *const want[][2] = {
      {"0x4c8e48", "Just libraries/base/GHC/Maybe.hs:29:5-8"},
      {"0x4c8e70", "thunk in build prog.hs:12:3-40"},
      {"0x4d0000", "0x4d0000"},
      {"0x4d1130", "Tip in Data.Set.Internal 0x4d1130"},
      {"0x4d1158", "Tip in Data.Set.Internal 0x4d1158"},
  };
  const char *files[] = {"tests/data/eventlogs/ghc92-hi.eventlog",
                         "tests/data/eventlogs/ghc92-hi-ipe-after.eventlog",
                         "tests/data/eventlogs/ghc910-hi.eventlog",
                         "tests/data/eventlogs/ghc910-hi-ipe-after.eventlog"};
  size_t steps[] = {0, 1, 7, 64};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++)
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
      hp2x_profile *p;
      hp2x_err err;
      assert_int_equal(parse_file(files[f], steps[i], 0, &p, &err), HP2X_OK);
      assert_int_equal(hp2x_profile_label_count(p), 5);
      assert_int_equal(hp2x_profile_breakdown(p), 8);
      for (size_t k = 0; k < 5; k++) {
        size_t len;
        const char *hp = profile_hp_name(&p->labels[k], &len);
        assert_true(len == strlen(want[k][0]) && !memcmp(hp, want[k][0], len));
        assert_string_equal(hp2x_profile_label(p, k), want[k][1]);
      }
      hp2x_profile_free(p);
    }
}

/* Real -hi eventlogs of GHC 9.6.6 and 9.10.3, whose IPE events declare one
 * byte more than they hold: read whole and in any chunking alike (an IPE
 * event gathered across feeds gives its last byte back to the next event),
 * and the program's own bands named by their IPE events. */
static void real_ipe_events(void **state) {
  (void)state;
  const char *files[] = {
      "tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.eventlog",
      "tests/data/ghc-modern/ghc-9.10.3/markers.ipehi.eventlog"};
  size_t steps[] = {1, 3, 7, 4093};
  for (size_t f = 0; f < 2; f++) {
    hp2x_profile *whole, *p;
    hp2x_err err;
    assert_int_equal(parse_file(files[f], 0, 0, &whole, &err), HP2X_OK);
    assert_int_equal(hp2x_profile_breakdown(whole), 8);
    assert_false(whole->warn.truncated);
    assert_true(whole->n_samples > 10);
    size_t named = 0;
    for (size_t k = 0; k < whole->n_labels; k++) {
      size_t len;
      const char *hp = profile_hp_name(&whole->labels[k], &len);
      const char *shown = hp2x_profile_label(whole, k);
      named += strlen(shown) != len || memcmp(shown, hp, len) != 0;
    }
    assert_true(named >= 5); /* 8 of 63 and 10 of 25 (library tables have
                                no IPE record) */
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
      assert_int_equal(parse_file(files[f], steps[i], 0, &p, &err), HP2X_OK);
      assert_true(same_profile(whole, p));
      hp2x_profile_free(p);
    }
    hp2x_profile_free(whole);
  }
}

/* GHC 9.10.3 wrote this -hc eventlog corrupt: a time-profiling tick (167,
 * 29 bytes) splits a HEAP_PROF_SAMPLE_COST_CENTRE at byte 95146, whose rest
 * then reads as a size of 20912; events are regular again from 95201.
 * Only that census is lost, with the same result for any chunking; a cut
 * before the fault is a cut-short file, a cut before enough plausible
 * events follow it an error at the fault, a cut after them a cut-short file
 * without that census. */
static void corrupt_as_written(void **state) {
  (void)state;
  const char *rel = "tests/data/ghc-modern/ghc-9.10.3/markers.hc.eventlog";
  hp2x_profile *whole, *p;
  hp2x_err err;
  assert_int_equal(parse_file(rel, 0, 0, &whole, &err), HP2X_OK);
  const hp2x_warnings *w = hp2x_profile_warnings(whole);
  assert_int_equal(w->corrupt_regions, 1);
  assert_int_equal(w->corrupt_from, 95146);
  assert_int_equal(w->corrupt_to, 95201);
  assert_int_equal(w->censuses_lost, 1);
  assert_false(w->truncated);
  assert_int_equal(whole->n_samples, 35);
  size_t steps[] = {1, 2, 5, 31, 4093, 65536};
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
    assert_int_equal(parse_file(rel, steps[i], 0, &p, &err), HP2X_OK);
    assert_true(same_profile(whole, p));
    assert_int_equal(p->warn.corrupt_to, 95201);
    hp2x_profile_free(p);
  }
  size_t len = 0;
  unsigned char *buf = read_repo_file(rel, &len);
  for (size_t cut = 95100; cut <= 95600; cut++) {
    hp2x_status st = parse_chunked(buf, cut, 0, HP2X_INPUT_EVENTLOG, &p, &err);
    if (cut > 95146 && cut < 95450) {
      /* too little readable after the fault: rejected at it (resumed once
       * two events frame exactly up to the cut, or four follow) */
      if (st != HP2X_OK) {
        assert_int_equal(err.offset, 95146);
        continue;
      }
    }
    assert_int_equal(st, HP2X_OK);
    assert_true(same_prefix(p, whole));
    assert_true(p->warn.truncated);
    hp2x_profile_free(p);
  }
  /* A size misread where nothing else is wrong: the time-profiling tick at
   * 59990 (type 167, variable, 17 bytes) made to claim 17425, which
   * swallows three censuses; the event it lands on is timed far off, and
   * the search from inside the tick finds every census again. */
  static const unsigned char tick[] = {0x00, 0xa7};
  assert_memory_equal(buf + 59990, tick, 2);
  assert_int_equal(buf[59990 + 10] << 8 | buf[59990 + 11], 17);
  buf[59990 + 10] = 0x44;
  size_t csteps[] = {0, 1, 7, 4093};
  for (size_t i = 0; i < sizeof csteps / sizeof *csteps; i++) {
    assert_int_equal(
        parse_chunked(buf, len, csteps[i], HP2X_INPUT_EVENTLOG, &p, &err),
        HP2X_OK);
    assert_true(same_profile(whole, p));
    assert_int_equal(p->warn.corrupt_regions, 2);
    assert_int_equal(p->warn.corrupt_from, 59990);
    assert_int_equal(p->warn.corrupt_to, 59990 + 12 + 17);
    assert_int_equal(p->warn.censuses_lost, 1);
    hp2x_profile_free(p);
  }
  free(buf);
  hp2x_profile_free(whole);
}

static void chunking_and_sweep(void **state) {
  (void)state;
  const char *rel = "tests/data/malformed/small-valid-hc.eventlog";
  hp2x_profile *whole, *p;
  hp2x_err err;
  assert_int_equal(parse_file(rel, 0, 0, &whole, &err), HP2X_OK);
  size_t steps[] = {1, 2, 3, 11, 500};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
    assert_int_equal(parse_file(rel, steps[i], 0, &p, &err), HP2X_OK);
    assert_true(same_profile(whole, p));
    hp2x_profile_free(p);
  }
  hp2x_profile_free(whole);
  /* Every cut of two small real eventlogs (-hc stacks, -hd strings) and
   * GHC 9.2- and 9.10-layout fixtures (its ending, IPE events last): only
   * a cut header is an error; the complete samples never decrease, are
   * the whole profile's first ones, and the last cut gives it all. */
  const char *sweep[] = {rel, "tests/data/malformed/small-valid-hd.eventlog",
                         "tests/data/eventlogs/ghc92-hc.eventlog",
                         "tests/data/eventlogs/ghc92-hi-ipe-after.eventlog",
                         "tests/data/eventlogs/ghc910-hi-ipe-after.eventlog"};
  for (size_t i = 0; i < sizeof sweep / sizeof sweep[0]; i++) {
    assert_int_equal(parse_file(sweep[i], 0, 0, &whole, &err), HP2X_OK);
    size_t len = 0;
    unsigned char *buf = read_repo_file(sweep[i], &len);
    size_t last = 0;
    for (size_t cut = 0; cut <= len; cut += 1) {
      hp2x_status st =
          parse_chunked(buf, cut, 0, HP2X_INPUT_EVENTLOG, &p, &err);
      if (st != HP2X_OK) {
        /* only a cut header, or a cut before the profile begins */
        assert_true(err.offset >= 0 || st == HP2X_E_NO_PROFILE);
        assert_true(last == 0);
        continue;
      }
      assert_true(p->n_samples >= last);
      assert_true(same_prefix(p, whole));
      last = p->n_samples;
      assert_int_equal(p->warn.truncated, cut < len);
      if (cut == len) assert_true(same_profile(p, whole));
      hp2x_profile_free(p);
    }
    assert_int_equal(last, whole->n_samples);
    free(buf);
    hp2x_profile_free(whole);
  }
}

/* -hc labels: whole stacks by default; --ccs-length cuts like -L; the .hp
 * of the same run has the same labels after its (id) prefix. */
static void stack_labels(void **state) {
  (void)state;
  hp2x_profile *full, *cut;
  hp2x_err err;
  assert_int_equal(
      parse_file("samples/profiles/manycc.hc.eventlog", 0, 0, &full, &err),
      HP2X_OK);
  assert_int_equal(
      parse_file("samples/profiles/manycc.hc.eventlog", 0, 25, &cut, &err),
      HP2X_OK);
  assert_int_equal(full->n_labels, cut->n_labels); /* stacks stay apart */
  size_t longer = 0;
  for (size_t i = 0; i < cut->n_labels; i++) {
    size_t n = cut->labels[i].name_len;
    assert_true(n <= 25);
    if (n == 24) assert_memory_equal(cut->labels[i].name + 21, "...", 3);
    longer += full->labels[i].name_len > 24;
  }
  assert_true(longer > 10);
  assert_string_equal(full->job, "manycc 2000 700 +RTS -hc -l -i0.01");
  assert_int_equal(full->breakdown, 1);
  hp2x_profile_free(full);
  hp2x_profile_free(cut);
  hp2x_profile *m;
  assert_int_equal(
      parse_file("samples/profiles/markers.hc.eventlog", 0, 0, &m, &err),
      HP2X_OK);
  assert_int_equal(m->n_marks, 19); /* traceMarker events */
  assert_true(m->heap[HPX_HEAP_SIZE].n > 0 && m->heap[HPX_HEAP_LIVE].n > 0);
  hp2x_profile_free(m);
}

/* A stream a client joined mid-run (tests/data/live: GHC 9.6.6, logging
 * restarted for it): no HEAP_PROF_BEGIN, its first census at byte 3345 and
 * ending at 5306, 8 censuses in all.  Its censuses begin the profile, in
 * any chunking; its breakdown is not in it.  Cut before its first census it
 * holds no heap profile; after, the censuses whole before the cut.  Entries
 * outside a census are still an error. */
static void mid_run_stream(void **state) {
  (void)state;
  size_t len = 0;
  unsigned char *buf =
      read_repo_file("tests/data/live/ghc9.6.6-longrun.mid-run.eventlog", &len);
  assert_non_null(buf);
  const size_t first = 3345, first_end = 5306;
  if (len <= first_end) fail(); /* (gcc 14 then knows the copies fit) */
  assert_int_equal(buf[first] << 8 | buf[first + 1], 162); /* SAMPLE_BEGIN */
  hp2x_profile *whole;
  hp2x_err err;
  assert_int_equal(
      parse_chunked(buf, len, 0, HP2X_INPUT_EVENTLOG, &whole, &err), HP2X_OK);
  assert_int_equal(whole->n_samples, 8);
  assert_true(whole->heap_profile && whole->began_mid_run);
  assert_int_equal(whole->breakdown, 0);
  assert_int_equal(whole->interval_ns, 0);
  assert_string_equal(profile_breakdown_words(whole),
                      "breakdown not in stream");
  /* ... but its program's arguments say it (longrun ... +RTS -hT ...). */
  assert_int_equal(hp2x_profile_breakdown(whole), HP2X_BREAKDOWN_CLOSURE_TYPE);
  assert_true(hp2x_profile_has_heap_profile(whole));
  assert_string_equal(whole->job, "longrun");
  assert_true(whole->times[0] > 1.0); /* the runtime's clock: not 0 */
  for (size_t step = 1; step < 5000; step = step * 3 + 1) {
    hp2x_profile *q;
    assert_int_equal(
        parse_chunked(buf, len, step, HP2X_INPUT_EVENTLOG, &q, &err), HP2X_OK);
    assert_true(same_profile(whole, q));
    assert_true(q->began_mid_run);
    hp2x_profile_free(q);
  }
  size_t last_n = 0;
  for (size_t cut = 1; cut < len; cut += cut < first_end + 200 ? 1 : 97) {
    hp2x_profile *q;
    hp2x_status st =
        parse_chunked(buf, cut, 4093, HP2X_INPUT_EVENTLOG, &q, &err);
    if (cut < first + 18) { /* no whole census begin event yet */
      if (cut >= 3092)      /* past the header */
        assert_int_equal(st, HP2X_E_NO_PROFILE);
      else
        assert_int_not_equal(st, HP2X_OK);
      continue;
    }
    assert_int_equal(st, HP2X_OK);
    assert_true(q->began_mid_run && q->warn.truncated);
    if (cut < first_end) assert_int_equal(q->n_samples, 0);
    if (cut == first_end) assert_int_equal(q->n_samples, 1);
    assert_true(q->n_samples >= last_n);
    last_n = q->n_samples;
    assert_true(same_prefix(q, whole));
    hp2x_profile_free(q);
  }
  assert_int_equal(last_n, 8);
  /* Without its first census's begin event, that census's entries are
   * outside any sample: still an error, at the first of them. */
  unsigned char *cut = malloc(len);
  assert_non_null(cut);
  memcpy(cut, buf, first);
  memcpy(cut + first, buf + first + 18, len - first - 18);
  hp2x_profile *q;
  assert_int_equal(
      parse_chunked(cut, len - 18, 0, HP2X_INPUT_EVENTLOG, &q, &err),
      HP2X_E_SYNTAX);
  assert_int_equal(err.offset, (long long)first);
  assert_non_null(strstr(err.msg, "outside any heap sample"));
  free(cut);
  /* The same program's stream from its start has the breakdown. */
  hp2x_profile *start;
  assert_int_equal(
      parse_file("tests/data/live/ghc9.6.6-longrun.from-start.eventlog", 0, 0,
                 &start, &err),
      HP2X_OK);
  assert_false(start->began_mid_run);
  assert_int_equal(start->breakdown, HP2X_BREAKDOWN_CLOSURE_TYPE);
  assert_string_equal(profile_breakdown_words(start), "by closure type, -hT");
  hp2x_profile_free(start);
  hp2x_profile_free(whole);
  free(buf);
}

static void allocation_failures(void **state) {
  (void)state;
  for (long n = 1;; n++) {
    hp2x_profile *p;
    hp2x_err err;
    hpx_alloc_fail_at(n);
    hp2x_status st = parse_file("tests/data/malformed/small-valid-hc.eventlog",
                                97, 25, &p, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      hp2x_profile_free(p);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_true(n < 100000);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(malformed_table),
      cmocka_unit_test(cut_table),
      cmocka_unit_test(chunking_and_sweep),
      cmocka_unit_test(ipe_names),
      cmocka_unit_test(real_ipe_events),
      cmocka_unit_test(corrupt_as_written),
      cmocka_unit_test(model_limits_name_the_event),
      cmocka_unit_test(declared_sizes),
      cmocka_unit_test(header_steps),
      cmocka_unit_test(stack_labels),
      cmocka_unit_test(mid_run_stream),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
