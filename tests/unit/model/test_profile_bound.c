/* test_profile_bound.c -- profile_bound.c: a profile read for a picture of
 * C device columns holds at most 4 C + 2 samples however long the run, keeps
 * the first and the last sample and the largest and smallest totals,
 * keeps the same samples however its bytes were split, selects the same
 * bands (every -d and -m case) as the whole profile with the same area to
 * rounding, and bounds its heap series and marks too, also when times go
 * back and forth; a follower of a thinned profile gives the bands of the
 * profile it follows; an unbounded profile, or one below its bound, keeps
 * every sample; --last sums and holds the span's samples only; an
 * unbounded profile's label sums are its values'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "parse_helpers.h"
#include "test_options.h"

#include <math.h>

#define COLUMNS 20
#define BOUND (4 * COLUMNS + 2) /* 3 C + 2 after a thinning, C more */

#define TEST_RNG_SEED 0x2545F4914F6CDD1Dull
#include "test_rng.h"

/* .hp text of `samples` samples of `labels` labels that grow, shrink and
 * spike; every 37th sample a MARK. */
static char *synthetic(size_t samples, size_t labels, size_t *len) {
  size_t cap = 256 + samples * (labels * 32 + 96);
  char *t = malloc(cap);
  assert_non_null(t);
  size_t n =
      (size_t)snprintf(t, cap,
                       "JOB \"bound\"\nDATE \"Wed Nov 25 2026\"\n"
                       "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n");
  for (size_t s = 0; s < samples; s++) {
    double time_s = 0.01 * (double)s + 0.001 * rnd(5);
    if (s % 37 == 0)
      n += (size_t)snprintf(t + n, cap - n, "MARK %.3f\n", time_s);
    n += (size_t)snprintf(t + n, cap - n, "BEGIN_SAMPLE %.3f\n", time_s);
    for (size_t l = 0; l < labels; l++) {
      if ((s / (40 + 7 * l) + l) % 5 == 0) continue; /* absent for a run */
      uint64_t v = 1000 * ((s * (l + 1)) % 89 + l * s / 50 + rnd(4));
      if (rnd(500) == 0) v *= 40; /* a spike */
      n += (size_t)snprintf(t + n, cap - n, "cc_%zu\t%llu\n", l,
                            (unsigned long long)v);
    }
    n += (size_t)snprintf(t + n, cap - n, "END_SAMPLE %.3f\n", time_s);
  }
  *len = n;
  return t;
}

/* Parses text in chunks of `step` bytes (0: whole), bounded by `columns`
 * (0: not). */
static hp2x_profile *parse(const char *text, size_t len, size_t step,
                           size_t columns) {
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.picture_columns = columns;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("bound", &o, &err);
  assert_non_null(ps);
  hp2x_status st = HP2X_OK;
  for (size_t pos = 0; st == HP2X_OK && pos < len;) {
    size_t k = step && step < len - pos ? step : len - pos;
    st = hp2x_parser_feed(ps, text + pos, k, &err);
    pos += k;
  }
  hp2x_profile *p = NULL;
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, &p, &err);
  hp2x_parser_free(ps);
  assert_int_equal(st, HP2X_OK);
  return p;
}

static int64_t sample_total(const hp2x_profile *p, size_t s) {
  int64_t t = 0;
  hpx_values r;
  hpx_values_of(p, s, &r);
  for (size_t e = p->start[s]; e < p->start[s + 1]; e++)
    t += hpx_values_next(&r);
  return t;
}

/* Does sample s of b hold what sample t of a does: its time, and each of
 * a's labels' value (a thinned profile may store a sample dense: every
 * label, 0 where absent)? */
