/* test_pprof.c -- write/pprof.c and pprof_encode.c: hp2x_write_pprof's
 * profile decoded again with protobuf-c (tests/unit/pprof_fixture.h) and
 * held against its input: the 1 MB bound, the filters, errors and every
 * allocation failing in turn.  The frames of each kind of label are
 * test_pprof_frames.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "parse_helpers.h"
#include "test_hooks.h"
#include "write/pprof_int.h"

#include "pprof.pb-c.h"

#include <regex.h>
#include <zlib.h>

#include "pprof_fixture.h"

/* More labels than fit in HP2X_PPROF_MAX_BYTES: the largest as
 * themselves, the rest one frame, and the total kept. */
static void one_megabyte(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  uint64_t x = 88172645463325252ull;
  int64_t total = 0;
  hpx_profile_begin_sample(p, 2.0);
  for (int k = 0; k < 40000; k++) {
    char name[200];
    for (size_t i = 0; i < sizeof name; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      name[i] = (char)('a' + x % 26);
    }
    uint32_t id;
    assert_int_equal(
        hpx_profile_intern(p, name, sizeof name, NULL, 0, &id, &err), HP2X_OK);
    assert_int_equal(profile_add_entry(p, id, 16 + k, &err), HP2X_OK);
    total += 16 + k;
  }
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  size_t bytes;
  HpxPprof__Profile *pr = pprof_of(p, 0, NULL, &bytes);
  assert_true(bytes <= HP2X_PPROF_MAX_BYTES &&
              bytes > HP2X_PPROF_MAX_BYTES / 2);
  check_head(pr, total);
  size_t kept = pr->n_sample - 1;
  assert_true(kept > 1000 && kept < 40000);
  char text[256], want[64];
  frames_text(pr, kept, '/', text, sizeof text);
  snprintf(want, sizeof want, "(%zu labels dropped)", 40000 - kept);
  assert_string_equal(text, want);
  for (size_t k = 0; k < kept; k++) /* the largest, largest first */
    assert_true(pr->sample[k]->value[0] == (int64_t)(16 + 39999 - k));
  int said = 0;
  for (size_t i = 0; i < pr->n_comment; i++)
    said |= strstr(str(pr, pr->comment[i]), "smallest labels") != NULL;
  assert_true(said);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

/* --include/--exclude leave labels out (the same rule as the bands'); a
 * comment counts them. */
static void filters(void **state) {
  (void)state;
  hp2x_profile *p = parse_file("samples/profiles/manycc.hc.hp");
  size_t s = peak_of(p);
  hp2x_options o;
  hp2x_options_init(&o);
  o.include_re = "alpha|bravo";
  o.exclude_re = "CAF";
  HpxPprof__Profile *pr = pprof_of(p, s, &o, NULL);
  int64_t want = 0;
  size_t out = 0;
  regex_t inc, exc;
  assert_int_equal(regcomp(&inc, o.include_re, REG_EXTENDED | REG_NOSUB), 0);
  assert_int_equal(regcomp(&exc, o.exclude_re, REG_EXTENDED | REG_NOSUB), 0);
  for (size_t l = 0; l < p->n_labels; l++) {
    int64_t v = hp2x_profile_value(p, s, l);
    int keep = !regexec(&inc, p->labels[l].name, 0, NULL, 0) &&
               regexec(&exc, p->labels[l].name, 0, NULL, 0);
    if (keep)
      want += v;
    else
      out += v > 0;
  }
  regfree(&inc);
  regfree(&exc);
  assert_true(want > 0 && out > 0);
  check_head(pr, want);
  char said[64];
  snprintf(said, sizeof said, "%zu labels left out", out);
  int found = 0;
  for (size_t i = 0; i < pr->n_comment; i++)
    found |= strstr(str(pr, pr->comment[i]), said) != NULL;
  assert_true(found);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

static void errors(void **state) {
  (void)state;
  hp2x_profile *p = parse_file("samples/profiles/leak.hc.hp");
  hp2x_options o;
  hp2x_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  mem m = {0};
  assert_int_equal(hp2x_write_pprof(p, p->n_samples, &o, mem_write, &m, &err),
                   HP2X_E_ARG);
  assert_int_equal(m.len, 0);
  o.include_re = "(";
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 0, &o, mem_write, &m, &err), HP2X_E_ARG);
  o.include_re = NULL;
  m.fail_after = 100;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 5, &o, mem_write, &m, &err), HP2X_E_IO);
  free(m.buf);
  /* Through hp2x_write_output: the census o.census chooses. */
  o.format = HP2X_FORMAT_PPROF;
  o.census.rule = HP2X_CENSUS_AT;
  o.census.at_s = 99;
  hp2x_err_init(&err);
  mem n = {0};
  assert_int_equal(hp2x_write_output(p, NULL, NULL, &o, mem_write, &n, &err),
                   HP2X_E_ARG);
  o.census.at_s = 0.5;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_output(p, NULL, NULL, &o, mem_write, &n, &err),
                   HP2X_OK);
  HpxPprof__Profile *pr = decode(&n);
  size_t at;
  hp2x_census_choice c = o.census;
  assert_int_equal(hp2x_census_choose(p, &c, &at, &err), HP2X_OK);
  check_head(pr, census_total(p, at));
  assert_true(num_label(pr, 0, "census_time") ==
              (int64_t)(p->times[at] * 1e9 + 0.5));
  hpx_pprof__profile__free_unpacked(pr, NULL);
  free(n.buf);
  hp2x_profile_drop_entries(p);
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 0, &o, mem_write, &n, &err), HP2X_E_ARG);
  hp2x_profile_free(p);
}

/* Every allocation failing in turn: HP2X_E_NOMEM and nothing written,
 * until the profile is the one written without failures. */
static void allocation_failures(void **state) {
  (void)state;
  hp2x_profile *p = hostile();
  hp2x_options o;
  hp2x_options_init(&o);
  o.exclude_re = "nothing";
  mem whole = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 0, &o, mem_write, &whole, &err),
                   HP2X_OK);
  long n = 1;
  for (;; n++) {
    mem m = {0};
    hp2x_err_init(&err);
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_write_pprof(p, 0, &o, mem_write, &m, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      assert_int_equal(m.len, whole.len);
      assert_memory_equal(m.buf, whole.buf, m.len);
      free(m.buf);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_int_equal(m.len, 0);
    free(m.buf);
  }
  assert_true(n > 20);
  free(whole.buf);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_megabyte),
      cmocka_unit_test(filters),
      cmocka_unit_test(errors),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
