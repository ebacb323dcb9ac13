/* render.c -- draws a profile's selected bands with cairo, all text through
 * pango, on whatever surface surface.c made for the format: one drawing
 * path for PS, EPS, PDF, SVG and PNG, at the places layout.c computes and
 * from the points band_points.h gives.  Owns the pinned fonts
 * (fonts/fonts.conf loaded into a fontconfig configuration of a font map
 * of its own, so the user's font settings cannot change the glyphs and
 * the process's fontconfig and pango defaults are left alone) and the
 * conversion of label
 * bytes to displayable UTF-8: valid UTF-8 is kept, any other byte is read
 * as Latin-1 (GHC 9.0 writes closure and type names that way), and control
 * characters become U+FFFD.
 */
#include "layout.h"
#include "band_points.h"
#include "bands_int.h"
#include "palette.h"
#include "surface.h"
#include "textout.h"

#include <assert.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <limits.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef M_PI /* XSI, not C11 or POSIX's base: absent under PORTABLE=1 */
#define M_PI 3.14159265358979323846
#endif

#define FONT_FAMILY "Nimbus Sans"
#define LINE_W 0.5
#define TICK_LEN 4.0
#define KEY_BOX 14.0

/* --------------------------------------------------------------- fonts */

/* The fonts: per fonts.conf asked for (fonts_conf NULL: hp2x's own,
 * searched for), one fontconfig configuration, loaded on first use and
 * kept for the process, and a pool of pango font maps holding it
 * (pango_fc_font_map_set_config), so fontconfig's current configuration
 * and pango's default font map, which the program around the library may
 * use, are left alone.  A render takes a font map from the pool for its
 * whole drawing and gives it back (pango's objects are not for two threads
 * at once); when none is free it makes one, so renders on several threads
 * each draw with their own.  fonts_lock guards the table and the pools and
 * is held while a configuration is loaded or a map made: a render needing
 * it waits for the set-up to finish.  A fixed table, not allocations: it
 * lives as long as the process, shared by every thread. */
enum { MAX_FONT_CONFIGS = 8, MAX_IDLE_MAPS = 8 };
typedef struct font_entry {
  int used;                   /* this slot is taken */
  int searched;               /* asked for with fonts_conf NULL */
  char fonts_conf[PATH_MAX];  /* as asked for, when not searched */
  FcConfig *config;           /* NULL: none found or it did not load
                                 (fontconfig's default is used) */
  PangoFontMap *idle[MAX_IDLE_MAPS]; /* font maps no render holds; owned */
  size_t n_idle;
  size_t n_made;              /* font maps made so far */
} font_entry;
static font_entry font_configs[MAX_FONT_CONFIGS];
static pthread_mutex_t fonts_lock = PTHREAD_MUTEX_INITIALIZER;

static int readable(const char *path) { return access(path, R_OK) == 0; }

/* hp2x's own fonts.conf: beside an installed or built binary, or in the
 * installed data directory (hp2x.h, fonts_conf). */
static int find_fonts_conf(char *buf, size_t size) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) *slash = '\0';
    static const char *const rel[] = {"/../share/hp2x/fonts/fonts.conf",
                                      "/../fonts/fonts.conf",
                                      "/../../fonts/fonts.conf"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      snprintf(buf, size, "%s%s", exe, rel[i]);
      if (readable(buf)) return 1;
    }
  }
  snprintf(buf, size, "%s/fonts/fonts.conf", HP2X_DATADIR);
  return readable(buf);
}

/* A fontconfig configuration loaded from `path` alone (not the system's
 * whole configuration, which would take most of a small profile's run
 * time), or NULL when it does not load. */
static FcConfig *load_font_config(const char *path) {
  FcConfig *cfg = FcConfigCreate();
  if (cfg && FcConfigParseAndLoad(cfg, (const FcChar8 *)path, FcTrue) &&
      FcConfigBuildFonts(cfg))
    return cfg;
  if (cfg) FcConfigDestroy(cfg);
  return NULL;
}

/* A pango context as every drawing uses it: unhinted metrics and outlines,
 * so text measures the same in every format. */
static PangoContext *new_text_context(PangoFontMap *map) {
  PangoContext *ctx = pango_font_map_create_context(map);
  cairo_font_options_t *fo = cairo_font_options_create();
  cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options(ctx, fo);
  cairo_font_options_destroy(fo);
  return ctx;
}

/* A font map drawing with cfg (NULL: fontconfig's default), warmed by one
 * measured text, which opens and caches the font files and shaping data
 * every picture uses.  NULL when pango gives no font map. */
static PangoFontMap *make_font_map(FcConfig *cfg) {
  PangoFontMap *map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  if (!map) return NULL;
  if (cfg) pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), cfg);
  PangoContext *ctx = new_text_context(map);
  PangoLayout *text = pango_layout_new(ctx);
  PangoFontDescription *font = pango_font_description_from_string(FONT_FAMILY);
  pango_font_description_set_absolute_size(font, 10.0 * PANGO_SCALE);
  pango_layout_set_font_description(text, font);
  pango_layout_set_text(text, "0123456789 bytes x seconds OTHER", -1);
  PangoRectangle logical;
  pango_layout_get_extents(text, NULL, &logical);
  pango_font_description_free(font);
  g_object_unref(text);
  g_object_unref(ctx);
  return map;
}

/* fonts_conf's entry, its configuration loaded; NULL when the table is
 * full.  With fonts_lock held. */
static font_entry *find_fonts(const char *fonts_conf, int process_default) {
  font_entry *e = NULL;
  for (size_t i = 0; i < MAX_FONT_CONFIGS && !e; i++) {
    font_entry *t = &font_configs[i];
    if (!t->used)
      e = t;
    else if (fonts_conf ? !t->searched && !strcmp(t->fonts_conf, fonts_conf)
                        : t->searched)
      e = t;
  }
  if (e && !e->used) {
    e->used = 1;
    e->searched = fonts_conf == NULL;
    char path[PATH_MAX + 64];
    if (fonts_conf) {
      snprintf(e->fonts_conf, sizeof e->fonts_conf, "%s", fonts_conf);
      e->config = load_font_config(fonts_conf);
    } else if (find_fonts_conf(path, sizeof path)) {
      e->config = load_font_config(path);
    }
  }
  /* Before pango's first font map starts its FcInit (hp2x.h). */
  if (e && e->config && process_default) FcConfigSetCurrent(e->config);
  return e;
}

/* A font map for fonts_conf that no other render holds: an idle one, or a
 * new one.  NULL with err set when there is none.  Give it back with
 * release_font_map. */
static PangoFontMap *take_font_map(const char *fonts_conf, int process_default,
                                   font_entry **entry, hp2x_err *err) {
  if (fonts_conf && strlen(fonts_conf) >= PATH_MAX) {
    hpx_fail(err, HP2X_E_ARG, 0, -1, "fonts.conf path of %zu bytes",
              strlen(fonts_conf));
    return NULL;
  }
  pthread_mutex_lock(&fonts_lock);
  font_entry *e = find_fonts(fonts_conf, process_default);
  PangoFontMap *map = NULL;
  if (e && e->n_idle)
    map = e->idle[--e->n_idle];
  else if (e && (map = make_font_map(e->config)) != NULL)
    e->n_made++;
  pthread_mutex_unlock(&fonts_lock);
  *entry = e;
  if (!e)
    hpx_fail(err, HP2X_E_LIMIT, 0, -1,
              "more than %d different fonts.conf files in one process",
              MAX_FONT_CONFIGS);
  else if (!map)
    hpx_fail(err, HP2X_E_CAIRO, 0, -1, "no font map available");
  return map;
}

