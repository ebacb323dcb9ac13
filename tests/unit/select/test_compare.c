/* test_compare.c -- comparing runs: one band selection over several
 * profiles (select_many.c), shared axes (select_many.c, layout.c), the
 * label palette (colour.c, palette.c), the diff chart (diff_chart.c), the
 * CSV of several profiles (csv_write.c), several pictures in one output
 * and the source date (render.c, surface.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "pdf_inflate.h"
#include "test_options.h"

#include "draw/layout.h"
#include "select/bands_int.h"
#include "select/palette.h"
#include "test_hooks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the bytes of the PDF m, its compressed streams inflated (cairo
 * 1.18 writes its objects into object streams), hold `needle`. */
static int has(const mem *m, const char *needle) {
  mem text = pdf_inflated(m->buf, m->len);
  size_t n = strlen(needle);
  int found = 0;
  for (size_t i = 0; i + n <= text.len && !found; i++)
    found = !memcmp(text.buf + i, needle, n);
  free(text.buf);
  return found;
}

/* A profile from a compact description: samples at times t0, t0 + dt, ...;
 * in sample s, label names[k] has value vals[k] * (s + 1) when vals[k] > 0
 * (absent when 0). */
static hp2x_profile *make(const char *job, double t0, double dt, size_t n,
                          const char *const *names, const int64_t *vals,
                          size_t nl) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  assert_non_null(p);
  assert_int_equal(
      hpx_profile_set_header(p, PROFILE_JOB, job, strlen(job), &err), HP2X_OK);
  assert_int_equal(
      hpx_profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, &err), HP2X_OK);
  assert_int_equal(
      hpx_profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, &err),
      HP2X_OK);
  assert_int_equal(
      hpx_profile_set_header(p, PROFILE_DATE, "Mon Jan 1 2024", 14, &err),
      HP2X_OK);
  for (size_t s = 0; s < n; s++) {
    hpx_profile_begin_sample(p, t0 + dt * (double)s);
    for (size_t k = 0; k < nl; k++) {
      if (!vals[k]) continue;
      uint32_t id;
      assert_int_equal(
          hpx_profile_intern(p, names[k], strlen(names[k]), NULL, 0, &id, &err),
          HP2X_OK);
      assert_int_equal(
          profile_add_entry(p, id, vals[k] * (int64_t)(s + 1), &err), HP2X_OK);
    }
    assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  }
  return p;
}

static const char *const abc[] = {"alpha", "beta", "gamma", "delta"};

static void select_many_shares_bands(void **state) {
  (void)state;
  const int64_t va[] = {100, 50, 30, 0}; /* no delta */
  const int64_t vb[] = {0, 60, 20, 90};  /* no alpha */
  hp2x_profile *a = make("a", 0, 1, 10, abc, va, 4);
  hp2x_profile *b = make("b", 0, 1, 10, abc, vb, 4);
  const hp2x_profile *ps[] = {a, b};
  hp2x_bands *bs[2];
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  /* The same bands in the same order for both, all four labels. */
  assert_int_equal(hp2x_bands_count(bs[0]), 4);
  assert_int_equal(hp2x_bands_count(bs[1]), 4);
  for (size_t k = 0; k < 4; k++)
    assert_string_equal(hp2x_bands_name(bs[0], k), hp2x_bands_name(bs[1], k));
  /* Each profile's own values, zeros where a label is absent. */
  for (size_t k = 0; k < 4; k++) {
    const char *name = hp2x_bands_name(bs[0], k);
    size_t l = 0;
    while (strcmp(abc[l], name)) l++;
    for (size_t s = 0; s < 10; s++) {
      assert_int_equal(hp2x_bands_value(bs[0], k, s), va[l] * (int64_t)(s + 1));
      assert_int_equal(hp2x_bands_value(bs[1], k, s), vb[l] * (int64_t)(s + 1));
    }
  }
  /* Combined totals, b's values weighted 9900 / 9350 so both runs weigh
   * the same: beta 6244, alpha 5500, delta 5241, gamma 2815: gamma at the
   * bottom, beta on top. */
  assert_string_equal(hp2x_bands_name(bs[0], 0), "gamma");
  assert_string_equal(hp2x_bands_name(bs[0], 3), "beta");
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
  hp2x_profile_free(a);
  hp2x_profile_free(b);
}

