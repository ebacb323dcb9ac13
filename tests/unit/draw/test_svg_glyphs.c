/* test_svg_glyphs.c -- svg_glyphs.c: cairo 1.18's glyph names ("glyph-F-G")
 * renamed by first use, fonts then glyphs, their definitions put in that
 * order, so that two documents of one picture whose glyphs cairo named
 * otherwise become the same bytes; an unused glyph goes last; cairo 1.16's
 * names, a definition holding a group and a name cut short are left alone
 * (NULL); out of memory gives NULL, never a leak.  Documents written as
 * cairo 1.18 writes them (Debian 13's real SVG: test_render.c's
 * svg_surface_ids and test_threads.c, where cairo is 1.18). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "draw/svg_glyphs.h"
#include "test_hooks.h"

#include <stdlib.h>
#include <string.h>

#define HEAD "<svg>\n<defs>\n<g>\n"
#define DEF(f, g, path) "<g id=\"glyph-" f "-" g "\">\n" path "</g>\n"
#define USE(f, g) "<use xlink:href=\"#glyph-" f "-" g "\" x=\"1\"/>\n"
#define A "<path d=\"A\"/>\n"
#define B "<path d=\"B\"/>\n"
#define C "<path d=\"C\"/>\n"
#define SPACE ""

/* The canonical form of doc, as a string (NULL when there is none). */
static char *canonical(const char *doc) {
  size_t len = 0;
  char *out = hpx_svg_glyphs_canonical(doc, strlen(doc), &len);
  if (!out) return NULL;
  char *s = malloc(len + 1);
  memcpy(s, out, len);
  s[len] = '\0';
  free(out);
  return s;
}

/* One picture (A, a space, B, a space, C, A; A and C in one font, B and
 * the space in another), its glyphs named two ways: the same bytes after,
 * each glyph named and defined by first use. */
static void same_picture_same_bytes(void **state) {
  (void)state;
  const char *one = HEAD DEF("0", "0", C) DEF("0", "1", A) DEF("1", "0", B)
      DEF("1", "1", SPACE) "</g>\n</defs>\n" USE("0", "1") USE("1", "1")
          USE("1", "0") USE("1", "1") USE("0", "0") USE("0", "1") "</svg>\n";
  const char *two = HEAD DEF("0", "0", B) DEF("0", "1", SPACE) DEF("1", "0", A)
      DEF("1", "1", C) "</g>\n</defs>\n" USE("1", "0") USE("0", "1")
          USE("0", "0") USE("0", "1") USE("1", "1") USE("1", "0") "</svg>\n";
  /* A (font X), space and B (font Y), C (font X): X is 0, Y 1. */
  const char *want = HEAD DEF("0", "0", A) DEF("1", "0", SPACE) DEF("1", "1", B)
      DEF("0", "1", C) "</g>\n</defs>\n" USE("0", "0") USE("1", "0")
          USE("1", "1") USE("1", "0") USE("0", "1") USE("0", "0") "</svg>\n";
  char *a = canonical(one), *b = canonical(two);
  assert_non_null(a);
  assert_non_null(b);
  assert_string_equal(a, want);
  assert_string_equal(b, want);
  free(a);
  free(b);
}

/* A glyph defined but not used goes after the used ones; what follows
 * the definitions (a clip path, text) is kept. */
static void unused_last(void **state) {
  (void)state;
  char *s = canonical(
      HEAD DEF("0", "0", A)
          DEF("0", "1", B) "</g>\n<clipPath id=\"clip-0\"/>\n</defs>\n" USE(
              "0", "1") "<text>glyph-0-0</text></svg>\n");
  assert_non_null(s);
  assert_string_equal(
      s, HEAD DEF("0", "0", B)
             DEF("0", "1", A) "</g>\n<clipPath id=\"clip-0\"/>\n</defs>\n" USE(
                 "0", "0") "<text>glyph-0-0</text></svg>\n");
  free(s);
}

/* Not cairo 1.18's glyphs: left as they are. */
static void left_alone(void **state) {
  (void)state;
  size_t len = 99;
  const char *old = "<defs><g id=\"glyph0-1\">\n" A "</g>\n</defs>"
                    "<use xlink:href=\"#glyph0-1\"/>";
  assert_null(hpx_svg_glyphs_canonical(old, strlen(old), &len));
  const char *nested = HEAD "<g id=\"glyph-0-0\">\n<g>" A "</g>\n</g>\n";
  assert_null(hpx_svg_glyphs_canonical(nested, strlen(nested), &len));
  const char *cut = HEAD "<g id=\"glyph-0-";
  assert_null(hpx_svg_glyphs_canonical(cut, strlen(cut), &len));
  const char *open = HEAD "<g id=\"glyph-0-0\">\n" A;
  assert_null(hpx_svg_glyphs_canonical(open, strlen(open), &len));
  assert_null(hpx_svg_glyphs_canonical("", 0, &len));
  assert_int_equal(len, 99);
}

/* Each allocation failing in turn: NULL (the caller keeps cairo's bytes),
 * never a crash or a leak (the sanitizer pass). */
static void out_of_memory(void **state) {
  (void)state;
  const char *doc = HEAD DEF("0", "0", A)
      DEF("0", "1", B) "</g>\n</defs>\n" USE("0", "1") USE("0", "0") "</svg>\n";
  int failed = 0, made = 0;
  for (long n = 1; n <= 6; n++) {
    size_t len;
    hpx_alloc_fail_at(n);
    char *s = hpx_svg_glyphs_canonical(doc, strlen(doc), &len);
    hpx_alloc_fail_at(0);
    if (s)
      made++;
    else
      failed++;
    free(s);
  }
  assert_int_equal(failed, 4); /* three tables and the copy */
  assert_int_equal(made, 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_picture_same_bytes),
      cmocka_unit_test(unused_last),
      cmocka_unit_test(left_alone),
      cmocka_unit_test(out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
