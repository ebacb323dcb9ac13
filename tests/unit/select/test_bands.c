/* test_bands.c -- bands.c beyond the hp2ps comparison data: a worked
 * example of 30 bands, -m1 and -m0, OTHER from the bottom of the
 * -i order, option validation, 50 000 bands, allocation failures, a
 * label seen only in a dropped (incomplete) sample never becoming a band,
 * a profile whose entries were dropped after selection, and packed and
 * 64-bit censuses filled by groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "select/bands_int.h"
#include "test_options.h"
#include "test_hooks.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* 30 bands band00..band29, totals growing with the index; some bands are
 * missing in half the samples. */
static hp2x_profile *worked_example(size_t n_bands, size_t samples) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  for (size_t s = 0; s < samples; s++) {
    hpx_profile_begin_sample(p, 0.5 * (double)s);
    for (size_t k = 0; k < n_bands; k++) {
      if (k % 7 == 3 && s % 2) continue;
      char name[32];
      snprintf(name, sizeof name, "band%02zu", k);
      uint32_t id;
      assert_int_equal(
          hpx_profile_intern(p, name, strlen(name), NULL, 0, &id, &err),
          HP2X_OK);
      assert_int_equal(
          profile_add_entry(p, id, (int64_t)(100 * (k + 1) * (k + 1)), &err),
          HP2X_OK);
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  return p;
}

/* p's bands, at most m (0: all), trace threshold t, on `threads` (0: the
 * options' default). */
static hp2x_bands *select_on(const hp2x_profile *p, int m, double t,
                             int name_order, size_t threads) {
  hp2x_options o;
  test_options_init(&o);
  o.max_bands = m;
  o.trace_pct = t;
  o.name_order = name_order;
  if (threads) o.threads = threads;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b = NULL;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  return b;
}

static hp2x_bands *select_with(const hp2x_profile *p, int m, double t,
                               int name_order) {
  return select_on(p, m, t, name_order, 0);
}

static void spec_worked_example(void **state) {
  (void)state;
  hp2x_profile *p = worked_example(30, 10);
  hp2x_bands *b = select_with(p, 20, 1.0, 0);
  assert_int_equal(b->n_bands, 20);
  assert_string_equal(b->names[0], "OTHER");
  assert_true(b->is_other);
  assert_string_equal(b->names[19], "band29"); /* largest on top */
  for (size_t k = 2; k < 20; k++) { /* ascending totals above OTHER */
    int64_t lo = 0, hi = 0;
    for (size_t s = 0; s < 10; s++) {
      lo += hp2x_bands_value(b, k - 1, s);
      hi += hp2x_bands_value(b, k, s);
    }
    assert_true(lo <= hi);
  }
  /* OTHER holds a value in every sample, the sum of its members there */
  for (size_t s = 0; s < 10; s++) assert_true(hp2x_bands_value(b, 0, s) > 0);
  hp2x_bands_free(b);
  b = select_with(p, 1, 1.0, 0); /* -m1: everything in OTHER */
  assert_int_equal(b->n_bands, 1);
  assert_string_equal(b->names[0], "OTHER");
  hp2x_bands_free(b);
  b = select_with(p, 0, 0.0, 0); /* -m0 -t0: every band, no OTHER */
  assert_int_equal(b->n_bands, 30);
  assert_false(b->is_other);
  hp2x_bands_free(b);
  /* -i: OTHER takes the alphabetically first survivors; -i-: the last */
  b = select_with(p, 20, 1.0, 1);
  assert_string_equal(b->names[19], "band29");
  assert_int_equal(strcmp(b->names[1], b->names[19]) < 0, 1);
  hp2x_bands_free(b);
  b = select_with(p, 20, 1.0, -1);
  assert_int_equal(strcmp(b->names[1], b->names[19]) > 0, 1);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void options_are_checked(void **state) {
  (void)state;
  hp2x_profile *p = worked_example(3, 2);
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_bands *b = NULL;
  o.trace_pct = 5.5;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_E_ARG);
  assert_null(b);
  o.trace_pct = 1.0;
  o.max_bands = -1;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_E_ARG);
  hp2x_profile_free(p);
}

