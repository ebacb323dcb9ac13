#!/usr/bin/env bash
# --serve: the address (PORT, ADDR:PORT, [::1]:PORT, 0), a port in use (exit
# 1), no file without -o (its usage errors are cases of
# tests/cli/cases.test), every picture format served equal to the same
# run's -o file, the live page without its PNG (/?lean=1), /metrics against the CSV's last row (every band, the
# total, the time; heap series of an eventlog; promtool check metrics;
# raw-byte labels made valid UTF-8 and escaped), a watched service
# followed over /events (censuses in order, the input's state), and a real
# Prometheus (Debian's) scraping it: /api/v1/query gives the CSV's last
# row.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
S=$TOP/samples/profiles
CHECK="python3 $TOP/tests/tools/metrics_check.py"
serve_need_curl
mkdir "$T/run" && cd "$T/run"

# 1. A finished input: each picture format as -o writes it; nothing written.
serve_start err1 -c "$S/manycc.hc.hp" --serve=0 || fail "no serving line: $(cat err1)"
serve_wait_census || fail "no census served: $(cat err1)"
[ "$(grep -c '^hp2x: serving http://127.0.0.1:' err1)" -eq 1 ] && ok || fail "serving line not once on 127.0.0.1"
for f in ps eps pdf svg png; do
  get /picture.$f > "$T/served.$f"
  [ "$HTTP_CODE" = 200 ] && ok || fail "/picture.$f: $HTTP_CODE"
  "$HP2X" -q -c "$S/manycc.hc.hp" -o "$T/file.$f"
  cmp -s "$T/served.$f" "$T/file.$f" && ok || fail "/picture.$f differs from -o's"
done
get /metrics > "$T/m1.txt"
[ "$HTTP_CODE" = 200 ] && ok || fail "/metrics: $HTTP_CODE"
ctype=$(curl -s -o /dev/null -w '%{content_type}' "http://127.0.0.1:$PORT/metrics")
[ "$ctype" = "text/plain; version=0.0.4; charset=utf-8" ] && ok || fail "/metrics Content-Type: $ctype"
"$HP2X" -q -c "$S/manycc.hc.hp" -o "$T/m1.csv"
out=$($CHECK text "$T/m1.txt" "$T/m1.csv") && ok || fail "metrics against the CSV: $out"
[ "$(grep -c '^hp2x_band_bytes{' "$T/m1.txt")" -eq 20 ] && ok || fail "not 20 band series (-m default)"
# (the page is drawn for its first request: seconds on a crowded machine;
# an event stream's HEAD is cut by the 2 s limit, whatever its answer)
for p in / /events /metrics /picture.png; do
  limit=30; [ "$p" = /events ] && limit=2
  code=$(curl -s -m $limit -o /dev/null -w '%{http_code}' -I "http://127.0.0.1:$PORT$p")
  [ "$code" = 200 ] || [ "$p" = /events ] && ok || fail "HEAD $p: $code"
done
# The live page without its PNG ("/?lean=1", what a live page swaps in):
# the page's bytes but the raster's base64, which / has.
get / > "$T/page.html"
get "/?lean=1" > "$T/lean.html"
[ "$HTTP_CODE" = 200 ] && ok || fail "/?lean=1: $HTTP_CODE"
out=$(python3 - "$T/page.html" "$T/lean.html" <<'PY'
import re, sys
page, lean = (open(f, encoding="utf-8").read() for f in sys.argv[1:3])
m = re.search(r'<img id="hp2x-raster"[^>]* src="data:image/png;base64,([^"]+)"', page)
if not m: sys.exit("/ has no PNG")
if lean != page[:m.start(1)] + page[m.end(1):]: sys.exit("/?lean=1 is not / without its PNG")
print(len(page) - len(lean))
PY
) && ok || fail "$out"
get /picture.gif > /dev/null; [ "$HTTP_CODE" = 404 ] && ok || fail "/picture.gif: $HTTP_CODE"
get /picture.csv > /dev/null; [ "$HTTP_CODE" = 404 ] && ok || fail "/picture.csv: $HTTP_CODE"
get /../etc/passwd --path-as-is > /dev/null; [ "$HTTP_CODE" = 404 ] && ok || fail "/../etc/passwd: $HTTP_CODE"
# A port in use: exit 1, a clear message.
expect_status 1 "port in use" -- "$HP2X" "$S/leak.hc.hp" --serve="$PORT"
expect_stderr "cannot serve on 127.0.0.1:$PORT: Address already in use" "port in use: message"
serve_stop
[ "$SERVED_RC" -eq 0 ] && ok || fail "SIGTERM: exit $SERVED_RC: $(cat err1)"
[ "$(ls -A | grep -v '^err1$')" = "" ] && ok || fail "files written without -o: $(ls -A)"

