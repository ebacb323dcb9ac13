/* whole_events.c -- where the eventlog front end's last whole event ends
 * (hpx_evl_parse_whole_bytes, behind hp2x_parser_whole_bytes): read from the
 * byte reader's state (eventlog_int.h), kept apart from eventlog_parse.c.
 */
#include "eventlog_int.h"

long long hpx_evl_parse_whole_bytes(const evl_parser *ev) {
  if (ev->in_header) return 0;
  if (ev->resyncing) return ev->kept_from;
  if (ev->at_end) return ev->event_start + 2; /* just past the marker */
  if (ev->partial_len || ev->partial_need || ev->skip) return ev->event_start;
  return ev->offset;
}
