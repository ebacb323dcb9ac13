/* label_filter.c -- which labels --include and --exclude filter out
 * (hpx_labels_filter): POSIX extended regexes matched against a label's
 * name and what it leaves out (a -hi label's IPE record).  Band selection
 * (bands.c) folds those labels into OTHER; the pprof writer leaves them
 * out.
 */
#include "bands_int.h"

#include <regex.h>

/* Compiles one filter regex; HP2X_E_ARG with regerror's text. */
static hp2x_status compile_re(regex_t *re, const char *src, const char *what,
                              hp2x_err *err) {
  int rc = regcomp(re, src, REG_EXTENDED | REG_NOSUB);
  if (rc == 0) return HP2X_OK;
  char why[128];
  regerror(rc, re, why, sizeof why);
  return hpx_fail(err, HP2X_E_ARG, 0, -1, "bad %s regex '%.60s': %s", what, src,
                  why);
}

/* Does re match label l: its name, or what the name leaves out (a -hi
 * label's whole IPE record: table, closure type, type, module, ...)? */
static int label_matches(const regex_t *re, const hpx_label *l) {
  return regexec(re, l->name, 0, NULL, 0) == 0 ||
         (l->text.detail && regexec(re, l->text.detail, 0, NULL, 0) == 0);
}

hp2x_status hpx_labels_filter(const hp2x_profile *p, const hp2x_options *o,
                              unsigned char **filtered, hp2x_err *err) {
  *filtered = NULL;
  if (!o->include_re && !o->exclude_re) return HP2X_OK;
  regex_t inc, exc;
  if (o->include_re && compile_re(&inc, o->include_re, "--include", err))
    return err->code;
  if (o->exclude_re && compile_re(&exc, o->exclude_re, "--exclude", err)) {
    if (o->include_re) regfree(&inc);
    return err->code;
  }
  size_t nl = p->n_labels;
  unsigned char *f = hpx_calloc(nl ? nl : 1, 1);
  for (size_t id = 0; f && id < nl; id++) {
    const hpx_label *l = &p->labels[id];
    if ((o->include_re && !label_matches(&inc, l)) ||
        (o->exclude_re && label_matches(&exc, l)))
      f[id] = 1;
  }
  if (o->include_re) regfree(&inc);
  if (o->exclude_re) regfree(&exc);
  *filtered = f;
  return f ? HP2X_OK : hpx_nomem(err);
}
