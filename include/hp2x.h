/* hp2x.h -- the public interface of libhp2x: heap profiles in, pictures out.
 *
 * Ownership rule: every allocated type has a _new (or a function that hands
 * one out through an out-pointer) and a _free; _free(NULL) does nothing.
 * Arguments are borrowed: no pointer into caller memory survives a call.  A
 * `const char *` returned by a query points into the object queried and lives
 * as long as that object.  Every fallible function returns an hp2x_status and
 * takes an hp2x_err * last, which receives the first error recorded; the
 * library never prints, never exits and keeps no global error state.
 *
 * Order of use, as this header is laid out: parse (hp2x_parse_stream, or
 * hp2x_parser_new, _feed and _finish for bytes as they come); optionally
 * name a -hi profile's bare addresses (hp2x_symbols_*, then
 * hp2x_profile_name_tables) and cut a view of it (hp2x_profile_window,
 * hp2x_profile_by_index); select the bands (hp2x_bands_select, or a
 * hp2x_follower for a profile that grows; hp2x_aux_parse first for -p);
 * write in any format (hp2x_write_output: it calls hp2x_render,
 * hp2x_write_csv, hp2x_write_hp, hp2x_write_summary, hp2x_write_html or,
 * for one census that hp2x_census_choose picks, hp2x_write_pprof), or the
 * outputs that are not formats (hp2x_write_aux, hp2x_write_metrics,
 * hp2x_write_live_html); then free.  Comparing runs: select once over
 * several profiles (hp2x_bands_select_many), then render them together
 * (hp2x_render_many), write them as one CSV (hp2x_write_csv_many;
 * hp2x_write_output_many for any format) or chart the difference of two
 * (hp2x_diff_new).
 *
 * Growing option structs: hp2x_options and hp2x_parse_options open with a
 * `size` field, which hp2x_options_init / hp2x_parse_options_init (macros)
 * set to the size of the struct the caller was compiled with.  The library
 * reads only the fields within that size and gives every later field its
 * default, so a program built against an older header keeps working with
 * a newer library.  Always start from the init macro, then set fields.
 *
 * Threads: every call may run at the same time as any other on different
 * objects (profiles, parsers, bands, followers, aux data, options, sinks);
 * one object is never used from two threads at once, except that const
 * objects (a finished profile, bands, aux data, options) may be read by
 * several renders and selections together.  The one state the library keeps
 * for the process is its fonts, behind a lock: per fonts.conf, a fontconfig
 * configuration and a pool of pango font maps holding it, kept until
 * hp2x_fonts_release or exit.  The first render with a given fonts.conf, or
 * hp2x_fonts_prepare, loads it, and renders on other threads wait for that;
 * each render then draws with a font map no other render is using (one more
 * is made when all are in use).  The library never changes process-wide
 * state: not pango's default font map, not the umask, not the locale, not
 * the environment (which it never reads, nor the time zone, nor where the
 * running program is: the tool passes what it read through the options), and
 * not fontconfig's current configuration unless the program asks
 * (hp2x_fonts_make_process_default, for a program that owns its process).
 * Outputs do not depend on what other threads draw, nor on what was drawn
 * before: cairo numbers SVG's element ids ("surface7") by the surfaces made
 * in the process so far, and the library renumbers them 1, 2, ... in their
 * order.  tests/unit/draw/test_threads.c checks all this, under
 * ThreadSanitizer with `make check-tsan`.  A parser given threads
 * (hp2x_parse_options.threads) starts them within a feed and joins them
 * before the feed returns; they read only the input and parts of the
 * profile of their own, with every signal blocked, and the zone function
 * is still called on the feeding thread (tests/unit/read/test_parts.c,
 * also under ThreadSanitizer).  Options with threads
 * (hp2x_options.threads) have hp2x_bands_select and hp2x_write_output's CSV
 * start them within the call and join them before it returns, each
 * writing only its own range of the bands, or the chunks of rows it
 * formats into buffers of its own; the write function is called on the
 * calling thread alone (tests/unit/write/test_csv_write.c, also under
 * ThreadSanitizer).
 *
 * This header holds what a program using the library needs, and the hp2x
 * tool uses nothing else: its own helpers (atomic output files, its
 * messages) are tool code under src/tool/, and the tests' hooks are in
 * the library's private headers under src/.
 */
#ifndef HP2X_H
#define HP2X_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is libhp2x's API, and libhp2x.so exports it and
 * nothing else: the library is compiled with -fvisibility=hidden. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ------------------------------------------------------------- version */

/* The version of this header.  These three numbers are the version's one
 * source: the Makefile reads them for the shared library's name and
 * hp2x.pc. */
#define HP2X_VERSION_MAJOR 0
#define HP2X_VERSION_MINOR 1
#define HP2X_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if comparisons. */
#define HP2X_VERSION_NUMBER \
  (HP2X_VERSION_MAJOR * 10000 + HP2X_VERSION_MINOR * 100 + HP2X_VERSION_PATCH)
#define HP2X_VERSION_STR_(n) #n
#define HP2X_VERSION_STR(n) HP2X_VERSION_STR_(n)
/* "MAJOR.MINOR.PATCH" */
#define HP2X_VERSION_STRING                                      \
  HP2X_VERSION_STR(HP2X_VERSION_MAJOR)                           \
  "." HP2X_VERSION_STR(HP2X_VERSION_MINOR) "." HP2X_VERSION_STR( \
      HP2X_VERSION_PATCH)
#define HP2X_VERSION HP2X_VERSION_STRING /* the older name */

/* The version of the library linked in ("MAJOR.MINOR.PATCH"), which may be
 * newer than the header a program was compiled with.  Static storage. */
const char *hp2x_version(void);

/* ---------------------------------------------------------------- errors */

typedef enum hp2x_status {
  HP2X_OK = 0,
  HP2X_E_IO,         /* reading or writing failed (errno-style text in msg) */
  HP2X_E_SYNTAX,     /* the input is not a heap profile, or is damaged */
  HP2X_E_LIMIT,      /* a documented limit was exceeded (line, label, count) */
  HP2X_E_NOMEM,      /* an allocation failed */
  HP2X_E_CAIRO,      /* cairo or pango reported an error while drawing */
  HP2X_E_ARG,        /* a caller passed an invalid option value */
  HP2X_E_NO_PROFILE, /* an eventlog with no heap profile in it: the program
                       ran without +RTS -h... (or, cut short, was killed
                       before its runtime wrote one) */
  HP2X_E_NO_CENSUS   /* a writer of one census (pprof) found none: the
                        profile, or the window asked for, holds no
                        complete census */
} hp2x_status;

/* Where and why a call failed.  The caller owns it (usually on the stack)
 * and names the input in its own messages: msg carries no file name. */
typedef struct hp2x_err {
  hp2x_status code; /* HP2X_OK until the first error */
  long line;        /* 1-based line in .hp or .aux text; 0 when not
                       meaningful */
  long long offset; /* byte offset in the input; -1 when unknown */
  char msg[256];    /* one line, no newline, no file prefix */
} hp2x_err;

/* Resets *err to "no error" (NULL: does nothing). */
void hp2x_err_init(hp2x_err *err);

/* A short English name for a status code ("syntax error", ...); static
 * storage; "unknown error" for a value not listed above. */
const char *hp2x_status_name(hp2x_status code);

/* ------------------------------------------------------ numbers as text */

/* vsnprintf in the "C" locale whatever the process's (or this thread's)
 * locale is: "%g" of 2.5 is "2.5" under de_DE too.  The library's own
 * numbers are written through it; a program may use it for its messages.
 * Returns what vsnprintf returns: the length the whole text needs (buf
 * holds at most size - 1 bytes of it and a '\0'), or < 0 on an encoding
 * error.  Safe from any thread. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 0)))
#endif
int hp2x_vsnprintf_c(char *buf, size_t size, const char *fmt, va_list ap);

/* ------------------------------------------------------- the sample model */

/* A heap profile: header strings, sample times, per-sample (label, value)
 * entries, marks.  Built by the parsers, read by everything else. */
typedef struct hp2x_profile hp2x_profile;

/* What kind of input a parser reads. */
typedef enum hp2x_input_kind {
  HP2X_INPUT_AUTO = 0, /* decide from the first bytes: "hdrb" is an eventlog */
  HP2X_INPUT_HP,       /* GHC .hp text */
  HP2X_INPUT_EVENTLOG  /* GHC binary eventlog */
} hp2x_input_kind;

/* Frees p and everything reachable from it (strings returned by the
 * queries below included).  NULL does nothing. */
void hp2x_profile_free(hp2x_profile *p);

/* Frees p's per-entry values, the bulk of a big profile's memory, for a
 * caller that has selected its bands and still needs what drawing reads
 * from the profile: header, sample times, labels, marks, heap series and
 * warnings stay.  Afterwards hp2x_bands_select(_many), the views
 * (hp2x_profile_window, hp2x_profile_by_index) and hp2x_write_hp fail with
 * HP2X_E_ARG, and hp2x_profile_value returns 0.  Only for a finished
 * profile, never one a parser is still filling.  NULL does nothing. */
void hp2x_profile_drop_entries(hp2x_profile *p);

/* The queries below never fail: an index out of range gives 0, 0.0 or "".
 * Strings point into p and live as long as it. */

/* Header strings; never NULL (empty when absent). */
const char *hp2x_profile_job(const hp2x_profile *p);
const char *hp2x_profile_date(const hp2x_profile *p);
const char *hp2x_profile_sample_unit(const hp2x_profile *p);
const char *hp2x_profile_value_unit(const hp2x_profile *p);

/* Complete samples held, in file order (a profile bounded by a picture,
 * hp2x_parse_options.picture_columns, holds only some of those read). */
