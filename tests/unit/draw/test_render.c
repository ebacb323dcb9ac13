/* test_render.c -- render.c and surface.c, drawn into memory and read as a
 * reader would: PS and PDF page counts (-M too) and page sizes, SVG's size and
 * the key's band names, its surface ids numbered alike in any render, a PNG's
 * header and pixel size at each dpi, EPS's exact requested width; a failing
 * sink is HP2X_E_IO (PNG too), and the palette decodes hp2ps's colour encoding
 * (entry 15 fixed, no white).  The key's drawn text (glyphs) is read back with
 * pdftotext in tests/e2e/test_formats.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "parse_helpers.h"
#include "pdf_inflate.h"
#include "test_options.h"

#include "select/bands_int.h"
#include "select/palette.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hp2x_profile *profile(void) {
  const char *top = getenv("TOP");
  char path[1024];
  snprintf(path, sizeof path, "%s/samples/profiles/unicode.hc.hp",
           top ? top : ".");
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p;
  assert_int_equal(hp2x_parse_stream(f, path, NULL, &p, &err), HP2X_OK);
  fclose(f);
  return p;
}

static mem render(hp2x_profile *p, hp2x_options *o, hp2x_status want) {
  hp2x_bands *b;
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_bands_select(p, o, &b, &err), HP2X_OK);
  mem m = {NULL, 0, 0, 0};
  assert_int_equal(hp2x_render(p, b, o, mem_write, &m, &err), want);
  hp2x_bands_free(b);
  return m;
}

/* A profile whose band names are short enough to be drawn whole in the
 * key (hp2ps cuts longer ones): four bands, all far above the trace. */
static hp2x_profile *short_names_profile(void) {
  static const char text[] =
      "JOB \"keytest\"\nDATE \"Thu Jan  1 00:00 2026\"\n"
      "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
      "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
      "BEGIN_SAMPLE "
      "1.00\nalpha\t4000\nbravo\t3000\ncharlie\t2000\ndelta\t1000\n"
      "END_SAMPLE 1.00\n"
      "BEGIN_SAMPLE "
      "2.00\nalpha\t5000\nbravo\t2500\ncharlie\t2200\ndelta\t1500\n"
      "END_SAMPLE 2.00\n"
      "BEGIN_SAMPLE 3.00\nEND_SAMPLE 3.00\n";
  hp2x_profile *p;
  hp2x_err err;
  assert_int_equal(parse_chunked((const unsigned char *)text, strlen(text), 0,
                                 HP2X_INPUT_HP, &p, &err),
                   HP2X_OK);
  return p;
}

/* How often `needle` occurs in the first len bytes of hay. */
static size_t count(const char *hay, size_t len, const char *needle) {
  size_t n = 0, k = strlen(needle);
  for (size_t i = 0; i + k <= len; i++)
    if (memcmp(hay + i, needle, k) == 0) n++;
  return n;
}

/* The first `needle` in the first len bytes of hay (binary safe); NULL
 * when there is none. */
static const char *find(const char *hay, size_t len, const char *needle) {
  size_t k = strlen(needle);
  for (size_t i = 0; i + k <= len; i++)
    if (memcmp(hay + i, needle, k) == 0) return hay + i;
  return NULL;
}

/* The number after the first `key` in m; -1 when key is missing. */
static long number_after(const mem *m, const char *key) {
  const char *s = find(m->buf, m->len, key);
  return s ? strtol(s + strlen(key), NULL, 10) : -1;
}

/* PostScript: the header's page count matches its %%Page: sections; the
 * page is US Letter, as hp2ps's is; -M gives the key a page of its own. */
static void postscript_pages(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_PS;
  for (int multipage = 0; multipage <= 1; multipage++) {
    o.multipage = multipage;
    mem m = render(p, &o, HP2X_OK);
    assert_memory_equal(m.buf, "%!PS-Adobe-3.0\n", 15);
    long pages = multipage ? 2 : 1;
    assert_int_equal(number_after(&m, "\n%%Pages: "), pages);
    assert_int_equal(count(m.buf, m.len, "\n%%Page: "), pages);
    assert_non_null(strstr(m.buf, "\n%%DocumentMedia: Letter 612 792 "));
    assert_non_null(strstr(m.buf, "\n%%EOF"));
    assert_non_null(strstr(m.buf, "%%Title: unicode +RTS -hc -l -i0.01"));
    /* hp2ps puts the profile's DATE here; so do we (reproducible). */
    assert_non_null(strstr(m.buf, "%%CreationDate: Sun Nov 22 12:26 2026"));
    free(m.buf);
  }
  hp2x_profile_free(p);
}

