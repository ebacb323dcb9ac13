/* hash.c -- hpx_hash_bytes, the hash of the library's label tables (the
 * model's labels, the aux file's names, the IPE table).
 */
#include "base.h"

#include <string.h>

/* The label tables' hash: eight bytes per step (a multiply and a shift),
 * then MurmurHash3's 64-bit finaliser, so the low bits the tables mask
 * with depend on every byte.  Only ever kept in memory: word order may
 * differ between machines; a label's colour has its own hash (colour.c). */
static uint64_t fmix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

uint64_t hpx_hash_bytes(const void *data, size_t len) {
  const unsigned char *b = data;
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)len, w;
  for (; len >= 8; b += 8, len -= 8) {
    memcpy(&w, b, 8);
    h = (h ^ w) * 0x9fb21c651e98df25ull;
    h ^= h >> 29;
  }
  w = 0;
  if (len) memcpy(&w, b, len);
  return fmix64(h ^ w);
}