/* With one profile, the shared selection is exactly hp2ps's. */
static void select_many_of_one_is_select(void **state) {
  (void)state;
  const char *names[30];
  int64_t vals[30];
  char buf[30][16];
  for (size_t k = 0; k < 30; k++) {
    snprintf(buf[k], sizeof buf[k], "cc%02zu", k);
    names[k] = buf[k];
    vals[k] = (int64_t)((k * 7919) % 101 + 1);
  }
  hp2x_profile *p = make("p", 0.5, 0.25, 12, names, vals, 30);
  for (int variant = 0; variant < 3; variant++) {
    hp2x_options o;
    test_options_init(&o);
    o.trace_pct = variant == 1 ? 5.0 : 1.0;
    o.sort = variant == 2 ? HP2X_SORT_STDDEV : HP2X_SORT_AREA;
    o.max_bands = variant == 1 ? 6 : 20;
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_bands *one, *many;
    assert_int_equal(hp2x_bands_select(p, &o, &one, &err), HP2X_OK);
    const hp2x_profile *ps[] = {p};
    assert_int_equal(hp2x_bands_select_many(ps, 1, &o, &many, &err), HP2X_OK);
    assert_int_equal(one->n_bands, many->n_bands);
    for (size_t k = 0; k < one->n_bands; k++) {
      assert_string_equal(one->names[k], many->names[k]);
      for (size_t s = 0; s < 12; s++)
        assert_int_equal(hp2x_bands_value(one, k, s),
                         hp2x_bands_value(many, k, s));
    }
    assert_true(one->xrange == many->xrange && one->yrange == many->yrange);
    assert_true(one->area == many->area && one->x0 == many->x0);
    hp2x_bands_free(one);
    hp2x_bands_free(many);
  }
  hp2x_profile_free(p);
}

/* A band that is most of a short run is not trace because a long run with
 * many samples dwarfs it: each run weighs the same. */
static void short_run_is_not_trace(void **state) {
  (void)state;
  const char *const n1[] = {"big", "small"};
  const int64_t v1[] = {1000, 10};
  const char *const n2[] = {"small", "other"};
  const int64_t v2[] = {500, 500};
  hp2x_profile *a = make("short", 0, 1, 2, n1, v1, 2);
  hp2x_profile *b = make("long", 0, 0.01, 2000, n2, v2, 2);
  const hp2x_profile *ps[] = {a, b};
  hp2x_bands *bs[2];
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  int found = 0;
  for (size_t k = 0; k < bs[0]->n_bands; k++)
    found |= !strcmp(bs[0]->names[k], "big");
  assert_true(found);
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
  hp2x_profile_free(a);
  hp2x_profile_free(b);
}

static double measure(void *ctx, const char *s, size_t len, double size) {
  (void)ctx;
  (void)s;
  return (double)len * size * 0.5;
}

/* Uniform scales: one time origin and span, one y range, equal ticks; and
 * none: each its own, as when selected alone. */
static void uniform_axes(void **state) {
  (void)state;
  const int64_t va[] = {100, 50, 30, 0};
  const int64_t vb[] = {0, 600, 200, 900};
  hp2x_profile *a = make("a", 0.0, 0.1, 11, abc, va, 4); /* 0 .. 1 s */
  hp2x_profile *b = make("b", 0.5, 0.5, 20, abc, vb, 4); /* 0.5 .. 10 s */
  const hp2x_profile *ps[] = {a, b};
  hp2x_options o;
  test_options_init(&o);
  o.uniform = HP2X_UNIFORM_TIME | HP2X_UNIFORM_MEMORY;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *bs[2];
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  for (int i = 0; i < 2; i++) {
    assert_true(bs[i]->x0 == 0.0);
    assert_true(bs[i]->xrange == 10.0);
    assert_true(bs[i]->yrange == 1700.0 * 20); /* b's last sample */
  }
  layout la, lb;
  assert_int_equal(
      hpx_layout_compute(a, bs[0], &o, 0, measure, NULL, &la, &err), HP2X_OK);
  assert_int_equal(
      hpx_layout_compute(b, bs[1], &o, 0, measure, NULL, &lb, &err), HP2X_OK);
  assert_int_equal(la.n_xticks, lb.n_xticks);
  assert_int_equal(la.n_yticks, lb.n_yticks);
  assert_true(la.n_xticks >= 4);
  for (size_t i = 0; i < la.n_xticks; i++) {
    assert_string_equal(la.xticks[i].label, lb.xticks[i].label);
    assert_true(la.xticks[i].pos == lb.xticks[i].pos);
  }
  for (size_t i = 0; i < la.n_yticks; i++)
    assert_string_equal(la.yticks[i].label, lb.yticks[i].label);
  assert_string_equal(la.xticks[1].label, "2.0"); /* 1-2-5 step of 10/7 */
  hpx_layout_free(&la);
  hpx_layout_free(&lb);
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);

  o.uniform = 0;
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  assert_true(bs[0]->x0 == 0.0 && fabs(bs[0]->xrange - 1.0) < 1e-12);
  assert_true(bs[1]->x0 == 0.5 && bs[1]->xrange == 9.5);
  assert_true(bs[0]->yrange == 180.0 * 11);
  assert_false(bs[0]->x_span_ticks);
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
  hp2x_profile_free(a);
  hp2x_profile_free(b);
}

