/* eventlog_parts.c -- an eventlog read on several threads (parts.h): after
 * the header, the input is cut where a block begins (following the block
 * markers' sizes from one to the next); each part's events are read by a
 * reader of its own into a profile of its own, which keeps for the real
 * reader every event that is not a census's (cost centres, IPE records,
 * the run's details, heap statistics, markers), with where it came.  The
 * real reader takes the parts in order: a part that was read whole and
 * clean, from where the real reader stands and in a state it can take
 * (its first block marker timed as the reader's check allows, a census
 * open across the cut continued, every naming event before the part's
 * first census entry), is merged: its kept events are handled by the real
 * handlers in their place, its censuses appended.  Any other part is read
 * as it is, so a corrupt event, and what the resynchronisation makes of
 * it, come out as on one thread.
 */
#include "eventlog_part_read.h"
#include "parts.h"
#include "model/profile_append.h"

#include <string.h>

/* What the parts' readers need of the real one: its header's event types
 * (fixed once the header is read). */
typedef struct evl_part_cfg {
  const evl_parser *ev;   /* its file name and event types only */
  int32_t marker_size;    /* the block marker's declared payload */
  hpx_part_limits limits; /* of the profile read */
  long long end;          /* the offset the parts' bytes end at */
} evl_part_cfg;

/* A part as read. */
typedef struct evl_part_read {
  hp2x_profile *p;        /* its censuses; owned */
  evl_parser *ev;         /* its reader, in its final state; owned */
  evl_part part;          /* what it kept; owned */
  unsigned char head[10]; /* its first bytes (a block marker's) */
  size_t len;
  long long offset; /* of its first byte in the input */
  long long end;    /* the parts' end (evl_part_cfg's) */
} evl_part_read;

/* ----------------------------------------------------------- cutting */

/* Where the part starting at the block marker at `start` in src ends:
 * after the first block that ends at or past start + want; src's end where
 * the chain of blocks breaks or runs past the bytes there are. */
static size_t part_end(const void *cfg_, parts_src *src, size_t start,
                       size_t want) {
  const evl_part_cfg *cfg = cfg_;
  size_t p = start, goal = start + want, len = src->len, avail;
  size_t head = 10 + (size_t)cfg->marker_size;
  while (p < goal) {
    const unsigned char *b = hpx_src_at(src, p, 14, &avail);
    if (len - p < head || !b || avail < 14 || evl_be16(b) != EV_BLOCK_MARKER)
      return len;
    uint32_t size = evl_be32(b + 10);
    if (size < head || size > len - p) return len;
    p += size;
  }
  return p;
}

static void free_part(void *result) {
  evl_part_read *r = result;
  if (!r) return;
  hpx_evl_parse_free(r->ev);
  hp2x_profile_free(r->p);
  for (size_t i = 0; i < r->part.n_deferred; i++)
    hpx_free(r->part.deferred[i].copy);
  hpx_free(r->part.deferred);
  hpx_free(r->part.lead_ids);
  hpx_free(r->part.lead_values);
  hpx_free(r);
}

/* A reader for a part at `offset`, with the real reader's event types:
 * NULL when out of memory. */
static evl_parser *part_reader(const evl_part_cfg *cfg, evl_part_read *r,
                               hp2x_err *err) {
  evl_parser *w = hpx_evl_parse_new(cfg->ev->file, r->p, NULL, err);
  if (!w) return NULL;
  for (size_t i = 0; i < 256; i++) {
    if (!cfg->ev->size_of[i]) continue;
    w->size_of[i] = hpx_malloc(256 * sizeof *w->size_of[i]);
    if (!w->size_of[i]) {
      hpx_evl_parse_free(w);
      return NULL;
    }
    memcpy(w->size_of[i], cfg->ev->size_of[i], 256 * sizeof *w->size_of[i]);
  }
  w->in_header = 0;
  w->has_sample_end = cfg->ev->has_sample_end;
  w->offset = r->offset;
  w->part = &r->part;
  return w;
}

/* Frees a part's result but its profile, which it returns. */
static hp2x_profile *release_part(void *result) {
  evl_part_read *r = result;
  hp2x_profile *p = r->p;
  r->p = NULL;
  free_part(r);
  return p;
}

/* Reads a part on a thread of its own, into the memory of `spare` (a
 * part's profile done with) when there is one: NULL when out of memory. */
