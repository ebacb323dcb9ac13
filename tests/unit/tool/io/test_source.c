/* test_source.c -- the tool's io/source.c, the input a watch reads as it
 * grows: a file that appears, grows, shrinks, is replaced and deleted
 * (each read from where it should be, each problem said once), one never
 * opened, standard input and a FIFO as streams ended by their end, and a
 * service (a real unix socket) not up yet, with and without keep_trying,
 * then up, read and closed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "io/source.h"
#include "util/status.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "/tmp/hp2x-source-XXXXXX";
static const connect_address no_service; /* kind CONNECT_NONE */

/* ---------------------------------------------- what is said on stderr */

static int saved_stderr = -1;
static char said_path[600];

static void begin_said(void) {
  snprintf(said_path, sizeof said_path, "%s/said.txt", dir);
  fflush(stderr);
  saved_stderr = dup(STDERR_FILENO);
  int fd = open(said_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  dup2(fd, STDERR_FILENO);
  close(fd);
}

/* What was said since begin_said, in buf. */
static const char *end_said(char *buf, size_t size) {
  fflush(stderr);
  dup2(saved_stderr, STDERR_FILENO);
  close(saved_stderr);
  FILE *f = fopen(said_path, "r");
  size_t n = f ? fread(buf, 1, size - 1, f) : 0;
  buf[n] = '\0';
  if (f) fclose(f);
  unlink(said_path);
  return buf;
}

static int count(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)); p += strlen(what)) n++;
  return n;
}

