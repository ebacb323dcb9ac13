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
#include <stdlib.h>
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

/* Set in the environment of the program handed a run: a lean hp2x that
 * finds it set was handed the run back (an hp2x-full that is a copy of,
 * or a link to, the lean program) and stops, where it would exec itself
 * for ever. */
#define HANDED_OVER "HP2X_HANDED_OVER"

/* place[0..n) as "A, B or C" into buf. */
static void list_places(char place[][PLACE_MAX], int n, char *buf,
                        size_t size) {
  buf[0] = 0;
  for (int i = 0; i < n; i++) {
    size_t used = strlen(buf);
    snprintf(buf + used, size - used, "%s%s",
             i == 0      ? ""
             : i + 1 < n ? ", "
                         : " or ",
             place[i]);
  }
}

int handoff_exec(char **argv, const char *what) {
  char place[PLACES][PLACE_MAX];
  if (getenv(HANDED_OVER)) {
    msg_errorf("%s needs the full program, %s, but the one found handed "
               "the run back: it is a copy of, or a link to, this program",
               what, HP2X_FULL_NAME);
    return EXIT_BAD_INPUT;
  }
  int n = find_places(argv[0], place), failed = -1, why = 0;
  setenv(HANDED_OVER, "1", 1);
  for (int i = 0; i < n; i++) {
    if (access(place[i], F_OK) != 0) continue;
    if (access(place[i], X_OK) == 0) {
      fflush(NULL);
      execv(place[i], argv);
    }
    if (failed < 0) failed = i, why = errno; /* the next place may do */
  }
  if (failed >= 0) {
    msg_errorf("%s: cannot run it (%s needs the full program): %s",
               place[failed], what, strerror(why));
    return EXIT_BAD_INPUT;
  }
  char looked[PLACES * (PLACE_MAX + 4)];
  list_places(place, n, looked, sizeof looked);
  msg_errorf("%s needs the full program, %s, which is not installed: "
             "not found as %s",
             what, HP2X_FULL_NAME, looked);
  return EXIT_BAD_INPUT;
}
