/* eventlog_parse.c -- the eventlog front end: GHC's binary eventlog
 * (rts/include/rts/EventLogFormat.h) into the sample model, streaming.
 * Owns the reader's life (new, feed, finish, free) and what the end of the
 * input means for the profile (the last sample, a stream cut short, no heap
 * profile at all).  The bytes go to the header (eventlog_header.c), then to
 * the events (eventlog_resync.c over eventlog_stream.c), whose types hp2x
 * reads go to their handlers (eventlog_events.c).
 */
#include "eventlog_int.h"

#include <string.h>

evl_parser *hpx_evl_parse_new(const char *file, hp2x_profile *p,
                              const hp2x_parse_options *o, hp2x_err *err) {
  evl_parser *ev = hpx_calloc(1, sizeof *ev);
  if (!ev) {
    hpx_nomem(err);
    return NULL;
  }
  ev->p = p;
  ev->file = file;
  hpx_label_track_init(&ev->track);
  memset(ev->by_key, 0xff, sizeof ev->by_key); /* LABEL_NONE */
  ev->ccs_length = o ? o->ccs_length : 0;
  ev->zone = o ? o->zone : NULL;
  ev->in_header = 1;
  ev->profiled = -1;
  ev->block_end = -1;
  /* Until PROGRAM_ARGS says otherwise, JOB is the file's name. */
  const char *base = file ? strrchr(file, '/') : NULL;
  base = base ? base + 1 : file ? file : "";
  size_t bl = strlen(base);
  if (bl > 9 && !strcmp(base + bl - 9, ".eventlog")) bl -= 9;
  if (hpx_profile_set_header(p, PROFILE_JOB, base, bl, err) != HP2X_OK ||
      hpx_profile_set_header(p, PROFILE_SAMPLE_UNIT, "seconds", 7, err) !=
          HP2X_OK ||
      hpx_profile_set_header(p, PROFILE_VALUE_UNIT, "bytes", 5, err) !=
          HP2X_OK) {
    hpx_evl_parse_free(ev);
    return NULL;
  }
  return ev;
}

void hpx_evl_parse_free(evl_parser *ev) {
  if (!ev) return;
  hpx_evl_ipe_free(&ev->ipe);
  hpx_free(ev->hdr);
  for (size_t i = 0; i < 256; i++) hpx_free(ev->size_of[i]);
  hpx_free(ev->declared);
  hpx_free(ev->partial);
  hpx_free(ev->kept);
  hpx_free(ev->resumed);
  hpx_free(ev->prev);
  hpx_label_track_free(&ev->track);
  hpx_free(ev->name);
  hpx_free(ev->args);
  hpx_free(ev);
}

int hpx_evl_parse_at_end(const evl_parser *ev) { return ev->at_end; }

hp2x_status hpx_evl_parse_feed(evl_parser *ev, const unsigned char *buf,
                               size_t len, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  size_t from = 0;
  if (ev->in_header) {
    hp2x_status st = hpx_evl_header_feed(ev, buf, len, &from, err);
    if (st != HP2X_OK || ev->in_header) return st;
  }
  return hpx_evl_feed_events(ev, buf + from, len - from, 0, err);
}

/* ------------------------------------------------------------- the end */

/* HP2X_E_NO_PROFILE for an eventlog without HEAP_PROF_BEGIN: the program
 * ran without -h, or (cut short) was killed before its runtime wrote the
 * heap profile out. */
static hp2x_status fail_no_heap_profile(evl_parser *ev, hp2x_err *err) {
  const char *msg =
      ev->at_end
          ? "no heap profile in this eventlog (run the program with +RTS "
            "-hT -l, or another -h option)"
          : "no heap profile in this eventlog, which ends early (a killed "
            "program's runtime may not have written it yet; run the "
            "program with +RTS -hT -l, or another -h option, to its end)";
  return ev->status = hpx_fail(err, HP2X_E_NO_PROFILE, 0, -1, "%s", msg);
}

static hp2x_status finish_samples(evl_parser *ev, hp2x_err *err);

hp2x_status hpx_evl_parse_finish(evl_parser *ev, hp2x_err *err) {
  if (ev->status != HP2X_OK) return ev->status;
  if (ev->in_header) {
    if (ev->hdr_len == 0)
      return ev->status = hpx_fail(err, HP2X_E_SYNTAX, 0, 0,
                                   "empty input: expected an eventlog");
    return evl_fail_at(ev, err, (long long)ev->hdr_len,
                       "the file ends inside the eventlog header");
  }
  /* A corrupt stretch still open: resume where the end of the input
   * allows, else nothing readable follows it. */
  if (ev->resyncing && hpx_evl_feed_events(ev, NULL, 0, 1, err) != HP2X_OK)
    return ev->status;
  if (ev->resyncing)
    return ev->status = hpx_fail(err, HP2X_E_SYNTAX, 0, ev->fault_offset,
                                 "%s; no readable event follows",
                                 ev->fault_msg);
  if (!ev->p->heap_profile) return fail_no_heap_profile(ev, err);
  hp2x_status st = finish_samples(ev, err);
  /* Corrupt bytes are skipped only to draw the samples around them. */
  const hp2x_warnings *w = &ev->p->warn;
  if (st == HP2X_OK && w->corrupt_regions && ev->p->n_samples == 0)
    return ev->status =
               hpx_fail(err, HP2X_E_SYNTAX, 0, w->corrupt_from,
                        "%s; no complete heap sample outside the corrupt bytes",
                        w->corrupt_reason);
  return st;
}

/* Closes the profile at the end of the input: the last sample (GHC < 8.10
 * ends it with the data end), or the warning that the input stops short. */
static hp2x_status finish_samples(evl_parser *ev, hp2x_err *err) {
  if (ev->at_end) {
    /* Without SAMPLE_END (GHC < 8.10) the data end closes a sample. */
    if (ev->in_sample && !ev->has_sample_end) {
      ev->in_sample = 0;
      hp2x_status st = hpx_profile_end_sample(ev->p, err);
      if (st != HP2X_OK && err && err->offset < 0) err->offset = ev->offset;
      return st;
    }
    if (!ev->in_sample) return HP2X_OK;
  }
  /* No data-end marker: the program was killed or is still running. */
  ev->p->warn.truncated = 1;
  ev->p->warn.truncated_between = !ev->in_sample && !ev->partial_len &&
                                  !ev->skip;
  ev->p->warn.truncated_offset = ev->in_sample ? ev->sample_offset
                                 : ev->partial_len || ev->skip ? ev->event_start
                                                               : ev->offset;
  if (ev->in_sample) hpx_profile_abort_sample(ev->p);
  ev->in_sample = 0;
  return HP2X_OK;
}