static void *read_part(const void *cfg_, parts_pieces *in, size_t len,
                       long long offset, hp2x_profile *spare) {
  const evl_part_cfg *cfg = cfg_;
  hp2x_err err;
  hp2x_err_init(&err);
  evl_part_read *r = hpx_calloc(1, sizeof *r);
  if (!r) {
    hp2x_profile_free(spare);
    return NULL;
  }
  r->len = len;
  r->offset = offset;
  r->end = cfg->end;
  r->p = hpx_part_profile_new(&cfg->limits, len, spare);
  if (r->p) r->ev = part_reader(cfg, r, &err);
  if (!r->ev) {
    free_part(r);
    return NULL;
  }
  const unsigned char *piece;
  size_t n, used, at = 0;
  while ((piece = hpx_pieces_next(in, &n)) != NULL) {
    for (size_t i = 0; i < n && at + i < sizeof r->head; i++)
      r->head[at + i] = piece[i];
    at += n;
    if (r->ev->status == HP2X_OK)
      hpx_evl_stream_consume(r->ev, piece, n, &used, &err);
  }
  if (hpx_pieces_failed(in)) {
    free_part(r);
    return NULL;
  }
  return r;
}

/* ------------------------------------------------------------ merging */

/* The real reader's label for label `local` of the part, found or
 * interned and named as on_sample_stack and on_sample_string do. */
static hp2x_status map_label(void *ctx, const hp2x_profile *part,
                             uint32_t local, uint32_t *id, hp2x_err *err) {
  evl_parser *ev = ctx;
  const hpx_label *l = &part->labels[local];
  if (l->kind == LABEL_STACK) {
    long found = hpx_profile_find(ev->p, l->key, l->key_len);
    if (found >= 0) {
      *id = (uint32_t)found;
      return HP2X_OK;
    }
    size_t len;
    if (hpx_evl_stack_name(ev, (const unsigned char *)l->key + 1,
                           (l->key_len - 1) / 4, &len, err) != HP2X_OK)
      return err->code;
    return hpx_profile_intern(ev->p, l->key, l->key_len, ev->name, len, id,
                              err);
  }
  size_t before = ev->p->n_labels;
  if (hpx_profile_intern(ev->p, l->name, l->name_len, NULL, 0, id, err) !=
      HP2X_OK)
    return err->code;
  if (ev->p->n_labels > before)
    return hpx_evl_ipe_name_label(ev, *id, l->name, l->name_len, err);
  return HP2X_OK;
}

/* Is the real reader between two events, reading, where the part begins,
 * at the end of its block? */
static bool reader_ready(const evl_parser *ev, const evl_part_read *r) {
  return ev->status == HP2X_OK && !ev->in_header && !ev->resyncing &&
         !ev->partial_len && !ev->partial_need && !ev->skip &&
         ev->cut == CUT_NONE && !ev->at_end && ev->offset == r->offset &&
         (ev->block_end < 0 || ev->block_end == r->offset);
}

/* Can the part be merged where ev stands?  Read whole and clean; its
 * first event a block marker whose time the real reader's check allows;
 * a census open in ev continued by the part's first census event (ended,
 * or before GHC 8.10 ended by the next beginning), none open ahead of an
 * entry or an end; and within the profile's limits. */
static bool part_fits(const evl_parser *ev, const evl_part_read *r) {
  const evl_parser *w = r->ev;
  const evl_part *k = &r->part;
  if (!reader_ready(ev, r) || w->status != HP2X_OK || w->partial_len ||
      w->partial_need || w->skip ||
      w->offset != r->offset + (long long)r->len || r->len < 10 ||
      evl_be16(r->head) != EV_BLOCK_MARKER ||
      !hpx_evl_stream_plausible(ev, EV_BLOCK_MARKER, evl_be64(r->head + 2)))
    return false;
  if (ev->in_sample) {
    if (k->seen_bound && k->first_bound != EV_HEAP_PROF_SAMPLE_END &&
        ev->has_sample_end)
      return false;
  } else if (k->n_lead ||
             (k->seen_bound && k->first_bound == EV_HEAP_PROF_SAMPLE_END)) {
    return false;
  }
  return hpx_profile_append_fits(ev->p, r->p);
}

/* A census of the part begins in the real reader: the stream's first makes
 * it a heap profile (begin_sample in eventlog_events.c). */
static void census_begins(evl_parser *ev) {
  if (!ev->p->heap_profile) {
    ev->p->heap_profile = true;
    ev->p->began_mid_run = true;
  }
}

/* Handles the part's kept event d with the real reader's handler. */
static hp2x_status handle_kept(evl_parser *ev, const evl_deferred *d,
                               hp2x_err *err) {
  ev->event_start = d->offset;
  hp2x_status st = hpx_evl_handler_for(d->e.type)(ev, &d->e, err);
  if (st != HP2X_OK && err && err->offset < 0) err->offset = d->offset;
  return st;
}

