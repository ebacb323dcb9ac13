/* test_outputs.c -- the tool's io/outputs.c, a run's outputs behind one
 * interface: a redraw published to the outputs that copy first, then the
 * profile's entries dropped, then to the others; a failure stops the
 * publishing (and the drop); the input's state to those that show it;
 * whether any output draws a view; every output finished, the last added
 * first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "io/outputs.h"
#include "util/status.h"

#include <stdio.h>
#include <string.h>

/* A fake output: what happened to it, in the order of all of them. */
typedef struct fake {
  tool_output base;
  char name;
  int fail;          /* publish returns EXIT_BAD_INPUT */
  int saw_entries;   /* the profile still had its entries when published */
  input_state state; /* the last state told */
  int states;        /* states told */
} fake;

static char log_[64]; /* "a" published, "A" finished, in order */

static void note(char c) { strncat(log_, &c, 1); }

/* Whether p still has its entries: a view of it can be made. */
static int has_entries(const hp2x_profile *p) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *w = NULL;
  hp2x_status st = hp2x_profile_window(p, 0, 1e9, &w, &err);
  hp2x_profile_free(w);
  return st == HP2X_OK;
}

static int fake_publish(tool_output *o, const output_frame *f) {
  fake *k = (fake *)o;
  note(k->name);
  k->saw_entries = has_entries(f->shown);
  return k->fail ? EXIT_BAD_INPUT : EXIT_OK;
}

static void fake_state(tool_output *o, input_state s) {
  fake *k = (fake *)o;
  k->state = s;
  k->states++;
}

static void fake_finish(tool_output *o, int run_ok) {
  fake *k = (fake *)o;
  note((char)(k->name - 'a' + (run_ok ? 'A' : '0')));
}

static const output_kind with_state = {fake_publish, fake_state, fake_finish};
static const output_kind without_state = {fake_publish, NULL, fake_finish};

static fake make(char name, int copies, int wants_view, int shows_state) {
  fake k;
  memset(&k, 0, sizeof k);
  k.base.kind = shows_state ? &with_state : &without_state;
  k.base.copies = copies;
  k.base.wants_view = wants_view;
  k.name = name;
  return k;
}

static hp2x_profile *small_profile(void) {
  static char hp[] =
      "JOB \"t\"\nDATE \"Thu Jan  1 00:00 1970\"\nSAMPLE_UNIT \"seconds\"\n"
      "VALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.5\nA\t100\nEND_SAMPLE 0.5\n"
      "BEGIN_SAMPLE 1.0\nA\t200\nEND_SAMPLE 1.0\n";
  FILE *in = fmemopen(hp, sizeof hp - 1, "r");
  assert_non_null(in);
  hp2x_parse_options po;
  hp2x_parse_options_init(&po);
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  assert_int_equal(hp2x_parse_stream(in, "t.hp", &po, &p, &err), HP2X_OK);
  fclose(in);
  return p;
}

static void copies_first_then_drop_then_the_rest(void **state) {
  (void)state;
  /* Added file first, server second: published server first. */
  fake files = make('a', 0, 0, 0), server = make('b', 1, 1, 1);
  tool_outputs all = {{NULL}, 0};
  outputs_add(&all, &files.base);
  outputs_add(&all, &server.base);
  assert_true(outputs_want_view(&all));
  hp2x_profile *p = small_profile();
  log_[0] = '\0';
  output_frame f = {p, p, NULL, {p, NULL}};
  assert_int_equal(outputs_publish(&all, &f), EXIT_OK);
  assert_string_equal(log_, "ba");
  assert_true(server.saw_entries); /* copied before the drop */
  assert_false(files.saw_entries); /* drawn from the bands alone */
  assert_false(has_entries(p));
  outputs_input_state(&all, INPUT_CLOSED);
  assert_int_equal(server.states, 1);
  assert_int_equal(server.state, INPUT_CLOSED);
  log_[0] = '\0';
  outputs_finish(&all, 1);
  assert_string_equal(log_, "BA"); /* the last added first */
  assert_int_equal(all.n, 0);
  hp2x_profile_free(p);
}

static void a_failure_stops_publishing(void **state) {
  (void)state;
  fake server = make('b', 1, 1, 1), files = make('a', 0, 0, 0);
  server.fail = 1;
  tool_outputs all = {{NULL}, 0};
  outputs_add(&all, &server.base);
  outputs_add(&all, &files.base);
  hp2x_profile *p = small_profile();
  log_[0] = '\0';
  output_frame f = {p, p, NULL, {p, NULL}};
  assert_int_equal(outputs_publish(&all, &f), EXIT_BAD_INPUT);
  assert_string_equal(log_, "b"); /* the files not written */
  assert_true(has_entries(p));    /* nor the entries dropped */
  files.fail = 1;
  server.fail = 0;
  log_[0] = '\0';
  assert_int_equal(outputs_publish(&all, &f), EXIT_BAD_INPUT);
  assert_string_equal(log_, "ba");
  log_[0] = '\0';
  outputs_finish(&all, 0);
  assert_string_equal(log_, "01");
  hp2x_profile_free(p);
}

static void views_only_when_one_draws_them(void **state) {
  (void)state;
  fake census = make('a', 0, 0, 0);
  tool_outputs all = {{NULL}, 0};
  assert_false(outputs_want_view(&all));
  outputs_add(&all, &census.base);
  assert_false(outputs_want_view(&all)); /* one census: the whole run */
  fake server = make('b', 1, 1, 1);
  outputs_add(&all, &server.base);
  assert_true(outputs_want_view(&all));
  log_[0] = '\0';
  outputs_finish(&all, 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(copies_first_then_drop_then_the_rest),
      cmocka_unit_test(a_failure_stops_publishing),
      cmocka_unit_test(views_only_when_one_draws_them),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
