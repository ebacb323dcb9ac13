/* test_eventlog_ipe.c -- the name and detail an IPE record gives its
 * info table (hpx_evl_ipe_describe): constructors from GHC's table names
 * (distinct tables, module prefixes, operators, unicode), closure kinds
 * from GHC 9.6/9.10's decimal closure types, missing fields, no location,
 * white space in types, and which bytes the key keeps whole; the record
 * carried through windows, comparisons and diffs to the CSV header and
 * summary, and every allocation on that way failing cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "read/eventlog_int.h"
#include "mem_sink.h"
#include "test_options.h"
#include "parse_helpers.h"
#include "test_hooks.h"

/* The record of the given six strings (NULL: empty). */
static ipe_fields fields(const char *table, const char *closure,
                         const char *type, const char *label,
                         const char *module, const char *source) {
  const char *s[IPE_N_FIELDS] = {table, closure, type, label, module, source};
  ipe_fields f;
  for (int i = 0; i < IPE_N_FIELDS; i++) {
    f.s[i] = s[i] ? s[i] : "";
    f.len[i] = strlen(f.s[i]);
  }
  return f;
}

typedef struct described {
  char name[512], detail[1024], head[256], tail[256];
} described;

/* hpx_evl_ipe_describe of f at `address`, as strings: the name, the detail,
 * and the name's kept head and tail. */
static described describe(const ipe_fields *f, uint64_t address) {
  char *name;
  size_t len;
  label_text t;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hpx_evl_ipe_describe(f, address, &name, &len, &t, &err),
                   HP2X_OK);
  described d = {"", "", "", ""};
  if (!name) {
    assert_null(t.detail);
    return d;
  }
  assert_int_equal(strlen(name), len);
  assert_true(len < sizeof d.name && t.detail_len < sizeof d.detail);
  assert_true(t.keep_head + t.keep_tail <= len);
  memcpy(d.name, name, len + 1);
  memcpy(d.detail, t.detail, t.detail_len + 1);
  memcpy(d.head, name, t.keep_head);
  d.head[t.keep_head] = '\0';
  memcpy(d.tail, name + len - t.keep_tail, t.keep_tail + 1);
  hpx_free(name);
  hpx_free(t.detail);
  return d;
}

/* Records as GHC 9.10.3 wrote them for leak.hs (-fdistinct-constructor-
 * tables): the constructor from the table name, the location kept. */
static void constructors_from_table_names(void **state) {
  (void)state;
  ipe_fields f = fields("D#_Main_0_con_info", "3", "Double", "readings.go",
                        "Main", "leak.hs:33:50-65");
  described d = describe(&f, 0x40e8b0);
  assert_string_equal(d.name, "D# in readings.go leak.hs:33:50-65");
  assert_string_equal(d.head, "D#");
  assert_string_equal(d.tail, "leak.hs:33:50-65");
  assert_string_equal(d.detail,
                      "table D#_Main_0_con_info; closure CONSTR_0_1; type "
                      "Double; label readings.go; module Main; source "
                      "leak.hs:33:50-65; address 0x40e8b0");
  /* an operator constructor is written in parentheses */
  f = fields(":_Main_9_con_info", "4", "[]", "makeRecord", "Main",
             "mapwave.hs:34:54");
  d = describe(&f, 1);
  assert_string_equal(d.name, "(:) in makeRecord mapwave.hs:34:54");
  assert_string_equal(d.head, "(:)");
  /* a tuple already is */
  f = fields("(,)_Main_0_con_info", "4", "(,)", "sierra", "Main",
             "manycc.hs:72:22-35");
  assert_string_equal(describe(&f, 1).name, "(,) in sierra manycc.hs:72:22-35");
  /* without distinct tables: "Con_con_info" */
  f = fields("Running_con_info", "4", "", "", "Main", ":");
  assert_string_equal(describe(&f, 1).name, "Running in Main");
  /* a long module prefix in the table name goes with its number */
  f = fields("Bin_Data.Map.Internal_12_con_info", "1", "Map", "",
             "Data.Map.Internal",
             "libraries/containers/containers/src/Data/Map/Internal.hs:"
             "617:5-60");
  d = describe(&f, 1);
  assert_string_equal(d.name, "Bin libraries/containers/containers/src/Data/"
                              "Map/Internal.hs:617:5-60");
  assert_string_equal(d.head, "Bin");
  assert_string_equal(d.tail, "libraries/containers/containers/src/Data/Map/"
                              "Internal.hs:617:5-60");
  /* a constructor with '_' in its name, and a table naming another module:
   * only a matching module and number are taken off */
  f = fields("My_Con_Other_3_con_info", "2", "T", "", "Main", "a.hs:1:1");
  assert_string_equal(describe(&f, 1).name, "My_Con_Other_3 a.hs:1:1");
  f = fields("My_Con_Main_3_con_info", "2", "T", "", "Main", "a.hs:1:1");
  assert_string_equal(describe(&f, 1).name, "My_Con a.hs:1:1");
}