/* PDF: the pages tree counts the pages a reader gets, each 10 x 7 in
 * (hp2ps's landscape page, 720 x 504 pt); read with its compressed
 * streams inflated (cairo 1.18 puts the objects in object streams). */
static void pdf_pages(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_PDF;
  for (int multipage = 0; multipage <= 1; multipage++) {
    o.multipage = multipage;
    mem raw = render(p, &o, HP2X_OK);
    assert_memory_equal(raw.buf, "%PDF-", 5);
    mem m = pdf_inflated(raw.buf, raw.len); /* object streams opened */
    free(raw.buf);
    long pages = multipage ? 2 : 1;
    const char *tree = find(m.buf, m.len, "/Type /Pages");
    assert_non_null(tree);
    const char *n = find(tree, m.len - (size_t)(tree - m.buf), "/Count ");
    assert_non_null(n);
    assert_int_equal(strtol(n + 7, NULL, 10), pages);
    /* "/Type /Page" objects, not the tree's "/Type /Pages" */
    assert_int_equal(count(m.buf, m.len, "/Type /Page\n") +
                         count(m.buf, m.len, "/Type /Page "),
                     pages);
    assert_int_equal(count(m.buf, m.len, "/MediaBox [ 0 0 720 504 ]"), pages);
    assert_non_null(find(m.buf, m.len, "%%EOF"));
    free(m.buf);
  }
  hp2x_profile_free(p);
}

/* SVG: 720 x 504 pt, and each band of the key is named in the picture:
 * its tooltip "NAME: peak ...", over the band and over its key box. */
static void svg_size_and_labels(void **state) {
  (void)state;
  hp2x_profile *p = short_names_profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_SVG;
  mem m = render(p, &o, HP2X_OK);
  assert_memory_equal(m.buf, "<?xml", 5);
  assert_non_null(strstr(m.buf, "width=\"720pt\" height=\"504pt\" "
                                "viewBox=\"0 0 720 504\""));
  const char *names[] = {"alpha", "bravo", "charlie", "delta"};
  for (size_t i = 0; i < 4; i++) {
    char title[64];
    snprintf(title, sizeof title, "<title>%s: peak ", names[i]);
    assert_int_equal(count(m.buf, m.len, title), 2);
  }
  assert_int_equal(count(m.buf, m.len, "<title>"), 2 * 4);
  assert_non_null(strstr(m.buf, "</svg>"));
  free(m.buf);
  hp2x_profile_free(p);
}

/* SVG's surface ids are 1, 2, ... in cairo's order, whatever was drawn
 * before: hatch patterns make several (the page and the patterns' tiles),
 * and a second render, after a PDF that made more cairo surfaces and
 * used the fonts' glyphs otherwise, gives the same bytes. */
static void svg_surface_ids(void **state) {
  (void)state;
  hp2x_profile *p = short_names_profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_SVG;
  o.pattern = 1;
  mem first = render(p, &o, HP2X_OK);
  o.format = HP2X_FORMAT_PDF;
  free(render(p, &o, HP2X_OK).buf);
  o.format = HP2X_FORMAT_SVG;
  mem again = render(p, &o, HP2X_OK);
  assert_int_equal(again.len, first.len);
  assert_memory_equal(again.buf, first.buf, first.len);
  /* cairo 1.16 names them surface1 ..., 1.18 source-1 ... (and its
   * glyphs, whose names svg_glyphs.c makes canonical, glyph-F-G). */
  const char *kind = count(first.buf, first.len, "surface") ? "surface"
                                                            : "source-";
  size_t ids = 0; /* each of KIND1 .. KINDN defined once, used */
  for (;; ids++) {
    char id[40], use[40];
    snprintf(id, sizeof id, "id=\"%s%zu\"", kind, ids + 1);
    snprintf(use, sizeof use, "xlink:href=\"#%s%zu\"", kind, ids + 1);
    size_t defined = count(first.buf, first.len, id);
    if (!defined) break;
    assert_int_equal(defined, 1);
    if (ids > 0 || !strcmp(kind, "source-")) /* 1.16's page: not used */
      assert_true(count(first.buf, first.len, use) >= 1);
  }
  assert_true(ids >= 2);
  /* No other id: every KIND is one of those or a use. */
  char use_kind[16];
  snprintf(use_kind, sizeof use_kind, "#%s", kind);
  assert_int_equal(count(first.buf, first.len, kind),
                   ids + count(first.buf, first.len, use_kind));
  free(first.buf);
  free(again.buf);
  hp2x_profile_free(p);
}

