/* eventlog_int.h -- private to the eventlog front end: the byte reader's
 * state (evl_parser), which the reader's files (eventlog_parse.c,
 * eventlog_header.c, eventlog_stream.c, eventlog_resync.c,
 * whole_events.c) share with the event handlers, and what the reader's
 * files call of one another.  The events and their handlers are
 * eventlog_events.h's.  The format is GHC's: rts/eventlog/EventLog.c and
 * rts/include/rts/EventLogFormat.h in GHC's source, and the ghc-events
 * library.
 */
#ifndef HPX_EVENTLOG_INT_H
#define HPX_EVENTLOG_INT_H

#include "eventlog_events.h"

#include <string.h>

#define RECENT_TIMES 8 /* evl_parser.recent_ns */

/* A census cut by a corrupt stretch: its heap-sample events are dropped
 * until the next census begins (eventlog_resync.c starts it,
 * eventlog_events.c ends it). */
typedef enum cut_census {
  CUT_NONE = 0,       /* no census is cut */
  CUT_DROPPING,       /* dropping a cut census already counted as lost */
  CUT_DROPPING_UNSEEN /* dropping, but the census was not open when the
                         fault came: counted lost at its first event */
} cut_census;

typedef struct evl_part evl_part; /* eventlog_part_read.h */

#define EVL_KEY_BITS 10 /* evl_parser.by_key */
struct evl_parser {
  hp2x_profile *p;   /* borrowed: the dispatcher owns it */
  const char *file;  /* borrowed */
  int ccs_length;    /* -L cut for -hc labels; 0 = whole stack */
  hp2x_zone_fn zone; /* DATE's time zone; NULL = UTC */
  /* header */
  int in_header;
  unsigned char *hdr; /* header bytes so far; owned */
  size_t hdr_len, hdr_cap;
  int32_t *size_of[256]; /* event-type table in pages of 256 ids (see
                            evl_declared_size below); a page is made
                            when an id in it is declared, NULL = none
                            declared; owned */
  int has_sample_end;    /* type 165 declared (GHC >= 8.10) */
  uint16_t *declared;    /* ids declared by the last header attempt;
                            owned */
  size_t n_declared, declared_cap;
  /* data */
  long long offset;       /* bytes consumed so far */
  long long event_start;  /* offset of the event being read */
  unsigned char *partial; /* a gathered partial event; owned */
  size_t partial_len, partial_cap;
  size_t partial_need;              /* its whole length; 0 = not gathering */
  uint64_t skip;                    /* payload bytes still to skip */
  int at_end;                       /* DATA_END read */
  long long block_end;              /* offset just past the enclosing block, as
                                       its marker says; -1 = unknown */
  uint64_t block_time_ns;           /* the enclosing block's start time */
  uint64_t last_time_ns;            /* latest timestamp of an event read */
  uint64_t recent_ns[RECENT_TIMES]; /* a ring: the last RECENT_TIMES
                                       events' timestamps in the enclosing
                                       block */
  size_t n_recent;                  /* events pushed since the block began */
  size_t recent_rising; /* latest pushes each no earlier than the last: all
                           of the ring, its median is known */
  /* resynchronisation after a corrupt event (eventlog_resync.c) */
  int corrupt;         /* the error just recorded is a corrupt event's:
                          recover from it */
  int resyncing;       /* looking for the next plausible events */
  unsigned char *kept; /* bytes from kept_base on, kept while looking;
                          owned */
  size_t kept_len, kept_cap;
  size_t kept_next;       /* the next place in kept to try */
  size_t kept_need;       /* bytes kept must hold to try it again: 0 =
                             any */
  long long kept_base;    /* offset of kept[0] */
  long long kept_from;    /* where the search began (the stretch being
                             skipped starts there at the earliest):
                             kept_base moves on as tried bytes are let
                             go, at moments that depend on the chunks */
  unsigned char *resumed; /* the kept bytes being read after resuming
                             (their owner is resume_at until a new fault
                             keeps them in kept again), or NULL */
  size_t resumed_len, resumed_cap;
  long long resumed_base;    /* offset of resumed[0] */
  long long fault_offset;    /* where the corrupt event being skipped starts */
  char fault_msg[128];       /* what was wrong with it */
  unsigned char *prev;       /* the last event read, when its size was
                                variable: a wrong size swallows what follows
                                it, so a fault right after it is taken to
                                begin with it; owned */
  size_t prev_len, prev_cap; /* prev_len: 0 = none kept */
  const unsigned char *prev_ref; /* or it, whole in the buffer being
                                    consumed, copied into prev at the end */
  size_t prev_need;              /* its whole length (prev_len grows to it as a
                                    skipped payload arrives) */
  long long prev_offset;         /* where it starts */
  unsigned prev_type;            /* its type, once a fault follows it */
  cut_census cut; /* after a resynchronisation, heap-sample events
                     of the census cut by it are dropped until the
                     next census begins */
  /* samples */
  int in_sample;
  long long sample_offset;             /* where the open sample began */
  double sample_time_s;                /* the open sample's time */
  label_track track;                   /* repeats and the next-label guess */
  uint32_t by_key[1u << EVL_KEY_BITS]; /* labels by a hash of their key */
  char *name;                          /* scratch for stack labels; owned */
  size_t name_cap;
  ipe_table ipe;               /* -hi names */
  evl_part *part;              /* reading a part, its notes; else NULL */
  evl_handler handler_of[256]; /* types below 256 (all GHC's): their
                                  handlers, once `handlers_set` */
  int handlers_set, run_mask;  /* run_mask, run_skip: event_run's plan */
  unsigned char run_skip[256];
  /* JOB pieces */
  int profiled; /* RTS_IDENTIFIER's way has 'p'; -1 unknown */
  char *args;   /* PROGRAM_ARGS payload; owned */
  size_t args_len;
  hp2x_status status;
};

