/* hp_parts.c -- .hp text read on several threads (parts.h): the input is
 * cut before BEGIN_SAMPLE lines; each part is read by a line reader of its
 * own into a profile of its own, its header and MARK lines kept aside; the
 * real reader then takes the parts in order.  A part is merged (its
 * samples appended, its kept lines read by the real reader where they
 * came) when it was read whole and clean and the real reader is between
 * samples where it begins, no later in time than its first sample; else
 * its bytes are read as they are, so every error and warning comes out as
 * the one-thread reader gives it.
 */
#include "hp_int.h"
#include "parts.h"
#include "model/profile_append.h"

#include <string.h>

/* What a part's reader needs of the real one (fixed while parts are
 * read). */
typedef struct hp_part_cfg {
  const char *file;
  hpx_part_limits limits; /* of the profile read */
  long long end;          /* the offset the parts' bytes end at */
} hp_part_cfg;

/* A part as read. */
typedef struct hp_part {
  hp2x_profile *p;     /* its samples; owned */
  hp_parser *hp;       /* its reader, with the part's final state; owned */
  hp_part_lines lines; /* its header and MARK lines; owned */
  long long offset;    /* of its first byte in the input */
  long long end;       /* the parts' end (hp_part_cfg's) */
} hp_part;

/* ------------------------------------------------------------ cutting */

/* Does buf[i..] hold a BEGIN_SAMPLE keyword (followed by a blank or the
 * line's end)?  Such a line is always a BEGIN_SAMPLE line: no label can
 * start with a keyword. */
