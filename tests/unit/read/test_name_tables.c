/* test_name_tables.c -- symbols.c and name_tables.c: z-decoding, the
 * hp2x_symbols object's errors, and hp2x_profile_name_tables on a small
 * program laid out as GHC lays one out (info tables 16 bytes before their
 * code's symbols): constructors, a table without a symbol of its own, an
 * address outside the program, a stripped program, a position-independent
 * one without IPE records, the wrong program, and allocation failures.
 * The real executables are test_program.sh's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "read/tables_int.h"
#include "model/model.h"
#include "test_hooks.h"
#include "hp2x.h"

#include <string.h>

static const char hp_text[] =
    "JOB \"prog +RTS -hi\"\nDATE \"Thu Jan  1 00:00 1970\"\n"
    "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
    "BEGIN_SAMPLE 0.10\n0x401010\t4096\n0x401030\t2048\n0x401058\t1024\n"
    "0x7f0000001000\t512\nEND_SAMPLE 0.10\n";

static hp2x_profile *parse(void) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("t.hp", NULL, &err);
  assert_non_null(ps);
  assert_int_equal(hp2x_parser_feed(ps, hp_text, strlen(hp_text), &err),
                   HP2X_OK);
  hp2x_profile *p = NULL;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  hp2x_parser_free(ps);
  return p;
}

/* Puts an info table of closure type `type` at `at` into text. */
static void table(unsigned char *text, unsigned at, unsigned type) {
  unsigned char *b = text + (at - 0x401000) + 8;
  b[0] = (unsigned char)type;
}

/* The program: .text at 0x401000 with a (:) table (CONSTR_2_0) at
 * 0x401010, a thunk's at 0x401030 (no symbol of its own) and map's
 * (FUN) at 0x401058; with_symbols 0: stripped. */
static hp2x_symbols *program(int relocatable, int with_symbols) {
  static unsigned char text[0x80];
  memset(text, 0, sizeof text);
  table(text, 0x401010, 4);
  table(text, 0x401030, 15);
  table(text, 0x401058, 8);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_symbols *s = NULL;
  assert_int_equal(hp2x_symbols_new(8, 0, relocatable, &s, &err), HP2X_OK);
  assert_int_equal(
      hp2x_symbols_add_section(s, 1, 0x401000, sizeof text, text, &err),
      HP2X_OK);
  if (with_symbols) {
    assert_int_equal(hp2x_symbols_add(s, "ghczmprim_GHCziTypes_ZC_con_info",
                                      0x401020, 8, 1, &err),
                     HP2X_OK);
    assert_int_equal(
        hp2x_symbols_add(s, "base_GHCziBase_zpzp_info", 0x401068, 8, 1, &err),
        HP2X_OK);
  }
  return s;
}

/* The name of the label the .hp text calls `address`. */
static const char *name_of(const hp2x_profile *p, const char *address) {
  for (size_t i = 0; i < p->n_labels; i++) {
    size_t len;
    const char *key = profile_hp_name(&p->labels[i], &len);
    if (len == strlen(address) && memcmp(key, address, len) == 0)
      return p->labels[i].name;
  }
  return NULL;
}

