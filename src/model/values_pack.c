/* values_pack.c -- a plain profile's censuses packed as they close, and
 * read back in order (profile_values.h).
 *
 * A census's bytes: a head byte, then its integers, one per entry, in
 * groups of eight: three bytes holding eight 3-bit lengths (length - 1,
 * the first integer's in the lowest bits), then the integers in as many
 * bytes each, least significant first.  A reader loads 8 bytes and masks
 * them, so no branch depends on a length, and the buffer keeps 8 bytes of
 * room past its end.  The head says how the values are counted (bit 0: in
 * words of 8 bytes, when every value of the profile so far is whole
 * words, as GHC's are) and how many censuses back its key is (bits 1 to
 * 7; 0: none, it is a key itself).  A key's integers are its values; any
 * other census's are the differences, zigzag-coded (0, -1, 1, -2, ...),
 * from the value at the same place of its key, which has the same labels
 * in the same order (the same label run) and is at most KEY_EVERY - 1
 * censuses before it.  A profile's values move little from one census to
 * the next, so most differences take one or two bytes where the values
 * take three or four; reading a census walks its bytes and its key's
 * together (the same number of entries: the same groups), so any census
 * can be read without reading those before it.  All arithmetic is modulo
 * 2^64: every int64 comes back as it went in.
 */
#include "model.h"

#include <assert.h>
#include <string.h>

/* A key census at least every KEY_EVERY censuses (memgen's bands: 2.3
 * bytes an entry at 8, 2.35 at 4 and at 16, 3.0 with keys only, as
 * 7-bit variable-length integers). */
enum { KEY_EVERY = 8, SLACK = 8, BLOCK = 1 << 18 };

static uint64_t zigzag(uint64_t d) {
  return (d << 1) ^ ((uint64_t)0 - (d >> 63));
}

/* The bytes x takes, 1 to 8. */
static unsigned bytes_of(uint64_t x) {
#if defined(__GNUC__)
  return (unsigned)(71 - __builtin_clzll(x | 1)) >> 3;
#else
  unsigned n = 1;
  while (n < 8 && (x >> (8 * n)) != 0) n++;
  return n;
#endif
}

/* A group's lengths, its three bytes at b. */
static void put_codes(uint8_t *b, uint32_t codes) {
  b[0] = (uint8_t)codes;
  b[1] = (uint8_t)(codes >> 8);
  b[2] = (uint8_t)(codes >> 16);
}

/* The 8 bytes at b, least significant first. */
static uint64_t load_le64(const uint8_t *b) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t x;
  memcpy(&x, b, sizeof x);
  return x;
#else
  uint64_t x = 0;
  for (unsigned i = 0; i < 8; i++) x |= (uint64_t)b[i] << (8 * i);
  return x;
#endif
}

/* The next integer at *at, whose length is the lowest 3 bits of *codes
 * (then dropped); moves on. */
static inline uint64_t take(const uint8_t **at, uint32_t *codes) {
  static const uint64_t mask[8] = {0xff,
                                   0xffff,
                                   0xffffff,
                                   0xffffffff,
                                   0xffffffffffull,
                                   0xffffffffffffull,
                                   0xffffffffffffffull,
                                   ~0ull};
  unsigned c = *codes & 7u;
  *codes >>= 3;
  uint64_t x = load_le64(*at) & mask[c];
  *at += c + 1;
  return x;
}

/* A group's lengths, its three bytes at *at; moves on. */
static inline uint32_t take_codes(const uint8_t **at) {
  const uint8_t *b = *at;
  *at = b + 3;
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
}

static uint64_t unzigzag(uint64_t z) {
  return (z >> 1) ^ ((uint64_t)0 - (z & 1));
}

/* x's 8 bytes at b, least significant first. */
static void store_le64(uint8_t *b, uint64_t x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(b, &x, sizeof x);
#else
  for (unsigned i = 0; i < 8; i++) b[i] = (uint8_t)(x >> (8 * i));
#endif
}

