/* test_csv_write.c -- csv_write.c: header in key order (top first), RFC 4180
 * quoting, integer values, one census's row (--at), a failing sink; and on
 * several threads (hp2x_options.threads), the bands bands.c fills and the
 * bytes written the same as on one, allocation failures and a failing
 * sink included. */
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

/* ----------------------------------------------- on several threads */

/* A growing sink; fail_after >= 0 fails the call that would pass that
 * many bytes. */
typedef struct big_sink {
  char *buf;
  size_t len, cap;
  long long fail_after;
} big_sink;

static int big_write(void *closure, const void *b, size_t n) {
  big_sink *s = closure;
  if (s->fail_after >= 0 && (long long)(s->len + n) > s->fail_after) {
    errno = ENOSPC;
    return -1;
  }
  if (s->len + n > s->cap) {
    s->cap = (s->len + n) * 2;
    s->buf = realloc(s->buf, s->cap);
    assert_non_null(s->buf);
  }
  memcpy(s->buf + s->len, b, n);
  s->len += n;
  return 0;
}

static uint32_t seed = 41;
static uint32_t rnd(uint32_t n) {
  seed = seed * 1103515245u + 12345u;
  return (seed >> 8) % n;
}

/* A profile of n samples of up to 40 labels out of 60 (40 bands and OTHER
 * with max_bands 41), read from .hp text. */
static hp2x_profile *many_samples(size_t n) {
  size_t cap = n * 40 * 24 + 256, len = 0;
  char *t = malloc(cap);
  assert_non_null(t);
  len += (size_t)sprintf(t + len, "JOB \"j\"\nDATE \"d\"\nSAMPLE_UNIT "
                                  "\"seconds\"\nVALUE_UNIT \"bytes\"\n");
  for (size_t s = 0; s < n; s++) {
    unsigned ms = rnd(1000);
    len += (size_t)sprintf(t + len, "BEGIN_SAMPLE %zu.%03u\n", s, ms);
    for (size_t k = 0, m = rnd(40); k < m; k++)
      len += (size_t)sprintf(t + len, "l%u\t%u\n", rnd(60), 8 * rnd(100000));
    len += (size_t)sprintf(t + len, "END_SAMPLE %zu.%03u\n", s, ms);
    assert_true(len + 40 * 24 < cap);
  }
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("many.hp", NULL, &err);
  assert_non_null(ps);
  assert_int_equal(hp2x_parser_feed(ps, t, len, &err), HP2X_OK);
  hp2x_profile *p = NULL;
  assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
  hp2x_parser_free(ps);
  free(t);
  return p;
}

static hp2x_bands *select_on(const hp2x_profile *p, size_t threads) {
  hp2x_options o;
  hp2x_options_init(&o);
  o.max_bands = 41;
  o.threads = threads;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b = NULL;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  return b;
}

static hp2x_status csv_on(const hp2x_profile *p, const hp2x_bands *b,
                          size_t threads, big_sink *s, hp2x_err *err) {
  hp2x_options o;
  hp2x_options_init(&o);
  o.format = HP2X_FORMAT_CSV;
  o.threads = threads;
  hp2x_err_init(err);
  return hp2x_write_output(p, b, "many.hp", &o, big_write, s, err);
}

static void csv_threads(void **state) {
  (void)state;
  /* Many chunks of rows on any number of threads (more chunks than
   * slots, each slot reused), and more samples than a task's share of
   * the bands' filling (16384 samples). */
  hp2x_profile *p = many_samples(70000);
  hp2x_bands *one = select_on(p, 1);
  big_sink ref = {NULL, 0, 0, -1};
  hp2x_err err;
  assert_int_equal(csv_on(p, one, 1, &ref, &err), HP2X_OK);
  const size_t threads[] = {2, 3, 7, 64, 1000};
  for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
    hp2x_bands *b = select_on(p, threads[i]);
    assert_int_equal(b->n_bands, one->n_bands);
    assert_int_equal(b->n_samples, one->n_samples);
    for (size_t k = 0; k < b->n_bands; k++)
      assert_memory_equal(b->values + k * b->stride,
                          one->values + k * one->stride,
                          b->n_samples * sizeof *b->values);
    assert_true(b->area == one->area && b->yrange == one->yrange);
    big_sink s = {NULL, 0, 0, -1};
    assert_int_equal(csv_on(p, b, threads[i], &s, &err), HP2X_OK);
    assert_int_equal(s.len, ref.len);
    assert_memory_equal(s.buf, ref.buf, ref.len);
    free(s.buf);
    hp2x_bands_free(b);
  }
  /* Selection with any allocation failing: out of memory, or the same
   * bands (the samples' heights summed on the calling thread when there
   * is no room to sum them on the filling ones). */
  hpx_alloc_fail_at(0);
  hp2x_bands_free(select_on(p, 3));
  long made = hpx_alloc_fail_at(0); /* a selection's allocations */
  for (long n = 1; n <= made; n++) {
    hp2x_options o;
    hp2x_options_init(&o);
    o.max_bands = 41;
    o.threads = 3;
    hp2x_bands *b = NULL;
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_bands_select(p, &o, &b, &err);
    hpx_alloc_fail_at(0);
    if (st != HP2X_OK) {
      assert_int_equal(st, HP2X_E_NOMEM);
      continue;
    }
    assert_true(b->area == one->area && b->yrange == one->yrange);
    for (size_t k = 0; k < b->n_bands; k++)
      assert_memory_equal(b->values + k * b->stride,
                          one->values + k * one->stride,
                          b->n_samples * sizeof *b->values);
    hp2x_bands_free(b);
  }
  /* A sink that fails part way: the same error on any number. */
  for (long long at = 100; at < (long long)ref.len;
       at += (long long)ref.len / 3) {
    big_sink s = {NULL, 0, 0, at};
    assert_int_equal(csv_on(p, one, 3, &s, &err), HP2X_E_IO);
    assert_non_null(strstr(err.msg, "No space"));
    free(s.buf);
  }
  /* Any allocation failing: the same bytes (a task without memory leaves
   * its rows to the caller), or out of memory before any was written. */
  size_t full = 0, nomem = 0;
  for (long n = 1; n < 40; n++) {
    big_sink s = {NULL, 0, 0, -1};
    hpx_alloc_fail_at(n);
    hp2x_status st = csv_on(p, one, 3, &s, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      assert_int_equal(s.len, ref.len);
      assert_memory_equal(s.buf, ref.buf, ref.len);
      full++;
    } else {
      assert_int_equal(st, HP2X_E_NOMEM);
      assert_int_equal(s.len, 0);
      nomem++;
    }
    free(s.buf);
  }
  assert_true(full > 0 && nomem > 0);
  free(ref.buf);
  hp2x_bands_free(one);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(csv_header_order_and_quoting),
      cmocka_unit_test(csv_one_census),
      cmocka_unit_test(csv_sink_failure),
      cmocka_unit_test(csv_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
