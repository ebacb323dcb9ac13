/* eventlog_int.h -- private to the eventlog front end: the parser's state,
 * shared by the byte reader (eventlog_parse.c), the event handlers
 * (eventlog_events.c) and the info-table names (eventlog_ipe.c).  The
 * format is GHC's: rts/eventlog/EventLog.c and rts/include/rts/
 * EventLogFormat.h in GHC's source, and the ghc-events library.
 */
#ifndef HPX_EVENTLOG_INT_H
#define HPX_EVENTLOG_INT_H

#include "frontends.h"

#include <string.h>

/* The event types hp2x reads (EventLogFormat.h's numbers).  Adding one
 * takes its number here, a handler in eventlog_events.c and its row in
 * event_kinds there (size rule and handler). */
enum {
  EV_BLOCK_MARKER = 18,  /* sets the block that frames the events after it */
  EV_RTS_IDENTIFIER = 29,
  EV_PROGRAM_ARGS = 30,
  EV_WALL_CLOCK_TIME = 43,
  EV_HEAP_SIZE = 50,
  EV_HEAP_LIVE = 51,
  EV_USER_MARKER = 58,
  EV_BLOCKS_SIZE = 91,
  EV_HEAP_PROF_BEGIN = 160,
  EV_HEAP_PROF_COST_CENTRE = 161,
  EV_HEAP_PROF_SAMPLE_BEGIN = 162,
  EV_HEAP_PROF_SAMPLE_COST_CENTRE = 163,
  EV_HEAP_PROF_SAMPLE_STRING = 164,
  EV_HEAP_PROF_SAMPLE_END = 165,
  EV_HEAP_BIO_PROF_SAMPLE_BEGIN = 166,
  EV_IPE = 169,
  EV_DATA_END = 0xffff
};

#define RECENT_TIMES 8 /* evl_parser.recent_ns */

/* One whole event of a type hp2x reads. */
typedef struct evl_event {
  unsigned type;
  double time_s;               /* its timestamp: seconds since RTS start */
  uint64_t time_ns;            /* the same, as written: nanoseconds */
  const unsigned char *pl;     /* payload; borrowed for the call */
  size_t n;                    /* payload bytes */
} evl_event;

/* A cost centre HEAP_PROF_COST_CENTRE declared (eventlog_cost_centres.c). */
typedef struct cost_centre cost_centre;

/* An IPE event's six strings, in the event's order; borrowed, not
 * NUL-terminated (len[i] bytes each). */
enum { IPE_TABLE, IPE_CLOSURE, IPE_TYPE, IPE_LABEL, IPE_MODULE, IPE_SOURCE,
       IPE_N_FIELDS };
typedef struct ipe_fields {
  const char *s[IPE_N_FIELDS];
  size_t len[IPE_N_FIELDS];
} ipe_fields;

/* What an IPE event says of one info-table address (eventlog_ipe.c). */
typedef struct ipe_entry {
  uint64_t address;
  char *name;        /* the display name without the address; owned */
  size_t name_len;
  label_text text;   /* the whole record and the name's kept ends; the
                        detail owned */
  uint32_t label;    /* the -hi label with this address, or LABEL_NONE */
  bool ambiguous;    /* another address has the same name: both show
                        their address too */
  bool used;         /* slot in use */
} ipe_entry;

typedef struct ipe_table {
  ipe_entry *by_address;  /* open addressing on the address; owned */
  size_t cap, n;          /* cap: a power of two, or 0 */
  uint32_t *by_name;      /* open addressing on the name's hash: slot + 1
                             of the first entry with that name; owned */
} ipe_table;