static void select_many_errors(void **state) {
  (void)state;
  const int64_t va[] = {100, 50, 30, 0};
  hp2x_profile *a = make("a", 0, 1, 3, abc, va, 4);
  const hp2x_profile *ps[] = {a, a, a};
  hp2x_bands *bs[3];
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select_many(ps, 0, &o, bs, &err), HP2X_E_ARG);
  hp2x_err_init(&err);
  o.trace_pct = 7;
  assert_int_equal(hp2x_bands_select_many(ps, 3, &o, bs, &err), HP2X_E_ARG);
  assert_null(bs[0]);
  o.trace_pct = 1;
  /* Every allocation failure ends in a clean HP2X_E_NOMEM. */
  for (long n = 1;; n++) {
    hp2x_err_init(&err);
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_bands_select_many(ps, 3, &o, bs, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      for (int i = 0; i < 3; i++) hp2x_bands_free(bs[i]);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    for (int i = 0; i < 3; i++) assert_null(bs[i]);
    assert_true(n < 1000);
  }
  hp2x_profile_free(a);
}

/* ------------------------------------------------------------ colours */

/* FNV-1a, 64 bits, written out here from its published constants. */
static uint64_t fnv1a(const char *s) {
  uint64_t h = 14695981039346656037ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static hp2x_bands *named_bands(const char *const *names, size_t n) {
  hp2x_bands *b = calloc(1, sizeof *b);
  b->n_bands = n;
  b->names = calloc(n, sizeof *b->names);
  b->shades = malloc(n * sizeof *b->shades);
  for (size_t k = 0; k < n; k++) {
    b->names[k] = hpx_strndup(names[k], strlen(names[k]));
    b->shades[k] = -1.0;
  }
  return b;
}

static void free_named(hp2x_bands *b) {
  for (size_t k = 0; k < b->n_bands; k++) hpx_free(b->names[k]);
  free(b->names);
  free(b->shades);
  free(b);
}

static void label_palette(void **state) {
  (void)state;
  size_t K = hpx_colour_slot_count();
  assert_int_equal(K, 24);
  /* The preferred slot is FNV-1a of the name mod 24, on every machine. */
  const char *const some[] = {"Int", "[]", "MAIN", "(254)GHC.IO.CAF", ""};
  for (size_t i = 0; i < 5; i++)
    assert_int_equal(hpx_colour_preferred_slot(some[i], strlen(some[i])),
                     fnv1a(some[i]) % 24);
  /* Slot shades decode to channels in 99ths, and survive the six decimals
   * the .aux file stores. */
  for (size_t i = 0; i < K; i++) {
    double sh = hpx_colour_slot_shade(i), rgb[3], back[3];
    char text[32];
    snprintf(text, sizeof text, "%.6f", sh);
    hpx_palette_rgb(sh, 1, rgb);
    hpx_palette_rgb(strtod(text, NULL), 1, back);
    for (int c = 0; c < 3; c++) {
      assert_true(rgb[c] == back[c]);
      double v = rgb[c] * 99.0;
      assert_true(fabs(v - round(v)) < 1e-9);
    }
    for (size_t j = 0; j < i; j++) assert_true(hpx_colour_slot_shade(j) != sh);
  }
  /* hp2ps's colour encoding still decodes as before. */
  double rgb[3];
  hpx_palette_rgb(0.100505, 1, rgb);
  assert_true(rgb[0] == 1.0 && rgb[1] == 0.5 && rgb[2] == 0.5);

  /* 24 bands: 24 different colours; 30 bands: the slots repeat. */
  char buf[30][16];
  const char *names[30];
  for (size_t k = 0; k < 30; k++) {
    snprintf(buf[k], sizeof buf[k], "label %zu", k);
    names[k] = buf[k];
  }
  hp2x_bands *b = named_bands(names, 24);
  double shade[30];
  hp2x_options o;
  test_options_init(&o);
  o.palette = HP2X_PALETTE_LABEL;
  hpx_palette_assign(b, &o, shade);
  for (size_t k = 0; k < 24; k++)
    for (size_t j = 0; j < k; j++) assert_true(shade[k] != shade[j]);
  /* The top band always has its own colour; the rest move on collision. */
  assert_true(shade[23] == hpx_colour_slot_shade(fnv1a(names[23]) % 24));
  free_named(b);

  /* A collision: two names wanting one slot; the higher band keeps it and
   * the other takes the next slot. */
  char other[16];
  size_t want = fnv1a("Int") % 24;
  for (int i = 0;; i++) {
    snprintf(other, sizeof other, "x%d", i);
    if (fnv1a(other) % 24 == want) break;
  }
  const char *pair[] = {other, "Int"};
  b = named_bands(pair, 2);
  hpx_palette_assign(b, &o, shade);
  assert_true(shade[1] == hpx_colour_slot_shade(want));
  assert_true(shade[0] == hpx_colour_slot_shade((want + 1) % 24));
  /* The same label alone keeps its colour: stable across pictures. */
  const char *alone[] = {other};
  hp2x_bands *c = named_bands(alone, 1);
  double s1[1];
  hpx_palette_assign(c, &o, s1);
  assert_true(s1[0] == hpx_colour_slot_shade(want));
  /* An .aux shade is kept and its slot is not given to another band. */
  c->shades[0] = hpx_colour_slot_shade(want);
  free_named(b);
  const char *three[] = {"Int", other};
  b = named_bands(three, 2);
  b->shades[0] = hpx_colour_slot_shade(want);
  hpx_palette_assign(b, &o, shade);
  assert_true(shade[0] == hpx_colour_slot_shade(want));
  assert_true(shade[1] == hpx_colour_slot_shade((want + 1) % 24));
  /* hp2x_bands_rgb decodes what hpx_palette_assign chose. */
  double out[6];
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_rgb(b, &o, out, &err), HP2X_OK);
  for (size_t k = 0; k < 2; k++) {
    hpx_palette_rgb(shade[k], 1, rgb);
    assert_memory_equal(out + 3 * k, rgb, sizeof rgb);
  }
  /* --palette=grey and hp2ps greys: hp2ps's greys, also with colour. */
  o.palette = HP2X_PALETTE_GREY;
  o.colour = 1;
  assert_false(hpx_palette_is_colour(&o));
  b->shades[0] = -1.0;
  hpx_palette_assign(b, &o, shade);
  assert_true(shade[0] == 0.0 && shade[1] == 0.2);
  free_named(b);
  free_named(c);
}

