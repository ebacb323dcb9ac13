/* eventlog_serve.c -- serves a Haskell program's eventlog to one client at
 * a time, on a Unix socket and on TCP (127.0.0.1 only), the way
 * eventlog-socket does.  Test support for hp2x's live inputs
 * (tests/live/README.md); it is linked into a GHC program built with
 * -no-hs-main, and its main() replaces GHC's.
 *
 * The RTS writes its eventlog through an EventLogWriter
 * (rts/EventLogWriter.h) given in RtsConfig.eventlog_writer; with +RTS -l
 * the RTS starts logging through it at start-up.  Ours sends every buffer
 * the RTS hands it to the connected client, or drops it when no client is
 * connected.
 *
 *   HP2X_EVENTLOG_SOCKET=PATH  listen on the Unix socket PATH (removed at
 *                              exit)
 *   HP2X_EVENTLOG_TCP=PORT     listen on 127.0.0.1:PORT (0: any free port)
 *   HP2X_EVENTLOG_WAIT=1       wait for a first client before the program
 *                              starts; that client receives the stream
 *                              from the program's start
 *
 * On stderr: "eventlog_serve: listening on unix:PATH" / "... on
 * tcp:127.0.0.1:PORT", once each, before the program runs (test scripts
 * wait for these lines).
 *
 * A client that connects while logging is running receives a restarted
 * stream: the listener thread calls endEventLogging() (the previous
 * client, if any, gets the events still buffered and the data-end marker,
 * then is closed) and startEventLogging(), which writes a fresh header and
 * the runtime's init events to the new client.  Events follow as the
 * runtime flushes them (+RTS --eventlog-flush-interval=SECONDS).
 *
 * Writes never block the program for long: sends use MSG_NOSIGNAL (no
 * SIGPIPE) and do not block; a client that has gone away, or has not taken
 * a whole buffer SEND_TIMEOUT_S after it was handed over, is dropped.  (A
 * restart flushes to the old client first, so a slow old client delays the
 * new client's header by up to SEND_TIMEOUT_S.)
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "Rts.h"
#include "RtsAPI.h"

#define SEND_TIMEOUT_S 2

/* The program's Main.main, as GHC names it. */
extern StgClosure ZCMain_main_closure;

/* The connected client, or -1.  client_lock orders the RTS's writes (which
 * may come from several capabilities at once) and the listener's changes of
 * client. */
static pthread_mutex_t client_lock = PTHREAD_MUTEX_INITIALIZER;
static int client_fd = -1;

/* Held across a restart of logging; the program's exit takes it for good, so
 * that no restart runs while the runtime shuts down. */
static pthread_mutex_t restart_lock = PTHREAD_MUTEX_INITIALIZER;

static int unix_listen_fd = -1;
static int tcp_listen_fd = -1;
static const char *unix_path;

static void drop_client_locked(void) {
  if (client_fd >= 0) close(client_fd);
  client_fd = -1;
}

/* Milliseconds from now until deadline (CLOCK_MONOTONIC), at least 0. */
static int ms_until(const struct timespec *deadline) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long ms = (deadline->tv_sec - now.tv_sec) * 1000 +
            (deadline->tv_nsec - now.tv_nsec) / 1000000;
  return ms > 0 ? (int)ms : 0;
}

/* EventLogWriter.writeEventLog: send all of one buffer within SEND_TIMEOUT_S,
 * or drop the client.  Always reports success: the RTS complains on every
 * failed write, and a missing client is not a failure of the program. */
static bool serve_write(void *eventlog, size_t size) {
  const char *bytes = eventlog;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += SEND_TIMEOUT_S;
  pthread_mutex_lock(&client_lock);
  while (client_fd >= 0 && size > 0) {
    ssize_t sent = send(client_fd, bytes, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      bytes += sent;
      size -= (size_t)sent;
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      struct pollfd out = {.fd = client_fd, .events = POLLOUT};
      int wait_ms = ms_until(&deadline);
      if (wait_ms > 0 && (poll(&out, 1, wait_ms) >= 0 || errno == EINTR))
        continue; /* room, an error for the next send, or time to check */
    }
    drop_client_locked(); /* EPIPE, ECONNRESET, or too slow */
  }
  pthread_mutex_unlock(&client_lock);
  return true;
}

/* EventLogWriter.stopEventLogWriter: logging ended (a restart, or the
 * program's exit): the client has had everything, close it. */
static void serve_stop(void) {
  pthread_mutex_lock(&client_lock);
  drop_client_locked();
  pthread_mutex_unlock(&client_lock);
}

static const EventLogWriter serve_writer = {
    .initEventLogWriter = NULL,
    .writeEventLog = serve_write,
    /* serve_write sends at once: nothing is buffered here */
    .flushEventLog = NULL,
    .stopEventLogWriter = serve_stop,
};

static void set_client(int fd) {
  pthread_mutex_lock(&client_lock);
  drop_client_locked();
  client_fd = fd;
  pthread_mutex_unlock(&client_lock);
}

/* A client connected while the program runs: restart logging so that it gets
 * a header. */
