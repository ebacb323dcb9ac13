# shellcheck shell=bash disable=SC2154,SC2034  # top, W, say, bad, ...: soak.sh's
# soak_serve.sh -- the soak's served watch (sourced by tests/soak/soak.sh):
# a third `hp2x --watch --serve=0` follows the fed .hp (so it meets the .hp
# faults: pause, cut, replace, truncate; it writes no file, so a full disk
# does not touch it) for the whole soak, with SOAK_PAGES live pages
# (default 10, chromium) and SOAK_SSE plain SSE clients (default 40;
# tests/soak/serve_clients.js), and a real Prometheus (Debian's) scraping
# its /metrics every second (temporary configuration and storage).  At the
# end: its redraws, the scrapes Prometheus made and those answered (from
# its own `up` series), and every client that did not reach the server's
# last status and picture, by name.

SOAK_PAGES=${SOAK_PAGES:-10} SOAK_SSE=${SOAK_SSE:-40}

# serve_needs: says what the served watch needs and is missing; 1 then.
serve_needs() {
  local t
  for t in node chromium prometheus curl; do
    command -v $t > /dev/null || { say "needs $t (make deps)"; return 1; }
  done
  [ -d "$top/tests/browser/node_modules/playwright-core" ] ||
    { say "needs playwright-core (make deps: npm ci in tests/browser)"; return 1; }
}

# serve_begin: starts the served watch (W3, SPORT), Prometheus (PROM,
# PROM_PORT) and the clients (CLIENTS); waits for the clients' pages.
serve_begin() {
  local i=0
  mkdir -p "$W/serve"
  : > "$W/serve/redraws.log"
  "$HP2X" --watch --interval="$INTERVAL" "$W/w.hp" --serve=0 2> "$W/serve.err" & W3=$!; pids+=("$W3")
  SPORT=
  while [ -z "$SPORT" ] && [ $i -lt 200 ]; do
    SPORT=$(sed -n 's|^hp2x: serving http://.*:\([0-9][0-9]*\)/$|\1|p' "$W/serve.err")
    i=$((i + 1)); sleep 0.05
  done
  [ -n "$SPORT" ] || { say "the served watch did not start: $(head -3 "$W/serve.err")"; exit 1; }
  PROM_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: hp2x\n    static_configs:\n      - targets: ["127.0.0.1:%s"]\n' \
    "$SPORT" > "$W/serve/prom.yml"
  prometheus --config.file="$W/serve/prom.yml" --storage.tsdb.path="$W/serve/tsdb" \
    --web.listen-address="127.0.0.1:$PROM_PORT" > "$W/serve/prom.log" 2>&1 & PROM=$!; pids+=("$PROM")
  prom_start_ms=$(now_ms)
  node "$top/tests/soak/serve_clients.js" "$SPORT" "$SOAK_PAGES" "$SOAK_SSE" "$W/serve" \
    > "$W/serve/clients.out" 2>&1 & CLIENTS=$!; pids+=("$CLIENTS")
  i=0
  while [ ! -e "$W/serve/clients.ready" ] && [ $i -lt 1200 ]; do
    kill -0 "$CLIENTS" 2> /dev/null || break
    i=$((i + 1)); sleep 0.1
  done
  [ -e "$W/serve/clients.ready" ] ||
    { say "the clients did not start: $(tail -3 "$W/serve/clients.out")"; exit 1; }
}

# serve_status: the served watch's status now (the JSON of the first event
# a fresh /events client gets), or nothing.
serve_status() {
  curl -s -N -m 2 "http://127.0.0.1:$SPORT/events" 2> /dev/null | sed -n 's/^data: //p' | head -1
}

# serve_end: waits (up to 60 s) for the served watch to hold every census
# of the final .hp, hands its last status to the clients and waits for
# their verdict, asks Prometheus, stops the served watch (SIGTERM).  Sets
# the serve_* figures and bad=1 on a failure.
serve_end() {
  local want st i=0 d
  want=$(grep -c '^END_SAMPLE' "$W/w.hp")
  st=
  while [ $i -lt 300 ]; do
    running "$W3" || break
    st=$(serve_status)
    [ "$(printf '%s' "$st" | sed -n 's/.*"censuses":\([0-9]*\).*/\1/p')" = "$want" ] && break
    i=$((i + 1)); sleep 0.2
  done
  sleep 2; st=$(serve_status) # a redraw that was on its way
  serve_final=${st:-none}
  serve_caught=$( [ "$(printf '%s' "$st" | sed -n 's/.*"censuses":\([0-9]*\).*/\1/p')" = "$want" ] && echo yes || echo "NO (the .hp has $want)")
  [ "$serve_caught" = yes ] || bad=1
  [ -n "$st" ] || st='{}'
  printf '%s\n' "$st" > "$W/serve/final.json.tmp" && mv "$W/serve/final.json.tmp" "$W/serve/final.json"
  wait "$CLIENTS"; serve_clients_rc=$?
  [ $serve_clients_rc = 0 ] || bad=1
  d=$(( ($(now_ms) - prom_start_ms) / 1000 + 5 ))
  prom_at=$(date +%s) # every query over the same window, or a scrape
                      # landing between two makes them disagree
  serve_scrapes=$(prom_query "count_over_time(up{job=\"hp2x\"}[${d}s])")
  serve_answered=$(prom_query "sum_over_time(up{job=\"hp2x\"}[${d}s])")
  serve_samples=$(prom_query "max_over_time(scrape_samples_scraped{job=\"hp2x\"}[${d}s])")
  [ "$serve_scrapes" != "-" ] && [ "$serve_scrapes" = "$serve_answered" ] || bad=1
  kill "$PROM" 2> /dev/null; wait "$PROM" 2> /dev/null
  stop_watcher "$W3" TERM served || bad=1
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
  python3 - "$W/serve/clients.json" "$serve_final" "$SOAK_PAGES" "$SOAK_SSE" <<'PY'
import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception:
    r = {"clients": [], "stopped": ["(no report from the clients)"], "errors": []}
final = json.loads(sys.argv[2]) if sys.argv[2].startswith("{") else {}
pages = [c for c in r["clients"] if c["name"].startswith("page")]
sse = [c for c in r["clients"] if c["name"].startswith("sse")]
print("| served watch (.hp, --serve, no -o): redraws (pictures published), censuses at the end | %s, %s |"
      % (final.get("picture", "-"), final.get("censuses", "-")))
print("| clients: %s pages (chromium), %s plain SSE | page loads %s, SSE reconnects %s, events seen %s |"
      % (sys.argv[3], sys.argv[4], sum(c.get("loads", 0) for c in pages),
         sum(c.get("reconnects") or 0 for c in sse), sum(c["events"] for c in r["clients"])))
print("| clients that stopped following | %s |" % ("; ".join(r["stopped"]) or "none"))
if r.get("errors"):
    print("| page errors | %s |" % "; ".join(r["errors"][:5]))
PY
  echo "| Prometheus scrapes every 1 s: made / answered (up = 1), samples per scrape (max) | $serve_scrapes / $serve_answered, $serve_samples |"
}
