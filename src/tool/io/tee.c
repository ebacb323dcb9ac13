/* tee.c -- --tee: what a service sends appended to a file as it comes, cut
 * back at the end to the last whole event (the parser says where that is:
 * a valid eventlog, or .hp text of whole lines).  The watch's input source
 * reads the bytes; the watch hands them here.
 */
#include "tee.h"

#include "util/messages.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int tee_open(tee *t, const char *path) {
  memset(t, 0, sizeof *t);
  t->fd = -1;
  t->path = path;
  if (!path) return EXIT_OK;
  t->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (t->fd < 0) {
    msg_errorf("%s: cannot open: %s", path, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

void tee_bytes(tee *t, const unsigned char *buf, size_t n) {
  if (t->fd < 0 || t->failed) return;
  while (n > 0) {
    ssize_t k = write(t->fd, buf, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) {
      msg_errorf("%s: cannot write: %s; no more bytes kept there", t->path,
                 strerror(errno));
      t->failed = 1;
      return;
    }
    buf += k;
    n -= (size_t)k;
    t->bytes += k;
  }
}

void tee_close(tee *t, long long whole) {
  if (t->fd < 0) return;
  if (whole < t->bytes && ftruncate(t->fd, (off_t)whole) != 0 && !t->failed) {
    msg_errorf("%s: cannot cut back to the last whole event: %s", t->path,
               strerror(errno));
    t->failed = 1;
  }
  if (close(t->fd) != 0 && !t->failed) {
    msg_errorf("%s: cannot write: %s", t->path, strerror(errno));
    t->failed = 1;
  }
  t->fd = -1;
}
