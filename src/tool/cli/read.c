/* read.c -- the command line's words read into a tool_args: long options
 * (--name, --name=value, --name value), hp2ps's letters (values glued to the
 * letter, -p chaining), "--" and the inputs; each option's value checked
 * against its entry in cli.c's table and stored in the field it names, after
 * what the environment gives (util/environment.c).  Ends with settle.c's
 * checks of the whole line.  Errors are returned, never printed.
 */
#include "cli_int.h"

#include "util/environment.h"
#include "util/numbers.h"

#include <assert.h>
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static cli_outcome out_of_memory(cli_error *e) {
  e->message = NULL;
  e->is_usage = 0;
  return CLI_FAILED;
}

static int looks_numeric(const char *s) {
  if (!s || !*s) return 0;
  for (; *s; s++)
    if ((*s < '0' || *s > '9') && *s != '.') return 0;
  return 1;
}

static const tool_name *find_name(const tool_name *names, const char *s) {
  for (; names->name; names++)
    if (!strcmp(s, names->name)) return names;
  return NULL;
}

/* ------------------------------------------------------- applying one */

/* Stores a checked value of a table-driven kind into o->field. */
static cli_outcome set_value(const option_spec *o, const char *val,
                             tool_args *a, cli_error *e) {
  char *field = (char *)a + o->field;
  double d;
  long l;
  const tool_name *n;
  switch (o->kind) {
  case VAL_FLAG: *(int *)field = o->set; break;
  case VAL_INT:
    if (!numbers_parse_long(val, &l) ||
        !((double)l >= o->min && (double)l <= o->max))
      return cli_fail(e, "%s'%s'%s", o->bad, val, o->bad_tail);
    *(int *)field = (int)l;
    break;
  case VAL_DOUBLE:
    if (!numbers_parse_double(val, &d) ||
        !(o->min_open ? d > o->min : d >= o->min) || !(d <= o->max))
      return cli_fail(e, "%s'%s'%s", o->bad, val, o->bad_tail);
    *(double *)field = d;
    break;
  case VAL_ENUM:
    if (!(n = find_name(o->names, val)))
      return cli_fail(e, "%s'%s'%s", o->bad, val, o->bad_tail);
    *(int *)field = n->value;
    break;
  case VAL_TEXT:
    if (!*val) return cli_fail(e, "%s", o->bad);
    *(const char **)field = val;
    break;
  case VAL_STRING: *(const char **)field = val; break;
  case VAL_REGEX:
  case VAL_SPECIAL: assert(0 && "not a plain value"); break;
  }
  return CLI_RUN;
}

/* A regex the library will compile: checked here, so that a bad one is a
 * usage error before any input is read. */
static cli_outcome set_regex(const option_spec *o, const char *val,
                             tool_args *a, cli_error *e) {
  regex_t re;
  int rc = regcomp(&re, val, REG_EXTENDED | REG_NOSUB);
  if (rc != 0) {
    char why[128];
    regerror(rc, &re, why, sizeof why);
    return cli_fail(e, "%s'%s': %s", o->bad, val, why);
  }
  regfree(&re);
  *(const char **)((char *)a + o->field) = val;
  return CLI_RUN;
}

/* Applies option `o` with value `val` (NULL for flags); `spelled` is the
 * option as written, for messages. */
static cli_outcome apply_option(const option_spec *o, const char *val,
                                const char *spelled, tool_args *a,
                                cli_error *e) {
  cli_outcome r;
  if (o->kind == VAL_SPECIAL)
    r = o->special(o, val, spelled, a, e);
  else if (o->kind == VAL_REGEX)
    r = set_regex(o, val, a, e);
  else
    r = set_value(o, val, a, e);
  if (r == CLI_RUN && o->given) *(int *)((char *)a + o->given - 1) = 1;
  return r;
}
/* ------------------------------------------------------------- the words */

typedef struct cursor {
  int argc;
  char **argv;
  int i; /* the word being read */
} cursor;

