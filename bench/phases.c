/* bench/phases.c -- where the time of one run goes, measured inside one
 * process with the library as the hp2x tool uses it (bench/run.py, section
 * 14): loading the fonts (for a picture), reading the file (through
 * hp2x_parser_feed_fd on JOBS threads, bounded by the picture for a
 * picture, as the tool reads it), choosing the bands, and writing the
 * output into memory (drawing, for a picture), the last two on JOBS
 * threads too.  Prints one line:
 * "fonts_ms read_ms select_ms write_ms output_bytes".
 *
 *   phases FILE pdf|svg|csv JOBS
 */
#include "hp2x.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int count_bytes(void *closure, const void *buf, size_t n) {
  (void)buf;
  *(size_t *)closure += n;
  return 0;
}

static void check(hp2x_status st, const hp2x_err *err) {
  if (st == HP2X_OK) return;
  fprintf(stderr, "phases: %s\n", err->msg);
  exit(1);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: phases FILE pdf|svg|csv JOBS\n");
    return 2;
  }
  const hp2x_format_info *f = hp2x_format_named(argv[2]);
  if (!f) {
    fprintf(stderr, "phases: no format %s\n", argv[2]);
    return 2;
  }
  hp2x_options o;
  hp2x_options_init(&o);
  o.format = f->format;
  /* The library reads no environment: the pinned fonts, as the tool
   * passes them (bench/run.py sets HP2X_FONTS_CONF). */
  const char *fonts = getenv("HP2X_FONTS_CONF");
  if (fonts && *fonts) o.fonts_conf = fonts;
  int picture = hp2x_format_is_picture(o.format);
  hp2x_err err;
  hp2x_err_init(&err);
  double t0 = now_ms();
  if (picture) check(hp2x_fonts_prepare(o.fonts_conf, &err), &err);
  double t1 = now_ms();
  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  po.threads = (size_t)atoi(argv[3]);
  o.threads = po.threads; /* as the tool passes --jobs to both */
  if (picture) po.picture_columns = hp2x_picture_columns(&o);
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) {
    perror(argv[1]);
    return 1;
  }
  hp2x_parser *ps = hp2x_parser_new(argv[1], &po, &err);
  if (!ps) check(err.code, &err);
  hp2x_profile *p = NULL;
  check(hp2x_parser_feed_fd(ps, fd, 0, &err), &err);
  check(hp2x_parser_finish(ps, &p, &err), &err);
  hp2x_parser_free(ps);
  close(fd);
  double t2 = now_ms();
  hp2x_bands *b = NULL;
  check(hp2x_bands_select(p, &o, &b, &err), &err);
  double t3 = now_ms();
  size_t out = 0;
  check(hp2x_write_output(p, b, argv[1], &o, count_bytes, &out, &err), &err);
  double t4 = now_ms();
  printf("%.1f %.1f %.1f %.1f %zu\n", t1 - t0, t2 - t1, t3 - t2, t4 - t3, out);
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  hp2x_fonts_release();
  return 0;
}
