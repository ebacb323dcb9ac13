#!/usr/bin/env bash
# Time windows (--from/--to, --from-marker/--to-marker) cut the samples
# before the band selection; --x=index puts sample numbers on the x axis.
. "$(dirname "$0")/lib.sh"
cd "$T"
E=$TOP/samples/profiles/markers.hc.eventlog
L=$TOP/samples/profiles/leak.hc.hp
times() { tail -n +2 "$1" | cut -d, -f1; }
row_sums() { tail -n +2 "$1" | awk -F, '{ s = 0; for (i = 2; i <= NF; i++) s += $i; print $1, s }'; }

# --from/--to: exactly the samples with from <= t <= to, totals unchanged.
"$HP2X" -m0 -t0 "$L" -o all.csv && "$HP2X" -m0 -t0 --from 0.5 --to 1 "$L" -o win.csv ||
  fail "window runs"
want=$(times all.csv | awk '$1 >= 0.5 && $1 <= 1' | wc -l)
[ "$want" -ge 3 ] && [ "$(times win.csv | wc -l)" -eq "$want" ] && ok ||
  fail "--from 0.5 --to 1: $(times win.csv | wc -l) samples, wanted $want"
times win.csv | awk '$1 < 0.5 || $1 > 1 { bad = 1 } END { exit bad }' && ok ||
  fail "a sample outside [0.5, 1] s"
cmp -s <(row_sums all.csv | awk '$1 >= 0.5 && $1 <= 1') <(row_sums win.csv) && ok ||
  fail "window changed the samples' totals"
# Only --from, only --to.
[ "$("$HP2X" --from 0.8 "$L" -o - --format=csv | tail -n +2 | wc -l)" -eq \
  "$(times all.csv | awk '$1 >= 0.8' | wc -l)" ] && ok || fail "--from alone"
[ "$("$HP2X" --to 0.3 "$L" -o - --format=csv | tail -n +2 | wc -l)" -eq \
  "$(times all.csv | awk '$1 <= 0.3' | wc -l)" ] && ok || fail "--to alone"

# Bands are selected within the window: a label that only lives before it
# is not a band, and one that is trace over the whole run can be a band.
cat > two.hp <<'EOF'
JOB "two"
DATE "today"
SAMPLE_UNIT "seconds"
VALUE_UNIT "bytes"
BEGIN_SAMPLE 0.0
early	1000000
END_SAMPLE 0.0
BEGIN_SAMPLE 1.0
early	1000000
late	1000
END_SAMPLE 1.0
BEGIN_SAMPLE 2.0
late	2000
END_SAMPLE 2.0
BEGIN_SAMPLE 3.0
late	3000
END_SAMPLE 3.0
EOF
"$HP2X" two.hp -o - --format=csv | head -1 | tr -d '\r' > h1.txt
[ "$(cat h1.txt)" = "time,early" ] && ok || fail "whole run: $(cat h1.txt)"
"$HP2X" two.hp --from 1.5 -o - --format=csv | head -1 | tr -d '\r' > h2.txt
[ "$(cat h2.txt)" = "time,late" ] && ok || fail "--from 1.5: $(cat h2.txt)"
# The picture's x axis starts at the window.
"$HP2X" two.hp --from 2 -o w.pdf && pdftotext w.pdf - | grep -qx '2.0' && ok ||
  fail "window's picture has no 2.0 tick"

# Markers: the window between two markers ends before the next one starts.
"$HP2X" "$E" -o eall.csv
"$HP2X" "$E" --from-marker 'phase 1: steady growth' --to-marker 'phase 2: heap sampling paused' -o w12.csv &&
"$HP2X" "$E" --from-marker 'phase 2: heap sampling paused' -o w2.csv || fail "marker windows"
n12=$(times w12.csv | wc -l) nall=$(times eall.csv | wc -l)
[ "$n12" -ge 2 ] && [ "$n12" -lt "$nall" ] && ok || fail "marker window: $n12 of $nall samples"
last12=$(times w12.csv | tail -1) first2=$(times w2.csv | head -1)
awk -v a="$last12" -v b="$first2" 'BEGIN { exit !(a < b) }' && ok ||
  fail "phase 1..2 ends at $last12, phase 2.. starts at $first2"
# The samples kept are a run of the whole profile's, unchanged.
cmp -s <(row_sums w12.csv) <(row_sums eall.csv | grep -A$((n12 - 1)) -F "$(times w12.csv | head -1) ") && ok ||
  fail "marker window's samples differ from the profile's"

# --x=index: the same samples, numbered; x legend "sample".
"$HP2X" -m0 "$L" -o t.csv && "$HP2X" -m0 --x=index "$L" -o i.csv || fail "--x=index runs"
n=$(times t.csv | wc -l)
cmp -s <(times i.csv | awk '{ printf "%d\n", $1 }') <(seq 0 $((n - 1))) && ok ||
  fail "--x=index: times are not 0..$((n - 1))"
cmp -s <(cut -d, -f2- t.csv) <(cut -d, -f2- i.csv) && ok || fail "--x=index changed values"
"$HP2X" --x=index "$L" -o i.pdf && pdftotext i.pdf - | grep -qx 'sample' && ok ||
  fail "--x=index picture lacks the 'sample' legend"
"$HP2X" --x=index --from 0.5 --to 1 "$L" -o iw.csv &&
  [ "$(times iw.csv | head -1)" = "0.000000" ] && [ "$(times iw.csv | wc -l)" -eq "$want" ] && ok ||
  fail "--x=index after a window"
# Several inputs: each windowed.
"$HP2X" --from 0.5 --to 1 "$L" "$TOP/samples/profiles/leak.hy.hp" -o two.csv &&
  tail -n +2 two.csv | cut -d, -f2 | awk '$1 < 0.5 || $1 > 1 { bad = 1 } END { exit bad }' &&
  ok || fail "two inputs windowed"

# Errors (bad values are usage errors, 2; a missing marker or an empty
# window bad input, 1; nothing is written) are cases of tests/cli/cases.test.
finish
