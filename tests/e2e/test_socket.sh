#!/usr/bin/env bash
# Services as inputs: a stand-in server (tests/tools/serve_stream.py) sends
# the streams a real GHC 9.6.6 / 9.10.3 program served (tests/data/live) over
# a Unix socket and TCP (127.0.0.1, and ::1 where there is IPv6) in random
# chunks.  The final --watch picture equals the one-shot render of the same
# bytes (CSV, EPS, SVG), --tee keeps exactly the bytes served (cut back to
# the last whole event when the stream stops inside one, with one warning),
# a service not up yet is said once and followed when it comes (or given up
# at --idle-exit), without --watch the stream is drawn once at its end or at
# SIGINT, and malformed addresses are usage errors.
. "$(dirname "$0")/lib.sh"
L=$TOP/tests/data/live
E96=$L/ghc9.6.6-longrun.from-start.eventlog
E910=$L/ghc9.10.3-longrun.from-start.eventlog
SERVE="python3 $TOP/tests/tools/serve_stream.py"
cd "$T"

# whole_until FILE: where its last whole event ends (an independent walk of
# the container format: tests/live/streamcheck.py).
whole_until() {
  python3 -c "import sys; sys.path.insert(0, '$TOP/tests/live'); import streamcheck
print(streamcheck.parse_stream(open(sys.argv[1], 'rb').read()).whole_until)" "$1"
}
# wait_file FILE: until the server says where it listens (at most 10 s).
wait_file() {
  local i=0; while [ ! -s "$1" ]; do i=$((i + 1)); [ $i -ge 200 ] && return 1; sleep 0.05; done
}
# same_picture A B: byte-identical (the title is the program's, from the
# stream, in both; tests/e2e/test_stream_bytes.sh has every format).
same_picture() { cmp -s "$1" "$2"; }

# 1. Unix socket, --watch, CSV; the server comes up 1 s late: "not up yet"
# is said once, then the stream is followed; the tee is the bytes served.
$SERVE "unix:$T/app.sock" "$E96" --after 1 --seed 1 --max 3000 & S=$!
"$HP2X" --watch --interval=0.05 "unix:$T/app.sock" -o live.csv --tee=kept.eventlog \
  2> err1; rc=$?
wait $S
[ $rc -eq 0 ] && ok || { fail "unix watch: exit $rc"; cat err1; }
"$HP2X" -q "$E96" -o once.csv
cmp -s live.csv once.csv && ok || fail "unix watch: final CSV differs from the one-shot render"
cmp -s kept.eventlog "$E96" && ok || fail "unix watch: --tee differs from the bytes served"
n=$(grep -c 'not up yet' err1)
[ "$n" -eq 1 ] && ok || fail "unix watch: 'not up yet' said $n times"
grep -q 'connected' err1 && ok || fail "unix watch: no note that it connected"

# 2. TCP on 127.0.0.1, --watch, EPS and the title from PROGRAM_ARGS.
rm -f port; $SERVE tcp:127.0.0.1:0 "$E910" --ready port --seed 2 --max 5000 & S=$!
wait_file port
"$HP2X" --watch --interval=0.05 -q "tcp:127.0.0.1:$(cat port)" -o live.eps \
  --tee=kept910.eventlog; rc=$?
wait $S
[ $rc -eq 0 ] && ok || fail "tcp watch: exit $rc"
"$HP2X" -q "$E910" -o once.eps
same_picture live.eps once.eps && ok || fail "tcp watch: final EPS differs from the one-shot render"
grep -q 'longrun' live.eps && ok || fail "tcp watch: the title is not the program's name"
cmp -s kept910.eventlog "$E910" && ok || fail "tcp watch: --tee differs from the bytes served"

# 3. TCP on ::1, SVG, when the machine has IPv6.
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2> /dev/null; then
  rm -f port; $SERVE 'tcp:[::1]:0' "$E96" --ready port --seed 3 --max 800 & S=$!
  wait_file port
  "$HP2X" --watch --interval=0.05 -q "tcp:[::1]:$(cat port)" -o live.svg; rc=$?
  wait $S
  [ $rc -eq 0 ] && ok || fail "tcp ::1 watch: exit $rc"
  "$HP2X" -q "$E96" -o once.svg
  same_picture live.svg once.svg && ok || fail "tcp ::1 watch: final SVG differs from the one-shot render"
else
  echo "SKIPPED: no IPv6 loopback here (tcp:[::1]:PORT not tried)"
fi