size_t hp2x_profile_sample_count(const hp2x_profile *p);
double hp2x_profile_sample_time(const hp2x_profile *p, size_t sample);
/* Complete samples read, held or not. */
size_t hp2x_profile_samples_read(const hp2x_profile *p);

/* Whether the input holds a heap profile: always for .hp text; for an
 * eventlog, from its HEAP_PROF_BEGIN event or its first census on (until
 * then a growing eventlog's program has not started its profile yet; a
 * stream joined mid-run has censuses but no HEAP_PROF_BEGIN). */
int hp2x_profile_has_heap_profile(const hp2x_profile *p);

/* How a heap profile is broken down into labels: the codes of GHC's
 * HEAP_PROF_BEGIN event (rts/include/rts/EventLogFormat.h), with the
 * +RTS flag that asks for each. */
typedef enum hp2x_breakdown {
  HP2X_BREAKDOWN_UNKNOWN = 0,       /* nothing in the input tells */
  HP2X_BREAKDOWN_COST_CENTRE = 1,   /* -hc */
  HP2X_BREAKDOWN_MODULE = 2,        /* -hm */
  HP2X_BREAKDOWN_CLOSURE_DESCR = 3, /* -hd */
  HP2X_BREAKDOWN_TYPE = 4,          /* -hy */
  HP2X_BREAKDOWN_RETAINER = 5,      /* -hr */
  HP2X_BREAKDOWN_BIOGRAPHY = 6,     /* -hb */
  HP2X_BREAKDOWN_CLOSURE_TYPE = 7,  /* -hT */
  HP2X_BREAKDOWN_INFO_TABLE = 8,    /* -hi */
  HP2X_BREAKDOWN_ERA = 9            /* -he */
} hp2x_breakdown;

/* How p is broken down.  An eventlog's as its HEAP_PROF_BEGIN gives it (a
 * newer GHC may write a code not listed above); a stream joined mid-run,
 * which has no HEAP_PROF_BEGIN, as its program's arguments ask (the last
 * -hX among the RTS's words of its PROGRAM_ARGS, read as a .hp's JOB
 * below), HP2X_BREAKDOWN_UNKNOWN when they do not say.  A .hp file's
 * from its JOB line, where a profiling build's runtime writes its flags
 * ("prog +RTS -hc -i0.1": the last -hX among the words after the last
 * +RTS; a longer -hX... is a filter; -h alone is -hc), else from its
 * labels so far: -hc when every one is "(N)..." or "MAIN"; else, with no
 * +RTS in JOB (a build without profiling, which can break down only by
 * closure type or info table), -hi when every one is an address
 * ("0x4c96c0") and -hT otherwise; HP2X_BREAKDOWN_UNKNOWN when nothing
 * tells (a profiling build's JOB without -h, or no label yet).  The title
 * names HEAP_PROF_BEGIN's breakdown only: a .hp's stays hp2ps's, and a
 * stream joined mid-run's says "breakdown not in stream". */
hp2x_breakdown hp2x_profile_breakdown(const hp2x_profile *p);

/* Breakdown b in words for a title ("by cost-centre stack, -hc"), or NULL
 * for HP2X_BREAKDOWN_UNKNOWN and codes not listed.  Static storage. */
const char *hp2x_breakdown_text(hp2x_breakdown b);

/* Why the bands of p do not take the order and colours of its breakdown
 * that hp2x_options.by_breakdown asks for, in words for a note: an -he
 * profile whose labels are not all era numbers ("the era labels are not
 * all numbers ('x'): bands in the usual order"), written to buf (at most
 * size bytes, NUL ended) and returned; NULL when there is nothing to say. */
const char *hp2x_profile_breakdown_note(const hp2x_profile *p, char *buf,
                                        size_t size);

/* Distinct labels (bands before selection), in order of first appearance. */
size_t hp2x_profile_label_count(const hp2x_profile *p);
const char *hp2x_profile_label(const hp2x_profile *p, size_t label);

/* MARK times (.hp) and USER_MARKER events (eventlog), in file order. */
size_t hp2x_profile_mark_count(const hp2x_profile *p);
double hp2x_profile_mark_time(const hp2x_profile *p, size_t mark);
/* A marker's text ("" for .hp MARKs, which have none). */
const char *hp2x_profile_mark_label(const hp2x_profile *p, size_t mark);

/* Points of the eventlog's heap series (HEAP_SIZE, HEAP_LIVE and
 * BLOCKS_SIZE events together); 0 for .hp input. */
size_t hp2x_profile_heap_points(const hp2x_profile *p);

/* The first mark at or after time `after_s` whose text is `label`, or -1. */
long hp2x_profile_find_mark(const hp2x_profile *p, const char *label,
                            double after_s);

/* Views, each a new profile owned by the caller (free it), sharing nothing
 * with `p`.  hp2x_profile_window keeps the samples, marks and heap series
 * with times in [from_s, to_s] (HP2X_E_ARG when from_s > to_s; the result
 * may have no samples).  hp2x_profile_by_index puts each sample at its
 * index (0, 1, ...) instead of its time, SAMPLE_UNIT "sample"; marks and
 * heap series are placed by linear interpolation between the samples
 * around them (outside the samples' span: -1 or the sample count).
 * HP2X_E_NOMEM. */
hp2x_status hp2x_profile_window(const hp2x_profile *p, double from_s,
                                double to_s, hp2x_profile **out, hp2x_err *err);
hp2x_status hp2x_profile_by_index(const hp2x_profile *p, hp2x_profile **out,
                                  hp2x_err *err);

/* Sum of `label`'s values in `sample` (0 when absent). O(entries in sample). */
int64_t hp2x_profile_value(const hp2x_profile *p, size_t sample, size_t label);

/* Choosing one census (a complete sample) of a run, for the writers of one
 * census (hp2x_format_info.span HP2X_SPAN_CENSUS: pprof; and CSV and the
 * summary, HP2X_SPAN_EITHER, when hp2x_options.span asks for one). */
typedef enum hp2x_census_rule {
  HP2X_CENSUS_PEAK = 0, /* the largest total (every label's values), the
                           earliest of equals */
  HP2X_CENSUS_AT,       /* the nearest at_s, the earlier of two as near */
  HP2X_CENSUS_LAST      /* the last (a run being watched) */
} hp2x_census_rule;

typedef struct hp2x_census_choice {
  hp2x_census_rule rule;
  double at_s;         /* HP2X_CENSUS_AT: a time, SAMPLE_UNIT (seconds) */
  double from_s, to_s; /* the window: only censuses at times in [from_s,
                          to_s]; -INFINITY and INFINITY (the defaults):
                          the whole run */
} hp2x_census_choice;

/* Sets *c to the default: the peak of the whole run. */
void hp2x_census_choice_init(hp2x_census_choice *c);

/* The census c chooses of p's complete samples: *sample receives its index
 * (hp2x_profile_sample_time gives its time).  HP2X_E_ARG for a window
 * whose start is after its end, and for an at_s outside the window or
 * outside the run (the message names the run's range of times, and the
 * window's); HP2X_E_NO_CENSUS when p, or the window, holds none.
 * HP2X_CENSUS_AT and HP2X_CENSUS_LAST read only the censuses' times, so
 * they work on a profile whose entries were dropped
 * (hp2x_profile_drop_entries); HP2X_CENSUS_PEAK needs the entries.
 * A profile bounded by a picture (hp2x_parse_options.picture_columns)
 * keeps each bucket's peak but not every census: read it whole for
 * HP2X_CENSUS_AT. */
hp2x_status hp2x_census_choose(const hp2x_profile *p,
                               const hp2x_census_choice *c, size_t *sample,
                               hp2x_err *err);

/* Non-fatal findings of the parser, for the caller to report once each. */
typedef struct hp2x_warnings {
  int truncated;              /* input ended inside a sample or a line */
  long truncated_line;        /* .hp: line where the incomplete part starts */
  long long truncated_offset; /* byte offset where the incomplete part
                                 starts */
  long duplicate_labels;      /* repeated labels within one sample (summed) */
  long first_duplicate_line;  /* .hp: line of the first repeat; 0 if none */
  long unknown_cost_centres;  /* eventlog: stacks naming undefined ids */
  /* eventlog: stretches of corrupt events skipped (the reader resumed at
   * the next plausible events), and what they cost. */
  long corrupt_regions;       /* 0 when none */
  long long corrupt_from;     /* the first one: its first byte (where the
                                 corrupt event starts) */
  long long corrupt_to;       /* ... and the byte where reading resumed */
  char corrupt_reason[128];   /* what was wrong with its first event */
  long censuses_lost;         /* censuses dropped because a part of them
                                 was in a skipped stretch */
  double first_lost_census_s; /* time of the first census lost; -1 if its
                                 beginning was skipped too, or none lost */
  int truncated_between;      /* with truncated: an eventlog that stops
                                 between two whole events, outside any
                                 census, without its end marker (a
                                 program still running, stopped, or a
                                 stream closed): nothing was cut */
} hp2x_warnings;

/* p's warnings; points into p, lives as long as it. */
const hp2x_warnings *hp2x_profile_warnings(const hp2x_profile *p);

/* ------------------------------------------------------------- parsing */

/* A streaming reader: feed it bytes in chunks of any size, then finish.
 * The same bytes give the same profile however they are split. */
typedef struct hp2x_parser hp2x_parser;

/* How to parse; fill in with hp2x_parse_options_init, then set fields. */
/* A time zone: the offset east of UTC, in seconds, of local time at the
 * instant `unix_s` (seconds since 1970, UTC); for example 3600 for CET in
 * winter.  The library calls it with no lock held, from the thread that
 * feeds the parser. */
typedef long (*hp2x_zone_fn)(int64_t unix_s);

