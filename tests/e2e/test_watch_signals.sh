#!/usr/bin/env bash
# Stop signals in watch mode, with --interval=60: SIGINT, SIGTERM and SIGHUP
# sent while the watch waits, just after a render (just before the wait),
# during a render, while it reads a file or a pipe that a writer keeps
# growing (the pipe's as fast as hp2x reads).  Each time the watch must end
# long before the interval would (bound 5 s, for sanitizer builds, from the
# signal or, during a render, from the render's end; the latencies are
# printed), with exit status 0, a last picture that is complete
# (equal to a one-shot render where the input is complete) and no
# temporary file beside it.  A second signal during a render, and a signal
# during a one-shot render, kill hp2x with that signal and leave no
# temporary file.  Everything runs twice: with inotify wakeups (where the
# build has them) and with polling forced (HP2X_WATCH_POLL=1).
#
# The bound is 20 s, a third of the interval, although a stop takes tens
# of milliseconds: closing the inotify descriptor at the end waits for the
# kernel's fsnotify clean-up, measured at up to 11 s on a machine loaded
# to 16 runnable processes per 2 cores.
. "$(dirname "$0")/lib.sh"
# Under make valgrind hp2x needs seconds to start and the renders here
# minutes: the sanitizer build (make check) runs these instead.
if [ -n "${HP2X_UNDER_VALGRIND:-}" ]; then echo "SKIPPED: under valgrind"; finish; exit; fi
# Job control: background jobs keep SIGINT (a non-interactive shell makes
# them ignore it, and hp2x leaves ignored signals ignored, as nohup needs).
set -m
P=$TOP/samples/profiles
ENDLESS="python3 $TOP/tests/tools/endless_hp.py"
cd "$T"

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# wait_for COND_CMD SECONDS: polls until COND_CMD succeeds.
wait_for() {
  local i=0 limit=$(( $2 * 200 ))
  while ! eval "$1"; do i=$((i + 1)); [ $i -ge $limit ] && return 1; sleep 0.005; done
}
temps_in() { ls -A "$1" | grep '^\.' ; }
# stop_watch SIG WHAT DIR: sends SIG to the watch $W, checks how it ended.
stop_watch() {
  local sig=$1 what=$2 dir=$3 t0 rc lat
  t0=$(ms); kill -"$sig" "$W"; wait "$W"; rc=$?; lat=$(( $(ms) - t0 ))
  echo "latency $MODE $sig $what: $lat ms"
  [ $rc -eq 0 ] && ok || fail "$MODE $sig $what: exit $rc"
  [ $lat -lt 20000 ] && ok || fail "$MODE $sig $what: ended $lat ms after the signal"
  [ -z "$(temps_in "$dir")" ] && ok || fail "$MODE $sig $what: temporary files left: $(temps_in "$dir")"
}
csv_complete() { head -1 "$1" | grep -q '^time' && tail -c 2 "$1" | od -c | grep -q '\\r  \\n'; }

python3 "$TOP/bench/gen.py" stretch "$P/longrun.hT.hp" 4 big.hp
"$HP2X" -q "$P/leak.hc.hp" -o small1.csv
"$HP2X" -q big.hp -o big1.png

