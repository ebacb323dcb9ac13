/* environment.c -- what the tool reads from its environment for the
 * library (environment.h): HP2X_FONTS_CONF or the fonts beside the binary,
 * SOURCE_DATE_EPOCH, the local time zone for an eventlog's DATE, the
 * cores the process may run on (the threads that read its input) and
 * HP2X_PART_BYTES, HP2X_PACK_BYTES.  Two platform calls, each behind its seam:
 * where the binary is (also for util/handoff.c) comes from /proc/self/exe on
 * Linux and, elsewhere or under PORTABLE=1 (or when /proc is not mounted), from
 * argv[0] when it names a path (realpath); the cores from sched_getaffinity on
 * Linux (the CPUs this process may use, as taskset or a container's cpuset
 * limit them) and, elsewhere or under PORTABLE=1, from sysconf's count of the
 * online processors where the system has one, else 1.
 */
#if defined(__linux__) && !defined(HP2X_PORTABLE)
#define HPX_EXE_FROM_PROC 1
#define HPX_CORES_FROM_AFFINITY 1
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#else
#define HPX_EXE_FROM_PROC 0
#define HPX_CORES_FROM_AFFINITY 0
#endif

#define _XOPEN_SOURCE 700 /* realpath */
#include "environment.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int environment_binary_dir(const char *argv0, char *dir) {
  int found = 0;
#if HPX_EXE_FROM_PROC
  ssize_t n = readlink("/proc/self/exe", dir, PATH_MAX - 1);
  if (n > 0) {
    dir[n] = '\0';
    found = 1;
  }
#endif
  if (!found && argv0 && strchr(argv0, '/'))
    found = realpath(argv0, dir) != NULL;
  if (!found) return 0;
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  return 1;
}

/* hp2x's own fonts.conf beside the binary, or NULL; static storage. */
static const char *fonts_beside_binary(const char *argv0) {
  static char path[PATH_MAX + 64];
  char dir[PATH_MAX];
  if (!environment_binary_dir(argv0, dir)) return NULL;
  static const char *const rel[] = {
      "/../share/hp2x/fonts/fonts.conf", "/../../share/hp2x/fonts/fonts.conf",
      "/../fonts/fonts.conf", "/../../fonts/fonts.conf"};
  for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
    snprintf(path, sizeof path, "%s%s", dir, rel[i]);
    if (access(path, R_OK) == 0) return path;
  }
  return NULL;
}

/* Days from 1970-01-01 to the proleptic Gregorian date y-m-d (m 1..12). */
static int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

/* The local time zone's offset east of UTC at unix_s, in seconds (an
 * hp2x_zone_fn); from localtime_r, so TZ as the C library reads it. */
static long local_zone(int64_t unix_s) {
  time_t t = (time_t)unix_s;
  struct tm tm;
  if ((int64_t)t != unix_s || !localtime_r(&t, &tm)) return 0;
  int64_t local =
      days_from_civil((int64_t)tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday) *
          86400 +
      tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec;
  return (long)(local - unix_s);
}

int environment_cores(void) {
#if HPX_CORES_FROM_AFFINITY
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
#endif
#ifdef _SC_NPROCESSORS_ONLN
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (online > 0) return online < 1024 ? (int)online : 1024;
#endif
  return 1;
}

/* HP2X_PART_BYTES, HP2X_PACK_BYTES (the variable `name`): a whole number
 * of bytes > 0, else 0 (the library's choice). */
static size_t env_bytes(const char *name) {
  const char *v = getenv(name);
  if (!v || !*v) return 0;
  char *end;
  errno = 0;
  unsigned long long n = strtoull(v, &end, 10);
  return *end || errno || v[0] == '-' || n > SIZE_MAX ? 0 : (size_t)n;
}

void environment_read(hp2x_options *o, hp2x_parse_options *parse,
                      const char *argv0) {
  parse->part_bytes = env_bytes("HP2X_PART_BYTES");
  parse->pack_bytes = env_bytes("HP2X_PACK_BYTES");
  const char *fonts = getenv("HP2X_FONTS_CONF");
  o->fonts_conf = fonts && *fonts ? fonts : fonts_beside_binary(argv0);
  parse->zone = local_zone;
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  if (sde && *sde) {
    char *end;
    errno = 0;
    long long v = strtoll(sde, &end, 10);
    if (!*end && v >= 0 && errno == 0) {
      o->source_date_epoch = v;
      parse->zone = NULL; /* UTC: the same bytes in every zone */
    }
  }
}
