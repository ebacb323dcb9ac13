/* eventlog_events.c -- what each event hp2x reads does to the profile: one
 * handler per event type, grouped by family (cost centres, heap profile,
 * info-table names, the run's JOB and DATE, the block marker; heap
 * statistics and markers are eventlog_stats.c's), and the table of the types
 * read (event_kinds: size rule and handler), which hpx_evl_handler_for and
 * hpx_evl_declared_size_ok read. The cost-centre table and stack names are
 * eventlog_cost_centres.c's, the -hi names eventlog_ipe.c's.  Payloads are read
 * as GHC's rts/eventlog/ EventLog.c writes them; bytes after the known fields
 * are ignored (the format lets fields be appended).
 */
#include "eventlog_entry.h"
#include "hp_breakdown.h"
#include "base/textout.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The error for an event of type `what` too short for its fields. */
static hp2x_status fail_short_event(evl_parser *ev, hp2x_err *err,
                                    const char *what) {
  char msg[128];
  hpx_fmt(msg, sizeof msg, "%s event is shorter than its fields", what);
  return evl_fail_at(ev, err, ev->event_start, msg);
}

/* Length of a NUL-terminated string starting at s within n bytes, or -1. */
static long cstring_len(const unsigned char *s, size_t n) {
  const unsigned char *z = memchr(s, '\0', n);
  return z ? (long)(z - s) : -1;
}

/* ------------------------------------------------------- cost centres */

/* 161: u32 id, then label, module and source location strings, then a
 * CAF flag byte.  The profile keeps them all (a -hc stack's frames, for the
 * pprof output); a stack's name knows a CAF by its label. */
static hp2x_status on_cost_centre(evl_parser *ev, const evl_event *e,
                                  hp2x_err *err) {
  const unsigned char *pl = e->pl;
  size_t n = e->n;
  if (n < 4) return fail_short_event(ev, err, "HEAP_PROF_COST_CENTRE");
  long l1 = cstring_len(pl + 4, n - 4);
  if (l1 < 0) return fail_short_event(ev, err, "HEAP_PROF_COST_CENTRE");
  size_t pos = 4 + (size_t)l1 + 1;
  long l2 = cstring_len(pl + pos, n - pos);
  if (l2 < 0) return fail_short_event(ev, err, "HEAP_PROF_COST_CENTRE");
  size_t src = pos + (size_t)l2 + 1;
  long l3 = cstring_len(pl + src, n - src);
  if (l3 < 0) return fail_short_event(ev, err, "HEAP_PROF_COST_CENTRE");
  size_t flag = src + (size_t)l3 + 1;
  bool is_caf = flag < n && (pl[flag] & 1);
  return hpx_cost_centres_add(&ev->p->ccs, evl_be32(pl), (const char *)pl + 4,
                              (size_t)l1, (const char *)pl + pos, (size_t)l2,
                              (const char *)pl + src, (size_t)l3, is_caf, err);
}

/* ------------------------------------------------------- heap profile */

/* The model holds exactly the censuses: the empty samples at 0 and at exit
 * that GHC's .hp has are not invented (see the man page).  Entries outside a
 * sample, an END without a BEGIN and a BEGIN inside an open sample are errors
 * at their byte offset.  A census with no HEAP_PROF_BEGIN before it begins the
 * profile: a client that joins a service mid-run gets a fresh header and the
 * init events again, but not that event (eventlog-socket restarts logging for
 * it); its censuses are whole, and its breakdown is unknown.  Labels keep
 * their bytes (GHC 9.0 writes Latin-1 for closure and type descriptions); the
 * renderer decides how to show them. */

/* 160: u8 profile id, u64 sampling period (ns), u32 breakdown, filters. */
static hp2x_status on_heap_prof_begin(evl_parser *ev, const evl_event *e,
                                      hp2x_err *err) {
  if (e->n < 13) return fail_short_event(ev, err, "HEAP_PROF_BEGIN");
  ev->p->interval_ns = evl_be64(e->pl + 1);
  ev->p->breakdown = (int)evl_be32(e->pl + 9);
  ev->p->heap_profile = true;
  return HP2X_OK;
}

/* Opens a sample at time t (seconds); before GHC 8.10, closes the open one
 * first. */
