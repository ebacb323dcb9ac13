/* test_aux.c -- aux.c: hp2ps's own .aux files parse; errors name the line;
 * names starting with a digit or holding spaces work (hp2ps reads such a
 * name as a number); written shades read back exactly, colour included
 * (hp2ps writes colour shades with too few digits to read back). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "select/aux.h"
#include "parse_helpers.h"

static void hp2ps_files_parse(void **state) {
  (void)state;
  const char *files[] = {"leak.hc.mono", "manycc.hc.color", "unicode.hc.mono"};
  for (size_t i = 0; i < 3; i++) {
    char rel[128];
    snprintf(rel, sizeof rel, "tests/data/reference/%s.aux", files[i]);
    size_t len = 0;
    char *text = (char *)read_repo_file(rel, &len);
    assert_non_null(text);
    hp2x_aux *aux;
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(hp2x_aux_parse(text, len, rel, &aux, &err), HP2X_OK);
    assert_true(hpx_aux_x_range(aux) > 0 && hpx_aux_y_range(aux) > 0);
    hp2x_aux_free(aux);
    free(text);
  }
  const char *t = "X_RANGE 1.45\nY_RANGE 23971616.00\n"
                  "ORDER (313)tallyBuckets/main.buc... 1\n"
                  "SHADE (313)tallyBuckets/main.buc... 0.20\n";
  hp2x_aux *aux;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_aux_parse(t, strlen(t), "t", &aux, &err), HP2X_OK);
  const char *n = "(313)tallyBuckets/main.buc...";
  assert_int_equal(hpx_aux_order(aux, n, strlen(n)), 1);
  assert_true(hpx_aux_shade(aux, n, strlen(n)) == 0.2);
  assert_int_equal(hpx_aux_order(aux, "x", 1), 0);
  assert_true(hpx_aux_shade(aux, "x", 1) < 0);
  assert_true(hpx_aux_x_range(aux) == 1.45);
  hp2x_aux_free(aux);
}

static void digits_and_spaces(void **state) {
  (void)state;
  const char *t = "ORDER 0x4a6b28 2\nORDER 17 3\nORDER a name with spaces 4\n"
                  "SHADE 17 0.100505\n";
  hp2x_aux *aux;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_aux_parse(t, strlen(t), "t", &aux, &err), HP2X_OK);
  assert_int_equal(hpx_aux_order(aux, "0x4a6b28", 8), 2);
  assert_int_equal(hpx_aux_order(aux, "17", 2), 3);
  assert_int_equal(hpx_aux_order(aux, "a name with spaces", 18), 4);
  assert_true(hpx_aux_shade(aux, "17", 2) == 0.100505);
  hp2x_aux_free(aux);
}

static void errors_name_the_line(void **state) {
  (void)state;
  const char *bad[] = {"X_RANGE 1.0\nCOLOUR x 1\n",
                       "X_RANGE 1.0\n\nORDER x 1.5\n", "SHADE x\n",
                       "Y_RANGE abc\n"};
  long lines[] = {2, 3, 1, 1};
  for (size_t i = 0; i < 4; i++) {
    hp2x_aux *aux = NULL;
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(hp2x_aux_parse(bad[i], strlen(bad[i]), "t", &aux, &err),
                     HP2X_E_SYNTAX);
    assert_null(aux);
    assert_int_equal(err.line, lines[i]);
    assert_non_null(strstr(err.msg, "expected"));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hp2ps_files_parse),
      cmocka_unit_test(digits_and_spaces),
      cmocka_unit_test(errors_name_the_line),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
