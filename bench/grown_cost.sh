#!/usr/bin/env bash
# bench/grown_cost.sh HP2X -- a live page's own drawing cost per census
# (`make bench-grown`): hp2x.grown() timed in the page, in chromium
# (bench/grown_cost.js), on profiles of the shapes issue 42 measured (334
# censuses x 4 bands, 70 x 13 with -m0 -t0, 3,200 x 3: bench/gen.py
# shape) and two real ones (longrun.hT, 1,465 x 8; manycc.hT -m0 -t0, 129
# x 32), the newest 100 censuses (40 of 70, 60 of 129) appended one by
# one.  Prints a Markdown table: ms per census (min, p25, p50, p90) and a
# drawing from nothing (hp2x.redraw, "-" where the page has none).
set -euo pipefail
hp2x=$1
top=$(cd "$(dirname "$0")/.." && pwd)
case $hp2x in /*) ;; *) hp2x=$top/$hp2x ;; esac
export HP2X_FONTS_CONF=$top/fonts/fonts.conf LC_ALL=C.UTF-8
W=$(mktemp -d "${TMPDIR:-/tmp}/hp2x-grown.XXXXXX")
trap 'rm -rf "$W"' EXIT
S=$top/samples/profiles
python3 "$top/bench/gen.py" shape "$S/leak.hT.hp" 334 4 "$W/s334x4.hp"
python3 "$top/bench/gen.py" shape "$S/leak.hT.hp" 70 13 "$W/s70x13.hp"
python3 "$top/bench/gen.py" shape "$S/leak.hT.hp" 3200 3 "$W/s3200x3.hp"
echo "| profile | censuses x bands | appended | grown() min | p25 | p50 | p90 ms | from nothing ms |"
echo "|---|---|---|---|---|---|---|---|"
while read -r input n args; do
  # shellcheck disable=SC2086 # args are words
  node "$top/bench/grown_cost.js" "$hp2x" "$input" "$n" $args | python3 -c '
import json, sys
r = json.load(sys.stdin)
g = r["grown"]
print("| %s %s | %d x %d | %d | %s | %s | %s | %s | %s |" % (r["input"], r["args"], r["held"], r["bands"],
      r["appended"], g["min"], g["p25"], g["p50"], g["p90"], "-" if r["full"] is None else r["full"]))'
done << LIST
$W/s334x4.hp 100
$W/s70x13.hp 40 -m0 -t0
$W/s3200x3.hp 100
$S/longrun.hT.hp 100
$S/manycc.hT.hp 60 -m0 -t0
LIST