static void z_decoding(void **state) {
  (void)state;
  char out[64];
  struct {
    const char *in, *want;
  } cases[] = {{"ghczmprim", "ghc-prim"},
               {"GHCziTypes", "GHC.Types"},
               {"ZC", ":"},
               {"Z3T", "(,,)"},
               {"Z2H", "(#,#)"},
               {"zdwgo", "$wgo"},
               {"ZCzb", ":|"},
               {"Izh", "I#"},
               {"zzZZ", "zZ"},
               {"zq", "'"},
               {"z", "z"},
               {"Zx", "Zx"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    hpx_z_decode(cases[i].in, strlen(cases[i].in), out, sizeof out);
    assert_string_equal(out, cases[i].want);
  }
  /* cut to fit, still terminated */
  assert_int_equal(hpx_z_decode("GHCziTypes", 10, out, 4), 9);
  assert_string_equal(out, "GHC");
}

static void symbols_errors(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_symbols *s = NULL;
  assert_int_equal(hp2x_symbols_new(2, 0, 0, &s, &err), HP2X_E_ARG);
  assert_null(s);
  s = program(0, 0);
  hp2x_err_init(&err);
  assert_int_equal(hp2x_symbols_add_section(s, 1, 0, 4, NULL, &err),
                   HP2X_E_ARG);
  hp2x_err_init(&err);
  assert_int_equal(hp2x_symbols_add(s, "x_info", 0x401000, 0, 9, &err),
                   HP2X_E_ARG);
  hp2x_err_init(&err);
  assert_int_equal(
      hp2x_symbols_add_section(s, 2, UINT64_MAX - 2, 4, NULL, &err),
      HP2X_E_ARG);
  hp2x_symbols_free(s);
  hp2x_symbols_free(NULL);
}

static void names(void **state) {
  (void)state;
  hp2x_profile *p = parse();
  hp2x_symbols *s = program(0, 1);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_tables_report r;
  assert_int_equal(hp2x_profile_bare_tables(p), 4);
  assert_int_equal(hp2x_profile_name_tables(p, s, &r, &err), HP2X_OK);
  assert_int_equal(r.verdict, HP2X_TABLES_NAMED);
  assert_int_equal(r.bare, 4);
  assert_int_equal(r.named, 3);
  assert_int_equal(r.outside, 1);
  assert_string_equal(name_of(p, "0x401010"), "(:) [GHC.Types]");
  assert_string_equal(name_of(p, "0x401030"), "thunk in (:) [GHC.Types]");
  assert_string_equal(name_of(p, "0x401058"), "function (++) [GHC.Base]");
  assert_string_equal(name_of(p, "0x7f0000001000"), "0x7f0000001000");
  assert_int_equal(hp2x_profile_bare_tables(p), 1);
  hp2x_profile_free(p);
  hp2x_symbols_free(s);
}

static void verdicts(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_tables_report r;
  struct {
    int reloc, syms;
    hp2x_tables_verdict want;
  } cases[] = {{0, 0, HP2X_TABLES_NO_SYMBOLS}, {1, 1, HP2X_TABLES_NO_BIAS}};
  for (size_t i = 0; i < 2; i++) {
    hp2x_profile *p = parse();
    hp2x_symbols *s = program(cases[i].reloc, cases[i].syms);
    hp2x_err_init(&err);
    assert_int_equal(hp2x_profile_name_tables(p, s, &r, &err), HP2X_OK);
    assert_int_equal(r.verdict, cases[i].want);
    assert_int_equal(r.named, 0);
    assert_int_equal(hp2x_profile_bare_tables(p), 4);
    hp2x_profile_free(p);
    hp2x_symbols_free(s);
  }
  /* the wrong program: its tables elsewhere, the addresses on none */
  hp2x_profile *p = parse();
  hp2x_symbols *s = NULL;
  static unsigned char zeros[0x100];
  hp2x_err_init(&err);
  assert_int_equal(hp2x_symbols_new(8, 0, 0, &s, &err), HP2X_OK);
  assert_int_equal(
      hp2x_symbols_add_section(s, 1, 0x400f80, sizeof zeros, zeros, &err),
      HP2X_OK);
  assert_int_equal(hp2x_symbols_add(s, "Main_main_info", 0x400f90, 8, 1, &err),
                   HP2X_OK);
  assert_int_equal(hp2x_profile_name_tables(p, s, &r, &err), HP2X_OK);
  assert_int_equal(r.verdict, HP2X_TABLES_WRONG_PROGRAM);
  assert_int_equal(hp2x_profile_bare_tables(p), 4);
  hp2x_profile_free(p);
  hp2x_symbols_free(s);
}

static void allocation_failures(void **state) {
  (void)state;
  int failed = 0;
  for (long n = 1; n < 200; n++) {
    hp2x_profile *p = parse();
    hp2x_symbols *s = program(0, 1);
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_tables_report r;
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_profile_name_tables(p, s, &r, &err);
    hpx_alloc_fail_at(0);
    assert_true(st == HP2X_OK || st == HP2X_E_NOMEM);
    failed += st == HP2X_E_NOMEM;
    hp2x_profile_free(p);
    hp2x_symbols_free(s);
  }
  assert_true(failed > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(z_decoding),
      cmocka_unit_test(symbols_errors),
      cmocka_unit_test(names),
      cmocka_unit_test(verdicts),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
