#!/usr/bin/env bash
# bench/serve_latency.sh HP2X -- the cost of serving (`make bench-serve`,
# part of `make bench`): the four real recorded streams of
# tests/data/socket (GHC 9.6.6 and 9.10.3, joined mid-run; 257 censuses
# in all) are replayed, one hp2x --watch run each, over a Unix socket,
# census by census every SERVE_PACE_MS (default 150) ms, into
# `hp2x --watch --interval=0.1 unix:PATH`, under five configurations: no
# --serve (-o out.html: the same page, written to a file), --serve with no
# client, with 40 plain SSE clients, 1 live page, 10 pages, 10 pages and
# 40 plain SSE clients
# (bench/serve_latency.js; pages in Debian's chromium through
# playwright-core).  Prints two Markdown tables: latency from a census's
# last byte on the socket to a client showing it (the status line's count;
# the page's report drawing it), p50, p99 and max; and the watch's CPU time
# per census, with ratios to no --serve; then, for the page runs, the
# slowest censuses and their causes (bench/serve_latency_causes.py: each
# page's fetches of / again by reason and how long each took, its long
# tasks; the censuses by their number in the stream; each stream's first
# censuses, with the page's load and warm-up).
# A page's census counts as shown at the page's own stamp, once the frame
# showing it is made (tests/browser/live_observer.js); the pages
# keep what they saw and are asked every 250 ms (SERVE_OBSERVE=binding:
# each change called into node at once, as before 12.5c, whose round trips
# through the browser process cost the pages measured a share of the
# cores).  SERVE_KEEP=DIR keeps each configuration's JSON there.  Exits 1
# when a run fails or a client misses a census.
set -euo pipefail
hp2x=$1
top=$(cd "$(dirname "$0")/.." && pwd)
case $hp2x in /*) ;; *) hp2x=$top/$hp2x ;; esac
PACE=${SERVE_PACE_MS:-150}
export HP2X_FONTS_CONF=$top/fonts/fonts.conf SOURCE_DATE_EPOCH=1700000000 LC_ALL=C.UTF-8
if [ ! -d "$top/tests/browser/node_modules/playwright-core" ] || ! command -v chromium > /dev/null; then
  echo "serve_latency: needs node, playwright-core and chromium (make deps)" >&2; exit 1
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/hp2x-serve-bench.XXXXXX")
trap '[ -z "${SERVE_KEEP:-}" ] || { mkdir -p "$SERVE_KEEP" && cp "$W"/*.out.json "$SERVE_KEEP"/ 2> /dev/null; }; rm -rf "$W"' EXIT
for v in ghc-9.6.6 ghc-9.10.3; do
  for s in 1 2; do zcat "$top/tests/data/socket/$v/longrun.hT.stream$s.eventlog.gz" > "$W/$v-s$s.eventlog"; done
done
# Where each census ends in each stream (tests/live/streamcheck.py walks them).
python3 - "$top/tests/live" "$W" "$W"/*.eventlog > "$W/streams.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import streamcheck
out = []
for f in sys.argv[3:]:
    s = streamcheck.parse_stream(open(f, "rb").read())
    assert not s.problem and s.census_ends, (f, s.problem)
    out.append({"file": f, "ends": s.census_ends})
json.dump(out, sys.stdout)
PY
# NAME:SERVE:PAGES:SSE; SERVE_CONFIGS picks some by name ("none" first:
# the ratios are to it).
configs=()
for c in none:0:0:0 serve:1:0:0 40sse:1:0:40 1page:1:1:0 10pages:1:10:0 10pages+40sse:1:10:40; do
  case " ${SERVE_CONFIGS:-${c%%:*}} " in *" ${c%%:*} "*) configs+=("$c") ;; esac
done
for c in "${configs[@]}"; do
  IFS=: read -r name serve pages sse <<< "$c"
  python3 -c 'import json, sys
a = sys.argv
json.dump({"hp2x": a[1], "dir": a[2], "streams": json.load(open(a[3])), "serve": a[4] == "1",
           "pages": int(a[5]), "sse": int(a[6]), "pace_ms": float(a[7]), "interval": 0.1,
           "out": a[8], "quiet": a[10] == "quiet"}, open(a[9], "w"))' \
    "$hp2x" "$W" "$W/streams.json" "$serve" "$pages" "$sse" "$PACE" "$W/$name.out.json" "$W/$name.cfg.json" \
    "${SERVE_OBSERVE:-quiet}"
  echo "serve_latency: $name" >&2
  node "$top/bench/serve_latency.js" "$W/$name.cfg.json"
done
CAUSES=$top/bench/serve_latency_causes.py python3 - "$W" "$PACE" "${configs[@]}" <<'PY'
import json, os, subprocess, sys
w, pace = sys.argv[1], sys.argv[2]
names = [c.split(":")[0] for c in sys.argv[3:]]
r = {n: json.load(open(os.path.join(w, n + ".out.json"))) for n in names}
def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")
print("## Serving: latency and cost (bench/serve_latency.sh)")
print()
print("%d censuses per configuration (4 recorded streams, one hp2x run each), one every %s ms;"
      " hp2x --watch --interval=0.1 unix:PATH. Latency: the census's last byte written to the"
      " socket -> the client showing it, in ms (one clock: node's performance.now())." %
      (r[names[0]]["censuses"], pace))
print()
print("| clients | shown as | samples | p50 ms | p99 ms | max ms |")
print("|---|---|---|---|---|---|")
for n in names:
    for kind, key in (("page status line", "page_status"), ("page report (census drawn)", "picture"),
                      ("plain SSE client's event", "sse_status")):
        xs = r[n][key]
        if xs:
            print("| %s | %s | %d | %.0f | %.0f | %.0f |" % (n, kind, len(xs), pct(xs, 50), pct(xs, 99), max(xs)))
print()
print("| watch | censuses | redraws | CPU ms | CPU ms / census | CPU share of the replay | ratio to %s |" % names[0])
print("|---|---|---|---|---|---|---|")
base = r[names[0]]["cpu_ms"] / r[names[0]]["censuses"]
for n in names:
    x = r[n]
    per = x["cpu_ms"] / x["censuses"]
    print("| %s | %d | %s | %.0f | %.1f | %.1f%% | %.2f |" % (
        n, x["censuses"], x["redraws"] if n != "none" else "-", x["cpu_ms"], per,
        100 * x["cpu_ms"] / x["wall_ms"], per / base))
print()
sys.stdout.flush()
subprocess.run([sys.executable, os.environ["CAUSES"]] + [os.path.join(w, n + ".out.json") for n in names], check=True)
bad = [m for n in names for m in r[n]["missed"]]
print()
print("Clients that missed a census: %s" % (", ".join(bad) if bad else "none"))
sys.exit(1 if bad else 0)
PY