static hp2x_status begin_sample(evl_parser *ev, double t, hp2x_err *err) {
  if (ev->part) hpx_evl_part_bound(ev, EV_HEAP_PROF_SAMPLE_BEGIN);
  if (!ev->p->heap_profile) { /* a stream joined mid-run */
    ev->p->heap_profile = true;
    ev->p->began_mid_run = true;
  }
  if (ev->in_sample) {
    if (ev->has_sample_end) {
      char msg[128];
      hpx_fmt(msg, sizeof msg,
              "a heap sample begins while the one begun at byte %lld is "
              "still open",
              ev->sample_offset);
      return evl_fail_at(ev, err, ev->event_start, msg);
    }
    /* Before GHC 8.10 a census has no end event: the next one ends it. */
    if (hpx_profile_end_sample(ev->p, err) != HP2X_OK) return err->code;
  }
  ev->in_sample = 1;
  ev->cut = CUT_NONE;
  ev->sample_offset = ev->event_start;
  ev->sample_time_s = t;
  label_track_begin(&ev->track);
  hpx_profile_begin_sample(ev->p, t);
  return HP2X_OK;
}

/* 162: u64 era.  The census's time is the event's. */
static hp2x_status on_sample_begin(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err) {
  if (e->n < 8) return fail_short_event(ev, err, "HEAP_PROF_SAMPLE_BEGIN");
  return begin_sample(ev, e->time_s, err);
}

/* 166 (-hb): u64 era, u64 census time in ns.  Biographical censuses are
 * all written at exit, so the time is the second field, not the event's. */
static hp2x_status on_bio_sample_begin(evl_parser *ev, const evl_event *e,
                                       hp2x_err *err) {
  if (e->n < 16) return fail_short_event(ev, err, "HEAP_BIO_PROF_SAMPLE_BEGIN");
  return begin_sample(ev, (double)evl_be64(e->pl + 8) / 1e9, err);
}

/* Is the heap-sample event e part of a census cut by a corrupt stretch
 * (outside any sample after a resynchronisation)?  Then it is dropped, and
 * that census counted as lost if it was not already. */
static int in_cut_census(evl_parser *ev, const evl_event *e) {
  if (ev->in_sample || ev->cut == CUT_NONE) return 0;
  if (ev->cut == CUT_DROPPING_UNSEEN) {
    hp2x_warnings *w = &ev->p->warn;
    if (!w->censuses_lost++) w->first_lost_census_s = -1;
    ev->cut = CUT_DROPPING;
  }
  if (e->type == EV_HEAP_PROF_SAMPLE_END) ev->cut = CUT_NONE;
  return 1;
}

/* 165 (GHC >= 8.10): u64 era. */
static hp2x_status on_sample_end(evl_parser *ev, const evl_event *e,
                                 hp2x_err *err) {
  if (in_cut_census(ev, e)) return HP2X_OK;
  if (evl_in_lead(ev)) { /* a part's reader: ends a census begun before */
    hpx_evl_part_bound(ev, e->type);
    return HP2X_OK;
  }
  if (!ev->in_sample)
    return evl_fail_at(ev, err, ev->event_start,
                       "HEAP_PROF_SAMPLE_END without a sample begun");
  ev->in_sample = 0;
  return hpx_profile_end_sample(ev->p, err);
}

/* Is the expected label `id` the string label whose key is `key`? */
static int is_guessed_label(const evl_parser *ev, uint32_t id, const void *key,
                            size_t len) {
  if (id == LABEL_NONE) return 0;
  const hpx_label *l = &ev->p->labels[id];
  if (l->kind == LABEL_STACK) return 0;
  const char *k = l->key ? l->key : l->name;
  size_t klen = l->key ? l->key_len : l->name_len;
  return klen == len && memcmp(k, key, len) == 0;
}

/* The error for an event of type `what` outside any sample, or OK. */
static hp2x_status require_open_sample(evl_parser *ev, const char *what,
                                       hp2x_err *err) {
  if (ev->in_sample || evl_in_lead(ev)) return HP2X_OK;
  char msg[128];
  hpx_fmt(msg, sizeof msg, "%s outside any heap sample", what);
  return evl_fail_at(ev, err, ev->event_start, msg);
}

/* Is label `id` the stack of the `depth` cost-centre ids at ids? */
static HPX_ALWAYS_INLINE int is_stack_label(const evl_parser *ev, uint32_t id,
                                            const unsigned char *ids,
                                            size_t depth) {
  if (id == LABEL_NONE) return 0;
  const hpx_label *l = &ev->p->labels[id];
  return l->kind == LABEL_STACK && l->key_len == 1 + 4 * depth &&
         l->key[0] == 1 &&
         read_same_bytes(l->key + 1, (const char *)ids, 4 * depth);
}

