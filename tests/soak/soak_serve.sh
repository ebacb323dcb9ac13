# shellcheck shell=bash disable=SC2154,SC2034  # top, W, say, bad, ...: soak.sh's
# soak_serve.sh -- the soak's served watch (sourced by tests/soak/soak.sh):
# `hp2x --watch --interval=SOAK_SERVE_INTERVAL (default 1, hp2x's own)
# unix:SOCK --tee=FILE --serve=0` follows a service
# (tests/soak/census_gen.py: real GHC 9.10.3 census blocks, SOAK_RATE a
# second, default 30, so the profile passes the 21,600 censuses where
# thinning starts after 12 minutes) for the whole soak, with SOAK_PAGES
# live pages (default 10, chromium) and SOAK_SSE plain SSE clients
# (default 40; tests/soak/serve_clients.js), a real Prometheus (Debian's)
# scraping /metrics every SOAK_SCRAPE s (default 5; temporary
# configuration and storage) and the real `go tool pprof` fetching
# /debug/pprof/heap every SOAK_PPROF s (default 60).  Its faults: the
# service comes up SOAK_LATE s after the watch (default 3: "not up yet"
# said once), the writer paused with the program's (soak.sh), a census in
# four split inside an event.  Its RSS every SOAK_RSS_EVERY s (default 60,
# less in short runs).  At the end: the service stops (the data-end
# marker), the pictures served equal the one-shot render of the --tee
# file, which is the bytes the service sent; every client saw every
# census (serve_clients.js, coverage.js); Prometheus answered every
# scrape (its own `up`); every pprof fetch read; the RSS grew less than
# 5 % over the last 40 minutes of the hour (the last 2/3 of the run).

SOAK_PAGES=${SOAK_PAGES:-10} SOAK_SSE=${SOAK_SSE:-40}
SOAK_RATE=${SOAK_RATE:-30} SOAK_SCRAPE=${SOAK_SCRAPE:-5} SOAK_PPROF=${SOAK_PPROF:-60}
SOAK_LATE=${SOAK_LATE:-3} SOAK_SERVE_INTERVAL=${SOAK_SERVE_INTERVAL:-1}
SOAK_THIN_AT=21600 # censuses held when thinning starts (src/model's bound)
rss_every=$((SOAK_SECONDS / 20)); [ $rss_every -ge 10 ] || rss_every=10; [ $rss_every -le 60 ] || rss_every=60
SOAK_RSS_EVERY=${SOAK_RSS_EVERY:-$rss_every}
SOAK_EVENTLOG=${SOAK_EVENTLOG:-$top/tests/data/live/ghc9.10.3-longrun.from-start.eventlog}

# serve_needs: says what the served watch needs and is missing; 1 then.
serve_needs() {
  local t
  for t in node chromium prometheus curl go python3; do
    command -v $t > /dev/null || { say "needs $t (make deps)"; return 1; }
  done
  [ -d "$top/tests/browser/node_modules/playwright-core" ] ||
    { say "needs playwright-core (make deps: npm ci in tests/browser)"; return 1; }
  go tool pprof -h > /dev/null 2>&1 || { say "needs go tool pprof (golang-go)"; return 1; }
}

