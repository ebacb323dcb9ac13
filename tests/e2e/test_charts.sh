#!/usr/bin/env bash
# --chart: the four chart kinds through the real binary.  Each kind in every
# picture format, read by a real consumer (ghostscript, pdfinfo,
# rsvg-convert; PNG decoded); what each kind must be, checked from the SVG's
# paths and from the PNG's pixels (tests/tools/chart_check.py): a percent
# chart's bands reach the top at every census, a streamgraph is centred, a
# line never exceeds its band's peak; the y axis each kind has (pdftotext);
# the same bands, order and colours as stacked; several inputs with
# --layout and --uniform-scale; -p; what --chart refuses.
. "$(dirname "$0")/lib.sh"
cd "$T"
P=$TOP/samples/profiles
C=$TOP/tests/tools/chart_check.py
kinds=(percent streamgraph lines)
# An SVG's paint as cairo 1.16 writes it (style="fill:rgb(R%,G%,B%);
# stroke-width:W;..."), from 1.18's attributes (fill="rgb(R%, G%, B%)"
# stroke-width="W" ...) too, for the greps below.
svg_paint() {
  sed -E 's/ (fill|stroke)([a-z-]*)="([^"]*)"/ \1\2:\3;/g; s/, /,/g' "$1"
}

# Every kind in every picture format, each read back.
for kind in stacked "${kinds[@]}"; do
  for fmt in ps eps pdf svg png; do
    extra=()
    [ $fmt = eps ] && extra=(-e 6in)
    expect_status 0 "$kind as $fmt" -- "$HP2X" -q -c --chart=$kind "${extra[@]}" "$P/manycc.hc.hp" -o "m.$kind.$fmt"
  done
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage "m.$kind.ps" > /dev/null 2>&1 && ok || fail "$kind.ps: gs rejects it"
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage "m.$kind.eps" > /dev/null 2>&1 && ok || fail "$kind.eps: gs rejects it"
  pdfinfo "m.$kind.pdf" > /dev/null 2>&1 && ok || fail "$kind.pdf: pdfinfo rejects it"
  rsvg-convert "m.$kind.svg" > /dev/null 2>&1 && ok || fail "$kind.svg: rsvg-convert rejects it"
  python3 "$TOP/tests/e2e/png_info.py" "m.$kind.png" > /dev/null && ok || fail "$kind.png: not a PNG"
done
# Each kind draws something else from the same input.
for kind in "${kinds[@]}"; do
  cmp -s m.stacked.png "m.$kind.png" && fail "--chart=$kind draws the stacked chart" || ok
done

# What each kind is, from the SVG's paths and the PNG's pixels, on real
# profiles of both front ends (marks left out: their lines cross the graph).
for src in "$P/manycc.hc.hp" "$P/leak.hy.hp" "$P/markers.hc.eventlog" "$P/mapwave.hy.eventlog"; do
  name=$(basename "$src")
  for kind in "${kinds[@]}"; do
    "$HP2X" -q -y -c --chart=$kind --all-samples "$src" -o "$name.all.svg" &&
      "$HP2X" -q -y -c --chart=$kind "$src" -o "$name.svg" &&
      "$HP2X" -q -y -c --chart=$kind --dpi=100 "$src" -o "$name.png" || { fail "$name: --chart=$kind"; continue; }
    python3 "$C" svg $kind "$name.all.svg" > check.txt && ok || fail "$name: $(cat check.txt)"
    if [ $kind != streamgraph ]; then # a thinned stack's two edges keep different censuses
      python3 "$C" svg $kind "$name.svg" > check.txt && ok || fail "$name (thinned): $(cat check.txt)"
    fi
    python3 "$C" png $kind "$name.png" "$name.svg" 100 > check.txt && ok || fail "$name: $(cat check.txt)"
  done
done
# The checks can fail: a stacked chart is none of the three.
"$HP2X" -q -y -c --all-samples "$P/manycc.hc.hp" -o stacked.svg
for kind in "${kinds[@]}"; do
  python3 "$C" svg $kind stacked.svg > /dev/null && fail "chart_check.py svg $kind passes a stacked chart" || ok
done

# A percent chart's census of total 0 is a gap: every band of the SVG
# stops before the last census of manycc (its total is 0) and starts again
# nowhere after it.
"$HP2X" -q -y --chart=percent --all-samples "$P/manycc.hc.hp" -o gap.svg
"$HP2X" -q -y --all-samples "$P/manycc.hc.hp" -o nogap.svg
python3 - gap.svg nogap.svg "$TOP/tests/tools" <<'PY' > gap.txt && ok || fail "percent gap: $(cat gap.txt)"
import sys
sys.path.insert(0, sys.argv[3])
import chart_check as c
def right(f):
    p = c.svg_paths(f); G, _ = c.graph_of(p)
    return max(x for _, pts in c.band_fills(p, G) for x, _ in pts)
gap, whole = right(sys.argv[1]), right(sys.argv[2])
print("percent's bands end at x %.2f, stacked's at %.2f" % (gap, whole))
sys.exit(0 if gap < whole - 1 else 1)
PY

# The y axis: per cent for percent and lines (their legends), bytes on both
# sides of the middle line for a streamgraph.
for kind in "${kinds[@]}"; do pdftotext -layout "m.$kind.pdf" "m.$kind.txt"; done
pdftotext -layout m.stacked.pdf m.stacked.txt
grep -q "% of total" m.percent.txt && ok || fail "percent: no '% of total' legend"
grep -q "% of peak" m.lines.txt && ok || fail "lines: no '% of peak' legend"
grep -qE '^ *80 *$|^ *80[^0-9]' m.percent.txt && ok || fail "percent: no 80 tick"
[ "$(grep -cE '^ *2M' m.streamgraph.txt)" -ge 2 ] && ok ||
  fail "streamgraph: 2M is not on both sides of the middle line"