typedef struct hp2x_parse_options {
  size_t size;            /* set by hp2x_parse_options_init: the struct's
                             size as the caller compiled it (see the top) */
  hp2x_input_kind kind;   /* HP2X_INPUT_AUTO by default */
  int ccs_length;         /* eventlog -hc labels: cut like the RTS's -L N;
                             0 = the full stack (default); >= 5 otherwise */
  size_t max_labels;      /* distinct labels read; 0 = the built-in limit
                             (16 Mi), which is also the most allowed */
  size_t max_samples;     /* complete samples read; 0 = the built-in limit
                             (256 Mi), which is also the most allowed */
  size_t picture_columns; /* 0 (default): keep every sample.  Else the profile
                             is read for one picture this many device columns
                             wide (hp2x_picture_columns) and keeps only what it
                             shows, in memory bounded by the picture, not by
                             the run: the first and the last sample and, in
                             time buckets narrower than a column, the samples
                             of the largest and smallest total (likewise the
                             heap series; one mark per bucket).  Band
                             selection, -d and the area figure still count
                             every sample.  Such a profile is for that picture:
                             its CSV or .hp text, a window or a comparison see
                             only the samples kept. */
  double last_s;          /* > 0: keep only the most recent last_s seconds of
                             the run (hp2x --last): samples, heap series and
                             marks older than the window are dropped, and the
                             labels' sums (band selection, -d, the area
                             figure) count the window's samples only.  The
                             window's start snaps to 1/256 of last_s (from
                             time 0).  0 (default): the whole run. */
  /* Fields below were added after the struct first had a size field: a
   * caller compiled without them gets their defaults. */
  hp2x_zone_fn zone; /* the time zone of an eventlog's DATE, which GHC's
                        .hp gives in the local time of the machine that
                        ran the program: the offset from UTC at each
                        instant.  NULL (default): UTC.  The library
                        never reads TZ; the hp2x tool passes the local
                        zone, or NULL with SOURCE_DATE_EPOCH set. */
  size_t threads;    /* threads reading the input: 0 or 1 (default) is
                        the caller's alone.  More read a large feed
                        (hp2x_parser_feed, _feed_fd, hp2x_parse_stream) in
                        parts, each on a thread of its own, and take them
                        in order on the caller's: the profile, every error
                        and warning are what one thread gives.  The
                        library reads no environment and knows no core
                        count: the caller chooses (the hp2x tool's
                        --jobs). */
  size_t part_bytes; /* with threads > 1, the bytes of a part (.hp text is
                        cut before a BEGIN_SAMPLE line, an eventlog at a
                        block marker, so a part holds at least this many
                        bytes, or the rest); and a feed of more bytes than
                        this is read in parts however small.  0 (default):
                        chosen from the feed's length (at most 3 MiB), and
                        feeds under 1 MiB are read on one thread.  For
                        tests: the result never depends on it. */
  size_t pack_bytes; /* a feed of this many bytes or more before the
                        first census (one hp2x_parser_feed call, or a
                        file read at once: hp2x_parser_feed_fd) keeps
                        its censuses'
                        values packed, in about 2.4 bytes a value for 4,
                        for some more time reading and reading them back.
                        0 (default): 512 MiB.  For tests: the result never
                        depends on it. */
} hp2x_parse_options;

/* Fills in the defaults and o->size; call it as the macro
 * hp2x_parse_options_init(&o), which passes sizeof o.  The function writes
 * at most `size` bytes and sets o->size to the part of the struct this
 * library knows (min(size, its own sizeof)). */
void hp2x_parse_options_init_sized(hp2x_parse_options *o, size_t size);
#define hp2x_parse_options_init(o) \
  hp2x_parse_options_init_sized((o), sizeof *(o))

/* Creates a parser for the input named `file` (may be NULL): an
 * eventlog's JOB is the file's base name until its PROGRAM_ARGS event
 * says otherwise.  `file` is borrowed and must stay valid until the parser
 * is freed.  `o` may be NULL for defaults; it is copied.  Returns NULL when
 * out of memory (err then says HP2X_E_NOMEM) and when o->size is smaller
 * than any hp2x_parse_options (HP2X_E_ARG). */
hp2x_parser *hp2x_parser_new(const char *file, const hp2x_parse_options *o,
                             hp2x_err *err);

/* Parses the next `len` bytes.  Errors are final: later calls return the
 * same status.  HP2X_E_SYNTAX / _LIMIT carry a line or byte offset. */
hp2x_status hp2x_parser_feed(hp2x_parser *ps, const void *buf, size_t len,
                             hp2x_err *err);

/* The profile of the complete samples parsed so far: borrowed, valid until
 * the next feed/finish/free.  For watch mode.  Never NULL. */
const hp2x_profile *hp2x_parser_peek(const hp2x_parser *ps);

/* Ends the input.  An incomplete last sample is dropped and recorded in the
 * profile's warnings (not an error).  On success *out receives the profile,
 * owned by the caller.  The parser may only be freed afterwards. */
hp2x_status hp2x_parser_finish(hp2x_parser *ps, hp2x_profile **out,
                               hp2x_err *err);

/* The kind actually being parsed (AUTO until enough bytes were seen). */
hp2x_input_kind hp2x_parser_kind(const hp2x_parser *ps);

/* Bytes consumed so far. */
long long hp2x_parser_bytes(const hp2x_parser *ps);

/* The length of the longest prefix of the bytes fed so far that ends
 * between two whole events (an eventlog: its header and every event up to
 * the last one fed whole, the end-of-data marker included, nothing after
 * it) or after a whole line (.hp text); 0 before the kind is known or
 * while an eventlog's header is incomplete.  Cut there, a copy of the
 * input that stopped inside an event becomes one that stops between two
 * (hp2x --tee).  While skipping a corrupt stretch: where it began. */
long long hp2x_parser_whole_bytes(const hp2x_parser *ps);

/* True once an eventlog's end-of-data marker has been read. */
int hp2x_parser_at_end(const hp2x_parser *ps);

/* Frees the parser and, if it was not finished, its profile.  NULL does
 * nothing. */
void hp2x_parser_free(hp2x_parser *ps);

/* Parses every byte the file descriptor fd gives from where it stands to
 * its end, as hp2x_parser_feed would parse them, on the parser's threads
 * (hp2x_parse_options.threads).  A regular file is read once, up to the
 * size it has when the call begins, with pread (never mapped): a piece
 * at a time into a buffer each thread reuses, so that the process's
 * resident memory stays small; a file that shrinks meanwhile is HP2X_E_IO
 * at the byte where it ended.  With HP2X_FEED_NO_MAP, and for anything
 * else (a pipe, a socket, a terminal), fd is read with read() to its end,
 * in pieces (hp2x --watch: a file that grows or is rewritten).  fd stays
 * open, at the end of what was read.  HP2X_E_IO when reading fails, else
 * hp2x_parser_feed's errors. */
#define HP2X_FEED_NO_MAP 1u
hp2x_status hp2x_parser_feed_fd(hp2x_parser *ps, int fd, unsigned flags,
                                hp2x_err *err);

/* Convenience: reads a whole stream (FILE*, borrowed, not closed) through
 * a parser, as hp2x_parser_new, _feed and _finish would; *out as
 * _finish.  HP2X_E_IO when reading fails, else their errors.  With
 * threads > 1 it reads 64 MiB at a time, to read them in parts. */
hp2x_status hp2x_parse_stream(FILE *in, const char *file,
                              const hp2x_parse_options *o, hp2x_profile **out,
                              hp2x_err *err);

/* ------------------------------------------------------------ .aux files */

/* hp2ps's saved scaling, order and shading (hp2ps -p). */
typedef struct hp2x_aux hp2x_aux;

/* Parses .aux text (the whole buffer, borrowed; `file`, which may be NULL,
 * only names it).  *out is owned by the caller.  HP2X_E_SYNTAX with the
 * line, HP2X_E_LIMIT, HP2X_E_NOMEM. */
hp2x_status hp2x_aux_parse(const char *text, size_t len, const char *file,
                           hp2x_aux **out, hp2x_err *err);
/* NULL does nothing. */
void hp2x_aux_free(hp2x_aux *aux);

/* ------------------------------------------------------ band selection */

typedef enum hp2x_sort {
  HP2X_SORT_AREA = 0, /* by total, largest on top (hp2ps default) */
  HP2X_SORT_STDDEV    /* hp2ps -d: roughest on top */
} hp2x_sort;

/* Every output hp2x writes.  hp2x_write_output takes any of them; the
 * pictures (hp2x_format_is_picture: PS, EPS, PDF, SVG, PNG) are what
 * hp2x_render draws, the others are text or data (pprof). */
typedef enum hp2x_format {
  HP2X_FORMAT_PS = 0,
  HP2X_FORMAT_EPS,
  HP2X_FORMAT_PDF,
  HP2X_FORMAT_SVG,
  HP2X_FORMAT_CSV,
  HP2X_FORMAT_HP,
  HP2X_FORMAT_TXT,  /* the summary table (hp2x_write_summary) */
  HP2X_FORMAT_PNG,  /* a raster picture at o->dpi */
  HP2X_FORMAT_HTML, /* an interactive report page (hp2x_write_html) */
  HP2X_FORMAT_PPROF /* one census as a gzipped pprof profile
                       (hp2x_write_pprof), file name NAME.pb.gz */
} hp2x_format;

/* Band colours.  Every palette gives each band of a picture its own shade;
 * .aux SHADE values are self-describing (below 1: hp2ps's grey level or
 * colour encoding; 1.RRGGBB: a label colour, channels in 99ths), so -p
 * round-trips each palette exactly. */
typedef enum hp2x_palette {
  HP2X_PALETTE_HP2PS = 0, /* hp2ps's ten greys, or its colours with colour */
  HP2X_PALETTE_LABEL,     /* colour derived from the band's name: 24
                             colours distinct for normal, protan, deutan
                             and tritan vision; implies colour */
  HP2X_PALETTE_GREY       /* hp2ps's ten greys, even with colour */
} hp2x_palette;