static void take_client(int fd) {
  pthread_mutex_lock(&restart_lock);
  if (eventLogStatus() == EVENTLOG_RUNNING) {
    endEventLogging(); /* the previous client gets the rest, then serve_stop */
    set_client(fd);
    if (!startEventLogging(&serve_writer))
      fprintf(stderr, "eventlog_serve: could not restart logging\n");
  } else {
    set_client(fd); /* not logging (no +RTS -l): nothing will be sent */
  }
  pthread_mutex_unlock(&restart_lock);
}

static int accept_from(int listen_fd) {
  int fd;
  do fd = accept(listen_fd, NULL, NULL);
  while (fd < 0 && errno == EINTR);
  return fd;
}

/* The listener thread: accepts clients on both sockets for as long as the
 * program runs. */
static void *listen_loop(void *unused) {
  (void)unused;
  struct pollfd fds[2] = {{.fd = unix_listen_fd, .events = POLLIN},
                          {.fd = tcp_listen_fd, .events = POLLIN}};
  for (;;) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      perror("eventlog_serve: poll");
      return NULL;
    }
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & POLLIN)) continue;
      int fd = accept_from(fds[i].fd);
      if (fd >= 0) take_client(fd);
    }
  }
}

static int listen_unix(const char *path) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof addr.sun_path) {
    fprintf(stderr, "eventlog_serve: socket path too long: %s\n", path);
    exit(1);
  }
  strcpy(addr.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  unlink(path);
  if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
      listen(fd, 4) < 0) {
    perror("eventlog_serve: unix socket");
    exit(1);
  }
  fprintf(stderr, "eventlog_serve: listening on unix:%s\n", path);
  return fd;
}

static int listen_tcp(const char *port_text) {
  struct sockaddr_in addr = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)atoi(port_text)),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof addr;
  int one = 1;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 ||
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
      bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
      listen(fd, 4) < 0 ||
      getsockname(fd, (struct sockaddr *)&addr, &len) < 0) {
    perror("eventlog_serve: tcp socket");
    exit(1);
  }
  fprintf(stderr, "eventlog_serve: listening on tcp:127.0.0.1:%d\n",
          ntohs(addr.sin_port));
  return fd;
}

static void remove_unix_socket(void) {
  if (unix_path) unlink(unix_path);
}

/* Waits for the first client on either socket (HP2X_EVENTLOG_WAIT). */
static void wait_first_client(void) {
  struct pollfd fds[2] = {{.fd = unix_listen_fd, .events = POLLIN},
                          {.fd = tcp_listen_fd, .events = POLLIN}};
  fprintf(stderr, "eventlog_serve: waiting for a client\n");
  while (client_fd < 0) {
    if (poll(fds, 2, -1) < 0 && errno != EINTR) return;
    for (int i = 0; i < 2 && client_fd < 0; i++)
      if (fds[i].fd >= 0 && (fds[i].revents & POLLIN)) {
        int fd = accept_from(fds[i].fd);
        if (fd >= 0) set_client(fd);
      }
  }
}

/* As GHC's hs_main, with the writer set, and with restarts stopped before the
 * exit.  (A program that leaves through exitWith shuts the runtime down from
 * Haskell, past this guard; longrun returns from main.) */
int main(int argc, char *argv[]) {
  const char *tcp_port = getenv("HP2X_EVENTLOG_TCP");
  const char *wait = getenv("HP2X_EVENTLOG_WAIT");
  unix_path = getenv("HP2X_EVENTLOG_SOCKET");
  if (unix_path && *unix_path) {
    unix_listen_fd = listen_unix(unix_path);
    atexit(remove_unix_socket);
  }
  if (tcp_port && *tcp_port) tcp_listen_fd = listen_tcp(tcp_port);
  if (wait && strcmp(wait, "1") == 0 &&
      (unix_listen_fd >= 0 || tcp_listen_fd >= 0))
    wait_first_client();

  RtsConfig config = defaultRtsConfig;
  config.rts_opts_enabled = RtsOptsAll;
  config.eventlog_writer = &serve_writer;
  hs_init_ghc(&argc, &argv, config);

  pthread_t listener;
  if ((unix_listen_fd >= 0 || tcp_listen_fd >= 0) &&
      pthread_create(&listener, NULL, listen_loop, NULL) != 0) {
    fprintf(stderr, "eventlog_serve: no listener thread\n");
    return 1;
  }

  Capability *cap = rts_lock();
  rts_evalLazyIO(&cap, &ZCMain_main_closure, NULL);
  SchedulerStatus status = rts_getSchedStatus(cap);
  rts_unlock(cap);

  /* held until exit: no restart during shutdown */
  pthread_mutex_lock(&restart_lock);
  int exit_status = EXIT_SUCCESS;
  switch (status) {
  case Success: exit_status = EXIT_SUCCESS; break;
  case Killed:
    errorBelch("main thread exited (uncaught exception)");
    exit_status = EXIT_KILLED;
    break;
  case Interrupted:
    errorBelch("interrupted");
    exit_status = EXIT_INTERRUPTED;
    break;
  case HeapExhausted: exit_status = EXIT_HEAPOVERFLOW; break;
  default:
    errorBelch("main thread ended with status %d", (int)status);
    exit_status = EXIT_FAILURE;
    break;
  }
  shutdownHaskellAndExit(exit_status, 0);
}
