/* inputs.h -- reading the tool's input files whole (inputs.c).  Failures
 * are reported here; the functions return exit statuses.
 */
#ifndef HPX_TOOL_INPUTS_H
#define HPX_TOOL_INPUTS_H

#include "hp2x.h"

/* Parses the profile at `path` ("-": standard input) whole into *p (owned
 * by the caller); messages name `display`, or `path` when it cannot be
 * opened. */
int inputs_read_profile(const char *path, const char *display,
                        const hp2x_parse_options *o, hp2x_profile **p);

/* Warns once per kind about what the parser let through in `p` (an
 * incomplete last sample, unless `from_service`: a service's stream stops
 * where the service stopped; repeated labels, unknown cost centres) and
 * about --heap (o->heap_overlay) without heap events.  The caller says
 * nothing with --quiet. */
void inputs_warn_profile(const char *display, const hp2x_profile *p,
                         const hp2x_options *o, int from_service);

/* -p: loads the .aux at `path` (NULL: none) into *aux and points o->aux
 * at it; else *aux is NULL.  Undo with inputs_release_aux, also after a
 * failure. */
int inputs_attach_aux(const char *path, hp2x_options *o, hp2x_aux **aux);
void inputs_release_aux(hp2x_options *o, hp2x_aux **aux);

#endif