/* Adds the entries (the part's labels `ids`, values) to ev's open
 * sample, as the handlers add them. */
static hp2x_status add_entries(evl_parser *ev, hpx_part_map *m,
                               const uint32_t *ids, const int64_t *values,
                               size_t n, hp2x_err *err) {
  for (size_t i = 0; i < n; i++) {
    int repeated;
    if (hpx_part_map_upto(m, (size_t)ids[i] + 1, err) != HP2X_OK ||
        hpx_label_track_add(&ev->track, ev->p, m->id[ids[i]], values[i],
                            &repeated, err) != HP2X_OK)
      return err->code;
  }
  return HP2X_OK;
}

/* The part's lead: the census open in ev goes on with the lead's entries
 * and, when the part ends it (or begins another), ends; the events kept
 * before that are handled first. */
static hp2x_status merge_lead(evl_parser *ev, const evl_part_read *r,
                              hpx_part_map *m, size_t *kept, hp2x_err *err) {
  const evl_part *k = &r->part;
  size_t upto = k->seen_bound ? k->lead_deferred : k->n_deferred;
  for (; *kept < upto; ++*kept)
    if (handle_kept(ev, &k->deferred[*kept], err) != HP2X_OK) return err->code;
  if (add_entries(ev, m, k->lead_ids, k->lead_values, k->n_lead, err) !=
      HP2X_OK)
    return err->code;
  if (!k->seen_bound) return HP2X_OK;
  ev->in_sample = 0;
  return hpx_profile_end_sample(ev->p, err);
}

/* Appends the part's complete samples [*done, to). */
static hp2x_status append_samples(evl_parser *ev, hpx_part_map *m, size_t *done,
                                  size_t to, hp2x_err *err) {
  if (to <= *done) return HP2X_OK;
  census_begins(ev);
  hp2x_status st = hpx_profile_append(ev->p, m, *done, to, err);
  *done = to;
  return st;
}

/* The sample open at the part's end stays open in ev, with its entries. */
static hp2x_status merge_open_sample(evl_parser *ev, const evl_part_read *r,
                                     hpx_part_map *m, hp2x_err *err) {
  const evl_parser *w = r->ev;
  const hp2x_profile *q = r->p;
  census_begins(ev);
  ev->in_sample = 1;
  ev->sample_offset = w->sample_offset;
  ev->sample_time_s = w->sample_time_s;
  label_track_begin(&ev->track);
  hpx_profile_begin_sample(ev->p, w->sample_time_s);
  size_t e0 = q->start[q->n_samples];
  for (size_t e = e0; e < q->n_entries; e++) {
    uint32_t id = q->run_ids[q->open_run + (e - e0)];
    int64_t v = profile_tail_value(q, e);
    if (add_entries(ev, m, &id, &v, 1, err) != HP2X_OK) return err->code;
  }
  return HP2X_OK;
}

/* Takes the part's censuses and kept events into ev, in their order. */
static hp2x_status merge_events(evl_parser *ev, const evl_part_read *r,
                                hpx_part_map *m, hp2x_err *err) {
  const evl_part *k = &r->part;
  size_t kept = 0, done = 0;
  if (ev->in_sample && merge_lead(ev, r, m, &kept, err) != HP2X_OK)
    return err->code;
  for (; kept < k->n_deferred; kept++) {
    const evl_deferred *d = &k->deferred[kept];
    if (append_samples(ev, m, &done, d->samples, err) != HP2X_OK)
      return err->code;
    if (d->open) census_begins(ev);
    if (handle_kept(ev, d, err) != HP2X_OK) return err->code;
  }
  if (append_samples(ev, m, &done, r->p->n_samples, err) != HP2X_OK)
    return err->code;
  if (r->ev->in_sample && merge_open_sample(ev, r, m, err) != HP2X_OK)
    return err->code;
  hpx_profile_append_sums(ev->p, m);
  return HP2X_OK;
}

