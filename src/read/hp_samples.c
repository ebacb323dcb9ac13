/* hp_samples.c -- the .hp front end's census lines: BEGIN_SAMPLE opens a
 * census and END_SAMPLE closes it (the checks of parse_line's reading),
 * and the fast path of those lines as GHC writes them (one space, a
 * "%.6f" time; an END_SAMPLE's time compared as the bytes of its
 * BEGIN_SAMPLE's), which hp_parse.c's line loop takes and, from one
 * census's last entry line to the next census's first, hp_entries.c's
 * runs (hpx_hp_census_turn) without going back to the line loop.
 */
#include "hp_int.h"
#include "base/textout.h"

#include <string.h>

/* Records the census line's syntax error `what` on the current line (as
 * hp_parse.c's errors with nothing quoted); returns it, sticky in
 * hp->status. */
static hp2x_status fail_census(hp_parser *hp, hp2x_err *err, const char *what) {
  return hp->status =
             hpx_fail(err, HP2X_E_SYNTAX, hp->line, hp->offset, "%s", what);
}

/* A BEGIN_SAMPLE at time t that opens no census: one is open, or t goes
 * back in time. */
static HPX_NOINLINE hp2x_status fail_begin(hp_parser *hp, double t,
                                           hp2x_err *err) {
  char what[120];
  if (hp->in_sample)
    hpx_fmt(what, sizeof what,
            "END_SAMPLE before another BEGIN_SAMPLE: the sample begun "
            "on line %ld is not closed",
            hp->begin_line);
  else
    hpx_fmt(what, sizeof what,
            "samples out of sequence: time %.6f is before the previous "
            "sample's %.6f",
            t, hp->prev_time);
  return fail_census(hp, err, what);
}

/* BEGIN_SAMPLE t: opens a sample, which must not be inside another nor
 * go back in time. */
static HPX_ALWAYS_INLINE hp2x_status begin_sample(hp_parser *hp, double t,
                                                  hp2x_err *err) {
  if (hp->in_sample || (hp->have_prev && t < hp->prev_time))
    return fail_begin(hp, t, err);
  hp->in_sample = true;
  hp->begin_line = hp->line;
  hp->begin_offset = hp->offset;
  hp->begin_time = t;
  hp->begin_text_len = 0;
  hp->have_prev = true;
  hp->prev_time = t;
  label_track_begin(&hp->track);
  hp->prev_slot = HP_SAMPLE_START;
  hpx_profile_begin_sample(hp->p, t);
  return HP2X_OK;
}

/* An END_SAMPLE at time t that closes no census: none is open, or t is
 * not its BEGIN_SAMPLE's. */
static HPX_NOINLINE hp2x_status fail_end(hp_parser *hp, double t,
                                         hp2x_err *err) {
  if (!hp->in_sample)
    return fail_census(hp, err, "END_SAMPLE without a BEGIN_SAMPLE before it");
  char what[160];
  hpx_fmt(what, sizeof what,
          "END_SAMPLE %.6f does not match BEGIN_SAMPLE %.6f on line %ld", t,
          hp->begin_time, hp->begin_line);
  return fail_census(hp, err, what);
}

/* END_SAMPLE t: closes the open sample, whose BEGIN_SAMPLE had time t. */
static HPX_ALWAYS_INLINE hp2x_status end_sample(hp_parser *hp, double t,
                                                hp2x_err *err) {
  if (!hp->in_sample || t != hp->begin_time) return fail_end(hp, t, err);
  hp->in_sample = false;
  if (hpx_profile_end_sample(hp->p, err) != HP2X_OK)
    return hp->status = err->code;
  return HP2X_OK;
}

hp2x_status hpx_hp_begin_sample(hp_parser *hp, double t, hp2x_err *err) {
  return begin_sample(hp, t, err);
}

hp2x_status hpx_hp_end_sample(hp_parser *hp, double t, hp2x_err *err) {
  return end_sample(hp, t, err);
}

/* The time of a sample line as GHC writes it ("%.6f", then the newline)
 * at s, before end: the newline, *v what parse_time reads; else NULL. */