/* Room for census s's place and n more bytes, and the slack after them:
 * where they go.  Blocks are BLOCK bytes, or a census's own when more:
 * no block is copied as the profile grows. */
static uint8_t *packed_room(hp2x_profile *p, size_t s, size_t n,
                            hp2x_err *err) {
  if (s >= p->cap_packed_at &&
      hpx_grow((void **)&p->packed_at, &p->cap_packed_at, s + 1,
               sizeof *p->packed_at, err) != HP2X_OK)
    return NULL;
  if (n > (size_t)-1 - SLACK) {
    hpx_nomem(err);
    return NULL;
  }
  if (p->fill_left >= n + SLACK) return p->fill;
  size_t size = n + SLACK > BLOCK ? n + SLACK : BLOCK;
  if (hpx_grow((void **)&p->blocks, &p->cap_blocks, p->n_blocks + 1,
               sizeof *p->blocks, err) != HP2X_OK)
    return NULL;
  uint8_t *block = hpx_malloc(size);
  if (!block) {
    hpx_nomem(err);
    return NULL;
  }
  p->blocks[p->n_blocks++] = block;
  p->fill = block;
  p->fill_left = size;
  return block;
}

/* Census s's n entries, their len bytes at p->fill (packed already or
 * copied), leave the tail. */
static void census_packed(hp2x_profile *p, size_t s, size_t n, size_t len) {
  store_le64(p->fill + len, 0); /* the SLACK bytes */
  p->packed_at[s] = p->fill;
  p->fill += len;
  p->fill_left -= len;
  p->packed_bytes += len;
  p->n_packed_samples = s + 1;
  p->value_base += n;
  p->alloc_entries += n;
  p->cap_entries = p->cap_entries + n < HPX_MAX_ENTRIES ? p->cap_entries + n
                                                        : HPX_MAX_ENTRIES;
}

/* The bytes of a packed census of n entries at `at`. */
static size_t census_bytes(const uint8_t *at, size_t n) {
  const uint8_t *b = at + 1;
  for (size_t i = 0; i < n; i += 8) {
    uint32_t codes = take_codes(&b);
    for (size_t j = 0; j < 8 && i + j < n; j++, codes >>= 3)
      b += (codes & 7u) + 1;
  }
  return (size_t)(b - at);
}

/* Does p pack census s (asked to, plain, every census before it packed,
 * the tail its)? */
static bool packs(const hp2x_profile *p, size_t s) {
  return p->pack_values && profile_is_plain(p) && p->n_packed_samples == s &&
         !p->entries_dropped && p->start[s] == p->value_base;
}

/* The key census s of n entries counted in 1 << shift bytes is coded
 * against: its distance back, 0 for none. */
static size_t key_of(const hp2x_profile *p, size_t s, size_t n,
                     unsigned shift) {
  size_t k = p->pack_key;
  if (!p->key_known || s == 0 || n == 0 || k >= s || s - k >= KEY_EVERY ||
      p->run_of[s] != p->run_of[k] || p->start[k + 1] - p->start[k] != n ||
      (p->packed_at[k][0] & 1u) != (shift == 3))
    return 0;
  return s - k;
}

/* The tail's n values, counted in 1 << shift bytes, at b: as differences
 * from key[i] (`key` not NULL), or as they are, kept in keep[i] too;
 * returns the end.  What it reads is held in locals: every byte stored
 * may alias p. */
static uint8_t *put_values(const hp2x_profile *p, size_t n, unsigned shift,
                           const uint64_t *key, uint64_t *keep, uint8_t *b) {
  const uint32_t *v32 = p->wide_values ? NULL : p->value32;
  const int64_t *v64 = p->value64;
  unsigned from = p->value_shift;
  for (size_t i = 0; i < n; i += 8) {
    uint8_t *codes_at = b;
    uint32_t codes = 0;
    b += 3;
    size_t m = n - i < 8 ? n - i : 8;
    for (size_t j = 0; j < m; j++) {
      uint64_t x = v32 ? ((uint64_t)v32[i + j] << from) >> shift
                       : (uint64_t)v64[i + j];
      if (key)
        x = zigzag(x - key[i + j]);
      else
        keep[i + j] = x;
      unsigned len = bytes_of(x);
      store_le64(b, x);
      b += len;
      codes |= (uint32_t)(len - 1) << (3 * j);
    }
    put_codes(codes_at, codes);
  }
  return b;
}

