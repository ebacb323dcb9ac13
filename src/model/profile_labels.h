/* profile_labels.h -- private to libhp2x: the profile's labels (model.c
 * owns them): what a label is (its name, the key it is known by when that
 * differs, what its name leaves out, its sums) and how a front end interns,
 * renames and finds one.  model.h includes it: the profile holds an array
 * of them, indexed by label id.
 */
#ifndef HPX_PROFILE_LABELS_H
#define HPX_PROFILE_LABELS_H

#include "base/base.h"
#include "profile_bound.h"

/* A plain profile's label runs by their labels (model.c's run table): a
 * sample whose labels are those of an earlier run in it shares that run,
 * not only the run before (GHC writes a census's lines in no fixed order:
 * a few runs recur, in any order).  Open addressing, a power of two of
 * slots (len 0: empty), filled to half at most, of a bounded size: past
 * it (run_slots_full), runs are neither added nor looked up.  A slot:
 * where its run is in run_ids, its length and hash. */
typedef struct hpx_run_slot {
  size_t at;
  uint32_t len, hash;
} hpx_run_slot;
/* Where the run of `len` (> 0) labels at run_ids + at, the newest, goes:
 * `prev` (the sample before's run, SIZE_MAX for none) when equal, or
 * in a plain profile (whose runs never move) the run table's equal run
 * while the table has room, else `at` (then added to the table; without
 * room, run_slots_full set).
 * The samples read and the parts appended place their runs by it. */
size_t hpx_profile_run_place(hp2x_profile *p, size_t at, size_t len,
                             size_t prev);

/* What a label's key is, when it has one apart from its name. */
typedef enum {
  LABEL_TEXT,   /* no key: the name is the identity (every .hp label) */
  LABEL_STACK,  /* key: an eventlog cost-centre stack's ids; name: the
                   stack as the .hp prints it */
  LABEL_ADDRESS /* key: an -hi info-table address as the .hp prints it
                   ("0x4c8e48"); name: what its IPE event says it is */
} label_kind;

/* What a label's name leaves out, and which of its bytes a too narrow key
 * keeps whole: only -hi labels named by an IPE event have one
 * (eventlog_ipe.c: name "D# in go leak.hs:33:50-65", detail "table ..."). */
typedef struct label_text {
  char *detail;       /* the whole record; owned; NULL = none */
  size_t detail_len;  /* bytes, without the NUL */
  uint32_t keep_head; /* bytes at the name's start (what it is) and at */
  uint32_t keep_tail; /* its end (location) kept whole; 0, 0: none */
} label_text;

typedef struct hpx_label {
  char *name;      /* display text, NUL-terminated; owned */
  size_t name_len; /* bytes, without the NUL */
  char *key;       /* identity bytes when they differ from name; owned;
                      NULL = same as name (kind LABEL_TEXT) */
  size_t key_len;
  uint64_t hash; /* of the key bytes */
  label_kind kind;
  label_text text; /* detail and shortening; all 0 for most labels */
  label_sums sums; /* over every complete sample (profile_bound.c) */
} hpx_label;

/* Interns a label by its key bytes; `name` (display) may be NULL when it
 * equals the key.  *id receives the label id.  HP2X_E_LIMIT past
 * HPX_MAX_LABELS. */
hp2x_status hpx_profile_intern(hp2x_profile *p, const char *key, size_t key_len,
                               const char *name, size_t name_len, uint32_t *id,
                               hp2x_err *err);

/* Gives label `id` the display name `name` (len bytes, copied), keeping
 * its identity: a LABEL_TEXT label's name becomes its key, and the label
 * becomes LABEL_ADDRESS (the .hp text still names it by that key).  Bands
 * chosen before a rename keep the old name; a follower sees the new one
 * in its next plan and starts over.  HP2X_E_NOMEM leaves the label as it
 * was. */
hp2x_status hpx_profile_rename_label(hp2x_profile *p, uint32_t id,
                                     const char *name, size_t len,
                                     hp2x_err *err);
/* Sets label id's text to a copy of t (its detail copied; NULL detail:
 * none).  HP2X_E_NOMEM leaves the label as it was. */
hp2x_status hpx_profile_set_label_text(hp2x_profile *p, uint32_t id,
                                       const label_text *t, hp2x_err *err);

/* The bytes that name label l in .hp text: its key for LABEL_ADDRESS,
 * else its name. */
static inline const char *profile_hp_name(const hpx_label *l, size_t *len) {
  if (l->kind == LABEL_ADDRESS) {
    *len = l->key_len;
    return l->key;
  }
  *len = l->name_len;
  return l->name;
}

/* Looks a key up without interning; returns id or -1. */
long hpx_profile_find(const hp2x_profile *p, const char *key, size_t key_len);

#endif
