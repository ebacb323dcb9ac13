/* source.h -- the input a watch reads as it grows (source.c): a file, a
 * pipe (standard input or a FIFO) or a service (connect.h); opened, read
 * without blocking, reopened when a file appears, is replaced or shrinks,
 * connected to again until a service is up; and what is wrong with it,
 * each problem said once.
 */
#ifndef HPX_TOOL_SOURCE_H
#define HPX_TOOL_SOURCE_H

#include <stddef.h>
#include <sys/types.h>

#include "connect.h"
#include "util/messages.h"

/* What a source reads, and how. */
typedef struct source_spec {
  const char *path;               /* a file, a FIFO, "-" or a service's
                                     operand */
  const char *display;            /* its name in messages */
  const connect_address *service; /* kind CONNECT_NONE: `path` is a file,
                                     a FIFO or "-" */
  double retry_s;                 /* a service not up: tried so often */
  int keep_trying;                /* --watch: a service not up yet is
                                     waited for (else the run ends) */
  const msg_notes *notes;         /* how problems are said */
} source_spec;

typedef struct source {
  source_spec spec;
  int fd;                    /* -1 while not open (or not connected) */
  int fd_is_ours;            /* fd was opened here (else standard input) */
  int is_stream;             /* standard input, FIFO, service: no seek */
  int eof;                   /* a stream ended */
  dev_t dev;                 /* identity of the open file, to see it */
  ino_t ino;                 /* replaced */
  long long offset;          /* bytes read since the last start */
  int change_fd;             /* wakeup.c's directory watch; -1 none */
  char problem[320];         /* what was last said about the input ("" none),
                                so that each problem is said once */
  int open_errno;            /* why the input could not be opened; 0 none */
  int ever_connected;        /* the service was reached */
  double last_try_s;         /* when connecting was last tried */
  char connect_problem[256]; /* why the last try failed */
} source;

/* Tells what the input is and, for a stream, opens it: standard input, a
 * FIFO (blocking until a writer opens it, or a stop signal) or the first
 * try at a service.  A file is opened by source_check.  Returns an exit
 * status, reported (a service that cannot be reached, or without
 * keep_trying is not up). */
int source_open(source *s, const source_spec *spec);

/* What source_check found. */
typedef enum source_change {
  SOURCE_SAME,      /* nothing to start */
  SOURCE_CONNECTED, /* a service was reached: its bytes begin */
  SOURCE_RESTARTED  /* a file appeared, was replaced or shrank: it is read
                       from its start (offset 0), by a new parser */
} source_change;

/* Before a read: a file is (re)opened when it appeared, was replaced or
 * shrank; a service not connected is tried again once retry_s has passed.
 * Says once why a file cannot be opened, that it was deleted, or that a
 * service is not up.  Returns an exit status, reported. */
int source_check(source *s, source_change *change);

/* What source_read came to. */
typedef enum source_read_result {
  SOURCE_DATA,  /* *n > 0 bytes in buf */
  SOURCE_NONE,  /* nothing now (or ever: eof set) */
  SOURCE_AGAIN, /* interrupted: look at the stop flag, then call again */
  SOURCE_FAILED /* a read error, reported */
} source_read_result;

/* Reads what is there, without blocking (standard input stays blocking:
 * its flags are shared with the process that gave it; it is polled). */
source_read_result source_read(source *s, unsigned char *buf, size_t size,
                               size_t *n);

/* Whether the input is a file open at its start (nothing read since it
 * was opened or started over): its first read may be the caller's, whole
 * (hp2x_parser_feed_fd), then told with source_consumed. */
int source_at_file_start(const source *s);

/* n bytes of the input read by the caller from the source's fd. */
void source_consumed(source *s, long long n);

/* At the run's end: EXIT_BAD_INPUT when the input never came (a service
 * never reached, a file never opened), said now unless it was said
 * already; else EXIT_OK. */
int source_end(const source *s);

/* Whether the input is a service. */
int source_is_service(const source *s);

/* Sleeps until the input may have news (a change in a file's directory,
 * bytes on a stream), `timeout_s` passes, or a stop signal comes. */
void source_wait(const source *s, double timeout_s);

/* Closes what the source opened. */
void source_close(source *s);

#endif
