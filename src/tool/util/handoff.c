/* handoff.c -- the lean hp2x's hand-over to the full program (handoff.h):
 * the full program found beside the running binary, relative to it where
 * it was installed, or where it was built to be installed, then exec'd
 * with the same argv; standard streams and environment go with it.  The
 * places come from the Makefile (HP2X_LIBEXECDIR, HP2X_LIBEXEC_REL: its
 * PKGLIBEXECDIR, whole and from BINDIR); a portable build (PORTABLE=1) is
 * one program and never hands over.
 */
#include "handoff.h"

#include "environment.h"
#include "messages.h"
#include "status.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef HP2X_LIBEXECDIR
#define HP2X_LIBEXECDIR "/usr/local/libexec/hp2x"
#endif
#ifndef HP2X_LIBEXEC_REL
#define HP2X_LIBEXEC_REL "../libexec/hp2x"
#endif

enum { PLACES = 3, PLACE_MAX = PATH_MAX + 64 };

/* The places handoff.h lists, in order, into place[]; returns how many. */
static int find_places(const char *argv0, char place[][PLACE_MAX]) {
  char dir[PATH_MAX];
  int n = 0;
  if (environment_binary_dir(argv0, dir)) {
    snprintf(place[n++], PLACE_MAX, "%s/%s", dir, HP2X_FULL_NAME);
    if (HP2X_LIBEXEC_REL[0])
      snprintf(place[n++], PLACE_MAX, "%s/%s/%s", dir, HP2X_LIBEXEC_REL,
               HP2X_FULL_NAME);
  }
  snprintf(place[n++], PLACE_MAX, "%s/%s", HP2X_LIBEXECDIR, HP2X_FULL_NAME);
  return n;
}

int handoff_exec(char **argv, const char *what) {
  char place[PLACES][PLACE_MAX];
  int n = find_places(argv[0], place);
  for (int i = 0; i < n; i++) {
    if (access(place[i], X_OK) != 0) continue;
    fflush(NULL);
    execv(place[i], argv);
    msg_errorf("%s: cannot run it (%s needs the full program): %s", place[i],
               what, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  char looked[PLACES * (PLACE_MAX + 4)] = "";
  for (int i = 0; i < n; i++) {
    size_t used = strlen(looked);
    snprintf(looked + used, sizeof looked - used, "%s%s",
             i == 0      ? ""
             : i + 1 < n ? ", "
                         : " or ",
             place[i]);
  }
  msg_errorf("%s needs the full program, %s, which is not installed: "
             "not found as %s",
             what, HP2X_FULL_NAME, looked);
  return EXIT_BAD_INPUT;
}
