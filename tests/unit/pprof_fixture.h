/* pprof_fixture.h -- shared by the tests of the pprof writer
 * (tests/unit/write/test_pprof.c, test_pprof_frames.c): a repo file read
 * into a profile, the census to write, the written profile gunzipped and
 * decoded again with protobuf-c (the generated code's unpack), and
 * lookups in it (strings, a location's function, a sample's frames and
 * labels); the checks every profile must pass; a profile of hostile
 * labels.  The includer includes cmocka, mem_sink.h, parse_helpers.h,
 * test_hooks.h, write/pprof_int.h, pprof.pb-c.h and zlib.h first. */
#ifndef HPX_PPROF_FIXTURE_H
#define HPX_PPROF_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline hp2x_profile *parse_file(const char *rel) {
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

static inline size_t peak_of(const hp2x_profile *p) {
  hp2x_census_choice c;
  hp2x_census_choice_init(&c);
  hp2x_err err;
  hp2x_err_init(&err);
  size_t s;
  assert_int_equal(hp2x_census_choose(p, &c, &s, &err), HP2X_OK);
  return s;
}

/* gunzips m's bytes and decodes them; the caller frees with unpack_free. */
static inline HpxPprof__Profile *decode(const mem *m) {
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

static inline HpxPprof__Profile *pprof_of(const hp2x_profile *p, size_t s,
                                          const hp2x_options *o,
                                          size_t *bytes) {
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

static inline const char *str(const HpxPprof__Profile *pr, int64_t i) {
  assert_true(i >= 0 && (size_t)i < pr->n_string_table);
  return pr->string_table[i];
}

static inline const HpxPprof__Function *fn_at(const HpxPprof__Profile *pr,
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
static inline void frames_text(const HpxPprof__Profile *pr, size_t k, char sep,
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
static inline int64_t num_label(const HpxPprof__Profile *pr, size_t k,
                                const char *key) {
  for (size_t i = 0; i < pr->sample[k]->n_label; i++)
    if (!strcmp(str(pr, pr->sample[k]->label[i]->key), key))
      return pr->sample[k]->label[i]->num;
  return -1;
}

static inline int64_t census_total(const hp2x_profile *p, size_t s) {
  int64_t t = 0;
  for (size_t l = 0; l < p->n_labels; l++) t += hp2x_profile_value(p, s, l);
  return t;
}

/* Every sample one value; they add up to `total`; the head as promised. */
static inline void check_head(const HpxPprof__Profile *pr, int64_t total) {
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
static inline int64_t source_line(const char *src, const char *prefix) {
  int64_t line = 1;
  for (const char *c = src; *c; c++) {
    if ((c == src || c[-1] == '\n') && !strncmp(c, prefix, strlen(prefix)))
      return line;
    line += *c == '\n';
  }
  fail_msg("no line '%s' in deepcc.hs", prefix);
  return 0;
}
static inline void check_utf8(const char *s) {
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
static inline hp2x_profile *hostile(void) {
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

#endif
