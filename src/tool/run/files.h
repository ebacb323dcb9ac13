/* files.h -- the files a run of one input writes, as one of its outputs
 * (files.c): the output file and, as hp2ps does beside a picture, its .aux.
 */
#ifndef HPX_TOOL_FILES_H
#define HPX_TOOL_FILES_H

#include "run.h"

/* r's files as an output, in *f (which must live as long as the run):
 * r->names.output (a picture, a table, a conversion, or one census) and,
 * when r->names.write_aux, r->names.aux_path, written as one set.  Returns
 * &f->base. */
typedef struct files_output {
  tool_output base;
  const tool_run *run;
} files_output;
tool_output *files_output_init(files_output *f, const tool_run *r);

#endif