/* The slot in ev->by_key of the n bytes at k, n a multiple of 4 (a
 * stack's ids, or a string label's first 8 bytes). */
static uint32_t *key_slot(evl_parser *ev, const unsigned char *k, size_t n) {
  uint64_t h = n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    h = (h ^ read_le64((const char *)k + i)) * 0x9E3779B97F4A7C15u;
  if (i < n) h = (h ^ evl_be32(k + i)) * 0x9E3779B97F4A7C15u;
  return &ev->by_key[h >> (64 - EVL_KEY_BITS)];
}

/* The label of the stack of `depth` cost-centre ids at ids: the one expected,
 * else the last met with the ids' hash, else the one keyed 0x01 and the ids
 * (apart from string labels), else a new one (hpx_evl_stack_name). */
static hp2x_status find_stack_label(evl_parser *ev, const unsigned char *ids,
                                    size_t depth, uint32_t *id, hp2x_err *err) {
  assert(depth <= 255);
  *id = label_track_guess(&ev->track);
  if (is_stack_label(ev, *id, ids, depth)) return HP2X_OK;
  uint32_t *slot = key_slot(ev, ids, 4 * depth);
  if (*slot != *id && is_stack_label(ev, *slot, ids, depth)) {
    *id = *slot;
    return HP2X_OK;
  }
  unsigned char key[1 + 4 * 255];
  key[0] = 1;
  memcpy(key + 1, ids, 4 * depth);
  size_t klen = 1 + 4 * depth;
  long found = hpx_profile_find(ev->p, (const char *)key, klen);
  if (found >= 0) {
    *id = *slot = (uint32_t)found;
    return HP2X_OK;
  }
  size_t len = 0; /* a part's reader leaves naming to the real one */
  if (!ev->part && hpx_evl_stack_name(ev, ids, depth, &len, err) != HP2X_OK)
    return ev->status = err->code;
  if (hpx_profile_intern(ev->p, (const char *)key, klen,
                         ev->part ? "" : ev->name, len, id, err) != HP2X_OK)
    return err->code;
  *slot = *id;
  return HP2X_OK;
}

/* 163 (-hc): u8 profile id, u64 residency, u8 depth, depth u32 cost-centre
 * ids, innermost first.  The label's identity is the id sequence, so
 * stacks that print alike stay apart. */
static hp2x_status on_sample_stack(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err) {
  static const char what[] = "HEAP_PROF_SAMPLE_COST_CENTRE";
  if (in_cut_census(ev, e)) return HP2X_OK;
  if (require_open_sample(ev, what, err) != HP2X_OK) return err->code;
  if (e->n < 10)
    return evl_corrupt_event(ev, err,
                             "HEAP_PROF_SAMPLE_COST_CENTRE event is shorter "
                             "than its fields");
  size_t depth = e->pl[9];
  if (e->n < 10 + 4 * depth) {
    char msg[128];
    hpx_fmt(msg, sizeof msg,
            "%s claims %zu cost centres but its payload holds %zu", what, depth,
            (e->n - 10) / 4);
    return evl_corrupt_event(ev, err, msg);
  }
  uint32_t id;
  if (find_stack_label(ev, e->pl + 10, depth, &id, err) != HP2X_OK)
    return err->code;
  return evl_add_sample_entry(ev, id, evl_be64(e->pl + 1), err);
}

/* 164 (every breakdown but -hc): u8 profile id, u64 residency, label. */
static hp2x_status on_sample_string(evl_parser *ev, const evl_event *e,
                                    hp2x_err *err) {
  if (in_cut_census(ev, e)) return HP2X_OK;
  if (require_open_sample(ev, "HEAP_PROF_SAMPLE_STRING", err) != HP2X_OK)
    return err->code;
  if (e->n < 10) return fail_short_event(ev, err, "HEAP_PROF_SAMPLE_STRING");
  hp2x_status st;
  if (evl_take_guessed_string(ev, e->pl, e->n, &st, err)) return st;
  const char *label = (const char *)e->pl + 9;
  uint32_t id = label_track_guess(&ev->track);
  uint32_t *slot = e->n - 9 >= 8 ? key_slot(ev, e->pl + 9, 8) : NULL;
  if (slot && *slot != id && evl_guessed_string(ev, *slot, label, e->n - 9))
    return evl_add_sample_entry(ev, *slot, evl_be64(e->pl + 1), err);
  long l = cstring_len(e->pl + 9, e->n - 9);
  if (l < 0)
    return evl_fail_at(ev, err, ev->event_start,
                       "HEAP_PROF_SAMPLE_STRING label has no terminating NUL");
  if (l == 0) /* GHC names every band; seen where a write overran one */
    return evl_corrupt_event(ev, err, "HEAP_PROF_SAMPLE_STRING label is empty");
  if (!is_guessed_label(ev, id, label, (size_t)l)) {
    size_t before = ev->p->n_labels;
    if (hpx_profile_intern(ev->p, label, (size_t)l, NULL, 0, &id, err) !=
        HP2X_OK)
      return err->code;
    if (ev->p->n_labels > before && !ev->part &&
        hpx_evl_ipe_name_label(ev, id, label, (size_t)l, err) != HP2X_OK)
      return err->code;
  }
  if (slot) *slot = id;
  return evl_add_sample_entry(ev, id, evl_be64(e->pl + 1), err);
}

