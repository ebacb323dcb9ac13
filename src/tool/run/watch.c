/* watch.c -- watch mode: follows a profile that is still being written and
 * re-renders it whenever new complete samples arrive, at most once per
 * --interval.  The loop: check the input source (io/source.c: a file, a
 * pipe or a service; opened, reopened, connected, its problems said once),
 * read and parse what is new, render when due, wait.  The parser and its
 * model live across updates, so each update reads and parses only the new
 * bytes, and a follower (the library's hp2x_follower) keeps the bands, so
 * it selects and draws at the cost of the new samples.  A file that starts
 * over gets a new parser.  Each redraw is published to the run's outputs
 * (selection.c); a file that cannot be written keeps the previous picture
 * and is tried again.  SIGINT/SIGTERM/SIGHUP, a stream's end, an eventlog's
 * end-of-data marker or --idle-exit end the run after a final render.
 * --tee (io/tee.c) keeps what a service sends, cut back to the last whole
 * event at the end.  Without --watch a service is read the same way and
 * drawn once, at its end.
 */
#include "run.h"

#include "selection.h"
#include "io/inputs.h"
#include "io/outset.h"
#include "io/source.h"
#include "io/tee.h"
#include "io/wakeup.h"
#include "util/messages.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { READ_CHUNK = 1 << 16 };

typedef struct watch_state {
  tool_run *r;
  source src;              /* the input */
  tee tee;                 /* --tee's file */
  msg_notes notes;         /* --quiet, and whether a status line is drawn */
  hp2x_parser *parser;     /* owned */
  hp2x_follower *follow;   /* the parser's growing profile's bands; owned */
  long generation;         /* restarts so far */
  input_state published;   /* the input's state as the outputs know it */
  size_t rendered_samples; /* samples in the last render; (size_t)-1 none */
  long rendered_generation;
  double last_render_s;
  double last_growth_s;
  long renders;
  long long last_output_bytes;
  int output_failing; /* the last render's output could not be written */
} watch_state;

/* The status line about p: the profile being read, or the finished one
 * (the parser holds none after hp2x_parser_finish). */
static void show_status(watch_state *w, const hp2x_profile *p,
                        const char *what) {
  if (!w->notes.status_line) return;
  size_t read = hp2x_profile_samples_read(p),
         held = hp2x_profile_sample_count(p);
  char kept[64] = "";
  if (held < read) /* a bounded profile (profile_bound.c) */
    snprintf(kept, sizeof kept, " (%zu held for the picture)", held);
  msg_status_show("%s: %zu samples%s, %lld bytes read, %ld renders, output "
                  "%lld bytes%s%s",
                  w->r->names.display, read, kept, w->src.offset, w->renders,
                  w->last_output_bytes, what ? " - " : "", what ? what : "");
}

