/* bench/update.c -- what one watch-mode update costs, measured inside one
 * process with the library, split into its parts: parsing the appended
 * bytes, choosing the bands, drawing the picture (into memory, so disk and
 * process start-up do not blur it).  Feeds PREFIX bytes of a .hp file, then
 * STEPS appends of STEP bytes, choosing the bands after each either with a
 * follower (as --watch does) or afresh with hp2x_bands_select (as every
 * update did before followers), and prints one markdown row of mean
 * milliseconds per update.
 *
 *   update FILE PREFIX STEP STEPS follower|select FORMAT
 */
#include "hp2x.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count_bytes(void *closure, const void *buf, size_t n) {
  (void)buf;
  *(size_t *)closure += n;
  return 0;
}

static void check(hp2x_status st, const hp2x_err *err) {
  if (st == HP2X_OK) return;
  fprintf(stderr, "update: %s\n", err->msg);
  exit(1);
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: update FILE PREFIX STEP STEPS follower|select "
                    "pdf|ps|svg\n");
    return 2;
  }
  size_t prefix = strtoull(argv[2], NULL, 10),
         step = strtoull(argv[3], NULL, 10);
  int steps = atoi(argv[4]);
  int follow = !strcmp(argv[5], "follower");
  hp2x_options o;
  hp2x_options_init(&o);
  o.format = !strcmp(argv[6], "ps")    ? HP2X_FORMAT_PS
             : !strcmp(argv[6], "svg") ? HP2X_FORMAT_SVG
                                       : HP2X_FORMAT_PDF;
  /* The library reads no environment: pass the pinned fonts on, as the
   * tool does (bench/update.sh sets HP2X_FONTS_CONF). */
  const char *fonts = getenv("HP2X_FONTS_CONF");
  if (fonts && *fonts) o.fonts_conf = fonts;
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 1;
  }
  size_t need = prefix + step * (size_t)steps;
  unsigned char *buf = malloc(need);
  if (!buf || fread(buf, 1, need, f) != need) {
    fprintf(stderr, "update: %s is shorter than %zu bytes\n", argv[1], need);
    return 1;
  }
  fclose(f);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  hp2x_parser *ps = hp2x_parser_new(argv[1], &po, &err);
  hp2x_follower *fo = hp2x_follower_new(&err);
  if (!ps || !fo) check(err.code, &err);
  double parse_s = 0, select_s = 0, draw_s = 0;
  size_t out_bytes = 0, samples = 0;
  for (int i = -1; i < steps; i++) { /* -1: the prefix, not counted */
    double t0 = now_s();
    size_t at = i < 0 ? 0 : prefix + (size_t)i * step;
    check(hp2x_parser_feed(ps, buf + at, i < 0 ? prefix : step, &err), &err);
    double t1 = now_s();
    const hp2x_profile *p = hp2x_parser_peek(ps);
    const hp2x_bands *b;
    hp2x_bands *own = NULL;
    if (follow) {
      check(hp2x_follower_select(fo, p, &o, &b, &err), &err);
    } else {
      check(hp2x_bands_select(p, &o, &own, &err), &err);
      b = own;
    }
    double t2 = now_s();
    size_t bytes = 0;
    check(hp2x_render(p, b, &o, count_bytes, &bytes, &err), &err);
    double t3 = now_s();
    hp2x_bands_free(own);
    if (i >= 0) {
      parse_s += t1 - t0, select_s += t2 - t1, draw_s += t3 - t2;
      out_bytes = bytes;
      samples = hp2x_profile_sample_count(p);
    }
  }
  double n = steps;
  printf("| %.0f | %s | %s | %zu | %.2f | %.2f | %.2f | %.2f | %zu |\n",
         (double)prefix / 1e6, argv[5], argv[6], samples, parse_s / n * 1e3,
         select_s / n * 1e3, draw_s / n * 1e3,
         (parse_s + select_s + draw_s) / n * 1e3, out_bytes / 1000);
  hp2x_follower_free(fo);
  hp2x_profile *done = NULL;
  if (hp2x_parser_finish(ps, &done, &err) == HP2X_OK) hp2x_profile_free(done);
  hp2x_parser_free(ps);
  free(buf);
  return 0;
}
