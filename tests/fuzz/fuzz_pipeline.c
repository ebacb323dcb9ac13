/* fuzz_pipeline.c -- libFuzzer target: the whole pipeline.  The first 8
 * bytes choose the options; the rest is the profile, of either kind.
 * Parse, take a view (window, sample index), select (filters, -p with the
 * .aux just written), render into memory in any picture format, and write
 * CSV, .aux, .hp, the summary, one census as pprof (the peak, the
 * census nearest a time or the last) and as CSV's row or the summary's
 * moment table; on some inputs also compare the profile
 * with its view (one selection, pages or stack, CSV, the difference), or
 * follow it as it grows (watch mode's selection against a fresh one).  The
 * profile's bytes are also read as .aux text.
 *
 *   byte 0  -m (0..25)              byte 4  format (bits 0-1), palette
 *   byte 1  -t, window start               (2-3), hatch patterns (4),
 *                                          chart kind (5-6)
 *   byte 2  -d, -i                  byte 5  EPS width, PNG dpi, regex
 *   byte 3  colour, title box,      byte 6  input kind (bit 0), heap lines
 *           -g, -M, -y, every              (1), view (2-3), filters (4-5),
 *           sample (6), PNG (7)            -p round trip (6), compare (7)
 *                                   byte 7  chunk sizes, window length,
 *                                           follow (bit 0), by_breakdown
 *                                           (6-7)
 */
#include "fuzz_common.h"

/* Pictures drawn so far (the regression replay checks it grows). */
static size_t pictures_drawn;

static int sink(void *closure, const void *buf, size_t len) {
  (void)buf;
  *(size_t *)closure += len;
  return 0;
}

/* A growing buffer, for the .aux text read back with -p. */
typedef struct text {
  char data[1 << 16];
  size_t len;
} text;

static int keep(void *closure, const void *buf, size_t len) {
  text *t = closure;
  if (len > sizeof t->data - t->len) return -1;
  memcpy(t->data + t->len, buf, len);
  t->len += len;
  return 0;
}

/* Filters: fixed expressions (an input-made one could take exponential
 * time in the C library's matcher, which is not hp2x's to test); the
 * last does not compile. */
static const char *const regexes[] = {"^main", "GHC\\.", "[(]",           "a|b",
                                      ".*",    "x{2,}",  "[[:alpha:]]+$", "("};
#define N_REGEXES (sizeof regexes / sizeof regexes[0])

/* The profile's first and last sample times, 0 and 0 without samples. */
static void span(const hp2x_profile *p, double *t0, double *t1) {
  size_t n = hp2x_profile_sample_count(p);
  *t0 = n ? hp2x_profile_sample_time(p, 0) : 0.0;
  *t1 = n ? hp2x_profile_sample_time(p, n - 1) : 0.0;
}

/* The view bits 2-3 of byte 6 ask for: *v is a new profile, or NULL for
 * `p` itself. */
static hp2x_status view(const hp2x_profile *p, const uint8_t *d,
                        hp2x_profile **v) {
  hp2x_err err;
  hp2x_err_init(&err);
  *v = NULL;
  unsigned which = (d[6] >> 2) & 3;
  if (!which) return HP2X_OK;
  hp2x_profile *w = NULL;
  if (which & 1) {
    double t0, t1;
    span(p, &t0, &t1);
    double from = t0 + (t1 - t0) * d[1] / 255.0;
    double to = from + (t1 - t0) * d[7] / 255.0;
    hp2x_status st = hp2x_profile_window(p, from, to, &w, &err);
    if (st != HP2X_OK) return st;
  }
  if (which & 2) {
    hp2x_profile *x = NULL;
    hp2x_status st = hp2x_profile_by_index(w ? w : p, &x, &err);
    hp2x_profile_free(w);
    if (st != HP2X_OK) return st;
    w = x;
  }
  *v = w;
  return HP2X_OK;
}

