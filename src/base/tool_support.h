/* tool_support.h -- what the hp2x tool uses of libhp2x beyond the public
 * API, kept out of include/hp2x.h because a library user does not need it:
 * output files written beside their target and renamed into place
 * (outfile.c), and freeing a finished profile's entries once its bands are
 * chosen (profile.c), and the table of output formats (format.h).  Never
 * installed.
 */
#ifndef HPX_TOOL_SUPPORT_H
#define HPX_TOOL_SUPPORT_H

#include "hp2x.h"
#include "format.h" /* the table of output formats */

/* An output written to a temporary file in the target's directory and
 * renamed into place by hpx_outfile_commit; never half-written. */
typedef struct hpx_outfile hpx_outfile;

/* Opens a temporary file beside `path`.  HP2X_E_IO with the reason. */
hp2x_status hpx_outfile_open(const char *path, hpx_outfile **out,
                              hp2x_err *err);
/* A write function and closure for hp2x_render & co. */
int hpx_outfile_write(void *outfile, const void *buf, size_t len);
/* Writes out what is buffered and closes the file, keeping the handle
 * (and the temporary file) for hpx_outfile_commit or _abort: the step
 * where a write can still fail, so that a set of outputs can finish every
 * file before it renames any.  HP2X_E_IO with the reason; a second call
 * does nothing. */
hp2x_status hpx_outfile_finish(hpx_outfile *f, hp2x_err *err);
/* Finishes the file if that was not done, then renames it into place;
 * on failure removes the temporary file.  Frees the handle in all cases.
 * (No fsync: the rename makes the output appear whole, not durable.) */
hp2x_status hpx_outfile_commit(hpx_outfile *f, hp2x_err *err);
/* The temporary file's path (NULL when writing in place, e.g. to a device);
 * for a signal handler that must remove it.  Borrowed from the handle. */
const char *hpx_outfile_temp_path(const hpx_outfile *f);
/* Removes the temporary file; frees the handle.  abort(NULL) does nothing. */
void hpx_outfile_abort(hpx_outfile *f);

/* Frees the per-entry values, the bulk of a big profile's memory, for a
 * caller that has selected its bands and still needs what drawing reads
 * from the profile: header, sample times, labels, marks, heap series and
 * warnings stay.  Afterwards hp2x_bands_select(_many), the views and
 * hp2x_write_hp fail with HP2X_E_ARG, and hp2x_profile_value returns 0.
 * Only for a finished profile: never one a parser is still filling. */
void hpx_profile_drop_entries(hp2x_profile *p);

#endif
