/* warm.c -- the warm-up page ("/?warm=1"): the lean live report of a tiny
 * profile of our own (two bands, three censuses), drawn once as the
 * server starts, with the run's options.  A waiting page (no census has
 * come) lays it out hidden until the first census (live_swap.js), so that the
 * browser has compiled the report's script and laid out a report before
 * the stream's first census, whose report it then draws into it (from
 * census 1's update, events.c) or swaps in warm; drawing it
 * also readies the server's fonts before the first census's key and
 * report are drawn.  Nothing of the run is in it.
 */
#include "warm.h"

#include "serve_int.h"

#include <stdlib.h>
#include <string.h>

static const char warm_hp[] = "JOB \"hp2x\"\nDATE \"\"\n"
                              "SAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\"\n"
                              "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
                              "BEGIN_SAMPLE 1.00\na\t4096\nb\t2048\n"
                              "END_SAMPLE 1.00\n"
                              "BEGIN_SAMPLE 2.00\na\t8192\nb\t1024\n"
                              "END_SAMPLE 2.00\n";

/* The page as it is written: a growing buffer. */
typedef struct page {
  char *data; /* NUL-ended */
  size_t len;
} page;

static int put(void *closure, const void *buf, size_t len) {
  page *w = closure;
  char *data = realloc(w->data, w->len + len + 1);
  if (!data) return -1;
  memcpy(data + w->len, buf, len);
  w->data = data, w->len += len;
  data[w->len] = '\0';
  return 0;
}

char *serve_warm_page(const hp2x_options *opts) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  hp2x_bands *b = NULL;
  hp2x_options o = *opts;
  o.format = HP2X_FORMAT_HTML;
  page w = {NULL, 0};
  hp2x_parser *ps = hp2x_parser_new("warm", NULL, &err);
  int ok = ps &&
           hp2x_parser_feed(ps, warm_hp, sizeof warm_hp - 1, &err) == HP2X_OK;
  ok = ok && hp2x_parser_finish(ps, &p, &err) == HP2X_OK;
  ok = ok && hp2x_bands_select(p, &o, &b, &err) == HP2X_OK;
  ok = ok && hp2x_write_live_lean_html(p, b, &o, 0, put, &w, &err) == HP2X_OK;
  size_t from, to;
  if (ok && push_page_png(w.data, &from, &to)) { /* lean: no PNG's bytes */
    memmove(w.data + from, w.data + to, w.len - to + 1);
    w.len -= to - from;
  }
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  hp2x_parser_free(ps);
  if (!ok) {
    free(w.data); /* none: the page is not warmed up */
    return NULL;
  }
  return w.data;
}