/* What a picture shows of its bands (--chart).  Every kind draws the same
 * bands, in the same order and colours; only their shapes and the y axis
 * differ. */
typedef enum hp2x_chart {
  HP2X_CHART_STACKED = 0, /* stacked on the time axis, hp2ps's (default) */
  HP2X_CHART_PERCENT,     /* each census's bands (OTHER included) as 100 %
                             of it; a census whose total is 0 is a gap */
  HP2X_CHART_STREAMGRAPH, /* the stack centred on a middle line; the y
                             axis gives bytes as the distance from it */
  HP2X_CHART_LINES        /* one line per band, each scaled to its own
                             peak (0 to 100 % of it) */
} hp2x_chart;

/* hp2x_options.by_breakdown: what the profile's breakdown decides (bits). */
#define HP2X_BY_BREAKDOWN_ORDER         \
  1u /* -hb bands in a fixed order, -he \
        bands in era order */
#define HP2X_BY_BREAKDOWN_COLOURS       \
  2u /* -hb bands in fixed colours, -he \
        bands in a sequential palette */

/* How hp2x_render_many places several pictures. */
typedef enum hp2x_layout {
  HP2X_LAYOUT_PAGES = 0, /* one page each (PS, PDF) */
  HP2X_LAYOUT_STACK      /* one page, one picture above the other */
} hp2x_layout;

/* hp2x_bands_select_many: which axes the profiles share (bits). */
typedef enum hp2x_uniform {
  HP2X_UNIFORM_NONE = 0,   /* each profile its own axes */
  HP2X_UNIFORM_TIME = 1,   /* same time span and origin */
  HP2X_UNIFORM_MEMORY = 2, /* same y range */
  HP2X_UNIFORM_BOTH = 3    /* HP2X_UNIFORM_TIME | HP2X_UNIFORM_MEMORY */
} hp2x_uniform;

/* hp2ps -i: bands sorted by name (after -d's key) or not. */
typedef enum hp2x_name_order {
  HP2X_NAME_ORDER_DESCENDING = -1, /* -i- */
  HP2X_NAME_ORDER_NONE = 0,        /* by size (or -d) alone; default */
  HP2X_NAME_ORDER_ASCENDING = 1    /* -i, -i+ */
} hp2x_name_order;

/* The title box: hp2ps's small one (-s) or big one (-b). */
typedef enum hp2x_title_box {
  HP2X_TITLE_AUTO = -1, /* big when JOB is over 35 bytes or an eventlog
                           names its breakdown; default */
  HP2X_TITLE_SMALL = 0, /* -s */
  HP2X_TITLE_BIG = 1    /* -b */
} hp2x_title_box;

/* The ranges of hp2x_options' sizes: hp2x_render refuses a value outside
 * them (HP2X_E_ARG), and the tool's -e and --dpi take the same. */
#define HP2X_EPS_WIDTH_MIN_PT 144   /* eps_width_pt is above it (2 in) */
#define HP2X_EPS_WIDTH_MAX_PT 14400 /* and at most this (200 in) */
#define HP2X_DPI_MIN 10             /* dpi, when not 0: at least this */
#define HP2X_DPI_MAX 1200           /* and at most this */

/* Everything that changes selection and drawing; hp2ps flag in brackets.
 * Fill in with hp2x_options_init, then set fields; flags are 0 (off) or 1.
 * Strings and the aux data are borrowed: they must outlive the calls the
 * options are passed to, and the library keeps no pointer after a call. */
typedef struct hp2x_options {
  size_t size;                /* set by hp2x_options_init: the struct's size
                                 as the caller compiled it (see the top) */
  int max_bands;              /* [-m] 20; 0 = no limit and no key */
  double trace_pct;           /* [-t] 1.0; 0..5 inclusive */
  hp2x_sort sort;             /* [-d] */
  hp2x_name_order name_order; /* [-i] */
  const hp2x_aux *aux;        /* [-p] borrowed; NULL when not used */
  hp2x_format format;         /* output format; HP2X_FORMAT_PS by default */
  double eps_width_pt;        /* [-e] > 144, <= 14400 (the HP2X_EPS_WIDTH_
                                 limits); 0 = not EPS-scaled */
  int colour;                 /* [-c] */
  hp2x_title_box title_box;   /* [-b/-s] */
  int portrait;           /* [-g] unrotated on the page of HP2X_PAGE_HP2PS */
  int multipage;          /* [-M]; also implied by max_bands > 20 */
  int no_marks;           /* [-y] */
  int all_samples;        /* draw every sample; by default each band's
                             curve keeps, per device column at 600 dpi,
                             its lowest and highest point: the same
                             picture, with bounded output */
  hp2x_palette palette;   /* band colours; HP2X_PALETTE_HP2PS by default */
  int pattern;            /* hatch patterns over light greys, for black
                             and white printing (overrides the palette) */
  hp2x_uniform uniform;   /* select_many only; HP2X_UNIFORM_NONE */
  hp2x_layout layout;     /* render_many only */
  const char *include_re; /* POSIX extended regex, borrowed; NULL = all:
                             labels that do not match are filtered out */
  const char *exclude_re; /* POSIX extended regex, borrowed; NULL = none:
                             labels that match are filtered out */
  double dpi;             /* PNG pixels per inch, 10..1200 (HP2X_DPI_
                             limits); 150; 0 = 150 */
  int heap_overlay;       /* draw the eventlog's heap size, blocks size
                             and live bytes as lines over the bands, in
                             the key; the y range takes them in */
  /* Fields below were added after the struct first had a size field: a
   * caller compiled without them gets their defaults. */
  const char *fonts_conf;      /* fontconfig file naming the fonts to draw
                                  with (hp2x's pinned fonts/fonts.conf),
                                  borrowed; the caller says where it is (the
                                  hp2x tool finds its own beside its binary).
                                  NULL = the installed data directory's
                                  (PREFIX/share/hp2x/fonts/fonts.conf) where
                                  it exists, else fontconfig's default
                                  configuration */
  long long source_date_epoch; /* seconds since 1970 (UTC) dating every
                              picture (PostScript's CreationDate, PDF's
                              dates), as reproducible builds'
                              SOURCE_DATE_EPOCH does; -1 (default) = PS and
                              EPS dated with the profile's DATE, PDF with
                              the clock (cairo's default) */
  hp2x_census_choice census;   /* the census a writer of one census
                                (hp2x_format_info.span HP2X_SPAN_CENSUS)
                                writes; hp2x_census_choice_init's (the peak
                                of the run) by default */
  hp2x_chart chart;            /* what the picture shows; HP2X_CHART_STACKED.
                                  heap_overlay is HP2X_E_ARG with PERCENT and
                                  LINES (its lines have no place there) */
  unsigned by_breakdown;       /* HP2X_BY_BREAKDOWN_* bits, both by default:
                                  a profile broken down by biography (-hb) or
                                  era (-he) gets its bands' order (unless
                                  sort, name_order or aux say otherwise) and
                                  colours (unless pattern hatches) from it;
                                  the hp2x tool clears ORDER for an explicit
                                  --sort, -i or -d and COLOURS for --palette */
  int span;                    /* an hp2x_span: what a format of either
                                  (hp2x_format_info.span HP2X_SPAN_EITHER:
                                  CSV, the summary) holds.  HP2X_SPAN_RUN
                                  (default): every census; HP2X_SPAN_CENSUS:
                                  the one `census` chooses (CSV: its row;
                                  the summary: its moment table,
                                  hp2x_write_moment) */
  size_t threads;              /* threads choosing the bands (hp2x_bands_select
                                  fills their values a range of samples on
                                  each) and writing CSV (hp2x_write_output
                                  formats chunks of rows on each, written
                                  in order by the caller's): 0 or 1
                                  (default) is the caller's alone; the
                                  bytes are the same on any number.  As
                                  hp2x_parse_options.threads, the caller
                                  chooses (the hp2x tool's --jobs) */
} hp2x_options;

/* The size of the first hp2x_options with a size field (through
 * heap_overlay): a smaller o->size is HP2X_E_ARG. */
#define HP2X_OPTIONS_MIN_SIZE \
  (offsetof(hp2x_options, heap_overlay) + sizeof(int))

/* Fills in hp2ps's defaults and o->size; call it as the macro
 * hp2x_options_init(&o), which passes sizeof o.  The function writes at
 * most `size` bytes and sets o->size to the part of the struct this
 * library knows (min(size, its own sizeof)).  Every function taking
 * options returns HP2X_E_ARG when o->size < HP2X_OPTIONS_MIN_SIZE. */
void hp2x_options_init_sized(hp2x_options *o, size_t size);
#define hp2x_options_init(o) hp2x_options_init_sized((o), sizeof *(o))

/* The bands chosen for drawing, bottom (index 0) to top. */
typedef struct hp2x_bands hp2x_bands;

/* Applies hp2ps's selection (trace removal, -d, -i, -p, -m with OTHER) to
 * `p`.  Labels filtered out by o->include_re / o->exclude_re take no part
 * in the selection; their values are added to the OTHER band (then named
 * "OTHER (incl. filtered)", and counted as one of the -m bands) so the
 * total stays true.  *out is owned by the caller.  HP2X_E_ARG for
 * out-of-range options and for a regex that does not compile. */
hp2x_status hp2x_bands_select(const hp2x_profile *p, const hp2x_options *o,
                              hp2x_bands **out, hp2x_err *err);

/* Number of bands (OTHER included). */
size_t hp2x_bands_count(const hp2x_bands *b);
/* Band name, pointing into b; "" out of range; "OTHER" for the merged band
 * ("OTHER (incl. filtered)" when it holds labels filtered out by include_re
 * / exclude_re). */