/* Two runs compared: the profile and its view, one selection. */
static void compare(const hp2x_profile *a, const hp2x_profile *b,
                    hp2x_options o, const uint8_t *d) {
  const hp2x_profile *ps[2] = {a, b};
  hp2x_bands *bs[2] = {NULL, NULL};
  hp2x_err err;
  hp2x_err_init(&err);
  o.uniform = d[2] & 3;
  o.layout = d[3] & 64 ? HP2X_LAYOUT_STACK : HP2X_LAYOUT_PAGES;
  o.aux = NULL;
  if (hp2x_bands_select_many(ps, 2, &o, bs, &err) != HP2X_OK) return;
  size_t bytes = 0;
  const char *names[2] = {"before", "after,\"quoted\""};
  hp2x_status st = hp2x_render_many(ps, (const hp2x_bands *const *)bs, 2, &o,
                                    sink, &bytes, &err);
  pictures_drawn += st == HP2X_OK;
  FUZZ_CHECK(st == HP2X_OK ||
             (st == HP2X_E_ARG && o.layout == HP2X_LAYOUT_PAGES &&
              o.format != HP2X_FORMAT_PS && o.format != HP2X_FORMAT_PDF));
  hp2x_err_init(&err);
  FUZZ_CHECK(hp2x_write_csv_many(ps, (const hp2x_bands *const *)bs, names, 2,
                                 sink, &bytes, &err) == HP2X_OK);
  FUZZ_CHECK(hp2x_write_summary(ps, (const hp2x_bands *const *)bs, names, 2,
                                sink, &bytes, &err) == HP2X_OK);
  hp2x_profile *dp = NULL;
  hp2x_bands *db = NULL;
  hp2x_err_init(&err);
  if (hp2x_diff_new(a, bs[0], b, bs[1], &dp, &db, &err) == HP2X_OK) {
    o.format = HP2X_FORMAT_SVG;
    o.chart = HP2X_CHART_STACKED; /* a diff chart has its own */
    FUZZ_CHECK(hp2x_render(dp, db, &o, sink, &bytes, &err) == HP2X_OK);
    FUZZ_CHECK(hp2x_write_csv(dp, db, sink, &bytes, &err) == HP2X_OK);
  }
  hp2x_bands_free(db);
  hp2x_profile_free(dp);
  hp2x_bands_free(bs[0]);
  hp2x_bands_free(bs[1]);
}

/* A census of p as pprof: by byte 2's rule (peak, nearest, last) and at
 * byte 7's share of the run; any profile with a census writes one, with
 * the filters (but the one that does not compile). */
static void census(const hp2x_profile *p, hp2x_options o, const uint8_t *d,
                   size_t *bytes) {
  o.format = HP2X_FORMAT_PPROF;
  o.census.rule = (hp2x_census_rule)((d[2] >> 3) % 3);
  double t0, t1;
  span(p, &t0, &t1);
  o.census.at_s = t0 + (t1 - t0) * d[7] / 255.0;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_status st = hp2x_write_output(p, NULL, NULL, &o, sink, bytes, &err);
  int bad_re = (o.include_re && !strcmp(o.include_re, "(")) ||
               (o.exclude_re && !strcmp(o.exclude_re, "("));
  FUZZ_CHECK(hp2x_profile_sample_count(p)
                 ? st == HP2X_OK || (st == HP2X_E_ARG && bad_re)
                 : st == HP2X_E_NO_CENSUS);
}

/* One census of p with bands b as CSV's row or the summary's moment
 * table (by byte 5), the one nearest byte 7's share of the run. */
static void one_census(const hp2x_profile *p, const hp2x_bands *b,
                       hp2x_options o, const uint8_t *d, size_t *bytes) {
  o.format = d[5] & 2 ? HP2X_FORMAT_TXT : HP2X_FORMAT_CSV;
  o.span = HP2X_SPAN_CENSUS;
  hp2x_census_choice_init(&o.census);
  o.census.rule = HP2X_CENSUS_AT;
  double t0, t1;
  span(p, &t0, &t1);
  o.census.at_s = t0 + (t1 - t0) * d[7] / 255.0;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_status st = hp2x_write_output(p, b, "fuzz", &o, sink, bytes, &err);
  FUZZ_CHECK(hp2x_profile_sample_count(p) ? st == HP2X_OK
                                          : st == HP2X_E_NO_CENSUS);
}

/* Draws b into memory (SVG's surface ids are renumbered by the library,
 * so a second render gives the same bytes). */
