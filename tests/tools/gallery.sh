#!/usr/bin/env bash
# gallery.sh HP2X DIR -- draws the README's pictures (samples/pictures) into
# DIR with HP2X, from the profiles in samples/profiles: each at --dpi=84,
# with the fonts of fonts/, by the command its caption gives; and
# DIR/drawn-with.txt, the versions of the libraries and fonts that drew
# them (pixels differ between cairo, pango or FreeType versions).  The two
# pictures not drawn here are chromium's screenshots: report.png, of the
# HTML report (tests/browser/report_picture.js, by hand), and
# flamegraph.png, of go tool pprof's flame graph of a pprof profile
# (tests/tools/flamegraph_picture.sh takes it).  tests/e2e/test_gallery.sh compares what this draws with the
# committed pictures; after a change to what hp2x draws, refresh them with
#   tests/tools/gallery.sh build/hp2x samples/pictures
set -euo pipefail
hp2x=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
export HP2X_FONTS_CONF="$top/fonts/fonts.conf" TZ=UTC0 # an eventlog's DATE in UTC
cd "$top/samples/profiles"
# name|arguments (split on spaces; a marker's words are joined by _)
while IFS='|' read -r name args; do
  read -ra argv <<< "$args"
  argv=("${argv[@]//_/ }")
  "$hp2x" -q "${argv[@]}" --dpi=84 -o "$out/$name.png"
done <<'TABLE'
leak|leak.hc.hp
manycc|-c manycc.hc.hp
unicode|-c unicode.hc.hp
markers|-c markers.hc.eventlog
compare|-c --layout=stack leak.hy.hp longrun.hy.hp
diff|-c --diff leak.hy.hp longrun.hy.hp
hi|-c manycc.ipehi.eventlog
heap|-c --heap markers.hc.eventlog
filter|-c --include sierra manycc.hc.hp
window|-c --from-marker=phase_2:_heap_sampling_paused --to-marker=phase_5:_release markers.hc.eventlog
index|-c --x=index markers.hc.eventlog
percent|-c --chart=percent mapwave.hy.hp
streamgraph|-c --chart=streamgraph mapwave.hc.hp
lines|-c --chart=lines mapwave.hc.hp
hb|-c mapwave.hb.eventlog
he|-c mapwave.he.hp
TABLE
{
  for m in cairo pango freetype2 harfbuzz pixman-1 fontconfig; do
    echo "$m $(pkg-config --modversion "$m" 2> /dev/null || echo unknown)"
  done
  for p in fonts-urw-base35 fonts-dejavu-core fonts-droid-fallback; do
    echo "$p $(dpkg-query -W -f '${Version}' "$p" 2> /dev/null || echo unknown)"
  done
} > "$out/drawn-with.txt"
