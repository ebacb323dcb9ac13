#!/usr/bin/env bash
# pprof profiles (-o NAME.pb.gz) in speedscope, in a real browser: Debian's
# chromium driven by playwright-core, speedscope's own page from npm (both
# pinned in tests/browser/package-lock.json; make deps installs them):
# real GHC 9.10 -hc and GHC 9.6 -hi runs and hostile labels (255 frames
# deep, not UTF-8, 5,000 bytes).  Each is read as pprof and listed in the
# sandwich view; speedscope's export of it spans exactly the census's total
# in the CSV, its frames keep their files and lines, and the page logs no
# error (tests/browser/speedscope_test.js).  Without node, playwright-core,
# speedscope or chromium: SKIPPED, and why.
. "$(dirname "$0")/lib.sh"
cd "$T"
if ! command -v node > /dev/null; then
  echo "SKIPPED: node is not installed (make deps)"; exit 0
elif [ ! -d "$TOP/tests/browser/node_modules/speedscope" ]; then
  echo "SKIPPED: speedscope is not installed (make deps)"; exit 0
fi
zcat "$TOP/tests/data/pprof/ghc-9.10.3/deepcc.hc.eventlog.gz" > hc.eventlog
cp "$TOP/tests/data/ghc-modern/ghc-9.6.6/leak.ipehi.eventlog" hi.eventlog
python3 "$TOP/tests/tools/hostile_eventlog.py" hostile.eventlog hostile.hp
echo 40 > hc.located; echo 3 > hi.located; echo 255 > hostile.located
for n in hc hi hostile; do
  "$HP2X" -q $n.eventlog -o $n.pb.gz && ok || fail "$n: hp2x failed"
  "$HP2X" -q -m0 -t0 $n.eventlog -o $n.csv
  # The peak census's total: the CSV's row of the largest total.
  python3 - $n.csv > $n.total <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding='latin-1')))[1:]
print(max(sum(int(v) for v in r[1:]) for r in rows))
PY
done
timeout 120 node "$TOP/tests/browser/speedscope_test.js" "$T" hc hi hostile > browser.txt 2>&1
status=$?
cat browser.txt
if [ $status -eq 3 ]; then
  echo "browser checks skipped (see above)"
else
  [ $status -eq 0 ] && ok || fail "speedscope checks (exit $status)"
fi
finish
