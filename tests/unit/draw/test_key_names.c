/* test_key_names.c -- key_names.c: the key's names shortened by meaning
 * (package version, initials, stack frames, -hi kept ends), cuts only at
 * separators with one "…", no two bands shown alike, and out of memory.
 * Text is measured at 5 points a character (an ellipsis is one), so each
 * expected name is exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "draw/key_names.h"
#include "select/bands_int.h"
#include "test_hooks.h"

#include <stdlib.h>
#include <string.h>

#define ELL "\xe2\x80\xa6"

/* 5 points per UTF-8 character. */
static double per_char(void *ctx, const char *s, size_t len, double size) {
  (void)ctx;
  (void)size;
  double n = 0;
  for (size_t i = 0; i < len; i++) n += ((unsigned char)s[i] & 0xc0) != 0x80;
  return 5.0 * n;
}

/* name shortened to `chars` characters' width. */
static char *shorten(const char *name, key_name_kind kind, size_t kh, size_t kt,
                     size_t chars) {
  char *s =
      hpx_key_shorten(name, kind, kh, kt, 5.0 * (double)chars, per_char, NULL);
  assert_non_null(s);
  return s;
}

static void expect(const char *name, key_name_kind kind, size_t kh, size_t kt,
                   size_t chars, const char *want) {
  char *s = shorten(name, kind, kh, kt, chars);
  assert_string_equal(s, want);
  hpx_free(s);
}

static void descriptions(void **state) {
  (void)state;
  const char *n = "containers-0.6.7:Data.Sequence.Internal.Node3";
  expect(n, KEY_PLAIN, 0, 0, 60, n); /* fits: whole */
  expect(n, KEY_PLAIN, 0, 0, 39, "containers:Data.Sequence.Internal.Node3");
  expect(n, KEY_PLAIN, 0, 0, 38, "c:Data.Sequence.Internal.Node3");
  expect(n, KEY_PLAIN, 0, 0, 27, "c:D.Sequence.Internal.Node3");
  expect(n, KEY_PLAIN, 0, 0, 20, "c:D.S.Internal.Node3");
  /* then cut at a separator, the constructor whole */
  expect(n, KEY_PLAIN, 0, 0, 16, ELL "Internal.Node3"); /* widest first */
  expect(n, KEY_PLAIN, 0, 0, 14, "c:D.S." ELL "Node3");
  expect(n, KEY_PLAIN, 0, 0, 6, ELL "Node3");
  expect("containers-0.7-inplace:Data.IntMap.Internal.Bin", KEY_PLAIN, 0, 0, 40,
         "containers:Data.IntMap.Internal.Bin");
  expect("ghc-internal:GHC.Internal.Text.ParserCombinators.ReadP.Look",
         KEY_PLAIN, 0, 0, 36, "g:G.I.T.ParserCombinators.ReadP.Look");
  /* a type is cut at its spaces */
  expect("Map Int [Char] -> Maybe Bool", KEY_PLAIN, 0, 0, 20,
         "Map Int [Char] " ELL "Bool");
  /* no separator where one is needed: the whole name (pango cuts it) */
  expect("Supercalifragilistic", KEY_PLAIN, 0, 0, 8, "Supercalifragilistic");
}

static void stacks(void **state) {
  (void)state;
  const char *s = "go/produce/route/run/main/MAIN";
  expect(s, KEY_STACK, 0, 0, 40, s);
  /* the innermost frames that fit, then the outermost */
  expect(s, KEY_STACK, 0, 0, 27, "go/produce/route/run/" ELL "/MAIN");
  expect(s, KEY_STACK, 0, 0, 26, "go/produce/route/" ELL "/MAIN");
  expect(s, KEY_STACK, 0, 0, 17, "go/produce/" ELL "/MAIN");
  expect(s, KEY_STACK, 0, 0, 16, "go/" ELL "/MAIN");
  /* an innermost frame too long for the key is cut at its own dots */
  expect("Mod.longFunctionName.helper/run/main", KEY_STACK, 0, 0, 20,
         "Mod." ELL "helper/" ELL "/main");
  expect("Mod.longFunctionName.helper/main", KEY_STACK, 0, 0, 20,
         "Mod." ELL "helper/main");
}

