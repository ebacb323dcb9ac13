/* names.h -- the tool's file names (names.c): inputs as hp2ps finds them,
 * and the outputs named after them; for a run of one input, the names it
 * settles (names_one), which are the run's, not the command line's.
 * Results are malloc'ed (NULL when out of memory) unless said otherwise.
 */
#ifndef HPX_TOOL_NAMES_H
#define HPX_TOOL_NAMES_H

#include "args.h"

/* The format's file extension, without the dot; static storage. */
const char *names_format_ext(hp2x_format f);

/* hp2x_format_shown functions (for hp2x_format_list): every row's name
 * ("ps"), every row's extension ("pb.gz"); the label of a picture format
 * with pages ("PS"). */
const char *names_format_name(const hp2x_format_info *row);
const char *names_format_extension(const hp2x_format_info *row);
const char *names_format_paged_label(const hp2x_format_info *row);

/* The input's base name without directory and .hp/.eventlog suffix. */
char *names_input_stem(const char *input);

/* BASE.aux beside `output`: its name without the extension (the whole of
 * a format's: NAME.pb.gz gives NAME.aux). */
char *names_aux_beside(const char *output);

/* `pattern` with its first %s replaced by `stem`. */
char *names_expand(const char *pattern, const char *stem);

/* Several inputs, a file each: the pattern of their names (with one %s for
 * the input's stem): -o as given when it has a %s, else DIR/%s.EXT for
 * -o DIR, else ./%s.EXT. */
char *names_file_pattern(const char *output, hp2x_format f);

/* --diff without -o: B-minus-A.EXT from the two inputs' stems. */
char *names_diff_output(const char *stem_a, const char *stem_b, hp2x_format f);

/* The path to open for the input argument `arg`: arg, or NAME.hp for a
 * NAME that does not exist (then also *resolved, owned; else NULL). */
const char *names_input_path(const char *arg, char **resolved);

/* An input's name in messages: its path, "<stdin>" for "-". */
const char *names_display(const char *path);

/* The names of a run of one input. */
typedef struct names_one {
  const char *input;   /* the path to open: the argument, or NAME.hp */
  const char *display; /* its name in messages */
  const char *output;  /* -o, or hp2ps's BASE.ps; NULL: served only */
  char *aux_path;      /* BASE.aux beside the output; owned; NULL in
                          filter mode */
  int write_aux;       /* write BASE.aux after the picture */
  char *input_owned;   /* NAME.hp for a NAME that does not exist;
                          owned; NULL when `input` is argv's */
  char *output_owned;  /* output built from the input's name; owned */
} names_one;

/* One input: resolves a->input (n->input, maybe n->input_owned; not a
 * service address), names it in messages (n->display) and, as hp2ps,
 * names the outputs after it when -o is not given: BASE.ps (BASE.EXT for
 * other formats) and BASE.aux beside the output (n->output, n->aux_path,
 * n->write_aux).  Standard input writes standard output; --serve without
 * -o writes no file.  0, or -1 when out of memory (free *n all the same). */
int names_settle_one(const tool_args *a, names_one *n);

/* Frees what names_settle_one allocated. */
void names_free_one(names_one *n);

#endif