for MODE in wakeups polling; do
  if [ $MODE = polling ]; then export HP2X_WATCH_POLL=1; else unset HP2X_WATCH_POLL; fi
  for sig in INT TERM HUP; do
    # 1. Waiting for a change, and just before the wait (the signal right
    # after the first picture is in place, after 0, 2 and 20 ms).
    for delay in 0.3 0 0.002 0.02; do
      d=idle-$MODE-$sig-$delay; mkdir $d
      "$HP2X" --watch --interval=60 -q "$P/leak.hc.hp" -o $d/out.csv & W=$!
      wait_for "[ -s $d/out.csv ]" 10 || fail "$d: no first picture"
      sleep $delay
      stop_watch $sig "after the render +${delay}s" $d
      cmp -s $d/out.csv small1.csv && ok || fail "$d: last picture differs from a one-shot one"
    done
    # 2. During a render (a 4 MB profile drawn as PNG): the render
    # finishes, its picture stays, nothing more is waited for.
    d=render-$MODE-$sig; mkdir $d
    "$HP2X" --watch --interval=60 -q big.hp -o $d/big.png & W=$!
    wait_for "[ -n \"\$(temps_in $d)\" ]" 20 || fail "$d: render never began"
    if [ -e $d/big.png ]; then stop_watch $sig "after the render" $d; else
      # Also from the render's end (the picture in place) to the exit.
      t0=$(ms); kill -$sig $W
      wait_for "[ -e $d/big.png ]" 20; t1=$(ms); wait $W; rc=$?; t2=$(ms)
      echo "latency $MODE $sig during the render: $((t2 - t0)) ms, $((t2 - t1)) ms after the render's end"
      [ $rc -eq 0 ] && ok || fail "$d: exit $rc"
      # The render itself takes what it takes (seconds under sanitizers).
      [ $((t2 - t1)) -lt 20000 ] && ok || fail "$d: ended $((t2 - t1)) ms after the render's end"
      [ $((t2 - t0)) -lt 30000 ] && ok || fail "$d: ended $((t2 - t0)) ms after the signal"
      [ -z "$(temps_in $d)" ] && ok || fail "$d: temporary files left: $(temps_in $d)"
    fi
    cmp -s $d/big.png big1.png && ok || fail "$d: last picture differs from a one-shot one"
    # 3. Reading a file that a fast writer keeps growing, and a pipe.
    d=grow-$MODE-$sig; mkdir $d
    # (The file's writer is paced, so that the final render, of all that
    # was read, stays small; the pipe's writer is paced by the pipe.)
    $ENDLESS $d/live.hp --delay 0.001 2> /dev/null & G=$!
    wait_for "[ -s $d/live.hp ]" 10
    "$HP2X" --watch --interval=60 -q $d/live.hp -o $d/live.csv & W=$!
    wait_for "[ -s $d/live.csv ]" 10 || fail "$d: no first picture"
    sleep 0.2
    stop_watch $sig "reading a growing file" $d
    kill $G; wait $G 2> /dev/null
    csv_complete $d/live.csv && ok || fail "$d: last picture is not a complete CSV"
    d=pipe-$MODE-$sig; mkdir $d
    "$HP2X" --watch --interval=60 -q - -o $d/pipe.csv < <($ENDLESS - 2> /dev/null) & W=$!
    wait_for "[ -s $d/pipe.csv ]" 10 || fail "$d: no first picture"
    sleep 0.2
    stop_watch $sig "reading a pipe" $d
    csv_complete $d/pipe.csv && ok || fail "$d: last picture is not a complete CSV"
  done
done
unset HP2X_WATCH_POLL

# 4. A second signal during a render kills the watch with it: no picture
# (the first render never finished), no temporary file.
mkdir twice
"$HP2X" --watch --interval=60 -q big.hp -o twice/big.png & W=$!
wait_for "[ -n \"\$(temps_in twice)\" ]" 20 || fail "twice: render never began"
kill -INT $W; sleep 0.01; kill -INT $W; wait $W; rc=$?
[ -e twice/big.png ] && echo "note: the render ended before the second signal" ||
  { [ $rc -eq 130 ] && ok || fail "second SIGINT during a render: exit $rc, wanted 130"; }
[ -z "$(temps_in twice)" ] && ok || fail "second signal: temporary files left: $(temps_in twice)"

# 5. A signal ignored from the start (nohup) stays ignored; SIGTERM still
# ends the watch.
mkdir nohup
(trap '' HUP; exec "$HP2X" --watch --interval=60 -q "$P/leak.hc.hp" -o nohup/out.csv) & W=$!
wait_for "[ -s nohup/out.csv ]" 10 || fail "nohup: no first picture"
kill -HUP $W; sleep 0.3
kill -0 $W 2> /dev/null && ok || fail "nohup: an ignored SIGHUP ended the watch"
kill -TERM $W; wait $W; rc=$?
[ $rc -eq 0 ] && ok || fail "nohup: SIGTERM: exit $rc"

# 6. One-shot: a signal during the render kills hp2x with it and removes
# the temporary file; no picture.
mkdir once
"$HP2X" -q big.hp -o once/big.png & W=$!
wait_for "[ -n \"\$(temps_in once)\" ]" 20 || fail "one-shot: render never began"
kill -TERM $W; wait $W; rc=$?
[ $rc -eq 143 ] && ok || fail "one-shot SIGTERM during the render: exit $rc, wanted 143"
[ -z "$(ls -A once)" ] && ok || fail "one-shot SIGTERM: files left: $(ls -A once)"
finish