static void kept_ends(void **state) {
  (void)state;
  const char *n = "(:) in growStore.step markers.hs:46:44-48";
  size_t kh = 3, kt = strlen("markers.hs:46:44-48");
  expect(n, KEY_KEPT, kh, kt, 50, n);
  expect(n, KEY_KEPT, kh, kt, 35, "(:) in " ELL "step markers.hs:46:44-48");
  expect(n, KEY_KEPT, kh, kt, 26, "(:) " ELL " markers.hs:46:44-48");
  /* the kept ends alone do not fit: a cut of the whole */
  char *t = shorten(n, KEY_KEPT, kh, kt, 12);
  assert_true(strlen(t) < strlen(n));
  assert_non_null(strstr(t, ELL));
  hpx_free(t);
}

/* Each piece between "…"s is a piece of `name` that begins at its start
 * or after a separator and ends at its end or after a separator. */
static void assert_cut_at_separators(const char *name, const char *shown) {
  if (strcmp(name, shown) == 0) return;
  const char *p = shown;
  while (*p) {
    if (p != shown && *p == '/') p++; /* a stack's "…/" */
    const char *e = strstr(p, ELL);
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len) {
      int found = 0;
      for (const char *at = name; (at = strstr(at, "")) && *at; at++)
        if (strncmp(at, p, len) == 0 &&
            (at == name || strchr(".:/- ", at[-1])) &&
            (at[len] == '\0' || strchr(".:/- ", at[len - 1])))
          found = 1;
      if (!found) fail_msg("%s: %s", name, shown);
    }
    p += len + (e ? 3 : 0);
  }
}

static void cuts_fall_at_separators(void **state) {
  (void)state;
  const char *names[] = {
      "sierra/producers/runSteps.go.produce/viaNorthernRoute/routes/main",
      "Map Int [Char] -> Maybe (Either String Bool)",
      "I# in growStore markers.hs:(42,1)-(46,59) 0x40f828",
  };
  key_name_kind kinds[] = {KEY_STACK, KEY_PLAIN, KEY_PLAIN};
  for (size_t i = 0; i < 3; i++)
    for (size_t w = 4; w < 70; w++) {
      char *s = shorten(names[i], kinds[i], 0, 0, w);
      assert_cut_at_separators(names[i], s);
      hpx_free(s);
    }
}

/* Bands whose shortenings would be one text are told apart. */
static void no_two_alike(void **state) {
  (void)state;
  char n0[] = "sierra/producers/runSteps/viaEastern/routes/runSteps.go/main";
  char n1[] = "sierra/producers/runSteps/viaSouthern/routes/runSteps.go/main";
  char n2[] = "sierra/producers/runSteps/viaNorthern/routes/runSteps.go/main";
  char n3[] = "containers:Data.Set.Internal.Bin";
  char n4[] = "containers:Data.Sequence.Internal.Bin";
  char *names[] = {n0, n1, n2, n3, n4};
  struct hp2x_bands b;
  memset(&b, 0, sizeof b);
  b.names = names;
  b.n_bands = 5;
  char **k =
      hpx_key_names(&b, NULL, HP2X_BREAKDOWN_UNKNOWN, 5.0 * 30, per_char, NULL);
  assert_non_null(k);
  for (size_t i = 0; i < 5; i++)
    for (size_t j = i + 1; j < 5; j++) assert_string_not_equal(k[i], k[j]);
  assert_non_null(strstr(k[0], "viaEastern"));
  assert_non_null(strstr(k[1], "viaSouthern"));
  hpx_key_names_free(k, 5);
}

static void allocation_failures(void **state) {
  (void)state;
  char n0[] = "containers-0.6.7:Data.Sequence.Internal.Node3";
  char n1[] = "go/produce/route/run/main/MAIN";
  char *names[] = {n0, n1};
  struct hp2x_bands b;
  memset(&b, 0, sizeof b);
  b.names = names;
  b.n_bands = 2;
  /* each failure gives NULL or whole names (a lost shortening falls
   * back to the name), never a leak or a crash (ASan run) */
  int failed = 0;
  for (long n = 1; n < 400; n++) {
    hpx_alloc_fail_at(n);
    char **k = hpx_key_names(&b, NULL, 0, 5.0 * 12, per_char, NULL);
    hpx_alloc_fail_at(0);
    failed += k == NULL;
    if (k) assert_non_null(k[1]);
    hpx_key_names_free(k, 2);
  }
  assert_true(failed > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(descriptions), cmocka_unit_test(stacks),
      cmocka_unit_test(kept_ends),    cmocka_unit_test(cuts_fall_at_separators),
      cmocka_unit_test(no_two_alike), cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
