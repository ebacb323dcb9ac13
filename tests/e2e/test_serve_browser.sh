#!/usr/bin/env bash
# The live page of --serve in a real browser (Debian's chromium through
# playwright-core, as test_report.sh): a real recorded stream
# (tests/data/socket, GHC 9.10.3, joined mid-run) is replayed into
# hp2x --watch over a Unix socket while the page is open
# (tests/browser/live_test.js).  The page follows without reloading; a
# hidden band and a time zoom survive every update; the status line goes
# from connected to closed.  Then: every census is shown within 10 s of the
# status announcing it, and the censuses the last page holds are the run's
# own .hp's, consecutive and in order (tests/tools/census_match.py).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
B=$TOP/tests/browser
if ! command -v node > /dev/null || [ ! -d "$B/node_modules/playwright-core" ]; then
  echo "SKIPPED: node or playwright-core missing (make deps installs them)"; exit 0
fi
if ! command -v chromium > /dev/null && [ -z "${HP2X_CHROMIUM:-}" ]; then
  echo "SKIPPED: no chromium (make deps installs it)"; exit 0
fi
cd "$T"
D=$TOP/tests/data/socket/ghc-9.10.3
zcat "$D/longrun.hT.stream1.eventlog.gz" > s1.eventlog
zcat "$D/longrun.hT.hp.gz" > run.hp
# -m0 -t0: every closure type a band of its own, so that the page's
# censuses are the run's.
python3 "$TOP/tests/tools/serve_stream.py" "unix:$T/app.sock" s1.eventlog \
  --after 2 --min 20000 --max 40000 --delay 0.25 --seed 11 & SS=$!
serve_start err --watch --interval=0.1 -m0 -t0 "unix:$T/app.sock" --serve=0 ||
  fail "no serving line: $(cat err)"
node "$B/live_test.js" "http://127.0.0.1:$PORT/" live.json > browser.txt 2>&1; brc=$?
cat browser.txt
wait $SS
serve_stop
if [ $brc -eq 3 ]; then finish; exit; fi
[ $brc -eq 0 ] && ok || fail "the live page's checks"
python3 "$TOP/tests/tools/live_page_hp.py" live.json shown.hp ||
  fail "the page's censuses as .hp"
python3 - live.json run.hp "$TOP/tests/tools/census_match.py" > match.txt <<'PY' && ok || fail "censuses: $(cat match.txt)"
import json, subprocess, sys
r = json.load(open(sys.argv[1]))
seen, status_at = r["seen"], r["statusAt"]
out = subprocess.run([sys.executable, sys.argv[3], sys.argv[2], "shown.hp",
                      "--count", "70"],
                     capture_output=True, text=True)
print(out.stdout.strip(), out.stderr.strip())
assert out.returncode == 0
# each census shown within 10 s of the status line counting it
counts = sorted((int(k), v) for k, v in status_at.items())
times = sorted(seen.values())
late = []
for n, when in counts:
    if n <= 0 or n > len(times):
        continue
    if times[n - 1] - when > 10:
        late.append((n, round(times[n - 1] - when, 1)))
print("late:", late)
assert not late
assert len(seen) >= 70, len(seen)
PY
cat match.txt
finish
