/* key_texts.c -- what the key calls a band where its profile's breakdown
 * says more than its label: an era of -he is "era 12", an -hr retainer
 * set "(63)CAF,SYSTEM" is "retainer set {CAF, SYSTEM}".  The label itself
 * stays the band's name everywhere else (CSV, .aux, --summary).
 * key_names.c shortens these texts to fit.
 */
#include "key_names.h"
#include "select/breakdown.h"

#include <string.h>

/* "era N" for era label s, or NULL when out of memory. */
static char *era_text(const char *s) {
  size_t n = strlen(s);
  char *t = hpx_malloc(n + 5);
  if (t) {
    memcpy(t, "era ", 4);
    memcpy(t + 4, s, n + 1);
  }
  return t;
}

/* The members of retainer set s ("(63)CAF,SYSTEM": after its number) and
 * how many digits the number has (0: none). */
static const char *set_members(const char *s, size_t *digits) {
  size_t i = 1;
  *digits = 0;
  if (s[0] != '(') return s;
  while (s[i] >= '0' && s[i] <= '9') i++;
  if (i == 1 || s[i] != ')') return s;
  *digits = i - 1;
  return s + i + 1;
}

/* "retainer set {A, B}" (numbered: "retainer set 63 {A, B}") for s. */
static char *set_text(const char *s, int numbered) {
  size_t digits, commas = 0;
  const char *m = set_members(s, &digits);
  for (const char *c = m; *c; c++) commas += *c == ',';
  size_t n = strlen(m), len = 15 + (numbered ? digits + 1 : 0) + n + commas;
  char *t = hpx_malloc(len + 2), *o = t;
  if (!t) return NULL;
  memcpy(o, "retainer set ", 13), o += 13;
  if (numbered && digits) memcpy(o, s + 1, digits), o += digits, *o++ = ' ';
  *o++ = '{';
  for (const char *c = m; *c; c++) {
    *o++ = *c;
    if (*c == ',') *o++ = ' ';
  }
  *o++ = '}';
  *o = '\0';
  return t;
}

/* Whether two of texts[0..n) read alike. */
static int any_twins(char *const *texts, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++)
      if (!strcmp(texts[i], texts[j])) return 1;
  return 0;
}

/* texts[k] for every band but OTHER (numbered retainer sets or not); 0
 * when out of memory. */
static int fill_texts(const hp2x_bands *b, int era, int numbered,
                      char **texts) {
  for (size_t k = 0; k < b->n_bands; k++) {
    hpx_free(texts[k]);
    const char *s = b->names[k];
    if (b->is_other && k == 0)
      texts[k] = hpx_strndup(s, strlen(s));
    else
      texts[k] = era ? era_text(s) : set_text(s, numbered);
    if (!texts[k]) return 0;
  }
  return 1;
}

char **hpx_key_texts(const hp2x_profile *p, const hp2x_bands *b, int *nomem) {
  hp2x_breakdown bd = hp2x_profile_breakdown(p);
  int era = b->breakdown == HP2X_BREAKDOWN_ERA;
  if (!era && bd != HP2X_BREAKDOWN_RETAINER) return NULL;
  size_t n = b->n_bands;
  char **texts = hpx_calloc(n ? n : 1, sizeof *texts);
  int ok = texts && fill_texts(b, era, 0, texts);
  if (ok && !era && any_twins(texts, n)) ok = fill_texts(b, 0, 1, texts);
  if (!ok) {
    *nomem = 1;
    hpx_key_names_free(texts, n);
    return NULL;
  }
  return texts;
}
