/* hp_parse.c -- the .hp text front end: GHC's heap-profile text (header
 * lines, MARKs, samples of "label<TAB>bytes" lines, as rts/ProfHeap.c
 * writes them) into the sample model, streaming.  Complete lines are parsed
 * in the caller's buffer; only a partial last line is carried to the next
 * feed, so any split of the bytes gives the same profile.  Numbers are
 * parsed by hand, never through the C library's locale.
 */
#include "hp_int.h"
#include "hp_breakdown.h"
#include "base/textout.h"

#include <assert.h>
#include <string.h>

hp_parser *hpx_hp_parse_new(const char *file, hp2x_profile *p, hp2x_err *err) {
  hp_parser *hp = hpx_calloc(1, sizeof *hp);
  if (!hp) {
    hpx_nomem(err);
    return NULL;
  }
  hp->p = p;
  hp->file = file;
  p->heap_profile = true;
  hpx_label_track_init(&hp->track);
  memset(hp->known, 0xff, sizeof hp->known); /* LABEL_NONE */
  hpx_hp_slots_init(hp);
  return hp;
}

void hpx_hp_parse_free(hp_parser *hp) {
  if (!hp) return;
  hpx_free(hp->carry);
  hpx_label_track_free(&hp->track);
  hpx_free(hp);
}

/* ------------------------------------------------------------ helpers */

/* Records a syntax error on the current line: "expected WHAT, found
 * "FOUND"" (its first 40 bytes, quoted), or WHAT alone when found is NULL.
 * Returns the error, sticky in hp->status. */
static hp2x_status fail_syntax(hp_parser *hp, hp2x_err *err, const char *what,
                               const char *found, size_t found_len) {
  char q[200] = ""; /* 40 bytes shown as at most 4 characters each */
  size_t n = found_len > 40 ? 40 : found_len;
  hpx_quote_bytes(q, sizeof q - 4, found, n);
  if (found_len > n) memcpy(q + strlen(q), "...", 4);
  if (!found)
    return hp->status =
               hpx_fail(err, HP2X_E_SYNTAX, hp->line, hp->offset, "%s", what);
  return hp->status = hpx_fail(err, HP2X_E_SYNTAX, hp->line, hp->offset,
                               "expected %s, found \"%s\"", what, q);
}

static bool is_space(char c) { return hp_is_space(c); }

static const char *skip_space(const char *s, const char *end) {
  while (s < end && is_space(*s)) s++;
  return s;
}

