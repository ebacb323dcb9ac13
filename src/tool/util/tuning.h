/* tuning.h -- process-wide set-up that makes runs faster or sturdier
 * without changing their output (tuning.c).  run/entry.c plans and applies
 * it once; the one call from elsewhere is tuning_release_reserve, at the
 * point where drawing begins (run/files.c).
 */
#ifndef HPX_TOOL_TUNING_H
#define HPX_TOOL_TUNING_H

/* What a run asks of the process, decided once from the command line. */
typedef struct tuning_plan {
  int warm_fonts;         /* a picture will be drawn: load the fonts on the
                             other core while the input is read */
  const char *fonts_conf; /* the fonts to warm (hp2x_options.fonts_conf) */
  const char *input;      /* the one input's path ("-": standard input), or
                             NULL; a big file loads the fonts first */
  int hold_reserve;       /* keep the drawing reserve until
                             tuning_release_reserve */
  int keep_freed_memory;  /* watch mode: glibc keeps freed big blocks;
                             otherwise its mmap threshold stays put */
  int let_go_beside;      /* a one-shot run on more than one thread
                             (--jobs): tuning_let_go_file closes, and
                             tuning_write_back writes back, on a
                             thread */
} tuning_plan;

/* Applies the plan; call once, before the run. */
void tuning_apply(const tuning_plan *plan);

/* Gives the drawing reserve back: call just before drawing.  Idempotent. */
void tuning_release_reserve(void);

/* Closes fd, a file an output replaced (outfile.c): when the plan lets go
 * beside the run (let_go_beside), on a thread of its own (one for the run,
 * started by the first call of this or of tuning_write_back, every signal
 * blocked in it), since the close of a replaced file's last reference is
 * when the system lets go of its cached pages (milliseconds for a big
 * one), while the run's end goes on (its memory freed); else, or when no
 * thread starts or its 16 jobs are waiting, here. */
void tuning_let_go_file(int fd);

/* Starts the system's writing back of bytes [from, to) of fd (an output
 * file's, still open), where the plan lets go beside the run, on the same
 * thread, after what it was given before (with a copy of fd: the caller
 * may close fd meanwhile); elsewhere nothing.  A hint: a rename replacing
 * a file on ext4 or btrfs starts the writeback of all of the new file's
 * dirty pages, there and then (outfile.c starts it as the file is
 * written). */
void tuning_write_back(int fd, long long from, long long to);

/* Whether tuning_let_go_file closes beside the run. */
int tuning_lets_go_beside(void);

/* Waits for the font thread and for the let-go thread's work (what
 * tuning_let_go_file closes, the writebacks tuning_write_back starts and
 * their copies of descriptors closed), and releases the reserve; call
 * once, after the run. */
void tuning_finish(void);

#endif