/* Unicode names (GHC 9.10.3's unicode.hs): bytes kept as written. */
static void unicode(void **state) {
  (void)state;
  ipe_fields f = fields("Straße_Ökonomie_0_con_info", "2", "Straße",
                        "straßenVon", "Ökonomie", "./Ökonomie.hs:13:29-32");
  described d = describe(&f, 1);
  assert_string_equal(d.name, "Straße in straßenVon ./Ökonomie.hs:13:29-32");
  assert_string_equal(d.head, "Straße");
  assert_string_equal(d.tail, "./Ökonomie.hs:13:29-32");
  f = fields(":_Main_5_con_info", "4", "[]", "z計算結果を保存する処理", "Main",
             "unicode.hs:53:34");
  assert_string_equal(describe(&f, 1).name,
                      "(:) in z計算結果を保存する処理 unicode.hs:53:34");
}

/* Closure kinds from the decimal closure type (GHC 9.6 and 9.10). */
static void closure_kinds(void **state) {
  (void)state;
  static const struct {
    const char *closure, *what, *detail_closure;
  } kinds[] = {
      {"15", "thunk", "THUNK"},
      {"16", "thunk", "THUNK_1_0"},
      {"21", "thunk", "THUNK_STATIC"},
      {"22", "selector thunk", "THUNK_SELECTOR"},
      {"8", "function", "FUN"},
      {"14", "function", "FUN_STATIC"},
      {"25", "PAP", "PAP"},
      {"42", "ARR_WORDS", "ARR_WORDS"},
      {"43", "MUT_ARR_PTRS_CLEAN", "MUT_ARR_PTRS_CLEAN"},
      {"53", "STACK", "STACK"},
      /* a closure type GHC may yet add, and a description in words, are
       * shown as they are */
      {"99", "99", "99"},
      {"THUNK_2_0", "thunk", "THUNK_2_0"},
      {"0015", "0015", "0015"},
  };
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    ipe_fields f = fields("sat_s3rZ_info", kinds[i].closure, "[Char]", "main",
                          "Main", "leak.hs:65:12-44");
    described d = describe(&f, 0x40e4a8);
    char want[128];
    snprintf(want, sizeof want, "%s in main leak.hs:65:12-44", kinds[i].what);
    assert_string_equal(d.name, want);
    assert_string_equal(d.head, kinds[i].what);
    snprintf(want, sizeof want, "; closure %s; ", kinds[i].detail_closure);
    assert_non_null(strstr(d.detail, want));
  }
}

/* Missing fields: no location (":"), no label, no module, nothing. */
static void missing_fields(void **state) {
  (void)state;
  /* no location: the module qualifies the binding, nothing kept at the end */
  ipe_fields f = fields("sat_s3pz_info", "15", "a1_a1Yh", "go", "Main", ":");
  described d = describe(&f, 0x40d158);
  assert_string_equal(d.name, "thunk in Main.go");
  assert_string_equal(d.head, "thunk");
  assert_string_equal(d.tail, "");
  assert_string_equal(d.detail, "table sat_s3pz_info; closure THUNK; type "
                                "a1_a1Yh; label go; module Main; address "
                                "0x40d158");
  /* no label either */
  f = fields("sat_s3pz_info", "15", "a1_a1Yh", "", "Main", ":");
  assert_string_equal(describe(&f, 1).name, "thunk in Main");
  /* a location without a label */
  f = fields("Look_Main_0_con_info", "2", "P", "", "Main", "leak.hs:56:22-27");
  d = describe(&f, 1);
  assert_string_equal(d.name, "Look leak.hs:56:22-27");
  assert_string_equal(d.tail, "leak.hs:56:22-27");
  /* no closure type: the table name says what it is */
  f = fields("block_c3Fi_info", "", "", "", "", "");
  d = describe(&f, 0x40e250);
  assert_string_equal(d.name, "block_c3Fi_info");
  assert_string_equal(d.detail, "table block_c3Fi_info; address 0x40e250");
  /* an empty record names nothing */
  f = fields(NULL, NULL, NULL, NULL, NULL, ":");
  assert_string_equal(describe(&f, 1).name, "");
  /* a location alone */
  f = fields(NULL, NULL, NULL, NULL, NULL, "x.hs:1:2");
  d = describe(&f, 1);
  assert_string_equal(d.name, "x.hs:1:2");
  assert_string_equal(d.head, "");
  assert_string_equal(d.tail, "x.hs:1:2");
}