static int same_values(const hp2x_profile *b, size_t s, const hp2x_profile *a,
                       size_t t) {
  if (b->times[s] != a->times[t] || sample_total(b, s) != sample_total(a, t))
    return 0;
  for (size_t id = 0; id < a->n_labels; id++) {
    long in_b = hpx_profile_find(b, a->labels[id].name, a->labels[id].name_len);
    int64_t want = hp2x_profile_value(a, t, id);
    if (in_b < 0 ? want != 0 : hp2x_profile_value(b, s, (size_t)in_b) != want)
      return 0;
  }
  return 1;
}

/* Is a sample of b at time t with total v? */
static int has_sample(const hp2x_profile *b, double t, int64_t v) {
  for (size_t s = 0; s < b->n_samples; s++)
    if (b->times[s] == t && sample_total(b, s) == v) return 1;
  return 0;
}

static void bounded_holds_what_the_picture_shows(void **state) {
  (void)state;
  size_t len;
  char *text = synthetic(6000, 8, &len);
  hp2x_profile *whole = parse(text, len, 0, 0);
  hp2x_profile *b = parse(text, len, 0, COLUMNS);
  assert_int_equal(whole->n_samples, 6000);
  assert_false(whole->bound.thinned);
  assert_true(b->bound.thinned);
  assert_int_equal(b->n_committed, 6000);
  assert_true(b->n_samples <= BOUND);
  assert_true(b->n_samples >= COLUMNS);
  assert_true(b->n_marks <= BOUND);
  /* every sample kept is one of the run's, in order */
  for (size_t s = 0, w = 0; s < b->n_samples; s++, w++) {
    while (w < whole->n_samples && !same_values(b, s, whole, w)) w++;
    assert_true(w < whole->n_samples);
  }
  /* the first, the last, the largest and the smallest total */
  size_t hi = 0, lo = 0, N = whole->n_samples;
  for (size_t s = 1; s < N; s++) {
    if (sample_total(whole, s) > sample_total(whole, hi)) hi = s;
    if (sample_total(whole, s) < sample_total(whole, lo)) lo = s;
  }
  assert_true(same_values(b, 0, whole, 0));
  assert_true(same_values(b, b->n_samples - 1, whole, N - 1));
  assert_true(has_sample(b, whole->times[hi], sample_total(whole, hi)));
  assert_true(has_sample(b, whole->times[lo], sample_total(whole, lo)));
  /* the sums count every sample */
  for (size_t id = 0; id < whole->n_labels; id++) {
    long found =
        hpx_profile_find(b, whole->labels[id].name, whole->labels[id].name_len);
    assert_true(found >= 0);
    assert_int_equal(b->labels[found].sums.total, whole->labels[id].sums.total);
  }
  hp2x_profile_free(whole);
  hp2x_profile_free(b);
  free(text);
}

static void same_samples_however_split(void **state) {
  (void)state;
  size_t len;
  char *text = synthetic(3000, 5, &len);
  hp2x_profile *one = parse(text, len, 0, COLUMNS);
  static const size_t steps[] = {1, 7, 100, 4096};
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
    hp2x_profile *p = parse(text, len, steps[i], COLUMNS);
    assert_true(same_profile(p, one));
    hp2x_profile_free(p);
  }
  hp2x_profile_free(one);
  free(text);
}

/* The bands of p and q agree: names, OTHER, and area to rounding. */
static void assert_same_selection(const hp2x_profile *p, const hp2x_profile *q,
                                  const hp2x_options *o) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *a = NULL, *b = NULL;
  assert_int_equal(hp2x_bands_select(p, o, &a, &err), HP2X_OK);
  assert_int_equal(hp2x_bands_select(q, o, &b, &err), HP2X_OK);
  assert_int_equal(a->n_bands, b->n_bands);
  assert_int_equal(a->is_other, b->is_other);
  for (size_t k = 0; k < a->n_bands; k++)
    assert_string_equal(a->names[k], b->names[k]);
  assert_true(fabs(a->area - b->area) <= 1e-9 * fabs(a->area));
  assert_true(a->x0 == b->x0 && a->xrange == b->xrange);
  hp2x_bands_free(a);
  hp2x_bands_free(b);
}

