/* test_output.c -- output.c and format.c: the format predicates for
 * every format, and hp2x_write_output / hp2x_write_output_many writing the
 * same bytes as the format's own writer (render, CSV, .hp, summary), the
 * many variant's .hp refusal, one census of CSV and the summary
 * (hp2x_options.span), and a failing sink's error passed on.
 * Public API only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hp2x.h"
#include "test_options.h"
#include "mem_sink.h"

#include <stdlib.h>
#include <string.h>

static const char profile_text[] =
    "JOB \"output test\"\n"
    "DATE \"Thu Jan  1 00:00 1970\"\n"
    "SAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
    "BEGIN_SAMPLE 0.50\nMAIN\t100\n(1)f/g\t40\nEND_SAMPLE 0.50\n"
    "BEGIN_SAMPLE 1.00\nMAIN\t120\n(1)f/g\t90\nEND_SAMPLE 1.00\n";

typedef struct fixture {
  hp2x_profile *p;
  hp2x_bands *b;
  hp2x_options o;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  assert_non_null(f);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("test", NULL, &err);
  assert_non_null(ps);
  assert_int_equal(
      hp2x_parser_feed(ps, profile_text, strlen(profile_text), &err), HP2X_OK);
  assert_int_equal(hp2x_parser_finish(ps, &f->p, &err), HP2X_OK);
  hp2x_parser_free(ps);
  test_options_init(&f->o);
  assert_int_equal(hp2x_bands_select(f->p, &f->o, &f->b, &err), HP2X_OK);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  hp2x_bands_free(f->b);
  hp2x_profile_free(f->p);
  free(f);
  return 0;
}

/* format.c's table: a row for every format, each once, a name each that
 * finds its row; pages only for pictures, and a picture holds several
 * inputs in one file when it has pages; a help name and a page kind for
 * every picture, and none for text; a MIME type for every format; an
 * extension that finds its row from a file name (the longest: NAME.pb.gz
 * is pprof's); nothing past the last row; PostScript alone on hp2ps's
 * page; pprof alone holding one census, CSV and the summary either. */
static void test_format_table(void **state) {
  (void)state;
  size_t rows = 0;
  for (const hp2x_format_info *r; (r = hp2x_format_row(rows)); rows++) {
    assert_ptr_equal(hp2x_format_of(r->format), r);
    assert_ptr_equal(hp2x_format_named(r->name), r);
    assert_true(!r->has_pages || r->writer == HP2X_WRITER_PICTURE);
    assert_int_equal(r->page != HP2X_PAGE_NONE,
                     r->writer == HP2X_WRITER_PICTURE);
    assert_non_null(strchr(r->media_type, '/'));
    char file[64];
    size_t at = 0;
    snprintf(file, sizeof file, "dir.v/x.y.%s", r->extension);
    assert_ptr_equal(hp2x_format_for_file(file, &at), r);
    assert_int_equal(at, strlen("dir.v/x.y"));
    assert_int_equal(r->span == HP2X_SPAN_CENSUS,
                     r->format == HP2X_FORMAT_PPROF);
    assert_int_equal(r->span == HP2X_SPAN_EITHER,
                     r->format == HP2X_FORMAT_CSV ||
                         r->format == HP2X_FORMAT_TXT);
    if (r->writer == HP2X_WRITER_PICTURE) {
      assert_int_equal(r->holds_several, r->has_pages);
      assert_non_null(r->long_name);
    }
  }
  assert_int_equal(rows, (size_t)HP2X_FORMAT_PPROF + 1);
  assert_int_equal(hp2x_format_of(HP2X_FORMAT_PS)->page, HP2X_PAGE_HP2PS);
  assert_int_equal(hp2x_format_of(HP2X_FORMAT_PDF)->page, HP2X_PAGE_FRAME);
  for (int f = HP2X_FORMAT_PS; f <= HP2X_FORMAT_PPROF; f++)
    assert_non_null(hp2x_format_of((hp2x_format)f));
  /* Names by their endings: the longest wins, a bare or unknown one none,
   * and only the last component counts. */
  size_t at = 99;
  assert_ptr_equal(hp2x_format_for_file("heap.pb.gz", &at),
                   hp2x_format_of(HP2X_FORMAT_PPROF));
  assert_int_equal(at, 4);
  assert_null(hp2x_format_for_file("heap.gz", NULL));
  assert_null(hp2x_format_for_file("pb.gz", NULL));
  assert_ptr_equal(hp2x_format_for_file(".pdf", NULL), /* as it was */
                   hp2x_format_of(HP2X_FORMAT_PDF));
  assert_null(hp2x_format_for_file("a.pdf/x", NULL));
  assert_null(hp2x_format_for_file("x.PDF", NULL));
  assert_ptr_equal(hp2x_format_for_file("a.b/c.d.pdf", NULL),
                   hp2x_format_of(HP2X_FORMAT_PDF));
  assert_null(hp2x_format_of((hp2x_format)99));
  assert_null(hp2x_format_named("jpg"));
  assert_null(hp2x_format_named(""));
}

