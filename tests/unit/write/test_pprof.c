/* test_pprof.c -- write/pprof.c and pprof_frames.c: hp2x_write_pprof's
 * profile decoded again with protobuf-c (the generated code's unpack) and
 * held against its input.  Real GHC 9.6/9.10 runs of samples/programs/
 * deepcc.hs: an eventlog's -hc stacks whole (frames, source lines against
 * the program's own source, a cost centre named with '/'), the .hp's cut
 * labels (ccs_id, cut), -hd's and -hT's qualified names, -hi's tables
 * with file and line under their module, -he's eras; the totals against
 * the census; hostile labels (bytes that are not UTF-8, 5,000 bytes, 255
 * frames deep); the 1 MB bound; the filters; errors and every allocation
 * failing in turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mem_sink.h"
#include "parse_helpers.h"
#include "test_hooks.h"
#include "write/pprof_int.h"

#include "pprof.pb-c.h"

#include <regex.h>
#include <zlib.h>

/* ------------------------------------------------------------ helpers */

static hp2x_profile *parse_file(const char *rel) {
  size_t len;
  unsigned char *buf = read_repo_gz(rel, &len);
  if (!buf) fail_msg("cannot read %s", rel);
  hp2x_profile *p;
  hp2x_err err;
  if (parse_chunked(buf, len, 0, HP2X_INPUT_AUTO, &p, &err) != HP2X_OK)
    fail_msg("%s: %s", rel, err.msg);
  free(buf);
  return p;
}

static size_t peak_of(const hp2x_profile *p) {
  hp2x_census_choice c;
  hp2x_census_choice_init(&c);
  hp2x_err err;
  hp2x_err_init(&err);
  size_t s;
  assert_int_equal(hp2x_census_choose(p, &c, &s, &err), HP2X_OK);
  return s;
}

/* gunzips m's bytes and decodes them; the caller frees with unpack_free. */
static HpxPprof__Profile *decode(const mem *m) {
  assert_true(m->len > 18 && (unsigned char)m->buf[0] == 0x1f &&
              (unsigned char)m->buf[1] == 0x8b);
  size_t cap = 64 << 20;
  unsigned char *raw = malloc(cap);
  z_stream z;
  memset(&z, 0, sizeof z);
  assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = (Bytef *)m->buf;
  z.avail_in = (uInt)m->len;
  z.next_out = raw;
  z.avail_out = (uInt)cap;
  assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
  size_t n = z.total_out;
  inflateEnd(&z);
  HpxPprof__Profile *pr = hpx_pprof__profile__unpack(NULL, n, raw);
  free(raw);
  assert_non_null(pr);
  return pr;
}

static HpxPprof__Profile *pprof_of(const hp2x_profile *p, size_t s,
                                   const hp2x_options *o, size_t *bytes) {
  hp2x_options d;
  hp2x_options_init(&d);
  mem m = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  if (hp2x_write_pprof(p, s, o ? o : &d, mem_write, &m, &err) != HP2X_OK)
    fail_msg("hp2x_write_pprof: %s", err.msg);
  if (bytes) *bytes = m.len;
  HpxPprof__Profile *pr = decode(&m);
  free(m.buf);
  return pr;
}

static const char *str(const HpxPprof__Profile *pr, int64_t i) {
  assert_true(i >= 0 && (size_t)i < pr->n_string_table);
  return pr->string_table[i];
}

static const HpxPprof__Function *fn_at(const HpxPprof__Profile *pr,
                                       uint64_t loc) {
  for (size_t i = 0; i < pr->n_location; i++)
    if (pr->location[i]->id == loc) {
      assert_int_equal(pr->location[i]->n_line, 1);
      uint64_t f = pr->location[i]->line[0]->function_id;
      for (size_t k = 0; k < pr->n_function; k++)
        if (pr->function[k]->id == f) {
          /* a frame's line is its function's */
          assert_int_equal(pr->location[i]->line[0]->line,
                           pr->function[k]->start_line);
          return pr->function[k];
        }
    }
  fail_msg("no location %llu", (unsigned long long)loc);
  return NULL;
}