const char *hp2x_bands_name(const hp2x_bands *b, size_t band);
/* What the name leaves out, or NULL when it says everything: for a -hi
 * band named by its IPE event ("D# in readings.go leak.hs:33:50-65"), the
 * whole record ("table D#_Main_0_con_info; closure CONSTR_0_1; type
 * Double; label readings.go; module Main; source leak.hs:33:50-65;
 * address 0x40e8b0").  Owned by b. */
const char *hp2x_bands_detail(const hp2x_bands *b, size_t band);
/* Value of `band` in `sample` (sum of its labels' values there); 0 out of
 * range. */
int64_t hp2x_bands_value(const hp2x_bands *b, size_t band, size_t sample);
/* Samples the bands hold values for (the profile's samples). */
size_t hp2x_bands_sample_count(const hp2x_bands *b);
/* NULL does nothing.  Not for the bands a follower lends. */
void hp2x_bands_free(hp2x_bands *b);
/* A copy of b (a follower's bands too) that shares nothing with it and
 * draws, writes and measures as b does, with the same profile (or a copy
 * of it from hp2x_profile_window over all time); for drawing it later or
 * on another thread while b changes.  *out is owned by the caller (free it
 * with hp2x_bands_free).  HP2X_E_NOMEM, HP2X_E_ARG for NULL. */
hp2x_status hp2x_bands_copy(const hp2x_bands *b, hp2x_bands **out,
                            hp2x_err *err);

/* A follower selects the bands of a profile that keeps growing (watch
 * mode) again and again, each time at the cost of the samples added since
 * the last call: it keeps the label totals, the bands' values and an index
 * of their stacked curves, from which drawing picks its points per device
 * column.  When the selection itself changes (a label overtakes another),
 * the bands are built afresh from every sample. */
typedef struct hp2x_follower hp2x_follower;

/* NULL with HP2X_E_NOMEM.  Free with hp2x_follower_free. */
hp2x_follower *hp2x_follower_new(hp2x_err *err);
/* The bands hp2x_bands_select would return for p with options o.  Between
 * calls p may only have gained complete samples (the profile of one
 * hp2x_parser, as hp2x_parser_peek gives it) and o must not change; for
 * another profile call hp2x_follower_reset first (a different pointer, or
 * fewer samples, is noticed and starts over).  *out is owned by f and
 * valid until the next call, reset or free.  Errors as hp2x_bands_select;
 * after an error the next call starts over. */
hp2x_status hp2x_follower_select(hp2x_follower *f, const hp2x_profile *p,
                                 const hp2x_options *o, const hp2x_bands **out,
                                 hp2x_err *err);
/* Forgets everything, as a new follower. */
void hp2x_follower_reset(hp2x_follower *f);
/* Frees f and the bands it lent.  NULL does nothing. */
void hp2x_follower_free(hp2x_follower *f);

/* One selection for several profiles (comparing runs): hp2ps's rules applied
 * to the labels' combined totals (labels matched by name; each profile's
 * values scaled so that all weigh the same), then each profile's own values in
 * that one set of bands, so a label is the same band, at the same key
 * position, in every picture.  A label absent from a profile is a band of
 * zeros there.  o->uniform makes the profiles share the time axis (origin =
 * the earliest first sample, span to the latest last one) and/or the y range.
 * out[0..n) receive the bands of ps[0..n), owned by the caller (free each); on
 * error every out[i] is NULL.  HP2X_E_ARG for n == 0 or out-of-range options.
 */
hp2x_status hp2x_bands_select_many(const hp2x_profile *const *ps, size_t n,
                                   const hp2x_options *o, hp2x_bands **out,
                                   hp2x_err *err);

/* The colour each band is drawn in with these options, as r, g, b in 0..1:
 * rgb[3k .. 3k+2] for band k (bottom first), 3 * count doubles.  For the
 * label palette: the colour a band's name hashes to (FNV-1a, so the same
 * on every machine), unless a bigger band of the same picture already has
 * it; then the next free one.  Up to 24 bands all differ.  The palette's
 * colours even when o->pattern hatches the picture.  HP2X_E_NOMEM. */
hp2x_status hp2x_bands_rgb(const hp2x_bands *b, const hp2x_options *o,
                           double *rgb, hp2x_err *err);

/* ------------------------------------------------------------ writing */

/* A byte sink: returns 0 on success, non-zero on failure (errno set). */
typedef int (*hp2x_write_fn)(void *closure, const void *buf, size_t len);

/* Draws `p` with bands `b` in o->format, a picture format (PS, EPS, PDF,
 * SVG, or PNG: the PDF page at o->dpi, on white), through one cairo
 * drawing path, sending the bytes to `write`.  HP2X_E_ARG for a text
 * format (hp2x_write_output writes those), HP2X_E_IO when the sink fails,
 * HP2X_E_CAIRO when drawing fails. */
/* The device columns (at 600 dpi, where pictures are thinned) across the
 * widest graph a picture drawn with o can have: for
 * hp2x_parse_options.picture_columns. */
size_t hp2x_picture_columns(const hp2x_options *o);

hp2x_status hp2x_render(const hp2x_profile *p, const hp2x_bands *b,
                        const hp2x_options *o, hp2x_write_fn write,
                        void *closure, hp2x_err *err);

/* Draws several pictures into one output: with o->layout PAGES one page
 * per profile (PS and PDF only; HP2X_E_ARG for EPS, SVG and PNG), with STACK
 * one page holding them one above the other (any picture format). */
hp2x_status hp2x_render_many(const hp2x_profile *const *ps,
                             const hp2x_bands *const *bs, size_t n,
                             const hp2x_options *o, hp2x_write_fn write,
                             void *closure, hp2x_err *err);

/* The difference b - a of two runs, for "what grew": both profiles' bands
 * (from one hp2x_bands_select_many, so their names agree) are resampled at
 * 201 points of normalised time (0 to 100 % of each run's sample span, by
 * linear interpolation) and subtracted.  *out_p is a profile of those
 * times (SAMPLE_UNIT "% of run", JOB naming both runs) and *out_b its
 * bands, whose values may be negative; render them with hp2x_render (drawn
 * diverging: growth stacked above zero, shrinkage below) or write them
 * with hp2x_write_csv.  Both owned by the caller.  HP2X_E_ARG when the
 * band names differ or a profile has no samples. */
hp2x_status hp2x_diff_new(const hp2x_profile *a, const hp2x_bands *ba,
                          const hp2x_profile *b, const hp2x_bands *bb,
                          hp2x_profile **out_p, hp2x_bands **out_b,
                          hp2x_err *err);

/* Loads the fonts that renders with options' fonts_conf == `fonts_conf` draw
 * with (NULL: the installed data directory's, as hp2x_options says) and puts
 * a font map holding them, warmed, in the pool renders take theirs from.  The
 * configuration is given to the library's pango font maps alone, so neither
 * fontconfig's current configuration nor pango's default font map changes.
 * The first render with those options does this itself; calling it earlier,
 * from any thread, lets a caller overlap font set-up with parsing.  A render
 * on another thread that needs the same fonts waits for it.  The
 * configuration and the pool live until hp2x_fonts_release or the process's
 * exit.  err may be NULL (for a caller that lets the render report).
 * HP2X_E_CAIRO when pango has no font map, HP2X_E_LIMIT for a ninth different
 * fonts_conf, HP2X_E_ARG for one longer than PATH_MAX; a fonts.conf that does
 * not load leaves fontconfig's default configuration in use (as when none is
 * found), which is not an error. */
hp2x_status hp2x_fonts_prepare(const char *fonts_conf, hp2x_err *err);

/* For a program that owns its process, as the hp2x tool does, and never
 * for a library that embeds libhp2x: hp2x_fonts_prepare, and the loaded
 * configuration is also made fontconfig's current one for the whole
 * process.  Pango starts by initialising fontconfig's default
 * configuration in a thread of its own, and drawing waits for it; with
 * this call made first, that is instant instead of loading the system's
 * whole configuration (about 7 ms a run on a small profile).  The only
 * call in this header that changes process-wide state.  err may be NULL;
 * errors as hp2x_fonts_prepare. */
hp2x_status hp2x_fonts_make_process_default(const char *fonts_conf,
                                            hp2x_err *err);

/* Frees the fonts the library holds: every pool's font maps and each
 * fonts.conf's fontconfig configuration.  For the end of a program (so
 * that a leak checker sees only what is really lost) or before unloading
 * the library; call it when no render, selection or font call is running
 * on any thread.  A later render loads its fonts again.  A configuration
 * hp2x_fonts_make_process_default made current stays fontconfig's until
 * it is replaced. */
void hp2x_fonts_release(void);

/* Writes hp2ps's .aux text (X_RANGE, Y_RANGE, ORDER, SHADE) for a render
 * with these bands and options.  HP2X_E_IO when the sink fails,
 * HP2X_E_NOMEM, HP2X_E_ARG for options too small (see hp2x_options). */
hp2x_status hp2x_write_aux(const hp2x_profile *p, const hp2x_bands *b,
                           const hp2x_options *o, hp2x_write_fn write,
                           void *closure, hp2x_err *err);

/* Writes the selected bands as CSV: header "time,<top band>,...,<bottom>",
 * one row per sample, RFC 4180 quoting.  HP2X_E_IO when the sink fails,
 * HP2X_E_NOMEM. */
hp2x_status hp2x_write_csv(const hp2x_profile *p, const hp2x_bands *b,
                           hp2x_write_fn write, void *closure, hp2x_err *err);

/* The CSV of several profiles with one selection: header
 * "input,time,<top band>,...,<bottom>", then each profile's rows in turn,
 * the first field naming its input (names[i], borrowed). */
hp2x_status hp2x_write_csv_many(const hp2x_profile *const *ps,
                                const hp2x_bands *const *bs,
                                const char *const *names, size_t n,
                                hp2x_write_fn write, void *closure,
                                hp2x_err *err);