/* Big-endian 32-bit number at b. */
static unsigned long be32(const unsigned char *b) {
  return (unsigned long)b[0] << 24 | (unsigned long)b[1] << 16 |
         (unsigned long)b[2] << 8 | b[3];
}

/* PNG: the signature, an IHDR first whose size is the page at the dpi
 * (10 x 7 in), 8-bit RGB(A), and an IEND at the end. */
static void png_dimensions(void **state) {
  (void)state;
  hp2x_profile *p = short_names_profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_PNG;
  struct {
    double dpi;
    unsigned long w, h;
  } cases[] = {{0, 1500, 1050}, {72, 720, 504}, {30, 300, 210}};
  for (size_t i = 0; i < 3; i++) {
    o.dpi = cases[i].dpi;
    mem m = render(p, &o, HP2X_OK);
    const unsigned char *b = (const unsigned char *)m.buf;
    assert_true(m.len > 8 + 25 + 12);
    assert_memory_equal(b, "\x89PNG\r\n\x1a\n", 8);
    assert_int_equal(be32(b + 8), 13);
    assert_memory_equal(b + 12, "IHDR", 4);
    assert_int_equal(be32(b + 16), cases[i].w);
    assert_int_equal(be32(b + 20), cases[i].h);
    assert_int_equal(b[24], 8);            /* bits per channel */
    assert_true(b[25] == 2 || b[25] == 6); /* RGB or RGBA */
    assert_memory_equal(b + m.len - 8, "IEND", 4);
    free(m.buf);
  }
  hp2x_profile_free(p);
}

static void eps_size(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_EPS;
  o.eps_width_pt = 72.0 * 6; /* -e6in: 432 x 288 */
  mem m = render(p, &o, HP2X_OK);
  assert_memory_equal(m.buf, "%!PS-Adobe-3.0 EPSF-3.0", 23);
  assert_non_null(strstr(m.buf, "%%BoundingBox: 0 0 432 288\n"));
  free(m.buf);
  o.eps_width_pt = 200.0 * 72.0 / 25.4; /* -e200mm: 567 x 378 */
  m = render(p, &o, HP2X_OK);
  assert_non_null(strstr(m.buf, "%%BoundingBox: 0 0 567 378\n"));
  free(m.buf);
  hp2x_profile_free(p);
}

/* The library takes the ranges the tool takes (hp2x.h's HP2X_EPS_WIDTH_
 * and HP2X_DPI_ limits): an EPS width over 2 in up to 200 in, or 0; a
 * PNG's dpi 10..1200, or 0 for the default.  Outside, HP2X_E_ARG and
 * nothing written. */
static void ranges_as_the_tool(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_EPS;
  const double bad_widths[] = {20.0, 144.0, 14400.5, -1.0, NAN};
  for (size_t i = 0; i < sizeof bad_widths / sizeof *bad_widths; i++) {
    o.eps_width_pt = bad_widths[i];
    mem m = render(p, &o, HP2X_E_ARG);
    assert_int_equal(m.len, 0);
  }
  const double good_widths[] = {144.5, 14400.0};
  for (size_t i = 0; i < 2; i++) {
    o.eps_width_pt = good_widths[i];
    mem m = render(p, &o, HP2X_OK);
    free(m.buf);
  }
  o.eps_width_pt = 0.0;
  o.format = HP2X_FORMAT_PNG;
  const double bad_dpi[] = {5.0, 9.99, 1200.5, -3.0, NAN};
  for (size_t i = 0; i < sizeof bad_dpi / sizeof *bad_dpi; i++) {
    o.dpi = bad_dpi[i];
    mem m = render(p, &o, HP2X_E_ARG);
    assert_int_equal(m.len, 0);
  }
  o.dpi = HP2X_DPI_MIN;
  mem m = render(p, &o, HP2X_OK);
  free(m.buf);
  hp2x_profile_free(p);
}