# serve_begin: starts the service (GEN), the served watch (W3, SPORT),
# Prometheus (PROM, PROM_PORT), the pprof and RSS loops (PPROF_LOOP,
# RSS_LOOP) and the clients (CLIENTS); waits for the clients' pages.
serve_begin() {
  local i=0 S=$W/serve
  mkdir -p "$S/pprof"
  : > "$S/redraws.log"; : > "$S/pprof.log"; : > "$S/rss.log"; : > "$S/gen.log"
  python3 "$top/tests/soak/census_gen.py" "$S/app.sock" "$SOAK_EVENTLOG" "$SOAK_RATE" \
    "$S/gen.log" --after "$SOAK_LATE" & GEN=$!; pids+=("$GEN")
  env --default-signal=INT,HUP,TERM "$HP2X" --watch --interval="$SOAK_SERVE_INTERVAL" \
    "unix:$S/app.sock" --tee="$S/tee.eventlog" --serve=0 2> "$W/serve.err" & W3=$!; pids+=("$W3")
  SPORT=
  while [ -z "$SPORT" ] && [ $i -lt 200 ]; do
    SPORT=$(sed -n 's|^hp2x: serving http://.*:\([0-9][0-9]*\)/$|\1|p' "$W/serve.err" 2> /dev/null)
    i=$((i + 1)); sleep 0.05
  done
  [ -n "$SPORT" ] || { say "the served watch did not start: $(head -3 "$W/serve.err")"; exit 1; }
  PROM_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf 'global:\n  scrape_interval: %ss\n  scrape_timeout: %ss\nscrape_configs:\n  - job_name: hp2x\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
    "$SOAK_SCRAPE" "$SOAK_SCRAPE" "$SPORT" > "$S/prom.yml"
  prometheus --config.file="$S/prom.yml" --storage.tsdb.path="$S/tsdb" \
    --web.listen-address="127.0.0.1:$PROM_PORT" > "$S/prom.log" 2>&1 & PROM=$!; pids+=("$PROM")
  prom_start_ms=$(now_ms)
  pprof_loop & PPROF_LOOP=$!; pids+=("$PPROF_LOOP")
  rss_loop & RSS_LOOP=$!; pids+=("$RSS_LOOP")
  node "$top/tests/soak/serve_clients.js" "$SPORT" "$SOAK_PAGES" "$SOAK_SSE" "$S" \
    > "$S/clients.out" 2>&1 & CLIENTS=$!; pids+=("$CLIENTS")
  i=0
  while [ ! -e "$S/clients.ready" ] && [ $i -lt 1200 ]; do
    kill -0 "$CLIENTS" 2> /dev/null || break
    i=$((i + 1)); sleep 0.1
  done
  [ -e "$S/clients.ready" ] ||
    { say "the clients did not start: $(tail -3 "$S/clients.out")"; exit 1; }
  # The service's late start is a fault: said once, then followed.
  i=0
  while ! grep -q ': connected$' "$W/serve.err" && [ $i -lt 600 ]; do i=$((i + 1)); sleep 0.1; done
  serve_up_ms=$(now_ms)
}

# serve_faults: the served watch's faults so far, into the fault log
# (soak.sh's fault_done, once it is there): the service's late start.
serve_faults() {
  faults=$((faults + 1))
  echo "$serve_up_ms served service up ${SOAK_LATE} s after the watch (not up yet, then connected)" >> "$fault_log"
}

# pprof_loop: go tool pprof reads /debug/pprof/heap every SOAK_PPROF s;
# pprof.log: "ms exit-status samples" a fetch.
pprof_loop() {
  local n=0 rc
  while sleep "$SOAK_PPROF"; do
    n=$((n + 1))
    HOME="$W/serve/pprof" PPROF_TMPDIR="$W/serve/pprof" timeout 60 go tool pprof -raw \
      "http://127.0.0.1:$SPORT/debug/pprof/heap" > "$W/serve/pprof/last.raw" 2> "$W/serve/pprof/last.err"
    rc=$?
    echo "$(now_ms) $rc $(grep -c '^ *[0-9].*: ' "$W/serve/pprof/last.raw")" >> "$W/serve/pprof.log"
    [ $rc = 0 ] || cp "$W/serve/pprof/last.err" "$W/serve/pprof/failed.$n.err"
  done
}

# rss_loop: the served watch's RSS (KiB) every SOAK_RSS_EVERY s, and the
# censuses the service had sent then: rss.log "ms rss censuses".
rss_loop() {
  local r
  while :; do
    r=$(awk '/^VmRSS/ {print $2}' "/proc/$W3/status" 2> /dev/null)
    echo "$(now_ms) ${r:--} $(gen_censuses)" >> "$W/serve/rss.log"
    sleep "$SOAK_RSS_EVERY"
  done
}

# gen_censuses: the censuses the service had sent at its last report.
gen_censuses() { awk '/^censuses/ {n = $2} END {print n + 0}' "$W/serve/gen.log"; }