/* Where census s of n entries is encoded: in place when the last block
 * has room for the most it can take (1 + 9n bytes), else in the scratch
 * buffer, copied then at its length (packed_room), so that no block is
 * left mostly empty for a big census (*scratch set).  NULL: HP2X_E_NOMEM. */
static uint8_t *encode_room(hp2x_profile *p, size_t s, size_t n, bool *scratch,
                            hp2x_err *err) {
  if (n > ((size_t)-1 - 1 - SLACK) / 9) {
    hpx_nomem(err);
    return NULL;
  }
  size_t most = 1 + 9 * n;
  *scratch = p->fill_left < most + SLACK;
  if (!*scratch) return packed_room(p, s, most, err);
  if (hpx_grow((void **)&p->pack_scratch, &p->cap_pack_scratch, most + SLACK, 1,
               err) != HP2X_OK)
    return NULL;
  return p->pack_scratch;
}

hp2x_status hpx_profile_pack(hp2x_profile *p, size_t s, hp2x_err *err) {
  if (!packs(p, s)) return HP2X_OK;
  size_t n = p->start[s + 1] - p->start[s];
  assert(s + 1 == p->n_samples && p->n_entries == p->value_base + n);
  bool scratch;
  uint8_t *start = encode_room(p, s, n, &scratch, err);
  if (!start) return err->code;
  unsigned shift = !p->wide_values && (p->low_bits & 7u) == 0 ? 3 : 0;
  size_t back = key_of(p, s, n, shift);
  /* a key's values are kept for the differences of the censuses after it */
  if (!back && n > p->cap_key_units &&
      hpx_grow((void **)&p->key_units, &p->cap_key_units, n,
               sizeof *p->key_units, err) != HP2X_OK) {
    p->key_known = false;
    return err->code;
  }
  *start = (uint8_t)(back << 1 | (shift == 3));
  uint8_t *end = put_values(p, n, shift, back ? p->key_units : NULL,
                            p->key_units, start + 1);
  size_t len = (size_t)(end - start);
  if (scratch) {
    uint8_t *to = packed_room(p, s, len, err);
    if (!to) {
      p->key_known = false; /* key_units may hold this census's */
      return err->code;
    }
    memcpy(to, start, len);
  }
  if (!back) {
    p->pack_key = s;
    p->key_known = true;
  }
  census_packed(p, s, n, len);
  return HP2X_OK;
}

hp2x_status hpx_profile_copy_packed(hp2x_profile *p, const hp2x_profile *q,
                                    size_t s, size_t from, size_t len,
                                    bool *copied, hp2x_err *err) {
  *copied = false;
  size_t t = p->n_samples - 1;
  if (s >= q->n_packed_samples || !packs(p, t)) return HP2X_OK;
  const uint8_t *src = q->packed_at[s];
  size_t n = q->start[s + 1] - q->start[s], back = src[0] >> 1u;
  if (back > s - from) return HP2X_OK;    /* its key was not copied */
  if (n > HPX_MAX_ENTRIES - p->n_entries) /* as reserving them would say */
    return hpx_fail(err, HP2X_E_LIMIT, 0, -1, "more than %zu entries",
                    (size_t)HPX_MAX_ENTRIES);
  if (!len) len = census_bytes(src, n);
  uint8_t *to = packed_room(p, t, len, err);
  if (!to) return err->code;
  memcpy(to, src, len);
  if (!back) {
    p->pack_key = t;
    p->key_known = false; /* its values are not at hand: the next packed
                             here is a key */
  }
  p->n_entries += n;
  census_packed(p, t, n, len);
  *copied = true;
  return HP2X_OK;
}

/* How many of q's packed censuses from s on (before e) take_packed_run
 * takes at once, their entries in *entries: each followed in its block
 * by the next (not at next_block), its key from `from` on, its entries
 * within the limit and the bytes so far within p's room. */
