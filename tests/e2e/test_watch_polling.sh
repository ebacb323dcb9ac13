#!/usr/bin/env bash
# Watch mode's fallback without file-change wakeups (the polling that
# builds without inotify use): test_watch.sh again with HP2X_WATCH_POLL=1,
# and, where strace is installed, proof that the variable does take the
# polling path (no inotify descriptor is made).
. "$(dirname "$0")/lib.sh"
P=$TOP/samples/profiles
HP2X_WATCH_POLL=1 bash "$TOP/tests/e2e/test_watch.sh" > "$T/watch.log" 2>&1 && ok ||
  { fail "test_watch.sh with polling"; tail -n 20 "$T/watch.log"; }
if command -v strace > /dev/null && [ -z "${HP2X_UNDER_VALGRIND:-}" ]; then
  cd "$T"
  HP2X_WATCH_POLL=1 strace -f -e trace=inotify_init,inotify_init1 -o poll.trace \
    "$HP2X" --watch --idle-exit=0.2 -q "$P/leak.hc.hp" -o poll.csv
  strace -f -e trace=inotify_init,inotify_init1 -o wake.trace \
    "$HP2X" --watch --idle-exit=0.2 -q "$P/leak.hc.hp" -o wake.csv
  if [ ! -s wake.trace ] || ! grep -q inotify wake.trace; then
    echo "SKIPPED: strace check (this build has no inotify wakeups, or strace cannot trace)"
  else
    grep -q inotify poll.trace && fail "HP2X_WATCH_POLL=1 still made an inotify descriptor" || ok
  fi
else
  echo "SKIPPED: strace check (no strace)"
fi
finish
