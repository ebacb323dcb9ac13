/* pprof_frames.c -- a label of a census as the frames of its pprof stack,
 * leaf first, by what the label is: an eventlog's -hc stack (its cost
 * centres, from the profile's table, with their modules and source
 * locations), a .hp's -hc label (split at '/'), an -hi info table (under
 * its module, at its IPE record's source location), a qualified name
 * ("pkg:Module.Name", "<pkg:Module.name>": under its module and package),
 * an era, or any other label as one frame.  pprof.c builds the profile.
 */
#include "pprof_int.h"

#include <string.h>

static void frames_reset(pprof_frames *fr) {
  fr->n = fr->len = 0;
  fr->ccs_id = fr->stack_id = -1;
  fr->cut = false;
}

void hpx_pprof_frames_free(pprof_frames *fr) {
  hpx_free(fr->f);
  hpx_free(fr->text);
  memset(fr, 0, sizeof *fr);
}

/* Up to three pieces of bytes, read as one text. */
typedef struct text3 {
  const char *s[3];
  size_t n[3];
} text3;

static text3 one(const char *s, size_t n) {
  return (text3){{s, "", ""}, {n, 0, 0}};
}

static text3 three(const char *a, size_t an, const char *b, size_t bn,
                   const char *c, size_t cn) {
  return (text3){{a, b, c}, {an, bn, cn}};
}

/* Appends t to fr->text: *at receives where it starts, *len its length. */
static hp2x_status add_text(pprof_frames *fr, text3 t, size_t *at, size_t *len,
                            hp2x_err *err) {
  size_t n = t.n[0] + t.n[1] + t.n[2];
  hp2x_status st =
      hpx_grow((void **)&fr->text, &fr->text_cap, fr->len + n + 1, 1, err);
  if (st != HP2X_OK) return st;
  *at = fr->len;
  for (size_t i = 0; i < 3; i++) {
    memcpy(fr->text + fr->len, t.s[i], t.n[i]);
    fr->len += t.n[i];
  }
  *len = n;
  return HP2X_OK;
}

/* A frame: its name, its system name (none: the name), at file:line
 * (file_len 0: none).  No piece may point into fr->text, which moves. */
static hp2x_status push(pprof_frames *fr, text3 name, text3 system,
                        const char *file, size_t file_len, int64_t line,
                        hp2x_err *err) {
  hp2x_status st =
      hpx_grow((void **)&fr->f, &fr->cap, fr->n + 1, sizeof *fr->f, err);
  if (st != HP2X_OK) return st;
  pprof_frame *f = &fr->f[fr->n];
  if (!(system.n[0] + system.n[1] + system.n[2])) system = name;
  if ((st = add_text(fr, name, &f->name, &f->name_len, err)) ||
      (st = add_text(fr, system, &f->system, &f->system_len, err)) ||
      (st = add_text(fr, one(file, file_len), &f->file, &f->file_len, err)))
    return st;
  f->line = line;
  fr->n++;
  return HP2X_OK;
}

/* A frame of a name alone. */
static hp2x_status push_name(pprof_frames *fr, const char *s, size_t n,
                             hp2x_err *err) {
  return push(fr, one(s, n), one("", 0), "", 0, 0, err);
}

hp2x_status hpx_pprof_frames_one(pprof_frames *fr, const char *name, size_t len,
                                 hp2x_err *err) {
  frames_reset(fr);
  return push_name(fr, name, len, err);
}

/* ------------------------------------------------------ source spans */

static bool digits(const char **s, const char *end) {
  const char *b = *s;
  while (*s < end && **s >= '0' && **s <= '9') (*s)++;
  return *s > b;
}

static bool lit(const char **s, const char *end, char c) {
  if (*s < end && **s == c) {
    (*s)++;
    return true;
  }
  return false;
}

/* Is s..end, after a ':', a span: "L:C", "L:C-C" or "(L,C)-(L,C)"? */
static bool is_span(const char *s, const char *end) {
  if (lit(&s, end, '('))
    return digits(&s, end) && lit(&s, end, ',') && digits(&s, end) &&
           lit(&s, end, ')') && lit(&s, end, '-') && lit(&s, end, '(') &&
           digits(&s, end) && lit(&s, end, ',') && digits(&s, end) &&
           lit(&s, end, ')') && s == end;
  if (!digits(&s, end) || !lit(&s, end, ':') || !digits(&s, end)) return false;
  if (s < end && !(lit(&s, end, '-') && digits(&s, end))) return false;
  return s == end;
}

