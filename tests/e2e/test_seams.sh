#!/usr/bin/env bash
# Each platform seam takes the side the build asked for: on Linux, glibc's
# mallopt (watch mode keeps freed memory), madvise pre-faulting and the
# zlib level of PDF streams (the binary's deflateInit_, level 1); under
# PORTABLE=1 (or off Linux) none of them, and PDFs get zlib's default
# level.  Read from the binary's symbols and from a PDF's first stream.
. "$(dirname "$0")/lib.sh"
PORTABLE=0
[ -f "$BUILD/build.env" ] && . "$BUILD/build.env"
if [ "$PORTABLE" = 1 ] || [ "$(uname -s)" != Linux ]; then linux=0; else linux=1; fi
nm "$HP2X" > "$T/symbols" 2>&1 || { fail "nm $HP2X: $(head -3 "$T/symbols")"; finish; exit 1; }
uses() { grep -Eq "^ +U $1(@|$)" "$T/symbols"; }
for f in mallopt madvise; do
  if [ $linux = 1 ]; then uses "$f" && ok || fail "the Linux build does not call $f"
  else uses "$f" && fail "the portable build calls $f" || ok; fi
done
nm -D --defined-only "$HP2X" 2> /dev/null | grep -q ' T deflateInit_$'
defines=$?
if [ $linux = 1 ]; then [ $defines = 0 ] && ok || fail "the Linux build does not export deflateInit_"
else [ $defines != 0 ] && ok || fail "the portable build defines deflateInit_"; fi

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