# 2. Usage (several inputs, a bad address, -o -): cases of
# tests/cli/cases.test.

# 3. [::1], where the machine has IPv6; -m5 bounds the series.
if python3 -c 'import socket; s = socket.socket(socket.AF_INET6); s.bind(("::1", 0))' 2> /dev/null; then
  serve_start err3 -m5 "$S/manycc.hc.hp" '--serve=[::1]:0' || fail "[::1]: $(cat err3)"
  serve_wait_census '[::1]' || fail "[::1]: no census served: $(cat err3)"
  grep -q '^hp2x: serving http://\[::1\]:' err3 && ok || fail "[::1]: serving line"
  n=$(curl -s -g "http://[::1]:$PORT/metrics" | grep -c '^hp2x_band_bytes{')
  [ "$n" -eq 5 ] && ok || fail "-m5: $n band series"
  serve_stop
else
  echo "SKIPPED: no IPv6 loopback here ([::1] not tried)"
fi

# 4. An eventlog: its heap series; hostile label bytes: valid UTF-8, escaped,
# promtool clean.
serve_start err4 "$TOP/tests/data/live/ghc9.10.3-longrun.from-start.eventlog" --serve=0
serve_wait_census || fail "eventlog: no census served: $(cat err4)"
get /metrics > "$T/m4.txt"
for m in hp2x_heap_size_bytes hp2x_heap_live_bytes hp2x_blocks_size_bytes; do
  grep -q "^$m [0-9]" "$T/m4.txt" && ok || fail "eventlog: no $m"
done
serve_stop
printf 'JOB "x"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n' > "$T/h.hp"
printf 'BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\n' >> "$T/h.hp"
printf 'a"b\\c\t100\nbad\377\376utf\t200\nOTHER\t50\nline\\nfeed\t70\n' >> "$T/h.hp"
printf 'END_SAMPLE 1.0\n' >> "$T/h.hp"
serve_start err5 -m0 "$T/h.hp" --serve=0
serve_wait_census || fail "no census served: $(cat err5)"
get /metrics > "$T/m5.txt"
serve_stop
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$T/m5.txt" && ok || fail "metrics not UTF-8"
grep -qF 'hp2x_band_bytes{band="a\"b\\c"} 100' "$T/m5.txt" && ok || fail "quote and backslash not escaped: $(grep band= "$T/m5.txt")"
if command -v promtool > /dev/null; then
  for f in m1 m4 m5; do
    out=$(promtool check metrics < "$T/$f.txt" 2>&1) && ok || fail "promtool check metrics $f: $out"
  done
else
  echo "SKIPPED: promtool (Debian's prometheus; make deps installs it)"
fi

# 5. A watched service: /events follows it (censuses in order, connected
# then closed, and the first report pushed, well-formed), /metrics ends at
# the CSV's last row.
zcat "$TOP/tests/data/socket/ghc-9.10.3/longrun.hT.stream1.eventlog.gz" > "$T/s1.eventlog"
python3 "$TOP/tests/tools/serve_stream.py" "unix:$T/app.sock" "$T/s1.eventlog" \
  --after 1 --min 20000 --max 40000 --delay 0.05 --seed 5 & SS=$!
serve_start err6 --watch --interval=0.05 "unix:$T/app.sock" --serve=0 -o live.csv
curl -s -N -m 12 "http://127.0.0.1:$PORT/events" > "$T/events.txt" & CE=$!
wait $SS
i=0; while ! grep -q '"input":"closed"' "$T/events.txt" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
get /metrics > "$T/m6.txt"
kill $CE 2> /dev/null; wait $CE 2> /dev/null
# A stream followed again (a page that reconnects, or takes the lead from
# another: /events?shown=N) is sent the newest report when it is newer
# than the page's N; a stream that says nothing (a page just loaded, with
# its redraw's report) and one already showing it are not.  Each stream
# stays open (curl -m ends it), so the six are followed at once.
again=()
for q in "?shown=0" "?shown=-1" "" "?shown=999999" "?shown=x" "?shown=-2"; do
  curl -s -N -m 2 "http://127.0.0.1:$PORT/events$q" > "$T/again$q.txt" & again+=($!)