int64_t hpx_pprof_span_line(const char *s, size_t n, size_t *file_len) {
  *file_len = 0;
  const char *end = s + n;
  for (const char *c = s; c < end; c++) {
    if (*c != ':' || c == s || !is_span(c + 1, end)) continue;
    const char *d = c + 1 + (c[1] == '(');
    int64_t line = 0;
    for (; d < end && *d >= '0' && *d <= '9' && line < INT32_MAX; d++)
      line = line * 10 + (*d - '0');
    *file_len = (size_t)(c - s);
    return line;
  }
  return 0;
}

/* ------------------------------------------------------ by breakdown */

/* An eventlog's -hc stack: its key is 0x01 and the ids, big-endian,
 * innermost first (read/eventlog_events.c).  Each frame is named as GHC's
 * .hp names it (a CAF: Module.CAF), its system name Module.label. */
static hp2x_status stack_frames(pprof_frames *fr, const hp2x_profile *p,
                                const hpx_label *l, hp2x_err *err) {
  size_t depth = (l->key_len - 1) / 4;
  if (depth == 0) return push_name(fr, "MAIN", 4, err);
  hp2x_status st = HP2X_OK;
  for (size_t i = 0; i < depth && st == HP2X_OK; i++) {
    const unsigned char *b = (const unsigned char *)l->key + 1 + 4 * i;
    uint32_t id = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
                  (uint32_t)b[2] << 8 | b[3];
    const hpx_cost_centre *c = hpx_cost_centres_find(&p->ccs, id);
    if (!c) {
      char buf[32];
      int n = snprintf(buf, sizeof buf, "<cc %u>", (unsigned)id);
      st = push_name(fr, buf, (size_t)n, err);
      continue;
    }
    size_t ml = strlen(c->module), fl;
    int64_t line = hpx_pprof_span_line(c->srcloc, strlen(c->srcloc), &fl);
    text3 qualified =
        three(c->module, ml, ".", ml ? 1 : 0, c->label, strlen(c->label));
    text3 name = strcmp(c->label, "CAF") ? one(c->label, strlen(c->label))
                                         : qualified;
    st = push(fr, name, qualified, c->srcloc, fl, line, err);
  }
  return st;
}

/* A .hp -hc label "(N)a/b/c" (or "MAIN"): N, then each frame. */
static hp2x_status hp_ccs_frames(pprof_frames *fr, const char *s, size_t n,
                                 hp2x_err *err) {
  if (n && s[0] == '(') {
    size_t i = 1;
    int64_t id = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9' && id < INT32_MAX)
      id = id * 10 + (s[i++] - '0');
    if (i > 1 && i < n && s[i] == ')') {
      fr->ccs_id = id;
      s += i + 1;
      n -= i + 1;
    }
  }
  fr->cut = n >= 3 && !memcmp(s + n - 3, "...", 3);
  hp2x_status st = HP2X_OK;
  for (size_t at = 0; st == HP2X_OK;) {
    const char *slash = memchr(s + at, '/', n - at);
    size_t end = slash ? (size_t)(slash - s) : n;
    st = push_name(fr, s + at, end - at, err);
    if (!slash) break;
    at = end + 1;
  }
  return st;
}

/* Field `key` ("module ") of an IPE record ("table ...; module M; source
 * S; address A": read/eventlog_ipe.c): its value, *len bytes; NULL. */
static const char *record_field(const char *d, size_t n, const char *key,
                                size_t *len) {
  static const char *const keys[] = {"closure ", "type ",   "label ",
                                     "module ",  "source ", "address "};
  size_t kl = strlen(key);
  const char *v = NULL;
  for (size_t i = 0; i + kl <= n && !v; i++)
    if ((i == 0 || (i >= 2 && !memcmp(d + i - 2, "; ", 2))) &&
        !memcmp(d + i, key, kl))
      v = d + i + kl;
  if (!v) return NULL;
  const char *end = d + n;
  for (const char *c = v; c + 2 <= end && end == d + n; c++) {
    if (memcmp(c, "; ", 2)) continue;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
      if ((size_t)(end - c - 2) >= strlen(keys[k]) &&
          !memcmp(c + 2, keys[k], strlen(keys[k])))
        end = c;
  }
  *len = (size_t)(end - v);
  return v;
}

/* The module of a table --program named: "X" of "(:) [X]", "thunk in map
 * [X] 0x40d5d0", "I# [X] in Main" (name_tables.c), the last bracketed word;
 * *len bytes, NULL when none. */