static inline uint16_t evl_be16(const unsigned char *b) {
  return (uint16_t)((unsigned)b[0] << 8 | b[1]);
}
static inline uint32_t evl_be32(const unsigned char *b) {
  return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 |
         b[3];
}
static inline uint64_t evl_be64(const unsigned char *b) {
  return (uint64_t)evl_be32(b) << 32 | evl_be32(b + 4);
}

/* Records a syntax error at byte `off`; sticky. */
static inline hp2x_status evl_fail_at(evl_parser *ev, hp2x_err *err,
                                      long long off, const char *msg) {
  return ev->status = hpx_fail(err, HP2X_E_SYNTAX, 0, off, "%s", msg);
}

/* Records that the event at ev->event_start cannot be what it claims (an
 * impossible size, a payload that contradicts itself): an error the reader
 * recovers from by skipping to the next plausible events
 * (eventlog_resync.c) unless nothing plausible follows. */
static inline hp2x_status evl_corrupt_event(evl_parser *ev, hp2x_err *err,
                                            const char *msg) {
  ev->corrupt = 1;
  size_t n = strlen(msg);
  if (n >= sizeof ev->fault_msg) n = sizeof ev->fault_msg - 1;
  memcpy(ev->fault_msg, msg, n);
  ev->fault_msg[n] = '\0';
  return evl_fail_at(ev, err, ev->event_start, msg);
}

/* The payload size event type `id` declares: bytes, EVL_VARIABLE, or
 * EVL_UNDECLARED.  size_of's entries hold size + 2, so a page fresh from
 * calloc says "undeclared".  Paged (GHC's ids are all below 256: one 1 KiB
 * page) rather than one 256 KiB table for every parser. */
#define EVL_UNDECLARED (-2)
#define EVL_VARIABLE (-1)
static inline int32_t evl_declared_size(const evl_parser *ev, unsigned id) {
  const int32_t *page = ev->size_of[id >> 8];
  return page ? page[id & 255] - 2 : EVL_UNDECLARED;
}

/* The largest payload a variable-size heap sample event may claim: a
 * 255-deep stack plus room for appended fields. */
#define EVL_MAX_STACK_EVENT (10 + 4 * 255 + 1024)

/* eventlog_header.c: takes header bytes from buf (len of them).  Once the
 * header is whole it ends it (ev->in_header becomes 0) and sets *used to
 * the bytes of buf it took: the events start there.  Errors are sticky in
 * ev->status (HP2X_E_SYNTAX at their byte, HP2X_E_NOMEM). */
hp2x_status hpx_evl_header_feed(evl_parser *ev, const unsigned char *buf,
                                size_t len, size_t *used, hp2x_err *err);

/* eventlog_stream.c: consumes events from buf, all of it unless an event
 * fails (a corrupt one sets ev->corrupt); *used: the bytes of buf consumed
 * before it.  Bytes after the data-end marker are counted but not read. */
hp2x_status hpx_evl_stream_consume(evl_parser *ev, const unsigned char *buf,
                                   size_t len, size_t *used, hp2x_err *err);
/* The median time of the last events read in the enclosing block (one
 * corrupt timestamp among them does not move it); 0 when none. */
uint64_t hpx_evl_stream_recent_time(const evl_parser *ev);
/* The payload length an IPE event really has, from its content (GHC 9.6
 * and later declare one byte more), or -1 when its strings do not fit in
 * the `declared` bytes at pl. */
long hpx_evl_stream_ipe_length(const unsigned char *pl, size_t declared);

/* Could an event of type `type` be timed t_ns where the reader is? */
int hpx_evl_stream_plausible(const evl_parser *ev, unsigned type,
                             uint64_t t_ns);

/* eventlog_resync.c: consumes buf as events, resuming after each corrupt
 * stretch as soon as the place to resume is known (`final`: no bytes will
 * follow, so resume where the end of the input allows). */
hp2x_status hpx_evl_feed_events(evl_parser *ev, const unsigned char *buf,
                                size_t len, int final, hp2x_err *err);

#endif
