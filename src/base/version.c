/* version.c -- hp2x_version(): the version of the library linked in, which
 * a program compiled against an older hp2x.h can compare with its
 * HP2X_VERSION_STRING.
 */
#include "hp2x.h"

const char *hp2x_version(void) { return HP2X_VERSION_STRING; }
