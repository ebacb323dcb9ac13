/* html_int.h -- private to the HTML report's writer: the JSON text of
 * what the page holds (html_data.c) and the choice of the censuses it
 * holds (html_census.c), which html_write.c puts in the page.
 */
#ifndef HPX_HTML_INT_H
#define HPX_HTML_INT_H

#include "band_stats.h"
#include "draw/page.h"
#include "select/thin.h"

/* Columns across the graph the page draws (twice a 1,600-pixel-wide
 * graph): at most that many time buckets across the axis, a power of two
 * seconds wide (so 1,600 to 3,200 of them), each holding its census of
 * the largest total.  Wider buckets when the values of those censuses
 * would pass what the page's budget (HPX_PAGE_BYTES, all told) leaves for
 * them, at most HPX_PAGE_VALUE_BYTES, at least HPX_PAGE_MIN_VALUE_BYTES
 * (and HPX_PAGE_MIN_COLUMNS buckets). */
#define HPX_PAGE_COLUMNS 3200
#define HPX_PAGE_MIN_COLUMNS 50
#define HPX_PAGE_BYTES 1000000
#define HPX_PAGE_VALUE_BYTES 600000
#define HPX_PAGE_MIN_VALUE_BYTES 60000
/* What the budget counts for the pictures (the PNG's base64 and the SVG),
 * whatever they take, so that the censuses held are a function of the
 * data alone: the samples' pictures take 60-340 KB (bench/RESULTS.md
 * 12.5t).  And the most bytes an exact time takes in the data. */
#define HPX_PAGE_PICTURE_BYTES 300000
#define HPX_PAGE_EXACT_BYTES 26
/* Columns the --heap lines are thinned to (up to 4 points each), and
 * the most bytes of the marks' JSON (escaped; a mark counted 24 at least:
 * at most 2,083 marks): later marks are left out. */
#define HPX_PAGE_LINE_COLUMNS 640
#define HPX_PAGE_MARK_BYTES 50000
/* The most bytes of one string (a label, an IPE record, JOB) the page
 * shows: a longer one is cut at a character and says how long it was, so
 * that a hostile or broken profile's megabyte label cannot push the page
 * past HPX_PAGE_BYTES; CSV and --summary keep it whole. */
#define HPX_PAGE_TEXT_BYTES 2048

/* The most censuses one live update carries (html_live.c). */
#define HPX_LIVE_TAIL 64

/* Time buckets: [origin + i width, origin + (i + 1) width). */
typedef struct hpx_html_buckets {
  double origin, width;
} hpx_html_buckets;

/* The censuses the page holds: in each run of censuses in one bucket of
 * k, the first of the largest total (so the picture keeps its peaks); and
 * the first and last censuses.  Writes their indices, increasing, to
 * held, the first `cap` of them, and returns how many there are (more
 * than cap: held holds the first cap). */
size_t hpx_html_choose(const hp2x_profile *p, const hp2x_bands *b,
                       const int64_t *total, const hpx_html_buckets *k,
                       size_t cap, size_t *held);

/* The censuses for the page, their times and values in about `budget`
 * bytes of JSON: every one while there are at most HPX_PAGE_COLUMNS and
 * they fit (*columns: their number), else those hpx_html_choose picks
 * with the narrowest buckets, a power of two seconds wide counted from
 * the first census (time 0 under --last), of which at most
 * HPX_PAGE_COLUMNS span the axis and whose censuses fit (*columns: how
 * many span it).  *held (owned by the
 * caller, hpx_free) and *n_held.  HP2X_E_NOMEM. */
hp2x_status hpx_html_censuses(const hp2x_profile *p, const hp2x_bands *b,
                              size_t budget, size_t **held, size_t *n_held,
                              size_t *columns, hp2x_err *err);

/* What the page's budget leaves for the held censuses' times and values
 * (html_write.c): HPX_PAGE_BYTES less the pictures' allowance, the script,
 * style, labels, g's --heap lines (g NULL: none) and marks; within
 * [HPX_PAGE_MIN_VALUE_BYTES, HPX_PAGE_VALUE_BYTES]. */
size_t hpx_html_census_budget(const hp2x_profile *p, const hp2x_bands *b,
                              const hpx_page_geometry *g);

/* Do the held censuses need their exact times in the page, besides the
 * CSV's text of them ("%.6f")?  That reads back as another double for an
 * eventlog's times (nanoseconds), not for a .hp's (a few decimals). */
int hpx_html_needs_exact_times(const hp2x_profile *p, const size_t *held,
                               size_t n);
/* t as JSON text that reads back as t exactly: the fewest of 6 to 9
 * decimals that do (an eventlog's nanoseconds: 9), else 17 digits;
 * returns its length. */
size_t hpx_html_exact_time(char *buf, size_t size, double t);

/* ,"t":[...],"y":[...]: series s as the report's --heap line holds it
 * (thinned over b's time axis).  0 when out of memory (html_data.c). */
int hpx_html_write_line_points(writebuf *w, const hp2x_bands *b,
                               const hpx_series *s);

/* ,"marks":[[t,"label"],...]: p's marks [from, to) (the page holds the
 * first html_marks.shown, as many as HPX_PAGE_MARK_BYTES of their JSON
 * (escaped) hold: html_data.c; the report's data, from 0, and a live
 * update's).  Their fingerprint (html_marks.sum): FNV-1a over the marks written
 * (times, labels as shown and their lengths), then p's count of marks;
 * as JSON, 16 hex digits quoted ("markSum": a live page compares each
 * update's with its own, hp2x_write_live_step). */
