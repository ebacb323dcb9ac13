#!/usr/bin/env bash
# One moment and the zoomed time (the moment table, --summary --at, CSV
# --at; the report's moment table and its band table of a zoom), on real
# GHC 9.6.6 and 9.10.3 files (tests/data/ghc-modern): first without a
# browser, --summary --at and --at -o x.csv against the whole run's CSV
# row of the census nearest each time; then the reports in chromium
# (tests/browser/moment_test.js): a click shows that census as the CSV and
# --summary --at have it, a zoom shows --summary --from --to's table for
# the range the page states, the reset the whole run's; and a profile of
# more than 3,200 censuses, whose page says its tables come from the
# censuses it holds.  The page's number text against printf's on doubles
# of every kind (tests/browser/stats_test.js, node alone).  The usage
# errors are cases of tests/cli/cases.test; the live page's moment,
# test_serve_browser.sh.
. "$(dirname "$0")/lib.sh"
cd "$T"
M=$TOP/tests/data/ghc-modern
zcat "$M/ghc-9.6.6/mapwave.hc.eventlog.gz" > mapwave96.eventlog
zcat "$M/ghc-9.6.6/markers.hT.hp.gz" > markers96.hp
cp "$M/ghc-9.6.6/leak.ipehi.eventlog" leak96.eventlog
zcat "$M/ghc-9.10.3/mapwave.he.hp.gz" > mapwave910.hp
zcat "$M/ghc-9.10.3/leak.ipehT.eventlog.gz" > leak910.eventlog
cp "$M/ghc-9.10.3/markers.hc.eventlog" markers910.eventlog # corrupt as written

# --summary --at and --at -o x.csv: for censuses through each run (at
# their CSV times, and a third of the way to the next), the one-row CSV is
# the whole CSV's row of the census nearest, and the moment table's rows
# are that row's values, their shares of its total and their changes
# since the row before.
static_checks() { # INPUT OPTIONS...
  local in=$1
  shift
  "$HP2X" -q "$@" "$in" -o all.csv || { fail "$in: CSV"; return; }
  python3 - "$HP2X" "$in" "$@" << 'PY' || fail "$in: --summary --at or --at -o x.csv"
import csv, subprocess, sys
hp2x, inp, opts = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = list(csv.reader(open('all.csv', newline='')))
head, body = rows[0], rows[1:]
times = [float(r[0]) for r in body]
bad = []
picks = sorted({round(j * (len(body) - 1) / 7) for j in range(8)})
for i in picks:
    ats = [body[i][0]]
    if i + 1 < len(body):
        ats.append('%.9f' % (times[i] + (times[i + 1] - times[i]) / 3))
    for at in ats:
        out = subprocess.run([hp2x, '-q', *opts, inp, '--at=' + at, '-o', 'one.csv'],
                             capture_output=True, text=True)
        one = list(csv.reader(open('one.csv', newline=''))) if out.returncode == 0 else out.stderr
        if one != [head, body[i]]:
            bad.append(f'--at={at} -o x.csv: {one[1:]} is not the row of census {i}: {body[i]}')
        text = subprocess.run([hp2x, '-q', *opts, inp, '--summary', '--at=' + at],
                              capture_output=True, text=True, check=True).stdout
        lines = text.split('\n')
        if f'census at {body[i][0]} ' not in text or f'(sample {i} of {len(body)})' not in text:
            bad.append(f'--summary --at={at}: {lines[1]}, not census {i} at {body[i][0]}')
        h = next(n for n, l in enumerate(lines) if ' share ' in l and ' change ' in l)
        got = [l.split()[:3] for l in lines[h + 1:] if l.strip() and not l.startswith(' ' * 43)]
        vals = [int(v) for v in body[i][1:]]
        total = sum(vals)
        want = []
        for k, v in enumerate(vals):
            share = '%.1f%%' % (v * 100.0 / total) if total > 0 else '-'
            d = None if i == 0 else v - int(body[i - 1][1 + k])
            want.append([str(v), share, '-' if d is None else '%+d' % d if d else '0'])
        if got != want:
            bad.append(f'--summary --at={at}: rows {got[:3]}..., the CSV gives {want[:3]}...')
for b in bad[:5]:
    print(b)
sys.exit(1 if bad else 0)
PY
  ok
}
static_checks mapwave96.eventlog
static_checks markers96.hp -m0 -t0
static_checks leak96.eventlog -c
static_checks mapwave910.hp
static_checks leak910.eventlog -m0 -t0
static_checks markers910.eventlog -q