/* 50 000 labels x 20 samples: the O(n log n) sorts finish at once. */
static void many_bands(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  for (size_t s = 0; s < 20; s++) {
    hpx_profile_begin_sample(p, (double)s);
    for (size_t k = 0; k < 50000; k++) {
      char name[32];
      snprintf(name, sizeof name, "cc%05zu", (k * 7919) % 50000);
      uint32_t id;
      hpx_profile_intern(p, name, strlen(name), NULL, 0, &id, &err);
      profile_add_entry(p, id, (int64_t)(k % 97 + 1), &err);
    }
    hpx_profile_end_sample(p, &err);
  }
  int orders[] = {0, 1, -1};
  for (size_t i = 0; i < 3; i++) {
    hp2x_bands *b = select_with(p, 0, 0.0, orders[i]);
    assert_int_equal(b->n_bands, 50000);
    hp2x_bands_free(b);
  }
  hp2x_options o;
  test_options_init(&o);
  o.sort = HP2X_SORT_STDDEV;
  hp2x_bands *b;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void dropped_sample_labels_are_not_bands(void **state) {
  (void)state;
  hp2x_profile *p = worked_example(3, 3);
  hp2x_err err;
  hp2x_err_init(&err);
  hpx_profile_begin_sample(p, 9.0);
  uint32_t id;
  hpx_profile_intern(p, "ghost", 5, NULL, 0, &id, &err);
  profile_add_entry(p, id, 1 << 30, &err);
  hpx_profile_abort_sample(p);
  hp2x_bands *b = select_with(p, 0, 0.0, 0);
  for (size_t k = 0; k < b->n_bands; k++)
    assert_string_not_equal(b->names[k], "ghost");
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* Sums of residencies saturate at INT64_MAX instead of overflowing (signed
 * overflow is undefined; the normal build printed -2): a label repeated in
 * a sample, OTHER, the totals that order bands.  Inputs kept for the
 * fuzzers in tests/fuzz-regress/pipeline/int64-{bands,repeat}. */
static void sums_saturate(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  for (int s = 0; s < 3; s++) {
    hpx_profile_begin_sample(p, (double)s);
    for (int k = 0; k < 3; k++) {
      char name[8];
      snprintf(name, sizeof name, "b%d", k);
      uint32_t id;
      assert_int_equal(hpx_profile_intern(p, name, 2, NULL, 0, &id, &err),
                       HP2X_OK);
      assert_int_equal(profile_add_entry(p, id, INT64_MAX, &err), HP2X_OK);
      if (k == 0)
        assert_int_equal(profile_add_entry(p, id, INT64_MAX, &err), HP2X_OK);
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  assert_true(hp2x_profile_value(p, 1, 0) == INT64_MAX);
  hp2x_bands *b = select_with(p, 0, 0.0, 0);
  assert_int_equal(b->n_bands, 3);
  for (size_t k = 0; k < 3; k++)
    assert_true(hp2x_bands_value(b, k, 2) == INT64_MAX);
  assert_true(b->yrange == (double)INT64_MAX);
  hp2x_bands_free(b);
  b = select_with(p, 1, 0.0, 0); /* all three in OTHER */
  assert_int_equal(b->n_bands, 1);
  assert_true(hp2x_bands_value(b, 0, 0) == INT64_MAX);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* Folds sample s's stacked height, dt seconds after the sample before,
 * into the y range and area f = {ymax, area, prev}, as bands_fill.c's
 * heights_add does. */
static void fold_height(int64_t height, int s, double dt, double f[3]) {
  double h = (double)height;
  if (h > f[0]) f[0] = h;
  if (s > 0) {
    double lo = h < f[2] ? h : f[2];
    f[1] += dt * lo + dt * fabs(h - f[2]) / 2.0;
  }
  f[2] = h;
}

/* The id of label `name` in p, interned. */
static uint32_t label_id(hp2x_profile *p, const char *name) {
  hp2x_err err;
  hp2x_err_init(&err);
  uint32_t id;
  assert_int_equal(
      hpx_profile_intern(p, name, strlen(name), NULL, 0, &id, &err), HP2X_OK);
  return id;
}

/* The stacked heights the fill sums as it adds 32-bit values (no second
 * pass over the bands): the y range and area of a profile of 40,000
 * samples (two fill tasks on two threads), four labels of values up to
 * UINT32_MAX, one now and then absent, two of them in OTHER; each height
 * is every value of its sample, and the figures are heights_add's over
 * them, on one thread as on two. */
static void heights_as_filled(void **state) {
  (void)state;
  enum { N = 40000, L = 4 };
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  double f[3] = {0.0, 0.0, 0.0};
  for (int s = 0; s < N; s++) {
    hpx_profile_begin_sample(p, s * 0.25);
    int64_t height = 0;
    for (int k = 0; k < L; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      if (x % 7 == 0) continue; /* absent from this sample */
      char name[8];
      snprintf(name, sizeof name, "l%d", k);
      uint32_t id;
      assert_int_equal(hpx_profile_intern(p, name, 2, NULL, 0, &id, &err),
                       HP2X_OK);
      int64_t v = (int64_t)(x >> 32);
      assert_int_equal(profile_add_entry(p, id, v, &err), HP2X_OK);
      height += v;
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
    fold_height(height, s, 0.25, f);
  }
  assert_false(p->wide_values);
  for (size_t threads = 1; threads <= 2; threads++) {
    hp2x_bands *b = select_on(p, 3, 0.0, 0, threads);
    assert_int_equal(b->n_bands, 3);
    assert_true(b->yrange == f[0]);
    assert_true(b->area == f[1]);
    hp2x_bands_free(b);
  }
  hp2x_profile_free(p);
}

/* a + v for v >= 0, at most INT64_MAX (as hpx_add_sat). */
static int64_t sat_add(int64_t a, int64_t v) {
  return a > INT64_MAX - v ? INT64_MAX : a + v;
}

/* Packed censuses (then 64-bit ones) filled by groups of eight: 33,000
 * samples (two fill tasks) of eleven labels in an order of their own,
 * values mostly small; now and then one of 2^35 - 1 (added plainly) or
 * 2^35 (its group taken back and added saturating), in the first group
 * or the second, a label twice near INT64_MAX (its band saturates), and
 * three of INT64_MAX / 2 (the height saturates).  Every band's value,
 * the y range and the area are the saturating sums', on one thread and
 * on two. */
static void read_values_as_filled(void **state) {
  (void)state;
  enum { N = 33000, L = 11 };
  static int64_t want[N][L];
  uint64_t x = 0x9e3779b97f4a7c15ull;
  double f[3] = {0.0, 0.0, 0.0}; /* the y range, area, last height */
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  p->pack_values = true; /* as parser.c asks a big input's profile */
  for (int s = 0; s < N; s++) {
    hpx_profile_begin_sample(p, s * 0.5);
    int64_t height = 0;
    for (int i = 0; i < L; i++) {
      int k = (s + i * (1 + s % 5)) % L; /* a new order each census */
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      int64_t v = (int64_t)(x >> 40);
      if (s % 97 == 5 && i == s % L) v = ((int64_t)1 << 35) - 1;
      if (s % 97 == 6 && i == s % L) v = (int64_t)1 << 35;
      if (s % 97 == 40 && i < 3) v = INT64_MAX / 2;
      char name[8];
      snprintf(name, sizeof name, "l%d", k);
      uint32_t id = label_id(p, name);
      int twice = s % 97 == 41 && i == 9;
      if (twice) v = INT64_MAX - 5;
      for (int j = 0; j <= twice; j++) {
        assert_int_equal(profile_add_entry(p, id, v, &err), HP2X_OK);
        want[s][k] = sat_add(want[s][k], v);
        height = sat_add(height, v);
      }
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
    fold_height(height, s, 0.5, f);
  }
  assert_true(p->n_packed_samples > N / 2);
  assert_true(p->wide_values);
  for (size_t threads = 1; threads <= 2; threads++) {
    hp2x_bands *b = select_on(p, 0, 0.0, 0, threads);
    assert_int_equal(b->n_bands, L);
    for (size_t band = 0; band < L; band++) {
      int k = atoi(b->names[band] + 1);
      for (size_t s = 0; s < N; s++)
        assert_true(hp2x_bands_value(b, band, s) == want[s][k]);
    }
    assert_true(b->yrange == f[0]);
    assert_true(b->area == f[1]);
    hp2x_bands_free(b);
  }
  hp2x_profile_free(p);
}

/* Only empty samples: no label was ever stored, so the label runs are
 * NULL and must not be indexed (clang UBSan: zero offset to a null
 * pointer; fuzz_pipeline's input kept in tests/fuzz-regress/pipeline/). */
static void only_empty_samples(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  for (int s = 0; s < 3; s++) {
    hpx_profile_begin_sample(p, (double)s);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  hp2x_bands *b = select_with(p, 20, 1.0, 0);
  assert_int_equal(b->n_bands, 0);
  hp2x_bands_free(b);
  hp2x_options o;
  test_options_init(&o);
  o.sort = HP2X_SORT_STDDEV;
  assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

static void allocation_failures(void **state) {
  (void)state;
  hp2x_profile *p = worked_example(30, 10);
  hp2x_options o;
  test_options_init(&o);
  o.sort = HP2X_SORT_STDDEV;
  for (long n = 1;; n++) {
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_bands *b = NULL;
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_bands_select(p, &o, &b, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      hp2x_bands_free(b);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_null(b);
    assert_true(n < 1000);
  }
  hp2x_profile_free(p);
}

typedef struct {
  char buf[1 << 17];
  size_t len;
} sink;

static int to_sink(void *closure, const void *data, size_t len) {
  sink *k = closure;
  if (k->len + len > sizeof k->buf) return -1;
  memcpy(k->buf + k->len, data, len);
  k->len += len;
  return 0;
}

/* Everything the CLI writes after dropping the entries: CSV, PostScript,
 * .aux and the summary, each into out[0..3]. */
static void write_all(const hp2x_profile *p, const hp2x_bands *b, sink *out) {
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_PS;
  hp2x_err err;
  hp2x_err_init(&err);
  const char *name = "p";
  for (int i = 0; i < 4; i++) out[i].len = 0;
  assert_int_equal(hp2x_write_csv(p, b, to_sink, &out[0], &err), HP2X_OK);
  assert_int_equal(hp2x_render(p, b, &o, to_sink, &out[1], &err), HP2X_OK);
  assert_int_equal(hp2x_write_aux(p, b, &o, to_sink, &out[2], &err), HP2X_OK);
  assert_int_equal(hp2x_write_summary(&p, &b, &name, 1, to_sink, &out[3], &err),
                   HP2X_OK);
  for (int i = 0; i < 4; i++) assert_true(out[i].len > 0);
}

/* What drawing reads stays; what needs the entries says so (HP2X_E_ARG). */
static void dropped_entries(void **state) {
  (void)state;
  hp2x_profile *p = worked_example(30, 10);
  hp2x_bands *b = select_with(p, 20, 1.0, 0);
  static sink before[4], after[4];
  hp2x_err err;
  hp2x_err_init(&err);
  write_all(p, b, before);
  assert_int_not_equal(hp2x_profile_value(p, 3, 29), 0);
  hp2x_profile_drop_entries(p);
  assert_int_equal(hp2x_profile_sample_count(p), 10);
  assert_true(hp2x_profile_sample_time(p, 9) == 4.5);
  assert_int_equal(hp2x_profile_label_count(p), 30);
  assert_string_equal(hp2x_profile_label(p, 29), "band29");
  write_all(p, b, after);
  for (int i = 0; i < 4; i++) {
    assert_int_equal(before[i].len, after[i].len);
    assert_memory_equal(before[i].buf, after[i].buf, before[i].len);
  }
  assert_int_equal(hp2x_profile_value(p, 3, 29), 0);

  hp2x_options o;
  test_options_init(&o);
  hp2x_bands *b2 = NULL;
  assert_int_equal(hp2x_bands_select(p, &o, &b2, &err), HP2X_E_ARG);
  assert_null(b2);
  assert_non_null(strstr(err.msg, "dropped"));
  const hp2x_profile *two[2] = {p, p};
  hp2x_bands *bs[2] = {b, b};
  assert_int_equal(hp2x_bands_select_many(two, 2, &o, bs, &err), HP2X_E_ARG);
  assert_null(bs[0]);
  assert_null(bs[1]);
  hp2x_profile *view = NULL;
  assert_int_equal(hp2x_profile_window(p, 0.0, 1.0, &view, &err), HP2X_E_ARG);
  assert_int_equal(hp2x_profile_by_index(p, &view, &err), HP2X_E_ARG);
  assert_null(view);
  sink *hp = &after[0];
  hp->len = 0;
  assert_int_equal(hp2x_write_hp(p, to_sink, hp, &err), HP2X_E_ARG);
  assert_int_equal(hp->len, 0);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
}

/* 300 000 entries, one of them past UINT32_MAX half-way: the values widen
 * once, keep growing afterwards, and every sum stays exact; a failed
 * allocation at any point (the widening's included) is only "out of
 * memory". */
static hp2x_profile *widening_profile(hp2x_err *err) {
  hp2x_profile *p = hpx_profile_new(err);
  if (!p) return NULL;
  uint32_t id[3];
  const char *names[3] = {"a", "b", "c"};
  for (int k = 0; k < 3; k++)
    if (hpx_profile_intern(p, names[k], 1, NULL, 0, &id[k], err) != HP2X_OK)
      goto fail;
  for (size_t s = 0; s < 100000; s++) {
    hpx_profile_begin_sample(p, (double)s);
    for (int k = 0; k < 3; k++) {
      int64_t v = s == 50000 && k == 1 ? (int64_t)1 << 40
                                       : (int64_t)(s * 3 + (size_t)k);
      if (profile_add_entry(p, id[k], v, err) != HP2X_OK) goto fail;
    }
    if (hpx_profile_end_sample(p, err) != HP2X_OK) goto fail;
  }
  return p;
fail:
  hp2x_profile_free(p);
  return NULL;
}

static void widening_at_scale(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = widening_profile(&err);
  assert_non_null(p);
  assert_true(p->wide_values);
  assert_true(p->cap_entries <= p->alloc_entries);
  for (size_t s = 0; s < 100000; s += 4999)
    for (size_t k = 0; k < 3; k++)
      assert_true(
          hp2x_profile_value(p, s, k) ==
          (s == 50000 && k == 1 ? (int64_t)1 << 40 : (int64_t)(s * 3 + k)));
  hp2x_bands *b = select_with(p, 20, 0.0, 0);
  int64_t sum = 0;
  for (size_t k = 0; k < b->n_bands; k++)
    sum += b->values[k * b->n_samples + 50000];
  assert_true(sum == ((int64_t)1 << 40) + 150000 + 150002);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  /* Every allocation fails once in turn, up to the first run that needs
   * no more: the widening's is among them. */
  long n = 1;
  for (;; n++) {
    assert_true(n < 1000);
    hp2x_err_init(&err);
    hpx_alloc_fail_at(n);
    p = widening_profile(&err);
    hpx_alloc_fail_at(0);
    if (p) break;
    assert_int_equal(err.code, HP2X_E_NOMEM);
  }
  assert_true(p->wide_values);
  hp2x_profile_free(p);
  assert_true(n > 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(spec_worked_example),
      cmocka_unit_test(options_are_checked),
      cmocka_unit_test(many_bands),
      cmocka_unit_test(dropped_sample_labels_are_not_bands),
      cmocka_unit_test(sums_saturate),
      cmocka_unit_test(heights_as_filled),
      cmocka_unit_test(read_values_as_filled),
      cmocka_unit_test(only_empty_samples),
      cmocka_unit_test(allocation_failures),
      cmocka_unit_test(dropped_entries),
      cmocka_unit_test(widening_at_scale),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