/* Gives a font map from take_font_map back to e's pool (or frees it when
 * the pool is full). */
static void release_font_map(font_entry *e, PangoFontMap *map) {
  if (!map) return;
  pthread_mutex_lock(&fonts_lock);
  int kept = e->n_idle < MAX_IDLE_MAPS;
  if (kept) e->idle[e->n_idle++] = map;
  pthread_mutex_unlock(&fonts_lock);
  if (!kept) g_object_unref(map);
}

/* hp2x_fonts_prepare: the configuration, and one warmed font map in the
 * pool unless one was made already (a render that came first made its
 * own): checked and made under one hold of the lock, so that a render
 * waiting for the configuration finds the map instead of making another. */
static hp2x_status prepare_fonts(const char *fonts_conf, int process_default,
                                 hp2x_err *err) {
  hp2x_err local;
  if (!err) {
    hp2x_err_init(&local);
    err = &local;
  }
  if (fonts_conf && strlen(fonts_conf) >= PATH_MAX)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "fonts.conf path of %zu bytes",
                     strlen(fonts_conf));
  pthread_mutex_lock(&fonts_lock);
  font_entry *e = find_fonts(fonts_conf, process_default);
  int have = e && e->n_made > 0;
  PangoFontMap *map = e && !have ? make_font_map(e->config) : NULL;
  if (map) {
    e->n_made++;
    e->idle[e->n_idle++] = map; /* n_made was 0: the pool is empty */
  }
  pthread_mutex_unlock(&fonts_lock);
  if (!e)
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1,
                     "more than %d different fonts.conf files in one process",
                     MAX_FONT_CONFIGS);
  if (!have && !map)
    return hpx_fail(err, HP2X_E_CAIRO, 0, -1, "no font map available");
  return HP2X_OK;
}

hp2x_status hp2x_fonts_prepare(const char *fonts_conf, hp2x_err *err) {
  return prepare_fonts(fonts_conf, 0, err);
}

hp2x_status hp2x_fonts_make_process_default(const char *fonts_conf,
                                            hp2x_err *err) {
  return prepare_fonts(fonts_conf, 1, err);
}

/* ------------------------------------------------------------- text */

/* Label bytes to UTF-8 pango accepts: see the file comment. */
static char *make_display_text(const char *s, size_t len) {
  char *out = hpx_malloc(len * 3 + 1);
  if (!out) return NULL;
  size_t o = 0;
  const unsigned char *b = (const unsigned char *)s;
  for (size_t i = 0; i < len;) {
    unsigned c = b[i];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3
               : (c >> 3) == 30 ? 4 : 0;
    int valid = n > 0 && i + n <= len;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 7;
    for (size_t k = 1; valid && k < n; k++) {
      if ((b[i + k] & 0xc0) != 0x80) valid = 0;
      cp = (cp << 6) | (b[i + k] & 0x3f);
    }
    if (valid && ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
                  (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
                  (cp >= 0xd800 && cp <= 0xdfff)))
      valid = 0;
    if (!valid) {
      cp = c; /* Latin-1 */
      n = 1;
    }
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0)) cp = 0xfffd;
    if (cp < 0x80) {
      out[o++] = (char)cp;
    } else if (cp < 0x800) {
      out[o++] = (char)(0xc0 | (cp >> 6));
      out[o++] = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out[o++] = (char)(0xe0 | (cp >> 12));
      out[o++] = (char)(0x80 | ((cp >> 6) & 0x3f));
      out[o++] = (char)(0x80 | (cp & 0x3f));
    } else {
      out[o++] = (char)(0xf0 | (cp >> 18));
      out[o++] = (char)(0x80 | ((cp >> 12) & 0x3f));
      out[o++] = (char)(0x80 | ((cp >> 6) & 0x3f));
      out[o++] = (char)(0x80 | (cp & 0x3f));
    }
    i += n;
  }
  out[o] = '\0';
  return out;
}

/* Pango does not ellipsize very long runs of text (a 1 MiB label is drawn
 * whole), so text that must fit a width is first cut in the middle to at
 * most SHORTEN_KEEP bytes on each side of a U+2026, at character
 * boundaries; pango then fits what is left. */
#define SHORTEN_KEEP 120
static void shorten_middle(char *u) {
  size_t n = strlen(u);
  if (n <= 2 * SHORTEN_KEEP + 3) return;
  size_t head = SHORTEN_KEEP, tail = n - SHORTEN_KEEP;
  while (head > 0 && ((unsigned char)u[head] & 0xc0) == 0x80) head--;
  while (tail < n && ((unsigned char)u[tail] & 0xc0) == 0x80) tail++;
  memcpy(u + head, "\xe2\x80\xa6", 3);
  memmove(u + head + 3, u + tail, n - tail + 1);
}

typedef struct render_ctx {
  cairo_t *cr;
  PangoContext *pango;       /* owned */
  PangoLayout *text;         /* reused for every string; owned */
  PangoFontDescription *font; /* owned */
  int nomem;                 /* an allocation failed while drawing */
  int colour;                /* shades are colour encodings */
  int pattern;               /* --pattern: hatching over light greys */
  cairo_pattern_t *hatch[8]; /* --pattern tiles, made on first use; owned */
  cairo_matrix_t upright;    /* user -> device for upright text (the
                                frame's, y flipped): text is measured
                                under it, so measuring and drawing share
                                cairo's scaled fonts and load each glyph
                                once */
  int tips;                  /* SVG: collect band tooltips */
  char *tip;                 /* the tooltip group's text; owned */
  size_t tip_len, tip_cap;
} render_ctx;

/* ------------------------------------------------------ SVG tooltips */
/* Cairo's SVG surface has no way to attach a <title> to what it draws, so
 * the tooltips are a group of their own, inserted by the sink just before
 * the closing </svg>: one invisible path per band over the band's own
 * outline (between its lower and upper curves, so they do not overlap)
 * and one over its key box, each with a <title> holding the full label and
 * its peak.  Invisible but painted (fill-opacity 0), so browsers show the
 * title on hover; the picture itself is unchanged. */

static void tip_put(render_ctx *r, const char *s, size_t n) {
  if (r->nomem) return;
  if (r->tip_len + n + 1 > r->tip_cap) {
    size_t cap = r->tip_cap ? r->tip_cap : 4096;
    while (cap < r->tip_len + n + 1) cap *= 2;
    char *t = hpx_realloc(r->tip, cap);
    if (!t) {
      r->nomem = 1;
      return;
    }
    r->tip = t;
    r->tip_cap = cap;
  }
  memcpy(r->tip + r->tip_len, s, n);
  r->tip_len += n;
  r->tip[r->tip_len] = '\0';
}

static void tip_str(render_ctx *r, const char *s) { tip_put(r, s, strlen(s)); }

/* A frame point as SVG user units (the page's points). */
static void tip_point(render_ctx *r, char op, double x, double y) {
  char buf[64];
  cairo_user_to_device(r->cr, &x, &y);
  int n = hpx_fmt(buf, sizeof buf, "%c%.2f %.2f", op, x, y);
  if (n > 0) tip_put(r, buf, (size_t)n);
}

/* Label bytes as XML text: displayable UTF-8 (make_display_text),
 * escaped. */
