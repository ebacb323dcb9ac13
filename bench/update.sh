#!/usr/bin/env bash
# bench/update.sh -- one watch-mode update's cost in its parts (bench/update.c):
# the same 0.25 MB appended 40 times on top of a 1 MB and a 90 MB prefix of
# the 100 MB stretched profile, the bands chosen by a follower (as --watch
# does) or afresh each time; PDF drawn into memory.  Equal totals for both
# prefixes mean an update costs what its new bytes cost.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
update=${1:-$top/build/bench/update}
export HP2X_FONTS_CONF=$top/fonts/fonts.conf SOURCE_DATE_EPOCH=1700000000
dir=$top/build/bench; mkdir -p "$dir"
src=$dir/watch-src-100.hp
[ -s "$src" ] || python3 "$top/bench/gen.py" stretch "$top/samples/profiles/longrun.hc.hp" 100 "$src"
printf '\n| prefix MB | bands | format | samples at the end | parse ms | select ms | draw ms | update ms | output KB |\n|---:|---|---|---:|---:|---:|---:|---:|---:|\n'
for how in follower select; do
  for prefix in 1000000 90000000; do
    "$update" "$src" $prefix 250000 40 $how pdf
  done
done
