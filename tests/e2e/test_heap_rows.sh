#!/usr/bin/env bash
# A heap series' rows are tied when compiling: every hpx_heap_kind
# (model/model.h) has its --heap line's looks (draw/layout.c), an event
# that feeds it (read/eventlog_stats.c) and its /metrics series
# (write/metrics.c), or the file does not build.  Each
# file compiles as it is; with one row taken out of a scratch copy, the
# compiler refuses it with the static assertion's words.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/scratch_lib.sh"
# file, a row's text, the assertion's words
rows=(
  "draw/layout.c|X(HPX_HEAP_BLOCKS, |looks for every hpx_heap_kind"
  "draw/layout.c|X(HPX_HEAP_LIVE, |looks for every hpx_heap_kind"
  "read/eventlog_stats.c|X(EV_HEAP_LIVE, HPX_HEAP_LIVE)|an event feeding every hpx_heap_kind"
  "write/metrics.c|X(HPX_HEAP_LIVE, |a /metrics series for every hpx_heap_kind"
  "write/metrics.c|X(HPX_HEAP_BLOCKS, |a /metrics series for every hpx_heap_kind"
)
for r in "${rows[@]}"; do
  IFS='|' read -r file row words <<< "$r"
  cp "$TOP/src/$file" "$T/src/$file"
  compiles "$file" && ok ||
    fail "$file does not build as it is: $(head -3 "$T/cc.log")"
  grep -qF "$row" "$T/src/$file" && ok || fail "$file has no row '$row'"
  # Take the row out (its lines, up to the one closing it, and the
  # continuation of the line before when it was the last).
  python3 - "$T/src/$file" "$row" <<'PY'
import sys
path, row = sys.argv[1:3]
lines = open(path).read().split('\n')
i = next(k for k, l in enumerate(lines) if row in l)
j = i
while not lines[j].rstrip().rstrip('\\').rstrip().endswith(')'):
    j += 1
if not lines[j].rstrip().endswith('\\'):
    lines[i - 1] = lines[i - 1].rstrip().rstrip('\\').rstrip()
del lines[i:j + 1]
open(path, 'w').write('\n'.join(lines))
PY
  if compiles "$file"; then
    fail "$file without '$row' builds"
  else
    grep -qF "$words" "$T/cc.log" && ok ||
      fail "$file without '$row': not the assertion: $(head -3 "$T/cc.log")"
  fi
  cp "$TOP/src/$file" "$T/src/$file"
done
finish