done
wait "${again[@]}"
for q in "?shown=0" "?shown=-1"; do # -1: a waiting page, no report yet
  grep -q '^event: report$' "$T/again$q.txt" && ok || fail "/events$q: no report: $(head -c 300 "$T/again$q.txt")"
done
for q in "" "?shown=999999" "?shown=x" "?shown=-2"; do
  grep -q '^event: update$' "$T/again$q.txt" && ! grep -q '^event: report$' "$T/again$q.txt" && ok ||
    fail "/events$q: a report, or no update: $(head -c 300 "$T/again$q.txt")"
done
serve_stop
[ "$SERVED_RC" -eq 0 ] && ok || fail "watch: exit $SERVED_RC"
out=$($CHECK text "$T/m6.txt" live.csv) && ok || fail "watch metrics against its CSV: $out"
grep -q '^hp2x_censuses_total 70$' "$T/m6.txt" && ok || fail "census counter: $(grep censuses_total "$T/m6.txt")"
python3 - "$T/events.txt" <<'PY' && ok || fail "events: not in order, or no connected then closed"
import json, sys
blocks = [b.split("\n") for b in open(sys.argv[1], encoding="utf-8").read().split("\n\n") if b.startswith("event: ")]
ev = [json.loads(b[2][6:]) for b in blocks if b[0] == "event: update"]
# the first report, pushed to this client as it followed: one line of JSON
# whose page is the report of its redraw, lean: no PNG drawn (a data: URL
# with nothing in it; the page sizes the picture from the SVG), and so the
# least census budget (hp2x_write_live_lean_html)
reports = [json.loads(b[1][6:]) for b in blocks if b[0] == "event: report"]
assert reports and all(len(b) == 2 for b in blocks if b[0] == "event: report"), len(reports)
r = reports[0]
assert r["lean"] and 'data-hp2x-redraw="%d"' % r["picture"] in r["page"], r["picture"]
assert '<img id="hp2x-raster" alt="' in r["page"] and 'src="data:image/png;base64,">' in r["page"]
assert '<svg' in r["page"] and '"budget":60000' in r["page"], r["page"][:200]
# (a redraw of the run's, with censuses: a stream that falls behind
# sends only the newest update, so its own may not be among them)
assert 0 < r["picture"] <= max(e["picture"] for e in ev), r["picture"]
states = [e["input"] for e in ev]
gens = [e["generation"] for e in ev]
counts = [e["censuses"] for e in ev]
assert gens == sorted(set(gens)), gens
assert counts == sorted(counts), counts
assert "connected" in states and states[-1] == "closed", states
assert counts[-1] == 70 and len([c for c in counts if 0 < c < 70]) >= 3, counts
PY

# 6. A real Prometheus scrapes a served profile: the query gives the CSV's
# last row.
if command -v prometheus > /dev/null; then
  serve_start err7 -c "$S/manycc.hc.hp" --serve=0
  serve_wait_census || fail "no census served: $(cat err7)"
  PP=$(free_port)
  printf 'global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: hp2x\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' "$PORT" > "$T/prom.yml"
  prometheus --config.file="$T/prom.yml" --storage.tsdb.path="$T/tsdb" \
    --web.listen-address="127.0.0.1:$PP" > "$T/prom.log" 2>&1 & PROM=$!
  q='{__name__=~"hp2x_band_bytes|hp2x_profile_bytes|hp2x_last_census_seconds"}'
  i=0; got=1
  while [ $i -lt 60 ]; do
    curl -s -m 2 "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$q" > "$T/q.json" 2> /dev/null
    if $CHECK prom "$T/q.json" "$T/m1.csv" > "$T/q.diff" 2>&1; then got=0; break; fi
    i=$((i + 1)); sleep 0.5
  done
  [ $got -eq 0 ] && ok || { fail "Prometheus's query is not the CSV's last row: $(head -3 "$T/q.diff")"; tail -5 "$T/prom.log"; }
  kill $PROM; wait $PROM 2> /dev/null
  serve_stop
else
  echo "SKIPPED: no prometheus (Debian's package; make deps installs it)"
fi
finish