typedef struct html_marks {
  size_t shown; /* how many the page holds */
  uint64_t sum; /* the fingerprint: FNV-1a's state after them, the count */
} html_marks;
void hpx_html_write_marks(writebuf *w, const hp2x_profile *p, size_t from,
                          size_t to);
void hpx_html_marks_of(const hp2x_profile *p, html_marks *m);
/* Whether the marks each of said[0..n) says (a live update's) are the
 * first of p's the page holds, up to their count: in begins[i]. */
void hpx_html_marks_begin(const hp2x_profile *p, const hp2x_live_marks *said,
                          size_t n, int *begins);
void hpx_html_mark_sum_text(writebuf *w, uint64_t sum);

/* A live update's censuses idx[0..n): "t" (the CSV's text of their
 * times), "tx" (exact, where that is not), "v" (each band's values), each
 * after a comma (html_held.c). */
void hpx_html_write_censuses(writebuf *w, const hp2x_profile *p,
                             const hp2x_bands *b, const size_t *idx, size_t n);

/* *now: the held censuses idx[0..n) of redraw (their times and totals;
 * redraw -1 when their times do not increase).  HP2X_E_NOMEM. */
hp2x_status hpx_html_held_take(const hp2x_profile *p, const hp2x_bands *b,
                               const size_t *idx, size_t n, long redraw,
                               hp2x_live_held *now, hp2x_err *err);

/* ,"thin":{...}: what changed from base (NULL: none) to now (idx: now's
 * censuses' samples), as hp2x_write_live_step says.  HP2X_E_NOMEM. */
hp2x_status hpx_html_write_thin(writebuf *w, const hp2x_profile *p,
                                const hp2x_bands *b, const size_t *idx,
                                const hp2x_live_held *base,
                                const hp2x_live_held *now, hp2x_err *err);

/* Writes the page's data as one JSON object, every '<', '>' and '&' as
 * \u escapes so it can sit in a <script> element; 0 when out of
 * memory. */
typedef struct html_data {
  const hp2x_profile *p;
  const hp2x_bands *b;
  const hpx_page_geometry *g;
  const band_stats *st;
  const size_t *held;
  size_t n_held, columns;
  int64_t top;   /* the total's peak */
  size_t top_at; /* its sample */
  size_t budget; /* the bytes the held censuses' JSON may take */
} html_data;
int hpx_html_write_data(writebuf *w, const html_data *d);

/* JSON pieces (html_data.c): a number ("%.10g", null when not finite),
 * numbers in [], an int64 (a string past 2^53), a boolean, "key": (a
 * comma before it unless `first`). */
void hpx_html_num(writebuf *w, double v);
void hpx_html_nums(writebuf *w, const double *v, size_t n);
void hpx_html_int(writebuf *w, int64_t v);
void hpx_html_bool(writebuf *w, int v);
void hpx_html_key(writebuf *w, const char *k, int first);

/* Band k's cells of the band table (total, peak, peakAt, slope, r2,
 * area, suspect, peakV), each member after a comma (html_data.c). */
void hpx_html_write_cells(writebuf *w, const hp2x_profile *p,
                          const hp2x_bands *b, const band_stats *st, size_t k);

/* Band k's name, the record its name leaves out (detail), its colour in
 * the picture g (as "#rrggbb") and whether it is OTHER: the members of a
 * band's object, the first without a comma (html_data.c). */
void hpx_html_write_band_name(writebuf *w, const hp2x_bands *b,
                              const hpx_page_geometry *g, size_t k);

/* "keyNames": the key's names of g's bands (html_data.c), after a comma. */
void hpx_html_write_key_names(writebuf *w, const hpx_page_geometry *g);
/* "areaText": the title's area text of p with bands b
 * (hpx_layout_area_title), which the page draws. */
void hpx_html_write_area_text(writebuf *w, const hp2x_profile *p,
                              const hp2x_bands *b);

/* The band set's fingerprint (html_data.c): FNV-1a over the bands' number,
 * OTHER, and their names in order; as JSON, 16 hex digits quoted.  A live
 * page holds its report's and compares each update's with it. */
uint64_t hpx_html_band_set(const hp2x_bands *b);
void hpx_html_band_set_text(writebuf *w, const hp2x_bands *b);

/* The picture's SVG text (NUL-ended; NULL: nothing) as it goes into the
 * page (html_svg.c). */
void hpx_html_write_svg(writebuf *w, const char *svg);

/* d[0..n) in base64 (html_svg.c). */
void hpx_html_write_base64(writebuf *w, const unsigned char *d, size_t n);

/* How many of s's bytes the page shows: all, or HPX_PAGE_TEXT_BYTES cut
 * back to a character's start. */
size_t hpx_html_shown_length(const char *s);
/* s as a JSON string (quoted), escaped as above; cut as
 * hpx_html_shown_length says, with "... (N bytes in all)" after. */
void hpx_html_json_str(writebuf *w, const char *s);
/* The bytes hpx_html_json_str(w, s) writes. */
size_t hpx_html_json_str_size(const char *s);
/* s as HTML text (&, <, >, ", ' escaped), cut likewise. */
void hpx_html_text(writebuf *w, const char *s);

#endif
