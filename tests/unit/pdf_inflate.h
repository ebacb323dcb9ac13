/* pdf_inflate.h -- for the unit tests that look inside a PDF hp2x drew:
 * its bytes with every Flate-compressed stream inflated in place, so that
 * a check finds the pages tree, the media boxes and the dates wherever
 * cairo put them: as plain objects (cairo 1.16, Debian 12) or inside
 * compressed object streams (cairo 1.18, Debian 13).  A stream that does
 * not inflate is copied as it is.  Uses mem_sink.h's buffer. */
#ifndef HPX_PDF_INFLATE_H
#define HPX_PDF_INFLATE_H

#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "mem_sink.h"

/* The stream data of a "stream" keyword at pdf[i], inflated into out;
 * returns the offset just past the input it read, or 0 when it is not a
 * Flate stream that inflates. */
static inline size_t pdf_inflate_one(const char *pdf, size_t len, size_t i,
                                     size_t dict, mem *out) {
  size_t data = i + 6;
  if (data < len && pdf[data] == '\r') data++;
  if (data >= len || pdf[data] != '\n') return 0;
  data++;
  size_t f = dict;
  while (f + 12 <= i && memcmp(pdf + f, "/FlateDecode", 12) != 0) f++;
  if (f + 12 > i) return 0;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit(&z) != Z_OK) return 0;
  z.next_in = (unsigned char *)(uintptr_t)(pdf + data);
  z.avail_in = (uInt)(len - data);
  unsigned char chunk[16384];
  int st;
  do {
    z.next_out = chunk;
    z.avail_out = sizeof chunk;
    st = inflate(&z, Z_NO_FLUSH);
    mem_write(out, chunk, sizeof chunk - z.avail_out);
  } while (st == Z_OK);
  size_t end = data + z.total_in;
  inflateEnd(&z);
  return st == Z_STREAM_END ? end : 0;
}

/* The PDF pdf[0..len) with its Flate streams inflated: a new buffer. */
static inline mem pdf_inflated(const char *pdf, size_t len) {
  mem out = {NULL, 0, 0, 0};
  mem_write(&out, "", 0);
  size_t from = 0, dict = 0;
  for (size_t i = 0; i + 6 <= len; i++) {
    if (memcmp(pdf + i, "obj", 3) == 0) dict = i;
    if (memcmp(pdf + i, "stream", 6) != 0 || (i && pdf[i - 1] == 'd')) continue;
    mem_write(&out, pdf + from, i + 6 - from);
    mem_write(&out, "\n", 1);
    size_t end = pdf_inflate_one(pdf, len, i, dict, &out);
    from = end ? end : i + 6;
    if (end) i = end - 1;
  }
  mem_write(&out, pdf + from, len - from);
  return out;
}

#endif
