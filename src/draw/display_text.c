/* display_text.c -- label bytes as displayable UTF-8, for the picture's
 * text (render_text.c), its tooltips and the outputs that name labels in
 * UTF-8 (pprof, metrics): valid UTF-8 is kept, any other byte is read as
 * Latin-1 (GHC 9.0 writes closure and type names that way), and control
 * characters become U+FFFD.  No cairo or pango here: a program that draws
 * nothing (the Makefile's text-only link) uses it too.
 */
#include "display_text.h"
#include "base/base.h"

#include <stdint.h>

/* Label bytes to UTF-8 pango accepts: see the file comment. */
char *hpx_render_display_text(const char *s, size_t len) {
  char *out = hpx_malloc(len * 3 + 1);
  if (!out) return NULL;
  size_t o = 0;
  const unsigned char *b = (const unsigned char *)s;
  for (size_t i = 0; i < len;) {
    unsigned c = b[i];
    size_t n = c < 0x80         ? 1
               : (c >> 5) == 6  ? 2
               : (c >> 4) == 14 ? 3
               : (c >> 3) == 30 ? 4
                                : 0;
    int valid = n > 0 && i + n <= len;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 7;
    for (size_t k = 1; valid && k < n; k++) {
      if ((b[i + k] & 0xc0) != 0x80) valid = 0;
      cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    if (valid && ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
                  (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
                  (cp >= 0xd800 && cp <= 0xdfff)))
      valid = 0;
    if (!valid) {
      cp = c; /* Latin-1 */
      n = 1;
    }
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) cp = 0xfffd;
    if (cp < 0x80) {
      out[o++] = (char)cp;
    } else if (cp < 0x800) {
      out[o++] = (char)(0xc0 | (cp >> 6));
      out[o++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out[o++] = (char)(0xe0 | (cp >> 12));
      out[o++] = (char)(0x80 | ((cp >> 6) & 0x3f));
      out[o++] = (char)(0x80 | (cp & 0x3f));
    } else {
      out[o++] = (char)(0xf0 | (cp >> 18));
      out[o++] = (char)(0x80 | ((cp >> 12) & 0x3f));
      out[o++] = (char)(0x80 | ((cp >> 6) & 0x3f));
      out[o++] = (char)(0x80 | (cp & 0x3f));
    }
    i += n;
  }
  out[o] = '\0';
  return out;
}
