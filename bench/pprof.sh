#!/usr/bin/env bash
# bench/pprof.sh HP2X MEMGEN -- pprof profiles of big inputs (`make
# bench-pprof`, part of `make bench`): the peak census of bench/mem.py's
# 80,000-census eventlog (1.6 GB, 300 labels; stored once in build/bench,
# as bench/report.sh stores it), of run.py's 60,000 x 60 .hp (128 MB) and
# of -hc eventlogs of deep stacks (bench/gen.py deepcc: 3,000 and 12,000
# stacks 100-255 frames deep, 40 censuses; the second past the 1 MB bound).
# Prints a Markdown table: input size, best of 3 wall seconds of `hp2x IN
# -o OUT.pb.gz` and of the same run writing CSV (reading and choosing alike,
# for comparison), peak RSS, the profile's bytes and samples, labels
# dropped, and the seconds `go tool pprof -top` takes to read it.
set -euo pipefail
hp2x=$1 memgen=$2
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/big_inputs.sh"
big_inputs "$memgen"
export HP2X_FONTS_CONF=$top/fonts/fonts.conf SOURCE_DATE_EPOCH=1700000000
for n in 3000 12000; do
  d=$dir/deepcc-$n.eventlog
  [ -s "$d" ] || python3 "$top/bench/gen.py" deepcc 40 $n "$d"
done
best() { # best of 3 wall seconds of the command
  local b=
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N)
    b=$(echo "$t1 - $t0" | bc -l | awk -v b="$b" '{ print (b == "" || $1 < b) ? $1 : b }')
  done
  printf '%.2f' "$b"
}
echo "## pprof profiles of big inputs"
echo
echo "| input | MB | pprof s | CSV s | peak RSS MB | profile bytes | samples | dropped | go tool pprof -top s |"
echo "|---|---|---|---|---|---|---|---|---|"
for in in "$ev" "$hp" "$dir/deepcc-3000.eventlog" "$dir/deepcc-12000.eventlog"; do
  out=$dir/$(basename "$in").pb.gz
  ps=$(best "$hp2x" -q "$in" -o "$out")
  cs=$(best "$hp2x" -q "$in" -o "$dir/pprof-bench.csv")
  rss=$(/usr/bin/time -f %M "$hp2x" -q "$in" -o "$out" 2>&1 > /dev/null | tail -1)
  samples=$(go tool pprof -raw "$out" 2> /dev/null | sed -n '/^Samples:/,/^Locations/p' |
            grep -cE '^ +[0-9]+:')
  dropped=$(go tool pprof -raw "$out" 2> /dev/null | grep -o '([0-9]* labels dropped)' |
            head -1 | tr -dc 0-9 || true)
  gs=$(best go tool pprof -top "$out")
  printf '| %s | %.0f | %s | %s | %.0f | %d | %d | %s | %s |\n' "$(basename "$in")" \
    "$(echo "$(stat -c %s "$in") / 1000000" | bc -l)" "$ps" "$cs" \
    "$(echo "$rss / 1024" | bc -l)" "$(stat -c %s "$out")" "$samples" "${dropped:-0}" "$gs"
done
rm -f "$dir/pprof-bench.csv"
