/* test_breakdown.c -- breakdown.c: -hb's biographies in their fixed order
 * and colours whatever their sizes, -he's eras in era order (after -m kept
 * the largest) in a palette from dark to light, an explicit order or
 * palette or .aux winning, era numbers read, and the note for an -he
 * profile whose labels are not all numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "select/breakdown.h"
#include "select/palette.h"
#include "test_options.h"

#include <math.h>
#include <string.h>

/* A profile of breakdown bd (its HEAP_PROF_BEGIN code) with labels
 * names[0..n) of sizes size[0..n), two samples. */
static hp2x_profile *make(int bd, const char *const *names, const int64_t *size,
                          size_t n) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  p->breakdown = bd;
  for (size_t s = 0; s < 2; s++) {
    hpx_profile_begin_sample(p, (double)s);
    for (size_t k = 0; k < n; k++) {
      uint32_t id;
      assert_int_equal(
          hpx_profile_intern(p, names[k], strlen(names[k]), NULL, 0, &id, &err),
          HP2X_OK);
      assert_int_equal(profile_add_entry(p, id, size[k], &err), HP2X_OK);
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  return p;
}

/* b's band names, bottom first, space-separated. */
static void names_of(const hp2x_bands *b, char *out, size_t size) {
  out[0] = '\0';
  for (size_t k = 0; k < b->n_bands; k++) {
    size_t len = strlen(out);
    snprintf(out + len, size - len, "%s%s", k ? " " : "", b->names[k]);
  }
}

static hp2x_bands *select_with(const hp2x_profile *p, const hp2x_options *o) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b;
  assert_int_equal(hp2x_bands_select(p, o, &b, &err), HP2X_OK);
  return b;
}

static const char *const bio[] = {"VOID", "LAG", "USE", "DRAG", "INHERENT_USE"};
static const int64_t bio_size[] = {5000, 400, 3000, 100, 2000};

