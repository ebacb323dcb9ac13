/* clash.c -- a program with functions of its own named as libhp2x's
 * internals once were (profile_new, layout_compute, bands_fill,
 * options_complete, window_from, colour_assign, render_measure, ...),
 * linked statically against libhp2x.a: it links (no "multiple definition")
 * only because every global the library defines is hp2x_ or hpx_, and it
 * runs, drawing a PDF of argv[1] while its own functions answer for their
 * names.  tests/e2e/test_install.sh builds and runs it.
 *   ./clash PROFILE OUT.pdf
 */
#include <hp2x.h>

#include <stdio.h>

/* The user's own functions, with the names the library used to export. */
int profile_new(void);
int layout_compute(void);
int bands_fill(void);
int options_complete(void);
int window_from(void);
int colour_assign(void);
int render_measure(void);
int surface_create(void);
int palette_rgb(void);
int thin_curve(void);
int writebuf_init(void);
int hp_parse_new(void);
int profile_new(void) { return 1; }
int layout_compute(void) { return 2; }
int bands_fill(void) { return 3; }
int options_complete(void) { return 4; }
int window_from(void) { return 5; }
int colour_assign(void) { return 6; }
int render_measure(void) { return 7; }
int surface_create(void) { return 8; }
int palette_rgb(void) { return 9; }
int thin_curve(void) { return 10; }
int writebuf_init(void) { return 11; }
int hp_parse_new(void) { return 12; }

static int write_to_file(void *closure, const void *buf, size_t len) {
  return fwrite(buf, 1, len, (FILE *)closure) == len ? 0 : -1;
}

/* The library's whole path: parse, select, render to out. */
static int draw(const char *in, FILE *out) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options opts;
  hp2x_options_init(&opts);
  opts.format = HP2X_FORMAT_PDF;
  hp2x_profile *p = NULL;
  hp2x_bands *b = NULL;
  FILE *f = fopen(in, "rb");
  int ok = f && hp2x_parse_stream(f, in, NULL, &p, &err) == HP2X_OK &&
           hp2x_bands_select(p, &opts, &b, &err) == HP2X_OK &&
           hp2x_render(p, b, &opts, write_to_file, out, &err) == HP2X_OK;
  if (f) fclose(f);
  if (!ok) fprintf(stderr, "clash: %s: %s\n", in, err.msg);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  return ok;
}

int main(int argc, char **argv) {
  if (argc != 3) return 2;
  int (*const own[])(void) = {profile_new,      layout_compute, bands_fill,
                              options_complete, window_from,    colour_assign,
                              render_measure,   surface_create, palette_rgb,
                              thin_curve,       writebuf_init,  hp_parse_new};
  for (int i = 0; i < (int)(sizeof own / sizeof own[0]); i++)
    if (own[i]() != i + 1) {
      fprintf(stderr, "clash: function %d is not the program's own\n", i);
      return 1;
    }
  FILE *out = fopen(argv[2], "wb");
  if (!out) return 1;
  int ok = draw(argv[1], out);
  if (fclose(out) != 0) ok = 0;
  printf("clash: %d functions of its own, and the library drew %s\n",
         (int)(sizeof own / sizeof own[0]), argv[2]);
  return ok ? 0 : 1;
}