/* Types span lines in real records (GHC 9.6.6, leak.hs's $sgo15): white
 * space runs become one space, in the name and the detail. */
static void white_space(void **state) {
  (void)state;
  ipe_fields f = fields("$sgo15_info", "14",
                        "forall {a1}.\n(a1 -> a1 -> a1) -> Int -> a1",
                        " main \t go ", "Main", ":");
  described d = describe(&f, 1);
  assert_string_equal(d.name, "function in Main.main go");
  assert_non_null(
      strstr(d.detail, "; type forall {a1}. (a1 -> a1 -> a1) -> Int -> a1;"));
  assert_non_null(strstr(d.detail, "; label main go;"));
}

/* An -hi fixture (GHC 9.10's layout) through window, comparison, diff,
 * CSV and summary: the record goes with each band.  0 on success, else
 * the first failing status (everything freed). */
static hp2x_status hi_pipeline(const unsigned char *buf, size_t len, mem *csv,
                               mem *sum) {
  hp2x_profile *p = NULL, *w = NULL, *dp = NULL;
  hp2x_bands *b[2] = {NULL, NULL}, *db = NULL;
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_status st = parse_chunked(buf, len, 0, HP2X_INPUT_EVENTLOG, &p, &err);
  if (st == HP2X_OK) st = hp2x_profile_window(p, 0.0, 1e9, &w, &err);
  const hp2x_profile *both[2] = {p, w};
  if (st == HP2X_OK) st = hp2x_bands_select_many(both, 2, &o, b, &err);
  if (st == HP2X_OK) st = hp2x_diff_new(p, b[0], w, b[1], &dp, &db, &err);
  if (st == HP2X_OK) st = hp2x_write_csv(dp, db, mem_write, csv, &err);
  const char *names[2] = {"a", "b"};
  const hp2x_bands *const bs[2] = {b[0], b[1]};
  if (st == HP2X_OK)
    st = hp2x_write_summary(both, bs, names, 2, mem_write, sum, &err);
  hp2x_bands_free(b[0]);
  hp2x_bands_free(b[1]);
  hp2x_bands_free(db);
  hp2x_profile_free(dp);
  hp2x_profile_free(w);
  hp2x_profile_free(p);
  return st;
}

static void record_through_the_pipeline(void **state) {
  (void)state;
  size_t len;
  unsigned char *buf =
      read_repo_file("tests/data/eventlogs/ghc910-hi.eventlog", &len);
  assert_non_null(buf);
  mem csv = {0}, sum = {0};
  assert_int_equal(hi_pipeline(buf, len, &csv, &sum), HP2X_OK);
  assert_non_null(strstr(csv.buf, ",thunk in build prog.hs:12:3-40; table "
                                  "sat_s1ab_info; closure THUNK; type Int;"));
  assert_non_null(strstr(sum.buf, "  thunk in build prog.hs:12:3-40\n"));
  assert_non_null(strstr(sum.buf, " table sat_s1ab_info; closure THUNK; "
                                  "type Int; label build; module Main; "
                                  "source prog.hs:12:3-40; address "
                                  "0x4c8e70\n"));
  assert_non_null(strstr(sum.buf, "  0x4d0000\n"));
  assert_non_null(strstr(sum.buf, " (unnamed: no IPE event describes"));
  free(csv.buf);
  free(sum.buf);
  for (long n = 1;; n++) {
    mem c = {0}, m = {0};
    hpx_alloc_fail_at(n);
    hp2x_status st = hi_pipeline(buf, len, &c, &m);
    hpx_alloc_fail_at(0);
    free(c.buf);
    free(m.buf);
    if (st == HP2X_OK) break;
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_true(n < 100000);
  }
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(constructors_from_table_names),
      cmocka_unit_test(unicode),
      cmocka_unit_test(closure_kinds),
      cmocka_unit_test(missing_fields),
      cmocka_unit_test(white_space),
      cmocka_unit_test(record_through_the_pipeline),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