static void test_is_picture(void **state) {
  (void)state;
  assert_true(hp2x_format_is_picture(HP2X_FORMAT_PS));
  assert_true(hp2x_format_is_picture(HP2X_FORMAT_EPS));
  assert_true(hp2x_format_is_picture(HP2X_FORMAT_PDF));
  assert_true(hp2x_format_is_picture(HP2X_FORMAT_SVG));
  assert_true(hp2x_format_is_picture(HP2X_FORMAT_PNG));
  assert_false(hp2x_format_is_picture(HP2X_FORMAT_CSV));
  assert_false(hp2x_format_is_picture(HP2X_FORMAT_HP));
  assert_false(hp2x_format_is_picture(HP2X_FORMAT_TXT));
  assert_false(hp2x_format_is_picture(HP2X_FORMAT_PPROF));
  assert_false(hp2x_format_is_picture((hp2x_format)99));
  /* pages: PS and PDF only; bands: everything but .hp and pprof */
  static const hp2x_format all[] = {
      HP2X_FORMAT_PS,  HP2X_FORMAT_EPS, HP2X_FORMAT_PDF,
      HP2X_FORMAT_SVG, HP2X_FORMAT_CSV, HP2X_FORMAT_HP,
      HP2X_FORMAT_TXT, HP2X_FORMAT_PNG, HP2X_FORMAT_PPROF};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    hp2x_format f = all[i];
    assert_int_equal(hp2x_format_has_pages(f),
                     f == HP2X_FORMAT_PS || f == HP2X_FORMAT_PDF);
    assert_int_equal(hp2x_format_needs_bands(f),
                     f != HP2X_FORMAT_HP && f != HP2X_FORMAT_PPROF);
  }
}

/* The format's own writer, for comparison. */
static hp2x_status write_directly(const fixture *f, const hp2x_options *o,
                                  mem *m, hp2x_err *err) {
  const hp2x_profile *p = f->p;
  const hp2x_bands *b = f->b;
  const char *name = "in";
  switch (o->format) {
  case HP2X_FORMAT_HP: return hp2x_write_hp(p, mem_write, m, err);
  case HP2X_FORMAT_CSV: return hp2x_write_csv(p, b, mem_write, m, err);
  case HP2X_FORMAT_TXT:
    return hp2x_write_summary(&p, &b, &name, 1, mem_write, m, err);
  default: return hp2x_render(p, b, o, mem_write, m, err);
  }
}

static void test_write_output_matches_writers(void **state) {
  fixture *f = *state;
  /* Not SVG: cairo numbers its surfaces across the process, so two SVGs
   * of one picture differ in their ids (test_svg_drawing below). */
  static const hp2x_format formats[] = {HP2X_FORMAT_PS, HP2X_FORMAT_EPS,
                                        HP2X_FORMAT_CSV, HP2X_FORMAT_HP,
                                        HP2X_FORMAT_TXT};
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    hp2x_options o = f->o;
    o.format = formats[i];
    mem got = {0}, want = {0};
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(
        hp2x_write_output(f->p, formats[i] == HP2X_FORMAT_HP ? NULL : f->b,
                          "in", &o, mem_write, &got, &err),
        HP2X_OK);
    assert_int_equal(write_directly(f, &o, &want, &err), HP2X_OK);
    assert_true(got.len > 0);
    assert_int_equal(got.len, want.len);
    assert_memory_equal(got.buf, want.buf, got.len);
    free(got.buf);
    free(want.buf);
  }
}

static void test_svg_drawing(void **state) {
  fixture *f = *state;
  hp2x_options o = f->o;
  o.format = HP2X_FORMAT_SVG;
  mem got = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(
      hp2x_write_output(f->p, f->b, NULL, &o, mem_write, &got, &err), HP2X_OK);
  assert_non_null(strstr(got.buf, "<svg"));
  assert_non_null(strstr(got.buf, "hp2x-tooltips")); /* SVG only */
  free(got.buf);
}