static void failing_sink(void **state) {
  (void)state;
  hp2x_profile *p = profile();
  hp2x_options o;
  test_options_init(&o);
  hp2x_format fs[] = {HP2X_FORMAT_PS, HP2X_FORMAT_PDF, HP2X_FORMAT_SVG,
                      HP2X_FORMAT_PNG};
  for (size_t i = 0; i < 4; i++) {
    o.format = fs[i];
    hp2x_bands *b;
    hp2x_err err;
    hp2x_err_init(&err);
    assert_int_equal(hp2x_bands_select(p, &o, &b, &err), HP2X_OK);
    mem m = {NULL, 0, 0, 100};
    assert_int_equal(hp2x_render(p, b, &o, mem_write, &m, &err), HP2X_E_IO);
    assert_non_null(strstr(err.msg, "No space"));
    free(m.buf);
    hp2x_bands_free(b);
  }
  hp2x_profile_free(p);
}

static void palette(void **state) {
  (void)state;
  hp2x_bands b;
  memset(&b, 0, sizeof b);
  b.n_bands = 30;
  double shade[30], rgb[3];
  hp2x_options o;
  test_options_init(&o);
  o.colour = 1; /* palette HP2X_PALETTE_HP2PS: hp2ps's colours */
  hpx_palette_assign(&b, &o, shade);
  for (int k = 0; k < 26; k++) {
    hpx_palette_rgb(shade[k], 1, rgb);
    assert_false(rgb[0] == 1 && rgb[1] == 1 && rgb[2] == 1); /* no white */
    if (k == 13) /* hp2ps's entry 15 (its white entry 8 dropped before it) */
      assert_true(rgb[0] == 0.5 && rgb[1] == 1.0 && rgb[2] == 0.0);
  }
  assert_true(shade[26] == shade[0]); /* the cycle repeats */
  o.colour = 0;
  hpx_palette_assign(&b, &o, shade);
  assert_true(shade[0] == 0.0 && shade[6] == 1.0 && shade[10] == 0.0);
  hpx_palette_rgb(0.100505, 1, rgb); /* hp2ps's own .aux encoding */
  assert_true(rgb[0] == 1.0 && rgb[1] == 0.5 && rgb[2] == 0.5);
}

/* hp2x_fonts_release frees the fonts and a render after it loads them
 * again: the same bytes as before, twice over (release is repeatable). */
static void fonts_released_and_reloaded(void **state) {
  (void)state;
  hp2x_profile *p = short_names_profile();
  hp2x_options o;
  test_options_init(&o);
  o.format = HP2X_FORMAT_SVG;
  mem before = render(p, &o, HP2X_OK);
  for (int i = 0; i < 2; i++) {
    hp2x_fonts_release();
    mem after = render(p, &o, HP2X_OK);
    assert_int_equal(after.len, before.len);
    assert_memory_equal(after.buf, before.buf, before.len);
    free(after.buf);
  }
  assert_int_equal(hp2x_fonts_prepare(o.fonts_conf, NULL), HP2X_OK);
  free(before.buf);
  hp2x_profile_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(postscript_pages),
      cmocka_unit_test(pdf_pages),
      cmocka_unit_test(svg_size_and_labels),
      cmocka_unit_test(svg_surface_ids),
      cmocka_unit_test(png_dimensions),
      cmocka_unit_test(eps_size),
      cmocka_unit_test(ranges_as_the_tool),
      cmocka_unit_test(failing_sink),
      cmocka_unit_test(palette),
      cmocka_unit_test(fonts_released_and_reloaded),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  hp2x_fonts_release();
  return failed;
}
