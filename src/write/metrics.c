/* metrics.c -- the last census as Prometheus's text exposition format
 * 0.0.4, for a scraper of hp2x --serve's /metrics: one gauge with a `band`
 * label per band of the picture (OTHER included, so at most -m series),
 * the profile's total, the eventlog's heap series, the censuses read, the
 * stream's time of its last census and whether the input is connected.
 * Values are the CSV's (integers in VALUE_UNIT, seconds as "%.6f");
 * label values are the picture's displayable UTF-8 (draw/display_text.c),
 * escaped as the format requires, and made unique.
 */
#include "draw/display_text.h"
#include "select/bands_int.h"
#include "base/textout.h"

#include <string.h>

static void put_family(writebuf *o, const char *name, const char *type,
                       const char *help) {
  hpx_writebuf_puts(o, "# HELP ");
  hpx_writebuf_puts(o, name);
  hpx_writebuf_puts(o, " ");
  hpx_writebuf_puts(o, help);
  hpx_writebuf_puts(o, "\n# TYPE ");
  hpx_writebuf_puts(o, name);
  hpx_writebuf_puts(o, " ");
  hpx_writebuf_puts(o, type);
  hpx_writebuf_puts(o, "\n");
}

static void put_int_sample(writebuf *o, const char *name, int64_t v) {
  char num[24];
  hpx_writebuf_puts(o, name);
  hpx_writebuf_puts(o, " ");
  hpx_writebuf_put(o, num, hpx_fmt_int(num, v));
  hpx_writebuf_puts(o, "\n");
}

/* A label value: backslash, double quote and line feed escaped (the
 * display text has no line feeds left, but the format is kept anyway). */
static void put_label_value(writebuf *o, const char *s) {
  for (const char *q = s; *q; q++) {
    if (*q == '\\')
      hpx_writebuf_puts(o, "\\\\");
    else if (*q == '"')
      hpx_writebuf_puts(o, "\\\"");
    else if (*q == '\n')
      hpx_writebuf_puts(o, "\\n");
    else
      hpx_writebuf_put(o, q, 1);
  }
}

/* Band k's label value, displayable; a name that an earlier band (one
 * higher in the key) already shows gets " #N" (N: its key position from
 * the top, 1-based) so that every series stays one.  NULL when out of
 * memory. */
static char *band_label(const hp2x_bands *b, char *const *shown, size_t k) {
  const char *name = b->names[k];
  char *text = hpx_render_display_text(name, strlen(name));
  if (!text) return NULL;
  for (size_t j = b->n_bands; j-- > k + 1;) {
    if (strcmp(shown[j], text) != 0) continue;
    size_t len = strlen(text);
    char *more = hpx_realloc(text, len + 24);
    if (!more) {
      hpx_free(text);
      return NULL;
    }
    hpx_fmt(more + len, 24, " #%zu", b->n_bands - k);
    return more;
  }
  return text;
}

/* hp2x_band_bytes, top of the key first, and the total. */
static hp2x_status put_bands(writebuf *o, const hp2x_bands *b, size_t s,
                             hp2x_err *err) {
  char **shown = hpx_calloc(b->n_bands ? b->n_bands : 1, sizeof *shown);
  if (!shown) return hpx_nomem(err);
  hp2x_status st = HP2X_OK;
  put_family(o, "hp2x_band_bytes", "gauge",
             "Each band of the picture at the last census (OTHER included).");
  int64_t total = 0;
  char num[24];
  for (size_t k = b->n_bands; k-- > 0 && st == HP2X_OK;) {
    shown[k] = band_label(b, shown, k);
    if (!shown[k]) {
      st = hpx_nomem(err);
      break;
    }
    int64_t v = b->values[k * b->stride + s];
    total = hpx_add_sat(total, v);
    hpx_writebuf_puts(o, "hp2x_band_bytes{band=\"");
    put_label_value(o, shown[k]);
    hpx_writebuf_puts(o, "\"} ");
    hpx_writebuf_put(o, num, hpx_fmt_int(num, v));
    hpx_writebuf_puts(o, "\n");
  }
  for (size_t k = 0; k < b->n_bands; k++) hpx_free(shown[k]);
  hpx_free(shown);
  if (st != HP2X_OK) return st;
  put_family(o, "hp2x_profile_bytes", "gauge",
             "The profile's total at the last census.");
  put_int_sample(o, "hp2x_profile_bytes", total);
  return HP2X_OK;
}

