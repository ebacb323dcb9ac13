/* test_render.c -- render.c and surface.c: every format drawn into memory
 * starts as its format must, EPS has exactly the requested width, a failing
 * sink is HP2X_E_IO, and the palette
 * decodes hp2ps's colour encoding (entry 15 fixed, no white). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "test_options.h"

#include "bands_int.h"
#include "palette.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static hp2x_profile *profile(void) {
  const char *top = getenv("TOP");
  char path[1024];
  snprintf(path, sizeof path, "%s/samples/profiles/unicode.hc.hp",
           top ? top : ".");
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p;
  assert_int_equal(hp2x_parse_stream(f, path, NULL, &p, &err), HP2X_OK);
  fclose(f);
  return p;
}

static mem render(hp2x_profile *p, hp2x_options *o, hp2x_status want) {
  hp2x_bands *b;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select(p, o, &b, &err), HP2X_OK);
  mem m = {NULL, 0, 0, 0};
  assert_int_equal(hp2x_render(p, b, o, mem_write, &m, &err), want);
  hp2x_bands_free(b);
  return m;
}

static void every_format(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  struct { hp2x_format f; const char *magic; } cases[] = {
      {HP2X_FORMAT_PS, "%!PS-Adobe-3.0\n"},
      {HP2X_FORMAT_PDF, "%PDF-"},
      {HP2X_FORMAT_SVG, "<?xml"}};
  for (size_t i = 0; i < 3; i++) {
    o.format = cases[i].f;
    mem m = render(p, &o, HP2X_OK);
    assert_true(m.len > 1000);
    assert_memory_equal(m.buf, cases[i].magic, strlen(cases[i].magic));
    if (o.format == HP2X_FORMAT_PS) {
      assert_non_null(strstr(m.buf, "%%Title: unicode +RTS -hc -l -i0.01"));
      /* hp2ps puts the profile's DATE here; so do we (reproducible). */
      assert_non_null(strstr(m.buf, "%%CreationDate: Sun Nov 22 12:26 2026"));
    }
    free(m.buf);
  }
  o.format = HP2X_FORMAT_EPS;
  o.eps_width_pt = 72.0 * 6; /* -e6in: 432 x 288 */
  mem m = render(p, &o, HP2X_OK);
  assert_memory_equal(m.buf, "%!PS-Adobe-3.0 EPSF-3.0", 23);
  assert_non_null(strstr(m.buf, "%%BoundingBox: 0 0 432 288\n"));
  free(m.buf);
  o.eps_width_pt = 200.0 * 72.0 / 25.4; /* -e200mm: 567 x 378 */
  m = render(p, &o, HP2X_OK);
  assert_non_null(strstr(m.buf, "%%BoundingBox: 0 0 567 378\n"));
  free(m.buf);
  hp2x_profile_free(p);
}

static void failing_sink(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  hp2x_format fs[] = {HP2X_FORMAT_PS, HP2X_FORMAT_PDF, HP2X_FORMAT_SVG};
  for (size_t i = 0; i < 3; i++) {
    o.format = fs[i];
    hp2x_bands *b;
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
    mem m = {NULL, 0, 0, 100};
    assert_int_equal(hp2x_render(p, b, &o, mem_write, &m, &err), HP2X_E_IO);
    assert_non_null(strstr(err.msg, "No space"));
    free(m.buf);
    hp2x_bands_free(b);
  }
  hp2x_profile_free(p);
}

static void palette(void **state) {
  (void)state;
  hp2x_bands b;
  memset(&b, 0, sizeof b);
  b.n_bands = 30;
  double shade[30], rgb[3];
  hp2x_options o;
  test_options_init(&o);
  o.colour = 1; /* palette HP2X_PALETTE_HP2PS: hp2ps's colours */
  palette_assign(&b, &o, shade);
  for (int k = 0; k < 26; k++) {
    palette_rgb(shade[k], 1, rgb);
    assert_false(rgb[0] == 1 && rgb[1] == 1 && rgb[2] == 1); /* no white */
    if (k == 13) /* hp2ps's entry 15 (its white entry 8 dropped before it) */
      assert_true(rgb[0] == 0.5 && rgb[1] == 1.0 && rgb[2] == 0.0);
  }
  assert_true(shade[26] == shade[0]); /* the cycle repeats */
  o.colour = 0;
  palette_assign(&b, &o, shade);
  assert_true(shade[0] == 0.0 && shade[6] == 1.0 && shade[10] == 0.0);
  palette_rgb(0.100505, 1, rgb); /* hp2ps's own .aux encoding */
  assert_true(rgb[0] == 1.0 && rgb[1] == 0.5 && rgb[2] == 0.5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_format),
      cmocka_unit_test(failing_sink),
      cmocka_unit_test(palette),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
