/* test_hp2ps_bands.c -- hp2ps's band selection, case by case: every
 * tests/spec/hp2ps-bands/<profile>.<set>.txt (made by gen-hp2ps-bands.sh
 * from the real hp2ps) against hp2x's selection of the same profile with
 * the same flags: the band names in order (ties included), X_RANGE and
 * Y_RANGE as hp2ps prints them, and the title's area figure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "select/bands_int.h"
#include "test_options.h"
#include "base/textout.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *top(void) {
  const char *t = getenv("TOP");
  return t ? t : ".";
}

/* Options for a flag-set name of the generator. */
static int options_for(const char *set, hp2x_options *o) {
  hp2x_options_init(o);
  if (!strcmp(set, "default")) return 1;
  if (!strcmp(set, "m5")) return o->max_bands = 5, 1;
  if (!strcmp(set, "m0")) return o->max_bands = 0, 1;
  if (!strcmp(set, "m30")) return o->max_bands = 30, 1;
  if (!strcmp(set, "t0")) return o->trace_pct = 0.0, 1;
  if (!strcmp(set, "t5")) return o->trace_pct = 5.0, 1;
  if (!strcmp(set, "d")) return o->sort = HP2X_SORT_STDDEV, 1;
  if (!strcmp(set, "i")) return o->name_order = 1, 1;
  if (!strcmp(set, "i-")) return o->name_order = -1, 1;
  if (!strcmp(set, "dm5"))
    return o->sort = HP2X_SORT_STDDEV, o->max_bands = 5, 1;
  if (!strcmp(set, "im5")) return o->name_order = 1, o->max_bands = 5, 1;
  return 0;
}

/* Whether band name s is among b's. */
static int has_band(const hp2x_bands *b, const char *s) {
  for (size_t k = 0; k < b->n_bands; k++)
    if (!strcmp(b->names[k], s)) return 1;
  return 0;
}

/* One case: hp2ps's bands in hp2ps's order; `arranged`: with the order a
 * breakdown gives (-hb's), the same bands in any order. */
static int check_case(const char *dir, const char *file, int arranged,
                      char *why, size_t why_size) {
  char profile[256], set[32];
  const char *txt = strstr(file, ".txt");
  const char *dot = txt;
  while (dot > file && dot[-1] != '.') dot--;
  snprintf(profile, sizeof profile, "%.*s", (int)(dot - 1 - file), file);
  snprintf(set, sizeof set, "%.*s", (int)(txt - dot), dot);
  hp2x_options o;
  if (!options_for(set, &o)) {
    snprintf(why, why_size, "unknown flag set %s", set);
    return 0;
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/samples/profiles/%s.hp", top(), profile);
  FILE *in = fopen(path, "rb");
  if (!in) {
    snprintf(why, why_size, "cannot open %s", path);
    return 0;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = NULL;
  hp2x_status st = hp2x_parse_stream(in, path, NULL, &p, &err);
  fclose(in);
  if (st != HP2X_OK) {
    snprintf(why, why_size, "parse: %s", err.msg);
    return 0;
  }
  /* hp2ps's order: hp2x's own order of -hb's biographies (breakdown.c)
   * is a deliberate difference (man page, BREAKDOWNS), off here; the
   * bands chosen are hp2ps's either way (breakdown_keeps_the_selection). */
  if (!arranged) o.by_breakdown = 0;
  hp2x_bands *b = NULL;
  st = hp2x_bands_select(p, &o, &b, &err);
  if (st != HP2X_OK) {
    hp2x_profile_free(p);
    snprintf(why, why_size, "select: %s", err.msg);
    return 0;
  }
  snprintf(path, sizeof path, "%s/%s", dir, file);
  FILE *ex = fopen(path, "rb");
  char line[8192], want[64];
  int ok = ex != NULL, row = 0;
  size_t band = 0;
  while (ok && fgets(line, sizeof line, ex)) {
    line[strcspn(line, "\n")] = '\0';
    row++;
    if (row == 1 || row == 2) {
      hpx_fmt(want, sizeof want, "%s %.2f", row == 1 ? "X_RANGE" : "Y_RANGE",
              row == 1 ? b->xrange : b->yrange);
    } else if (row == 3) {
      strcpy(want, "AREA ");
      hpx_fmt_thousands(want + 5, sizeof want - 5, (int64_t)b->area);
    } else {
      if (band >= b->n_bands ||
          (arranged ? !has_band(b, line) : strcmp(b->names[band], line) != 0)) {
        snprintf(why, why_size, "band %zu: hp2ps '%s', hp2x '%s'", band, line,
                 band < b->n_bands ? b->names[band] : "(none)");
        ok = 0;
      }
      band++;
      continue;
    }
    if (strcmp(want, line) != 0) {
      snprintf(why, why_size, "hp2ps '%s', hp2x '%s'", line, want);
      ok = 0;
    }
  }
  if (ex) fclose(ex);
  if (ok && band != b->n_bands) {
    snprintf(why, why_size, "hp2ps has %zu bands, hp2x %zu", band, b->n_bands);
    ok = 0;
  }
  hp2x_bands_free(b);
  hp2x_profile_free(p);
  return ok;
}

/* Every case against hp2ps; `arranged` as check_case. */
static void run_cases(int arranged) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/tests/spec/hp2ps-bands", top());
  DIR *d = opendir(dir);
  assert_non_null(d);
  int total = 0, matched = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strstr(e->d_name, ".txt")) continue;
    char why[512] = "";
    total++;
    if (check_case(dir, e->d_name, arranged, why, sizeof why))
      matched++;
    else
      print_message("MISMATCH %s: %s\n", e->d_name, why);
  }
  closedir(d);
  print_message("hp2ps selection: %d/%d cases matched\n", matched, total);
  assert_true(total >= 500);
  assert_int_equal(matched, total);
}

static void every_case_matches_hp2ps(void **state) {
  (void)state;
  run_cases(0);
}

/* A breakdown's order (-hb's biographies) changes where bands are, never
 * which are chosen. */
static void breakdown_keeps_the_selection(void **state) {
  (void)state;
  run_cases(1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_case_matches_hp2ps),
      cmocka_unit_test(breakdown_keeps_the_selection),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