/* Each heap series' metric, in the order /metrics gives them, one row per
 * hpx_heap_kind: a kind without its row does not build (the assert
 * below), as with the --heap lines' looks (draw/layout.c). */
#define HEAP_METRIC_ROWS(X)                                             \
  X(HPX_HEAP_SIZE, "hp2x_heap_size_bytes",                              \
    "The heap's size, from the eventlog's last HEAP_SIZE event.")       \
  X(HPX_HEAP_LIVE, "hp2x_heap_live_bytes",                              \
    "Live data in the heap, from the eventlog's last HEAP_LIVE event.") \
  X(HPX_HEAP_BLOCKS, "hp2x_blocks_size_bytes",                          \
    "Blocks allocated, from the eventlog's last BLOCKS_SIZE event.")
#define HEAP_METRIC_ROW(kind, name, help) {kind, name, help},
#define HEAP_METRIC_BIT(kind, ...) | (1u << (kind))
static const struct {
  hpx_heap_kind kind;
  const char *name, *help;
} heap_metrics[HPX_N_HEAP] = {HEAP_METRIC_ROWS(HEAP_METRIC_ROW)};
_Static_assert((0u HEAP_METRIC_ROWS(HEAP_METRIC_BIT)) ==
                   (1u << HPX_N_HEAP) - 1u,
               "a /metrics series for every hpx_heap_kind (model.h)");

/* The last point of each heap series the eventlog has. */
static void put_heap(writebuf *o, const hp2x_profile *p) {
  for (size_t i = 0; i < HPX_N_HEAP; i++) {
    const hpx_series *h = &p->heap[heap_metrics[i].kind];
    if (h->n == 0) continue;
    put_family(o, heap_metrics[i].name, "gauge", heap_metrics[i].help);
    put_int_sample(o, heap_metrics[i].name, h->bytes[h->n - 1]);
  }
}

hp2x_status hp2x_write_metrics(const hp2x_profile *p, const hp2x_bands *b,
                               const hp2x_metrics_state *state,
                               hp2x_write_fn write, void *closure,
                               hp2x_err *err) {
  writebuf o;
  if (hpx_writebuf_init(&o, write, closure, err) != HP2X_OK) return err->code;
  hp2x_status st = HP2X_OK;
  size_t n = b ? b->n_samples : 0;
  if (p && n > p->n_samples) n = p->n_samples;
  if (n > 0) st = put_bands(&o, b, n - 1, err);
  if (p && st == HP2X_OK) put_heap(&o, p);
  long long censuses = state ? state->censuses : -1;
  if (censuses < 0) censuses = p ? (long long)hp2x_profile_samples_read(p) : 0;
  put_family(&o, "hp2x_censuses_total", "counter", "Censuses read.");
  put_int_sample(&o, "hp2x_censuses_total", censuses);
  if (n > 0) {
    char num[HPX_FIXED6_SIZE];
    put_family(&o, "hp2x_last_census_seconds", "gauge",
               "The stream's time of its last census, in seconds of the "
               "program's run.");
    hpx_writebuf_puts(&o, "hp2x_last_census_seconds ");
    hpx_writebuf_put(&o, num, hpx_fmt_fixed6(num, p->times[n - 1]));
    hpx_writebuf_puts(&o, "\n");
  }
  put_family(&o, "hp2x_input_connected", "gauge",
             "1 while the input is connected (a file or pipe: open), else "
             "0.");
  put_int_sample(&o, "hp2x_input_connected", state && state->connected);
  hp2x_err scratch; /* after a failure, the first error is kept */
  hp2x_err_init(&scratch);
  hp2x_status fin = hpx_writebuf_finish(&o, st == HP2X_OK ? err : &scratch);
  return st != HP2X_OK ? st : fin;
}
