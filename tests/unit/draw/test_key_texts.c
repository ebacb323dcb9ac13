/* test_key_texts.c -- key_texts.c: what the key calls a band where the
 * breakdown says more than the label: "era N" for an -he profile's eras,
 * "retainer set {A, B}" for -hr's sets (numbered when two read alike),
 * OTHER as it is, and nothing for other breakdowns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "draw/key_names.h"
#include "test_options.h"

#include <string.h>

static hp2x_profile *make(int bd, const char *const *names, size_t n) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  p->breakdown = bd;
  hpx_profile_begin_sample(p, 0.0);
  for (size_t k = 0; k < n; k++) {
    uint32_t id;
    assert_int_equal(
        hpx_profile_intern(p, names[k], strlen(names[k]), NULL, 0, &id, &err),
        HP2X_OK);
    assert_int_equal(profile_add_entry(p, id, (int64_t)(100 * (k + 1)), &err),
                     HP2X_OK);
  }
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  return p;
}

/* The key texts of p's bands (-m m), joined with '|'; "" for none. */
static void texts_of(const hp2x_profile *p, int m, char *out, size_t size) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  o.max_bands = m;
  hp2x_bands *b;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  int nomem = 0;
  char **t = hpx_key_texts(p, b, &nomem);
  assert_false(nomem);
  out[0] = '\0';
  for (size_t k = 0; t && k < b->n_bands; k++) {
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s", k ? "|" : "", t[k]);
  }
  hpx_key_names_free(t, b->n_bands);
  hp2x_bands_free(b);
}

static void eras(void **state) {
  (void)state;
  static const char *const e[] = {"1", "2", "10", "3"};
  hp2x_profile *p = make(HP2X_BREAKDOWN_ERA, e, 4);
  char s[256];
  texts_of(p, 3, s, sizeof s);
  assert_string_equal(s, "OTHER|era 3|era 10");
  hp2x_profile_free(p);
  static const char *const odd[] = {"1", "x"};
  p = make(HP2X_BREAKDOWN_ERA, odd, 2); /* not all numbers: as they are */
  texts_of(p, 20, s, sizeof s);
  assert_string_equal(s, "");
  hp2x_profile_free(p);
}

static void retainer_sets(void **state) {
  (void)state;
  static const char *const r[] = {"(2)SYSTEM", "(87)SYSTEM,tally", "(9)odd"};
  hp2x_profile *p = make(HP2X_BREAKDOWN_RETAINER, r, 3);
  char s[256];
  texts_of(p, 20, s, sizeof s);
  assert_string_equal(s, "retainer set {SYSTEM}|retainer set {SYSTEM, "
                         "tally}|retainer set {odd}");
  hp2x_profile_free(p);
  /* Two sets that read alike are told apart by their numbers. */
  static const char *const twins[] = {"(88)go", "(91)go", "MAIN"};
  p = make(HP2X_BREAKDOWN_RETAINER, twins, 3);
  texts_of(p, 20, s, sizeof s);
  assert_string_equal(s, "retainer set 88 {go}|retainer set 91 {go}|"
                         "retainer set {MAIN}");
  hp2x_profile_free(p);
  p = make(HP2X_BREAKDOWN_COST_CENTRE, r, 3); /* -hc: names as they are */
  texts_of(p, 20, s, sizeof s);
  assert_string_equal(s, "");
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(eras),
      cmocka_unit_test(retainer_sets),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
