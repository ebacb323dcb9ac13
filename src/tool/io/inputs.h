/* inputs.h -- reading the tool's input files whole (inputs.c).  Failures
 * are reported here; the functions return exit statuses.
 */
#ifndef HPX_TOOL_INPUTS_H
#define HPX_TOOL_INPUTS_H

#include "tool.h"

/* Parses the profile at `path` ("-": standard input) whole into *p (owned
 * by the caller); messages name `display`, or `path` when it cannot be
 * opened. */
int inputs_read_profile(const char *path, const char *display,
                        const hp2x_parse_options *o, hp2x_profile **p);

/* Warns once per kind about what the parser let through in `p` (an
 * incomplete last sample, repeated labels, unknown cost centres) and about
 * --heap without heap events; nothing with --quiet. */
void inputs_warn_profile(const tool_args *a, const char *display,
                         const hp2x_profile *p);

/* With -p (a->use_aux and a->aux_path set), loads that .aux into *aux and
 * points a->opts.aux at it; else *aux is NULL.  Undo with
 * inputs_release_aux, also after a failure. */
int inputs_attach_aux(tool_args *a, hp2x_aux **aux);
void inputs_release_aux(tool_args *a, hp2x_aux **aux);

#endif