static char *make_display_text(const char *s, size_t len);
static void tip_text(render_ctx *r, const char *s) {
  char *u = make_display_text(s, strlen(s));
  if (!u) {
    r->nomem = 1;
    return;
  }
  for (const char *c = u; *c; c++) {
    switch (*c) {
    case '&': tip_str(r, "&amp;"); break;
    case '<': tip_str(r, "&lt;"); break;
    case '>': tip_str(r, "&gt;"); break;
    case '"': tip_str(r, "&quot;"); break;
    default: tip_put(r, c, 1);
    }
  }
  hpx_free(u);
}

/* The <title> of band k: "LABEL: peak N VALUE_UNIT at T SAMPLE_UNIT", and
 * on a line of its own what the label leaves out (a -hi band's whole IPE
 * record). */
static void tip_title(render_ctx *r, const hp2x_profile *p,
                      const hp2x_bands *b, size_t k) {
  size_t N = b->n_samples, at = layout_band_peak(b, k);
  const int64_t *v = b->values + k * b->stride;
  char num[48], buf[160];
  hpx_fmt_thousands(num, sizeof num, N ? v[at] : 0);
  tip_str(r, "<title>");
  tip_text(r, b->names[k]);
  hpx_fmt(buf, sizeof buf, ": peak %s ", num);
  tip_str(r, buf);
  tip_text(r, p->value_unit);
  hpx_fmt(buf, sizeof buf, " at %.3f ", N ? p->times[at] : 0.0);
  tip_str(r, buf);
  tip_text(r, p->sample_unit);
  if (b->texts && b->texts[k].detail) {
    tip_str(r, "\n");
    tip_text(r, b->texts[k].detail);
  }
  tip_str(r, "</title>");
}

/* Prepares r->text for `s` at `size_pt`; max_w > 0 ellipsizes in the
 * middle. */
static int set_text(render_ctx *r, const char *s, size_t len, double size_pt,
                    double max_w) {
  char *u = make_display_text(s, len);
  if (!u) {
    r->nomem = 1;
    return 0;
  }
  shorten_middle(u); /* also when measuring: the key caps widths anyway */
  pango_font_description_set_absolute_size(r->font, size_pt * PANGO_SCALE);
  pango_layout_set_font_description(r->text, r->font);
  pango_layout_set_width(r->text, max_w > 0 ? (int)(max_w * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize(r->text, max_w > 0 ? PANGO_ELLIPSIZE_MIDDLE
                                                : PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text(r->text, u, -1);
  hpx_free(u);
  return 1;
}

static double text_width(render_ctx *r) {
  PangoRectangle logical;
  pango_layout_get_extents(r->text, NULL, &logical);
  return (double)logical.width / PANGO_SCALE;
}

/* Text matrix for what follows: the current transformation of r->cr. */
static void text_matrix_from_cr(render_ctx *r) {
  pango_cairo_update_context(r->cr, r->pango);
  pango_layout_context_changed(r->text);
}

static double measure(void *ctx, const char *s, size_t len, double size_pt) {
  render_ctx *r = ctx;
  cairo_save(r->cr);
  cairo_set_matrix(r->cr, &r->upright);
  text_matrix_from_cr(r);
  cairo_restore(r->cr);
  return set_text(r, s, len, size_pt, 0) ? text_width(r) : 0.0;
}

enum align { LEFT, CENTRE, RIGHT };

/* Draws text with its baseline at frame point (x, y); `up` turns it to
 * read upwards (the y legend). */
static double draw_text(render_ctx *r, double x, double y, const char *s,
                        size_t len, double size_pt, enum align a,
                        double max_w, int up) {
  cairo_t *cr = r->cr;
  double w = 0.0;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  cairo_scale(cr, 1.0, -1.0); /* the frame's y goes up, text's down */
  if (up) cairo_rotate(cr, -M_PI / 2);
  text_matrix_from_cr(r);
  if (set_text(r, s, len, size_pt, max_w)) {
    w = text_width(r);
    double baseline = (double)pango_layout_get_baseline(r->text) / PANGO_SCALE;
    double dx = a == LEFT ? 0.0 : a == CENTRE ? -w / 2 : -w;
    cairo_move_to(cr, dx, -baseline);
    pango_cairo_show_layout(cr, r->text);
  }
  cairo_restore(cr);
  return w;
}

/* ------------------------------------------------------------ drawing */

static void stroke_black(cairo_t *cr) {
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, LINE_W);
  cairo_stroke(cr);
}

/* The frame's border and the title box 5 pt inside it, as hp2ps draws
 * them: JOB on the left, the area figure, DATE on the right. */
static void draw_frame(render_ctx *r, const hp2x_profile *p,
                       const hp2x_bands *b, const layout *l) {
  cairo_t *cr = r->cr;
  cairo_rectangle(cr, 0, 0, LAYOUT_FRAME_W, LAYOUT_FRAME_H);
  stroke_black(cr);
  double top = LAYOUT_FRAME_H - 5.0;
  double y0 = top - l->title_h;
  cairo_rectangle(cr, 5.0, y0, LAYOUT_FRAME_W - 10.0, l->title_h);
  stroke_black(cr);
  if (l->big_title) {
    cairo_move_to(cr, 5.0, y0 + 20.0);
    cairo_line_to(cr, LAYOUT_FRAME_W - 5.0, y0 + 20.0);
    stroke_black(cr);
  }
  /* JOB cut to 35 (80) bytes as hp2ps does, at a character boundary. */
  size_t jl = strlen(p->job);
  if (jl > l->job_bytes) {
    jl = l->job_bytes;
    while (jl > 0 && ((unsigned char)p->job[jl] & 0xc0) == 0x80) jl--;
  }
  double line1 = top - 14.0; /* 413 on the 432 frame */
  cairo_set_source_rgb(cr, 0, 0, 0);
  double date_w = measure(r, p->date, strlen(p->date), 12.0);
  draw_text(r, 11.0, line1, p->job, jl, 12.0, LEFT,
            l->big_title ? 626.0 - 10.0 : 319.0 - 11.0 - 90.0, 0);
  /* "AREA bytes x seconds", and how an eventlog's profile is broken
   * down ("by era, -he"; "breakdown not in stream" when joined mid-run). */
  char area[320];
  const char *breakdown = profile_breakdown_words(p);
  snprintf(area, sizeof area, "%s %s x %s%s%s", l->area_text, p->value_unit,
           p->sample_unit, breakdown ? ", " : "", breakdown ? breakdown : "");
  if (l->big_title)
    draw_text(r, 11.0, line1 - 20.0, area, strlen(area), 12.0, LEFT,
              626.0 - date_w - 20.0, 0);
  else
    draw_text(r, 319.0, line1, area, strlen(area), 12.0, CENTRE, 200.0, 0);
  draw_text(r, 637.0, l->big_title ? line1 - 20.0 : line1, p->date,
            strlen(p->date), 12.0, RIGHT, 0, 0);
  (void)b;
}

/* --pattern: band k gets hatch style k % 8 over background grey
 * k / 8 % 3, so neighbouring bands always differ in hatching and the
 * first 24 bands all differ. */
#define HATCH_TILE 6.0
static cairo_pattern_t *get_hatch_pattern(render_ctx *r, size_t style) {
  if (r->hatch[style]) return r->hatch[style];
  cairo_rectangle_t ext = {0, 0, HATCH_TILE, HATCH_TILE};
  cairo_surface_t *tile =
      cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &ext);
  cairo_t *cr = cairo_create(tile);
  const double t = HATCH_TILE, h = HATCH_TILE / 2;
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, 0.6);
  switch (style) {
  case 1: /* rising diagonals, continued across the tile's edges */
  case 6: /* both diagonals */
    cairo_move_to(cr, -h, h), cairo_line_to(cr, h, -h);
    cairo_move_to(cr, 0, t), cairo_line_to(cr, t, 0);
    cairo_move_to(cr, h, t + h), cairo_line_to(cr, t + h, h);
    if (style == 1) break;
    /* fall through */
  case 2: /* falling diagonals */
    cairo_move_to(cr, -h, h), cairo_line_to(cr, h, t + h);
    cairo_move_to(cr, 0, 0), cairo_line_to(cr, t, t);
    cairo_move_to(cr, h, -h), cairo_line_to(cr, t + h, h);
    break;
  case 3: /* horizontal */
  case 5: /* grid */
    cairo_move_to(cr, 0, h), cairo_line_to(cr, t, h);
    if (style == 3) break;
    /* fall through */
  case 4: /* vertical */
    cairo_move_to(cr, h, 0), cairo_line_to(cr, h, t);
    break;
  case 7: /* dots */
    cairo_arc(cr, h, h, 0.9, 0, 2 * M_PI);
    cairo_fill(cr);
    break;
  default: /* 0: plain */
    break;
  }
  cairo_stroke(cr);
  cairo_destroy(cr);
  cairo_pattern_t *pat = cairo_pattern_create_for_surface(tile);
  cairo_surface_destroy(tile);
  cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT);
  r->hatch[style] = pat;
  return pat;
}

