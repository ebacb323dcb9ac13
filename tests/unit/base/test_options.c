/* test_options.c -- base/options.c: growing option structs (hp2x.h): a caller
 * compiled against an older, smaller hp2x_options (or hp2x_parse_options)
 * gets the defaults of the fields it does not know, and the library
 * neither reads nor writes past the caller's size; a size too small for
 * any version is HP2X_E_ARG; a caller built before the parser's threads
 * reads on one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "hp2x.h"
#include "mem_sink.h"
#include "read/frontends.h"
#include "test_options.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char profile_text[] =
    "JOB \"size\"\nDATE \"Mon Jan 1 2024\"\nSAMPLE_UNIT \"seconds\"\n"
    "VALUE_UNIT \"bytes\"\n"
    "BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n"
    "BEGIN_SAMPLE 1.0\na\t100\nb\t50\nEND_SAMPLE 1.0\n"
    "BEGIN_SAMPLE 2.0\na\t80\nb\t90\nEND_SAMPLE 2.0\n";

/* The options as a program built before fonts_conf and source_date_epoch
 * existed has them: the struct up to heap_overlay. */
#define OLD_SIZE HP2X_OPTIONS_MIN_SIZE
enum { POISON = 0x5a };

static hp2x_profile *parse_profile(void) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("size.hp", NULL, &err);
  assert_non_null(ps);
  assert_int_equal(
      hp2x_parser_feed(ps, profile_text, strlen(profile_text), &err), HP2X_OK);
  hp2x_profile *p = NULL;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  hp2x_parser_free(ps);
  return p;
}

/* Selects and draws p as PostScript with options o; the bytes, caller
 * frees. */
static char *draw(const hp2x_profile *p, const hp2x_options *o, size_t *len) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b = NULL;
  assert_int_equal(hp2x_bands_select(p, o, &b, &err), HP2X_OK);
  mem m = {NULL, 0, 0, 0};
  assert_int_equal(hp2x_render(p, b, o, mem_write, &m, &err), HP2X_OK);
  hp2x_bands_free(b);
  *len = m.len;
  return m.buf;
}

/* An older caller's struct, followed by bytes it does not own (poisoned):
 * init writes none of them, and a render reads none of them (a poisoned
 * source_date_epoch would date the picture, a poisoned fonts_conf would
 * crash), drawing what the full defaults draw. */
static void older_caller_gets_defaults(void **state) {
  (void)state;
  assert_true(OLD_SIZE <= offsetof(hp2x_options, fonts_conf));
  unsigned char *buf = malloc(sizeof(hp2x_options));
  memset(buf, POISON, sizeof(hp2x_options));
  hp2x_options *old = (hp2x_options *)buf;
  hp2x_options_init_sized(old, OLD_SIZE);
  assert_int_equal(old->size, OLD_SIZE);
  for (size_t i = OLD_SIZE; i < sizeof(hp2x_options); i++)
    assert_int_equal(buf[i], POISON);
  assert_int_equal(old->max_bands, 20);
  assert_int_equal(old->title_box, HP2X_TITLE_AUTO);

  hp2x_options full;
  hp2x_options_init(&full);
  assert_int_equal(full.size, sizeof full);
  assert_null(full.fonts_conf);
  assert_int_equal(full.source_date_epoch, -1);
  /* The chart kind and the breakdown's say came later still: an older
   * caller's poisoned bytes there (an unknown chart kind) are not read. */
  assert_int_equal(full.chart, HP2X_CHART_STACKED);
  assert_int_equal(full.by_breakdown,
                   HP2X_BY_BREAKDOWN_ORDER | HP2X_BY_BREAKDOWN_COLOURS);
  assert_true(OLD_SIZE <= offsetof(hp2x_options, chart));

  hp2x_profile *p = parse_profile();
  size_t old_len, full_len, dated_len;
  char *old_ps = draw(p, old, &old_len);
  char *full_ps = draw(p, &full, &full_len);
  full.source_date_epoch = 86400;
  char *dated_ps = draw(p, &full, &dated_len);
  assert_int_equal(old_len, full_len);
  assert_memory_equal(old_ps, full_ps, old_len);
  assert_non_null(strstr(full_ps, "%%CreationDate: Mon Jan 1 2024\n"));
  /* The new field does change the picture: the equality above is the
   * default's doing, not the field's being ignored. */
  assert_non_null(strstr(dated_ps, "%%CreationDate: 1970-01-02T00:00:00Z\n"));
  free(old_ps);
  free(full_ps);
  free(dated_ps);
  hp2x_profile_free(p);
  free(buf);
}

/* A caller built against a newer header: init writes this library's part
 * and says so in size; the rest is left alone. */
