/* bench/memgen.c -- the memory benchmark's input (bench/mem.py): a long heap
 * profile of many cost-centre bands, written to standard output as fast as
 * the reader takes it, so that a 20 GB stream is piped, never stored.  The
 * values move as a real profile's do: each band drifts towards a level that
 * changes now and then (phases of growth and of shrinking), with noise, a
 * few bands leak steadily, a few fill and are collected (a saw-tooth), all
 * spike now and then, and a band is sometimes absent from a run of
 * censuses (its cost centre holds nothing).  Everything follows from the
 * seed: the same arguments give the same bytes.
 *
 *   memgen [--eventlog] CENSUSES BANDS SEED
 *
 * .hp text by default; --eventlog writes the same censuses as a GHC eventlog
 * (HEAP_PROF_BEGIN, then HEAP_PROF_SAMPLE_BEGIN / _STRING / _END events, as
 * bench/gen.py's eventlog), framed as GHC's runtime frames them
 * (rts/eventlog/EventLog.c): a buffer of 2 MiB that starts with a block
 * marker (the block's size counting the marker, the time of its last
 * event, capability 0xffff: the global buffer, where the heap profile's
 * events go), written out when the next event does not fit; the
 * end-of-data marker goes into the last block and counts in its size, as
 * GHC 9.2 and later write it.  On exit (the end, or the reader gone)
 * prints "bytes N" to standard error: what was written.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_BUF_BYTES (1u << 20)

static unsigned char out_buf[OUT_BUF_BYTES];
static size_t out_len;
static unsigned long long out_total_bytes;
static int reader_gone;

static void out_flush(void) {
  size_t done = 0;
  while (done < out_len && !reader_gone) {
    ssize_t n = write(STDOUT_FILENO, out_buf + done, out_len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      reader_gone = 1; /* EPIPE (SIGPIPE is ignored) or another error */
      break;
    }
    done += (size_t)n;
    out_total_bytes += (unsigned long long)n;
  }
  out_len = 0;
}

static void out_bytes(const void *p, size_t n) {
  const unsigned char *b = p;
  while (n) {
    if (out_len == OUT_BUF_BYTES) out_flush();
    size_t k = OUT_BUF_BYTES - out_len < n ? OUT_BUF_BYTES - out_len : n;
    memcpy(out_buf + out_len, b, k);
    out_len += k;
    b += k;
    n -= k;
  }
}