/* Fills the current path (kept) as band k with `shade`. */
static void fill_band(render_ctx *r, double shade, size_t k) {
  cairo_t *cr = r->cr;
  if (r->pattern) {
    static const double bg[] = {1.0, 0.82, 0.64};
    cairo_set_source_rgb(cr, bg[k / 8 % 3], bg[k / 8 % 3], bg[k / 8 % 3]);
    cairo_fill_preserve(cr);
    if (k % 8 != 0) {
      cairo_set_source(cr, get_hatch_pattern(r, k % 8));
      cairo_fill_preserve(cr);
    }
    return;
  }
  double rgb[3];
  palette_rgb(shade, r->colour, rgb);
  cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
  cairo_fill_preserve(cr);
}

#define MIN_CUT_MIDDLE_W 55.0 /* points at 10 pt: "in abcd…wxyz" */

/* Key text at (x, y), at most max_w wide.  A name that does not fit is
 * cut in the middle; one with kept ends (t, a -hi band's: what it is and
 * its source location) keeps them whole and cuts what lies between (its
 * binding), or leaves that out where even a cut one has no room.  Only
 * when the kept ends alone do not fit is the whole name cut. */
static void draw_key_name(render_ctx *r, double x, double y, const char *name,
                          const label_text *t, double max_w) {
  size_t n = strlen(name);
  size_t head = t ? t->keep_head : 0, tail = t ? t->keep_tail : 0;
  if (head + tail > n) head = tail = 0;
  if ((!head && !tail) || measure(r, name, n, 10.0) <= max_w) {
    draw_text(r, x, y, name, n, 10.0, LEFT, max_w, 0);
    return;
  }
  size_t m0 = head, m1 = n - tail; /* the middle, without its spaces */
  while (m0 < m1 && name[m0] == ' ') m0++;
  while (m1 > m0 && name[m1 - 1] == ' ') m1--;
  double space = measure(r, " ", 1, 10.0);
  double hw = head ? measure(r, name, head, 10.0) : 0.0;
  double tw = tail ? measure(r, name + n - tail, tail, 10.0) : 0.0;
  double gaps = (head && tail) ? space : 0.0;
  if (hw + tw + gaps > max_w) {
    draw_text(r, x, y, name, n, 10.0, LEFT, max_w, 0);
    return;
  }
  double at = x;
  if (head) at += draw_text(r, at, y, name, head, 10.0, LEFT, 0, 0) + space;
  double room = max_w - hw - tw - (head ? space : 0.0) - (tail ? space : 0.0);
  /* a cut middle keeps most of itself, or ten characters or so around
   * its "…"; less reads worse than none */
  double mid_w = m1 > m0 ? measure(r, name + m0, m1 - m0, 10.0) : 0.0;
  if (m1 > m0 && (room >= 0.6 * mid_w || room >= MIN_CUT_MIDDLE_W))
    at += draw_text(r, at, y, name + m0, m1 - m0, 10.0, LEFT, room, 0) +
          space;
  if (tail) draw_text(r, at, y, name + n - tail, tail, 10.0, LEFT, 0, 0);
}

/* One key entry, as hp2ps draws it: the band's shaded 14 pt box, then its
 * name, on centre line c. */
static void draw_key_entry(render_ctx *r, double kstart, double c,
                           const char *name, const label_text *t,
                           double shade, size_t k, double max_w) {
  cairo_t *cr = r->cr;
  cairo_rectangle(cr, kstart + 5.0, c - 7.0, KEY_BOX, KEY_BOX);
  fill_band(r, shade, k);
  stroke_black(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_key_name(r, kstart + 24.0, c - 5.0, name, t, max_w);
}

static void draw_axes(render_ctx *r, const hp2x_profile *p, const layout *l) {
  cairo_t *cr = r->cr;
  double x0 = l->graph_x0, y0 = l->graph_y0;
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x0 + l->graph_w, y0);
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x0, y0 + l->graph_h);
  for (size_t i = 0; i < l->n_xticks; i++) {
    cairo_move_to(cr, x0 + l->xticks[i].pos, y0);
    cairo_line_to(cr, x0 + l->xticks[i].pos, y0 - TICK_LEN);
  }
  for (size_t i = 0; i < l->n_yticks; i++) {
    cairo_move_to(cr, x0, y0 + l->yticks[i].pos);
    cairo_line_to(cr, x0 - TICK_LEN, y0 + l->yticks[i].pos);
  }
  stroke_black(cr);
  for (size_t i = 0; i < l->n_xticks; i++)
    draw_text(r, x0 + l->xticks[i].pos, 5.0, l->xticks[i].label,
              strlen(l->xticks[i].label), 10.0, CENTRE, 0, 0);
  for (size_t i = 0; i < l->n_yticks; i++)
    draw_text(r, x0 - 5.0, y0 + l->yticks[i].pos, l->yticks[i].label,
              strlen(l->yticks[i].label), 10.0, RIGHT, 0, 0);
  draw_text(r, x0 + l->graph_w, 5.0, p->sample_unit, strlen(p->sample_unit),
            10.0, RIGHT, l->graph_w / 2, 0);
  /* The y legend reads upwards, ending at the top of the axis. */
  draw_text(r, x0 - 7.0, y0 + l->graph_h, p->value_unit,
            strlen(p->value_unit), 10.0, RIGHT, l->graph_h / 2, 1);
}

/* Draws the polygon between curves lo and hi (graph units) at x. */
static void band_polygon(render_ctx *r, const layout *l, const double *x,
                         const double *lo, const double *hi, size_t N,
                         size_t columns, size_t *keep) {
  cairo_t *cr = r->cr;
  double x1 = l->graph_x0 + l->graph_w;
  size_t n = layout_thin(x, lo, N, l->graph_x0, x1, columns, keep);
  cairo_new_path(cr);
  for (size_t i = 0; i < n; i++)
    cairo_line_to(cr, x[keep[i]], l->graph_y0 + lo[keep[i]]);
  n = layout_thin(x, hi, N, l->graph_x0, x1, columns, keep);
  for (size_t i = n; i-- > 0;)
    cairo_line_to(cr, x[keep[i]], l->graph_y0 + hi[keep[i]]);
  cairo_close_path(cr);
}

