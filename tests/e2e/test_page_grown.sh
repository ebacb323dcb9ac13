#!/usr/bin/env bash
# A live page draws each census it appends at the cost of what the census
# adds (src/write/report_bands.js: the pieces of the censuses drawn before
# kept, the band layer scaled while the axes move a little), and that
# drawing is the one a drawing from nothing gives: reports of real GHC
# profiles in Debian's chromium, their newest third appended back census
# by census (tests/browser/grown_test.js), in each chart kind, with a band
# hidden, zoomed, with the y axis growing, and with a percent chart's gaps.
. "$(dirname "$0")/lib.sh"
cd "$T"
P=$TOP/samples/profiles
if ! command -v node > /dev/null; then
  echo "SKIPPED: node is not installed (make deps)"; exit 0
elif [ ! -d "$TOP/tests/browser/node_modules/playwright-core" ]; then
  echo "SKIPPED: playwright-core is not installed (make deps)"; exit 0
elif [ ! -x "${HP2X_CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "SKIPPED: chromium is not installed (make deps)"; exit 0
fi
# NAME INPUT OPTIONS...: the report and its PNG at 96 dpi.
make_report() {
  local name=$1 input=$2
  shift 2
  expect_status 0 "$name: report" -- "$HP2X" -q "$@" "$input" -o "$name.html"
  expect_status 0 "$name: PNG" -- "$HP2X" -q "$@" --dpi=96 "$input" -o "$name.png"
}
make_report leak "$P/leak.hT.hp"
make_report manycc "$P/manycc.hT.hp" -m0 -t0
make_report longrun "$P/longrun.hT.hp"
# bands that are 0 for a while: a percent chart's census of total 0 is a gap
{
  printf 'JOB "gaps"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
  for i in $(seq 0 59); do
    printf 'BEGIN_SAMPLE %d.0\n' "$i"
    if [ $((i % 13)) -ge 4 ]; then
      printf 'a\t%d\nb\t%d\nc\t%d\n' $((1000 + 37 * i)) $((500 + (i * 71) % 400)) $((200 * (i % 7)))
    fi
    printf 'END_SAMPLE %d.0\n' "$i"
  done
} > gaps.hp
make_report gaps gaps.hp
start=$SECONDS
status=0
timeout 600 node "$TOP/tests/browser/grown_test.js" "$T" leak leak:percent leak:streamgraph:ygrow \
  leak:lines leak:stacked:hide leak:stacked:zoom manycc longrun gaps:percent > browser.txt 2>&1 || status=$?
cat browser.txt
echo "browser checks: $((SECONDS - start)) s"
if [ "$status" -eq 3 ]; then
  echo "SKIPPED: $(grep SKIPPED browser.txt)"
else
  [ "$status" -eq 0 ] && ok || fail "browser checks (exit $status)"
fi
finish
