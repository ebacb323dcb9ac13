/* deflate_level.c -- the zlib level of the streams cairo compresses into a
 * PDF.  cairo 1.16 has no setting for it: it calls zlib's deflateInit with
 * the default level (6), and on a large profile that compression was 40 %
 * of the whole run (bench/RESULTS.md).  The hp2x executable defines
 * deflateInit_, the function zlib's deflateInit macro expands to, so the
 * dynamic linker binds cairo's calls to this one, which asks zlib for
 * DEFLATE_LEVEL instead of the default and is zlib's own deflateInit
 * otherwise.  Callers that name a level, and those that call deflateInit2
 * (libpng), are left alone.  A tool file, not a library one: an
 * application that links libhp2x.a keeps its own zlib set-up.
 */
#include <zlib.h>

/* zlib's fastest level: 1.6x faster than level 6 on a PDF of 60 bands
 * drawn from 60 000 samples, for an 18 % larger file. */
enum { DEFLATE_LEVEL = 1, DEFLATE_MEM_LEVEL = 8 /* zlib's default */ };

int deflateInit_(z_streamp strm, int level, const char *version,
                 int stream_size) {
  if (level == Z_DEFAULT_COMPRESSION) level = DEFLATE_LEVEL;
  return deflateInit2_(strm, level, Z_DEFLATED, MAX_WBITS, DEFLATE_MEM_LEVEL,
                       Z_DEFAULT_STRATEGY, version, stream_size);
}