/* hp2x_write_csv's header (hp2x_write_csv_many's when n > 1), then one
 * row per profile: census samples[i] of ps[i] (an index of its complete
 * samples, as hp2x_census_choose gives), the row the whole run's CSV has
 * for it.  HP2X_E_ARG for a sample out of range or bands that differ
 * (hp2x_write_csv_many's rule), HP2X_E_IO, HP2X_E_NOMEM. */
hp2x_status hp2x_write_csv_censuses(const hp2x_profile *const *ps,
                                    const hp2x_bands *const *bs,
                                    const char *const *names,
                                    const size_t *samples, size_t n,
                                    hp2x_write_fn write, void *closure,
                                    hp2x_err *err);

/* Writes the moment table of one census of each profile (--summary
 * --at): census samples[i] of ps[i], headed names[i] (borrowed) as
 * hp2x_write_summary heads its table; its time, number and total, and the
 * change of the total since the census before; then one row per band of
 * bs[i] in key order (top first, OTHER included): its value as the CSV
 * row of that census writes it, its share of the census's total (one
 * decimal; "-" when the total is not above 0) and its change since the
 * census before ("+N", "-N", "0"; "-" for the first census).  Locale-free
 * numbers.  HP2X_E_ARG for a sample out of range, HP2X_E_IO,
 * HP2X_E_NOMEM. */
hp2x_status hp2x_write_moment(const hp2x_profile *const *ps,
                              const hp2x_bands *const *bs,
                              const char *const *names, const size_t *samples,
                              size_t n, hp2x_write_fn write, void *closure,
                              hp2x_err *err);

/* Writes the summary table of each profile with its bands (one selection,
 * or each its own): the total's peak and when; per band, key order, its
 * total (sum over samples), peak and when, least-squares slope of value
 * against time and its R^2 (fitted over the samples whose total is not 0,
 * which leaves out GHC's empty first and last samples); then the "leak
 * suspects": bands other than OTHER with slope > 0, R^2 >= 0.8 and fitted
 * growth over the run (slope x span) of at least 1% of the total's peak,
 * most growth first.  names[i] (borrowed) heads profile i's table.
 * Locale-free numbers.  HP2X_E_IO, HP2X_E_NOMEM. */
hp2x_status hp2x_write_summary(const hp2x_profile *const *ps,
                               const hp2x_bands *const *bs,
                               const char *const *names, size_t n,
                               hp2x_write_fn write, void *closure,
                               hp2x_err *err);

/* Writes an interactive report of `p` with bands `b` as one HTML page
 * that needs nothing else (no network, no other file; it works from
 * file://): the picture hp2x draws (its PNG at 96 dpi, and the same
 * picture as SVG, which the page's script completes from the censuses
 * it holds: all while at most 3,200, else per time bucket the census of
 * the largest total and the first and last, the buckets a power of two
 * seconds wide from the first census, at most 3,200 across the graph,
 * wider when the page's budget of about 1 MB needs), with hover, hiding bands,
 * zooming in time, the band table of hp2x_write_summary (plus a
 * sparkline) for the run or for the censuses inside the zoom, and the
 * moment table of hp2x_write_moment for the census a click picks.  Labels
 * are data, shown as text.  HP2X_E_ARG for options
 * hp2x_render refuses, HP2X_E_IO when the sink fails, HP2X_E_NOMEM,
 * HP2X_E_CAIRO. */
hp2x_status hp2x_write_html(const hp2x_profile *p, const hp2x_bands *b,
                            const hp2x_options *o, hp2x_write_fn write,
                            void *closure, hp2x_err *err);

/* hp2x_write_html's page as a server keeps it current (hp2x --serve): the
 * same report with a status line (id hp2x-live-status) and a script that
 * follows the server's Server-Sent Events at /events: each "update"
 * event's JSON ({"picture": N, "input": "waiting" | "connected" |
 * "closed", "censuses": N, "last_census": seconds or null, "update": what
 * hp2x_write_live_update writes}) sets the status line, and the page
 * appends the update's censuses and draws them itself.  When it cannot (a
 * new band set, a gap, ...: see hp2x_write_live_update), a newer picture
 * than the page's own `redraw` (>= 0, written as data-hp2x-redraw on
 * <html>) makes it fetch "/" again and swap the new report in without
 * reloading, keeping the bands the reader hid, the time zoom and a census
 * the reader picked (else its moment table follows the newest census).
 * Its policy lets it connect to its own server only.  Errors as
 * hp2x_write_html; HP2X_E_ARG for redraw < 0. */
hp2x_status hp2x_write_live_html(const hp2x_profile *p, const hp2x_bands *b,
                                 const hp2x_options *o, long redraw,
                                 hp2x_write_fn write, void *closure,
                                 hp2x_err *err);

/* hp2x_write_live_html's page without its PNG's bytes (the image's src
 * an empty data: URL) and without its scripts, for a live page that has
 * them and draws the picture itself, swapping this page's report into its
 * own (hp2x --serve's pushed report event).  The PNG is not drawn at
 * all: the page's byte budget counts the pictures at a fixed allowance,
 * so it holds the censuses the whole page holds.  Errors as
 * hp2x_write_live_html. */
hp2x_status hp2x_write_live_lean_html(const hp2x_profile *p,
                                      const hp2x_bands *b,
                                      const hp2x_options *o, long redraw,
                                      hp2x_write_fn write, void *closure,
                                      hp2x_err *err);

/* What a live page of hp2x_write_live_html is sent after a redraw
 * instead of the page: one JSON object with the band set's fingerprint
 * ("set": the page's own is its data's), the bands' census count
 * ("samples"), the axes (x0, xrange, ymin, yrange, tickEnd, each chart
 * kind's [ymin, yrange] in "axes"), the marks ("markCount", all of
 * them; "markSum", the fingerprint of those the report holds, 16 hex
 * digits, as the report's data has it; "marks", [[t, label], ...] as the
 * report writes them: labels escaped, at most 50 KB of JSON), the band
 * table's cells of the run ("cells", "topPeak", "topPeakAt"; with each band's
 * "sum", its values' sum modulo 2^64 over the censuses the report holds,
 * as a decimal string, by which the page sees a band's past change, as
 * when a band joins or leaves OTHER under -t), how many censuses the
 * report holds ("held", of "samples") and over how many columns
 * ("columns"), and the newest
 * censuses, at most `tail` (and 64) of them: their times as the CSV writes
 * them ("t"), exactly where that text is not ("tx"), and each band's
 * values ("v").  The page appends the censuses it lacks and draws them
 * itself, and takes the marks; a different band set (drawn from the
 * update when the update holds every census and hp2x_write_live_key's key
 * comes with it), a gap longer than the tail, or marks other than the
 * page's that the update does not carry (hp2x_write_live_step's) make it
 * load the page again.  Where the report holds fewer censuses than the
 * run's, "thin" says which, as hp2x_write_live_step does; here always
 * against none ({"base":-1}: the page loads the report), and the marks
 * always whole.  Labels appear only as marks', escaped as in the report's
 * data.  HP2X_E_ARG without a census or with tail 0, HP2X_E_IO when the
 * sink fails, HP2X_E_NOMEM. */
hp2x_status hp2x_write_live_update(const hp2x_profile *p, const hp2x_bands *b,
                                   size_t tail, hp2x_write_fn write,
                                   void *closure, hp2x_err *err);

/* The marks' state one update said: all of them ("markCount"), how many
 * of them its report holds, their fingerprint ("markSum"). */
typedef struct hp2x_live_marks {
  size_t count, shown;
  uint64_t sum;
} hp2x_live_marks;
/* How many updates' marks' states hp2x_live_held keeps: an update's marks
 * serve a page in any of them (hp2x_write_live_step). */
#define HP2X_LIVE_MARK_WINDOW 32

/* The censuses a live page holds (its report's, hp2x_write_live_html's
 * "t") and the marks' states of the last HP2X_LIVE_MARK_WINDOW updates, as
 * hp2x_write_live_step left them: the caller keeps it between updates, and
 * the next update says what changed against it.  Start from
 * HP2X_LIVE_HELD_INIT; hp2x_live_held_clear frees what it holds. */
typedef struct hp2x_live_held {
  long redraw;       /* the redraw whose report holds them; -1: none */
  size_t n;          /* how many */
  double *times;     /* [n]: their times, increasing */
  int64_t *totals;   /* [n]: each one's values' total over the bands */
  size_t marks_said; /* how many of marks[] updates said (<= the window) */
  size_t marks_next; /* where the next update's goes in marks[] (a ring) */
  hp2x_live_marks marks[HP2X_LIVE_MARK_WINDOW];
} hp2x_live_held;
/* clang-format off */
#define HP2X_LIVE_HELD_INIT \
  { -1, 0, NULL, NULL, 0, 0, { { 0, 0, 0 } } }
/* clang-format on */
void hp2x_live_held_clear(hp2x_live_held *h);

/* hp2x_write_live_update of redraw `redraw` (>= 0) against what the
 * previous update left in `held` (which it then holds this redraw's
 * censuses): where the report would hold fewer censuses than the run's
 * ("held" < "samples"; hp2x_write_html's thinning), the update also
 * carries "thin": {"base": held's redraw, "of": held's count, "runs":
 * [[from, keep, add], ...], "t", "tx", "v"}: the censuses the report of
 * this redraw holds are, run after run, `keep` of base's from `from` on,
 * then the next `add` of the censuses in "t"/"tx"/"v" (those base lacks);
 * base -1 (no held redraw, an older one than held's; "why": "times", times
 * that do not increase): the page loads the report, with "why" now and
 * then.  With options o's --heap (o->heap_overlay; o NULL: none), it
 * also carries "lines": [{"name", "t", "y"}, ...], each --heap line whole
 * as hp2x_write_html of this redraw writes it (thinned over the time axis:
 * a few KB, at most ~150 KB); the page replaces its lines' points with
 * them.  The marks come only in an update made while a page may hold
 * others: when one of the last HP2X_LIVE_MARK_WINDOW updates (held's; the
 * first update, always) said another "markSum" than this one's.  Then,
 * when the marks each of those said begin this one's, the update carries
 * "marksFrom" (the fewest those hold: how many it leaves out),
 * "marksBase" (the "markSum"s those said other than this one's) and the
 * marks from marksFrom on (none when the report holds no more, past the
 * cap of their JSON); a page whose markSum is among marksBase keeps its
 * first marksFrom marks and appends them.  Else (marks dropped: thinned,
 * --last) the marks come whole.  The others say "markCount" and "markSum"
 * alone, by which a page that missed more updates than the window knows
 * to load the report.  Errors as hp2x_write_live_update; held left as it
 * was on an error. */