# serve_status: the served watch's status now (the JSON of the first event
# a fresh /events client gets), or nothing.
serve_status() {
  curl -s -N -m 2 "http://127.0.0.1:$SPORT/events" 2> /dev/null | sed -n 's/^data: //p' | head -1
}
json_field() { printf '%s' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([0-9a-z]*\).*/\1/p"; }

# serve_end: stops the service (SIGTERM: its last census, the data-end
# marker), waits (up to 60 s) for the served watch to hold every census
# and say the input closed, compares the pictures it serves with the
# one-shot render of its --tee file, hands its last status to the clients
# and waits for their verdict, asks Prometheus, stops the served watch
# (SIGTERM).  Sets the serve_* figures and bad=1 on a failure.
serve_end() {
  local st i=0 f S=$W/serve
  kill "$PPROF_LOOP" "$RSS_LOOP" 2> /dev/null
  kill -CONT "$GEN" 2> /dev/null; kill -TERM "$GEN" 2> /dev/null; wait "$GEN"
  serve_written=$(gen_censuses)
  st=
  while [ $i -lt 300 ]; do
    running "$W3" || break
    st=$(serve_status)
    [ "$(json_field "$st" censuses)" = "$serve_written" ] && [ "$(json_field "$st" input)" = closed ] && break
    i=$((i + 1)); sleep 0.2
  done
  serve_final=${st:-none}
  serve_caught=$([ "$(json_field "$st" censuses)" = "$serve_written" ] && echo yes ||
    echo "NO (it has $(json_field "$st" censuses), the service sent $serve_written)")
  [ "$serve_caught" = yes ] || bad=1
  # The --tee file is the bytes sent; the pictures served are its render.
  [ "$(sha256sum < "$S/tee.eventlog" | cut -d' ' -f1)" = "$(awk '/^sha256/ {print $2}' "$S/gen.log")" ] &&
    serve_tee="the bytes sent ($(stat -c %s "$S/tee.eventlog") bytes)" ||
    { serve_tee="NOT the bytes sent"; bad=1; }
  serve_same=
  for f in svg pdf png; do
    "$HP2X" -q "$S/tee.eventlog" -o "$S/oneshot.$f"
    curl -s -m 60 -o "$S/served.$f" "http://127.0.0.1:$SPORT/picture.$f"
    if cmp -s "$S/oneshot.$f" "$S/served.$f"; then serve_same="$serve_same $f yes,"
    else serve_same="$serve_same $f NO,"; bad=1; fi
  done
  serve_same=${serve_same%,}
  [ -n "$st" ] || st='{}'
  printf '%s\n' "$st" > "$S/final.json.tmp" && mv "$S/final.json.tmp" "$S/final.json"
  wait "$CLIENTS"; serve_clients_rc=$?
  [ $serve_clients_rc = 0 ] || bad=1
  d=$(( ($(now_ms) - prom_start_ms) / 1000 + 5 ))
  prom_at=$(date +%s) # every query over the same window, or a scrape
                      # landing between two makes them disagree
  serve_scrapes=$(prom_query "count_over_time(up{job=\"hp2x\"}[${d}s])")
  serve_answered=$(prom_query "sum_over_time(up{job=\"hp2x\"}[${d}s])")
  serve_samples=$(prom_query "max_over_time(scrape_samples_scraped{job=\"hp2x\"}[${d}s])")
  serve_scrape_max=$(prom_query "max_over_time(scrape_duration_seconds{job=\"hp2x\"}[${d}s])")
  serve_prom_censuses=$(prom_query "max_over_time(hp2x_censuses_total{job=\"hp2x\"}[${d}s])")
  serve_expected=$(( (d - 5) / SOAK_SCRAPE ))
  # made = answered, and at least 90 % of the scrapes the interval asks for
  [ "$serve_scrapes" != "-" ] && [ "$serve_scrapes" = "$serve_answered" ] &&
    [ $((serve_scrapes * 10)) -ge $((serve_expected * 9)) ] && serve_scrape_ok=yes ||
    { serve_scrape_ok=NO; bad=1; }
  kill "$PROM" 2> /dev/null; wait "$PROM" 2> /dev/null
  stop_watcher "$W3" TERM served || bad=1
  serve_checks
}

# serve_checks: pprof's fetches and the RSS criterion; bad=1 on a failure.
serve_checks() {
  read -r pprof_made pprof_ok < <(awk '{n++; if ($2 == 0 && $3 > 0) k++} END {print n + 0, k + 0}' "$W/serve/pprof.log")
  [ "$pprof_made" -gt 0 ] && [ "$pprof_made" = "$pprof_ok" ] || bad=1
  # The window: the last 40 minutes of the hour, the last 2/3 of a run.
  serve_rss=$(awk -v s="$start_ms" -v d="$SOAK_SECONDS" -v thin="$SOAK_THIN_AT" '
    $2 != "-" { t = ($1 - s) / 1000; n++; T[n] = t; R[n] = $2; C[n] = $3 }
    END {
      w = d / 3
      for (i = 1; i <= n; i++) if (T[i] >= w) { if (!a) a = i; b = i; if (R[i] > m) m = R[i] }
      for (i = 1; i <= n; i++) if (C[i] >= thin) { th = T[i]; break }
      if (!a || a == b) { print "NO - too few samples in the window"; exit }
      g = (R[b] - R[a]) * 100 / R[a]; gm = (m - R[a]) * 100 / R[a]
      printf "%s %.2f %.2f %.1f %.1f %.1f %d %d %s\n", (g < 5 && gm < 5) ? "yes" : "NO", g, gm,
        R[a] / 1024, R[b] / 1024, m / 1024, T[a], T[b], th == "" ? "-" : sprintf("%d", th) }' \
    "$W/serve/rss.log")
  case $serve_rss in yes*) ;; *) bad=1 ;; esac
}