static size_t packed_run_length(const hp2x_profile *p, const hp2x_profile *q,
                                size_t s, size_t e, size_t from,
                                const uint8_t *next_block, size_t *entries) {
  const uint8_t *base = q->packed_at[s];
  size_t room = p->fill_left > SLACK ? p->fill_left - SLACK : 0;
  size_t most = HPX_MAX_ENTRIES - p->n_entries, n = 0, i = s;
  for (; i + 1 < e; i++) {
    const uint8_t *next = q->packed_at[i + 1];
    size_t len = q->start[i + 1] - q->start[i];
    if (next == next_block || (size_t)(q->packed_at[i][0] >> 1u) > i - from ||
        (size_t)(next - base) > room || len > most - n)
      break;
    n += len;
  }
  *entries = n;
  return i - s;
}

size_t hpx_profile_take_packed_run(hp2x_profile *p, const hp2x_profile *q,
                                   size_t s, size_t e, size_t from,
                                   const uint8_t *next_block) {
  size_t t0 = p->n_samples, n;
  if (e > q->n_packed_samples) e = q->n_packed_samples;
  if (s >= e || !packs(p, t0)) return 0;
  size_t k = packed_run_length(p, q, s, e, from, next_block, &n);
  hp2x_err err;
  hp2x_err_init(&err);
  if (k == 0 || hpx_grow((void **)&p->packed_at, &p->cap_packed_at, t0 + k,
                         sizeof *p->packed_at, &err) != HP2X_OK)
    return 0; /* census by census, then */
  const uint8_t *base = q->packed_at[s];
  size_t bytes = (size_t)(q->packed_at[s + k] - base);
  memcpy(p->fill, base, bytes);
  store_le64(p->fill + bytes, 0); /* the SLACK bytes */
  for (size_t j = 0; j < k; j++) {
    size_t i = s + j, t = t0 + j;
    p->times[t] = q->times[i];
    p->start[t + 1] = p->start[t] + (q->start[i + 1] - q->start[i]);
    p->packed_at[t] = p->fill + (q->packed_at[i] - base);
    if (!(q->packed_at[i][0] >> 1u)) { /* a key: as copy_packed takes it */
      p->pack_key = t;
      p->key_known = false;
    }
  }
  p->n_samples += k;
  p->fill += bytes;
  p->fill_left -= bytes;
  p->packed_bytes += bytes;
  p->n_packed_samples = t0 + k;
  p->n_entries += n;
  p->value_base += n;
  p->alloc_entries += n;
  p->cap_entries = p->cap_entries + n < HPX_MAX_ENTRIES ? p->cap_entries + n
                                                        : HPX_MAX_ENTRIES;
  return k;
}

void hpx_values_of(const hp2x_profile *p, size_t s, hpx_values *r) {
  r->i = r->n = 0;
  r->left = p->start[s + 1] - p->start[s];
  r->at = r->key = NULL;
  r->v32 = NULL;
  r->v64 = NULL;
  r->shift = 0;
  if (s < p->n_packed_samples) {
    const uint8_t *at = p->packed_at[s];
    size_t back = at[0] >> 1u;
    r->shift = at[0] & 1u ? 3 : 0;
    r->at = at + 1;
    if (back) r->key = p->packed_at[s - back] + 1;
    return;
  }
  if (r->left == 0) return; /* the arrays may be NULL */
  size_t i = p->start[s] - p->value_base;
  if (p->wide_values) {
    r->v64 = p->value64 + i;
  } else {
    r->v32 = p->value32 + i;
    r->shift = p->value_shift;
  }
}

