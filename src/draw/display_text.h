/* display_text.h -- label bytes as displayable UTF-8 (display_text.c),
 * without cairo or pango.
 */
#ifndef HPX_DISPLAY_TEXT_H
#define HPX_DISPLAY_TEXT_H

#include <stddef.h>

/* Label bytes to displayable UTF-8 (see display_text.c); the caller frees
 * it.  NULL when out of memory. */
char *hpx_render_display_text(const char *s, size_t len);

#endif