static const double pow10_table[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A time with too many digits to be exact (GHC never writes one),
 * accumulated in double from s..end, which parse_time has checked. */
static double sum_time_digits(const char *s, const char *end) {
  double ip = 0.0, fp = 0.0, scale = 1.0;
  int d = 0;
  for (const char *c = s; c < end; c++) {
    if (*c == '.') {
      if (++d > 1) break;
      continue;
    }
    if (d == 0)
      ip = ip * 10.0 + (*c - '0');
    else
      fp += (*c - '0') * (scale /= 10.0);
  }
  return ip + fp;
}

/* A time as hp2ps reads one: a digit first, then digits and dots, at
 * least one dot; like atof, the number stops at a second dot, so "1.2.3"
 * reads as 1.2.  Blanks around it are allowed, nothing else.  Returns
 * false when s..end is not such a number. */
static bool parse_time(const char *s, const char *end, double *v) {
  s = skip_space(s, end);
  while (end > s && is_space(end[-1])) end--;
  if (s == end || *s < '0' || *s > '9') return false;
  /* As GHC writes them ("%.6f"): digits, a dot, digits, at most 18 in
   * all; the same mantissa as the loop below, at eight digits a step. */
  uint64_t whole, frac;
  const char *dot = hp_scan_digits(s, end, &whole);
  if (dot < end && *dot == '.') {
    const char *f = dot + 1, *e = hp_scan_digits(f, end, &frac);
    size_t nf = (size_t)(e - f);
    if (e == end && (size_t)(dot - s) + nf <= 18) {
      uint64_t m = whole * (uint64_t)pow10_table[nf] + frac;
      if (m < ((uint64_t)1 << 53)) {
        *v = (double)m / pow10_table[nf];
        return true;
      }
    }
  }
  uint64_t mant = 0;
  int frac_digits = 0, dots = 0, sig = 0;
  bool exact = true;
  for (const char *c = s; c < end; c++) {
    if (*c == '.') {
      dots++;
      continue;
    }
    if (*c < '0' || *c > '9') return false;
    if (dots > 1) continue; /* after a second dot: ignored, as atof does */
    if (dots == 1) frac_digits++;
    if (sig < 18 || mant == 0) {
      mant = mant * 10 + (uint64_t)(*c - '0');
      if (mant) sig++;
    } else {
      exact = false;
    }
  }
  if (dots == 0) return false;
  if (exact && mant < ((uint64_t)1 << 53) && frac_digits <= 22)
    *v = (double)mant / pow10_table[frac_digits];
  else
    *v = sum_time_digits(s, end);
  return true;
}

/* Copies the quoted text that starts at s (after the opening '"') into
 * buf, "" standing for one '"'.  Returns the byte after the closing quote
 * and sets *n to the bytes copied; NULL when the line ends first or, with
 * *nul set, when a NUL byte comes first. */
static const char *unquote(const char *s, const char *end, char *buf, size_t *n,
                           bool *nul) {
  *n = 0;
  *nul = false;
  while (s < end) {
    if (*s == '"') {
      if (s + 1 < end && s[1] == '"') {
        buf[(*n)++] = '"';
        s += 2;
        continue;
      }
      return s + 1;
    }
    if (*s == '\0') {
      *nul = true;
      return NULL;
    }
    buf[(*n)++] = *s++;
  }
  return NULL;
}

/* Parses the double-quoted string after header keyword kw (s..end, the
 * rest of the line) and stores it as header field f. */
static hp2x_status parse_header_string(hp_parser *hp, profile_field f,
                                       const char *kw, const char *s,
                                       const char *end, hp2x_err *err) {
  assert((unsigned)f < 4);
  s = skip_space(s, end);
  if (s == end || *s != '"') {
    char what[64];
    hpx_fmt(what, sizeof what, "a quoted string after %s", kw);
    return fail_syntax(hp, err, what, s, (size_t)(end - s));
  }
  s++;
  size_t cap = (size_t)(end - s) + 1, n;
  char *buf = hpx_malloc(cap);
  if (!buf) return hp->status = hpx_nomem(err);
  bool nul;
  const char *c = unquote(s, end, buf, &n, &nul);
  assert(n < cap);
  hp2x_status st = HP2X_OK;
  if (nul) {
    st = hp->status = hpx_fail(err, HP2X_E_SYNTAX, hp->line, hp->offset,
                               "NUL byte inside the %s string", kw);
  } else if (!c) {
    char what[80];
    hpx_fmt(what, sizeof what,
            "unterminated %s string: no closing '\"' on this line", kw);
    st = fail_syntax(hp, err, what, NULL, 0);
  } else if (skip_space(c, end) != end) {
    st = fail_syntax(hp, err, "the end of the line after the closing quote", c,
                     (size_t)(end - c));
  } else {
    st = hpx_profile_set_header(hp->p, f, buf, n, err);
    if (st != HP2X_OK) hp->status = st;
    if (st == HP2X_OK && f == PROFILE_JOB) {
      hpx_hp_breakdown_job(&hp->breakdown, buf, n);
      hp->p->text_breakdown = hpx_hp_breakdown_of(&hp->breakdown);
    }
  }
  hpx_free(buf);
  if (st == HP2X_OK) hp->header_seen |= 1u << f;
  return st;
}

/* Records entry (id, v) of the open sample (hp_int.h). */
static hp2x_status add_entry(hp_parser *hp, uint32_t id, int64_t v,
                             hp2x_err *err) {
  return hp_add_entry(hp, id, v, err);
}

/* An entry line s..end inside a sample: label, whitespace (GHC writes a
 * TAB), byte count.  The label is what comes before the last blank run, so
 * it may hold blanks itself. */
static hp2x_status parse_entry_line(hp_parser *hp, const char *s,
                                    const char *end, hp2x_err *err) {
  const char *e = end;
  while (e > s && is_space(e[-1])) e--;
  const char *num = e;
  while (num > s && !is_space(num[-1])) num--;
  const char *lab_end = num;
  while (lab_end > s && is_space(lab_end[-1])) lab_end--;
  if (lab_end == s || num == e)
    return fail_syntax(hp, err, "an entry 'LABEL<TAB>BYTES' or a keyword", s,
                       (size_t)(end - s));
  uint64_t v = 0;
  for (const char *c = num; c < e; c++) {
    if (*c < '0' || *c > '9')
      return fail_syntax(hp, err,
                         "a byte count (unsigned whole number) after the label",
                         num, (size_t)(e - num));
    unsigned d = (unsigned)(*c - '0');
    if (v > ((uint64_t)INT64_MAX - d) / 10)
      return fail_syntax(hp, err, "a byte count that fits in 64 bits", num,
                         (size_t)(e - num));
    v = v * 10 + d;
  }
  size_t lab_len = (size_t)(lab_end - s);
  if (memchr(s, '\0', lab_len))
    return fail_syntax(hp, err, "a label without NUL bytes", s, lab_len);
  uint32_t id;
  size_t before = hp->p->n_labels;
  if (hpx_profile_intern(hp->p, s, lab_len, NULL, 0, &id, err) != HP2X_OK)
    return hp->status = err->code;
  if (hp->p->n_labels > before) {
    hpx_hp_breakdown_label(&hp->breakdown, s, lab_len);
    hp->p->text_breakdown = hpx_hp_breakdown_of(&hp->breakdown);
  }
  return add_entry(hp, id, (int64_t)v, err);
}

/* Does the line start with keyword kw followed by blank or end? */
static bool starts_with_keyword(const char *s, const char *end, const char *kw,
                                size_t kwlen) {
  return (size_t)(end - s) >= kwlen && memcmp(s, kw, kwlen) == 0 &&
         (s + kwlen == end || is_space(s[kwlen]));
}

#define KW(s, end, lit) starts_with_keyword(s, end, lit, sizeof lit - 1)

/* A BEGIN_SAMPLE (begin) or END_SAMPLE line s..end and its time. */
static hp2x_status parse_sample_line(hp_parser *hp, bool begin, const char *s,
                                     const char *end, hp2x_err *err) {
  const char *kw = begin ? "BEGIN_SAMPLE" : "END_SAMPLE";
  double t;
  const char *arg = s + strlen(kw);
  if (!parse_time(arg, end, &t)) {
    char what[80];
    hpx_fmt(what, sizeof what, "a time in seconds (like 1.250000) after %s",
            kw);
    const char *a = skip_space(arg, end);
    return fail_syntax(hp, err, what, a, (size_t)(end - a));
  }
  return begin ? hpx_hp_begin_sample(hp, t, err)
               : hpx_hp_end_sample(hp, t, err);
}

/* A MARK line s..end: a time, between samples (a part's reader leaves it
 * to the real reader: hp_parts.c). */
static hp2x_status parse_mark_line(hp_parser *hp, const char *s,
                                   const char *end, hp2x_err *err) {
  double m;
  if (hp->part && !hp->in_sample)
    return hpx_hp_defer_line(hp, s, (size_t)(end - s), err);
  if (hp->in_sample)
    return fail_syntax(hp, err, "MARK between samples, not inside one", NULL,
                       0);
  if (!parse_time(s + 4, end, &m)) {
    const char *a = skip_space(s + 4, end);
    return fail_syntax(hp, err, "a time in seconds after MARK", a,
                       (size_t)(end - a));
  }
  if (hpx_profile_add_mark(hp->p, m, NULL, 0, err) != HP2X_OK)
    return hp->status = err->code;
  return HP2X_OK;
}

/* A header line (JOB, DATE, SAMPLE_UNIT, VALUE_UNIT) s..end: between
 * samples only (a part's reader leaves it to the real reader). */
static hp2x_status parse_header_line(hp_parser *hp, profile_field f,
                                     const char *kw, const char *s,
                                     const char *end, hp2x_err *err) {
  if (hp->part && !hp->in_sample)
    return hpx_hp_defer_line(hp, s, (size_t)(end - s), err);
  if (hp->in_sample) {
    char what[96];
    hpx_fmt(what, sizeof what, "%s inside a sample (begun on line %ld)", kw,
            hp->begin_line);
    return fail_syntax(hp, err, what, NULL, 0);
  }
  return parse_header_string(hp, f, kw, s + strlen(kw), end, err);
}

/* A line that is no keyword's, outside a sample: the error says what was
 * expected there. */
static hp2x_status fail_outside_sample(hp_parser *hp, const char *s,
                                       const char *end, hp2x_err *err) {
  if (!hp->header_seen && !hp->p->n_samples)
    return fail_syntax(hp, err, "a heap profile header (JOB \"...\")", s,
                       (size_t)(end - s));
  return fail_syntax(hp, err,
                     "BEGIN_SAMPLE, MARK or a header line (JOB, DATE, "
                     "SAMPLE_UNIT, VALUE_UNIT) outside a sample",
                     s, (size_t)(end - s));
}

/* One line s..s+n (no '\n'; a CR before it is dropped): blank, a keyword
 * line, or an entry of the open sample. */
static hp2x_status parse_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err) {
  hp->line++;
  const char *end = s + n;
  if (end > s && end[-1] == '\r') end--;
  const char *t = skip_space(s, end);
  if (t == end) return HP2X_OK;
  switch (*t) {
  case 'B':
    if (KW(t, end, "BEGIN_SAMPLE"))
      return parse_sample_line(hp, true, t, end, err);
    break;
  case 'E':
    if (KW(t, end, "END_SAMPLE"))
      return parse_sample_line(hp, false, t, end, err);
    break;
  case 'M':
    if (KW(t, end, "MARK")) return parse_mark_line(hp, t, end, err);
    break;
  case 'J':
    if (KW(t, end, "JOB"))
      return parse_header_line(hp, PROFILE_JOB, "JOB", t, end, err);
    break;
  case 'D':
    if (KW(t, end, "DATE"))
      return parse_header_line(hp, PROFILE_DATE, "DATE", t, end, err);
    break;
  case 'S':
    if (KW(t, end, "SAMPLE_UNIT"))
      return parse_header_line(hp, PROFILE_SAMPLE_UNIT, "SAMPLE_UNIT", t, end,
                               err);
    break;
  case 'V':
    if (KW(t, end, "VALUE_UNIT"))
      return parse_header_line(hp, PROFILE_VALUE_UNIT, "VALUE_UNIT", t, end,
                               err);
    break;
  default: break;
  }
  if (!hp->in_sample) return fail_outside_sample(hp, t, end, err);
  return parse_entry_line(hp, t, end, err);
}

