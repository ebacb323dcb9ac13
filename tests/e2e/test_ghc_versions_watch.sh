#!/usr/bin/env bash
# test_ghc_versions.sh's growing eventlog: --watch on a GHC 9.2 eventlog
# written block by block (a program with --eventlog-flush-interval), then
# in uneven pieces mid-event: every picture complete, sample counts never
# decrease, the last = one-shot; before its heap profile begins it waits
# (no output, no error).  Apart from test_ghc_versions.sh because it
# waits on the watch (tests/run-tests.sh).
. "$(dirname "$0")/lib.sh"
E=$TOP/tests/data/eventlogs
cd "$T"

if [ -z "${HP2X_UNDER_VALGRIND:-}" ]; then
  "$HP2X" -q -m0 "$E/ghc92-live.eventlog" -o oneshot.csv
  # the header, the run's information and a capability's block: no heap
  # profile yet
  first=$(sed -n 3p "$E/ghc92-live.blocks")
  head -c "$first" "$E/ghc92-live.eventlog" > live.eventlog
  "$HP2X" --watch --interval=0.05 -q -m0 live.eventlog -o watch.csv 2> werr.txt & W=$!
  mkdir snaps; "$TOP/tests/tools/snapshots.sh" watch.csv snaps & S=$!
  sleep 0.5
  [ ! -e watch.csv ] && kill -0 $W 2>/dev/null && ok ||
    fail "watch did not wait for the heap profile to begin"
  prev=$first
  for at in $(sed 1,3d "$E/ghc92-live.blocks") $(stat -c %s "$E/ghc92-live.eventlog"); do
    # a block in two writes, the first ending mid-event
    mid=$(( (prev + at) / 2 ))
    tail -c +"$((prev + 1))" "$E/ghc92-live.eventlog" | head -c "$((mid - prev))" >> live.eventlog
    sleep 0.08
    tail -c +"$((mid + 1))" "$E/ghc92-live.eventlog" | head -c "$((at - mid))" >> live.eventlog
    sleep 0.08
    prev=$at
  done
  i=0; while kill -0 $W 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
  kill -0 $W 2>/dev/null && { fail "watch did not end at the data-end marker"; kill $W; }
  wait $W; rc=$?
  touch snaps/stop; wait $S
  [ $rc -eq 0 ] && ok || fail "watch exit $rc: $(head -2 werr.txt)"
  cmp -s watch.csv oneshot.csv && ok || fail "last watch output differs from one-shot"
  prev=-1 mono=1 valid=1
  for f in snaps/0*; do
    head -1 "$f" | grep -q '^time' || valid=0
    r=$(($(wc -l < "$f") - 1)); [ "$r" -ge "$prev" ] || mono=0; prev=$r
  done
  [ "$(ls snaps | wc -l)" -ge 3 ] && ok || fail "only $(ls snaps | wc -l) outputs while growing"
  [ $valid -eq 1 ] && [ $mono -eq 1 ] && ok || fail "a watch output was incomplete or went back"
fi
finish
