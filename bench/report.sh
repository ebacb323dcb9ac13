#!/usr/bin/env bash
# bench/report.sh HP2X MEMGEN -- the HTML report on the benchmark's big
# inputs (`make bench-report`, part of `make bench`): bench/mem.py's
# 80,000-census eventlog (1.6 GB, 300 labels; stored once in build/bench)
# and run.py's 60,000 x 60 .hp (128 MB, bench/gen.py).  Prints a Markdown
# table: input size, time to write the report, its size (the limit is
# 1 MB), the columns and censuses it holds; then how fast each opens and
# responds in chromium (bench/report_load.js).
set -euo pipefail
hp2x=$1 memgen=$2
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/big_inputs.sh"
big_inputs "$memgen"
export HP2X_FONTS_CONF=$top/fonts/fonts.conf SOURCE_DATE_EPOCH=1700000000
echo "## The HTML report on big inputs"
echo
echo "| input | MB | options | write s | report bytes | columns held | censuses in input |"
echo "|---|---|---|---|---|---|---|"
for spec in "$ev|-c" "$ev|" "$hp|-c" "$hp|"; do
  in=${spec%%|*} opts=${spec#*|}
  out=$dir/$(basename "$in")${opts:+-c}.html
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$hp2x" -q $opts "$in" -o "$out"
  t1=$(date +%s.%N)
  held=$(grep -o '"censuses":[0-9]*,"columns":[0-9]*' "$out" | tr -dc '0-9,' )
  printf '| %s | %.0f | %s | %.2f | %d | %s | %s |\n' "$(basename "$in")" \
    "$(echo "$(stat -c %s "$in") / 1000000" | bc -l)" "${opts:-(greys)}" \
    "$(echo "$t1 - $t0" | bc -l)" "$(stat -c %s "$out")" "${held#*,}" "${held%,*}"
done
echo
echo "Opening and responding in chromium (headless, software rendering; best of 3):"
echo
node "$top/bench/report_load.js" "$dir"/*.html
