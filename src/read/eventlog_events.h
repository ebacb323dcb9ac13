/* eventlog_events.h -- private to the eventlog front end: the events hp2x
 * reads and what is made of them: their type numbers and one whole event;
 * the handlers and their table (eventlog_events.c), which the byte reader
 * frames and dispatches by; the cost centres and the -hc stack names
 * (eventlog_cost_centres.c); the -hi names IPE events give
 * (eventlog_ipe.c).  The reader's state is eventlog_int.h's, which
 * includes this header.
 */
#ifndef HPX_EVENTLOG_EVENTS_H
#define HPX_EVENTLOG_EVENTS_H

#include "frontends.h"

/* The event types hp2x reads (EventLogFormat.h's numbers).  Adding one
 * takes its number here, a handler in eventlog_events.c and its row in
 * event_kinds there (size rule and handler). */
enum {
  EV_BLOCK_MARKER = 18, /* sets the block that frames the events after it */
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

/* One whole event of a type hp2x reads. */
typedef struct evl_event {
  unsigned type;
  double time_s;           /* its timestamp: seconds since RTS start */
  uint64_t time_ns;        /* the same, as written: nanoseconds */
  const unsigned char *pl; /* payload; borrowed for the call */
  size_t n;                /* payload bytes */
} evl_event;

/* An IPE event's six strings, in the event's order; borrowed, not
 * NUL-terminated (len[i] bytes each). */
enum {
  IPE_TABLE,
  IPE_CLOSURE,
  IPE_TYPE,
  IPE_LABEL,
  IPE_MODULE,
  IPE_SOURCE,
  IPE_N_FIELDS
};
typedef struct ipe_fields {
  const char *s[IPE_N_FIELDS];
  size_t len[IPE_N_FIELDS];
} ipe_fields;

/* What an IPE event says of one info-table address (eventlog_ipe.c). */
typedef struct ipe_entry {
  uint64_t address;
  char *name; /* the display name without the address; owned */
  size_t name_len;
  label_text text; /* the whole record and the name's kept ends; the
                      detail owned */
  uint32_t label;  /* the -hi label with this address, or LABEL_NONE */
  bool ambiguous;  /* another address has the same name: both show
                      their address too */
  bool used;       /* slot in use */
} ipe_entry;

typedef struct ipe_table {
  ipe_entry *by_address; /* open addressing on the address; owned */
  size_t cap, n;         /* cap: a power of two, or 0 */
  uint32_t *by_name;     /* open addressing on the name's hash: slot + 1
                            of the first entry with that name; owned */
} ipe_table;

/* eventlog_events.c: the handler of event type `type`, or NULL for the
 * types hp2x skips.  A handler gets one whole event; its errors are
 * sticky in ev->status. */
typedef hp2x_status (*evl_handler)(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err);
evl_handler hpx_evl_handler_for(unsigned type);
/* eventlog_stats.c: the handlers of the heap statistics (50, 51, 91: the
 * --heap lines) and of user markers (58). */
hp2x_status hpx_evl_on_heap_statistic(evl_parser *ev, const evl_event *e,
                                      hp2x_err *err);
hp2x_status hpx_evl_on_user_marker(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err);
/* The size rule of a type hp2x reads: a fixed-size type may be declared at
 * most EVL_FIXED_SIZE_CAP bytes long (GHC writes them much shorter), so a
 * corrupt header is caught there, not events later. */
typedef enum { EVL_SIZE_VARIABLE, EVL_SIZE_FIXED } evl_size_rule;
#define EVL_FIXED_SIZE_CAP 1024
/* 1 when type `type` may be declared `size` bytes long: any size unless
 * hp2x reads the type and its size is fixed. */
int hpx_evl_declared_size_ok(unsigned type, int size);

/* eventlog_cost_centres.c: the -hc stack names made of the cost centres
 * the profile holds (model/cost_centres.h). */
/* Makes in ev->name (*len bytes, not NUL-terminated) the .hp label of the
 * stack of `depth` cost-centre ids (big-endian u32s) at ids, innermost
 * first; an id never declared is named "<cc N>" and counted in the
 * profile's warnings.  HP2X_E_NOMEM. */
hp2x_status hpx_evl_stack_name(evl_parser *ev, const unsigned char *ids,
                               size_t depth, size_t *len, hp2x_err *err);

/* eventlog_ipe.c: naming -hi labels by their IPE events (the evl_ipe_
 * functions). */
/* Records what an IPE event says of `address`; names its label if one has
 * been read. */
hp2x_status hpx_evl_ipe_add(evl_parser *ev, uint64_t address,
                            const ipe_fields *f, hp2x_err *err);
/* Names the label `id`, just interned from text s (len bytes), when s is
 * an address ("0x4c8e48") that an IPE event has named. */
hp2x_status hpx_evl_ipe_name_label(evl_parser *ev, uint32_t id, const char *s,
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
hp2x_status hpx_evl_ipe_describe(const ipe_fields *f, uint64_t address,
                                 char **name, size_t *name_len, label_text *t,
                                 hp2x_err *err);
void hpx_evl_ipe_free(ipe_table *t);

#endif