static HPX_ALWAYS_INLINE const char *ghc_time(const char *s, const char *end,
                                              double *v) {
  uint64_t whole;
  const char *dot = hp_scan_short_digits(s, end, &whole);
  if (dot == s || dot - s > 12 || end - dot < 9 || *dot != '.') return NULL;
  uint64_t w = read_le64(dot + 1);
  if (hp_digit_run(w) != 6 || dot[7] != '\n') return NULL;
  uint64_t m = whole * 1000000u + hp_eight_digits((w << 16) | 0x3030u);
  if (m >= ((uint64_t)1 << 53)) return NULL;
  *v = (double)m / 1e6;
  return dot + 7;
}

/* An END_SAMPLE's time at s (before end) written as its BEGIN_SAMPLE's
 * (kept by sample_line, with the newline after it when shorter than the
 * 24 bytes kept): its newline, *v that time; else NULL.  A time of 7 to
 * 15 bytes and its newline (any GHC writes below 10^8 s) in two words. */
static HPX_ALWAYS_INLINE const char *same_time(const hp_parser *hp,
                                               const char *s, const char *end,
                                               double *v) {
  size_t n = hp->begin_text_len;
  const char *t = hp->begin_text;
  if (!hp->in_sample || !n || (size_t)(end - s) <= n) return NULL;
  if (HPX_LIKELY(n - 7 < 9)) { /* n + 1 bytes, 8 to 16 */
    if (read_le64(s) != read_le64(t) ||
        read_le64(s + n - 7) != read_le64(t + n - 7))
      return NULL;
  } else if (s[n] != '\n' || !read_same_bytes(s, t, n)) {
    return NULL;
  }
  *v = hp->begin_time;
  return s + n;
}

/* Does the line at b (before end) begin with kw, k bytes (8 to 16), and
 * hold more? */
static HPX_ALWAYS_INLINE bool starts_kw(const char *b, const char *end,
                                        const char *kw, size_t k) {
  return (size_t)(end - b) > k && read_le64(b) == read_le64(kw) &&
         read_le64(b + k - 8) == read_le64(kw + k - 8);
}

/* A BEGIN_SAMPLE or END_SAMPLE line at b written as GHC writes it (one
 * space, the time; an END_SAMPLE's compared with its BEGIN_SAMPLE's):
 * read as parse_line reads it.  Returns the next line, or NULL: an error
 * (hp->status), or the line is left to parse_line. */
static HPX_ALWAYS_INLINE const char *sample_line(hp_parser *hp, const char *b,
                                                 const char *end,
                                                 hp2x_err *err) {
  static const char begin_kw[] = "BEGIN_SAMPLE ", end_kw[] = "END_SAMPLE ";
  const size_t kb = sizeof begin_kw - 1, ke = sizeof end_kw - 1;
  double t;
  const char *nl;
  if (*b == 'B') {
    if (!starts_kw(b, end, begin_kw, kb) ||
        (nl = ghc_time(b + kb, end, &t)) == NULL)
      return NULL;
    hp->line++;
    if (begin_sample(hp, t, err) != HP2X_OK) return NULL;
    size_t n = (size_t)(nl - (b + kb)), most = sizeof hp->begin_text;
    if (n <= most && (size_t)(end - (b + kb)) >= most) /* no call */
      memcpy(hp->begin_text, b + kb, most), hp->begin_text_len = n;
  } else {
    if (!starts_kw(b, end, end_kw, ke) ||
        ((nl = same_time(hp, b + ke, end, &t)) == NULL &&
         (nl = ghc_time(b + ke, end, &t)) == NULL))
      return NULL;
    hp->line++;
    if (end_sample(hp, t, err) != HP2X_OK) return NULL;
  }
  hp->offset += nl + 1 - b;
  return nl + 1;
}

const char *hpx_hp_sample_line(hp_parser *hp, const char *b, const char *end,
                               hp2x_err *err) {
  return sample_line(hp, b, end, err);
}

const char *hpx_hp_census_turn(hp_parser *hp, const char *b, const char *end,
                               hp2x_err *err) {
  const char *next = sample_line(hp, b, end, err), *then;
  if (!next) return hp->status == HP2X_OK ? b : NULL;
  if (next < end && *next == 'B' &&
      (then = sample_line(hp, next, end, err)) != NULL)
    return then;
  return hp->status == HP2X_OK ? next : NULL;
}
