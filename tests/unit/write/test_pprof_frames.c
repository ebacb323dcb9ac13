/* test_pprof_frames.c -- write/pprof_frames.c: the frames of each kind of
 * label in hp2x_write_pprof's profile, decoded again with protobuf-c
 * (tests/unit/pprof_fixture.h).  Real GHC 9.6/9.10 runs of
 * samples/programs/deepcc.hs: an eventlog's -hc stacks whole (frames,
 * source lines against the program's own source, a cost centre named
 * with '/'), the .hp's cut labels (ccs_id, cut), -hd's and -hT's
 * qualified names, -hi's tables with file and line under their module,
 * -he's eras; hostile labels (bytes that are not UTF-8, 5,000 bytes, 255
 * frames deep); source spans' lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "parse_helpers.h"
#include "test_hooks.h"
#include "write/pprof_int.h"

#include "pprof.pb-c.h"

#include <zlib.h>

#include "pprof_fixture.h"

/* An eventlog's -hc stacks, whole: each sample's frames are its label's
 * stack (stack_id names the label; the label is the stack as the .hp
 * writes it, frames joined by '/'), as deep as the runtime made them,
 * each depthNN frame
 * at deepcc.hs's line of its equation, the cost centre "parse/json" one
 * frame at its SCC; the total is the census's.  GHC 9.6 and 9.10. */
static void hc_eventlog_stacks(void **state) {
  (void)state;
  char *src = read_repo_text("samples/programs/deepcc.hs");
  assert_non_null(src);
  const char *runs[] = {"tests/data/pprof/ghc-9.6.6/deepcc.hc.eventlog.gz",
                        "tests/data/pprof/ghc-9.10.3/deepcc.hc.eventlog.gz"};
  for (size_t r = 0; r < 2; r++) {
    hp2x_profile *p = parse_file(runs[r]);
    size_t s = peak_of(p);
    HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
    check_head(pr, census_total(p, s));
    assert_true(p->has_wall_clock && pr->time_nanos > 1600000000000000000);
    size_t deepest = 0, json = 0, lines = 0;
    for (size_t k = 0; k < pr->n_sample; k++) {
      char text[4096];
      frames_text(pr, k, '/', text, sizeof text);
      int64_t id = num_label(pr, k, "stack_id");
      assert_true(id >= 0 && (size_t)id < p->n_labels);
      assert_string_equal(text, p->labels[id].name);
      assert_true(num_label(pr, k, "census_time") ==
                  (int64_t)(p->times[s] * 1e9 + 0.5));
      assert_true(pr->sample[k]->value[0] == hp2x_profile_value(p, s, id));
      const HpxPprof__Sample *sm = pr->sample[k];
      if (sm->n_location_id > deepest) deepest = sm->n_location_id;
      for (size_t i = 0; i < sm->n_location_id; i++) {
        const HpxPprof__Function *f = fn_at(pr, sm->location_id[i]);
        const char *name = str(pr, f->name);
        char want[64];
        if (!strncmp(name, "depth", 5) && strlen(name) == 7) {
          snprintf(want, sizeof want, "%s s = do", name);
          assert_int_equal(f->start_line, source_line(src, want));
          assert_string_equal(str(pr, f->filename), "deepcc.hs");
          snprintf(want, sizeof want, "Main.%s", name);
          assert_string_equal(str(pr, f->system_name), want);
          lines++;
        }
        if (!strcmp(name, "parse/json")) {
          json++;
          assert_int_equal(f->start_line,
                           source_line(src, "  xs <- {-# SCC \"parse/json\""));
        }
      }
    }
    /* 45 frames under 9.6; 9.10's -fprof-auto adds a cost centre for each
     * link's do-block continuation, a lambda (depth39.\): 86 */
    assert_int_equal(deepest, r == 0 ? 45 : 86);
    /* one stack passes through the SCC: depth 20's own list */
    if (json != 1 || lines < 500) fail_msg("json %zu lines %zu", json, lines);
    hpx_pprof__profile__free_unpacked(pr, NULL);
    hp2x_profile_free(p);
  }
  free(src);
}

/* The .hp of a -hc run: labels cut near 25 bytes by the runtime's -L,
 * each "(N)" kept as ccs_id, split at '/', a cut one marked; the total is
 * the census's. */
