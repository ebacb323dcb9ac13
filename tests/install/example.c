/* example.c -- a program that uses libhp2x through pkg-config alone: it reads
 * a heap profile (.hp text or eventlog) and writes its picture as a PDF, with
 * hp2ps's band selection.  docs/LIBRARY.md quotes it;
 * tests/e2e/test_install.sh builds it against an installed libhp2x, shared
 * and static.
 *   cc example.c $(pkg-config --cflags --libs hp2x) -o example
 *   ./example prog.hp prog.pdf
 */
#include <hp2x.h>

#include <stdio.h>

/* hp2x_write_fn: the bytes go to a FILE *. */
static int write_to_file(void *closure, const void *buf, size_t len) {
  return fwrite(buf, 1, len, (FILE *)closure) == len ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s PROFILE OUT.pdf\n", argv[0]);
    return 2;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_options opts;
  hp2x_options_init(&opts); /* hp2ps's defaults: 20 bands, greys */
  opts.format = HP2X_FORMAT_PDF;

  hp2x_profile *profile = NULL;
  hp2x_bands *bands = NULL;
  FILE *in = fopen(argv[1], "rb");
  if (!in) {
    perror(argv[1]);
    return 1;
  }
  hp2x_status st = hp2x_parse_stream(in, argv[1], NULL, &profile, &err);
  fclose(in);
  if (st == HP2X_OK) st = hp2x_bands_select(profile, &opts, &bands, &err);
  if (st == HP2X_OK) {
    FILE *out = fopen(argv[2], "wb");
    if (!out) {
      perror(argv[2]);
      hp2x_bands_free(bands);
      hp2x_profile_free(profile);
      return 1;
    }
    st = hp2x_render(profile, bands, &opts, write_to_file, out, &err);
    if (fclose(out) != 0 && st == HP2X_OK) {
      perror(argv[2]);
      st = HP2X_E_IO;
    }
  }
  if (st == HP2X_OK)
    printf("%s: %zu samples, %zu bands drawn by libhp2x %s\n", argv[2],
           hp2x_profile_sample_count(profile), hp2x_bands_count(bands),
           hp2x_version());
  else if (err.code != HP2X_OK)
    fprintf(stderr, "%s: %s: %s\n", argv[1], hp2x_status_name(err.code),
            err.msg);
  hp2x_bands_free(bands);
  hp2x_profile_free(profile);
  return st == HP2X_OK ? 0 : 1;
}
