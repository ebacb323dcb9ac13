#!/usr/bin/env bash
# run.sh BUILD -- `make valgrind`: every end-to-end test (tests/e2e/*.sh)
# with $HP2X running BUILD/hp2x under valgrind (tests/valgrind/hp2x.sh).
# Prints each test's result, the processes with valgrind reports (their
# logs kept in BUILD/valgrind/), the wall time, and "valgrind: clean" or
# not; exits non-zero on any failed test or report.
set -u
build=${1:?usage: run.sh BUILD}
top=$(cd "$(dirname "$0")/../.." && pwd)
logs=$top/$build/valgrind
rm -rf "$logs" && mkdir -p "$logs/e2e"
export TOP="$top" BUILD="$top/$build" HP2X_REAL="$top/$build/hp2x"
export HP2X="$top/tests/valgrind/hp2x.sh" HP2X_VALGRIND_LOGS="$logs"
export HP2X_UNDER_VALGRIND=1 LC_ALL=C.UTF-8
export HP2X_FONTS_CONF="$top/fonts/fonts.conf"
start=$(date +%s) failed=0
for t in "$top"/tests/e2e/test_*.sh; do
  name=$(basename "$t" .sh) t0=$(date +%s)
  if bash "$t" > "$logs/e2e/$name.log" 2>&1; then r=ok; else
    r=FAILED failed=$((failed + 1)); tail -n 20 "$logs/e2e/$name.log"; fi
  echo "  $name: $r ($(($(date +%s) - t0)) s)"
done
runs=$(ls "$logs"/vg.*.log 2>/dev/null | wc -l) reports=0
for f in "$logs"/vg.*.log; do
  [ -s "$f" ] || { rm -f "$f"; continue; }
  reports=$((reports + 1))
  echo "valgrind report: $f"; head -n 12 "$f" | sed 's/^/    /'
done
echo "valgrind: $runs hp2x runs, $reports with reports, $failed tests failed," \
  "$(($(date +%s) - start)) s"
[ "$failed" -eq 0 ] && [ "$reports" -eq 0 ] && echo "valgrind: clean"
