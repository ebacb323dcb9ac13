/* outfile.h -- the tool's output files (outfile.c): written to a temporary
 * file in the target's directory and renamed into place, so that an output
 * is never half-written.  outset.c writes a run's files through it.
 */
#ifndef HP2X_TOOL_OUTFILE_H
#define HP2X_TOOL_OUTFILE_H

#include "hp2x.h"

#include <sys/stat.h>

/* An output written to a temporary file in the target's directory and
 * renamed into place by outfile_commit; never half-written. */
typedef struct outfile outfile;

/* Opens the output `path`: a temporary file beside the file it names (a
 * symbolic link's target), renamed over it by outfile_commit; or, for
 * what cannot be replaced (a device, a pipe, the file a descriptor of
 * outfile_std_output writes to), the target itself.  HP2X_E_IO with the
 * reason, HP2X_E_NOMEM. */
hp2x_status outfile_open(const char *path, outfile **out, hp2x_err *err);
/* The descriptor the process already writes to the file at path (whose
 * stat is st) through: its standard output or error, or N for a path
 * that is or leads through /dev/fd/N or /proc/self/fd/N (open for
 * writing); -1 when none.  outfile_open writes such a file through a copy
 * of that descriptor, at its offset, rather than replace it. */
int outfile_std_output(const char *path, const struct stat *st);
/* A write function and closure for hp2x_render & co. */
int outfile_write(void *file, const void *buf, size_t len);
/* Writes out what is buffered and closes the file, keeping the handle
 * (and the temporary file) for outfile_commit or _abort: the step where a
 * write can still fail, so that a set of outputs can finish every file
 * before it renames any.  HP2X_E_IO with the reason; a second call does
 * nothing. */
hp2x_status outfile_finish(outfile *f, hp2x_err *err);
/* Finishes the file if that was not done, then renames it into place; on
 * failure removes the temporary file.  Frees the handle in all cases.
 * (No fsync: the rename makes the output appear whole, not durable.) */
hp2x_status outfile_commit(outfile *f, hp2x_err *err);
/* A reference to the file at path that a commit's rename would replace,
 * held so that the system lets go of its pages when tuning_let_go_file
 * closes it rather than in the rename; -1 when none is held (not planned:
 * util/tuning.h's tuning_lets_go_beside; not a regular file of one link
 * of 1 MiB or more on a local filesystem; not Linux, or PORTABLE=1).
 * outfile_commit's; open to tests. */
int outfile_hold_replaced(const char *path);
/* The temporary file's path (NULL when writing in place, e.g. to a
 * device); for a signal handler that must remove it.  Borrowed from the
 * handle. */
const char *outfile_temp_path(const outfile *f);
/* Removes the temporary file; frees the handle.  abort(NULL) does
 * nothing. */
void outfile_abort(outfile *f);

#endif
