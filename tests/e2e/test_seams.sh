#!/usr/bin/env bash
# Each platform seam takes the side the build asked for: on Linux, glibc's
# mallopt (watch mode keeps freed memory), madvise pre-faulting (of the
# profile's arrays), new threads started away from their caller's CPU
# (pthread_attr_setaffinity_np), inotify, a replaced output held on a
# local filesystem (fstatfs beside O_PATH, io/outfile.c) and the output
# replacing it written back as it is written (sync_file_range), the cores
# from sched_getaffinity (--jobs's default) and the zlib level of PDF
# streams (the binary's deflateInit_, level 1); under PORTABLE=1 (or off
# Linux) none of them: sysconf's count of online processors for the
# cores, and PDFs get zlib's default level; and the .hp scan's and the
# writers' digits' SSE2 (x86-64) against their portable words.  Read
# from the objects' and the binary's symbols and from a PDF's first
# stream; the cores' fallback also from what it gives: --jobs's default
# reads as --jobs=1 does.
. "$(dirname "$0")/lib.sh"
PORTABLE=0
[ -f "$BUILD/build.env" ] && . "$BUILD/build.env"
if [ "$PORTABLE" = 1 ] || [ "$(uname -s)" != Linux ]; then linux=0; else linux=1; fi
# The calls, from the objects that make them (a sanitizer's runtime in the
# binary defines mallopt itself).
calls() { # object, function
  nm -u "$BUILD/obj/$1" > "$T/undef" 2>&1 || { fail "nm $1: $(head -2 "$T/undef")"; return 2; }
  grep -Eq "^ +U $2(@|$)" "$T/undef"
}
for seam in tool/util/tuning.o:mallopt base/alloc.o:madvise \
            base/threads.o:pthread_attr_setaffinity_np \
            tool/io/wakeup.o:inotify_init1 tool/util/environment.o:sched_getaffinity \
            tool/io/outfile.o:fstatfs tool/util/tuning.o:sync_file_range; do
  calls "${seam%%:*}" "${seam#*:}"; got=$?
  [ $got = 2 ] && continue
  if [ $linux = 1 ]; then [ $got = 0 ] && ok || fail "the Linux build does not call ${seam#*:}"
  else [ $got = 1 ] && ok || fail "the portable build calls ${seam#*:}"; fi
done
# The .hp scan: SSE2's vectors on an x86-64 Linux build, the portable
# 64-bit words in a PORTABLE=1 one (read/hp_scan.h), by the name the
# object defines for the one it holds (a compiler may vectorize the
# words' compares, so the instructions do not tell).
scan=$(nm --defined-only "$BUILD/obj/read/hp_entries.o" 2>&1 |
  awk '$3 ~ /^hpx_hp_scan_(sse2|words)$/ { print $3 }') # (not ASan's __odr_asan.NAME)
if [ $linux = 0 ]; then [ "$scan" = hpx_hp_scan_words ] && ok || fail "the portable build's .hp scan is not the words' ($scan)"
elif [ "$(uname -m)" = x86_64 ]; then
  [ "$scan" = hpx_hp_scan_sse2 ] && ok || fail "the x86-64 Linux build's .hp scan is not SSE2's ($scan)"
fi
# The writers' integers and times: two at once in SSE2's lanes on an
# x86-64 Linux build, the 64-bit words in a PORTABLE=1 one (base/fmt.c).
digits=$(nm --defined-only "$BUILD/obj/base/fmt.o" 2>&1 |
  awk '$3 ~ /^hpx_fmt_digits_(sse2|words)$/ { print $3 }')
if [ $linux = 0 ]; then [ "$digits" = hpx_fmt_digits_words ] && ok || fail "the portable build's digits are not the words' ($digits)"
elif [ "$(uname -m)" = x86_64 ]; then
  [ "$digits" = hpx_fmt_digits_sse2 ] && ok || fail "the x86-64 Linux build's digits are not SSE2's ($digits)"
fi
nm -D --defined-only "$HP2X" 2> /dev/null | grep -q ' T deflateInit_$'
defines=$?
if [ $linux = 1 ]; then [ $defines = 0 ] && ok || fail "the Linux build does not export deflateInit_"
else [ $defines != 0 ] && ok || fail "the portable build defines deflateInit_"; fi

# Either side of the cores' seam, the default --jobs reads as one thread
# does (a profile over 1 MiB, read in parts when there are cores for it).
zcat "$TOP/samples/profiles/longrun.hc.eventlog.gz" > "$T/longrun.eventlog"
"$HP2X" -q "$T/longrun.eventlog" -o "$T/default.csv" &&
  "$HP2X" -q --jobs=1 "$T/longrun.eventlog" -o "$T/one.csv" &&
  cmp -s "$T/default.csv" "$T/one.csv" && ok ||
  fail "the default --jobs reads otherwise than --jobs=1"
calls tool/util/environment.o sysconf; [ $? = 0 ] && ok ||
  fail "the cores' fallback (sysconf) is not in the build"

# The zlib header's second byte names the level: 0x01 fastest (level 1),
# 0x9c default (6).  cairo compresses every PDF stream through deflateInit.
"$HP2X" -q "$TOP/samples/profiles/leak.hc.hp" -o "$T/leak.pdf" && ok || fail "PDF not written"
flg=$(python3 - "$T/leak.pdf" <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read()
m = re.search(rb'/FlateDecode.*?>>\s*stream\r?\n', data, re.S)
print('%02x%02x' % (data[m.end()], data[m.end() + 1]) if m else 'none')
PY
)
if [ $linux = 1 ]; then want=7801; else want=789c; fi
[ "$flg" = $want ] && ok || fail "first PDF stream's zlib header is $flg, wanted $want"
finish