struct evl_parser {
  hp2x_profile *p;          /* borrowed: the dispatcher owns it */
  const char *file;         /* borrowed */
  int ccs_length;           /* -L cut for -hc labels; 0 = whole stack */
  /* header */
  int in_header;
  unsigned char *hdr;       /* header bytes so far; owned */
  size_t hdr_len, hdr_cap;
  int32_t *size_of[256];    /* event-type table in pages of 256 ids (see
                               declared_size in eventlog_parse.c); a page is
                               made when an id in it is declared, NULL =
                               none declared; owned */
  int has_sample_end;       /* type 165 declared (GHC >= 8.10) */
  uint16_t *declared;       /* ids declared by the last header attempt;
                               owned */
  size_t n_declared, declared_cap;
  /* data */
  long long offset;         /* bytes consumed so far */
  long long event_start;    /* offset of the event being read */
  unsigned char *ev;        /* a gathered partial event; owned */
  size_t ev_len, ev_cap, ev_need; /* ev_need: 0 = not gathering */
  uint64_t skip;            /* payload bytes still to skip */
  int at_end;               /* DATA_END read */
  long long block_end;      /* offset just past the enclosing block, as
                               its marker says; -1 = unknown */
  uint64_t block_time_ns;   /* the enclosing block's start time */
  uint64_t last_time_ns;    /* latest timestamp of an event read */
  uint64_t recent_ns[RECENT_TIMES]; /* the last RECENT_TIMES events' timestamps in
                               the enclosing block, a ring */
  size_t n_recent;          /* events pushed since the block began */
  /* resynchronisation after a corrupt event (eventlog_parse.c) */
  int corrupt;              /* the error just recorded is a corrupt event's:
                               recover from it */
  int resyncing;            /* looking for the next plausible events */
  unsigned char *rs;        /* bytes from rs_base on, kept while looking;
                               owned */
  size_t rs_len, rs_cap;
  size_t rs_next;           /* the next place in rs to try */
  size_t rs_need;           /* bytes rs must hold to try it again: 0 =
                               any */
  long long rs_base;        /* offset of rs[0] */
  long long rs_from;        /* where the search began (the stretch being
                               skipped starts there at the earliest):
                               rs_base moves on as tried bytes are let
                               go, at moments that depend on the chunks */
  unsigned char *resumed;   /* the kept bytes being read after resuming
                               (their owner is resume_at until a new fault
                               keeps them in rs again), or NULL */
  size_t resumed_len, resumed_cap;
  long long resumed_base;   /* offset of resumed[0] */
  long long fault_offset;   /* where the corrupt event being skipped starts */
  char fault_msg[128];      /* what was wrong with it */
  unsigned char *pv;        /* the last event read, when its size was
                               variable: a wrong size swallows what follows
                               it, so a fault right after it is taken to
                               begin with it; owned */
  size_t pv_len, pv_cap;    /* pv_len: 0 = none kept */
  size_t pv_need;           /* its whole length (pv_len grows to it as a
                               skipped payload arrives) */
  long long pv_offset;      /* where it starts */
  unsigned pv_type;         /* its type, once a fault follows it */
  int dropping;             /* after a resynchronisation, heap-sample events
                               of the census cut by it are dropped until the
                               next census begins: 1, or 2 while that census
                               has not been counted as lost yet */
  /* samples */
  int in_sample;
  long long sample_offset;  /* where the open sample began */
  double sample_time_s;     /* the open sample's time */
  label_track track;        /* repeats and the next-label guess */
  cost_centre *ccs;         /* open addressing by id; owned */
  size_t ccs_cap, n_ccs;
  char *name;               /* scratch for stack labels; owned */
  size_t name_cap;
  ipe_table ipe;            /* -hi names */
  /* JOB pieces */
  int profiled;             /* RTS_IDENTIFIER's way has 'p'; -1 unknown */
  char *args;               /* PROGRAM_ARGS payload; owned */
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
 * recovers from by skipping to the next plausible events (eventlog_parse.c)
 * unless nothing plausible follows. */
static inline hp2x_status evl_corrupt_event(evl_parser *ev, hp2x_err *err,
                                            const char *msg) {
  ev->corrupt = 1;
  size_t n = strlen(msg);
  if (n >= sizeof ev->fault_msg) n = sizeof ev->fault_msg - 1;
  memcpy(ev->fault_msg, msg, n);
  ev->fault_msg[n] = '\0';
  return evl_fail_at(ev, err, ev->event_start, msg);
}

/* eventlog_events.c: the handler of event type `type`, or NULL for the
 * types hp2x skips.  A handler gets one whole event; its errors are
 * sticky in ev->status. */
typedef hp2x_status (*evl_handler)(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err);
evl_handler evl_handler_for(unsigned type);
/* The size rule of a type hp2x reads: a fixed-size type may be declared at
 * most EVL_FIXED_SIZE_CAP bytes long (GHC writes them much shorter), so a
 * corrupt header is caught there, not events later. */
typedef enum { EVL_SIZE_VARIABLE, EVL_SIZE_FIXED } evl_size_rule;
#define EVL_FIXED_SIZE_CAP 1024
/* 1 when type `type` may be declared `size` bytes long: any size unless
 * hp2x reads the type and its size is fixed. */
int evl_declared_size_ok(unsigned type, int size);

/* eventlog_cost_centres.c: the cost centres, by id, and the -hc stack
 * names made of them. */
/* Records cost centre `id`'s label and module (llen and mlen bytes,
 * copied), replacing what an earlier event said of it.  HP2X_E_NOMEM. */
hp2x_status evl_add_cost_centre(evl_parser *ev, uint32_t id,
                                const char *label, size_t llen,
                                const char *module, size_t mlen,
                                hp2x_err *err);
/* Makes in ev->name (*len bytes, not NUL-terminated) the .hp label of the
 * stack of `depth` cost-centre ids (big-endian u32s) at ids, innermost
 * first; an id never declared is named "<cc N>" and counted in the
 * profile's warnings.  HP2X_E_NOMEM. */
hp2x_status evl_stack_name(evl_parser *ev, const unsigned char *ids,
                           size_t depth, size_t *len, hp2x_err *err);
/* Frees the cost-centre table. */
void evl_free_cost_centres(evl_parser *ev);

/* eventlog_ipe.c: naming -hi labels by their IPE events (the evl_ipe_
 * functions). */
/* Records what an IPE event says of `address`; names its label if one has
 * been read. */
hp2x_status evl_ipe_add(evl_parser *ev, uint64_t address,
                        const ipe_fields *f, hp2x_err *err);
/* Names the label `id`, just interned from text s (len bytes), when s is
 * an address ("0x4c8e48") that an IPE event has named. */
hp2x_status evl_ipe_name_label(evl_parser *ev, uint32_t id, const char *s,
                               size_t len, hp2x_err *err);
/* The name and detail an IPE record gives its address.  The name says
 * what the closure is (its constructor, or "thunk", "function", a closure
 * type), the binding it belongs to and its source location:
 * "D# in readings.go leak.hs:33:50-65", "(:) leak.hs:33:55-64",
 * "thunk in Main.main" (no location: the module qualifies the binding).
 * t->keep_head and t->keep_tail are the bytes of what and of the location
 * (both kept whole when the key is too narrow); t->detail is every field
 * ("table ...; closure ...; type ...; label ...; module ...; source ...;
 * address 0x..."), whitespace runs (types span lines) made one space.
 * *name and t->detail are the caller's to free; *name is NULL (and
 * *name_len 0) when the record says nothing.  HP2X_E_NOMEM. */
hp2x_status evl_ipe_describe(const ipe_fields *f, uint64_t address,
                             char **name, size_t *name_len, label_text *t,
                             hp2x_err *err);
void evl_ipe_free(ipe_table *t);

#endif
