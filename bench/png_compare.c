/* png_compare.c -- how far apart two renders of one picture are: reads two
 * PNGs of the same size (cairo) and prints the pixels that differ, the
 * columns where any does, and how far each column's top moves: the first
 * non-white pixel of the graph's column, scanned down from under the
 * title box (the lowest of the full-width dark rows above the middle) and
 * across the x axis's extent (the longest dark row in the lower half).
 *   png_compare A.png B.png
 * prints "differing_pixels N (P%) columns_differing C tops_moved T
 * max_top_move_px M mean_top_move_px X". */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct image {
  cairo_surface_t *s;
  int w, h, stride;
  const unsigned char *d;
} image;

static int load(const char *path, image *im) {
  im->s = cairo_image_surface_create_from_png(path);
  if (cairo_surface_status(im->s) != CAIRO_STATUS_SUCCESS) {
    fprintf(stderr, "png_compare: %s: cannot read\n", path);
    return -1;
  }
  cairo_surface_flush(im->s);
  im->w = cairo_image_surface_get_width(im->s);
  im->h = cairo_image_surface_get_height(im->s);
  im->stride = cairo_image_surface_get_stride(im->s);
  im->d = cairo_image_surface_get_data(im->s);
  return 0;
}

static unsigned pixel(const image *im, int x, int y) {
  unsigned v;
  const unsigned char *p = im->d + (size_t)y * (size_t)im->stride + 4 * x;
  v = (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16;
  return v; /* the colour without alpha */
}

static int white(const image *im, int x, int y) {
  return pixel(im, x, y) == 0xffffffu;
}

static int dark(const image *im, int x, int y) {
  const unsigned char *p = im->d + (size_t)y * (size_t)im->stride + 4 * x;
  return p[0] < 64 && p[1] < 64 && p[2] < 64;
}

/* The row's longest run of dark pixels: *x0 .. *x1. */
static int dark_run(const image *im, int y, int *x0, int *x1) {
  int best = 0;
  for (int x = 0, run = 0; x < im->w; x++) {
    run = dark(im, x, y) ? run + 1 : 0;
    if (run > best) {
      best = run;
      *x1 = x;
      *x0 = x - run + 1;
    }
  }
  return best;
}

static int column_top(const image *im, int x, int y0, int y1) {
  for (int y = y0; y < y1; y++)
    if (!white(im, x, y)) return y;
  return y1;
}

int main(int argc, char **argv) {
  image a, b;
  if (argc != 3) {
    fprintf(stderr, "usage: png_compare A.png B.png\n");
    return 2;
  }
  if (load(argv[1], &a) || load(argv[2], &b)) return 1;
  if (a.w != b.w || a.h != b.h) {
    fprintf(stderr, "png_compare: sizes differ\n");
    return 1;
  }
  long long differ = 0;
  long cols = 0;
  int bx0 = a.w, bx1 = -1, by0 = a.h, by1 = -1; /* where they differ */
  for (int x = 0; x < a.w; x++) {
    int any = 0;
    for (int y = 0; y < a.h; y++)
      if (pixel(&a, x, y) != pixel(&b, x, y)) {
        differ++, any = 1;
        if (x < bx0) bx0 = x;
        if (x > bx1) bx1 = x;
        if (y < by0) by0 = y;
        if (y > by1) by1 = y;
      }
    cols += any;
  }
  /* the title box's bottom edge: the second run of long dark rows from
   * the top; the x axis: the lowest longest dark row */
  int title = 0, axis = a.h - 1, ax0 = 0, ax1 = a.w - 1, best = 0;
  for (int y = 0, edges = 0, in_edge = 0; y < a.h && edges < 2; y++) {
    int x0 = 0, x1 = 0, n = dark_run(&a, y, &x0, &x1);
    if (n > a.w / 2 && !in_edge) edges++;
    in_edge = n > a.w / 2;
    if (in_edge) title = y;
  }
  for (int y = title + 1; y < a.h; y++) {
    int x0 = 0, x1 = 0, n = dark_run(&a, y, &x0, &x1);
    if (n >= best) best = n, axis = y, ax0 = x0, ax1 = x1;
  }
  while (title + 1 < a.h && dark(&a, a.w / 2, title + 1)) title++;
  int y0 = title + 3;
  long moved = 0;
  int most = 0;
  double sum = 0.0;
  for (int x = ax0 + 3; x <= ax1 - 3; x++) {
    int d = abs(column_top(&a, x, y0, axis) - column_top(&b, x, y0, axis));
    if (d) moved++;
    if (d > most) most = d;
    sum += d;
  }
  int n = ax1 - ax0 - 5 > 0 ? ax1 - ax0 - 5 : 1;
  printf("graph x %d..%d y %d..%d ", ax0, ax1, y0, axis);
  if (differ)
    printf("differences within x %d..%d y %d..%d ", bx0, bx1, by0, by1);
  printf("differing_pixels %lld (%.4f%%) columns_differing %ld of %d "
         "tops_moved %ld of %d max_top_move_px %d mean_top_move_px %.4f\n",
         differ, 100.0 * (double)differ / ((double)a.w * a.h), cols, a.w, moved,
         n, most, sum / n);
  cairo_surface_destroy(a.s);
  cairo_surface_destroy(b.s);
  return 0;
}