static void biographies(void **state) {
  (void)state;
  hp2x_profile *p = make(HP2X_BREAKDOWN_BIOGRAPHY, bio, bio_size, 5);
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  char s[256];
  hp2x_bands *b = select_with(p, &o);
  assert_int_equal(b->breakdown, HP2X_BREAKDOWN_BIOGRAPHY);
  names_of(b, s, sizeof s);
  assert_string_equal(s, "USE INHERENT_USE LAG DRAG VOID");
  /* One colour each, whatever the bands' sizes: with -c, label colours
   * (1.RRGGBB); without, greys; VOID darkest. */
  double shade[5], again[5];
  o.palette = HP2X_PALETTE_LABEL;
  hpx_palette_assign(b, &o, shade);
  assert_true(fabs(shade[4] - 1.271439) < 1e-9); /* VOID: 27, 14, 39 */
  assert_true(fabs(shade[0] - 1.005843) < 1e-9); /* USE: 0, 58, 43 */
  hp2x_bands_free(b);
  o.sort = HP2X_SORT_AREA;
  o.palette = HP2X_PALETTE_HP2PS;
  b = select_with(p, &o);
  hpx_palette_assign(b, &o, again);
  assert_true(again[4] == 0.2 && again[2] == 0.9);
  /* An explicit order: -i (or -d, or the tool's clearing ORDER). */
  hp2x_bands_free(b);
  o.name_order = HP2X_NAME_ORDER_ASCENDING;
  b = select_with(p, &o);
  names_of(b, s, sizeof s);
  assert_string_equal(s, "DRAG INHERENT_USE LAG USE VOID");
  hpx_palette_assign(b, &o, again); /* its colours stay the biographies' */
  assert_true(again[4] == 0.2 && again[0] == 0.35);
  hp2x_bands_free(b);
  o.name_order = HP2X_NAME_ORDER_NONE;
  o.by_breakdown = HP2X_BY_BREAKDOWN_COLOURS;
  b = select_with(p, &o);
  names_of(b, s, sizeof s);
  assert_string_equal(s, "DRAG LAG INHERENT_USE USE VOID"); /* by size */
  /* An explicit palette (the tool clears COLOURS), or --pattern. */
  o.by_breakdown = 0;
  assert_int_equal(hpx_breakdown_shades(b, &o, 0, again), 0);
  o.by_breakdown = HP2X_BY_BREAKDOWN_COLOURS;
  o.pattern = 1;
  assert_int_equal(hpx_breakdown_shades(b, &o, 0, again), 0);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static const char *const eras[] = {"3", "1", "12", "2", "7"};
static const int64_t era_size[] = {900, 100, 800, 50, 700};

static void eras_in_order(void **state) {
  (void)state;
  hp2x_profile *p = make(HP2X_BREAKDOWN_ERA, eras, era_size, 5);
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  o.max_bands = 4; /* the three largest eras and OTHER */
  char s[256];
  hp2x_bands *b = select_with(p, &o);
  assert_int_equal(b->breakdown, HP2X_BREAKDOWN_ERA);
  names_of(b, s, sizeof s);
  assert_string_equal(s, "OTHER 3 7 12");
  /* Dark to light, old to new; OTHER a neutral grey. */
  double shade[4], rgb[3];
  o.palette = HP2X_PALETTE_LABEL;
  hpx_palette_assign(b, &o, shade);
  double last = -1.0;
  for (size_t k = 1; k < 4; k++) {
    hpx_palette_rgb(shade[k], 1, rgb);
    double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    assert_true(y > last);
    last = y;
  }
  hpx_palette_rgb(shade[0], 1, rgb);
  assert_true(rgb[0] == rgb[1] && rgb[1] == rgb[2]);
  o.palette = HP2X_PALETTE_HP2PS;
  hpx_palette_assign(b, &o, shade);
  assert_true(shade[1] < shade[2] && shade[2] < shade[3] && shade[0] == 1.0);
  hp2x_bands_free(b);
  /* -d wins; so does an .aux order (hpx_breakdown_order leaves it). */
  o.sort = HP2X_SORT_STDDEV;
  b = select_with(p, &o);
  names_of(b, s, sizeof s);
  assert_string_not_equal(s, "OTHER 3 7 12");
  hp2x_bands_free(b);
  uint32_t ids[3] = {0, 1, 2};
  o.sort = HP2X_SORT_AREA;
  o.aux = (const hp2x_aux *)&o; /* any: only its presence is read */
  hpx_breakdown_order(p, HP2X_BREAKDOWN_ERA, &o, ids, 3);
  assert_true(ids[0] == 0 && ids[1] == 1 && ids[2] == 2);
  o.aux = NULL;
  hpx_breakdown_order(p, HP2X_BREAKDOWN_ERA, &o, ids, 3); /* 3, 1, 12 */
  assert_true(ids[0] == 1 && ids[1] == 0 && ids[2] == 2);
  char note[160];
  assert_null(hp2x_profile_breakdown_note(p, note, sizeof note));
  hp2x_profile_free(p);
}

static void not_numbers(void **state) {
  (void)state;
  static const char *const odd[] = {"3", "x1", "2"};
  static const int64_t size[] = {100, 300, 200};
  hp2x_profile *p = make(HP2X_BREAKDOWN_ERA, odd, size, 3);
  assert_int_equal(hpx_breakdown_arranging(p), 0);
  hp2x_options o;
  test_options_init(&o);
  o.trace_pct = 0;
  char s[256];
  hp2x_bands *b = select_with(p, &o);
  names_of(b, s, sizeof s);
  assert_string_equal(s, "3 2 x1"); /* the usual order: by size */
  assert_int_equal(b->breakdown, 0);
  char note[160];
  assert_non_null(hp2x_profile_breakdown_note(p, note, sizeof note));
  assert_non_null(strstr(note, "'x1'"));
  assert_non_null(strstr(note, "usual order"));
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  /* Era numbers: decimal digits, no sign, no space, at most 19. */
  uint64_t e;
  assert_true(hpx_breakdown_era("42", 2, &e) && e == 42);
  assert_false(hpx_breakdown_era("-1", 2, &e));
  assert_false(hpx_breakdown_era("", 0, &e));
  assert_false(hpx_breakdown_era("12345678901234567890", 20, &e));
  /* A breakdown that arranges nothing. */
  p = make(HP2X_BREAKDOWN_RETAINER, odd, size, 3);
  assert_int_equal(hpx_breakdown_arranging(p), 0);
  assert_null(hp2x_profile_breakdown_note(p, note, sizeof note));
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(biographies),
      cmocka_unit_test(eras_in_order),
      cmocka_unit_test(not_numbers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