/* Decimal digits of v at out; returns their count. */
static size_t format_u64(unsigned char *out, uint64_t v) {
  unsigned char tmp[24];
  size_t n = 0;
  do {
    tmp[n++] = (unsigned char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
  return n;
}

static uint64_t rng_state;

static uint64_t rng_next(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

static double rng_unit(void) { return (double)(rng_next() >> 11) * 0x1.0p-53; }

enum band_kind { BAND_DRIFT, BAND_LEAK, BAND_SAWTOOTH };

typedef struct band {
  char label[96];   /* cost-centre stack, NUL-terminated */
  size_t label_len; /* bytes of label */
  enum band_kind kind;
  double scale_bytes;  /* the band's typical size */
  double level_bytes;  /* where it is now */
  double target_bytes; /* where it drifts to (BAND_DRIFT) */
  double rate;         /* share of the distance covered per census */
  int spike_censuses;  /* censuses left in the current spike */
  double spike_factor;
  int present; /* 0: absent from this census */
} band;

static const char *const module_names[] = {"Data.Map.Internal",
                                           "Data.ByteString.Builder",
                                           "Network.Wai.Handler",
                                           "Control.Monad.State",
                                           "Main",
                                           "Service.Cache",
                                           "Service.Queue",
                                           "Data.Text.Encoding",
                                           "Database.Pool",
                                           "Json.Decode",
                                           "Http.Client",
                                           "Metrics.Counter"};
static const char *const function_names[] = {"insertWith",   "toLazyByteString",
                                             "runSettings",  "modify'",
                                             "loop",         "lookupOrFill",
                                             "enqueue",      "decodeUtf8",
                                             "withResource", "parseObject",
                                             "httpLbs",      "increment",
                                             "step",         "go",
                                             "foldlStrict",  "render"};

#define N_MODULES (sizeof module_names / sizeof module_names[0])
#define N_FUNCTIONS (sizeof function_names / sizeof function_names[0])

static void band_init(band *b, int index) {
  int m = (int)(rng_next() % N_MODULES);
  int f1 = (int)(rng_next() % N_FUNCTIONS);
  int f2 = (int)(rng_next() % N_FUNCTIONS);
  snprintf(b->label, sizeof b->label, "(%d)%s.%s/Main.%s", 100 + index * 7,
           module_names[m], function_names[f1], function_names[f2]);
  b->label_len = strlen(b->label);
  /* Sizes spread over four decades, a few big bands and a long tail. */
  b->scale_bytes = 2e7 * pow(rng_unit(), 3.0) + 4096;
  int r = (int)(rng_next() % 16);
  b->kind = r == 0 ? BAND_LEAK : r == 1 ? BAND_SAWTOOTH : BAND_DRIFT;
  b->level_bytes = b->scale_bytes * (0.2 + rng_unit());
  b->target_bytes = b->scale_bytes;
  b->rate = 0.0005 + 0.01 * rng_unit();
  b->spike_censuses = 0;
  b->spike_factor = 1.0;
  b->present = 1;
}

/* One census's step of b; returns its value in bytes (0: absent). */
static uint64_t band_step(band *b, uint64_t census) {
  double u = rng_unit();
  if (b->present) {
    if (u < 1.0 / 20000) b->present = 0;
  } else {
    if (u < 1.0 / 300) b->present = 1;
  }
  switch (b->kind) {
  case BAND_LEAK: /* grows by a little each census, freed rarely */
    b->level_bytes += b->scale_bytes * 0.0005;
    if (rng_unit() < 1.0 / 200000) b->level_bytes = b->scale_bytes * 0.1;
    break;
  case BAND_SAWTOOTH: /* fills, then is collected */
    b->level_bytes *= 1.01;
    if (b->level_bytes > b->scale_bytes * 3)
      b->level_bytes = b->scale_bytes * 0.3;
    break;
  case BAND_DRIFT: /* a phase of growth or of shrinking, now and then another */
    if (rng_unit() < 1.0 / 4000)
      b->target_bytes = b->scale_bytes * exp(4.0 * rng_unit() - 2.0);
    b->level_bytes += (b->target_bytes - b->level_bytes) * b->rate;
    break;
  }
  b->level_bytes *= 0.99 + 0.02 * rng_unit();
  if (b->spike_censuses > 0) {
    b->spike_censuses--;
  } else if (rng_unit() < 1.0 / 5000) {
    b->spike_censuses = 1 + (int)(rng_next() % 20);
    b->spike_factor = 2.0 + 8.0 * rng_unit();
  }
  (void)census;
  if (!b->present) return 0;
  double v = b->level_bytes * (b->spike_censuses > 0 ? b->spike_factor : 1.0);
  uint64_t bytes = (uint64_t)v & ~(uint64_t)7;
  return bytes < 8 ? 8 : bytes;
}

static void hp_header(void) {
  static const char header[] = "JOB \"memgen +RTS -hc -RTS\"\n"
                               "DATE \"Wed Nov 25 12:00 2026\"\n"
                               "SAMPLE_UNIT \"seconds\"\n"
                               "VALUE_UNIT \"bytes\"\n";
  out_bytes(header, sizeof header - 1);
}

/* "WORD T\n" with T = census / 10, one decimal. */
static void hp_sample_mark(const char *word, uint64_t census) {
  unsigned char line[64];
  size_t n = strlen(word);
  memcpy(line, word, n);
  line[n++] = ' ';
  n += format_u64(line + n, census / 10);
  line[n++] = '.';
  line[n++] = (unsigned char)('0' + census % 10);
  line[n++] = '\n';
  out_bytes(line, n);
}

static void put_be(unsigned char *p, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; i--) {
    p[i] = (unsigned char)(v & 0xff);
    v >>= 8;
  }
}

enum {
  EVT_HEAP_PROF_BEGIN = 160,
  EVT_HEAP_PROF_SAMPLE_BEGIN = 162,
  EVT_HEAP_PROF_SAMPLE_STRING = 164,
  EVT_HEAP_PROF_SAMPLE_END = 165,
  EVT_PROGRAM_ARGS = 30,
  EVT_BLOCK_MARKER = 18
};

static void eventlog_type(int tag, int size, const char *desc) {
  unsigned char b[64];
  size_t n = strlen(desc);
  memcpy(b, "etb\0", 4);
  put_be(b + 4, (uint64_t)tag, 2);
  put_be(b + 6, (uint64_t)(uint16_t)(int16_t)size, 2);
  put_be(b + 8, n, 4);
  out_bytes(b, 12);
  out_bytes(desc, n);
  memset(b, 0, 4);
  memcpy(b + 4, "ete\0", 4);
  out_bytes(b, 8);
}

/* GHC's eventlog buffer (EVENT_LOG_SIZE): a block is at most this long. */
#define BLOCK_BYTES (2u << 20)
#define MARKER_BYTES 24
static unsigned char block_buf[BLOCK_BYTES];
static size_t block_len;            /* events in the block, after its marker */
static uint64_t block_t0, block_t1; /* its first and last events' times */

/* Writes the block out: its marker, its events, then `tail` (the data-end
 * marker of the last block). */
static void block_flush(const void *tail, size_t tail_bytes) {
  unsigned char m[MARKER_BYTES];
  put_be(m, 18, 2);
  put_be(m + 2, block_t0, 8);
  put_be(m + 10, MARKER_BYTES + block_len + tail_bytes, 4);
  put_be(m + 14, block_t1, 8);
  put_be(m + 22, 0xffff, 2);
  out_bytes(m, sizeof m);
  out_bytes(block_buf, block_len);
  out_bytes(tail, tail_bytes);
  block_len = 0;
}

/* An event: tag, time, then (variable-size events) a 16-bit payload size;
 * into the block, which is written out first when it would not fit. */
static void eventlog_event(int tag, uint64_t time_ns, const void *payload,
                           size_t payload_bytes, int variable) {
  size_t size = 10 + (variable ? 2 : 0) + payload_bytes;
  if (MARKER_BYTES + block_len + size > BLOCK_BYTES) block_flush(NULL, 0);
  if (block_len == 0) block_t0 = time_ns;
  block_t1 = time_ns;
  unsigned char *e = block_buf + block_len;
  put_be(e, (uint64_t)tag, 2);
  put_be(e + 2, time_ns, 8);
  if (variable) put_be(e + 10, payload_bytes, 2);
  memcpy(e + size - payload_bytes, payload, payload_bytes);
  block_len += size;
}

static void eventlog_header(void) {
  out_bytes("hdrbhetb", 8);
  eventlog_type(EVT_HEAP_PROF_BEGIN, -1, "Start of heap profile");
  eventlog_type(EVT_HEAP_PROF_SAMPLE_BEGIN, 8, "Start of heap profile sample");
  eventlog_type(EVT_HEAP_PROF_SAMPLE_STRING, -1, "Heap profile string sample");
  eventlog_type(EVT_HEAP_PROF_SAMPLE_END, 8, "End of heap profile sample");
  eventlog_type(EVT_PROGRAM_ARGS, -1, "Program arguments");
  eventlog_type(EVT_BLOCK_MARKER, 14, "Block marker");
  out_bytes("hetehdredatb", 12);
  unsigned char p[32] = {0};
  memcpy(p + 4, "memgen", 7); /* capset 0, then the arguments */
  eventlog_event(EVT_PROGRAM_ARGS, 0, p, 11, 1);
  memset(p, 0, sizeof p);
  put_be(p + 1, 100000000, 8); /* heap profile 0, sampling period 0.1 s */
  put_be(p + 9, 7, 4);         /* breakdown: cost centre */
  eventlog_event(EVT_HEAP_PROF_BEGIN, 0, p, 20, 1);
}

int main(int argc, char **argv) {
  int eventlog = argc > 1 && strcmp(argv[1], "--eventlog") == 0;
  if (argc != 4 + eventlog) {
    fprintf(stderr, "usage: memgen [--eventlog] CENSUSES BANDS SEED\n");
    return 2;
  }
  uint64_t censuses = strtoull(argv[1 + eventlog], NULL, 10);
  int n_bands = atoi(argv[2 + eventlog]);
  uint64_t seed = strtoull(argv[3 + eventlog], NULL, 10);
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;
  if (n_bands <= 0 || n_bands > 100000) {
    fprintf(stderr, "memgen: BANDS must be 1 to 100000\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  band *bands = calloc((size_t)n_bands, sizeof *bands);
  if (!bands) return 1;
  for (int i = 0; i < n_bands; i++) band_init(&bands[i], i);

  if (eventlog)
    eventlog_header();
  else
    hp_header();
  unsigned char line[160];
  for (uint64_t c = 0; c < censuses && !reader_gone; c++) {
    uint64_t time_ns = c * 100000000ULL;
    if (eventlog) {
      unsigned char p[8] = {0};
      eventlog_event(EVT_HEAP_PROF_SAMPLE_BEGIN, time_ns, p, 8, 0);
    } else {
      hp_sample_mark("BEGIN_SAMPLE", c);
    }
    for (int i = 0; i < n_bands; i++) {
      band *b = &bands[i];
      uint64_t v = band_step(b, c);
      if (v == 0) continue;
      if (eventlog) { /* heap profile 0, residency, label, NUL */
        line[0] = 0;
        put_be(line + 1, v, 8);
        memcpy(line + 9, b->label, b->label_len + 1);
        eventlog_event(EVT_HEAP_PROF_SAMPLE_STRING, time_ns, line,
                       b->label_len + 10, 1);
      } else {
        memcpy(line, b->label, b->label_len);
        size_t n = b->label_len;
        line[n++] = '\t';
        n += format_u64(line + n, v);
        line[n++] = '\n';
        out_bytes(line, n);
      }
    }
    if (eventlog) {
      unsigned char p[8] = {0};
      eventlog_event(EVT_HEAP_PROF_SAMPLE_END, time_ns, p, 8, 0);
    } else {
      hp_sample_mark("END_SAMPLE", c);
    }
  }
  if (eventlog && !reader_gone) {
    unsigned char end[2] = {0xff, 0xff};
    block_flush(end, 2); /* GHC >= 9.2: the data end in the last block */
  }
  out_flush();
  free(bands);
  fprintf(stderr, "bytes %llu\n", out_total_bytes);
  return 0;
}