void hpx_values_refill(hpx_values *r) {
  unsigned m = r->left < 8 ? (unsigned)r->left : 8, shift = r->shift;
  assert(m > 0); /* never past the census's last value */
  r->left -= m;
  r->i = 0;
  r->n = m;
  int64_t *buf = r->buf;
  if (r->key) {
    uint32_t codes = take_codes(&r->at), key_codes = take_codes(&r->key);
    const uint8_t *at = r->at, *key = r->key;
    for (unsigned j = 0; j < m; j++) {
      uint64_t d = unzigzag(take(&at, &codes));
      buf[j] = (int64_t)((d + take(&key, &key_codes)) << shift);
    }
    r->at = at;
    r->key = key;
  } else if (r->at) {
    uint32_t codes = take_codes(&r->at);
    const uint8_t *at = r->at;
    for (unsigned j = 0; j < m; j++)
      buf[j] = (int64_t)(take(&at, &codes) << shift);
    r->at = at;
  } else if (r->v64) {
    memcpy(buf, r->v64, m * sizeof *buf);
    r->v64 += m;
  } else {
    for (unsigned j = 0; j < m; j++)
      buf[j] = (int64_t)((uint64_t)r->v32[j] << shift);
    r->v32 += m;
  }
}

void hpx_values_keep_room(hp2x_profile *p, hp2x_profile *old, size_t want) {
  assert(p->n_blocks == 0 && p->n_packed_samples == 0);
  if (want < BLOCK) want = BLOCK;
  uint8_t *block = NULL;
  size_t size = 0;
  if (old && !p->packed_at) { /* the censuses' places too */
    p->packed_at = old->packed_at;
    p->cap_packed_at = old->cap_packed_at;
    old->packed_at = NULL;
    old->cap_packed_at = 0;
  }
  if (old && old->n_blocks) { /* the last block ends where its room does */
    uint8_t *last = old->blocks[old->n_blocks - 1];
    size = (size_t)(old->fill + old->fill_left - last);
    if (size >= want) {
      block = last;
      old->n_blocks--;
    }
  }
  hp2x_err err;
  hp2x_err_init(&err);
  if (!block) { /* a power of two: parts a little longer reuse it too */
    for (size = BLOCK; size < want && size <= (size_t)-1 / 2;) size *= 2;
    block = hpx_malloc(size);
  }
  if (!block || hpx_grow((void **)&p->blocks, &p->cap_blocks, 1,
                         sizeof *p->blocks, &err) != HP2X_OK) {
    hpx_free(block); /* the first census packed makes its own */
    return;
  }
  p->blocks[p->n_blocks++] = block;
  p->fill = block;
  p->fill_left = size;
}

void hpx_values_expect_room(hp2x_profile *p, size_t bytes) {
  if (bytes > (size_t)-1 - SLACK || p->fill_left >= bytes + SLACK) return;
  size_t size = bytes + SLACK > BLOCK ? bytes + SLACK : BLOCK;
  hp2x_err err;
  hp2x_err_init(&err);
  if (hpx_grow((void **)&p->blocks, &p->cap_blocks, p->n_blocks + 1,
               sizeof *p->blocks, &err) != HP2X_OK)
    return;
  uint8_t *block = hpx_malloc(size);
  if (!block) return;
  /* a last block with nothing in it yet goes: every block but the last
   * begins with a census (profile_append.c's packed_len) */
  if (p->n_blocks && p->fill == p->blocks[p->n_blocks - 1])
    hpx_free(p->blocks[--p->n_blocks]);
  p->blocks[p->n_blocks++] = block;
  p->fill = block;
  p->fill_left = size;
}

void hpx_values_free(hp2x_profile *p) {
  for (size_t i = 0; i < p->n_blocks; i++) hpx_free(p->blocks[i]);
  hpx_free(p->blocks);
  hpx_free(p->packed_at);
  hpx_free(p->key_units);
  hpx_free(p->pack_scratch);
  p->pack_scratch = NULL;
  p->cap_pack_scratch = 0;
  p->key_units = NULL;
  p->cap_key_units = 0;
  p->key_known = false;
  p->blocks = NULL;
  p->packed_at = NULL;
  p->fill = NULL;
  p->n_blocks = p->cap_blocks = p->cap_packed_at = 0;
  p->fill_left = p->packed_bytes = 0;
  p->n_packed_samples = p->value_base = p->pack_key = 0;
}