static void hc_hp_labels(void **state) {
  (void)state;
  hp2x_profile *p = parse_file("tests/data/pprof/ghc-9.10.3/deepcc.hc.hp.gz");
  assert_int_equal(hp2x_profile_breakdown(p), HP2X_BREAKDOWN_COST_CENTRE);
  size_t s = peak_of(p);
  HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
  check_head(pr, census_total(p, s));
  assert_int_equal(pr->time_nanos, 0); /* a .hp's DATE has no zone */
  size_t cut = 0;
  for (size_t k = 0; k < pr->n_sample; k++) {
    char text[4096], want[4096];
    frames_text(pr, k, '/', text, sizeof text);
    int64_t n = num_label(pr, k, "ccs_id");
    size_t found = p->n_labels;
    for (size_t l = 0; l < p->n_labels; l++) {
      int len = snprintf(want, sizeof want, "(%lld)", (long long)n);
      if (!strncmp(p->labels[l].name, want, (size_t)len) &&
          !strcmp(p->labels[l].name + len, text))
        found = l;
    }
    if (!strcmp(text, "MAIN")) continue; /* GHC prints it without (N) */
    assert_true(n > 0 && found < p->n_labels);
    assert_true(pr->sample[k]->value[0] == hp2x_profile_value(p, s, found));
    int is_cut = strlen(text) >= 3 && !strcmp(text + strlen(text) - 3, "...");
    int has_label = 0;
    for (size_t i = 0; i < pr->sample[k]->n_label; i++)
      has_label |= !strcmp(str(pr, pr->sample[k]->label[i]->key), "cut");
    assert_int_equal(is_cut, has_label);
    cut += is_cut;
  }
  assert_true(cut > 40);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

/* "pkg:Module.Name" (-hT's constructors) and "<pkg:Module.name>" (-hd's
 * thunks and functions) as name under module under package; other
 * labels one frame. */
static void qualified_names(void **state) {
  (void)state;
  const char *runs[] = {
      "tests/data/pprof/ghc-9.10.3/deepcc.hd.eventlog.gz",
      "tests/data/ghc-modern/ghc-9.6.6/markers.hT.eventlog.gz",
      "tests/data/pprof/ghc-9.6.6/deepcc.hy.hp.gz"};
  size_t split = 0;
  for (size_t r = 0; r < 3; r++) {
    hp2x_profile *p = parse_file(runs[r]);
    for (size_t s = 0; s < p->n_samples; s += 7) {
      HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
      check_head(pr, census_total(p, s));
      for (size_t k = 0; k < pr->n_sample; k++) {
        char text[4096];
        frames_text(pr, k, ' ', text, sizeof text);
        const HpxPprof__Sample *sm = pr->sample[k];
        const char *sys = str(pr, fn_at(pr, sm->location_id[0])->system_name);
        if (sm->n_location_id == 1) { /* the label itself; its system
                                          name no more than its name */
          assert_string_equal(sys, "");
          assert_null(strchr(text, ' '));
          continue;
        }
        assert_int_equal(sm->n_location_id, 3);
        /* "name Module pkg" from "pkg:Module.name" */
        char pkg[256], mod[256], name[256], want[1024];
        assert_int_equal(sscanf(text, "%255s %255s %255s", name, mod, pkg), 3);
        snprintf(want, sizeof want, "%s:%s.%s", pkg, mod, name);
        assert_string_equal(sys, want);
        assert_true(mod[0] >= 'A' && mod[0] <= 'Z');
        split++;
      }
      hpx_pprof__profile__free_unpacked(pr, NULL);
    }
    hp2x_profile_free(p);
  }
  assert_true(split > 20);
}

/* -hi: a table named by its IPE record is the name the key shows, at the
 * record's file and line, under the record's module (GHC 9.6, 9.10). */
static void info_tables(void **state) {
  (void)state;
  const char *runs[] = {
      "tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.eventlog",
      "tests/data/ghc-modern/ghc-9.10.3/markers.ipehi.eventlog"};
  for (size_t r = 0; r < 2; r++) {
    hp2x_profile *p = parse_file(runs[r]);
    size_t s = peak_of(p), located = 0;
    HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
    check_head(pr, census_total(p, s));
    for (size_t k = 0; k < pr->n_sample; k++) {
      const HpxPprof__Sample *sm = pr->sample[k];
      const HpxPprof__Function *leaf = fn_at(pr, sm->location_id[0]);
      const hpx_label *l = NULL;
      for (size_t i = 0; i < p->n_labels && !l; i++)
        if (!strcmp(p->labels[i].name, str(pr, leaf->name))) l = &p->labels[i];
      assert_non_null(l);
      const char *d = l->text.detail, *m = d ? strstr(d, "; module ") : NULL;
      if (!m) {
        assert_int_equal(sm->n_location_id, 1);
        continue;
      }
      assert_int_equal(sm->n_location_id, 2);
      char mod[256] = "", file[256] = "";
      long line = 0;
      sscanf(m, "; module %255[^;]", mod);
      assert_string_equal(str(pr, fn_at(pr, sm->location_id[1])->name), mod);
      const char *src = strstr(d, "; source ");
      if (src && sscanf(src, "; source %255[^:]:%ld", file, &line) == 2) {
        assert_string_equal(str(pr, leaf->filename), file);
        assert_int_equal(leaf->start_line, line);
        located++;
      }
    }
    assert_true(located >= 3);
    hpx_pprof__profile__free_unpacked(pr, NULL);
    hp2x_profile_free(p);
  }
}

/* -he: one frame, "era N". */
static void eras(void **state) {
  (void)state;
  hp2x_profile *p =
      parse_file("tests/data/ghc-modern/ghc-9.10.3/mapwave.he.eventlog.gz");
  size_t s = peak_of(p);
  HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
  check_head(pr, census_total(p, s));
  for (size_t k = 0; k < pr->n_sample; k++) {
    char text[256];
    frames_text(pr, k, '/', text, sizeof text);
    unsigned era;
    assert_int_equal(sscanf(text, "era %u", &era), 1);
  }
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

static void hostile_labels(void **state) {
  (void)state;
  hp2x_profile *p = hostile();
  HpxPprof__Profile *pr = pprof_of(p, 0, NULL, NULL);
  check_head(pr, 1000 + 1001 + 1002 + 1003 + 7);
  for (size_t i = 0; i < pr->n_string_table; i++)
    check_utf8(pr->string_table[i]);
  int seen = 0;
  for (size_t k = 0; k < pr->n_sample; k++) {
    const HpxPprof__Sample *sm = pr->sample[k];
    char text[8192];
    frames_text(pr, k, '|', text, sizeof text);
    switch (sm->value[0]) {
    case 1000: /* 255 deep, each at d.hs:7 */
      assert_int_equal(sm->n_location_id, 255);
      assert_string_equal(str(pr, fn_at(pr, sm->location_id[254])->name),
                          "f264");
      assert_int_equal(fn_at(pr, sm->location_id[0])->start_line, 7);
      seen |= 1;
      break;
    case 1001:
      assert_string_equal(text, "MAIN");
      seen |= 2;
      break;
    case 1002: /* '/' kept inside one frame; bytes as Latin-1 */
      assert_string_equal(text, "parse/json|\xc3\xbf\xc3\xbe\xef\xbf\xbdx|"
                                "Q.CAF|<cc 999>");
      assert_string_equal(str(pr, fn_at(pr, sm->location_id[1])->system_name),
                          "N\xc3\x83.\xc3\xbf\xc3\xbe\xef\xbf\xbdx");
      assert_int_equal(fn_at(pr, sm->location_id[1])->filename, 0);
      seen |= 4;
      break;
    case 1003:
      assert_string_equal(text, "Q.CAF");
      seen |= 8;
      break;
    case 7:
      assert_int_equal(sm->n_location_id, 1);
      assert_true(strlen(text) >= 5000);
      seen |= 16;
      break;
    default: fail_msg("unexpected value %lld", (long long)sm->value[0]);
    }
  }
  assert_int_equal(seen, 31);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

static void span_lines(void **state) {
  (void)state;
  static const struct {
    const char *s;
    int64_t line;
    size_t file;
  } spans[] = {
      {"leak.hs:12:5-20", 12, 7},
      {"leak.hs:12:5", 12, 7},
      {"src/A.hs:(12,5)-(14,20)", 12, 8},
      {"C:\\x\\a.hs:3:1-2", 3, 9},
      {"a:b.hs:9:1", 9, 6},
      {"<built-in>", 0, 0},
      {"<entire-module>", 0, 0},
      {"leak.hs:12", 0, 0},
      {"leak.hs:12:", 0, 0},
      {"leak.hs:x:1", 0, 0},
      {":1:2", 0, 0},
      {"a.hs:(1,2)-(3,4)x", 0, 0},
      {"a.hs:1:2-", 0, 0},
      {"", 0, 0},
  };
  for (size_t i = 0; i < sizeof spans / sizeof *spans; i++) {
    size_t file = 99;
    int64_t line = hpx_pprof_span_line(spans[i].s, strlen(spans[i].s), &file);
    if (line != spans[i].line || file != spans[i].file)
      fail_msg("%s: line %lld, file %zu", spans[i].s, (long long)line, file);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hc_eventlog_stacks),
      cmocka_unit_test(hc_hp_labels),
      cmocka_unit_test(qualified_names),
      cmocka_unit_test(info_tables),
      cmocka_unit_test(eras),
      cmocka_unit_test(hostile_labels),
      cmocka_unit_test(span_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
