#!/usr/bin/env bash
# Marks as labelled vertical lines: every eventlog marker inside the graph
# gets a thin dashed line; its text is drawn rotated unless it would
# overlap the label before it; -y draws none.  .hp MARKs get bare lines.
. "$(dirname "$0")/lib.sh"
cd "$T"
E=$TOP/samples/profiles/markers.hc.eventlog
lines() { grep -c 'stroke-dasharray' "$1"; }

"$HP2X" -c "$E" -o m.pdf && "$HP2X" -c "$E" -o m.svg || fail "markers.hc.eventlog renders"
pdftotext m.pdf m.txt
for label in "phase 2: heap sampling paused" "phase 3: time-profiler timer stopped" \
             "phase 4: censuses on request" "release step"; do
  grep -qF "$label" m.txt && ok || fail "marker label '$label' not in the PDF"
done
# The marker texts in the eventlog, and the lines drawn for them: the
# markers of phases 2-5 and the release steps lie within the samples.
nlines=$(lines m.svg)
[ "$nlines" -ge 15 ] && ok || fail "only $nlines marker lines"
# The release steps cluster at the end: some labels are left out, no line.
nlabels=$(grep -c 'release step' m.txt)
nsteps=$(strings "$E" | grep -c '^release step')
[ "$nlabels" -ge 2 ] && [ "$nlabels" -lt "$nsteps" ] && ok ||
  fail "$nlabels of $nsteps 'release step' labels drawn: expected some, not all"
# No two labels overlap: sorted by their left edge, each starts at or after
# the previous one's right edge.
pdftotext -bbox m.pdf - | grep -E '>(release|phase)<' |
  sed 's/.*xMin="\([0-9.]*\)".*xMax="\([0-9.]*\)".*/\1 \2/' | sort -n -u |
  awk 'NR > 1 && $1 < last - 0.01 { bad = 1; print "overlap at " $1 } { last = $2 } END { exit bad }' &&
  ok || fail "marker labels overlap"
# -y: no lines, no labels.
"$HP2X" -y -c "$E" -o y.svg && [ "$(lines y.svg)" -eq 0 ] && ok || fail "-y still draws lines"
"$HP2X" -y -c "$E" -o y.pdf && ! pdftotext y.pdf - | grep -q 'phase' && ok || fail "-y still draws labels"
# A window keeps only its markers (those at its ends lie outside the
# first and last samples, so off the graph).
"$HP2X" -c "$E" --from-marker 'phase 2: heap sampling paused' \
  --to-marker 'phase 5: release' -o w.pdf && pdftotext w.pdf - > w.txt &&
  grep -q 'phase 3' w.txt && grep -q 'phase 4' w.txt &&
  ! grep -q 'phase 2\|release step' w.txt && ok ||
  fail "window's markers: $(grep -E 'phase|release' w.txt | tr '\n' '|')"
# With --x=index the lines move with the samples but all stay.
"$HP2X" -c --x=index "$E" -o i.svg && [ "$(lines i.svg)" -eq "$nlines" ] && ok ||
  fail "--x=index: $(lines i.svg) lines, not $nlines"

# .hp MARK lines: a line each, no text.
cat > marks.hp <<'EOF2'
JOB "marks"
DATE "d"
SAMPLE_UNIT "seconds"
VALUE_UNIT "bytes"
BEGIN_SAMPLE 0.0
a	100
END_SAMPLE 0.0
MARK 1.0
BEGIN_SAMPLE 2.0
a	200
END_SAMPLE 2.0
MARK 3.0
BEGIN_SAMPLE 4.0
a	100
END_SAMPLE 4.0
EOF2
"$HP2X" marks.hp -o k.svg && [ "$(lines k.svg)" -eq 2 ] && ok || fail ".hp MARKs: $(lines k.svg) lines"
finish