/* ------------------------------------------------- info-table names */

/* 169 (GHC >= 9.2): u64 info-table address, then six NUL-terminated
 * strings: table name, closure description, type, label, module and
 * source location ("file:span").  eventlog_ipe.c makes the name and the
 * detail shown for the address. */
static hp2x_status on_ipe(evl_parser *ev, const evl_event *e, hp2x_err *err) {
  const unsigned char *pl = e->pl;
  if (e->n < 8) return fail_short_event(ev, err, "IPE");
  ipe_fields f;
  size_t pos = 8;
  for (int i = 0; i < IPE_N_FIELDS; i++) {
    long l = pos < e->n ? cstring_len(pl + pos, e->n - pos) : -1;
    if (l < 0) return fail_short_event(ev, err, "IPE");
    f.s[i] = (const char *)pl + pos;
    f.len[i] = (size_t)l;
    pos += (size_t)l + 1;
  }
  return hpx_evl_ipe_add(ev, evl_be64(pl), &f, err);
}

/* ------------------------------------------------------------- the run */

/* Appends word w (n bytes) to *dst, after a space unless it is first. */
static hp2x_status append_word(char **dst, size_t *len, size_t *cap,
                               const char *w, size_t n, hp2x_err *err) {
  if (hpx_grow((void **)dst, cap, *len + n + 2, 1, err) != HP2X_OK)
    return err->code;
  if (*len) (*dst)[(*len)++] = ' ';
  memcpy(*dst + *len, w, n);
  *len += n;
  (*dst)[*len] = '\0';
  return HP2X_OK;
}

typedef struct job_words {
  char *prog, *rts; /* owned */
  size_t plen, rlen, pcap, rcap;
} job_words;

/* Splits PROGRAM_ARGS into the program's words (its name without the
 * directory first) and the RTS's (between +RTS and -RTS, before --RTS). */
static hp2x_status split_program_args(const char *a, const char *end,
                                      job_words *j, hp2x_err *err) {
  int first = 1, in_rts = 0, rts_done = 0;
  for (; a < end; first = 0) {
    const char *z = memchr(a, '\0', (size_t)(end - a));
    size_t n = z ? (size_t)(z - a) : (size_t)(end - a);
    const char *w = a;
    a += n + 1;
    if (first) {
      const char *slash = w;
      for (const char *c = w; c < w + n; c++)
        if (*c == '/') slash = c + 1;
      n -= (size_t)(slash - w);
      w = slash;
    } else if (!rts_done && n == 4 && !memcmp(w, "+RTS", 4)) {
      in_rts = 1;
      continue;
    } else if (!rts_done && n == 4 && !memcmp(w, "-RTS", 4)) {
      in_rts = 0;
      continue;
    } else if (!rts_done && n == 5 && !memcmp(w, "--RTS", 5)) {
      in_rts = 0;
      rts_done = 1;
      continue;
    }
    hp2x_status st = in_rts
                         ? append_word(&j->rts, &j->rlen, &j->rcap, w, n, err)
                         : append_word(&j->prog, &j->plen, &j->pcap, w, n, err);
    if (st != HP2X_OK) return st;
  }
  return HP2X_OK;
}

/* The breakdown the RTS arguments ask for (the last -hX, as a .hp's JOB
 * is read): what a stream joined mid-run is broken down by, since it has
 * no HEAP_PROF_BEGIN (a whole eventlog's event says it, and wins). */