static int new_parser(watch_state *w) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_parser_free(w->parser);
  const char *display = w->r->names.display;
  w->parser = hp2x_parser_new(display, &w->r->args->parse, &err);
  if (!w->parser) {
    msg_report(display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  hp2x_follower_reset(w->follow); /* a new profile */
  w->generation++;
  return EXIT_OK;
}

/* Tells the outputs when the input's state changed: connected once it is
 * open, closed once a stream ended. */
static void publish_input_state(watch_state *w) {
  if (w->src.fd < 0) return;
  input_state now = w->src.eof ? INPUT_CLOSED : INPUT_CONNECTED;
  if (now != w->published) outputs_input_state(&w->r->outs, now);
  w->published = now;
}

/* What source_check found: a service reached, or a file to read from its
 * start with a new parser. */
static int check_source(watch_state *w) {
  source_change change;
  int rc = source_check(&w->src, &change);
  publish_input_state(w);
  if (rc != EXIT_OK || change == SOURCE_SAME) return rc;
  w->last_growth_s = wakeup_now_s();
  return change == SOURCE_RESTARTED ? new_parser(w) : EXIT_OK;
}

/* A file's first read, from its start for a new parser: on --jobs
 * threads (the library reads big pieces in parts), never through a memory
 * map, since a file that shrinks under a mapping kills the process with
 * SIGBUS.  Returns an exit status, or RUN_GOES_ON. */
static int read_file_start(watch_state *w) {
  hp2x_err err;
  hp2x_err_init(&err);
  long long before = hp2x_parser_bytes(w->parser);
  if (hp2x_parser_feed_fd(w->parser, w->src.fd, HP2X_FEED_NO_MAP, &err) !=
      HP2X_OK) {
    if (w->notes.status_line) msg_status_end();
    msg_report(w->r->names.display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  long long n = hp2x_parser_bytes(w->parser) - before;
  if (n > 0) {
    source_consumed(&w->src, n);
    w->last_growth_s = wakeup_now_s();
  }
  return RUN_GOES_ON;
}

/* Reads and feeds whatever is new.  Returns an exit status, or
 * RUN_GOES_ON. */
static int read_new_bytes(watch_state *w, unsigned char *buf) {
  if (source_at_file_start(&w->src)) {
    int rc = read_file_start(w);
    if (rc != RUN_GOES_ON || wakeup_stop_signal()) return rc;
  }
  for (;;) {
    /* A writer faster than us: the stop still comes. */
    if (wakeup_stop_signal()) return RUN_GOES_ON;
    size_t n;
    source_read_result r = source_read(&w->src, buf, READ_CHUNK, &n);
    if (r == SOURCE_AGAIN) continue;
    if (r == SOURCE_FAILED) return EXIT_BAD_INPUT;
    if (r == SOURCE_NONE) return RUN_GOES_ON;
    tee_bytes(&w->tee, buf, n);
    hp2x_err err;
    hp2x_err_init(&err);
    if (hp2x_parser_feed(w->parser, buf, n, &err) != HP2X_OK) {
      if (w->notes.status_line) msg_status_end();
      msg_report(w->r->names.display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    w->last_growth_s = wakeup_now_s();
  }
}

/* Renders p unless it was rendered already.  An output that cannot be
 * written (said once by outset.c) keeps the previous picture: the watch
 * goes on, and tries again at the next turn, unless `last`. */
static int render_update(watch_state *w, const hp2x_profile *p, int last) {
  size_t n = hp2x_profile_samples_read(p); /* only grows, held or not */
  if (w->rendered_generation == w->generation && w->rendered_samples == n)
    return EXIT_OK; /* never the same data twice */
  if (hp2x_profile_job(p)[0] == '\0' && n == 0) return EXIT_OK; /* no header */
  /* An eventlog whose program has not begun its heap profile yet. */
  if (!hp2x_profile_has_heap_profile(p)) return EXIT_OK;
  const char *output = w->r->names.output;
  int rc = selection_view_and_write(w->r, p, NULL, w->follow);
  if (rc != EXIT_OK && outset_last_outcome() == OUTSET_OUTPUT_FAILED && !last) {
    if (!w->output_failing)
      msg_note(&w->notes, "%s: the previous picture stays; trying again",
               output);
    w->output_failing = 1;
    w->last_render_s = wakeup_now_s(); /* try again in an interval */
    return EXIT_OK;
  }
  if (rc != EXIT_OK) return rc;
  if (w->output_failing) msg_note(&w->notes, "%s: written again", output);
  w->output_failing = 0;
  w->rendered_samples = n;
  w->rendered_generation = w->generation;
  w->last_render_s = wakeup_now_s();
  w->renders++;
  struct stat st;
  if (output && stat(output, &st) == 0) w->last_output_bytes = st.st_size;
  show_status(w, p, NULL);
  return EXIT_OK;
}

/* A service's stream that stopped inside an event: one warning (one that
 * stops between events is a service that ended or dropped us). */
static void note_cut_event(watch_state *w, const hp2x_profile *p) {
  if (!source_is_service(&w->src) || w->notes.quiet ||
      hp2x_parser_at_end(w->parser))
    return;
  long long whole = hp2x_parser_whole_bytes(w->parser);
  if (whole >= w->src.offset) return;
  hp2x_err e;
  hp2x_err_init(&e);
  e.offset = whole;
  snprintf(e.msg, sizeof e.msg,
           "the connection closed inside an event (%lld bytes of it "
           "received); using the %zu complete samples",
           w->src.offset - whole, hp2x_profile_samples_read(p));
  msg_report(w->r->names.display, &e, "warning");
}

/* The last render, from the finished parse (an incomplete sample dropped). */
static int render_final(watch_state *w) {
  int rc = source_end(&w->src);
  if (rc != EXIT_OK) return rc;
  const char *display = w->r->names.display;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  if (hp2x_parser_finish(w->parser, &p, &err) != HP2X_OK) {
    if (w->notes.status_line) msg_status_end();
    /* A header still incomplete at the end: nothing to draw. */
    msg_report(display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  rc = render_update(w, p, 1);
  if (w->notes.status_line) {
    show_status(w, p, "done");
    msg_status_end();
  }
  const tool_args *a = w->r->args;
  if (!a->quiet)
    inputs_warn_profile(display, p, &a->opts, source_is_service(&w->src));
  note_cut_event(w, p);
  hp2x_profile_free(p);
  return rc;
}

/* The state before the first read: --tee's file, the follower, the first
 * parser and the input source.  Returns an exit status, reported. */
static int start_watch(watch_state *w, tool_run *r) {
  const tool_args *a = r->args;
  memset(w, 0, sizeof *w);
  w->r = r;
  w->src.fd = -1;
  w->src.change_fd = -1;
  w->rendered_samples = (size_t)-1;
  w->rendered_generation = -1;
  w->notes.quiet = a->quiet;
  w->notes.status_line = !a->quiet && isatty(STDERR_FILENO);
  int rc = tee_open(&w->tee, a->watch.tee_path);
  if (rc != EXIT_OK) return rc;
  hp2x_err err;
  hp2x_err_init(&err);
  w->follow = hp2x_follower_new(&err);
  if (!w->follow) {
    msg_errorf("out of memory");
    return EXIT_BAD_INPUT;
  }
  rc = new_parser(w);
  source_spec spec = {r->names.input,      r->names.display, &a->service,
                      a->watch.interval_s, a->watch.on,      &w->notes};
  if (rc == EXIT_OK) rc = source_open(&w->src, &spec);
  publish_input_state(w);
  w->last_growth_s = wakeup_now_s();
  return rc;
}

/* Sleeps until something changes, `wait_s` (the rest of the interval, or
 * 0 for a whole one) ends, the idle timeout, or a stop signal; with no
 * file-change wakeups, polls at the interval.  Even when woken early it
 * renders no more often than --interval (reading goes on at once). */
static void wait_for_change(watch_state *w, double wait_s) {
  const tool_watch *o = &w->r->args->watch;
  double sleep_s = wait_s > 0 ? wait_s : o->interval_s;
  if (o->idle_exit_s > 0) {
    double idle_left = o->idle_exit_s - (wakeup_now_s() - w->last_growth_s);
    if (idle_left < sleep_s) sleep_s = idle_left > 0 ? idle_left : 0;
  }
  source_wait(&w->src, sleep_s);
}

/* One turn of the watch: reads what is new, renders when due, then waits.
 * Returns an exit status when the run is over, else RUN_GOES_ON. */
static int advance_watch(watch_state *w, unsigned char *buf) {
  const tool_watch *o = &w->r->args->watch;
  int rc = check_source(w);
  if (rc != EXIT_OK) return rc;
  rc = read_new_bytes(w, buf);
  publish_input_state(w);
  if (rc != RUN_GOES_ON) return rc;
  double t = wakeup_now_s();
  int ended = wakeup_stop_signal() || w->src.eof ||
              hp2x_parser_at_end(w->parser) ||
              (o->idle_exit_s > 0 && t - w->last_growth_s >= o->idle_exit_s);
  if (ended) return render_final(w);
  double wait_s = 0.0;
  if (!o->on) {
    /* A service without --watch: drawn once, at its end. */
  } else if (t - w->last_render_s >= o->interval_s || w->renders == 0) {
    rc = render_update(w, hp2x_parser_peek(w->parser), 0);
    if (rc != EXIT_OK) return rc;
  } else {
    wait_s = o->interval_s - (t - w->last_render_s);
  }
  wait_for_change(w, wait_s);
  return RUN_GOES_ON;
}

static void stop_watch(watch_state *w) {
  tee_close(&w->tee, w->parser ? hp2x_parser_whole_bytes(w->parser) : 0);
  source_close(&w->src);
  hp2x_parser_free(w->parser);
  hp2x_follower_free(w->follow);
}

int run_watch(tool_run *r) {
  /* A stop signal ends the run after a final render; a second one removes
   * the temporary files of a render in progress and kills the process. */
  wakeup_catch_stop_signals(outset_die_of_signal);
  outset_quiet_repeats();
  int rc = inputs_attach_aux(r->args->use_aux ? r->names.aux_path : NULL,
                             &r->opts, &r->aux);
  if (rc != EXIT_OK) {
    inputs_release_aux(&r->opts, &r->aux);
    wakeup_release_stop_signals();
    return rc;
  }
  unsigned char *buf = malloc(READ_CHUNK);
  rc = EXIT_BAD_INPUT;
  if (!buf) {
    msg_errorf("out of memory");
  } else {
    watch_state w;
    rc = start_watch(&w, r);
    while (rc == EXIT_OK && (rc = advance_watch(&w, buf)) == RUN_GOES_ON)
      rc = EXIT_OK;
    stop_watch(&w);
    if (rc == EXIT_OK && w.tee.failed) rc = EXIT_BAD_INPUT;
  }
  free(buf);
  inputs_release_aux(&r->opts, &r->aux);
  wakeup_release_stop_signals();
  return rc;
}
