/* parse_helpers.h -- shared by the parser unit tests: read a repo file
 * (gzipped or not), parse bytes in chunks of a given size, compare two
 * profiles. */
#ifndef HPX_PARSE_HELPERS_H
#define HPX_PARSE_HELPERS_H

#include "select/bands_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static inline const char *top_dir(void) {
  const char *t = getenv("TOP");
  return t ? t : ".";
}

/* Reads TOP/rel whole; caller frees. */
static inline unsigned char *read_repo_file(const char *rel, size_t *len) {
  char path[1024];
  *len = 0;
  snprintf(path, sizeof path, "%s/%s", top_dir(), rel);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
  *len = buf ? fread(buf, 1, (size_t)n, f) : 0;
  fclose(f);
  return buf;
}

/* Reads TOP/rel whole, gunzipped when it is gzipped (zlib reads a plain
 * file as it is); caller frees; NULL when it cannot be read. */
static inline unsigned char *read_repo_gz(const char *rel, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", top_dir(), rel);
  *len = 0;
  gzFile f = gzopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 20;
  unsigned char *buf = malloc(cap);
  int n;
  while (buf && (n = gzread(f, buf + *len, (unsigned)(cap - *len))) > 0) {
    *len += (size_t)n;
    if (*len == cap) {
      unsigned char *more = realloc(buf, cap *= 2);
      if (!more) free(buf);
      buf = more;
    }
  }
  gzclose(f);
  return buf;
}

/* Reads TOP/rel as a NUL-terminated string; caller frees. */
static inline char *read_repo_text(const char *rel) {
  size_t len = 0;
  unsigned char *buf = read_repo_file(rel, &len);
  unsigned char *t = buf ? realloc(buf, len + 1) : NULL;
  if (!t) {
    free(buf);
    return NULL;
  }
  t[len] = '\0';
  return (char *)t;
}

/* Parses buf in chunks of `step` bytes (0 = whole); *out on success. */
static inline hp2x_status parse_chunked(const unsigned char *buf, size_t len,
                                        size_t step, hp2x_input_kind kind,
                                        hp2x_profile **out, hp2x_err *err) {
  hp2x_parse_options o;
  hp2x_parse_options_init(&o);
  o.kind = kind;
  hp2x_err_init(err);
  *out = NULL;
  hp2x_parser *ps = hp2x_parser_new("test", &o, err);
  if (!ps) return err->code;
  hp2x_status st = HP2X_OK;
  for (size_t pos = 0; st == HP2X_OK && pos < len;) {
    size_t k = step && step < len - pos ? step : len - pos;
    st = hp2x_parser_feed(ps, buf + pos, k, err);
    pos += k;
  }
  if (st == HP2X_OK) st = hp2x_parser_finish(ps, out, err);
  hp2x_parser_free(ps);
  return st;
}

/* Is a's sample s b's sample t (time, .hp labels, values)? */
static inline int same_sample(const hp2x_profile *a, size_t s,
                              const hp2x_profile *b, size_t t) {
  if (a->times[s] != b->times[t]) return 0;
  if (a->start[s + 1] - a->start[s] != b->start[t + 1] - b->start[t]) return 0;
  hpx_values va, vb;
  hpx_values_of(a, s, &va);
  hpx_values_of(b, t, &vb);
  for (size_t e = a->start[s], f = b->start[t]; e < a->start[s + 1]; e++, f++) {
    /* by .hp name: an -hi label's IPE name may come after the cut */
    size_t la, lb;
    const char *na =
        profile_hp_name(&a->labels[profile_entry_label(a, s, e)], &la);
    const char *nb =
        profile_hp_name(&b->labels[profile_entry_label(b, t, f)], &lb);
    if (hpx_values_next(&va) != hpx_values_next(&vb) || la != lb ||
        memcmp(na, nb, la))
      return 0;
  }
  return 1;
}

/* Are a's samples the first a->n_samples of b's (times, .hp labels, values),
 * and, if it has any, is its header b's? */
static inline int same_prefix(const hp2x_profile *a, const hp2x_profile *b) {
  if (a->n_samples > b->n_samples ||
      (a->n_samples && (strcmp(a->job, b->job) || strcmp(a->date, b->date))))
    return 0;
  for (size_t s = 0; s < a->n_samples; s++)
    if (!same_sample(a, s, b, s)) return 0;
  return 1;
}

/* Are a's samples b's but one, in order?  *lost gets that one's index. */
static inline int same_but_one(const hp2x_profile *a, const hp2x_profile *b,
                               size_t *lost) {
  if (a->n_samples + 1 != b->n_samples) return 0;
  size_t k = 0;
  while (k < a->n_samples && same_sample(a, k, b, k)) k++;
  *lost = k;
  for (size_t s = k; s < a->n_samples; s++)
    if (!same_sample(a, s, b, s + 1)) return 0;
  return 1;
}

/* Same samples, times, entries (label names and values) and header? */
static inline int same_profile(const hp2x_profile *a, const hp2x_profile *b) {
  return a->n_samples == b->n_samples && a->n_marks == b->n_marks &&
         !strcmp(a->job, b->job) && !strcmp(a->date, b->date) &&
         same_prefix(a, b);
}

#endif
