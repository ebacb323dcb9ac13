/* test_metrics.c -- hp2x_write_metrics: the families and their order, the
 * last census's values, labels made valid UTF-8 and escaped, names that
 * show alike made unique, no census yet, a sink that fails; and
 * hp2x_bands_copy: a copy draws and writes as its original. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hp2x.h"
#include "mem_sink.h"

#include <stdio.h>
#include <string.h>

static const char hp_text[] =
    "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
    "BEGIN_SAMPLE 1.5\nplain\t300\nq\"uo\\te\t200\nbad\xff\t100\n"
    "bad\xc3\xbf\t50\nEND_SAMPLE 1.5\n";

static hp2x_profile *parse(const char *text) {
  FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "rb");
  assert_non_null(f);
  hp2x_profile *p = NULL;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_parse_stream(f, "t.hp", NULL, &p, &err), HP2X_OK);
  fclose(f);
  return p;
}

static hp2x_bands *select_all(const hp2x_profile *p) {
  hp2x_options o;
  hp2x_options_init(&o);
  o.max_bands = 0;
  hp2x_bands *b = NULL;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  return b;
}

static void last_census_escaped_and_unique(void **state) {
  (void)state;
  hp2x_profile *p = parse(hp_text);
  hp2x_bands *b = select_all(p);
  mem m = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_metrics_state st = {7, 1};
  assert_int_equal(hp2x_write_metrics(p, b, &st, mem_write, &m, &err), HP2X_OK);
  assert_non_null(strstr(m.buf, "# TYPE hp2x_band_bytes gauge\n"));
  assert_non_null(strstr(m.buf, "hp2x_band_bytes{band=\"plain\"} 300\n"));
  assert_non_null(
      strstr(m.buf, "hp2x_band_bytes{band=\"q\\\"uo\\\\te\"} 200\n"));
  /* \xff alone is Latin-1 (U+00FF), as is the valid \xc3\xbf: the same
   * text, so the later (smaller) band gets its key position. */
  assert_non_null(strstr(m.buf, "hp2x_band_bytes{band=\"bad\xc3\xbf\"} 100\n"));
  assert_non_null(
      strstr(m.buf, "hp2x_band_bytes{band=\"bad\xc3\xbf #4\"} 50\n"));
  assert_non_null(strstr(m.buf, "hp2x_profile_bytes 650\n"));
  assert_non_null(strstr(m.buf, "# TYPE hp2x_censuses_total counter\n"
                                "hp2x_censuses_total 7\n"));
  assert_non_null(strstr(m.buf, "hp2x_last_census_seconds 1.500000\n"));
  assert_non_null(strstr(m.buf, "hp2x_input_connected 1\n"));
  assert_null(strstr(m.buf, "hp2x_heap_size_bytes")); /* .hp: none */
  free(m.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void no_census_yet(void **state) {
  (void)state;
  mem m = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_metrics(NULL, NULL, NULL, mem_write, &m, &err),
                   HP2X_OK);
  assert_null(strstr(m.buf, "hp2x_band_bytes"));
  assert_null(strstr(m.buf, "hp2x_last_census_seconds"));
  assert_non_null(strstr(m.buf, "hp2x_censuses_total 0\n"));
  assert_non_null(strstr(m.buf, "hp2x_input_connected 0\n"));
  free(m.buf);
}

static void failing_sink(void **state) {
  (void)state;
  hp2x_profile *p = parse(hp_text);
  hp2x_bands *b = select_all(p);
  mem m = {0};
  m.fail_after = 10;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_metrics(p, b, NULL, mem_write, &m, &err),
                   HP2X_E_IO);
  free(m.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void copy_writes_as_original(void **state) {
  (void)state;
  hp2x_profile *p = parse(hp_text);
  hp2x_bands *b = select_all(p), *c = NULL;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_copy(b, &c, &err), HP2X_OK);
  hp2x_options o;
  hp2x_options_init(&o);
  o.format = HP2X_FORMAT_SVG;
  mem a = {0}, d = {0}, ca = {0}, cd = {0};
  assert_int_equal(hp2x_render(p, b, &o, mem_write, &a, &err), HP2X_OK);
  hp2x_bands_free(b); /* the copy shares nothing with it */
  assert_int_equal(hp2x_render(p, c, &o, mem_write, &d, &err), HP2X_OK);
  assert_int_equal(a.len, d.len);
  assert_memory_equal(a.buf, d.buf, a.len);
  assert_int_equal(hp2x_write_csv(p, c, mem_write, &ca, &err), HP2X_OK);
  hp2x_bands *again = select_all(p);
  assert_int_equal(hp2x_write_csv(p, again, mem_write, &cd, &err), HP2X_OK);
  assert_string_equal(ca.buf, cd.buf);
  assert_int_equal(hp2x_bands_copy(NULL, &b, &err), HP2X_E_ARG);
  free(a.buf);
  free(d.buf);
  free(ca.buf);
  free(cd.buf);
  hp2x_bands_free(again);
  hp2x_bands_free(c);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(last_census_escaped_and_unique),
      cmocka_unit_test(no_census_yet),
      cmocka_unit_test(failing_sink),
      cmocka_unit_test(copy_writes_as_original),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