static const char *bracketed_module(const char *s, size_t n, size_t *len) {
  const char *found = NULL;
  for (size_t i = 0; i + 2 < n; i++) {
    if (s[i] != ' ' || s[i + 1] != '[') continue;
    size_t e = i + 2;
    while (e < n && s[e] != ']' && s[e] != ' ') e++;
    if (e < n && s[e] == ']' && e > i + 2) {
      found = s + i + 2;
      *len = e - (i + 2);
    }
  }
  return found;
}

/* -hi: the table as its name says, at its record's source location, under
 * its module; a table --program named ("(:) [GHC.Types]") under the
 * module in brackets; a bare address alone. */
static hp2x_status info_table_frames(pprof_frames *fr, const hpx_label *l,
                                     hp2x_err *err) {
  const char *d = l->text.detail, *src = NULL, *table = NULL;
  size_t dl = l->text.detail_len, ml = 0, sl = 0, tl = 0, fl = 0;
  int64_t line = 0;
  const char *mod = d ? record_field(d, dl, "module ", &ml) : NULL;
  if (mod) { /* an IPE record */
    src = record_field(d, dl, "source ", &sl);
    table = record_field(d, dl, "table ", &tl);
    if (src) line = hpx_pprof_span_line(src, sl, &fl);
  } else {
    mod = bracketed_module(l->name, l->name_len, &ml);
  }
  hp2x_status st = push(fr, one(l->name, l->name_len),
                        one(table ? table : "", tl), src ? src : "", fl, line,
                        err);
  if (st == HP2X_OK && mod && ml) st = push_name(fr, mod, ml, err);
  return st;
}

static bool is_conid_start(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '\'';
}

/* "pkg:Module.Sub.name" (s..s+n, no angle brackets): *pkg_len, *mod_len
 * (the module's length, from s + pkg_len + 1); false when s is not one. */
static bool split_qualified(const char *s, size_t n, size_t *pkg_len,
                            size_t *mod_len) {
  size_t i = 0;
  while (i < n && s[i] != ':' && s[i] != ' ' && s[i] != '<' && s[i] != '>') i++;
  if (i == 0 || i >= n || s[i] != ':') return false;
  *pkg_len = i;
  size_t m = i + 1, last_dot = 0;
  while (m < n && is_conid_start(s[m])) { /* Module. segments */
    size_t e = m + 1;
    while (e < n && is_id_char(s[e])) e++;
    if (e >= n - 1 || s[e] != '.') break;
    last_dot = e;
    m = e + 1;
  }
  if (!last_dot) return false;
  for (size_t k = last_dot + 1; k < n; k++)
    if (s[k] == ' ') return false;
  *mod_len = last_dot - (i + 1);
  return true;
}

/* -hT's constructors "pkg:Module.Name", -hd's "<pkg:Module.name>": the
 * name, under its module, under its package. */
static bool qualified_frames(pprof_frames *fr, const hpx_label *l,
                             hp2x_status *st, hp2x_err *err) {
  const char *s = l->name;
  size_t n = l->name_len, pl, ml;
  if (n > 2 && s[0] == '<' && s[n - 1] == '>') {
    s++;
    n -= 2;
  }
  if (!split_qualified(s, n, &pl, &ml)) return false;
  const char *mod = s + pl + 1, *name = mod + ml + 1;
  size_t nl = (size_t)(s + n - name);
  *st = push(fr, one(name, nl), one(s, n), "", 0, 0, err);
  if (*st == HP2X_OK)
    *st = push(fr, one(mod, ml), one(s, pl + 1 + ml), "", 0, 0, err);
  if (*st == HP2X_OK) *st = push_name(fr, s, pl, err);
  return true;
}

hp2x_status hpx_pprof_frames_of(pprof_frames *fr, const hp2x_profile *p,
                                int breakdown, uint32_t label, hp2x_err *err) {
  frames_reset(fr);
  const hpx_label *l = &p->labels[label];
  if (l->kind == LABEL_STACK && l->key_len >= 1 && (l->key_len - 1) % 4 == 0) {
    fr->stack_id = label;
    return stack_frames(fr, p, l, err);
  }
  if (breakdown == HP2X_BREAKDOWN_COST_CENTRE)
    return hp_ccs_frames(fr, l->name, l->name_len, err);
  if (breakdown == HP2X_BREAKDOWN_INFO_TABLE)
    return info_table_frames(fr, l, err);
  if (breakdown == HP2X_BREAKDOWN_ERA) {
    text3 era = three("era ", 4, l->name, l->name_len, "", 0);
    return push(fr, era, era, "", 0, 0, err);
  }
  hp2x_status st = HP2X_OK;
  if (qualified_frames(fr, l, &st, err)) return st;
  return push_name(fr, l->name, l->name_len, err);
}