/* Gives a model error (a limit, memory), which knows no line, the
 * current line's number and offset; returns the sticky status. */
static hp2x_status locate_line_error(hp_parser *hp, hp2x_err *err) {
  if (err && err->line == 0 && err->offset < 0) {
    err->line = hp->line;
    err->offset = hp->offset;
  }
  return hp->status;
}

hp2x_status hpx_hp_defer_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err) {
  hp_part_lines *k = hp->part;
  if (hpx_grow((void **)&k->deferred, &k->cap_deferred, k->n_deferred + 1,
               sizeof *k->deferred, err) != HP2X_OK)
    return hp->status = err->code;
  hp_deferred d = {hpx_strndup(s, n), n, hp->line, hp->offset,
                   hp->p->n_samples};
  if (!d.s) return hp->status = hpx_nomem(err);
  k->deferred[k->n_deferred++] = d;
  return HP2X_OK;
}

hp2x_status hpx_hp_parse_line(hp_parser *hp, const char *s, size_t n,
                              hp2x_err *err) {
  if (parse_line(hp, s, n, err) != HP2X_OK) return locate_line_error(hp, err);
  return HP2X_OK;
}

static hp2x_status fail_long_line(hp_parser *hp, hp2x_err *err) {
  return hp->status = hpx_fail(err, HP2X_E_LIMIT, hp->line + 1, hp->offset,
                               "line longer than %u bytes", HPX_MAX_LINE_BYTES);
}