static bool begin_keyword_at(const unsigned char *buf, size_t len, size_t i) {
  static const char kw[] = "BEGIN_SAMPLE";
  size_t k = sizeof kw - 1;
  if (len - i <= k || memcmp(buf + i, kw, k) != 0) return false;
  unsigned char c = buf[i + k];
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

/* Bytes a BEGIN_SAMPLE keyword is told by: its own and the blank after. */
#define BEGIN_NEED 13

/* The first line at or after `from` (a line's start when at_start) that
 * begins with BEGIN_SAMPLE, or src's end. */
static size_t find_begin_line(parts_src *src, size_t from, bool at_start) {
  size_t i = from, avail;
  const unsigned char *p;
  while ((p = hpx_src_at(src, i, BEGIN_NEED, &avail)) != NULL) {
    if (at_start && begin_keyword_at(p, avail, 0)) return i;
    const unsigned char *nl = memchr(p, '\n', avail);
    at_start = nl != NULL;
    i += nl ? (size_t)(nl - p) + 1 : avail;
  }
  return src->len;
}

static size_t part_end(const void *cfg, parts_src *src, size_t start,
                       size_t want) {
  (void)cfg;
  size_t from = start + (want ? want : 1), avail;
  if (from >= src->len) return src->len;
  const unsigned char *p = hpx_src_at(src, from - 1, BEGIN_NEED + 1, &avail);
  if (!p) return src->len;
  return find_begin_line(src, from, p[0] == '\n');
}

/* ------------------------------------------------------------ reading */

static void free_part(void *result) {
  hp_part *r = result;
  if (!r) return;
  hpx_hp_parse_free(r->hp);
  hp2x_profile_free(r->p);
  for (size_t i = 0; i < r->lines.n_deferred; i++)
    hpx_free(r->lines.deferred[i].s);
  hpx_free(r->lines.deferred);
  hpx_free(r);
}

/* Frees a part's result but its profile, which it returns. */
static hp2x_profile *release_part(void *result) {
  hp_part *r = result;
  hp2x_profile *p = r->p;
  r->p = NULL;
  free_part(r);
  return p;
}

/* Reads a part on a thread of its own, into the memory of `spare` (a
 * part's profile done with) when there is one: NULL when out of memory. */
static void *read_part(const void *cfg_, parts_pieces *in, size_t len,
                       long long offset, hp2x_profile *spare) {
  const hp_part_cfg *cfg = cfg_;
  hp2x_err err;
  hp2x_err_init(&err);
  hp_part *r = hpx_calloc(1, sizeof *r);
  if (!r) {
    hp2x_profile_free(spare);
    return NULL;
  }
  r->offset = offset;
  r->end = cfg->end;
  r->p = hpx_part_profile_new(&cfg->limits, len, spare);
  r->hp = r->p ? hpx_hp_parse_new(cfg->file, r->p, &err) : NULL;
  if (!r->hp) {
    free_part(r);
    return NULL;
  }
  r->hp->part = &r->lines;
  r->hp->offset = offset;
  const unsigned char *piece;
  size_t n;
  while ((piece = hpx_pieces_next(in, &n)) != NULL)
    hpx_hp_parse_feed(r->hp, (const char *)piece, n, &err);
  if (hpx_pieces_failed(in)) {
    free_part(r);
    return NULL;
  }
  return r;
}

/* ------------------------------------------------------------ merging */

/* The real reader's label for the part's label `local`, found or
 * interned as parse_entry_line does (a new one's shape noted for the
 * breakdown). */
static hp2x_status map_label(void *ctx, const hp2x_profile *part,
                             uint32_t local, uint32_t *id, hp2x_err *err) {
  hp_parser *hp = ctx;
  const hpx_label *l = &part->labels[local];
  size_t before = hp->p->n_labels;
  if (hpx_profile_intern(hp->p, l->name, l->name_len, NULL, 0, id, err) !=
      HP2X_OK)
    return err->code;
  if (hp->p->n_labels > before) {
    hpx_hp_breakdown_label(&hp->breakdown, l->name, l->name_len);
    hp->p->text_breakdown = hpx_hp_breakdown_of(&hp->breakdown);
  }
  return HP2X_OK;
}

/* Can the part be merged where hp stands: read whole and clean, starting
 * where hp is, between samples, no earlier than hp's last sample? */
static bool part_fits(const hp_parser *hp, const hp_part *r) {
  const hp_parser *w = r->hp;
  if (hp->in_sample || hp->carry_len || hp->offset != r->offset ||
      w->status != HP2X_OK || w->in_sample || w->carry_len)
    return false;
  if (r->p->n_samples && hp->have_prev && r->p->times[0] < hp->prev_time)
    return false;
  return hpx_profile_append_fits(hp->p, r->p);
}

/* Appends the part's samples to hp's profile, with its kept lines read by
 * hp where they came. */
static hp2x_status merge_lines(hp_parser *hp, hp_part *r, hpx_part_map *m,
                               long line_base, hp2x_err *err) {
  size_t done = 0;
  for (size_t i = 0; i < r->lines.n_deferred; i++) {
    const hp_deferred *d = &r->lines.deferred[i];
    if (hpx_profile_append(hp->p, m, done, d->samples, err) != HP2X_OK)
      return err->code;
    done = d->samples;
    hp->line = line_base + d->line - 1;
    hp->offset = d->offset;
    if (hpx_hp_parse_line(hp, d->s, d->n, err) != HP2X_OK) return err->code;
  }
  return hpx_profile_append(hp->p, m, done, r->p->n_samples, err);
}

static hp2x_status merge_part(void *fe, void *result, int *merged,
                              hp2x_err *err) {
  hp_parser *hp = fe;
  hp_part *r = result;
  *merged = 0;
  if (!part_fits(hp, r)) return HP2X_OK;
  *merged = 1;
  const hp_parser *w = r->hp;
  long line_base = hp->line;
  hpx_part_map m;
  hpx_part_map_init(&m, r->p, map_label, hp);
  hpx_part_map_expect(&m, (size_t)(w->offset - r->offset),
                      (size_t)(r->end - r->offset));
  hp2x_status st = merge_lines(hp, r, &m, line_base, err);
  if (st == HP2X_OK) hpx_profile_append_sums(hp->p, &m);
  hpx_part_map_free(&m);
  if (st != HP2X_OK) {
    if (err->line == 0 && err->offset < 0) {
      err->line = line_base + 1;
      err->offset = r->offset;
    }
    return hp->status = st;
  }
  hp2x_warnings *warn = &hp->p->warn;
  if (r->p->warn.duplicate_labels && !warn->duplicate_labels)
    warn->first_duplicate_line = line_base + r->p->warn.first_duplicate_line;
  warn->duplicate_labels += r->p->warn.duplicate_labels;
  hp->line = line_base + w->line;
  hp->offset = w->offset;
  hp->total += w->total;
  if (w->have_prev) {
    hp->have_prev = true;
    hp->prev_time = w->prev_time;
  }
  return HP2X_OK;
}

static hp2x_status feed_bytes(void *fe, const unsigned char *bytes, size_t len,
                              hp2x_err *err) {
  return hpx_hp_parse_feed(fe, (const char *)bytes, len, err);
}

hp2x_status hpx_hp_parse_feed_parts(hp_parser *hp, parts_src *src,
                                    const feed_plan *plan, hp2x_err *err) {
  if (hp->status != HP2X_OK) return hp->status;
  size_t first = find_begin_line(src, 0, hp->carry_len == 0);
  parts_buf b = {NULL, 0};
  hp2x_status st = hpx_src_feed(src, 0, first, feed_bytes, hp, &b, err);
  hpx_free(b.p);
  if (st != HP2X_OK || first == src->len) return st;
  hp_part_cfg cfg = {hp->file, hpx_part_limits_of(hp->p),
                     hp->offset + (long long)(src->len - first)};
  parts_front f = {hp,         &cfg,       part_end,    read_part,
                   merge_part, feed_bytes, release_part};
  return hpx_parts_read(&f, src, first, plan, err);
}
