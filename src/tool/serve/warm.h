/* warm.h -- the warm-up page of a waiting live page (warm.c). */
#ifndef HPX_TOOL_SERVE_WARM_H
#define HPX_TOOL_SERVE_WARM_H

#include "hp2x.h"

/* The warm-up page drawn with opts, NUL-ended (free() it); NULL when it
 * cannot be drawn. */
char *serve_warm_page(const hp2x_options *opts);

#endif