/* Sample k's frames' names joined by sep, leaf first. */
static void frames_text(const HpxPprof__Profile *pr, size_t k, char sep,
                        char *out, size_t size) {
  const HpxPprof__Sample *s = pr->sample[k];
  size_t at = 0;
  out[0] = '\0';
  for (size_t i = 0; i < s->n_location_id; i++)
    at += (size_t)snprintf(out + at, size - at, "%s%s",
                           i ? (char[]){sep, 0} : "",
                           str(pr, fn_at(pr, s->location_id[i])->name));
}

/* Sample k's numeric label `key`, or -1. */
static int64_t num_label(const HpxPprof__Profile *pr, size_t k,
                         const char *key) {
  for (size_t i = 0; i < pr->sample[k]->n_label; i++)
    if (!strcmp(str(pr, pr->sample[k]->label[i]->key), key))
      return pr->sample[k]->label[i]->num;
  return -1;
}

static int64_t census_total(const hp2x_profile *p, size_t s) {
  int64_t t = 0;
  for (size_t l = 0; l < p->n_labels; l++) t += hp2x_profile_value(p, s, l);
  return t;
}

/* Every sample one value; they add up to `total`; the head as promised. */
static void check_head(const HpxPprof__Profile *pr, int64_t total) {
  assert_string_equal(str(pr, 0), "");
  assert_int_equal(pr->n_sample_type, 1);
  assert_string_equal(str(pr, pr->sample_type[0]->type), "inuse_space");
  assert_string_equal(str(pr, pr->sample_type[0]->unit), "bytes");
  assert_string_equal(str(pr, pr->default_sample_type), "inuse_space");
  assert_string_equal(str(pr, pr->period_type->type), "space");
  assert_string_equal(str(pr, pr->period_type->unit), "bytes");
  int64_t sum = 0;
  for (size_t k = 0; k < pr->n_sample; k++) {
    assert_int_equal(pr->sample[k]->n_value, 1);
    assert_true(pr->sample[k]->value[0] > 0);
    sum += pr->sample[k]->value[0];
  }
  assert_true(sum == total);
  assert_true(pr->n_comment >= 2); /* the census, its total */
}

/* The line of samples/programs/deepcc.hs that starts with `prefix`. */
static int64_t source_line(const char *src, const char *prefix) {
  int64_t line = 1;
  for (const char *c = src; *c; c++) {
    if ((c == src || c[-1] == '\n') && !strncmp(c, prefix, strlen(prefix)))
      return line;
    line += *c == '\n';
  }
  fail_msg("no line '%s' in deepcc.hs", prefix);
  return 0;
}

/* An eventlog's -hc stacks, whole: each sample's frames are its label's
 * stack (stack_id names the label; the label is the stack as the .hp
 * writes it, frames joined by '/'), as deep as the runtime made them,
 * each depthNN frame
 * at deepcc.hs's line of its equation, the cost centre "parse/json" one
 * frame at its SCC; the total is the census's.  GHC 9.6 and 9.10. */
static void hc_eventlog_stacks(void **state) {
  (void)state;
  char *src = read_repo_text("samples/programs/deepcc.hs");
  assert_non_null(src);
  const char *runs[] = {"tests/data/pprof/ghc-9.6.6/deepcc.hc.eventlog.gz",
                        "tests/data/pprof/ghc-9.10.3/deepcc.hc.eventlog.gz"};
  for (size_t r = 0; r < 2; r++) {
    hp2x_profile *p = parse_file(runs[r]);
    size_t s = peak_of(p);
    HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
    check_head(pr, census_total(p, s));
    assert_true(p->has_wall_clock && pr->time_nanos > 1600000000000000000);
    size_t deepest = 0, json = 0, lines = 0;
    for (size_t k = 0; k < pr->n_sample; k++) {
      char text[4096];
      frames_text(pr, k, '/', text, sizeof text);
      int64_t id = num_label(pr, k, "stack_id");
      assert_true(id >= 0 && (size_t)id < p->n_labels);
      assert_string_equal(text, p->labels[id].name);
      assert_true(num_label(pr, k, "census_time") ==
                  (int64_t)(p->times[s] * 1e9 + 0.5));
      assert_true(pr->sample[k]->value[0] == hp2x_profile_value(p, s, id));
      const HpxPprof__Sample *sm = pr->sample[k];
      if (sm->n_location_id > deepest) deepest = sm->n_location_id;
      for (size_t i = 0; i < sm->n_location_id; i++) {
        const HpxPprof__Function *f = fn_at(pr, sm->location_id[i]);
        const char *name = str(pr, f->name);
        char want[64];
        if (!strncmp(name, "depth", 5) && strlen(name) == 7) {
          snprintf(want, sizeof want, "%s s = do", name);
          assert_int_equal(f->start_line, source_line(src, want));
          assert_string_equal(str(pr, f->filename), "deepcc.hs");
          snprintf(want, sizeof want, "Main.%s", name);
          assert_string_equal(str(pr, f->system_name), want);
          lines++;
        }
        if (!strcmp(name, "parse/json")) {
          json++;
          assert_int_equal(f->start_line,
                           source_line(src, "  xs <- {-# SCC \"parse/json\""));
        }
      }
    }
    /* 45 frames under 9.6; 9.10's -fprof-auto adds a cost centre for each
     * link's do-block continuation, a lambda (depth39.\): 86 */
    assert_int_equal(deepest, r == 0 ? 45 : 86);
    /* one stack passes through the SCC: depth 20's own list */
    if (json != 1 || lines < 500) fail_msg("json %zu lines %zu", json, lines);
    hpx_pprof__profile__free_unpacked(pr, NULL);
    hp2x_profile_free(p);
  }
  free(src);
}

