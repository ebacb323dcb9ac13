#!/usr/bin/env bash
# --heap: the eventlog's heap size and live bytes (and blocks size when
# recorded) as lines over the bands, on the same y axis (which grows to
# hold them), each with a key entry; nothing for .hp input, with a warning.
. "$(dirname "$0")/lib.sh"
cd "$T"
E=$TOP/samples/profiles/markers.hc.eventlog
top_tick() { pdftotext "$1" - | grep -E '^[0-9,]+[kM]?$' | grep -E '[kM]$' |
  awk '{ v = $0; m = v ~ /M$/ ? 1e6 : 1e3; gsub(/[kM,]/, "", v); if (v * m > t) t = v * m } END { print t + 0 }'; }

"$HP2X" -c --heap "$E" -o h.pdf && "$HP2X" -c "$E" -o n.pdf || fail "renders"
pdftotext h.pdf h.txt
grep -qx 'heap size' h.txt && ok || fail "no 'heap size' key entry"
grep -qx 'live bytes' h.txt && ok || fail "no 'live bytes' key entry"
pdftotext n.pdf - | grep -q 'heap size' && fail "'heap size' without --heap" || ok
# The heap is bigger than the profiled bands: the y axis reaches further.
th=$(top_tick h.pdf) tn=$(top_tick n.pdf)
[ "$th" -gt "$tn" ] && ok || fail "y axis top $th with --heap, $tn without"
# Heap size >= live bytes >= the bands: the y axis is at least the live
# bytes' peak, which is above the bands' peak (from the CSV).
peak=$("$HP2X" "$E" -o - --format=csv | tail -n +2 | tr -d '\r' |
  awk -F, '{ s = 0; for (i = 2; i <= NF; i++) s += $i; if (s > m) m = s } END { print m }')
[ "$th" -gt "$peak" ] && ok || fail "top tick $th not above the bands' peak $peak"
# SVG: one live-bytes line in its colour plus its key stroke (cairo 1.16
# writes style="stroke:rgb(10%,30%,85%)", 1.18 stroke="rgb(10%, 30%, 85%)").
live='stroke(:|=")rgb\(10%, ?30%, ?85%\)'
"$HP2X" --heap "$E" -o h.svg && [ "$(grep -cE "$live" h.svg)" -eq 2 ] && ok ||
  fail "live bytes strokes in the SVG: $(grep -cE "$live" h.svg)"
"$HP2X" "$E" -o n.svg && ! grep -qE "$live" n.svg && ok || fail "line without --heap"
# The lines do not change the data: CSV identical.
"$HP2X" --heap "$E" -o h.csv && "$HP2X" "$E" -o n.csv && cmp -s h.csv n.csv && ok ||
  fail "--heap changed the CSV"
# A window keeps the lines; with --x=index they follow the samples.
"$HP2X" --heap --from 0.5 --to 1.5 "$E" -o w.pdf && pdftotext w.pdf - | grep -qx 'heap size' && ok ||
  fail "--heap in a window"
"$HP2X" --heap --x=index "$E" -o i.svg && [ "$(grep -cE "$live" i.svg)" -eq 2 ] && ok ||
  fail "--heap --x=index"
# .hp input: a warning, the picture as without --heap.
expect_status 0 ".hp with --heap" -- "$HP2X" --heap "$TOP/samples/profiles/leak.hc.hp" -o l.pdf
expect_stderr "warning: --heap: no heap size events" ".hp with --heap warns"
"$HP2X" -q --heap "$TOP/samples/profiles/leak.hc.hp" -o l.pdf 2> q.txt && [ ! -s q.txt ] && ok ||
  fail "-q does not silence the --heap warning"
# Heap lines far outside a comparison's shared axes (an eventlog, found by
# fuzzing, with heap events and no complete sample) are cut to the graph
# before cairo dashes them: it took 3 s and 116 MB, now what a small
# picture takes (peak RSS, where it means something: not under ASan or
# valgrind).
F=$TOP/tests/data/found/heap-no-samples.eventlog
/usr/bin/time -f %M -o rss.txt "$HP2X" -q --heap "$F" "$F" -o far.ps && ok ||
  fail "--heap comparison of heap-no-samples.eventlog"
if [ -z "${HP2X_UNDER_VALGRIND:-}" ] && case ${BUILD:-} in *asan*) false;; *) true;; esac; then
  [ "$(cat rss.txt)" -lt 60000 ] && ok || fail "far heap lines: peak RSS $(cat rss.txt) KB"
fi
finish