static void newer_caller_learns_the_known_size(void **state) {
  (void)state;
  size_t newer = sizeof(hp2x_options) + 32;
  unsigned char *buf = malloc(newer);
  memset(buf, POISON, newer);
  hp2x_options *o = (hp2x_options *)buf;
  hp2x_options_init_sized(o, newer);
  assert_int_equal(o->size, sizeof(hp2x_options));
  for (size_t i = sizeof(hp2x_options); i < newer; i++)
    assert_int_equal(buf[i], POISON);
  free(buf);
}

/* A size below any version's (an uninitialised struct, say). */
static void too_small_is_an_argument_error(void **state) {
  (void)state;
  hp2x_profile *p = parse_profile();
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b = NULL;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  o.size = OLD_SIZE - 1;
  hp2x_bands *b2 = (hp2x_bands *)&o; /* must come back NULL */
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select(p, &o, &b2, &err), HP2X_E_ARG);
  assert_null(b2);
  char want[128];
  snprintf(want, sizeof want,
           "options of %zu bytes: start them with hp2x_options_init",
           (size_t)OLD_SIZE - 1);
  assert_string_equal(err.msg, want);
  mem m = {NULL, 0, 0, 0};
  hp2x_err_init(&err);
  assert_int_equal(hp2x_render(p, b, &o, mem_write, &m, &err), HP2X_E_ARG);
  assert_int_equal(m.len, 0);
  o.size = 0;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_output(p, b, "x", &o, mem_write, &m, &err),
                   HP2X_E_ARG);
  free(m.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(p);

  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  assert_int_equal(po.size, sizeof po);
  po.size = sizeof po.size;
  hp2x_err_init(&err);
  assert_null(hp2x_parser_new("x.hp", &po, &err));
  assert_int_equal(err.code, HP2X_E_ARG);
  snprintf(want, sizeof want,
           "parse options of %zu bytes: start them with "
           "hp2x_parse_options_init",
           sizeof po.size);
  assert_string_equal(err.msg, want);
}

/* Parse options: init writes no more than the size it is given. */
static void parse_options_init_keeps_to_size(void **state) {
  (void)state;
  unsigned char buf[sizeof(hp2x_parse_options) + 16];
  memset(buf, POISON, sizeof buf);
  size_t part = offsetof(hp2x_parse_options, max_labels);
  hp2x_parse_options_init_sized((hp2x_parse_options *)buf, part);
  for (size_t i = part; i < sizeof buf; i++) assert_int_equal(buf[i], POISON);
  hp2x_parse_options_init_sized((hp2x_parse_options *)buf, sizeof buf);
  hp2x_parse_options got;
  memcpy(&got, buf, sizeof got);
  assert_int_equal(got.size, sizeof got);
  assert_int_equal(got.kind, HP2X_INPUT_AUTO);
  for (size_t i = sizeof got; i < sizeof buf; i++)
    assert_int_equal(buf[i], POISON);
}

/* Parse options of a caller built before threads and part_bytes: bytes
 * past its size are never read; it reads on one thread.  A newer caller's
 * threads read in parts. */
static void parse_options_before_threads(void **state) {
  (void)state;
  size_t len = 0, cap = 1 << 21;
  char *text = malloc(cap);
  assert_non_null(text);
  len += (size_t)snprintf(text, cap, "%s", profile_text);
  for (int s = 3; len + 100 < cap; s++)
    len += (size_t)snprintf(text + len, cap - len,
                            "BEGIN_SAMPLE %d.0\na\t%d\nEND_SAMPLE %d.0\n", s, s,
                            s);
  for (int newer = 0; newer < 2; newer++) {
    unsigned char buf[sizeof(hp2x_parse_options) + 16];
    memset(buf, POISON, sizeof buf);
    size_t size = newer ? sizeof(hp2x_parse_options)
                        : offsetof(hp2x_parse_options, threads);
    hp2x_parse_options_init_sized((hp2x_parse_options *)buf, size);
    if (newer) {
      hp2x_parse_options *o = (hp2x_parse_options *)buf;
      o->threads = 3;
      o->part_bytes = 5000;
    }
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_parser *ps = hp2x_parser_new("x.hp", (hp2x_parse_options *)buf, &err);
    assert_non_null(ps);
    assert_int_equal(hp2x_parser_feed(ps, text, len, &err), HP2X_OK);
    parts_count c = hpx_parser_parts(ps);
    assert_true(newer ? c.merged > 10 : c.merged + c.fed == 0);
    hp2x_parser_free(ps);
  }
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(older_caller_gets_defaults),
      cmocka_unit_test(newer_caller_learns_the_known_size),
      cmocka_unit_test(too_small_is_an_argument_error),
      cmocka_unit_test(parse_options_init_keeps_to_size),
      cmocka_unit_test(parse_options_before_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
