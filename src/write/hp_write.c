/* hp_write.c -- the converter's .hp output: GHC's text format (as
 * rts/ProfHeap.c writes it, hp_parse.c reads it) from the model's complete
 * samples, so a cut-short profile gets a clean copy and an eventlog a real
 * .hp.  Header strings with '"' doubled, MARKs, then the samples, times as
 * six decimals, locale-free.  A header or label that cannot be one .hp
 * line (TAB, line break, NUL) is refused, never written broken.
 */
#include "model/model.h"
#include "base/textout.h"

#include <string.h>

/* A header line: KW "S", with each '"' of s doubled. */
static void put_header_line(writebuf *w, const char *kw, const char *s) {
  hpx_writebuf_puts(w, kw);
  hpx_writebuf_put(w, " \"", 2);
  for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
    hpx_writebuf_put(w, s, (size_t)(q - s) + 1);
    hpx_writebuf_put(w, "\"", 1);
  }
  hpx_writebuf_puts(w, s);
  hpx_writebuf_put(w, "\"\n", 2);
}

/* Can s be one field of a .hp line?  No line break, NUL or TAB, and no
 * CR at the end (a reader strips it as part of a CRLF). */
static int fits_one_line(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n' || s[i] == '\0' || s[i] == '\t') return 0;
  return n == 0 || s[n - 1] != '\r';
}

/* HP2X_E_ARG when a header string or a label cannot be written as .hp
 * text: a label must also be non-empty, without blanks at either end
 * (the reader would trim them). */
static hp2x_status check_writable(const hp2x_profile *p, hp2x_err *err) {
  const char *hdr[4] = {p->job, p->date, p->sample_unit, p->value_unit};
  for (int i = 0; i < 4; i++)
    if (!fits_one_line(hdr[i], strlen(hdr[i])))
      return hpx_fail(err, HP2X_E_ARG, 0, -1,
                      "a header string holds a line break or TAB; it cannot "
                      "be written as .hp text");
  for (size_t id = 0; id < p->n_labels; id++) {
    size_t len;
    const char *name = profile_hp_name(&p->labels[id], &len);
    if (!len || !fits_one_line(name, len) || name[0] == ' ' ||
        name[len - 1] == ' ')
      return hpx_fail(err, HP2X_E_ARG, 0, -1,
                      "label %zu is empty or holds a TAB or line break; it "
                      "cannot be written as .hp text",
                      id + 1);
  }
  return HP2X_OK;
}

/* Complete sample s: BEGIN_SAMPLE, one "label<TAB>bytes" line per entry,
 * END_SAMPLE. */
static void put_sample(writebuf *w, const hp2x_profile *p, size_t s) {
  char t[HPX_FIXED6_SIZE + 1], num[24]; /* TAB, an int64, '\n' */
  size_t tn = hpx_fmt_fixed6(t, p->times[s]);
  t[tn++] = '\n';
  hpx_values r;
  hpx_values_of(p, s, &r);
  hpx_writebuf_put(w, "BEGIN_SAMPLE ", 13);
  hpx_writebuf_put(w, t, tn);
  for (size_t e = p->start[s]; e < p->start[s + 1]; e++) {
    size_t len;
    const char *name =
        profile_hp_name(&p->labels[profile_entry_label(p, s, e)], &len);
    hpx_writebuf_put(w, name, len);
    num[0] = '\t';
    size_t n = 1 + hpx_fmt_int(num + 1, hpx_values_next(&r));
    num[n++] = '\n';
    hpx_writebuf_put(w, num, n);
  }
  hpx_writebuf_put(w, "END_SAMPLE ", 11);
  hpx_writebuf_put(w, t, tn);
}

hp2x_status hp2x_write_hp(const hp2x_profile *p, hp2x_write_fn write,
                          void *closure, hp2x_err *err) {
  if (hpx_profile_require_entries(p, err) != HP2X_OK ||
      check_writable(p, err) != HP2X_OK)
    return err->code;
  writebuf w;
  if (hpx_writebuf_init(&w, write, closure, err) != HP2X_OK) return err->code;
  put_header_line(&w, "JOB", p->job);
  put_header_line(&w, "DATE", p->date);
  put_header_line(&w, "SAMPLE_UNIT", p->sample_unit);
  put_header_line(&w, "VALUE_UNIT", p->value_unit);
  char num[HPX_FIXED6_SIZE + 1];
  for (size_t m = 0; m < p->n_marks; m++) {
    size_t n = hpx_fmt_fixed6(num, p->mark_time[m]);
    num[n++] = '\n';
    hpx_writebuf_put(&w, "MARK ", 5);
    hpx_writebuf_put(&w, num, n);
  }
  for (size_t s = 0; s < p->n_samples && !w.failed; s++) put_sample(&w, p, s);
  return hpx_writebuf_finish(&w, err);
}
