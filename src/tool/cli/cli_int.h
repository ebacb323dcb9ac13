/* cli_int.h -- what the command line's three files share: the option
 * table's entry type (cli.c holds the table), its lookups, the tool's
 * own default --interval, the one recorder of usage errors, and the
 * settling of a whole line (settle.c) that the word reader
 * (read.c) calls last.  Private to cli.c, read.c and settle.c.
 */
#ifndef HPX_TOOL_CLI_INT_H
#define HPX_TOOL_CLI_INT_H

#include "cli.h"

typedef enum value_kind {
  VAL_FLAG,   /* no value: stores `set` */
  VAL_INT,    /* a whole number in [min, max] */
  VAL_DOUBLE, /* a number in [min, max] (min itself out when min_open) */
  VAL_ENUM,   /* one of `names`: stores its value */
  VAL_STRING, /* any text, borrowed from argv */
  VAL_TEXT,   /* text, not empty */
  VAL_REGEX,  /* a POSIX extended regex, borrowed from argv */
  VAL_SPECIAL /* hp2ps's own rules: `special` */
} value_kind;

/* How the hp2ps letter reads its value (hp2ps's manual). */
typedef enum letter_style {
  LETTER_PLAIN,        /* -Xvalue or -X value; a flag ignores the rest of
                          its word (-cg is -c) */
  LETTER_GLUED,        /* the rest of the word only, maybe empty (-i-) */
  LETTER_MAYBE_NUMBER, /* the rest of the word, or the next word when it
                          is a number; may be empty (-m alone is -m0) */
  LETTER_CHAINS        /* a flag after which letters go on (-pc = -p -c) */
} letter_style;

typedef struct option_spec option_spec;
typedef cli_outcome (*special_fn)(const option_spec *o, const char *val,
                                  const char *spelled, tool_args *a,
                                  cli_error *e);

struct option_spec {
  char letter;           /* hp2ps letter or 0 */
  const char *long_name; /* GNU name or NULL */
  const char *arg_name;  /* the value in --help; NULL: takes none */
  const char *help;
  const char *(*help_built)(void); /* else: help made from a table */
  value_kind kind;
  size_t field;           /* offsetof(tool_args, ...) of what it sets */
  size_t given;           /* 1 + offsetof an int also set to 1; 0 none */
  int set;                /* VAL_FLAG: the value stored */
  double min, max;        /* VAL_INT, VAL_DOUBLE: the range */
  int min_open;           /* VAL_DOUBLE: min is out of range */
  const tool_name *names; /* VAL_ENUM: the words, ended by {NULL} */
  const char *bad;        /* a bad value's message: bad 'VALUE' bad_tail */
  const char *bad_tail;
  special_fn special; /* VAL_SPECIAL */
  letter_style style;
};

/* --interval's default, the tool's own (the library's defaults are
 * hp2x_options_init's): watch mode renders at most once a second. */
#define CLI_INTERVAL_S 1.0

/* The table's entry for the long option spelled by name[0..len) (--color
 * is --colour), or for hp2ps letter c; NULL when there is none. */
const option_spec *cli_find_long(const char *name, size_t len);
const option_spec *cli_find_letter(char c);

/* Records a usage error in *e (the first one; parsing stops at it) and
 * returns CLI_FAILED; out of memory leaves e->message NULL. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
cli_outcome
cli_fail(cli_error *e, const char *fmt, ...);

/* After every word is read: the format and output the line implies, the
 * checks of the combination, then the defaults that follow from it. */
cli_outcome cli_settle_line(tool_args *a, cli_error *e);

#endif