hp2x_status hp2x_write_live_step(const hp2x_profile *p, const hp2x_bands *b,
                                 const hp2x_options *o, size_t tail,
                                 long redraw, hp2x_live_held *held,
                                 hp2x_write_fn write, void *closure,
                                 hp2x_err *err);

/* What a live page needs to draw a new band set itself, sent with the
 * update whose band set ("set", as the update's) differs from the last:
 * one JSON object with each band's "name", "detail" (what its name leaves
 * out), "colour" ("#rrggbb", as the picture fills it) and "other" (in
 * "bands"), and where the picture drawn with options o would have its
 * graph and key ("page": "graph" [x, y, w, h] and "xRoom" in frame
 * points, "keyX", "keyW", "keyC" (each entry's centre) and "keyNames",
 * the key's names shortened to fit).  Labels appear, escaped as in the
 * report's data.  HP2X_E_ARG without a census; errors as hp2x_write_html. */
hp2x_status hp2x_write_live_key(const hp2x_profile *p, const hp2x_bands *b,
                                const hp2x_options *o, hp2x_write_fn write,
                                void *closure, hp2x_err *err);

/* The live page while there is no report to show (before a server's first
 * census, or when drawing the report failed): hp2x_write_live_html's
 * status line and scripts, no report.  The page shares the browser's one
 * event stream with the server's other pages like the report does, and
 * fetches the report and shows it in place, keeping that stream, once an
 * update names a picture newer than `redraw` (-1: any picture; otherwise
 * written as data-hp2x-redraw on <html>).
 * HP2X_E_IO when the sink fails, HP2X_E_NOMEM. */
hp2x_status hp2x_write_live_waiting_html(long redraw, hp2x_write_fn write,
                                         void *closure, hp2x_err *err);

/* Writes `p` as GHC .hp text (complete samples only).  HP2X_E_IO when the
 * sink fails, HP2X_E_NOMEM. */
hp2x_status hp2x_write_hp(const hp2x_profile *p, hp2x_write_fn write,
                          void *closure, hp2x_err *err);

/* What a metrics text tells beyond the profile: the state of the run that
 * reads it (hp2x --serve's watch). */
typedef struct hp2x_metrics_state {
  long long censuses; /* censuses read so far; -1: hp2x_profile_samples_read */
  int connected;      /* the input is connected (a file or pipe: open) */
} hp2x_metrics_state;

/* Writes the last census of `p` with bands `b` as Prometheus's text
 * exposition format 0.0.4 (Content-Type "text/plain; version=0.0.4;
 * charset=utf-8"), every name prefixed hp2x_: hp2x_band_bytes{band="NAME"}
 * for each band (OTHER included: at most o->max_bands series), top of the
 * key first; hp2x_profile_bytes, their total; hp2x_heap_size_bytes,
 * hp2x_heap_live_bytes and hp2x_blocks_size_bytes, the last point of the
 * eventlog's heap series that it has; hp2x_censuses_total (a counter);
 * hp2x_last_census_seconds; hp2x_input_connected (0 or 1).  Values are
 * hp2x_write_csv's for the last row: integers in VALUE_UNIT, seconds with
 * six decimals.  A band's name is shown as in the picture (valid UTF-8,
 * bytes that are not read as Latin-1, control characters as U+FFFD),
 * escaped for the format, and followed by " #N" (its key position from the
 * top) when an earlier band shows the same text.  p and b may be NULL (no
 * census yet: only the counter and the connection); `state` may be NULL
 * (not connected, censuses from p).  HP2X_E_IO when the sink fails,
 * HP2X_E_NOMEM. */
hp2x_status hp2x_write_metrics(const hp2x_profile *p, const hp2x_bands *b,
                               const hp2x_metrics_state *state,
                               hp2x_write_fn write, void *closure,
                               hp2x_err *err);

/* The most a pprof profile of hp2x_write_pprof takes, gzipped (bytes). */
#define HP2X_PPROF_MAX_BYTES (1024 * 1024)

/* Writes census `sample` of `p` (hp2x_census_choose picks one) as a pprof
 * profile (google/pprof's profile.proto, gzipped), for go tool pprof,
 * speedscope, Pyroscope: one sample type, inuse_space in bytes (also the
 * default_sample_type; period_type space/bytes), one pprof sample per
 * label of the census with bytes in it, its value the label's bytes there,
 * so that the samples add up to the census's total.  Every label of the
 * census (not only the bands a picture draws; no OTHER), but for those
 * o->include_re and o->exclude_re filter out (hp2x_bands_select's rule).
 * Its stack, leaf first, by the profile's breakdown
 * (hp2x_profile_breakdown):
 *   - an eventlog's -hc stack: every cost centre of it, whatever
 *     ccs_length cut the label to; each frame's name as GHC's .hp writes
 *     it (a CAF "Module.CAF"), system_name the label qualified by its
 *     module, filename and line (Function.start_line and Line.line) from
 *     its source location; a stack of depth 0 is one frame, MAIN; numeric
 *     label stack_id: hp2x's number for the stack (the eventlog carries no
 *     ccsID), so stacks that print alike stay apart;
 *   - a .hp's -hc label: without its "(N)" (numeric label ccs_id: N),
 *     split at '/'; a label the runtime cut (-L) keeps its last, cut
 *     frame, ending in "...", and the sample has the string label cut;
 *   - -hi: the table as the key names it (file and line from its IPE
 *     record's source location), under its module;
 *   - "pkg:Module.Name" and "<pkg:Module.name>": name, under module, under
 *     package;
 *   - any other label one frame (-he: "era N").
 * Names are valid UTF-8 (labels' bytes shown as the picture shows them).
 * A frame's system name is left out where it would say no more than its
 * name (readers "demangle" a name equal to its system name).  Every
 * sample has the numeric label census_time (nanoseconds); the profile's
 * comments say which census it is (its time, the censuses read, its
 * total) and of what run, and time_nanos is its Unix time where the
 * eventlog gave the wall clock.  At most HP2X_PPROF_MAX_BYTES: when the
 * census's labels do not fit, the smallest are summed into one sample of one
 * frame, "(N labels dropped)", so the total stays the census's.  HP2X_E_ARG for
 * a sample out of range or a bad regex; HP2X_E_IO when the sink fails;
 * HP2X_E_NOMEM. */
hp2x_status hp2x_write_pprof(const hp2x_profile *p, size_t sample,
                             const hp2x_options *o, hp2x_write_fn write,
                             void *closure, hp2x_err *err);

/* The formats' table: each format's names and what writes it, for a
 * program that offers the same choices as the hp2x tool (its --format
 * words, its file extensions, its messages' lists).  Rows are static
 * storage; the library adds rows and fields only at the end. */

/* Which function writes a format (hp2x_write_output calls it). */
typedef enum hp2x_writer {
  HP2X_WRITER_PICTURE = 0, /* hp2x_render(_many): the picture formats */
  HP2X_WRITER_CSV,         /* hp2x_write_csv(_many) */
  HP2X_WRITER_HP,          /* hp2x_write_hp: one profile */
  HP2X_WRITER_SUMMARY,     /* hp2x_write_summary */
  HP2X_WRITER_HTML,        /* hp2x_write_html: one profile */
  HP2X_WRITER_PPROF        /* hp2x_write_pprof: one census of one
                              profile, chosen by hp2x_options.census */
} hp2x_writer;

/* What of a run a format holds. */
typedef enum hp2x_span {
  HP2X_SPAN_RUN = 0, /* the whole run (or its window): every census */
  HP2X_SPAN_CENSUS,  /* one census, as hp2x_options.census chooses it */
  HP2X_SPAN_EITHER   /* the whole run, or with hp2x_options.span
                        HP2X_SPAN_CENSUS the one census
                        hp2x_options.census chooses */
} hp2x_span;

/* The page a picture format draws one picture on (hp2x_format_info.page).
 * hp2x_options.eps_width_pt > 0 gives any picture the exact -e size
 * instead, and HP2X_LAYOUT_STACK its own page, in every format. */
typedef enum hp2x_page {
  HP2X_PAGE_NONE = 0, /* not a picture: text */
  HP2X_PAGE_HP2PS,    /* hp2ps's: the frame rotated onto a US Letter page,
                         or with hp2x_options.portrait unrotated on an
                         11 x 9 in page (hp2ps -g) */
  HP2X_PAGE_FRAME     /* the frame alone with a 0.5 in margin, landscape */
} hp2x_page;

/* A row of the formats' table. */
typedef struct hp2x_format_info {
  hp2x_format format;
  const char *name;      /* --format's word ("ps", "pprof") */
  const char *label;     /* its name in prose: "PS", ".hp", "summary" */
  const char *long_name; /* its name in a sentence listing what hp2x
                            draws or converts to ("PostScript"); NULL when
                            an option or a sentence of its own introduces
                            it (the summary, hp2x's --summary; the report;
                            pprof) */
  hp2x_writer writer;
  int has_pages;          /* holds several pages: one picture per page */
  int holds_several;      /* one file of it holds several inputs without
                             HP2X_LAYOUT_STACK: a page, rows or a table
                             each */
  int needs_bands;        /* writing it takes a band selection */
  hp2x_page page;         /* a picture's page; HP2X_PAGE_NONE for text */
  const char *media_type; /* its MIME type ("application/pdf") */
  const char *extension;  /* its file names' ending, no leading dot: the
                             name ("ps"), or longer ("pb.gz") */
  hp2x_span span;         /* what of the run it holds */
} hp2x_format_info;

