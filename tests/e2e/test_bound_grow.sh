#!/usr/bin/env bash
# test_bound_grow.sh -- the final picture of a growing file hp2x --watch
# follows (appended in chunks of 700 kB, --idle-exit ending it) equals the
# one-shot picture, byte for byte, for the long profile of test_bound.sh
# (bound_lib.sh: thinned, so drawn from a bounded profile), .hp and
# eventlog.  Apart from test_bound.sh because --idle-exit is a clock: it
# runs alone (tests/run-tests.sh).
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
. "$TOP/tests/e2e/bound_lib.sh"

for in in long.hp long.eventlog; do
  # a growing file, appended in chunks while hp2x follows it
  : > grow.in
  "$HP2X" -q --watch grow.in --interval=0.05 --idle-exit=1.5 -o grow.pdf &
  pid=$!
  python3 - "$in" grow.in <<'EOF'
import sys, time
data = open(sys.argv[1], "rb").read()
with open(sys.argv[2], "ab") as out:
    for pos in range(0, len(data), 700000):
        out.write(data[pos:pos + 700000]); out.flush(); time.sleep(0.1)
EOF
  wait "$pid"
  "$HP2X" -q grow.in -o grow-one.pdf
  cmp -s grow.pdf grow-one.pdf && ok ||
    fail "$in: a growing file's final PDF differs from the one-shot"
done
finish