/* The graph of layout l as band_points.h describes it. */
static band_frame frame_of(const hp2x_profile *p, const hp2x_bands *b,
                           const layout *l, size_t columns, int all_samples) {
  band_frame f = {p, b, l->graph_x0, l->graph_w, l->graph_y0, l->graph_h,
                  columns, all_samples};
  return f;
}

/* A diff chart's bands: at each sample a band's growth is stacked upwards
 * from the zero line and its shrinkage downwards, bottom band nearest the
 * line; then the zero line itself. */
static hp2x_status draw_signed_bands(render_ctx *r, const hp2x_profile *p,
                                     const hp2x_bands *b, const layout *l,
                                     const double *shade, size_t columns,
                                     hp2x_err *err) {
  size_t N = b->n_samples;
  double *buf = hpx_malloc(5 * N * sizeof *buf);
  size_t *keep = hpx_malloc(N * sizeof *keep);
  if (!buf || !keep) {
    hpx_free(buf), hpx_free(keep);
    return hpx_nomem(err);
  }
  double *pos = buf, *neg = buf + N, *lo = buf + 2 * N, *hi = buf + 3 * N;
  double *x = buf + 4 * N;
  band_frame f = frame_of(p, b, l, columns, 0);
  for (size_t s = 0; s < N; s++) x[s] = band_frame_x(&f, s);
  double yscale = l->graph_h / b->yrange;
  double zero = -b->ymin * yscale;
  for (size_t s = 0; s < N; s++) pos[s] = neg[s] = zero;
  cairo_set_line_join(r->cr, CAIRO_LINE_JOIN_ROUND);
  for (size_t k = 0; k < b->n_bands; k++) {
    const int64_t *v = b->values + k * b->stride;
    for (size_t s = 0; s < N; s++) {
      double d = (double)v[s] * yscale;
      if (d >= 0) {
        lo[s] = pos[s];
        hi[s] = pos[s] += d;
      } else {
        hi[s] = neg[s];
        lo[s] = neg[s] += d;
      }
    }
    band_polygon(r, l, x, lo, hi, N, columns, keep);
    fill_band(r, shade[k], k);
    stroke_black(r->cr);
  }
  cairo_move_to(r->cr, l->graph_x0, l->graph_y0 + zero);
  cairo_line_to(r->cr, l->graph_x0 + l->graph_w, l->graph_y0 + zero);
  stroke_black(r->cr);
  hpx_free(buf), hpx_free(keep);
  return HP2X_OK;
}

/* Fills band k: the area under its upper edge e, down to the axis. */
static void fill_under_edge(render_ctx *r, const band_frame *f,
                            const band_edge *e, double shade, size_t k) {
  cairo_t *cr = r->cr;
  double axis = f->y0_pt, yscale = band_frame_yscale(f);
  assert(e->height && e->n_keep > 0); /* a band's edge, not the axis */
  cairo_new_path(cr);
  cairo_move_to(cr, band_frame_x(f, 0), axis);
  for (size_t i = 0; i < e->n_keep; i++)
    cairo_line_to(cr, band_frame_x(f, e->keep[i]),
                  axis + (double)e->height[e->keep[i]] * yscale);
  cairo_line_to(cr, band_frame_x(f, f->b->n_samples - 1), axis);
  cairo_close_path(cr);
  fill_band(r, shade, k);
  stroke_black(cr);
}

/* The points of edge e as tooltip path steps, forwards (the first a move)
 * or backwards. */
static void tip_edge(render_ctx *r, const band_frame *f, const band_edge *e,
                     int forwards) {
  double axis = f->y0_pt, yscale = band_frame_yscale(f);
  for (size_t j = 0; j < e->n_keep; j++) {
    size_t i = forwards ? j : e->n_keep - 1 - j;
    size_t s = e->keep[i];
    double h = e->height ? (double)e->height[s] : 0.0;
    tip_point(r, forwards && j == 0 ? 'M' : 'L', band_frame_x(f, s),
              axis + h * yscale);
  }
}

/* Band k's tooltip path: its upper edge `top` forwards, then its lower
 * edge (the next band's upper edge) backwards. */
static hp2x_status tip_band(render_ctx *r, band_points *w, const band_frame *f,
                            const band_edge *top, size_t k, hp2x_err *err) {
  tip_str(r, "<path d=\"");
  tip_edge(r, f, top, 1);
  band_edge below;
  if (w->ops->edge(w, k - 1, &below, err) != HP2X_OK) return err->code;
  tip_edge(r, f, &below, 0);
  tip_str(r, "Z\">");
  tip_title(r, f->p, f->b, k);
  tip_str(r, "</path>\n");
  return HP2X_OK;
}

/* The stacked bands.  hp2ps outlines each band between its lower and upper
 * curves; the same picture comes from painting top-down, each band filled
 * from its upper curve down to the axis and over-painted by the bands below
 * it: every curve is drawn once instead of twice.  Each curve is thinned to
 * at most two points per device column at 600 dpi of the final picture,
 * unless all_samples asks for every one; the points come from the walk
 * layout_open_band_points chooses (band_points.h).  Stacked heights stay
 * exact (int64) until scaled. */
static hp2x_status draw_bands(render_ctx *r, const hp2x_profile *p,
                              const hp2x_bands *b, const layout *l,
                              const double *shade, size_t columns,
                              int all_samples, hp2x_err *err) {
  if (b->n_samples == 0 || b->n_bands == 0) return HP2X_OK;
  if (b->is_signed) return draw_signed_bands(r, p, b, l, shade, columns, err);
  band_frame f = frame_of(p, b, l, columns, all_samples);
  band_points *w;
  if (layout_open_band_points(&f, &w, err) != HP2X_OK) return err->code;
  cairo_set_line_join(r->cr, CAIRO_LINE_JOIN_ROUND);
  hp2x_status st = HP2X_OK;
  for (size_t k = b->n_bands; k-- > 0 && st == HP2X_OK;) {
    band_edge top;
    st = w->ops->edge(w, k, &top, err);
    if (st == HP2X_OK) fill_under_edge(r, &f, &top, shade[k], k);
    if (st == HP2X_OK && r->tips) st = tip_band(r, w, &f, &top, k, err);
  }
  w->ops->close(w);
  return st;
}

/* --heap lines: heap size solid black, blocks size dashed dark red, live
 * bytes dash-dotted blue, so they tell apart in grey print too. */
static void line_style(cairo_t *cr, int style) {
  static const double dashed[] = {4.0, 2.0};
  static const double dashdot[] = {4.0, 1.5, 1.0, 1.5};
  static const double rgb[3][3] = {{0, 0, 0}, {0.75, 0.1, 0.1},
                                   {0.1, 0.3, 0.85}};
  cairo_set_source_rgb(cr, rgb[style][0], rgb[style][1], rgb[style][2]);
  cairo_set_line_width(cr, 1.2);
  if (style == 1) cairo_set_dash(cr, dashed, 2, 0.0);
  else if (style == 2) cairo_set_dash(cr, dashdot, 4, 0.0);
  else cairo_set_dash(cr, NULL, 0, 0.0);
}

/* Clips the segment (*x0,*y0)-(*x1,*y1) to [xl,xh] x [yl,yh] (Liang and
 * Barsky); 0 when nothing of it is inside.  *start_cut / *end_cut say
 * whether an end moved. */
