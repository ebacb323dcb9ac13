#!/usr/bin/env bash
# The README's pictures are what hp2x draws now: tests/tools/gallery.sh
# draws each again, by its caption's command, and each must equal the
# committed one in samples/pictures byte for byte (so a change to what
# hp2x draws shows in the commit that makes it, with the pictures drawn
# again).  Every committed picture but chromium's screenshots,
# report.png and flamegraph.png (go tool pprof's page), is drawn.
. "$(dirname "$0")/lib.sh"
"$TOP/tests/tools/gallery.sh" "$HP2X" "$T/gallery" > "$T/log" 2>&1 && ok ||
  fail "gallery.sh: $(head -3 "$T/log")"
for f in "$TOP"/samples/pictures/*.png; do
  n=$(basename "$f")
  case $n in report.png|flamegraph.png) continue;; esac
  if [ ! -f "$T/gallery/$n" ]; then
    fail "$n: gallery.sh does not draw it"
  elif cmp -s "$f" "$T/gallery/$n"; then ok; else
    fail "$n differs from what hp2x draws now (tests/tools/gallery.sh build/hp2x samples/pictures)"
  fi
done
finish