static void test_write_output_many(void **state) {
  fixture *f = *state;
  const hp2x_profile *ps[2] = {f->p, f->p};
  hp2x_bands *bs[2] = {NULL, NULL};
  const char *names[2] = {"a", "b"};
  hp2x_options o = f->o;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  const hp2x_bands *cbs[2] = {bs[0], bs[1]};

  o.format = HP2X_FORMAT_CSV;
  mem got = {0}, want = {0};
  assert_int_equal(
      hp2x_write_output_many(ps, cbs, names, 2, &o, mem_write, &got, &err),
      HP2X_OK);
  assert_int_equal(
      hp2x_write_csv_many(ps, cbs, names, 2, mem_write, &want, &err), HP2X_OK);
  assert_int_equal(got.len, want.len);
  assert_memory_equal(got.buf, want.buf, got.len);
  assert_non_null(strstr(got.buf, "input,time,"));
  free(got.buf);
  free(want.buf);

  /* Two profiles cannot share one .hp file; one can. */
  o.format = HP2X_FORMAT_HP;
  mem none = {0};
  assert_int_equal(
      hp2x_write_output_many(ps, cbs, names, 2, &o, mem_write, &none, &err),
      HP2X_E_ARG);
  assert_int_equal(err.code, HP2X_E_ARG);
  assert_int_equal(none.len, 0);
  hp2x_err_init(&err);
  mem one = {0};
  assert_int_equal(
      hp2x_write_output_many(ps, cbs, names, 1, &o, mem_write, &one, &err),
      HP2X_OK);
  assert_non_null(strstr(one.buf, "JOB \"output test\""));
  free(one.buf);
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
}

/* With o.span HP2X_SPAN_CENSUS, CSV and the summary hold the census
 * o.census chooses (the one nearest 0.6 s: 0.5 s), one profile or two;
 * the whole run by default; a census past the run refused. */
static void test_one_census(void **state) {
  fixture *f = *state;
  hp2x_options o = f->o;
  o.span = HP2X_SPAN_CENSUS;
  hp2x_census_choice_init(&o.census);
  o.census.rule = HP2X_CENSUS_AT;
  o.census.at_s = 0.6;
  hp2x_err err;
  hp2x_err_init(&err);
  o.format = HP2X_FORMAT_CSV;
  mem csv = {0}, txt = {0}, two = {0}, whole = {0}, none = {0};
  assert_int_equal(
      hp2x_write_output(f->p, f->b, "in", &o, mem_write, &csv, &err), HP2X_OK);
  assert_string_equal(csv.buf, "time,MAIN,(1)f/g\r\n0.500000,100,40\r\n");
  const hp2x_profile *ps[2] = {f->p, f->p};
  const hp2x_bands *bs[2] = {f->b, f->b};
  const char *names[2] = {"a", "b"};
  assert_int_equal(
      hp2x_write_output_many(ps, bs, names, 2, &o, mem_write, &two, &err),
      HP2X_OK);
  assert_string_equal(two.buf, "input,time,MAIN,(1)f/g\r\n"
                               "a,0.500000,100,40\r\nb,0.500000,100,40\r\n");
  o.format = HP2X_FORMAT_TXT;
  assert_int_equal(
      hp2x_write_output(f->p, f->b, "in", &o, mem_write, &txt, &err), HP2X_OK);
  assert_non_null(strstr(txt.buf, "census at 0.500000 seconds (sample 1 of "
                                  "3): 140 bytes in all\n"
                                  "change since the census before, at "
                                  "0.000000 seconds: +140 bytes\n"));
  assert_non_null(strstr(txt.buf, "\n             100   71.4%             "
                                  "+100  MAIN\n"));
  assert_non_null(strstr(txt.buf, "\n              40   28.6%              "
                                  "+40  (1)f/g\n"));
  o.span = HP2X_SPAN_RUN; /* the default: the whole run */
  assert_int_equal(
      hp2x_write_output(f->p, f->b, "in", &o, mem_write, &whole, &err),
      HP2X_OK);
  assert_non_null(strstr(whole.buf, "3 samples from 0.000 to 1.000 seconds"));
  o.span = HP2X_SPAN_CENSUS;
  o.census.at_s = 7.0;
  assert_int_equal(
      hp2x_write_output(f->p, f->b, "in", &o, mem_write, &none, &err),
      HP2X_E_ARG);
  assert_non_null(strstr(err.msg, "outside the run"));
  assert_int_equal(none.len, 0);
  free(csv.buf), free(txt.buf), free(two.buf), free(whole.buf);
}

static void test_failing_sink(void **state) {
  fixture *f = *state;
  hp2x_options o = f->o;
  o.format = HP2X_FORMAT_CSV;
  mem m = {0};
  m.fail_after = 4;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_output(f->p, f->b, "in", &o, mem_write, &m, &err),
                   HP2X_E_IO);
  assert_int_equal(err.code, HP2X_E_IO);
  free(m.buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_format_table),
      cmocka_unit_test(test_is_picture),
      cmocka_unit_test_setup_teardown(test_write_output_matches_writers, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_svg_drawing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_write_output_many, setup, teardown),
      cmocka_unit_test_setup_teardown(test_one_census, setup, teardown),
      cmocka_unit_test_setup_teardown(test_failing_sink, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