# With a window, the census is the window's and so is the table's "before"
# (sample numbers count from the window's first).
"$HP2X" -q --from 1.5 --to 2.5 --summary --at=1.5 mapwave910.hp > w.txt &&
  grep -q '(sample 0 of [0-9]*)' w.txt && grep -q 'the first census: no change' w.txt && ok ||
  fail "--from 1.5 --summary --at=1.5: $(sed -n 2,3p w.txt)"

# A profile of more than 3,200 censuses (4,000, three bands), whose page
# holds fewer.
python3 - << 'PY' > many.hp
print('JOB "many"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"')
for i in range(4000):
    t = '%.2f' % (i / 100)
    print(f'BEGIN_SAMPLE {t}\ngrow\t{1000 + 37 * i}\nwave\t{5000 + (i * 7919) % 3001}\nflat\t2000\nEND_SAMPLE {t}')
PY

# NAME INPUT JSON OPTIONS...: the report, its CSV, and what the browser
# test needs to run the binary on the same input and options.
make_report() {
  local name=$1 input=$2 spec=$3
  shift 3
  expect_status 0 "$name: report" -- "$HP2X" -q "$@" "$input" -o "$name.html"
  expect_status 0 "$name: CSV" -- "$HP2X" -q "$@" "$input" -o "$name.csv"
  python3 -c 'import json, sys; d = json.loads(sys.argv[1]); d["args"] = sys.argv[2:]; print(json.dumps(d))' \
    "$spec" "$@" "$T/$input" > "$name.json"
}
make_report mapwave96 mapwave96.eventlog '{"exact": true}' -m0 -t0
make_report markers96 markers96.hp '{}'
make_report leak96 leak96.eventlog '{"exact": true}' -c -m0 -t0
make_report mapwave910 mapwave910.hp '{}' -c
make_report leak910 leak910.eventlog '{}'
make_report markers910 markers910.eventlog '{"exact": true}' -m0 -t0
make_report many many.hp '{"held": true}' -c
# The exact times go where the CSV's are not: an eventlog's.
grep -q '"tx":\[' mapwave96.html && ok || fail "mapwave96.html: no exact times"
grep -q '"tx":\[' markers96.html && fail "markers96.html: exact times a .hp's CSV text has" || ok

B=$TOP/tests/browser
# The page's number text is printf's and band_stats.c's, digit for digit,
# on doubles of every kind (ties, huge, tiny, negative): node alone.
if command -v node > /dev/null; then
  python3 "$TOP/tests/tools/number_cases.py" > numbers.json &&
    node "$B/stats_test.js" numbers.json > numbers.txt 2>&1 && ok ||
    fail "the page's numbers: $(grep FAIL numbers.txt | head -5)"
  tail -1 numbers.txt
fi
if ! command -v node > /dev/null || [ ! -d "$B/node_modules/playwright-core" ]; then
  echo "SKIPPED: browser checks: node or playwright-core missing (make deps installs them)"
elif ! command -v chromium > /dev/null && [ -z "${HP2X_CHROMIUM:-}" ]; then
  echo "SKIPPED: browser checks: no chromium (make deps installs it)"
else
  start=$SECONDS
  timeout 300 node "$B/moment_test.js" "$HP2X" "$T" mapwave96 markers96 leak96 mapwave910 leak910 \
    markers910 many > browser.txt 2>&1
  status=$?
  cat browser.txt
  echo "browser checks: $((SECONDS - start)) s"
  [ "$status" -eq 0 ] || [ "$status" -eq 3 ] && ok || fail "browser checks (exit $status)"
fi
finish