/* The .hp of a -hc run: labels cut near 25 bytes by the runtime's -L,
 * each "(N)" kept as ccs_id, split at '/', a cut one marked; the total is
 * the census's. */
static void hc_hp_labels(void **state) {
  (void)state;
  hp2x_profile *p = parse_file("tests/data/pprof/ghc-9.10.3/deepcc.hc.hp.gz");
  assert_int_equal(hp2x_profile_breakdown(p), HP2X_BREAKDOWN_COST_CENTRE);
  size_t s = peak_of(p);
  HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
  check_head(pr, census_total(p, s));
  assert_int_equal(pr->time_nanos, 0); /* a .hp's DATE has no zone */
  size_t cut = 0;
  for (size_t k = 0; k < pr->n_sample; k++) {
    char text[4096], want[4096];
    frames_text(pr, k, '/', text, sizeof text);
    int64_t n = num_label(pr, k, "ccs_id");
    size_t found = p->n_labels;
    for (size_t l = 0; l < p->n_labels; l++) {
      int len = snprintf(want, sizeof want, "(%lld)", (long long)n);
      if (!strncmp(p->labels[l].name, want, (size_t)len) &&
          !strcmp(p->labels[l].name + len, text))
        found = l;
    }
    if (!strcmp(text, "MAIN")) continue; /* GHC prints it without (N) */
    assert_true(n > 0 && found < p->n_labels);
    assert_true(pr->sample[k]->value[0] == hp2x_profile_value(p, s, found));
    int is_cut = strlen(text) >= 3 && !strcmp(text + strlen(text) - 3, "...");
    int has_label = 0;
    for (size_t i = 0; i < pr->sample[k]->n_label; i++)
      has_label |= !strcmp(str(pr, pr->sample[k]->label[i]->key), "cut");
    assert_int_equal(is_cut, has_label);
    cut += is_cut;
  }
  assert_true(cut > 40);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

/* "pkg:Module.Name" (-hT's constructors) and "<pkg:Module.name>" (-hd's
 * thunks and functions) as name under module under package; other
 * labels one frame. */
static void qualified_names(void **state) {
  (void)state;
  const char *runs[] = {
      "tests/data/pprof/ghc-9.10.3/deepcc.hd.eventlog.gz",
      "tests/data/ghc-modern/ghc-9.6.6/markers.hT.eventlog.gz",
      "tests/data/pprof/ghc-9.6.6/deepcc.hy.hp.gz"};
  size_t split = 0;
  for (size_t r = 0; r < 3; r++) {
    hp2x_profile *p = parse_file(runs[r]);
    for (size_t s = 0; s < p->n_samples; s += 7) {
      HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
      check_head(pr, census_total(p, s));
      for (size_t k = 0; k < pr->n_sample; k++) {
        char text[4096];
        frames_text(pr, k, ' ', text, sizeof text);
        const HpxPprof__Sample *sm = pr->sample[k];
        const char *sys = str(pr, fn_at(pr, sm->location_id[0])->system_name);
        if (sm->n_location_id == 1) { /* the label itself; its system
                                          name no more than its name */
          assert_string_equal(sys, "");
          assert_null(strchr(text, ' '));
          continue;
        }
        assert_int_equal(sm->n_location_id, 3);
        /* "name Module pkg" from "pkg:Module.name" */
        char pkg[256], mod[256], name[256], want[1024];
        assert_int_equal(sscanf(text, "%255s %255s %255s", name, mod, pkg), 3);
        snprintf(want, sizeof want, "%s:%s.%s", pkg, mod, name);
        assert_string_equal(sys, want);
        assert_true(mod[0] >= 'A' && mod[0] <= 'Z');
        split++;
      }
      hpx_pprof__profile__free_unpacked(pr, NULL);
    }
    hp2x_profile_free(p);
  }
  assert_true(split > 20);
}

/* -hi: a table named by its IPE record is the name the key shows, at the
 * record's file and line, under the record's module (GHC 9.6, 9.10). */
static void info_tables(void **state) {
  (void)state;
  const char *runs[] = {
      "tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.eventlog",
      "tests/data/ghc-modern/ghc-9.10.3/markers.ipehi.eventlog"};
  for (size_t r = 0; r < 2; r++) {
    hp2x_profile *p = parse_file(runs[r]);
    size_t s = peak_of(p), located = 0;
    HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
    check_head(pr, census_total(p, s));
    for (size_t k = 0; k < pr->n_sample; k++) {
      const HpxPprof__Sample *sm = pr->sample[k];
      const HpxPprof__Function *leaf = fn_at(pr, sm->location_id[0]);
      const hpx_label *l = NULL;
      for (size_t i = 0; i < p->n_labels && !l; i++)
        if (!strcmp(p->labels[i].name, str(pr, leaf->name))) l = &p->labels[i];
      assert_non_null(l);
      const char *d = l->text.detail, *m = d ? strstr(d, "; module ") : NULL;
      if (!m) {
        assert_int_equal(sm->n_location_id, 1);
        continue;
      }
      assert_int_equal(sm->n_location_id, 2);
      char mod[256] = "", file[256] = "";
      long line = 0;
      sscanf(m, "; module %255[^;]", mod);
      assert_string_equal(str(pr, fn_at(pr, sm->location_id[1])->name), mod);
      const char *src = strstr(d, "; source ");
      if (src && sscanf(src, "; source %255[^:]:%ld", file, &line) == 2) {
        assert_string_equal(str(pr, leaf->filename), file);
        assert_int_equal(leaf->start_line, line);
        located++;
      }
    }
    assert_true(located >= 3);
    hpx_pprof__profile__free_unpacked(pr, NULL);
    hp2x_profile_free(p);
  }
}

/* -he: one frame, "era N". */
static void eras(void **state) {
  (void)state;
  hp2x_profile *p =
      parse_file("tests/data/ghc-modern/ghc-9.10.3/mapwave.he.eventlog.gz");
  size_t s = peak_of(p);
  HpxPprof__Profile *pr = pprof_of(p, s, NULL, NULL);
  check_head(pr, census_total(p, s));
  for (size_t k = 0; k < pr->n_sample; k++) {
    char text[256];
    frames_text(pr, k, '/', text, sizeof text);
    unsigned era;
    assert_int_equal(sscanf(text, "era %u", &era), 1);
  }
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

static void check_utf8(const char *s) {
  const unsigned char *b = (const unsigned char *)s;
  for (size_t i = 0; b[i];) {
    unsigned c = b[i];
    size_t n = c < 0x80         ? 1
               : (c >> 5) == 6  ? 2
               : (c >> 4) == 14 ? 3
               : (c >> 3) == 30 ? 4
                                : 0;
    assert_true(n > 0);
    assert_true(c >= 0x20 && c != 0x7f); /* no control characters */
    for (size_t k = 1; k < n; k++) assert_int_equal(b[i + k] & 0xc0, 0x80);
    i += n;
  }
}

/* An eventlog-like profile of hostile stacks and labels: cost centres
 * named with '/', with bytes that are not UTF-8, a CAF, an id never
 * declared; a stack 255 frames deep; one of depth 0; a 5,000-byte label
 * of any bytes. */
static hp2x_profile *hostile(void) {
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  hpx_cost_centres *t = &p->ccs;
  assert_int_equal(hpx_cost_centres_add(t, 1, "parse/json", 10, "M", 1,
                                        "m.hs:3:1-5", 10, false, &err),
                   HP2X_OK);
  assert_int_equal(hpx_cost_centres_add(t, 2, "\xff\xfe\x01x", 4, "N\xc3", 2,
                                        "<built-in>", 10, false, &err),
                   HP2X_OK);
  assert_int_equal(hpx_cost_centres_add(t, 3, "CAF", 3, "Q", 1,
                                        "<entire-module>", 15, true, &err),
                   HP2X_OK);
  for (uint32_t id = 10; id < 10 + 255; id++) {
    char name[16];
    int n = snprintf(name, sizeof name, "f%u", (unsigned)id);
    assert_int_equal(hpx_cost_centres_add(t, id, name, (size_t)n, "Deep", 4,
                                          "d.hs:(7,1)-(9,2)", 16, false, &err),
                     HP2X_OK);
  }
  unsigned char key[1 + 4 * 255];
  uint32_t stacks[4][255], depth[4] = {255, 0, 4, 1};
  for (uint32_t i = 0; i < 255; i++) stacks[0][i] = 10 + i;
  memcpy(stacks[2], (uint32_t[]){1, 2, 3, 999}, 4 * sizeof(uint32_t));
  stacks[3][0] = 3;
  hpx_profile_begin_sample(p, 1.5);
  for (int k = 0; k < 4; k++) {
    key[0] = 1;
    for (uint32_t i = 0; i < depth[k]; i++)
      for (int b = 0; b < 4; b++)
        key[1 + 4 * i + b] = (unsigned char)(stacks[k][i] >> (24 - 8 * b));
    uint32_t id;
    assert_int_equal(hpx_profile_intern(p, (const char *)key, 1 + 4 * depth[k],
                                        "x", 1, &id, &err),
                     HP2X_OK);
    assert_int_equal(profile_add_entry(p, id, 1000 + k, &err), HP2X_OK);
  }
  char big[5000];
  for (size_t i = 0; i < sizeof big; i++) big[i] = (char)(1 + i % 255);
  uint32_t id;
  assert_int_equal(hpx_profile_intern(p, big, sizeof big, NULL, 0, &id, &err),
                   HP2X_OK);
  assert_int_equal(profile_add_entry(p, id, 7, &err), HP2X_OK);
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  return p;
}

static void hostile_labels(void **state) {
  (void)state;
  hp2x_profile *p = hostile();
  HpxPprof__Profile *pr = pprof_of(p, 0, NULL, NULL);
  check_head(pr, 1000 + 1001 + 1002 + 1003 + 7);
  for (size_t i = 0; i < pr->n_string_table; i++)
    check_utf8(pr->string_table[i]);
  int seen = 0;
  for (size_t k = 0; k < pr->n_sample; k++) {
    const HpxPprof__Sample *sm = pr->sample[k];
    char text[8192];
    frames_text(pr, k, '|', text, sizeof text);
    switch (sm->value[0]) {
    case 1000: /* 255 deep, each at d.hs:7 */
      assert_int_equal(sm->n_location_id, 255);
      assert_string_equal(str(pr, fn_at(pr, sm->location_id[254])->name),
                          "f264");
      assert_int_equal(fn_at(pr, sm->location_id[0])->start_line, 7);
      seen |= 1;
      break;
    case 1001:
      assert_string_equal(text, "MAIN");
      seen |= 2;
      break;
    case 1002: /* '/' kept inside one frame; bytes as Latin-1 */
      assert_string_equal(text, "parse/json|\xc3\xbf\xc3\xbe\xef\xbf\xbdx|"
                                "Q.CAF|<cc 999>");
      assert_string_equal(str(pr, fn_at(pr, sm->location_id[1])->system_name),
                          "N\xc3\x83.\xc3\xbf\xc3\xbe\xef\xbf\xbdx");
      assert_int_equal(fn_at(pr, sm->location_id[1])->filename, 0);
      seen |= 4;
      break;
    case 1003:
      assert_string_equal(text, "Q.CAF");
      seen |= 8;
      break;
    case 7:
      assert_int_equal(sm->n_location_id, 1);
      assert_true(strlen(text) >= 5000);
      seen |= 16;
      break;
    default: fail_msg("unexpected value %lld", (long long)sm->value[0]);
    }
  }
  assert_int_equal(seen, 31);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

/* More labels than fit in HP2X_PPROF_MAX_BYTES: the largest as
 * themselves, the rest one frame, and the total kept. */
static void one_megabyte(void **state) {
  (void)state;
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_profile *p = hpx_profile_new(&err);
  uint64_t x = 88172645463325252ull;
  int64_t total = 0;
  hpx_profile_begin_sample(p, 2.0);
  for (int k = 0; k < 40000; k++) {
    char name[200];
    for (size_t i = 0; i < sizeof name; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      name[i] = (char)('a' + x % 26);
    }
    uint32_t id;
    assert_int_equal(
        hpx_profile_intern(p, name, sizeof name, NULL, 0, &id, &err), HP2X_OK);
    assert_int_equal(profile_add_entry(p, id, 16 + k, &err), HP2X_OK);
    total += 16 + k;
  }
  assert_int_equal(hpx_profile_end_sample(p, &err), HP2X_OK);
  size_t bytes;
  HpxPprof__Profile *pr = pprof_of(p, 0, NULL, &bytes);
  assert_true(bytes <= HP2X_PPROF_MAX_BYTES &&
              bytes > HP2X_PPROF_MAX_BYTES / 2);
  check_head(pr, total);
  size_t kept = pr->n_sample - 1;
  assert_true(kept > 1000 && kept < 40000);
  char text[256], want[64];
  frames_text(pr, kept, '/', text, sizeof text);
  snprintf(want, sizeof want, "(%zu labels dropped)", 40000 - kept);
  assert_string_equal(text, want);
  for (size_t k = 0; k < kept; k++) /* the largest, largest first */
    assert_true(pr->sample[k]->value[0] == (int64_t)(16 + 39999 - k));
  int said = 0;
  for (size_t i = 0; i < pr->n_comment; i++)
    said |= strstr(str(pr, pr->comment[i]), "smallest labels") != NULL;
  assert_true(said);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

/* --include/--exclude leave labels out (the same rule as the bands'); a
 * comment counts them. */
static void filters(void **state) {
  (void)state;
  hp2x_profile *p = parse_file("samples/profiles/manycc.hc.hp");
  size_t s = peak_of(p);
  hp2x_options o;
  hp2x_options_init(&o);
  o.include_re = "alpha|bravo";
  o.exclude_re = "CAF";
  HpxPprof__Profile *pr = pprof_of(p, s, &o, NULL);
  int64_t want = 0;
  size_t out = 0;
  regex_t inc, exc;
  assert_int_equal(regcomp(&inc, o.include_re, REG_EXTENDED | REG_NOSUB), 0);
  assert_int_equal(regcomp(&exc, o.exclude_re, REG_EXTENDED | REG_NOSUB), 0);
  for (size_t l = 0; l < p->n_labels; l++) {
    int64_t v = hp2x_profile_value(p, s, l);
    int keep = !regexec(&inc, p->labels[l].name, 0, NULL, 0) &&
               regexec(&exc, p->labels[l].name, 0, NULL, 0);
    if (keep)
      want += v;
    else
      out += v > 0;
  }
  regfree(&inc);
  regfree(&exc);
  assert_true(want > 0 && out > 0);
  check_head(pr, want);
  char said[64];
  snprintf(said, sizeof said, "%zu labels left out", out);
  int found = 0;
  for (size_t i = 0; i < pr->n_comment; i++)
    found |= strstr(str(pr, pr->comment[i]), said) != NULL;
  assert_true(found);
  hpx_pprof__profile__free_unpacked(pr, NULL);
  hp2x_profile_free(p);
}

static void errors(void **state) {
  (void)state;
  hp2x_profile *p = parse_file("samples/profiles/leak.hc.hp");
  hp2x_options o;
  hp2x_options_init(&o);
  hp2x_err err;
  hp2x_err_init(&err);
  mem m = {0};
  assert_int_equal(hp2x_write_pprof(p, p->n_samples, &o, mem_write, &m, &err),
                   HP2X_E_ARG);
  assert_int_equal(m.len, 0);
  o.include_re = "(";
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 0, &o, mem_write, &m, &err), HP2X_E_ARG);
  o.include_re = NULL;
  m.fail_after = 100;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 5, &o, mem_write, &m, &err), HP2X_E_IO);
  free(m.buf);
  /* Through hp2x_write_output: the census o.census chooses. */
  o.format = HP2X_FORMAT_PPROF;
  o.census.rule = HP2X_CENSUS_AT;
  o.census.at_s = 99;
  hp2x_err_init(&err);
  mem n = {0};
  assert_int_equal(hp2x_write_output(p, NULL, NULL, &o, mem_write, &n, &err),
                   HP2X_E_ARG);
  o.census.at_s = 0.5;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_output(p, NULL, NULL, &o, mem_write, &n, &err),
                   HP2X_OK);
  HpxPprof__Profile *pr = decode(&n);
  size_t at;
  hp2x_census_choice c = o.census;
  assert_int_equal(hp2x_census_choose(p, &c, &at, &err), HP2X_OK);
  check_head(pr, census_total(p, at));
  assert_true(num_label(pr, 0, "census_time") ==
              (int64_t)(p->times[at] * 1e9 + 0.5));
  hpx_pprof__profile__free_unpacked(pr, NULL);
  free(n.buf);
  hp2x_profile_drop_entries(p);
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 0, &o, mem_write, &n, &err), HP2X_E_ARG);
  hp2x_profile_free(p);
}

