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
# Meanwhile, in a second browser, 7 pages of one profile share one event
# stream (tests/browser/live_share_test.js): all load the waiting page
# before the stream begins (the stream waits for them), then follow to the
# end, also after the page that followed /events for them has closed.
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
serve_start err --watch --interval=0.1 -m0 -t0 "unix:$T/app.sock" --serve=0 ||
  fail "no serving line: $(cat err)"
# In one browser, 7 pages of one profile sharing one event stream; in
# another, the live page (following at most 90 s: the stream waits for the
# 7 pages)
node "$B/live_share_test.js" "http://127.0.0.1:$PORT/" 7 share.json ready \
  > share.txt 2>&1 & SH=$!
node "$B/live_test.js" "http://127.0.0.1:$PORT/" live.json 90 > browser.txt 2>&1 & BR=$!
# the stream begins once the 7 pages are open (or their test gave up)
for _ in $(seq 300); do
  [ -e ready ] || ! kill -0 $SH 2> /dev/null && break
  sleep 0.1
done
python3 "$TOP/tests/tools/serve_stream.py" "unix:$T/app.sock" s1.eventlog \
  --after 0.5 --min 20000 --max 40000 --delay 0.25 --seed 11 & SS=$!
wait $BR; brc=$?
cat browser.txt
wait $SH; shrc=$?
cat share.txt
kill $SS 2> /dev/null; wait $SS
serve_stop
if [ $brc -eq 3 ]; then finish; exit; fi
[ $brc -eq 0 ] && ok || fail "the live page's checks"
[ $shrc -eq 0 ] && ok || fail "the shared pages' checks"
# the page was open before the stream began: it saw it connected
python3 -c 'import json, sys; sys.exit("connected" not in json.load(open("live.json"))["states"])' &&
  ok || fail "the page never showed the input connected"
# every census shown within 10 s of the status line counting it
python3 "$TOP/tests/tools/live_page_hp.py" live.json shown.hp --max-late 10 > late.txt &&
  ok || fail "$(cat late.txt)"
cat late.txt
python3 "$TOP/tests/tools/census_match.py" run.hp shown.hp --count 70 > match.txt 2>&1 &&
  ok || fail "censuses: $(cat match.txt)"
cat match.txt
finish