static void same_selection_as_every_sample(void **state) {
  (void)state;
  size_t len;
  char *text = synthetic(5000, 30, &len);
  hp2x_profile *whole = parse(text, len, 0, 0);
  hp2x_profile *b = parse(text, len, 0, COLUMNS);
  assert_true(b->bound.thinned);
  hp2x_options o;
  test_options_init(&o);
  assert_same_selection(whole, b, &o);
  o.sort = HP2X_SORT_STDDEV;
  assert_same_selection(whole, b, &o);
  o.max_bands = 4;
  assert_same_selection(whole, b, &o);
  o.sort = HP2X_SORT_AREA;
  o.trace_pct = 5.0;
  assert_same_selection(whole, b, &o);
  hp2x_profile_free(whole);
  hp2x_profile_free(b);
  free(text);
}

static void below_the_bound_keeps_every_sample(void **state) {
  (void)state;
  size_t len;
  char *text = synthetic(499, 4, &len);
  hp2x_profile *whole = parse(text, len, 0, 0);
  hp2x_profile *b = parse(text, len, 0, 125); /* thins at 500 */
  assert_false(b->bound.thinned);
  assert_true(same_profile(b, whole));
  hp2x_profile_free(whole);
  hp2x_profile_free(b);
  free(text);
}

/* An empty profile bounded by COLUMNS, filled by the test itself. */
static hp2x_profile *bounded_profile(hp2x_err *err) {
  hp2x_err_init(err);
  hp2x_profile *p = hpx_profile_new(err);
  assert_non_null(p);
  hpx_profile_bound_set(p, COLUMNS);
  return p;
}

/* Times that go back and forth (a damaged profile: the parsers accept
 * what the model is given) split every bucket into runs. */
static void times_back_and_forth_stay_bounded(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_profile *p = bounded_profile(&err);
  uint32_t id;
  assert_int_equal(hpx_profile_intern(p, "a", 1, NULL, 0, &id, &err), HP2X_OK);
  for (size_t s = 0; s < 4000; s++) {
    double t = (s % 2 ? 1000.0 : -1000.0) + 0.001 * (double)s;
    hpx_profile_begin_sample(p, t);
    assert_int_equal(profile_add_entry(p, id, (int64_t)rnd(1000), &err),
                     HP2X_OK);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
    assert_true(p->n_samples <= BOUND);
    assert_int_equal(hpx_profile_add_mark(p, t, NULL, 0, &err), HP2X_OK);
    assert_true(p->n_marks <= BOUND);
  }
  hp2x_profile_free(p);
}

static void series_bounded_keeps_extremes(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_profile *p = bounded_profile(&err);
  int64_t most = 0, least = INT64_MAX;
  for (size_t i = 0; i < 20000; i++) {
    int64_t v = 1000 + (int64_t)rnd(100000);
    if (v > most) most = v;
    if (v < least) least = v;
    assert_int_equal(hpx_profile_series_add(&p->heap[HPX_HEAP_SIZE],
                                            0.5 * (double)i, v, &err),
                     HP2X_OK);
    assert_true(p->heap[HPX_HEAP_SIZE].n <= BOUND);
  }
  int saw_most = 0, saw_least = 0;
  for (size_t i = 0; i < p->heap[HPX_HEAP_SIZE].n; i++) {
    saw_most |= p->heap[HPX_HEAP_SIZE].bytes[i] == most;
    saw_least |= p->heap[HPX_HEAP_SIZE].bytes[i] == least;
    if (i)
      assert_true(p->heap[HPX_HEAP_SIZE].time_s[i] >
                  p->heap[HPX_HEAP_SIZE].time_s[i - 1]);
  }
  assert_true(saw_most && saw_least);
  assert_true(p->heap[HPX_HEAP_SIZE].time_s[0] == 0.0);
  assert_true(p->heap[HPX_HEAP_SIZE].time_s[p->heap[HPX_HEAP_SIZE].n - 1] ==
              0.5 * 19999);
  hp2x_profile_free(p);
}