/* Keeps the partial line b..b+n for the next feed. */
static hp2x_status carry_append(hp_parser *hp, const char *b, size_t n,
                                hp2x_err *err) {
  if (hp->carry_len + n > HPX_MAX_LINE_BYTES) return fail_long_line(hp, err);
  if (hpx_grow((void **)&hp->carry, &hp->carry_cap, hp->carry_len + n, 1,
               err) != HP2X_OK)
    return hp->status = err->code;
  memcpy(hp->carry + hp->carry_len, b, n);
  hp->carry_len += n;
  return HP2X_OK;
}

/* Completes the line carried from the last feed with buf's bytes up to
 * its first newline, and parses it.  Returns the byte after that newline,
 * or NULL when buf has none (all of it carried) or on error (hp->status). */
static const char *finish_carried_line(hp_parser *hp, const char *buf,
                                       size_t len, hp2x_err *err) {
  assert(hp->carry_len > 0);
  const char *nl = memchr(buf, '\n', len);
  if (!nl) {
    carry_append(hp, buf, len, err);
    return NULL;
  }
  if (carry_append(hp, buf, (size_t)(nl - buf), err) != HP2X_OK) return NULL;
  size_t n = hp->carry_len;
  hp->carry_len = 0;
  if (parse_line(hp, hp->carry, n, err) != HP2X_OK) {
    locate_line_error(hp, err);
    return NULL;
  }
  hp->offset += (long long)n + 1;
  return nl + 1;
}