# prom_query EXPR: the value of an instant query's one result at prom_at
# (seconds since the epoch; now when unset), or "-".
prom_query() {
  curl -s -m 5 "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" \
    ${prom_at:+--data-urlencode "time=$prom_at"} 2> /dev/null |
    python3 -c 'import json, sys
try: print(json.load(sys.stdin)["data"]["result"][0]["value"][1])
except Exception: print("-")'
}

# serve_table: the served watch's rows of the soak's table.
serve_table() {
  local g gm r0 r1 rm t0 t1 th ok
  echo "| service: census_gen.py, real GHC 9.10.3 census blocks | $SOAK_RATE a second asked; $serve_written sent; thinning's $SOAK_THIN_AT reached at $(echo "$serve_rss" | awk '{print $9}') s |"
  echo "| served watch (unix: socket, --tee, --serve, --interval=$SOAK_SERVE_INTERVAL): censuses at the end, pictures published | $(json_field "$serve_final" censuses), $(json_field "$serve_final" picture); every census: $serve_caught |"
  echo "| served watch RSS every $SOAK_RSS_EVERY s, MiB | $(awk -v s="$start_ms" '$2 != "-" {printf "%s%ds: %.1f", sep, ($1 - s) / 1000, $2 / 1024; sep = ", "}' "$W/serve/rss.log") |"
  read -r ok g gm r0 r1 rm t0 t1 th <<< "$serve_rss"
  echo "| served watch RSS growth over the window ${t0}..${t1} s (< 5 %) | $ok: $r0 -> $r1 MiB ($g %), max $rm MiB ($gm %) |"
  python3 - "$W/serve/clients.json" "$serve_final" "$SOAK_PAGES" "$SOAK_SSE" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception:
    r = {"clients": [], "stopped": ["(no report from the clients)"], "errors": []}
final = json.loads(sys.argv[2]) if sys.argv[2].startswith("{") else {}
n = final.get("censuses", "-")
pages = [c for c in r["clients"] if c["name"].startswith("page")]
sse = [c for c in r["clients"] if c["name"].startswith("sse")]
def row(what, cs):
    if not cs:
        return
    print("| %s: every census, by count (missed; updates; carrying censuses; loads, fetches of / and why; census shown) | %s |"
          % (what, "; ".join("%s %s%s, %d, %d, %s, %s%s, %s%s" % (
              c["name"], c.get("missing", "?"), c.get("gaps", ""), c.get("updates", 0),
              c.get("carrying", 0), c.get("loads", c.get("reconnects", "-")), c.get("fetches", 0),
              " (%s)" % " ".join("%s %s" % kv for kv in c["why"].items()) if c.get("why") else "",
              c.get("shown", "-"), ", HIDDEN" if c.get("hidden") else "") for c in cs[:10])))
print("| clients: %s pages (chromium), %s plain SSE | page loads %s, SSE reconnects %s, events seen %s |"
      % (sys.argv[3], sys.argv[4], sum(c.get("loads", 0) for c in pages),
         sum(c.get("reconnects") or 0 for c in sse), sum(c["events"] for c in r["clients"])))
row("pages", pages)
row("SSE (first 3)", sse[:3])
print("| SSE clients (plain: no catch-up) that missed censuses beyond an update's tail | %d of %d, %d censuses at most |"
      % (sum(1 for c in sse if c.get("missing")), len(sse), max([c.get("missing", 0) for c in sse] or [0])))
print("| clients that stopped following | %s |" % ("; ".join(r["stopped"]) or "none"))
if r.get("errors"):
    print("| page errors | %s |" % "; ".join(r["errors"][:5]))
PY
  echo "| Prometheus scrapes every $SOAK_SCRAPE s: made / answered (up = 1) / the interval's | $serve_scrapes / $serve_answered / $serve_expected: $serve_scrape_ok; samples per scrape (max) $serve_samples, slowest ${serve_scrape_max} s, hp2x_censuses_total max $serve_prom_censuses |"
  echo "| go tool pprof -raw /debug/pprof/heap every $SOAK_PPROF s: made / read | $pprof_made / $pprof_ok |"
  echo "| --tee file | $serve_tee |"
  echo "| pictures served = one-shot render of the --tee file (byte for byte) |$serve_same |"
}
