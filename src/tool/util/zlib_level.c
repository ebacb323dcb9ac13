/* zlib_level.c -- the zlib level of the streams cairo compresses into a
 * PDF.  cairo 1.16 has no setting for it: it calls zlib's deflateInit with
 * the default level (6), a large share of a big profile's run
 * (bench/RESULTS.md).  The hp2x executable defines deflateInit_, the
 * function zlib's deflateInit macro expands to, so the dynamic linker binds
 * cairo's calls to this one, which asks zlib for DEFLATE_LEVEL instead of
 * the default and is zlib's own deflateInit otherwise.  Callers that name a
 * level, and those that call deflateInit2 (libpng), are left alone.  A
 * tool file, not a library one: an application that links libhp2x.a keeps
 * its own zlib set-up.  Part of the tool's process tuning (tuning.c), but
 * a file of its own: it needs no call, and mk/bench.mk links it alone.
 *
 * The seam: cairo has no API for the level, and this route works only
 * where the executable's definition wins over the shared zlib's, as on
 * Linux with a dynamically linked zlib (tests/e2e/test_seams.sh checks the
 * level of the PDF streams).  Elsewhere (macOS binds cairo's call to libz
 * itself; a static zlib would define deflateInit_ twice) and under
 * PORTABLE=1 this file defines nothing, and PDFs get zlib's default level.
 */
#include <zlib.h>

#if defined(__linux__) && !defined(HP2X_PORTABLE)

/* zlib's fastest level: faster than level 6 on big PDFs for a somewhat
 * larger file (bench/RESULTS.md has the figures). */
enum { DEFLATE_LEVEL = 1, DEFLATE_MEM_LEVEL = 8 /* zlib's default */ };

int deflateInit_(z_streamp strm, int level, const char *version,
                 int stream_size) {
  if (level == Z_DEFAULT_COMPRESSION) level = DEFLATE_LEVEL;
  return deflateInit2_(strm, level, Z_DEFLATED, MAX_WBITS, DEFLATE_MEM_LEVEL,
                       Z_DEFAULT_STRATEGY, version, stream_size);
}
#endif
