/* hp_parse.c -- placeholder until the .hp front end lands. */
#include "hp2x_int.h"
struct hp_parser { int unused; };
hp_parser *hp_parse_new(const char *file, hp2x_profile *p, hp2x_err *err) {
  (void)file; (void)p;
  hp2x_fail(err, HP2X_E_ARG, 0, -1, ".hp front end not built yet");
  return NULL;
}
hp2x_status hp_parse_feed(hp_parser *hp, const char *buf, size_t len, hp2x_err *err) {
  (void)hp; (void)buf; (void)len; return err->code;
}
hp2x_status hp_parse_finish(hp_parser *hp, hp2x_err *err) { (void)hp; return err->code; }
void hp_parse_free(hp_parser *hp) { (void)hp; }