/* Every allocation failing in turn: HP2X_E_NOMEM and nothing written,
 * until the profile is the one written without failures. */
static void allocation_failures(void **state) {
  (void)state;
  hp2x_profile *p = hostile();
  hp2x_options o;
  hp2x_options_init(&o);
  o.exclude_re = "nothing";
  mem whole = {0};
  hp2x_err err;
  hp2x_err_init(&err);
  assert_int_equal(hp2x_write_pprof(p, 0, &o, mem_write, &whole, &err),
                   HP2X_OK);
  long n = 1;
  for (;; n++) {
    mem m = {0};
    hp2x_err_init(&err);
    hpx_alloc_fail_at(n);
    hp2x_status st = hp2x_write_pprof(p, 0, &o, mem_write, &m, &err);
    hpx_alloc_fail_at(0);
    if (st == HP2X_OK) {
      assert_int_equal(m.len, whole.len);
      assert_memory_equal(m.buf, whole.buf, m.len);
      free(m.buf);
      break;
    }
    assert_int_equal(st, HP2X_E_NOMEM);
    assert_int_equal(m.len, 0);
    free(m.buf);
  }
  assert_true(n > 20);
  free(whole.buf);
  hp2x_profile_free(p);
}

static void span_lines(void **state) {
  (void)state;
  static const struct {
    const char *s;
    int64_t line;
    size_t file;
  } spans[] = {
      {"leak.hs:12:5-20", 12, 7},
      {"leak.hs:12:5", 12, 7},
      {"src/A.hs:(12,5)-(14,20)", 12, 8},
      {"C:\\x\\a.hs:3:1-2", 3, 9},
      {"a:b.hs:9:1", 9, 6},
      {"<built-in>", 0, 0},
      {"<entire-module>", 0, 0},
      {"leak.hs:12", 0, 0},
      {"leak.hs:12:", 0, 0},
      {"leak.hs:x:1", 0, 0},
      {":1:2", 0, 0},
      {"a.hs:(1,2)-(3,4)x", 0, 0},
      {"a.hs:1:2-", 0, 0},
      {"", 0, 0},
  };
  for (size_t i = 0; i < sizeof spans / sizeof *spans; i++) {
    size_t file = 99;
    int64_t line = hpx_pprof_span_line(spans[i].s, strlen(spans[i].s), &file);
    if (line != spans[i].line || file != spans[i].file)
      fail_msg("%s: line %lld, file %zu", spans[i].s, (long long)line, file);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hc_eventlog_stacks),
      cmocka_unit_test(hc_hp_labels),
      cmocka_unit_test(qualified_names),
      cmocka_unit_test(info_tables),
      cmocka_unit_test(eras),
      cmocka_unit_test(hostile_labels),
      cmocka_unit_test(one_megabyte),
      cmocka_unit_test(filters),
      cmocka_unit_test(errors),
      cmocka_unit_test(allocation_failures),
      cmocka_unit_test(span_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