static hp2x_status breakdown_from_args(evl_parser *ev, const job_words *j,
                                       hp2x_err *err) {
  char *s = hpx_malloc(j->rlen + 6);
  if (!s) return hpx_nomem(err);
  memcpy(s, "+RTS ", 5);
  if (j->rlen) memcpy(s + 5, j->rts, j->rlen);
  hp_breakdown b = {0};
  hpx_hp_breakdown_job(&b, s, j->rlen + 5);
  ev->p->text_breakdown = b.job;
  hpx_free(s);
  return HP2X_OK;
}

/* JOB as a profiled RTS writes it: the program's name and arguments, then
 * " +RTS" and the RTS arguments; a non-profiled RTS writes only the
 * program's name. */
static hp2x_status set_job_from_args(evl_parser *ev, hp2x_err *err) {
  if (!ev->args) return HP2X_OK;
  job_words j = {0};
  hp2x_status st =
      split_program_args(ev->args, ev->args + ev->args_len, &j, err);
  if (st == HP2X_OK) st = breakdown_from_args(ev, &j, err);
  if (st == HP2X_OK && j.rlen && ev->profiled != 0) {
    st = hpx_grow((void **)&j.prog, &j.pcap, j.plen + j.rlen + 7, 1, err);
    if (st == HP2X_OK) {
      memcpy(j.prog + j.plen, " +RTS ", 6);
      memcpy(j.prog + j.plen + 6, j.rts, j.rlen);
      j.plen += j.rlen + 6;
    }
  }
  if (st == HP2X_OK && ev->profiled == 0) {
    const char *sp = j.prog ? memchr(j.prog, ' ', j.plen) : NULL;
    if (sp) j.plen = (size_t)(sp - j.prog);
  }
  if (st == HP2X_OK)
    st = hpx_profile_set_header(ev->p, PROFILE_JOB, j.prog ? j.prog : "",
                                j.plen, err);
  hpx_free(j.prog);
  hpx_free(j.rts);
  return st;
}

/* 29: u32 capset, "GHC-9.0.2 rts_p": profiled when a '_'-separated part
 * of the way is "p". */
static hp2x_status on_rts_identifier(evl_parser *ev, const evl_event *e,
                                     hp2x_err *err) {
  if (e->n < 4) return fail_short_event(ev, err, "RTS_IDENTIFIER");
  const unsigned char *s = e->pl + 4, *end = e->pl + e->n;
  const unsigned char *sp = memchr(s, ' ', (size_t)(end - s));
  ev->profiled = 0;
  for (const unsigned char *w = sp ? sp + 1 : end; w < end;) {
    const unsigned char *u = w;
    while (u < end && *u != '_' && *u != '\0') u++;
    if (u - w == 1 && *w == 'p') ev->profiled = 1;
    if (u >= end || *u == '\0') break;
    w = u + 1;
  }
  return set_job_from_args(ev, err);
}

/* 30: u32 capset, then argv as NUL-terminated strings. */
static hp2x_status on_program_args(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err) {
  if (e->n < 4) return fail_short_event(ev, err, "PROGRAM_ARGS");
  char *copy = hpx_strndup((const char *)e->pl + 4, e->n - 4);
  if (!copy) return hpx_nomem(err);
  hpx_free(ev->args);
  ev->args = copy;
  ev->args_len = e->n - 4;
  while (ev->args_len && ev->args[ev->args_len - 1] == '\0') ev->args_len--;
  return set_job_from_args(ev, err);
}

/* 43: u32 capset, u64 Unix seconds, u32 ns, at the event's time (kept
 * for the censuses' Unix times).  DATE as the RTS writes it:
 * ctime without the seconds, in English whatever the locale, in the
 * caller's zone (hp2x_parse_options.zone; UTC without one): the library
 * reads no TZ.  A date out of struct tm's range leaves DATE empty. */
static hp2x_status on_wall_clock(evl_parser *ev, const evl_event *e,
                                 hp2x_err *err) {
  static const char days[] = "SunMonTueWedThuFriSat";
  static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  if (e->n < 16) return fail_short_event(ev, err, "WALL_CLOCK_TIME");
  uint64_t u = evl_be64(e->pl + 4);
  int64_t s = u > (uint64_t)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)u;
  uint32_t ns = evl_be32(e->pl + 12);
  if (s < INT64_MAX / 1000000000 && ns < 1000000000u) {
    ev->p->has_wall_clock = true; /* a census's Unix time: the pprof's */
    ev->p->wall_unix_ns = s * 1000000000 + ns;
    ev->p->wall_at_s = e->time_s;
  }
  long offset = ev->zone ? ev->zone(s) : 0;
  if (offset < -86400 || offset > 86400) offset = 0;
  time_t t = (time_t)(s + offset);
  struct tm tm;
  if ((int64_t)t != s + offset || !gmtime_r(&t, &tm)) return HP2X_OK;
  char buf[64];
  int n = hpx_fmt(buf, sizeof buf, "%.3s %.3s %2d %02d:%02d %d",
                  days + 3 * (tm.tm_wday % 7), months + 3 * (tm.tm_mon % 12),
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_year + 1900);
  return hpx_profile_set_header(ev->p, PROFILE_DATE, buf, (size_t)n, err);
}

