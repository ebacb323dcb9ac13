/* key_names.h -- private to libhp2x's draw stage: the key's names,
 * shortened by meaning to fit the key column (key_names.c). */
#ifndef HPX_KEY_NAMES_H
#define HPX_KEY_NAMES_H

#include "layout.h"

/* How a name is read when it is shortened. */
typedef enum {
  KEY_PLAIN, /* a closure description or type: package, modules, name */
  KEY_STACK, /* a cost-centre stack, innermost frame first, '/' between */
  KEY_KEPT   /* an -hi name whose first keep_head and last keep_tail bytes
                (what the table is, its source location) stay whole */
} key_name_kind;

/* The names the key shows for b's bands (of profile p) before any
 * shortening, where p's breakdown words them otherwise: "era 12" for the
 * era "12" of an -he profile whose labels are era numbers, "retainer set
 * {CAF, SYSTEM}" for the -hr retainer set "(63)CAF,SYSTEM" (with its
 * number, "retainer set 63 {...}", when two would read alike); else NULL
 * (the bands' own names), also with *nomem set when out of memory.  Free
 * with hpx_key_names_free(texts, b->n_bands). */
char **hpx_key_texts(const hp2x_profile *p, const hp2x_bands *b, int *nomem);

/* The key names of b's n_bands bands (texts[k], or b's names when texts
 * is NULL), each at most max_w points wide
 * (measured at 10 pt) where a shortening fits: the name itself when it
 * fits, else one shortened by meaning (see key_names.c: the package
 * version dropped, packages and modules abbreviated, stack frames or a
 * binding left out), cut only at '.', ':', '/', '-' or a space and marked
 * by one "…".  No two bands get the same key name.  breakdown (an
 * hp2x_breakdown) tells a cost-centre stack; unknown, a name holding '/'
 * is read as one.  The caller frees the result with hpx_key_names_free;
 * NULL when out of memory. */
char **hpx_key_names(const hp2x_bands *b, const char *const *texts,
                     int breakdown, double max_w, layout_measure_fn measure,
                     void *ctx);
void hpx_key_names_free(char **names, size_t n);

/* One name shortened to max_w, as hpx_key_names does without the others
 * (for tests): a new string the caller frees with hpx_free; NULL when out
 * of memory. */
char *hpx_key_shorten(const char *name, key_name_kind kind, size_t keep_head,
                      size_t keep_tail, double max_w, layout_measure_fn measure,
                      void *ctx);

#endif
