/* view_pick.c -- the part of a profile the tool draws: the time window of
 * --from/--to, or of the markers --from-marker/--to-marker name, and the
 * x axis of sample numbers of --x=index, each a view the library makes;
 * for a format of one census (pprof), the census in that window that
 * --at, --watch or the peak names, which the library chooses.  Reports
 * what is wrong with a window or a census through messages.c.
 */
#include "view_pick.h"

#include "util/messages.h"
#include "util/status.h"

#include <math.h>

/* The window's bounds in seconds, from the times and markers given.
 * Returns an exit status. */
static int find_window_bounds(const tool_view *v, const char *display,
                              const hp2x_profile *p, double *lo_s,
                              double *hi_s) {
  double lo = v->from_given ? v->from_s : -INFINITY;
  double hi = v->to_given ? v->to_s : INFINITY;
  if (v->from_marker) {
    long m = hp2x_profile_find_mark(p, v->from_marker, -INFINITY);
    if (m < 0) {
      msg_errorf("%s: no marker '%s' (--from-marker)", display, v->from_marker);
      return EXIT_BAD_INPUT;
    }
    lo = hp2x_profile_mark_time(p, (size_t)m);
  }
  if (v->to_marker) {
    long m = hp2x_profile_find_mark(p, v->to_marker, lo);
    if (m < 0) {
      msg_errorf("%s: no marker '%s' at or after the window's start "
                 "(--to-marker)",
                 display, v->to_marker);
      return EXIT_BAD_INPUT;
    }
    hi = hp2x_profile_mark_time(p, (size_t)m);
  }
  if (lo > hi) {
    msg_errorf("%s: the window starts (%g s) after it ends (%g s)", display, lo,
               hi);
    return EXIT_BAD_INPUT;
  }
  *lo_s = lo;
  *hi_s = hi;
  return EXIT_OK;
}

/* The samples of the window; *w owned by the caller. */
static int cut_window(const tool_view *v, const char *display,
                      const hp2x_profile *p, hp2x_profile **w) {
  double lo, hi;
  int rc = find_window_bounds(v, display, p, &lo, &hi);
  if (rc != EXIT_OK) return rc;
  hp2x_err err;
  hp2x_err_init(&err);
  if (hp2x_profile_window(p, lo, hi, w, &err) != HP2X_OK) {
    msg_report(display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  if (hp2x_profile_sample_count(*w) == 0) {
    msg_errorf("%s: no samples between %g s and %g s", display, lo, hi);
    hp2x_profile_free(*w);
    *w = NULL;
    return EXIT_BAD_INPUT;
  }
  return EXIT_OK;
}

int view_pick_census(const tool_view *v, int watch, const char *display,
                     const hp2x_profile *p, hp2x_census_choice *c) {
  hp2x_census_choice_init(c);
  int rc = find_window_bounds(v, display, p, &c->from_s, &c->to_s);
  if (rc != EXIT_OK) return rc;
  if (v->at_given) {
    c->rule = HP2X_CENSUS_AT;
    c->at_s = v->at_s;
  } else if (watch) {
    c->rule = HP2X_CENSUS_LAST;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  size_t s;
  hp2x_status st = hp2x_census_choose(p, c, &s, &err);
  /* --at pinned to its census's own time: the same census then in a view
   * of the window, whose first census may come after --at's time */
  if (st == HP2X_OK && v->at_given) c->at_s = hp2x_profile_sample_time(p, s);
  if (st == HP2X_OK) return EXIT_OK;
  if (st == HP2X_E_ARG && v->at_given)
    return msg_usagef("%s: --at: %s", display, err.msg);
  msg_report(display, &err, NULL);
  return msg_exit_status(st);
}

int view_pick(const tool_view *v, const char *display, const hp2x_profile *p,
              hp2x_profile **view) {
  *view = NULL;
  int window = v->from_given || v->to_given || v->from_marker || v->to_marker;
  if (!window && !v->x_index) return EXIT_OK;
  hp2x_profile *w = NULL;
  if (window) {
    int rc = cut_window(v, display, p, &w);
    if (rc != EXIT_OK) return rc;
  }
  if (v->x_index) {
    hp2x_err err;
    hp2x_err_init(&err);
    hp2x_profile *ix = NULL;
    hp2x_status st = hp2x_profile_by_index(w ? w : p, &ix, &err);
    hp2x_profile_free(w);
    if (st != HP2X_OK) {
      msg_report(display, &err, NULL);
      return EXIT_BAD_INPUT;
    }
    w = ix;
  }
  *view = w;
  return EXIT_OK;
}