/* --name, --name=value or --name value. */
static cli_outcome read_long_option(cursor *c, tool_args *a, cli_error *e) {
  const char *arg = c->argv[c->i];
  const char *name = arg + 2;
  const char *eq = strchr(name, '=');
  size_t len = eq ? (size_t)(eq - name) : strlen(name);
  const option_spec *o = cli_find_long(name, len);
  if (!o) return cli_fail(e, "unknown option '--%.*s'", (int)len, name);
  const char *val = NULL;
  if (o->arg_name) {
    if (eq)
      val = eq + 1;
    else if (c->i + 1 < c->argc)
      val = c->argv[++c->i];
    else
      return cli_fail(e, "option '--%s' needs a value (%s)", o->long_name,
                      o->arg_name);
  } else if (eq) {
    return cli_fail(e, "option '--%s' takes no value", o->long_name);
  }
  return apply_option(o, val, arg, a, e);
}

/* The value of hp2ps letter `o` whose word goes on at `rest`. */
static cli_outcome read_letter_value(cursor *c, const option_spec *o,
                                     const char *rest, const char **val,
                                     cli_error *e) {
  *val = NULL;
  if (o->style == LETTER_GLUED) {
    *val = rest;
  } else if (o->arg_name) {
    *val = rest;
    int takes_next = *rest == '\0' && c->i + 1 < c->argc;
    if (takes_next && o->style == LETTER_MAYBE_NUMBER)
      takes_next = looks_numeric(c->argv[c->i + 1]);
    if (takes_next) *val = c->argv[++c->i];
    if (**val == '\0' && o->style != LETTER_MAYBE_NUMBER)
      return cli_fail(e, "option '-%c' needs a value (%s)", o->letter,
                      o->arg_name);
  }
  return CLI_RUN;
}

/* hp2ps-style letters: a letter takes the rest of its word, except -p,
 * after which letters go on. */
static cli_outcome read_letters(cursor *c, tool_args *a, cli_error *e) {
  for (const char *l = c->argv[c->i] + 1; *l;) {
    const option_spec *o = cli_find_letter(*l);
    if (!o) return cli_fail(e, "unknown option '-%c'", *l);
    const char *val;
    cli_outcome r = read_letter_value(c, o, l + 1, &val, e);
    char spelled[4] = {'-', *l, '\0', '\0'};
    if (r == CLI_RUN) r = apply_option(o, val, spelled, a, e);
    if (r != CLI_RUN || o->style != LETTER_CHAINS) return r;
    l++;
  }
  return CLI_RUN;
}

/* ------------------------------------------------------- the whole line */

cli_outcome cli_parse(int argc, char **argv, tool_args *a, cli_error *e) {
  memset(a, 0, sizeof *a);
  memset(e, 0, sizeof *e);
  hp2x_options_init(&a->opts);
  hp2x_parse_options_init(&a->parse);
  environment_read(&a->opts, &a->parse, argc > 0 ? argv[0] : NULL);
  a->watch.interval_s = CLI_INTERVAL_S;
  a->inputs = calloc((size_t)argc, sizeof *a->inputs);
  if (!a->inputs) return out_of_memory(e);
  cursor c = {argc, argv, 1};
  int only_files = 0;
  for (; c.i < argc; c.i++) {
    const char *arg = argv[c.i];
    cli_outcome r = CLI_RUN;
    if (only_files || arg[0] != '-' || !strcmp(arg, "-"))
      a->inputs[a->n_inputs++] = arg; /* room for argc - 1 */
    else if (!strcmp(arg, "--"))
      only_files = 1;
    else if (arg[1] == '-')
      r = read_long_option(&c, a, e);
    else
      r = read_letters(&c, a, e);
    if (r != CLI_RUN) return r;
  }
  a->input = a->n_inputs ? a->inputs[0] : "-";
  return cli_settle_line(a, e);
}

void cli_free(tool_args *a, cli_error *e) {
  free(a->inputs);
  a->inputs = NULL;
  free(e->message);
  e->message = NULL;
}