static blob picture(const hp2x_profile *p, const hp2x_bands *b,
                    const hp2x_options *o) {
  hp2x_err err;
  hp2x_err_init(&err);
  blob t = {NULL, 0, 0};
  FUZZ_CHECK(hp2x_render(p, b, o, blob_write, &t, &err) == HP2X_OK);
  return t;
}

/* Watch mode's selection: a follower fed the profile as it grows (the
 * same bytes in chunks of 1 to 512 bytes) gives after every chunk the
 * bands hp2x_bands_select gives for the samples so far, and in the end
 * the same picture, byte for byte. */
static void follow(const uint8_t *data, size_t size, hp2x_input_kind kind,
                   const hp2x_options *o) {
  /* PDF is dated with the clock unless source_date_epoch says (the
   * library reads no environment): two renders a second apart differ. */
  hp2x_options dated = *o;
  dated.source_date_epoch = 1700000000;
  hp2x_err err;
  hp2x_parser *ps = fuzz_parser(kind, &err);
  hp2x_follower *f = hp2x_follower_new(&err);
  FUZZ_CHECK(ps && f);
  const hp2x_bands *fb = NULL;
  hp2x_bands *sb = NULL;
  const hp2x_profile *p = NULL;
  uint32_t x = (uint32_t)size | 1u;
  for (size_t pos = 0; pos < size;) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    size_t n = 1 + x % 512 < size - pos ? 1 + x % 512 : size - pos;
    if (hp2x_parser_feed(ps, data + pos, n, &err) != HP2X_OK) break;
    pos += n;
    p = hp2x_parser_peek(ps);
    hp2x_bands_free(sb);
    sb = NULL;
    hp2x_status a = hp2x_follower_select(f, p, o, &fb, &err);
    hp2x_status b = hp2x_bands_select(p, o, &sb, &err);
    FUZZ_CHECK(a == b);
    if (a != HP2X_OK) {
      fb = NULL;
      continue;
    }
    size_t nb = hp2x_bands_count(sb), N = hp2x_bands_sample_count(sb);
    FUZZ_CHECK(hp2x_bands_count(fb) == nb);
    FUZZ_CHECK(hp2x_bands_sample_count(fb) == N);
    for (size_t k = 0; k < nb; k++) {
      FUZZ_CHECK(!strcmp(hp2x_bands_name(fb, k), hp2x_bands_name(sb, k)));
      for (size_t s = 0; s < N; s++)
        FUZZ_CHECK(hp2x_bands_value(fb, k, s) == hp2x_bands_value(sb, k, s));
    }
  }
  if (fb && sb) {
    blob t1 = picture(p, fb, &dated), t2 = picture(p, sb, &dated);
    FUZZ_CHECK(t1.len == t2.len && !memcmp(t1.data, t2.data, t1.len));
    free(t1.data), free(t2.data);
  }
  hp2x_bands_free(sb);
  hp2x_follower_free(f);
  hp2x_parser_free(ps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 8) return 0;
  hp2x_options o;
  hp2x_options_init(&o);
  o.max_bands = data[0] % 26;
  o.trace_pct = (data[1] % 51) / 10.0;
  o.sort = data[2] & 1 ? HP2X_SORT_STDDEV : HP2X_SORT_AREA;
  o.name_order = (int)(data[2] >> 1) % 3 - 1;
  o.colour = data[3] & 1;
  o.title_box = (int)((data[3] >> 1) % 3) - 1;
  o.portrait = (data[3] >> 3) & 1;
  o.multipage = (data[3] >> 4) & 1;
  o.no_marks = (data[3] >> 5) & 1;
  o.all_samples = (data[3] >> 6) & 1;
  static const hp2x_format formats[] = {HP2X_FORMAT_PS, HP2X_FORMAT_EPS,
                                        HP2X_FORMAT_PDF, HP2X_FORMAT_SVG};
  o.format = data[3] & 128 ? HP2X_FORMAT_PNG : formats[data[4] % 4];
  if (o.format == HP2X_FORMAT_EPS) o.eps_width_pt = 145.0 + data[5] * 4.0;
  if (o.format == HP2X_FORMAT_PNG) o.dpi = 10.0 + data[5] % 64;
  o.palette = (hp2x_palette)((data[4] >> 2) % 3);
  o.pattern = (data[4] >> 4) & 1;
  o.heap_overlay = (data[6] >> 1) & 1;
  o.chart = (hp2x_chart)((data[4] >> 5) % 4);
  if (o.chart == HP2X_CHART_PERCENT || o.chart == HP2X_CHART_LINES)
    o.heap_overlay = 0; /* refused there (HP2X_E_ARG), as by the tool */
  o.by_breakdown = (unsigned)(data[7] >> 6);
  if (data[6] & 16) o.include_re = regexes[data[5] % N_REGEXES];
  if (data[6] & 32) o.exclude_re = regexes[(data[5] / 8) % N_REGEXES];

  /* The profile's bytes as .aux text: any status, no crash. */
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_aux *aux = NULL;
  if (hp2x_aux_parse((const char *)data + 8, size - 8, "fuzz", &aux, &err) ==
      HP2X_OK)
    hp2x_aux_free(aux);
  aux = NULL;

  hp2x_profile *p = NULL, *v = NULL;
  hp2x_input_kind kind = data[6] & 1 ? HP2X_INPUT_EVENTLOG : HP2X_INPUT_AUTO;
  if (fuzz_parse(data + 8, size - 8, kind, data[7], &p) != HP2X_OK) return 0;
  if (view(p, data, &v) != HP2X_OK) {
    hp2x_profile_free(p);
    return 0;
  }
  const hp2x_profile *q = v ? v : p;
  hp2x_err_init(&err);
  hp2x_bands *b = NULL;
  size_t bytes = 0;
  hp2x_status st = hp2x_bands_select(q, &o, &b, &err);
  /* Only the expression that does not compile is refused. */
  FUZZ_CHECK(st == HP2X_OK || (st == HP2X_E_ARG &&
                               ((o.include_re && !strcmp(o.include_re, "(")) ||
                                (o.exclude_re && !strcmp(o.exclude_re, "(")))));
  if (st == HP2X_OK && (data[6] & 64)) {
    /* hp2ps -p: the .aux this render writes, read back, selects again. */
    text *t = malloc(sizeof *t);
    FUZZ_CHECK(t != NULL);
    t->len = 0;
    if (hp2x_write_aux(q, b, &o, keep, t, &err) == HP2X_OK &&
        hp2x_aux_parse(t->data, t->len, "fuzz.aux", &aux, &err) == HP2X_OK) {
      hp2x_bands_free(b);
      b = NULL;
      o.aux = aux;
      st = hp2x_bands_select(q, &o, &b, &err);
      FUZZ_CHECK(st == HP2X_OK);
    }
    free(t);
    hp2x_err_init(&err);
  }
  if (st == HP2X_OK) {
    FUZZ_CHECK(hp2x_render(q, b, &o, sink, &bytes, &err) == HP2X_OK);
    FUZZ_CHECK(bytes > 0);
    pictures_drawn++;
    FUZZ_CHECK(hp2x_write_csv(q, b, sink, &bytes, &err) == HP2X_OK);
    FUZZ_CHECK(hp2x_write_aux(q, b, &o, sink, &bytes, &err) == HP2X_OK);
    const char *name = "fuzz";
    FUZZ_CHECK(hp2x_write_summary(&q, (const hp2x_bands *const *)&b, &name, 1,
                                  sink, &bytes, &err) == HP2X_OK);
    if (data[5] & 1) /* the HTML report: its PNG, SVG and data */
      FUZZ_CHECK(hp2x_write_html(q, b, &o, sink, &bytes, &err) == HP2X_OK);
    one_census(q, b, o, data, &bytes);
    if (o.max_bands) FUZZ_CHECK(hp2x_bands_count(b) <= (size_t)o.max_bands);
  }
  census(q, o, data, &bytes);
  if (data[6] & 128) compare(p, q, o, data);
  if (!v && (data[7] & 1)) follow(data + 8, size - 8, kind, &o);
  hp2x_err_init(&err);
  (void)hp2x_write_hp(q, sink, &bytes, &err); /* may refuse odd labels */
  hp2x_bands_free(b);
  hp2x_aux_free(aux);
  hp2x_profile_free(v);
  hp2x_profile_free(p);
  return 0;
}