/* --------------------------------------------------------------- diff */

static void diff_chart(void **state) {
  (void)state;
  const char *const one[] = {"x"};
  const int64_t va[] = {100}; /* 100, 200, ... 1100 over 0..10 s */
  const int64_t vb[] = {50};  /* 50, 100, ... 250 over 2..6 s */
  hp2x_profile *a = make("run a", 0, 1, 11, one, va, 1);
  hp2x_profile *b = make("run b", 2, 1, 5, one, vb, 1);
  const hp2x_profile *ps[] = {a, b};
  hp2x_bands *bs[2];
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  hp2x_profile *dp;
  hp2x_bands *db;
  assert_int_equal(hp2x_diff_new(a, bs[0], b, bs[1], &dp, &db, &err), HP2X_OK);
  assert_int_equal(hp2x_profile_sample_count(dp), 201);
  assert_int_equal(hp2x_bands_sample_count(db), 201);
  assert_string_equal(hp2x_profile_sample_unit(dp), "% of run");
  assert_string_equal(hp2x_profile_job(dp), "run b minus run a");
  assert_true(hp2x_profile_sample_time(dp, 0) == 0.0);
  assert_true(hp2x_profile_sample_time(dp, 100) == 50.0);
  assert_true(hp2x_profile_sample_time(dp, 200) == 100.0);
  /* At fraction u: a = 100 + 1000 u, b = 50 + 200 u; b - a = -50 - 800 u. */
  for (size_t j = 0; j <= 200; j += 25) {
    double u = (double)j / 200.0;
    assert_int_equal(hp2x_bands_value(db, 0, j), llround(-50.0 - 800.0 * u));
  }
  assert_true(db->is_signed);
  assert_true(db->ymin == -850.0 && db->yrange == 850.0);
  /* CSV of the diff: signed values. */
  mem m = {NULL, 0, 0, 0};
  assert_int_equal(hp2x_write_csv(dp, db, mem_write, &m, &err), HP2X_OK);
  assert_non_null(strstr(m.buf, "time,x\r\n0.000000,-50\r\n"));
  assert_non_null(strstr(m.buf, "\r\n100.000000,-850\r\n"));
  free(m.buf);
  /* Drawn in every picture format. */
  for (hp2x_format f = HP2X_FORMAT_PS; f <= HP2X_FORMAT_SVG; f++) {
    o.format = f;
    o.eps_width_pt = f == HP2X_FORMAT_EPS ? 400 : 0;
    mem pic = {NULL, 0, 0, 0};
    assert_int_equal(hp2x_render(dp, db, &o, mem_write, &pic, &err), HP2X_OK);
    assert_true(pic.len > 1000);
    free(pic.buf);
  }
  hp2x_profile_free(dp);
  hp2x_bands_free(db);
  /* Bands from two separate selections may differ: refused. */
  hp2x_bands *alone;
  const char *const two[] = {"x", "y"};
  const int64_t v2[] = {5, 7};
  hp2x_profile *c = make("c", 0, 1, 3, two, v2, 2);
  assert_int_equal(hp2x_bands_select(c, &o, &alone, &err), HP2X_OK);
  hp2x_err_init(&err);
  assert_int_equal(hp2x_diff_new(a, bs[0], c, alone, &dp, &db, &err),
                   HP2X_E_ARG);
  assert_null(dp);
  assert_null(db);
  hp2x_bands_free(alone);
  hp2x_profile_free(c);
  for (long n = 1;; n++) {
    hp2x_err_init(&err);
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_diff_new(a, bs[0], b, bs[1], &dp, &db, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      hp2x_profile_free(dp);
      hp2x_bands_free(db);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_null(dp);
    assert_true(n < 1000);
  }
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
  hp2x_profile_free(a);
  hp2x_profile_free(b);
}

/* ------------------------------------------------- CSV and pictures */

static void csv_and_pictures(void **state) {
  (void)state;
  const int64_t va[] = {100, 50, 30, 0};
  const int64_t vb[] = {0, 60, 20, 90};
  hp2x_profile *a = make("a", 0, 1, 3, abc, va, 4);
  hp2x_profile *b = make("b", 0, 1, 2, abc, vb, 4);
  const hp2x_profile *ps[] = {a, b};
  hp2x_bands *bs[2];
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select_many(ps, 2, &o, bs, &err), HP2X_OK);
  const hp2x_bands *cbs[] = {bs[0], bs[1]};
  const char *const names[] = {"first, run", "second"};
  mem m = {NULL, 0, 0, 0};
  assert_int_equal(hp2x_write_csv_many(ps, cbs, names, 2, mem_write, &m, &err),
                   HP2X_OK);
  assert_string_equal(m.buf, "input,time,beta,alpha,delta,gamma\r\n"
                             "\"first, run\",0.000000,50,100,0,30\r\n"
                             "\"first, run\",1.000000,100,200,0,60\r\n"
                             "\"first, run\",2.000000,150,300,0,90\r\n"
                             "second,0.000000,60,0,90,20\r\n"
                             "second,1.000000,120,0,180,40\r\n");
  free(m.buf);

  /* PDF: a page per profile; SVG and EPS: refused unless stacked. */
  o.format = HP2X_FORMAT_PDF;
  m = (mem){NULL, 0, 0, 0};
  assert_int_equal(hp2x_render_many(ps, cbs, 2, &o, mem_write, &m, &err),
                   HP2X_OK);
  assert_true(has(&m, "/Count 2"));
  free(m.buf);
  o.format = HP2X_FORMAT_SVG;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_render_many(ps, cbs, 2, &o, mem_write, &m, &err),
                   HP2X_E_ARG);
  /* The one-page formats, named from format.c's table. */
  assert_string_equal(err.msg, "EPS, SVG and PNG have one page: stack the "
                               "pictures or write one file each");
  o.layout = HP2X_LAYOUT_STACK;
  m = (mem){NULL, 0, 0, 0};
  assert_int_equal(hp2x_render_many(ps, cbs, 2, &o, mem_write, &m, &err),
                   HP2X_OK);
  /* Two 432 pt frames 18 pt apart with 36 pt margins: 954 pt high. */
  assert_non_null(strstr(m.buf, "width=\"720pt\" height=\"954pt\""));
  free(m.buf);
  o.format = HP2X_FORMAT_EPS;
  o.eps_width_pt = 324; /* half size: 2 x 216 + 9 */
  m = (mem){NULL, 0, 0, 0};
  assert_int_equal(hp2x_render_many(ps, cbs, 2, &o, mem_write, &m, &err),
                   HP2X_OK);
  assert_non_null(strstr(m.buf, "%%BoundingBox: 0 0 324 441"));
  free(m.buf);
  /* Patterns draw (PostScript, a page each). */
  o.format = HP2X_FORMAT_PS;
  o.eps_width_pt = 0;
  o.layout = HP2X_LAYOUT_PAGES;
  o.pattern = 1;
  m = (mem){NULL, 0, 0, 0};
  assert_int_equal(hp2x_render_many(ps, cbs, 2, &o, mem_write, &m, &err),
                   HP2X_OK);
  assert_non_null(strstr(m.buf, "%%Pages: 2"));
  free(m.buf);
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
  hp2x_profile_free(a);
  hp2x_profile_free(b);
}

