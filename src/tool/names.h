/* names.h -- the tool's file names (names.c): inputs as hp2ps finds them,
 * and the outputs named after them.  Results are malloc'ed (NULL when out
 * of memory) unless said otherwise.
 */
#ifndef HPX_TOOL_NAMES_H
#define HPX_TOOL_NAMES_H

#include "tool.h"

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

/* One input: resolves a->input (a->input_owned; not a service address),
 * names it in messages (a->input_display) and, as hp2ps, names the outputs
 * after it when -o is not given: BASE.ps (BASE.EXT for other formats) and
 * BASE.aux beside the output (a->output_owned, a->aux_path, a->write_aux).
 * Standard input writes standard output.  0, or -1 when out of memory. */
int names_settle_one(tool_args *a);

/* Frees what names_settle_one allocated. */
void names_free_one(tool_args *a);

#endif