/* ------------------------------------------------------------ framing */

/* 18: u32 the block's size from the marker's first byte, u64 its end
 * time, u16 its capability.  Sets the enclosing block, which the byte
 * reader frames events (eventlog_stream.c) and resynchronises
 * (eventlog_resync.c) by. */
static hp2x_status on_block_marker(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err) {
  (void)err;
  uint32_t size = e->n >= 4 ? evl_be32(e->pl) : 0;
  /* A size smaller than the marker itself is no hint at all. */
  ev->block_end = size >= 10 + e->n ? ev->event_start + (long long)size : -1;
  ev->block_time_ns = e->time_ns;
  ev->n_recent = 0;
  return HP2X_OK;
}

/* ------------------------------------------------------------- dispatch */

/* Every event type hp2x reads, by number: its size rule and its handler.
 * A type hp2x reads whose size is fixed may be declared at most
 * EVL_FIXED_SIZE_CAP bytes long (a corrupt header is caught there, not
 * events later); a variable-size one any size.  Types not listed are
 * skipped, whatever size they declare.  Adding a type is one row here,
 * its number in eventlog_events.h and its handler above. */
typedef struct {
  evl_size_rule size;
  evl_handler handle;
} event_kind;

static const event_kind event_kinds[] = {
    [EV_BLOCK_MARKER] = {EVL_SIZE_FIXED, on_block_marker},
    [EV_RTS_IDENTIFIER] = {EVL_SIZE_VARIABLE, on_rts_identifier},
    [EV_PROGRAM_ARGS] = {EVL_SIZE_VARIABLE, on_program_args},
    [EV_WALL_CLOCK_TIME] = {EVL_SIZE_FIXED, on_wall_clock},
    [EV_HEAP_SIZE] = {EVL_SIZE_FIXED, hpx_evl_on_heap_statistic},
    [EV_HEAP_LIVE] = {EVL_SIZE_FIXED, hpx_evl_on_heap_statistic},
    [EV_USER_MARKER] = {EVL_SIZE_VARIABLE, hpx_evl_on_user_marker},
    [EV_BLOCKS_SIZE] = {EVL_SIZE_FIXED, hpx_evl_on_heap_statistic},
    [EV_HEAP_PROF_BEGIN] = {EVL_SIZE_VARIABLE, on_heap_prof_begin},
    [EV_HEAP_PROF_COST_CENTRE] = {EVL_SIZE_VARIABLE, on_cost_centre},
    [EV_HEAP_PROF_SAMPLE_BEGIN] = {EVL_SIZE_FIXED, on_sample_begin},
    [EV_HEAP_PROF_SAMPLE_COST_CENTRE] = {EVL_SIZE_VARIABLE, on_sample_stack},
    [EV_HEAP_PROF_SAMPLE_STRING] = {EVL_SIZE_VARIABLE, on_sample_string},
    [EV_HEAP_PROF_SAMPLE_END] = {EVL_SIZE_FIXED, on_sample_end},
    [EV_HEAP_BIO_PROF_SAMPLE_BEGIN] = {EVL_SIZE_FIXED, on_bio_sample_begin},
    [EV_IPE] = {EVL_SIZE_VARIABLE, on_ipe},
};

static const event_kind *event_kind_of(unsigned type) {
  return type < sizeof event_kinds / sizeof *event_kinds ? &event_kinds[type]
                                                         : NULL;
}

evl_handler hpx_evl_handler_for(unsigned type) {
  const event_kind *k = event_kind_of(type);
  return k ? k->handle : NULL;
}

int hpx_evl_declared_size_ok(unsigned type, int size) {
  const event_kind *k = event_kind_of(type);
  return !k || k->size != EVL_SIZE_FIXED || size <= EVL_FIXED_SIZE_CAP;
}