/* A source date (the tool's SOURCE_DATE_EPOCH) dates PostScript and PDF;
 * unset, PS has DATE. */
static void source_date_epoch(void **state) {
  (void)state;
  const int64_t va[] = {100, 50, 30, 0};
  hp2x_profile *a = make("a", 0, 1, 3, abc, va, 4);
  hp2x_options o;
  test_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_bands *b;
  assert_int_equal(hp2x_bands_select(a, &o, &b, &err), HP2X_OK);
  o.source_date_epoch = 86400;
  for (hp2x_format f = HP2X_FORMAT_PS; f <= HP2X_FORMAT_PDF; f++) {
    o.format = f;
    o.eps_width_pt = f == HP2X_FORMAT_EPS ? 400 : 0;
    mem m = {NULL, 0, 0, 0};
    assert_int_equal(hp2x_render(a, b, &o, mem_write, &m, &err), HP2X_OK);
    if (f == HP2X_FORMAT_PDF)
      assert_true(has(&m, "/CreationDate (19700102000000Z)"));
    else
      assert_non_null(strstr(m.buf, "%%CreationDate: 1970-01-02T00:00:00Z\n"));
    free(m.buf);
  }
  o.source_date_epoch = -1;
  o.format = HP2X_FORMAT_PS;
  o.eps_width_pt = 0;
  mem m = {NULL, 0, 0, 0};
  assert_int_equal(hp2x_render(a, b, &o, mem_write, &m, &err), HP2X_OK);
  assert_non_null(strstr(m.buf, "%%CreationDate: Mon Jan 1 2024\n"));
  free(m.buf);
  hp2x_bands_free(b);
  hp2x_profile_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(select_many_shares_bands),
      cmocka_unit_test(select_many_of_one_is_select),
      cmocka_unit_test(short_run_is_not_trace),
      cmocka_unit_test(uniform_axes),
      cmocka_unit_test(select_many_errors),
      cmocka_unit_test(label_palette),
      cmocka_unit_test(diff_chart),
      cmocka_unit_test(csv_and_pictures),
      cmocka_unit_test(source_date_epoch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
