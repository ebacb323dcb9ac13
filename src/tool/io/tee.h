/* tee.h -- --tee (tee.c): the bytes a service sends, kept in a file as they
 * come, and cut back at the end to the last whole event, so that the file
 * is a valid eventlog.  A failure to write is said once, and the run then
 * exits 1.
 */
#ifndef HPX_TOOL_TEE_H
#define HPX_TOOL_TEE_H

#include <stddef.h>

typedef struct tee {
  const char *path; /* NULL: no --tee */
  int fd;           /* -1 while closed */
  long long bytes;  /* written so far */
  int failed;       /* a write failed (said once) */
} tee;

/* Creates (truncates) the file at `path`; NULL: no tee, nothing done.
 * Returns an exit status, reported. */
int tee_open(tee *t, const char *path);

/* Appends buf[0..n); after a failure, nothing. */
void tee_bytes(tee *t, const unsigned char *buf, size_t n);

/* Cuts the file back to its first `whole` bytes (the last whole event)
 * and closes it. */
void tee_close(tee *t, long long whole);

#endif