/* Row i of the table, in the order hp2x's --help lists formats; NULL past
 * the last.  Iterate from 0 until NULL. */
const hp2x_format_info *hp2x_format_row(size_t i);

/* Format f's row; NULL for a value that is no format. */
const hp2x_format_info *hp2x_format_of(hp2x_format f);

/* The row whose name is `name` exactly ("svg"); NULL when none. */
const hp2x_format_info *hp2x_format_named(const char *name);

/* The row of the file name `path` by its ending: the row whose extension,
 * after a '.', is the longest suffix of path's last component
 * ("heap.pb.gz" is pprof's, "x.gz" none); NULL when none.  *ext_at, when
 * ext_at is not NULL, receives where that ".EXTENSION" starts in path
 * (names derived from path drop it: NAME.aux beside NAME.pb.gz). */
const hp2x_format_info *hp2x_format_for_file(const char *path, size_t *ext_at);

/* What a list of formats shows of a row (its name, its label...), or NULL
 * to leave the row out. */
typedef const char *(*hp2x_format_shown)(const hp2x_format_info *row);

/* The formats that `shown` keeps, in the table's order, each as `shown`
 * gives it after `prefix`, separated by `sep` and the last one by `last`
 * ("ps, eps, ... or txt"), into buf (cut to fit size, which must be >= 1);
 * returns buf.  hp2x and the library's own messages list formats only
 * this way, so that a format added to the table is in every list it
 * belongs to. */
const char *hp2x_format_list(char *buf, size_t size, hp2x_format_shown shown,
                             const char *prefix, const char *sep,
                             const char *last);

/* Whether format `f` is a picture (PS, EPS, PDF, SVG, PNG: drawn by
 * hp2x_render, with an hp2ps .aux beside it) rather than text or data
 * (CSV, .hp, the summary table, HTML, pprof), the report included.
 * Total: 0 for any other value. */
int hp2x_format_is_picture(hp2x_format f);

/* Whether format `f` holds several pages (PS, PDF): one picture per page
 * for hp2x_render_many, and -M's key pages.  EPS, SVG and PNG hold one. */
int hp2x_format_has_pages(hp2x_format f);

/* Whether writing format `f` takes a band selection: every format but .hp
 * text, which is the profile itself, and pprof, which writes every label
 * of one census. */
int hp2x_format_needs_bands(hp2x_format f);

/* Writes `p` in o->format, whichever it is, through `write`: a picture with
 * hp2x_render, CSV with hp2x_write_csv, .hp text with hp2x_write_hp (which
 * ignores `b`: it may be NULL for HP2X_FORMAT_HP and HP2X_FORMAT_PPROF
 * only), the summary table with hp2x_write_summary, its table headed
 * `name` (borrowed; may be NULL for other formats), the HTML report with
 * hp2x_write_html, pprof with hp2x_write_pprof, of the census
 * hp2x_census_choose(p, &o->census) chooses (its errors first).  With
 * o->span HP2X_SPAN_CENSUS, CSV and the summary hold that census too:
 * hp2x_write_csv_censuses and hp2x_write_moment.  Returns what that
 * function returns. */
hp2x_status hp2x_write_output(const hp2x_profile *p, const hp2x_bands *b,
                              const char *name, const hp2x_options *o,
                              hp2x_write_fn write, void *closure,
                              hp2x_err *err);

/* Writes n >= 1 profiles with one band selection (bs[i] for ps[i], from
 * hp2x_bands_select_many) into one output in o->format: pictures with
 * hp2x_render_many (o->layout), CSV with hp2x_write_csv_many and the
 * summary with hp2x_write_summary (names[i], borrowed, name the inputs);
 * with o->span HP2X_SPAN_CENSUS, the census o->census chooses of each
 * profile, with hp2x_write_csv_censuses and hp2x_write_moment.
 * A .hp file, an HTML report and a pprof profile hold one profile:
 * HP2X_FORMAT_HP, HP2X_FORMAT_HTML and HP2X_FORMAT_PPROF write ps[0] when n
 * is 1, and are HP2X_E_ARG otherwise. */
hp2x_status hp2x_write_output_many(const hp2x_profile *const *ps,
                                   const hp2x_bands *const *bs,
                                   const char *const *names, size_t n,
                                   const hp2x_options *o, hp2x_write_fn write,
                                   void *closure, hp2x_err *err);

/* ----------------------------------------------------------------------
 * Naming -hi info tables from the program's symbol table
 *
 * A -hi band is an info table's address.  An IPE event (-finfo-table-map)
 * names it; the tables of code built without the map (GHC's libraries,
 * usually) stay bare addresses.  The program that ran knows them: its
 * symbol table names each constructor's table (16 bytes before its
 * "..._con_info" symbol: GHC places the table right before the code), and
 * the nearest symbol below any other table says whose code it belongs to.
 * The library reads no files: the caller (the hp2x tool, with elfutils'
 * libelf) gives it the symbols and the bytes of the program's sections.
 * ---------------------------------------------------------------------- */

/* A program's symbols and sections, as its executable's file gives them
 * (link-time addresses). */
typedef struct hp2x_symbols hp2x_symbols;

/* A new, empty set for a program whose words are `word_bytes` (8 or 4)
 * bytes and whose byte order is big-endian when `big_endian`;
 * `relocatable` says it is a position-independent executable, loaded at
 * an address only its run knows (found from IPE records).  Free it with
 * hp2x_symbols_free.  HP2X_E_ARG for another word size; HP2X_E_NOMEM. */
hp2x_status hp2x_symbols_new(unsigned word_bytes, int big_endian,
                             int relocatable, hp2x_symbols **out,
                             hp2x_err *err);
void hp2x_symbols_free(hp2x_symbols *s);

/* Adds section `id` (the caller's number for it, used by
 * hp2x_symbols_add) at `address`, `size` bytes long; `bytes` (size bytes,
 * copied) are its contents, or NULL for a section without any in the file
 * (.bss) or that holds no code.  HP2X_E_ARG for an id given twice or a
 * section past the address space; HP2X_E_NOMEM. */
hp2x_status hp2x_symbols_add_section(hp2x_symbols *s, uint32_t id,
                                     uint64_t address, uint64_t size,
                                     const void *bytes, hp2x_err *err);

/* Adds a symbol: its name as the file spells it (GHC's z-encoded
 * "ghczmprim_GHCziTypes_ZC_con_info"; copied), its address and size and
 * the section it is in (an id given to hp2x_symbols_add_section).
 * HP2X_E_ARG for an unknown section; HP2X_E_NOMEM. */
hp2x_status hp2x_symbols_add(hp2x_symbols *s, const char *name,
                             uint64_t address, uint64_t size, uint32_t section,
                             hp2x_err *err);

/* How hp2x_profile_name_tables went. */
typedef enum hp2x_tables_verdict {
  HP2X_TABLES_NAMED = 0,    /* the addresses on the program's tables named */
  HP2X_TABLES_NOTHING,      /* no bare address to name (not -hi, or every
                               table had an IPE record) */
  HP2X_TABLES_NO_SYMBOLS,   /* the program has no symbols (stripped) */
  HP2X_TABLES_NO_BIAS,      /* a position-independent program, and no IPE
                               record to find where it was loaded (a .hp) */
  HP2X_TABLES_WRONG_PROGRAM /* not the program that ran: IPE records'
                               tables placed otherwise in it (more than a
                               quarter of them), or fewer than half the
                               addresses in it on an info table */
} hp2x_tables_verdict;

typedef struct hp2x_tables_report {
  hp2x_tables_verdict verdict;
  size_t bare;            /* labels that were bare addresses */
  size_t named;           /* of them, named */
  size_t outside;         /* of them, outside the program's sections (a
                             -dynamic build's shared libraries) */
  size_t off_table;       /* of them, inside but on no info table */
  int64_t bias;           /* run-time address - file address (0 unless
                             relocatable) */
  uint64_t disagrees;     /* the first IPE record's address whose table the
                             program places otherwise (its symbol names
                             another table, or its closure type differs);
                             0: none */
  size_t ipe_checked;     /* IPE records of tables inside the program */
  size_t ipe_disagreeing; /* of them, placed otherwise: more than a quarter
                             is HP2X_TABLES_WRONG_PROGRAM */
} hp2x_tables_report;

/* Names p's -hi labels that are bare addresses ("0x4107f0": no IPE record)
 * from `syms`: a constructor's table as "(:) [GHC.Types]"; another table
 * with a symbol of its own by what it is and the symbol ("function map
 * [GHC.Internal.Base]"); one without, by what its table in the program
 * says it is and the nearest symbol below it in its section ("thunk in
 * map [GHC.Internal.Base]").  Names are z-decoded.  Labels an IPE record
 * names keep their names; every label keeps its address as the .hp
 * output's label.  Unless the verdict is HP2X_TABLES_NAMED, nothing is
 * renamed.  Call it after parsing, before selecting bands (so --include
 * matches the names).  HP2X_E_NOMEM leaves some labels renamed. */
hp2x_status hp2x_profile_name_tables(hp2x_profile *p, const hp2x_symbols *syms,
                                     hp2x_tables_report *report, hp2x_err *err);

/* How many of p's labels are bare info-table addresses (an -hi label no
 * IPE record names): what a program's symbols could name. */
size_t hp2x_profile_bare_tables(const hp2x_profile *p);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