static void follower_of_a_thinned_profile(void **state) {
  (void)state;
  size_t len;
  char *text = synthetic(4000, 12, &len);
  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  po.picture_columns = COLUMNS;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser *ps = hp2x_parser_new("bound", &po, &err);
  hp2x_follower *f = hp2x_follower_new(&err);
  assert_non_null(ps);
  assert_non_null(f);
  hp2x_options o;
  test_options_init(&o);
  o.max_bands = 5;
  for (size_t pos = 0; pos < len; pos += 5000) {
    size_t k = len - pos < 5000 ? len - pos : 5000;
    assert_int_equal(hp2x_parser_feed(ps, text + pos, k, &err), HP2X_OK);
    const hp2x_profile *p = hp2x_parser_peek(ps);
    const hp2x_bands *fb = NULL;
    hp2x_bands *sb = NULL;
    assert_int_equal(hp2x_follower_select(f, p, &o, &fb, &err), HP2X_OK);
    assert_int_equal(hp2x_bands_select(p, &o, &sb, &err), HP2X_OK);
    assert_int_equal(fb->n_bands, sb->n_bands);
    assert_int_equal(fb->n_samples, sb->n_samples);
    for (size_t b = 0; b < fb->n_bands; b++) {
      assert_string_equal(fb->names[b], sb->names[b]);
      for (size_t s = 0; s < fb->n_samples; s++)
        assert_int_equal(hp2x_bands_value(fb, b, s),
                         hp2x_bands_value(sb, b, s));
    }
    assert_true(fabs(fb->area - sb->area) <= 1e-9 * fabs(sb->area));
    hp2x_bands_free(sb);
  }
  assert_true(hp2x_parser_peek(ps)->bound.thinned);
  hp2x_follower_free(f);
  hp2x_parser_free(ps);
  free(text);
}

/* --last: the sums are those of the samples from the span's start on
 * (a slot boundary), and only those samples are held; bounded or not. */
static void last_span(void **state) {
  (void)state;
  size_t len;
  char *text = synthetic(6000, 7, &len);
  hp2x_profile *whole = parse(text, len, 0, 0);
  for (size_t columns = 0; columns <= COLUMNS; columns += COLUMNS) {
    hp2x_parse_options o;
    hp2x_parse_options_init(&o);
    o.picture_columns = columns;
    o.last_s = 7.3;
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_parser *ps = hp2x_parser_new("last", &o, &err);
    assert_non_null(ps);
    for (size_t pos = 0; pos < len; pos += 999)
      assert_int_equal(hp2x_parser_feed(ps, text + pos,
                                        len - pos < 999 ? len - pos : 999,
                                        &err),
                       HP2X_OK);
    hp2x_profile *p = NULL;
    assert_int_equal(hp2x_parser_finish(ps, &p, &err), HP2X_OK);
    hp2x_parser_free(ps);
    double slot = 7.3 / RECENT_SLOTS, last = whole->times[5999];
    double from = (floor(last / slot) - (RECENT_SLOTS - 1)) * slot;
    assert_true(hpx_recent_from(p) == from);
    size_t in = 0;
    for (size_t s = 0; s < whole->n_samples; s++) in += whole->times[s] >= from;
    assert_int_equal(p->bound.summed, in);
    assert_true(p->n_samples <= (columns ? BOUND : in));
    if (!columns) assert_int_equal(p->n_samples, in);
    for (size_t s = 0; s < p->n_samples; s++) assert_true(p->times[s] >= from);
    for (size_t id = 0; id < p->n_labels; id++) {
      long w =
          hpx_profile_find(whole, p->labels[id].name, p->labels[id].name_len);
      assert_true(w >= 0);
      int64_t total = 0;
      for (size_t s = 0; s < whole->n_samples; s++)
        if (whole->times[s] >= from)
          total += hp2x_profile_value(whole, s, (size_t)w);
      assert_int_equal(p->labels[id].sums.total, total);
      assert_int_equal(label_present(&p->labels[id].sums), total > 0);
    }
    hp2x_profile_free(p);
  }
  hp2x_profile_free(whole);
  free(text);
}

