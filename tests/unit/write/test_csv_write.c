/* test_csv_write.c -- csv_write.c: header in key order (top first), RFC 4180
 * quoting, integer values, one census's row (--at), a failing sink. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "select/bands_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sink {
  char buf[4096];
  size_t len;
  int fail;
} sink;

static int sink_write(void *closure, const void *b, size_t n) {
  sink *s = closure;
  if (s->fail) {
    errno = ENOSPC;
    return -1;
  }
  assert_true(s->len + n < sizeof s->buf);
  memcpy(s->buf + s->len, b, n);
  s->len += n;
  s->buf[s->len] = '\0';
  return 0;
}

/* Two samples; bands bottom..top: OTHER, "a,b", "say \"hi\"". */
static void make(hp2x_profile **pp, hp2x_bands *b, char **names,
                 int64_t *values) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  hpx_profile_begin_sample(p, 0.0);
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  hpx_profile_begin_sample(p, 1.25);
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  memset(b, 0, sizeof *b);
  b->n_bands = 3;
  b->n_samples = 2;
  b->stride = 2;
  names[0] = (char *)(uintptr_t) "OTHER";
  names[1] = (char *)(uintptr_t) "a,b";
  names[2] = (char *)(uintptr_t) "say \"hi\"";
  b->names = names;
  int64_t v[6] = {1, 2, 30, 40, 5000000000, 0};
  memcpy(values, v, sizeof v);
  b->values = values;
  *pp = p;
}

static void csv_header_order_and_quoting(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands b;
  char *names[3];
  int64_t values[6];
  make(&p, &b, names, values);
  sink s = {.len = 0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_csv(p, &b, sink_write, &s, &err), HP2X_OK);
  assert_string_equal(s.buf, "time,\"say \"\"hi\"\"\",\"a,b\",OTHER\r\n"
                             "0.000000,5000000000,30,1\r\n"
                             "1.250000,0,40,2\r\n");
  hp2x_profile_free(p);
}

/* One census of each profile: the whole CSV's row; "input,time" with
 * several; a census past the last refused, writing nothing. */
static void csv_one_census(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands b;
  char *names[3];
  int64_t values[6];
  make(&p, &b, names, values);
  hp2x_err err;
  hp2x_err_init(&err);
  const hp2x_profile *ps[2] = {p, p};
  const hp2x_bands *bs[2] = {&b, &b};
  const char *inputs[2] = {"x", "y, z"};
  size_t samples[2] = {1, 0};
  sink s = {.len = 0};
  assert_int_equal(
      hp2x_write_csv_censuses(ps, bs, inputs, samples, 1, sink_write, &s, &err),
      HP2X_OK);
  assert_string_equal(s.buf, "time,\"say \"\"hi\"\"\",\"a,b\",OTHER\r\n"
                             "1.250000,0,40,2\r\n");
  sink two = {.len = 0};
  assert_int_equal(hp2x_write_csv_censuses(ps, bs, inputs, samples, 2,
                                           sink_write, &two, &err),
                   HP2X_OK);
  assert_string_equal(
      two.buf, "input,time,\"say \"\"hi\"\"\",\"a,b\",OTHER\r\n"
               "x,1.250000,0,40,2\r\n\"y, z\",0.000000,5000000000,30,1\r\n");
  sink none = {.len = 0};
  samples[1] = 2;
  assert_int_equal(hp2x_write_csv_censuses(ps, bs, inputs, samples, 2,
                                           sink_write, &none, &err),
                   HP2X_E_ARG);
  assert_int_equal(none.len, 0);
  hp2x_profile_free(p);
}

static void csv_sink_failure(void **state) {
  (void)state;
  hp2x_profile *p;
  hp2x_bands b;
  char *names[3];
  int64_t values[6];
  make(&p, &b, names, values);
  sink s = {.len = 0, .fail = 1};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_csv(p, &b, sink_write, &s, &err), HP2X_E_IO);
  assert_non_null(strstr(err.msg, "No space"));
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(csv_header_order_and_quoting),
      cmocka_unit_test(csv_one_census),
      cmocka_unit_test(csv_sink_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