grep -q "% of" m.stacked.txt && fail "stacked has a per cent legend" || ok

# The same bands, in the same order and colours, as stacked: the key of
# every kind is the stacked one's (words and box colours), but a lines
# chart's boxes are lines.
python3 "$TOP/tests/tools/colour_check.py" key m.stacked.pdf > key.stacked
for kind in percent streamgraph; do
  python3 "$TOP/tests/tools/colour_check.py" key "m.$kind.pdf" > "key.$kind"
  cmp -s key.stacked "key.$kind" && ok || fail "$kind's key differs from stacked's: $(diff key.stacked key.$kind | head -3)"
done
grep -v "% of" m.lines.txt | grep -oE '\([0-9]+\)[a-z]+' > words.lines
grep -oE '\([0-9]+\)[a-z]+' m.stacked.txt > words.stacked
cmp -s words.stacked words.lines && ok || fail "lines' key names differ from stacked's"
"$HP2X" -q -c --chart=lines "$P/manycc.hc.hp" -o m.lines.svg
# The lines' stroke colours are the stacked bands' fill colours.
fills=$(svg_paint m.stacked.svg | grep -o 'fill:rgb([^)]*)' | sort -u | grep -v '0%,0%,0%\|100%,100%,100%')
strokes=$(svg_paint m.lines.svg | grep -o 'stroke-width:1.4;[^"]*stroke:rgb([^)]*)' |
  grep -o 'rgb([^)]*)' | sort -u)
[ "$(echo "$strokes" | wc -w)" -ge 5 ] &&
  [ "$(echo "$fills" | sed 's/fill://' | sort -u)" = "$strokes" ] && ok ||
  fail "lines' colours ($(echo $strokes)) are not the stacked bands' colours"

# Several inputs: every kind with --layout pages and stack; percent and
# lines share only time (their y axis is per cent), a streamgraph both.
for kind in stacked "${kinds[@]}"; do
  expect_status 0 "--chart=$kind --layout=stack" -- "$HP2X" -q -c --chart=$kind --layout=stack \
    "$P/leak.hy.hp" "$P/longrun.hy.hp" -o "two.$kind.svg"
  expect_status 0 "--chart=$kind --layout=pages" -- "$HP2X" -q -c --chart=$kind \
    "$P/leak.hy.hp" "$P/longrun.hy.hp" -o "two.$kind.pdf"
  [ "$(pdfinfo "two.$kind.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')" = 2 ] && ok ||
    fail "--chart=$kind: two inputs are not two pages"
  expect_status 0 "--chart=$kind --uniform-scale=none" -- "$HP2X" -q --chart=$kind \
    --uniform-scale=none "$P/leak.hy.hp" "$P/longrun.hy.hp" -o "none.$kind.pdf"
done
pdftotext -layout two.percent.pdf two.percent.txt
[ "$(grep -c '% of total' two.percent.txt)" = 2 ] && ok || fail "two percent pages without their legends"
# A streamgraph shares the y range: both pages have the same y labels.
pdftotext -f 1 -l 1 two.streamgraph.pdf p1.txt && pdftotext -f 2 -l 2 two.streamgraph.pdf p2.txt
[ "$(grep -oE '^ *[0-9,]+[kM]' p1.txt | sort)" = "$(grep -oE '^ *[0-9,]+[kM]' p2.txt | sort)" ] && ok ||
  fail "a streamgraph of two inputs does not share the y axis"

# -p keeps the .aux order and shades: a percent chart drawn with -p from
# a stacked run's .aux (hp2ps's BASE.aux) has the stacked key and leaves
# the .aux as it was.
cp "$P/leak.hc.hp" aux.hp
"$HP2X" -q -c aux && cp aux.aux kept.aux && "$HP2X" -q -c aux.hp -o ref.pdf
expect_status 0 "-p --chart=percent" -- "$HP2X" -q -c -p --chart=percent aux.hp -o aux.pdf
cmp -s aux.aux kept.aux && ok || fail "-p --chart=percent changed the .aux"
python3 "$TOP/tests/tools/colour_check.py" key ref.pdf > key.aux1
python3 "$TOP/tests/tools/colour_check.py" key aux.pdf > key.aux2
[ -s key.aux1 ] && cmp -s key.aux1 key.aux2 && ok || fail "-p --chart=percent: the key is not the .aux's"

# What --chart refuses (usage errors, exit 2; more in tests/cli/cases.test).
expect_status 2 "--chart=bogus" -- "$HP2X" --chart=bogus "$P/leak.hc.hp" -o x.svg
expect_stderr "stacked, percent, streamgraph, lines" "--chart=bogus lists the kinds"
expect_status 2 "--diff --chart" -- "$HP2X" --diff --chart=stacked "$P/leak.hy.hp" "$P/longrun.hy.hp" -o x.svg
expect_status 2 "--heap --chart=percent" -- "$HP2X" --heap --chart=percent "$P/markers.hc.eventlog" -o x.svg
expect_status 2 "--heap --chart=lines" -- "$HP2X" --heap --chart=lines "$P/markers.hc.eventlog" -o x.svg
[ ! -e x.svg ] && ok || fail "a refused --chart left x.svg"
# --heap is drawn on a streamgraph: both sides of the middle line.
expect_status 0 "--heap --chart=streamgraph" -- "$HP2X" -q -c --heap --chart=streamgraph "$P/markers.hc.eventlog" -o heap.svg
[ "$(svg_paint heap.svg | grep -c 'stroke-width:1.2;')" -ge 4 ] && ok || fail "--heap on a streamgraph: not two lines a series"
finish
