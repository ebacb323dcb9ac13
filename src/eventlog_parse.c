/* eventlog_parse.c -- placeholder until the eventlog front end lands. */
#include "hp2x_int.h"
struct evl_parser { int unused; };
evl_parser *evl_parse_new(const char *file, hp2x_profile *p, const hp2x_parse_options *o, hp2x_err *err) {
  (void)file; (void)p; (void)o;
  hp2x_fail(err, HP2X_E_ARG, 0, -1, "eventlog front end not built yet");
  return NULL;
}
hp2x_status evl_parse_feed(evl_parser *ev, const unsigned char *buf, size_t len, hp2x_err *err) {
  (void)ev; (void)buf; (void)len; return err->code;
}
hp2x_status evl_parse_finish(evl_parser *ev, hp2x_err *err) { (void)ev; return err->code; }
int evl_parse_at_end(const evl_parser *ev) { (void)ev; return 0; }
void evl_parse_free(evl_parser *ev) { (void)ev; }
