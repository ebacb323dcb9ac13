/* render_fonts.c -- the pinned fonts: the fonts.conf the caller names (or
 * the installed data directory's) loaded into a fontconfig configuration
 * of a font map of its own, so the user's font settings cannot change the
 * glyphs and the process's fontconfig and pango defaults are left alone;
 * hp2x_fonts_prepare, hp2x_fonts_make_process_default and
 * hp2x_fonts_release.  Where the fonts are is the caller's to say: the
 * library looks at no executable's path and no environment.
 */
#include "render_int.h"

#include <fontconfig/fontconfig.h>
#include <limits.h>
#include <pango/pangofc-fontmap.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

/* --------------------------------------------------------------- fonts */

/* The fonts: per fonts.conf asked for (fonts_conf NULL: the installed
 * data directory's), one fontconfig configuration, loaded on first use and
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
  int used;                          /* this slot is taken */
  int installed;                     /* asked for with fonts_conf NULL */
  char fonts_conf[PATH_MAX];         /* as asked for, when not installed */
  FcConfig *config;                  /* NULL: none found or it did not load
                                        (fontconfig's default is used) */
  PangoFontMap *idle[MAX_IDLE_MAPS]; /* font maps no render holds; owned */
  size_t n_idle;
  size_t n_made; /* font maps made so far */
} font_entry;
static font_entry font_configs[MAX_FONT_CONFIGS];
static pthread_mutex_t fonts_lock = PTHREAD_MUTEX_INITIALIZER;

/* The installed data directory's fonts.conf (hp2x.h, fonts_conf NULL)
 * into buf, when it is there to read. */
static int installed_fonts_conf(char *buf, size_t size) {
  snprintf(buf, size, "%s/fonts/fonts.conf", HP2X_DATADIR);
  return access(buf, R_OK) == 0;
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
PangoContext *hpx_render_new_text_context(PangoFontMap *map) {
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
  PangoFontMap *map =
      pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  if (!map) return NULL;
  if (cfg) pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), cfg);
  PangoContext *ctx = hpx_render_new_text_context(map);
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
    else if (fonts_conf ? !t->installed && !strcmp(t->fonts_conf, fonts_conf)
                        : t->installed)
      e = t;
  }
  if (e && !e->used) {
    e->used = 1;
    e->installed = fonts_conf == NULL;
    char path[PATH_MAX + 64];
    if (fonts_conf) {
      snprintf(e->fonts_conf, sizeof e->fonts_conf, "%s", fonts_conf);
      e->config = load_font_config(fonts_conf);
    } else if (installed_fonts_conf(path, sizeof path)) {
      e->config = load_font_config(path);
    }
  }
  /* Before pango's first font map starts its FcInit (hp2x.h). */
  if (e && e->config && process_default) FcConfigSetCurrent(e->config);
  return e;
}

/* The one way to the fonts: fonts_conf's entry (its configuration loaded)
 * and a font map, under one hold of fonts_lock.  With `take`, a map for the
 * caller alone: an idle one, or a new one (*take NULL on failure).  Without
 * it (hp2x_fonts_prepare), one warmed map put in the pool unless one was
 * made already (a render that came first made its own), so that a render
 * waiting for the configuration finds the map instead of making another.
 * HP2X_E_ARG for a path too long, _LIMIT when the table is full, _CAIRO
 * when pango gives no font map. */
static hp2x_status font_map_for(const char *fonts_conf, int process_default,
                                PangoFontMap **take, font_entry **entry,
                                hp2x_err *err) {
  if (fonts_conf && strlen(fonts_conf) >= PATH_MAX)
    return hpx_fail(err, HP2X_E_ARG, 0, -1, "fonts.conf path of %zu bytes",
                    strlen(fonts_conf));
  pthread_mutex_lock(&fonts_lock);
  font_entry *e = find_fonts(fonts_conf, process_default);
  PangoFontMap *map = NULL;
  int have = e && !take && e->n_made > 0;
  if (e && take && e->n_idle) {
    map = e->idle[--e->n_idle];
  } else if (e && !have && (map = make_font_map(e->config)) != NULL) {
    e->n_made++;
    if (!take) e->idle[e->n_idle++] = map; /* n_made was 0: pool empty */
  }
  pthread_mutex_unlock(&fonts_lock);
  if (entry) *entry = e;
  if (take) *take = map;
  if (!e)
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1,
                    "more than %d different fonts.conf files in one process",
                    MAX_FONT_CONFIGS);
  if (!have && !map)
    return hpx_fail(err, HP2X_E_CAIRO, 0, -1, "no font map available");
  return HP2X_OK;
}

/* A font map for fonts_conf that no other render holds: an idle one, or a
 * new one.  NULL with err set when there is none.  Give it back with
 * hpx_render_release_font_map. */
PangoFontMap *hpx_render_take_font_map(const char *fonts_conf,
                                       int process_default, font_entry **entry,
                                       hp2x_err *err) {
  PangoFontMap *map = NULL;
  font_map_for(fonts_conf, process_default, &map, entry, err);
  return map;
}

/* Gives a font map from hpx_render_take_font_map back to e's pool (or frees it
 * when the pool is full). */
void hpx_render_release_font_map(font_entry *e, PangoFontMap *map) {
  if (!map) return;
  pthread_mutex_lock(&fonts_lock);
  int kept = e->n_idle < MAX_IDLE_MAPS;
  if (kept) e->idle[e->n_idle++] = map;
  pthread_mutex_unlock(&fonts_lock);
  if (!kept) g_object_unref(map);
}

/* hp2x_fonts_prepare and _make_process_default (err may be NULL). */
static hp2x_status prepare_fonts(const char *fonts_conf, int process_default,
                                 hp2x_err *err) {
  hp2x_err local;
  if (!err) {
    hp2x_err_init(&local);
    err = &local;
  }
  return font_map_for(fonts_conf, process_default, NULL, NULL, err);
}

hp2x_status hp2x_fonts_prepare(const char *fonts_conf, hp2x_err *err) {
  return prepare_fonts(fonts_conf, 0, err);
}

hp2x_status hp2x_fonts_make_process_default(const char *fonts_conf,
                                            hp2x_err *err) {
  return prepare_fonts(fonts_conf, 1, err);
}

void hp2x_fonts_release(void) {
  pthread_mutex_lock(&fonts_lock);
  for (size_t i = 0; i < MAX_FONT_CONFIGS; i++) {
    font_entry *e = &font_configs[i];
    if (!e->used) continue;
    for (size_t m = 0; m < e->n_idle; m++) g_object_unref(e->idle[m]);
    if (e->config) FcConfigDestroy(e->config);
    memset(e, 0, sizeof *e);
  }
  pthread_mutex_unlock(&fonts_lock);
}
