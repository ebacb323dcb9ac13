#!/usr/bin/env bash
# Hostile HTTP against --serve while it follows a service (a real stream,
# tests/data/socket, served slowly over a Unix socket): malformed request
# lines, huge headers and targets, a wrong Host, other methods, then 200
# idle connections and a slowloris at once (tests/tools/hostile_http.py,
# real sockets).  Each gets its status or a close; /metrics is answered
# meanwhile; the watch goes on writing its -o CSV through all of it, and
# its last CSV is the one-shot CSV of the same bytes (as without them).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
serve_need_curl
cd "$T"
zcat "$TOP/tests/data/socket/ghc-9.6.6/longrun.hT.stream1.eventlog.gz" > s1.eventlog
"$HP2X" -q s1.eventlog -o once.csv
python3 "$TOP/tests/tools/serve_stream.py" "unix:$T/app.sock" s1.eventlog \
  --min 20000 --max 40000 --delay 0.3 --seed 9 & SS=$!
serve_start err --watch --interval=0.1 "unix:$T/app.sock" --serve=0 -o live.csv ||
  fail "no serving line: $(cat err)"
python3 "$TOP/tests/tools/hostile_http.py" "$PORT" > hostile.txt 2>&1 & HP=$!
sleep 3
rows3=$(wc -l < live.csv 2> /dev/null || echo 0)
sleep 8 # the crowd and the slowloris are there now
rows11=$(wc -l < live.csv 2> /dev/null || echo 0)
[ "$rows11" -gt "$rows3" ] && ok || fail "the watch stopped writing under the crowd ($rows3 then $rows11 rows)"
wait $HP; hrc=$?
grep '^FAIL' hostile.txt | while read -r line; do echo "$line"; done
[ $hrc -eq 0 ] && ok || fail "hostile clients: $(grep -c '^FAIL' hostile.txt) failures"
[ "$(grep -c '^ok' hostile.txt)" -ge 25 ] && ok || fail "hostile checks missing: $(cat hostile.txt)"
wait $SS
i=0; while ! cmp -s live.csv once.csv && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
cmp -s live.csv once.csv && ok || fail "the watch's last CSV differs from the one-shot CSV"
code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics")
[ "$code" = 200 ] && ok || fail "/metrics after the crowd: $code"
serve_stop
[ "$SERVED_RC" -eq 0 ] && ok || fail "exit $SERVED_RC: $(cat err)"
finish