/* ------------------------------------------------------------- helpers */

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void append_file(const char *path, const char *text) {
  FILE *f = fopen(path, "a");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* Reads everything there now into buf; returns the bytes read. */
static size_t read_all(source *s, char *buf, size_t size) {
  size_t got = 0, n;
  source_read_result r;
  while ((r = source_read(s, (unsigned char *)buf + got, size - got, &n)) ==
             SOURCE_DATA ||
         r == SOURCE_AGAIN)
    got += n;
  assert_int_equal(r, SOURCE_NONE);
  buf[got] = '\0';
  return got;
}

static source_change check(source *s) {
  source_change c;
  assert_int_equal(source_check(s, &c), EXIT_OK);
  return c;
}

/* --------------------------------------------------------------- files */

static void file_appears_grows_shrinks_is_replaced(void **state) {
  (void)state;
  char path[600], other[600], buf[64], said[4096];
  snprintf(path, sizeof path, "%s/p.hp", dir);
  snprintf(other, sizeof other, "%s/new.hp", dir);
  msg_notes notes = {0, 0};
  source_spec spec = {path, "p.hp", &no_service, 1.0, 1, &notes};
  source s;
  begin_said();
  assert_int_equal(source_open(&s, &spec), EXIT_OK);
  assert_false(s.is_stream);
  assert_int_equal(s.fd, -1);
  assert_int_equal(check(&s), SOURCE_SAME); /* not there: said once */
  assert_int_equal(check(&s), SOURCE_SAME);
  write_file(path, "abc");
  assert_int_equal(check(&s), SOURCE_RESTARTED); /* appeared */
  assert_int_equal(read_all(&s, buf, sizeof buf), 3);
  assert_string_equal(buf, "abc");
  append_file(path, "de");
  assert_int_equal(check(&s), SOURCE_SAME);
  assert_int_equal(read_all(&s, buf, sizeof buf), 2); /* only the new */
  assert_string_equal(buf, "de");
  assert_int_equal(s.offset, 5);
  assert_int_equal(truncate(path, 1), 0);
  assert_int_equal(check(&s), SOURCE_RESTARTED); /* shrank: from 0 */
  assert_int_equal(s.offset, 0);
  assert_int_equal(read_all(&s, buf, sizeof buf), 1);
  write_file(other, "xyz!");
  assert_int_equal(rename(other, path), 0);
  assert_int_equal(check(&s), SOURCE_RESTARTED); /* replaced */
  assert_int_equal(read_all(&s, buf, sizeof buf), 4);
  assert_string_equal(buf, "xyz!");
  unlink(path);
  assert_int_equal(check(&s), SOURCE_SAME); /* deleted: said once */
  assert_int_equal(check(&s), SOURCE_SAME);
  assert_int_equal(source_end(&s), EXIT_OK); /* it was read */
  source_close(&s);
  end_said(said, sizeof said);
  assert_int_equal(count(said, "p.hp: cannot open: No such file or "
                               "directory; waiting for it\n"),
                   1);
  assert_int_equal(count(said, "p.hp: file shrank; starting over\n"), 1);
  assert_int_equal(count(said, "p.hp: file replaced; starting over\n"), 1);
  assert_int_equal(count(said, "p.hp: deleted; the last picture stays"), 1);
  assert_int_equal(count(said, "hp2x: "), 4);
}

static void file_never_opened(void **state) {
  (void)state;
  char path[600], said[4096];
  snprintf(path, sizeof path, "%s/never.hp", dir);
  for (int quiet = 0; quiet < 2; quiet++) {
    msg_notes notes = {quiet, 0};
    source_spec spec = {path, "never.hp", &no_service, 1.0, 1, &notes};
    source s;
    begin_said();
    assert_int_equal(source_open(&s, &spec), EXIT_OK);
    assert_int_equal(check(&s), SOURCE_SAME);
    assert_int_equal(source_end(&s), EXIT_BAD_INPUT);
    source_close(&s);
    end_said(said, sizeof said);
    /* Said when it happened, or with --quiet at the end instead. */
    assert_int_equal(count(said, "never.hp: cannot open: No such file"), 1);
    assert_int_equal(count(said, "waiting for it"), !quiet);
  }
}

/* ------------------------------------------------------------- streams */

static void standard_input_ends_with_its_end(void **state) {
  (void)state;
  int p[2];
  assert_int_equal(pipe(p), 0);
  int saved = dup(STDIN_FILENO);
  dup2(p[0], STDIN_FILENO);
  close(p[0]);
  assert_int_equal(write(p[1], "hello", 5), 5);
  close(p[1]);
  msg_notes notes = {1, 0};
  source_spec spec = {"-", "<stdin>", &no_service, 1.0, 1, &notes};
  source s;
  assert_int_equal(source_open(&s, &spec), EXIT_OK);
  assert_true(s.is_stream);
  assert_int_equal(s.fd, STDIN_FILENO);
  assert_int_equal(check(&s), SOURCE_SAME);
  char buf[16];
  assert_int_equal(read_all(&s, buf, sizeof buf), 5);
  assert_true(s.eof);
  assert_int_equal(source_end(&s), EXIT_OK);
  source_close(&s);
  /* Standard input is not the source's to close. */
  assert_true(fcntl(STDIN_FILENO, F_GETFD) >= 0);
  dup2(saved, STDIN_FILENO);
  close(saved);
}

static void fifo_opened_when_a_writer_comes(void **state) {
  (void)state;
  char path[600];
  snprintf(path, sizeof path, "%s/fifo", dir);
  assert_int_equal(mkfifo(path, 0600), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) { /* the writer */
    int fd = open(path, O_WRONLY);
    ssize_t k = fd >= 0 ? write(fd, "bytes", 5) : -1;
    _exit(k == 5 ? 0 : 1);
  }
  msg_notes notes = {1, 0};
  source_spec spec = {path, "fifo", &no_service, 1.0, 1, &notes};
  source s;
  assert_int_equal(source_open(&s, &spec), EXIT_OK); /* blocks till then */
  assert_true(s.is_stream);
  int status;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_int_equal(status, 0);
  char buf[16];
  assert_int_equal(read_all(&s, buf, sizeof buf), 5);
  assert_true(s.eof); /* the writer closed it */
  source_close(&s);
  unlink(path);
}

/* ------------------------------------------------------------ services */

/* unix:DIR/NAME. */
static connect_address unix_at(const char *name) {
  connect_address ad;
  memset(&ad, 0, sizeof ad);
  ad.kind = CONNECT_UNIX;
  snprintf(ad.path, sizeof ad.path, "%s/%s", dir, name);
  return ad;
}

static void service_not_up(void **state) {
  (void)state;
  char said[4096];
  connect_address ad = unix_at("nobody.sock");
  msg_notes notes = {0, 0};
  source_spec spec = {"unix:x", "unix:x", &ad, 0.0, 0, &notes};
  source s;
  /* Without --watch, a service not up ends the run. */
  begin_said();
  assert_int_equal(source_open(&s, &spec), EXIT_BAD_INPUT);
  source_close(&s);
  end_said(said, sizeof said);
  assert_int_equal(count(said, "unix:x: cannot connect: No such file"), 1);
  /* With --watch it is waited for, tried again each retry_s (0 here). */
  spec.keep_trying = 1;
  begin_said();
  assert_int_equal(source_open(&s, &spec), EXIT_OK);
  assert_true(s.is_stream);
  assert_int_equal(s.fd, -1);
  assert_int_equal(check(&s), SOURCE_SAME);
  assert_int_equal(check(&s), SOURCE_SAME);
  assert_int_equal(source_end(&s), EXIT_BAD_INPUT); /* never reached */
  source_close(&s);
  end_said(said, sizeof said);
  assert_int_equal(count(said, "unix:x: not up yet (No such file or "
                               "directory); trying again every 0 s\n"),
                   1);
}

static void service_up_read_and_closed(void **state) {
  (void)state;
  char said[4096];
  connect_address ad = unix_at("up.sock");
  msg_notes notes = {0, 0};
  source_spec spec = {"unix:up", "unix:up", &ad, 0.0, 1, &notes};
  source s;
  begin_said();
  assert_int_equal(source_open(&s, &spec), EXIT_OK); /* not up: said */
  int l = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un sun;
  memset(&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  snprintf(sun.sun_path, sizeof sun.sun_path, "%s", ad.path);
  assert_int_equal(bind(l, (struct sockaddr *)&sun, sizeof sun), 0);
  assert_int_equal(listen(l, 1), 0);
  assert_int_equal(check(&s), SOURCE_CONNECTED);
  assert_true(s.fd >= 0);
  int c = accept(l, NULL, NULL);
  assert_true(c >= 0);
  assert_int_equal(write(c, "eventlog", 8), 8);
  close(c);
  char buf[16];
  assert_int_equal(read_all(&s, buf, sizeof buf), 8);
  assert_true(s.eof);
  assert_int_equal(check(&s), SOURCE_SAME); /* not tried again */
  assert_int_equal(source_end(&s), EXIT_OK);
  source_close(&s);
  close(l);
  unlink(ad.path);
  end_said(said, sizeof said);
  assert_int_equal(count(said, "unix:up: not up yet"), 1);
  assert_int_equal(count(said, "unix:up: connected\n"), 1);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(file_appears_grows_shrinks_is_replaced),
      cmocka_unit_test(file_never_opened),
      cmocka_unit_test(standard_input_ends_with_its_end),
      cmocka_unit_test(fifo_opened_when_a_writer_comes),
      cmocka_unit_test(service_not_up),
      cmocka_unit_test(service_up_read_and_closed),
  };
  int rc = cmocka_run_group_tests(tests, NULL, NULL);
  rmdir(dir);
  return rc;
}