static int clip_segment(double *x0, double *y0, double *x1, double *y1,
                        double xl, double xh, double yl, double yh,
                        int *start_cut, int *end_cut) {
  if (!isfinite(*x0) || !isfinite(*y0) || !isfinite(*x1) || !isfinite(*y1))
    return 0;
  double dx = *x1 - *x0, dy = *y1 - *y0, t0 = 0.0, t1 = 1.0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {*x0 - xl, xh - *x0, *y0 - yl, yh - *y0};
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0.0) {
      if (q[i] < 0.0) return 0;
      continue;
    }
    double t = q[i] / p[i];
    if (p[i] < 0.0) {
      if (t > t1) return 0;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return 0;
      if (t < t1) t1 = t;
    }
  }
  double ax = *x0 + t0 * dx, ay = *y0 + t0 * dy;
  double bx = *x0 + t1 * dx, by = *y0 + t1 * dy;
  *x0 = ax, *y0 = ay, *x1 = bx, *y1 = by;
  *start_cut = t0 > 0.0;
  *end_cut = t1 < 1.0;
  return 1;
}

/* The --heap lines over the bands, clipped to the graph, each thinned as
 * the bands are (to `columns`; 0 = every point).  The segments are cut to
 * the graph (and a margin) before cairo sees them: a point far outside,
 * as a comparison's shared axes or an odd eventlog can put one, would
 * otherwise be dashed along its whole length, however far away. */
static hp2x_status draw_heap_lines(render_ctx *r, const hp2x_bands *b,
                              const layout *l, size_t columns,
                              hp2x_err *err) {
  cairo_t *cr = r->cr;
  for (size_t k = 0; k < l->n_lines; k++) {
    const hpx_series *s = l->lines[k].series;
    double *x = hpx_malloc(s->n * sizeof *x);
    double *y = hpx_malloc(s->n * sizeof *y);
    size_t *keep = hpx_malloc(s->n * sizeof *keep);
    if (!x || !y || !keep) {
      hpx_free(x), hpx_free(y), hpx_free(keep);
      return hpx_nomem(err);
    }
    for (size_t i = 0; i < s->n; i++) {
      x[i] = l->graph_x0 + (s->time_s[i] - b->x0) / b->xrange * l->graph_w;
      y[i] = l->graph_y0 +
             ((double)s->bytes[i] - b->ymin) / b->yrange * l->graph_h;
    }
    size_t n = layout_thin(x, y, s->n, l->graph_x0, l->graph_x0 + l->graph_w,
                           columns ? columns : s->n, keep);
    cairo_save(cr);
    cairo_rectangle(cr, l->graph_x0, l->graph_y0, l->graph_w, l->graph_h);
    cairo_clip(cr);
    cairo_new_path(cr);
    const double m = 4.0; /* margin beyond the clip, past the line's width */
    int joined = 0;       /* the path's last point is this segment's start */
    for (size_t i = 0; i + 1 < n; i++) {
      double ax = x[keep[i]], ay = y[keep[i]];
      double bx = x[keep[i + 1]], by = y[keep[i + 1]];
      int start_cut, end_cut;
      if (!clip_segment(&ax, &ay, &bx, &by, l->graph_x0 - m,
                        l->graph_x0 + l->graph_w + m, l->graph_y0 - m,
                        l->graph_y0 + l->graph_h + m, &start_cut, &end_cut)) {
        joined = 0;
        continue;
      }
      if (!joined || start_cut) cairo_move_to(cr, ax, ay);
      cairo_line_to(cr, bx, by);
      joined = !end_cut;
    }
    line_style(cr, l->lines[k].style);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr);
    cairo_restore(cr);
    hpx_free(x), hpx_free(y), hpx_free(keep);
  }
  return HP2X_OK;
}

/* A --heap line's key entry: a stretch of the line and its name. */
static void draw_key_line(render_ctx *r, double kstart, double c,
                          const layout_line *line, double max_w) {
  cairo_t *cr = r->cr;
  cairo_save(cr);
  cairo_move_to(cr, kstart + 5.0, c);
  cairo_line_to(cr, kstart + 5.0 + KEY_BOX, c);
  line_style(cr, line->style);
  cairo_stroke(cr);
  cairo_restore(cr);
  cairo_set_source_rgb(cr, 0, 0, 0);
  draw_text(r, kstart + 24.0, c - 5.0, line->name, strlen(line->name), 10.0,
            LEFT, max_w, 0);
}

/* Marker labels: small, rotated to read upwards, ending near the top of
 * the graph just left of their line, on a white box so they stay legible
 * over the bands.  A label closer than MARK_LABEL_GAP to the last label
 * drawn is skipped (its line is kept), so a cluster of markers shows its
 * first label and every line. */
#define MARK_FONT 7.0
#define MARK_LABEL_GAP (MARK_FONT + 1.5)

/* The transformation a marker label is drawn under: its baseline ends at
 * frame point (bx, top) and reads upwards. */
static void mark_label_matrix(cairo_t *cr, double bx, double top) {
  cairo_translate(cr, bx, top);
  cairo_scale(cr, 1.0, -1.0);
  cairo_rotate(cr, -M_PI / 2);
}

static void draw_mark_label(render_ctx *r, const layout *l, double x,
                            const char *s) {
  cairo_t *cr = r->cr;
  double top = l->graph_y0 + l->graph_h - 2.0;
  /* In frame coordinates the text runs from top - w up to top, its
   * glyphs to the left of the baseline at x - 1.5. */
  double bx = x - 1.5;
  cairo_save(cr); /* measured under the matrix it is drawn with */
  mark_label_matrix(cr, bx, top);
  text_matrix_from_cr(r);
  cairo_restore(cr);
  if (!set_text(r, s, strlen(s), MARK_FONT, l->graph_h * 0.45)) return;
  double w = text_width(r);
  PangoRectangle ink, logical;
  pango_layout_get_extents(r->text, &ink, &logical);
  double baseline = (double)pango_layout_get_baseline(r->text) / PANGO_SCALE;
  double h = (double)logical.height / PANGO_SCALE;
  cairo_rectangle(cr, bx - baseline, top - w - 1.0, h, w + 2.0);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_fill(cr);
  cairo_save(cr);
  mark_label_matrix(cr, bx, top);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_move_to(cr, -w, -baseline);
  pango_cairo_show_layout(cr, r->text);
  cairo_restore(cr);
}

/* Marks (.hp MARK lines, eventlog markers): hp2ps's small white triangles
 * under the x axis, and a thin dashed line across the graph with the
 * marker's text.  Marks outside the graph's time span are left out. */
static void draw_marks(render_ctx *r, const hp2x_profile *p,
                       const hp2x_bands *b, const layout *l) {
  if (p->n_samples == 0) return;
  cairo_t *cr = r->cr;
  static const double dash[] = {2.0, 1.5};
  double last_label = -INFINITY;
  for (size_t m = 0; m < p->n_marks; m++) {
    double x = l->graph_x0 +
               (p->mark_time[m] - b->x0) / b->xrange * l->graph_w;
    if (!(x >= l->graph_x0 && x <= l->graph_x0 + l->graph_w)) continue;
    cairo_move_to(cr, x, l->graph_y0);
    cairo_line_to(cr, x, l->graph_y0 + l->graph_h);
    cairo_set_dash(cr, dash, 2, 0.0);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.35);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0.0);
    cairo_move_to(cr, x - 4.0, l->graph_y0);
    cairo_line_to(cr, x, l->graph_y0 - 4.0);
    cairo_line_to(cr, x + 4.0, l->graph_y0);
    cairo_close_path(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_fill_preserve(cr);
    stroke_black(cr);
    const char *label = p->mark_label[m];
    if (label[0] && x - last_label >= MARK_LABEL_GAP) {
      draw_mark_label(r, l, x, label);
      last_label = x;
    }
  }
}

