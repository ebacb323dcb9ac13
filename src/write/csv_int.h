/* csv_int.h -- private to libhp2x's write stage: the CSV of one profile
 * (csv_write.c) with its rows formatted on several threads, for
 * hp2x_write_output (hp2x_options.threads); the bytes are
 * hp2x_write_csv's whatever the number.
 */
#ifndef HPX_CSV_INT_H
#define HPX_CSV_INT_H

#include "hp2x.h"

#include <stddef.h>

hp2x_status hpx_write_csv_threads(const hp2x_profile *p, const hp2x_bands *b,
                                  size_t threads, hp2x_write_fn write,
                                  void *closure, hp2x_err *err);

#endif