/* The real reader carries on from where the part's reader stopped. */
static hp2x_status take_state(evl_parser *ev, const evl_part_read *r,
                              hp2x_err *err) {
  const evl_parser *w = r->ev;
  ev->offset = w->offset;
  ev->event_start = w->event_start;
  ev->at_end = w->at_end;
  ev->block_end = w->block_end;
  ev->block_time_ns = w->block_time_ns;
  ev->n_recent = w->n_recent;
  ev->recent_rising = w->recent_rising;
  memcpy(ev->recent_ns, w->recent_ns, sizeof ev->recent_ns);
  if (w->last_time_ns > ev->last_time_ns) ev->last_time_ns = w->last_time_ns;
  ev->prev_len = 0;
  if (w->prev_len) {
    if (hpx_grow((void **)&ev->prev, &ev->prev_cap, w->prev_need, 1, err) !=
        HP2X_OK)
      return err->code;
    memcpy(ev->prev, w->prev, w->prev_len);
    ev->prev_len = w->prev_len;
    ev->prev_need = w->prev_need;
    ev->prev_offset = w->prev_offset;
  }
  const hp2x_warnings *pw = &r->p->warn;
  ev->p->warn.duplicate_labels += w->in_sample ? r->part.dups_open
                                               : pw->duplicate_labels;
  return HP2X_OK;
}

static hp2x_status merge_part(void *fe, void *result, int *merged,
                              hp2x_err *err) {
  evl_parser *ev = fe;
  evl_part_read *r = result;
  *merged = 0;
  if (!part_fits(ev, r)) return HP2X_OK;
  *merged = 1;
  hpx_part_map m;
  hpx_part_map_init(&m, r->p, map_label, ev);
  hpx_part_map_expect(&m, r->len, (size_t)(r->end - r->offset));
  hp2x_status st = merge_events(ev, r, &m, err);
  hpx_part_map_free(&m);
  if (st == HP2X_OK) st = take_state(ev, r, err);
  if (st != HP2X_OK && err && err->offset < 0) err->offset = r->offset;
  return ev->status = st;
}

static hp2x_status feed_events(void *fe, const unsigned char *bytes, size_t len,
                               hp2x_err *err) {
  return hpx_evl_feed_events(fe, bytes, len, 0, err);
}

/* Can ev's next events be read in parts from here on? */
static bool ready_for_parts(const evl_parser *ev) {
  return ev->status == HP2X_OK && !ev->in_header && !ev->resyncing &&
         !ev->partial_len && !ev->partial_need && !ev->skip &&
         ev->cut == CUT_NONE && !ev->at_end;
}

/* Feeds bytes as hpx_evl_parse_feed does (the header too). */
static hp2x_status feed_any(void *fe, const unsigned char *bytes, size_t len,
                            hp2x_err *err) {
  return hpx_evl_parse_feed(fe, bytes, len, err);
}

/* Takes the header from src's first bytes: where the events start. */
static size_t feed_header(evl_parser *ev, parts_src *src, hp2x_err *err) {
  size_t pos = 0, avail, used;
  const unsigned char *p;
  while (ev->in_header && ev->status == HP2X_OK &&
         (p = hpx_src_at(src, pos, 1, &avail)) != NULL) {
    used = avail;
    if (hpx_evl_header_feed(ev, p, avail, &used, err) != HP2X_OK) break;
    pos += ev->in_header ? avail : used;
  }
  return pos;
}

hp2x_status hpx_evl_parse_feed_parts(evl_parser *ev, parts_src *src,
                                     const feed_plan *plan, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  size_t from = ev->in_header ? feed_header(ev, src, err) : 0, len = src->len;
  if (ev->status != HP2X_OK) return ev->status;
  /* The rest of the block the reader is in (all when the header is not
   * whole: the file could not be read there, and says why), then blocks
   * in parts. */
  size_t b = 0, avail;
  if (ready_for_parts(ev) && ev->block_end >= 0) {
    long long rel = ev->block_end - ev->offset;
    b = rel >= 0 && rel <= (long long)(len - from) ? (size_t)rel : len - from;
  }
  if (!ready_for_parts(ev)) b = len - from;
  b += from;
  parts_buf buf = {NULL, 0};
  hp2x_status st = hpx_src_feed(src, from, b - from, feed_any, ev, &buf, err);
  int32_t marker = evl_declared_size(ev, EV_BLOCK_MARKER);
  const unsigned char *m = hpx_src_at(src, b, 10, &avail);
  if (st == HP2X_OK && b < len &&
      (!ready_for_parts(ev) || marker < 4 || !m || avail < 10 ||
       evl_be16(m) != EV_BLOCK_MARKER))
    st = hpx_src_feed(src, b, len - b, feed_events, ev, &buf, err);
  else if (st == HP2X_OK && b < len) {
    evl_part_cfg cfg = {ev, marker, hpx_part_limits_of(ev->p),
                        ev->offset + (long long)(len - b)};
    parts_front f = {ev,         &cfg,        part_end,    read_part,
                     merge_part, feed_events, release_part};
    st = hpx_parts_read(&f, src, b, plan, err);
  }
  hpx_free(buf.p);
  return st;
}
