/* eventlog_stats.c -- what the run's other events add to the profile
 * beside its censuses: the heap statistics that draw the --heap lines
 * (HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE) and the user markers (traceMarker).
 * Their rows in event_kinds are eventlog_events.c's.
 */
#include "eventlog_int.h"

#include <string.h>

/* The events that carry a --heap line, and the series each one feeds
 * (model.h's hpx_heap_kind; the line's looks are layout.c's): a kind no
 * event feeds does not build (the assert below). */
#define HEAP_SERIES_ROWS(X)          \
  X(EV_HEAP_SIZE, HPX_HEAP_SIZE)     \
  X(EV_BLOCKS_SIZE, HPX_HEAP_BLOCKS) \
  X(EV_HEAP_LIVE, HPX_HEAP_LIVE)
#define HEAP_SERIES_ROW(type, kind) {type, kind},
#define HEAP_SERIES_BIT(type, kind) | (1u << (kind))
static const struct {
  unsigned type;
  hpx_heap_kind kind;
} heap_series_events[] = {HEAP_SERIES_ROWS(HEAP_SERIES_ROW)};
_Static_assert((0u HEAP_SERIES_ROWS(HEAP_SERIES_BIT)) ==
                   (1u << HPX_N_HEAP) - 1u,
               "an event feeding every hpx_heap_kind (model.h)");

/* 50, 51, 91: u32 capset, u64 bytes: the --heap lines. */
hp2x_status hpx_evl_on_heap_statistic(evl_parser *ev, const evl_event *e,
                                      hp2x_err *err) {
  if (e->n < 12)
    return evl_fail_at(ev, err, ev->event_start,
                       "heap statistics event is shorter than its fields");
  uint64_t b = evl_be64(e->pl + 4);
  int64_t bytes = b > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)b;
  for (size_t i = 0; i < sizeof heap_series_events / sizeof *heap_series_events;
       i++)
    if (heap_series_events[i].type == e->type)
      return hpx_profile_series_add(&ev->p->heap[heap_series_events[i].kind],
                                    e->time_s, bytes, err);
  return HP2X_OK; /* a type event_kinds sends here but no series takes */
}

/* 58: the marker's text (traceMarker), NUL-terminated or not. */
hp2x_status hpx_evl_on_user_marker(evl_parser *ev, const evl_event *e,
                                   hp2x_err *err) {
  const unsigned char *z = memchr(e->pl, '\0', e->n);
  size_t len = z ? (size_t)(z - e->pl) : e->n;
  return hpx_profile_add_mark(ev->p, e->time_s, (const char *)e->pl, len, err);
}