/* Values past 4 GiB that are whole words (GHC's are) stay in 32 bits,
 * counted in words; one that is not widens them all; every value reads
 * back as it came. */
static void big_values_in_words(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_profile *p = bounded_profile(&err);
  uint32_t id;
  assert_int_equal(hpx_profile_intern(p, "a", 1, NULL, 0, &id, &err), HP2X_OK);
  static const int64_t values[] = {8,          4096, 4ll << 32, 16,
                                   31ll << 30, 12,   7ll << 33};
  size_t n = sizeof values / sizeof *values;
  for (size_t i = 0; i < n; i++) {
    hpx_profile_begin_sample(p, (double)i);
    assert_int_equal(profile_add_entry(p, id, values[i], &err), HP2X_OK);
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
    /* words from the first value past 4 GiB; 64 bits from 12 on */
    assert_int_equal(p->wide_values, i >= 5);
    assert_int_equal(p->value_shift, i >= 2 ? 3 : 0);
    for (size_t s = 0; s <= i; s++)
      assert_int_equal(hp2x_profile_value(p, s, id), values[s]);
  }
  hp2x_profile_free(p);
}

/* An unbounded profile's label sums (the 32-bit values' own loop, and
 * the general one once the values are wide): each label's total, entry
 * count and presence are its values' in every census, in words past 4 GiB
 * too, with labels in and out of the censuses and in changing order. */
static void unbounded_sums(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  enum { LABELS = 5, SAMPLES = 400 };
  uint32_t id[LABELS + 1];
  char name[2] = "a";
  for (int l = 0; l <= LABELS; l++, name[0]++)
    assert_int_equal(hpx_profile_intern(p, name, 1, NULL, 0, &id[l], &err),
                     HP2X_OK);
  int64_t total[LABELS] = {0};
  uint64_t entries[LABELS] = {0};
  for (size_t s = 0; s < SAMPLES; s++) {
    hpx_profile_begin_sample(p, (double)s);
    for (size_t i = 0; i < LABELS; i++) {
      size_t l = (i + (s % 7 == 3 ? 2 : 0)) % LABELS; /* another order */
      if (l == 4 && s % 3) continue;                  /* absent, mostly */
      int64_t v = 8 * (int64_t)(1 + rnd(100000));
      if (s == 150 && l == 1) v = 5ll << 32; /* words from here on */
      if (s == 300 && l == 2) v = 3;         /* 64 bits from here on */
      assert_int_equal(profile_add_entry(p, id[l], v, &err), HP2X_OK);
      total[l] += v;
      entries[l]++;
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
    assert_int_equal(p->value_shift, s >= 150 ? 3 : 0);
    assert_int_equal(p->wide_values, s >= 300);
    for (size_t l = 0; l < LABELS; l++) {
      assert_int_equal(p->labels[id[l]].sums.total, total[l]);
      assert_int_equal(p->labels[id[l]].sums.entries, entries[l]);
      assert_true(label_present(&p->labels[id[l]].sums));
    }
    assert_false(label_present(&p->labels[id[LABELS]].sums)); /* never in one */
  }
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bounded_holds_what_the_picture_shows),
      cmocka_unit_test(same_samples_however_split),
      cmocka_unit_test(same_selection_as_every_sample),
      cmocka_unit_test(below_the_bound_keeps_every_sample),
      cmocka_unit_test(times_back_and_forth_stay_bounded),
      cmocka_unit_test(series_bounded_keeps_extremes),
      cmocka_unit_test(follower_of_a_thinned_profile),
      cmocka_unit_test(last_span),
      cmocka_unit_test(big_values_in_words),
      cmocka_unit_test(unbounded_sums),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
