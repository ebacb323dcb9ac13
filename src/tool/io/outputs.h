/* outputs.h -- a run's outputs (outputs.c): where each redraw of one input
 * goes -- the files it writes, the server that shows it -- behind one
 * interface, so that the run publishes to its outputs without knowing
 * which they are.  An output is a struct whose first member is a
 * `tool_output` pointing at its kind's functions.
 */
#ifndef HPX_TOOL_OUTPUTS_H
#define HPX_TOOL_OUTPUTS_H

#include <stddef.h>

#include "hp2x.h"

/* The input's state, for the outputs that show it. */
typedef enum input_state {
  INPUT_WAITING,   /* not open or not connected yet */
  INPUT_CONNECTED, /* open, or a service connected */
  INPUT_CLOSED     /* ended: the last picture is final */
} input_state;

/* What one redraw publishes.  The profiles and bands are the run's: an
 * output copies what it keeps. */
typedef struct output_frame {
  const hp2x_profile *whole; /* the profile read: a census is chosen in
                                the whole of it */
  const hp2x_profile *shown; /* what is drawn: `whole`, or a view of it */
  const hp2x_bands *bands;   /* shown's bands; NULL: none (.hp output) */
  hp2x_profile *drop[2];     /* profiles whose entries are dropped once
                                the outputs that copy have copied (the
                                bands hold what drawing needs); NULL none */
} output_frame;

typedef struct tool_output tool_output;

typedef struct output_kind {
  /* Publishes a redraw; returns an exit status, reported. */
  int (*publish)(tool_output *o, const output_frame *f);
  /* The input's state changed. */
  void (*input_state)(tool_output *o, input_state state);
  /* The run is over (`run_ok`: it succeeded); frees o. */
  void (*finish)(tool_output *o, int run_ok);
} output_kind;

struct tool_output {
  const output_kind *kind;
  int wants_view; /* draws `shown` (else only `whole`) */
  int copies;     /* copies what it keeps as it is published, so it comes
                     before the entries are dropped */
};

/* The outputs of a run, in the order they were added. */
enum { OUTPUTS_MAX = 2 };
typedef struct tool_outputs {
  tool_output *list[OUTPUTS_MAX];
  size_t n;
} tool_outputs;

/* Adds o (n < OUTPUTS_MAX). */
void outputs_add(tool_outputs *all, tool_output *o);

/* Whether any output draws a view (else the whole profile will do). */
int outputs_want_view(const tool_outputs *all);

/* Publishes f to every output: those that copy, then f's drops, then the
 * others.  Returns the first failure's exit status; an output that comes
 * after a failure is not published to. */
int outputs_publish(const tool_outputs *all, const output_frame *f);

/* Tells every output the input's state. */
void outputs_input_state(const tool_outputs *all, input_state state);

/* Ends and frees every output, the last added first. */
void outputs_finish(tool_outputs *all, int run_ok);

#endif