/* Starts drawing picture `slot` (0 = top) of the page. */
static void begin_page(render_ctx *r, const surface_page *page, size_t slot) {
  cairo_t *cr = r->cr;
  cairo_identity_matrix(cr);
  cairo_reset_clip(cr);
  if (page->clip) {
    cairo_rectangle(cr, 0, 0, page->width_pt, page->height_pt);
    cairo_clip(cr);
  }
  cairo_matrix_t frame = page->frame;
  frame.y0 += (double)slot * page->slot_dy_pt;
  cairo_set_matrix(cr, &frame);
}

/* Key pages (multi-page output): the key alone, LAYOUT_KEY_PER_PAGE
 * entries a page, before the graph's page. */
static void draw_key_pages(render_ctx *r, const hp2x_profile *p,
                           const hp2x_bands *b, const layout *l,
                           const surface_page *page, const double *shade) {
  size_t nb = b->n_bands;
  for (int pg = 0; pg < l->key_pages; pg++) {
    begin_page(r, page, 0);
    draw_frame(r, p, b, l);
    for (size_t k = (size_t)pg * LAYOUT_KEY_PER_PAGE;
         k < nb && k < (size_t)(pg + 1) * LAYOUT_KEY_PER_PAGE; k++)
      draw_key_entry(r, 45.0, layout_key_centre(l, k, nb, 1), b->names[k],
                     b->texts ? &b->texts[k] : NULL, shade[k], k,
                     l->key_label_max_w);
    cairo_show_page(r->cr);
  }
}

/* Band k's key box as a tooltip path: key column at kx, centre line c. */
static void tip_key_box(render_ctx *r, const hp2x_profile *p,
                        const hp2x_bands *b, const layout *l, size_t k,
                        double kx, double c) {
  tip_str(r, "<path d=\"");
  tip_point(r, 'M', kx + 5.0, c - 7.0);
  tip_point(r, 'L', kx + 5.0 + l->key_w, c - 7.0);
  tip_point(r, 'L', kx + 5.0 + l->key_w, c + 7.0);
  tip_point(r, 'L', kx + 5.0, c + 7.0);
  tip_str(r, "Z\">");
  tip_title(r, p, b, k);
  tip_str(r, "</path>\n");
}

/* The key beside the graph: the bands' entries, then the --heap lines'
 * above them. */
static void draw_key_beside(render_ctx *r, const hp2x_profile *p,
                            const hp2x_bands *b, const layout *l,
                            const double *shade) {
  size_t nb = b->n_bands, nk = nb + l->n_lines;
  double kx = l->graph_x0 + l->graph_w;
  for (size_t k = 0; k < nb; k++) {
    double c = layout_key_centre(l, k, nk, 0);
    draw_key_entry(r, kx, c, b->names[k], b->texts ? &b->texts[k] : NULL,
                   shade[k], k, l->key_label_max_w);
    if (r->tips && !b->is_signed) tip_key_box(r, p, b, l, k, kx, c);
  }
  for (size_t k = 0; k < l->n_lines; k++)
    draw_key_line(r, kx, layout_key_centre(l, nb + k, nk, 0), &l->lines[k],
                  l->key_label_max_w);
}

/* Device columns at 600 dpi across width_pt points of the frame (the
 * final picture's scale: -e scales the frame to its width). */
static size_t columns_across(double width_pt, const hp2x_options *o) {
  double scale = o->eps_width_pt > 0.0 ? o->eps_width_pt / LAYOUT_FRAME_W
                                       : 1.0;
  return (size_t)(width_pt * scale / 72.0 * 600.0) + 1;
}

size_t hp2x_picture_columns(const hp2x_options *o) {
  return columns_across(LAYOUT_FRAME_W, o);
}

/* The graph's page, in slot `slot`: frame, bands, --heap lines, axes,
 * marks and the key beside the graph. */
static hp2x_status draw_graph_page(render_ctx *r, const hp2x_profile *p,
                                   const hp2x_bands *b, const layout *l,
                                   const double *shade, const hp2x_options *o,
                                   const surface_page *page, size_t slot,
                                   hp2x_err *err) {
  /* Device columns at 600 dpi of the final picture; 0: every sample. */
  size_t columns = o->all_samples ? 0 : columns_across(l->graph_w, o);
  begin_page(r, page, slot);
  draw_frame(r, p, b, l);
  hp2x_status st = draw_bands(r, p, b, l, shade,
                              o->all_samples ? b->n_samples : columns,
                              o->all_samples, err);
  if (st == HP2X_OK && l->n_lines) st = draw_heap_lines(r, b, l, columns, err);
  if (st != HP2X_OK) return st;
  draw_axes(r, p, l);
  if (!o->no_marks) draw_marks(r, p, b, l);
  if (o->max_bands != 0 && l->key_pages == 0)
    draw_key_beside(r, p, b, l, shade);
  return HP2X_OK;
}

/* Draws one picture: its key pages (multi-page), then the graph page.
 * Stacked pictures share one page: slot places it, and the caller shows
 * the page. */
static hp2x_status draw_picture(render_ctx *r, const hp2x_profile *p,
                                const hp2x_bands *b, const hp2x_options *o,
                                const surface_page *page, size_t slot,
                                int stacked, hp2x_err *err) {
  int paged = hp2x_format_has_pages(o->format);
  int multipage = paged && !stacked && o->eps_width_pt <= 0.0 &&
                  (o->multipage || o->max_bands > 20);
  r->upright = page->frame;
  cairo_matrix_scale(&r->upright, 1.0, -1.0);
  layout l;
  hp2x_status st = layout_compute(p, b, o, multipage, measure, r, &l, err);
  if (st != HP2X_OK) return st;
  size_t nb = b->n_bands;
  double *shade = hpx_malloc((nb ? nb : 1) * sizeof *shade);
  if (!shade) {
    layout_free(&l);
    return hpx_nomem(err);
  }
  palette_assign(b, o, shade);
  if (o->max_bands != 0) draw_key_pages(r, p, b, &l, page, shade);
  st = draw_graph_page(r, p, b, &l, shade, o, page, slot, err);
  if (st == HP2X_OK && !stacked) cairo_show_page(r->cr);
  hpx_free(shade);
  layout_free(&l);
  if (st == HP2X_OK && r->nomem) st = hpx_nomem(err);
  return st;
}

/* The document title: the JOB strings, joined. */
static void doc_title(char *buf, size_t size, const hp2x_profile *const *ps,
                      size_t n) {
  size_t o = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && o + 1 < size; i++) {
    int w = snprintf(buf + o, size - o, "%s%s", i ? " | " : "", ps[i]->job);
    if (w < 0) break;
    o += (size_t)w;
  }
}

/* HP2X_E_ARG unless o asks for a picture drawable here; then *map is a
 * font map of o->fonts_conf, ready and this render's until it gives it
 * back (errors as take_font_map). */
