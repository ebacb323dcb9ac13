/* environment.h -- what the tool takes from its process's environment and
 * hands to the library, which reads none of it (environment.c): the fonts
 * to draw with, the date of every picture, the time zone of an
 * eventlog's DATE, and the cores the process may use (--jobs's default).
 */
#ifndef HPX_TOOL_ENVIRONMENT_H
#define HPX_TOOL_ENVIRONMENT_H

#include "hp2x.h"

/* Sets o->fonts_conf, o->source_date_epoch, parse->zone and
 * parse->part_bytes from the environment (man page, ENVIRONMENT) and, for
 * the fonts, from where the running binary is (argv0 as main received it):
 *   - fonts: HP2X_FONTS_CONF when set; else hp2x's own fonts.conf beside
 *     the binary (../share/hp2x/fonts/ or ../../share/hp2x/fonts/, ../fonts/
 *     or ../../fonts/: an installed tree's bin/hp2x or
 *     libexec/hp2x/hp2x-full, the source tree's build/ or build/VARIANT/); else
 *     NULL, the library's default (the installed data directory's);
 *   - SOURCE_DATE_EPOCH, a whole number of seconds >= 0 (anything else is
 *     ignored, as if unset), dates every picture, and makes DATE UTC;
 *   - without it, DATE is in the local time zone, as GHC writes it;
 *   - HP2X_PART_BYTES, for tests: parse->part_bytes, the size of the
 *     parts the input is read in on several threads (else 0, the
 *     library's choice);
 *   - HP2X_PACK_BYTES, for tests: parse->pack_bytes, the input size from
 *     which censuses' values are packed (else 0, the library's choice).
 * The strings set point to the environment or to static storage. */
void environment_read(hp2x_options *o, hp2x_parse_options *parse,
                      const char *argv0);

/* The running binary's directory into dir (PATH_MAX bytes): from
 * /proc/self/exe on Linux, else (PORTABLE=1, no /proc) from argv0 when it
 * names a path.  0 when it cannot be told. */
int environment_binary_dir(const char *argv0, char *dir);

/* The cores this process may run on (at least 1): the threads that read
 * its input unless --jobs says otherwise. */
int environment_cores(void);

#endif