# 4. The connection closes inside an event: one warning, exit 0, the tee cut
# back to the last whole event, and the picture is that of those bytes.
cut=100001
head -c $cut "$E910" > served.eventlog
want=$(whole_until served.eventlog)
[ "$want" -lt $cut ] && ok || fail "test setup: byte $cut is not inside an event"
rm -f port; $SERVE tcp:127.0.0.1:0 "$E910" --ready port --cut $cut --seed 4 & S=$!
wait_file port
"$HP2X" --watch --interval=0.05 "tcp:127.0.0.1:$(cat port)" -o cut.csv \
  --tee=cut.eventlog 2> err4; rc=$?
wait $S
[ $rc -eq 0 ] && ok || fail "cut mid-event: exit $rc"
n=$(grep -c 'warning' err4)
[ "$n" -eq 1 ] && grep -q "byte $want: warning: the connection closed inside an event" err4 \
  && ok || { fail "cut mid-event: wanted one warning at byte $want"; cat err4; }
[ "$(wc -c < cut.eventlog)" -eq "$want" ] && cmp -s cut.eventlog <(head -c "$want" "$E910") \
  && ok || fail "cut mid-event: the tee is not the served bytes up to byte $want"
"$HP2X" -q cut.eventlog -o cut-once.csv
cmp -s cut.csv cut-once.csv && ok || fail "cut mid-event: the picture differs from the tee's one-shot render"

# 5. A service that never comes: said once, given up at --idle-exit, exit 1.
start=$(date +%s)
"$HP2X" --watch --interval=0.1 --idle-exit=1 "unix:$T/never.sock" -o never.csv 2> err5; rc=$?
[ $rc -eq 1 ] && ok || fail "never up: exit $rc, wanted 1"
[ "$(grep -c 'not up yet' err5)" -eq 1 ] && ok || { fail "never up: not said exactly once"; cat err5; }
[ $(( $(date +%s) - start )) -le 5 ] && ok || fail "never up: --idle-exit=1 did not bound the wait"
[ ! -e never.csv ] && ok || fail "never up: an output was written"
# Without --watch it is not waited for.
expect_status 1 "not up, no --watch" -- "$HP2X" "unix:$T/never.sock" -o never.csv
expect_stderr "never.sock: cannot connect: " "not up, no --watch"

# 6. Without --watch: drawn once when the service closes ...
$SERVE "unix:$T/once.sock" "$E96" --seed 6 & S=$!
for i in $(seq 100); do [ -S "$T/once.sock" ] && break; sleep 0.05; done
"$HP2X" -q "unix:$T/once.sock" -o plain.csv; rc=$?
wait $S
[ $rc -eq 0 ] && cmp -s plain.csv once.csv && ok || fail "no --watch: exit $rc or the CSV differs"
# ... or at SIGINT, from what was received (the service keeps the connection).
# Job control: the background job keeps SIGINT (a non-interactive shell
# makes it ignore it, and hp2x leaves ignored signals ignored).
set -m
cut=60000
head -c $cut "$E96" > held.eventlog
$SERVE "unix:$T/held.sock" "$E96" --cut $cut --hold --seed 7 & S=$!
for i in $(seq 100); do [ -S "$T/held.sock" ] && break; sleep 0.05; done
"$HP2X" -q "unix:$T/held.sock" -o held.csv --tee=held-kept.eventlog & H=$!
for i in $(seq 200); do [ "$(stat -c %s held-kept.eventlog 2> /dev/null || echo 0)" -ge $cut ] && break; sleep 0.05; done
sleep 0.2
kill -INT $H; wait $H; rc=$?
wait $S
set +m
[ $rc -eq 0 ] && ok || fail "SIGINT without --watch: exit $rc"
"$HP2X" -q held.eventlog -o held-once.csv
[ -s held.csv ] && cmp -s held.csv held-once.csv && ok || fail "SIGINT without --watch: the CSV is not that of the bytes received"
[ "$(wc -c < held-kept.eventlog)" -eq "$(whole_until held.eventlog)" ] && ok \
  || fail "SIGINT without --watch: the tee is not cut at the last whole event"

# 7. Malformed addresses are usage errors (most are cases of
# tests/cli/cases.test, as are --tee with a file and a service among
# several inputs); ./unix:NAME is a file.
expect_status 2 "unix: path too long" -- "$HP2X" "unix:/$(printf 'x%.0s' $(seq 200))" -o x.csv
expect_stderr "at most [0-9]+ bytes" "unix: path too long"
cp "$E96" 'unix:app'
expect_status 0 "./unix:app is a file" -- "$HP2X" -q ./unix:app -o file.csv
cmp -s file.csv once.csv && ok || fail "./unix:app: not read as the file"

finish