static hp2x_status check_picture_options(const hp2x_options *o,
                                         PangoFontMap **map,
                                         font_entry **fonts, hp2x_err *err) {
  if (!hp2x_format_is_picture(o->format))
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "not a picture format");
  if (o->format == HP2X_FORMAT_PNG && !(o->dpi >= 0.0 && o->dpi <= 1200.0))
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "%g dpi is outside 1..1200",
                     o->dpi);
  *map = take_font_map(o->fonts_conf, 0, fonts, err);
  return *map ? HP2X_OK : err->code;
}

/* A sink writing through `write`, dated `sde` (o->source_date_epoch, ""
 * when unset) or else p's DATE: hp2ps dates PostScript with the profile's
 * DATE; a source date, when given, dates every format instead. */
static void init_sink(surface_sink *sink, hp2x_write_fn write, void *closure,
                      const char *sde, const hp2x_profile *p) {
  memset(sink, 0, sizeof *sink);
  sink->write = write;
  sink->closure = closure;
  sink->date = sde[0] ? sde : p->date;
}

/* Starts drawing on `surface`: r's cairo and pango state, the SVG tooltip
 * group opened, a PNG painted white (an image starts black).  The cairo
 * error state, if any, as HP2X_E_IO (the sink failed) or HP2X_E_CAIRO;
 * close_context undoes it either way. */
static hp2x_status open_context(render_ctx *r, cairo_surface_t *surface,
                                PangoFontMap *map, const hp2x_options *o,
                                const surface_sink *sink, hp2x_err *err) {
  memset(r, 0, sizeof *r);
  r->colour = palette_is_colour(o);
  r->pattern = o->pattern;
  r->tips = o->format == HP2X_FORMAT_SVG;
  if (r->tips)
    tip_str(r, "<g id=\"hp2x-tooltips\" fill=\"#000\" fill-opacity=\"0\" "
               "stroke=\"none\">\n");
  r->cr = cairo_create(surface);
  r->pango = new_text_context(map);
  r->text = pango_layout_new(r->pango);
  r->font = pango_font_description_from_string(FONT_FAMILY);
  if (o->format == HP2X_FORMAT_PNG) {
    cairo_set_source_rgb(r->cr, 1, 1, 1);
    cairo_paint(r->cr);
  }
  if (cairo_status(r->cr) == CAIRO_STATUS_SUCCESS) return HP2X_OK;
  return hpx_fail(err, sink->failed ? HP2X_E_IO : HP2X_E_CAIRO, 0, -1, "%s",
                   sink->failed ? strerror(sink->saved_errno)
                                : cairo_status_to_string(cairo_status(r->cr)));
}

/* Ends drawing: frees r's cairo and pango state, and hands the SVG tooltip
 * group to the sink (r->tip stays r's, to free after the sink's flush).
 * Returns st, or HP2X_E_NOMEM when the tooltips ran out of memory. */
static hp2x_status close_context(render_ctx *r, surface_sink *sink,
                                 hp2x_status st, hp2x_err *err) {
  for (size_t i = 0; i < sizeof r->hatch / sizeof r->hatch[0]; i++)
    if (r->hatch[i]) cairo_pattern_destroy(r->hatch[i]);
  pango_font_description_free(r->font);
  g_object_unref(r->text);
  g_object_unref(r->pango);
  if (r->tips) {
    tip_str(r, "</g>\n");
    if (!r->nomem) {
      sink->insert = r->tip;
      sink->insert_len = r->tip_len;
    } else if (st == HP2X_OK) {
      st = hpx_nomem(err);
    }
  }
  cairo_destroy(r->cr);
  return st;
}

/* Finishes and destroys the surface, writing a PNG's bytes first when
 * write_png, and flushes the sink.  Returns cairo's verdict. */
static cairo_status_t finish_surface(cairo_surface_t *surface,
                                     surface_sink *sink, int write_png) {
  cairo_status_t cs = CAIRO_STATUS_SUCCESS;
  if (write_png && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS)
    cs = surface_write_png(surface, sink);
  cairo_surface_finish(surface);
  if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  surface_sink_flush(sink);
  surface_sink_release(sink);
  return cs;
}

/* The result of a rendering whose drawing ended in st: st, else the sink's
 * or cairo's failure. */
static hp2x_status output_status(hp2x_status st, const surface_sink *sink,
                                 cairo_status_t cs, hp2x_err *err) {
  if (st != HP2X_OK) return st;
  if (sink->failed && sink->saved_errno == ENOMEM) return hpx_nomem(err);
  if (sink->failed)
    return hpx_fail(err, HP2X_E_IO, 0, -1, "write failed: %s",
                     strerror(sink->saved_errno));
  if (cs != CAIRO_STATUS_SUCCESS)
    return hpx_fail(err, HP2X_E_CAIRO, 0, -1, "cairo: %s",
                     cairo_status_to_string(cs));
  return HP2X_OK;
}

/* Draws n pictures onto one surface: a page each, or stacked on one. */
static hp2x_status render_pictures(const hp2x_profile *const *ps,
                                   const hp2x_bands *const *bs, size_t n,
                                   const hp2x_options *o, int stacked,
                                   hp2x_write_fn write, void *closure,
                                   hp2x_err *err) {
  PangoFontMap *map = NULL;
  font_entry *fonts = NULL;
  hp2x_status st = check_picture_options(o, &map, &fonts, err);
  if (st != HP2X_OK) return st;
  surface_page page;
  if (stacked)
    surface_page_for_stack(o, n, &page);
  else
    surface_page_for(o, &page);
  int png = o->format == HP2X_FORMAT_PNG;
  if (png) surface_page_to_pixels(o, &page);
  char sde[32], title[200];
  surface_source_date(o, sde, sizeof sde);
  surface_sink sink;
  init_sink(&sink, write, closure, sde, ps[0]);
  doc_title(title, sizeof title, ps, n);
  cairo_surface_t *surface = surface_create(o, &page, &sink, title);
  render_ctx r;
  st = open_context(&r, surface, map, o, &sink, err);
  for (size_t i = 0; i < n && st == HP2X_OK; i++)
    st = draw_picture(&r, ps[i], bs[i], o, &page, stacked ? i : 0, stacked,
                      err);
  if (st == HP2X_OK && stacked) cairo_show_page(r.cr);
  st = close_context(&r, &sink, st, err);
  cairo_status_t cs = finish_surface(surface, &sink, png && st == HP2X_OK);
  release_font_map(fonts, map);
  hpx_free(r.tip);
  return output_status(st, &sink, cs, err);
}

hp2x_status hp2x_render(const hp2x_profile *p, const hp2x_bands *b,
                        const hp2x_options *given, hp2x_write_fn write,
                        void *closure, hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  return render_pictures(&p, &b, 1, o, 0, write, closure, err);
}

hp2x_status hp2x_render_many(const hp2x_profile *const *ps,
                             const hp2x_bands *const *bs, size_t n,
                             const hp2x_options *given, hp2x_write_fn write,
                             void *closure, hp2x_err *err) {
  hp2x_options full;
  hp2x_status options_status = options_complete(given, &full, err);
  if (options_status != HP2X_OK) return options_status;
  const hp2x_options *o = &full;
  if (n == 0)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "no profiles to draw");
  int stacked = o->layout == HP2X_LAYOUT_STACK;
  if (!stacked && n > 1 && !hp2x_format_has_pages(o->format))
    return hpx_fail(err, HP2X_E_ARG, 0, -1,
                     "EPS, SVG and PNG have one page: stack the pictures "
                     "or write one file each");
  return render_pictures(ps, bs, n, o, stacked, write, closure, err);
}
