#!/usr/bin/env bash
# A long profile's picture keeps, per band and per 600 dpi device column,
# only the curve's lowest and highest point: the PDF is bounded (at most
# two points per column for each band) and looks like the picture drawn
# from every sample (--all-samples).  The profile is a real one (longrun.hc)
# stretched by bench/gen.py to about 12 000 samples.
. "$(dirname "$0")/lib.sh"
cd "$T"
stats() { python3 "$TOP/tests/tools/pdfstats.py" "$@"; }
python3 "$TOP/bench/gen.py" stretch "$TOP/samples/profiles/longrun.hc.hp" 8 long.hp
samples=$(grep -c '^BEGIN_SAMPLE' long.hp)
"$HP2X" -q long.hp -o long.csv && ok || fail "long.hp -> csv"
bands=$(( $(head -1 long.csv | tr ',' '\n' | wc -l) - 1 ))
"$HP2X" -q long.hp -o thin.pdf && ok || fail "long.hp -> pdf"
"$HP2X" -q --all-samples long.hp -o full.pdf && ok || fail "--all-samples"
thin=$(stats points thin.pdf) full=$(stats points full.pdf)
# Every sample: where the total changes, the top outline turns.
[ "$full" -ge "$samples" ] && ok ||
  fail "--all-samples drew $full points for $samples samples"
# Thinned: at most two per column of the 648 pt frame at 600 dpi (the graph
# is narrower), plus the corners.
cols=$((648 * 600 / 72))
[ "$thin" -le $((bands * (2 * cols + 4))) ] && ok ||
  fail "thinned picture has $thin points, over $bands x 2 x $cols"
[ "$thin" -lt $((full / 2)) ] && ok || fail "thinning kept $thin of $full points"
[ "$(stat -c %s thin.pdf)" -lt "$(stat -c %s full.pdf)" ] && ok ||
  fail "thinned PDF not smaller"
# The same picture at 150 dpi: no peak lost (each pixel column's topmost
# dark pixel within a pixel of where it is drawn from every sample), and
# the pixels differ by under 1% of the grey range on average.  (Single
# pixels do differ: detail finer than a 600 dpi column is not kept.)
pdftoppm -r 150 -gray -singlefile thin.pdf thin && pdftoppm -r 150 -gray -singlefile full.pdf full
read -r pixels differing largest mean tops < <(stats pgmdiff thin.pgm full.pgm)
[ "$tops" -le 1 ] && ok || fail "a column's top moved by $tops pixels: a peak was lost"
awk -v m="$mean" 'BEGIN { exit !(m <= 2.55) }' && ok ||
  fail "mean difference $mean of 255 per pixel"
echo "samples=$samples bands=$bands points thin=$thin full=$full" \
     "differing=$differing/$pixels largest=$largest mean=$mean tops=$tops"
finish