hp2x_status hpx_hp_parse_feed(hp_parser *hp, const char *buf, size_t len,
                              hp2x_err *err) {
  if (hp->status != HP2X_OK) return hp->status;
  hp->total += (long long)len;
  const char *b = buf, *end = buf + len;
  if (hp->carry_len && !(b = finish_carried_line(hp, buf, len, err)))
    return hp->status;
  while (b < end) {
    if (hp->in_sample) {
      b = hpx_hp_fast_entries(hp, b, end, err);
      if (hp->status != HP2X_OK) return locate_line_error(hp, err);
      if (b == end) break;
    }
    const char *next = hpx_hp_sample_line(hp, b, end, err);
    if (next) {
      b = next;
      continue;
    }
    if (hp->status != HP2X_OK) return locate_line_error(hp, err);
    const char *nl = memchr(b, '\n', (size_t)(end - b));
    if (!nl) return carry_append(hp, b, (size_t)(end - b), err);
    size_t n = (size_t)(nl - b);
    if (n > HPX_MAX_LINE_BYTES) return fail_long_line(hp, err);
    if (parse_line(hp, b, n, err) != HP2X_OK) return locate_line_error(hp, err);
    hp->offset += (long long)n + 1;
    b = nl + 1;
  }
  return HP2X_OK;
}

static const char *const field_names[] = {"JOB", "DATE", "SAMPLE_UNIT",
                                          "VALUE_UNIT"};

hp2x_status hpx_hp_parse_finish(hp_parser *hp, hp2x_err *err) {
  if (hp->status != HP2X_OK) return hp->status;
  if (hp->total == 0)
    return hp->status = hpx_fail(err, HP2X_E_SYNTAX, 0, 0,
                                 "empty input: expected a heap profile "
                                 "starting with JOB \"...\"");
  bool partial = hp->carry_len > 0;
  enum { N_FIELDS = sizeof field_names / sizeof *field_names };
  for (unsigned f = 0; f < N_FIELDS; f++) {
    if (hp->header_seen & (1u << f)) continue;
    if (partial && hp->p->n_samples == 0 && !hp->in_sample)
      return hp->status = hpx_fail(
                 err, HP2X_E_SYNTAX, hp->line + 1, hp->offset,
                 "the file ends inside the header (no complete %s line)",
                 field_names[f]);
    return hp->status = hpx_fail(err, HP2X_E_SYNTAX, hp->line ? 1 : 0, 0,
                                 "%s line missing: not a GHC heap profile?",
                                 field_names[f]);
  }
  if (hp->in_sample || partial) {
    hp->p->warn.truncated = 1;
    hp->p->warn.truncated_line = hp->in_sample ? hp->begin_line : hp->line + 1;
    hp->p->warn.truncated_offset = hp->in_sample ? hp->begin_offset
                                                 : hp->offset;
    hpx_profile_abort_sample(hp->p);
    hp->in_sample = false;
  }
  return HP2X_OK;
}
