#!/usr/bin/env bash
# Comparing runs through the binary (issue #7): one band selection and one
# colour per label across inputs (the CSV, the drawn keys and each input
# drawn alone agree), uniform axes (equal tick labels on every page, and
# not without --uniform-scale), colour distinctness (least CIEDE2000 between
# two bands of a picture, computed by tests/tools/colour_check.py from the
# SVG's fills), the outputs' shapes (pages, stack, a file each, CSV), --diff
# against the inputs' own CSVs, -p round trips, and byte-for-byte
# determinism with SOURCE_DATE_EPOCH dating PDF, PS and EPS.
. "$(dirname "$0")/lib.sh"
cd "$T"
P=$TOP/samples/profiles
CC="python3 $TOP/tests/tools/colour_check.py"
A=$P/leak.hy.hp B=$P/longrun.hy.hp C=$P/mapwave.hy.hp

$CC selftest > /dev/null && ok || fail "CIEDE2000 disagrees with the published pairs"

# --- one selection, one colour per label ---------------------------------
"$HP2X" -q -c "$A" "$B" "$C" -o cmp.pdf && ok || fail "three inputs -> PDF"
"$HP2X" -q -c "$A" "$B" "$C" -o cmp.csv && ok || fail "three inputs -> CSV"
[ "$(pdfinfo cmp.pdf | awk '/^Pages:/ {print $2}')" = 3 ] && ok || fail "not a page per input"
head -1 cmp.csv | tr -d '\r' | cut -d, -f3- | tr , '\n' > csv-bands.txt
[ "$(wc -l < csv-bands.txt)" -ge 5 ] && ok || fail "too few shared bands: $(cat csv-bands.txt)"
$CC key cmp.pdf > key.txt || fail "cannot read the key"
for page in 1 2 3; do
  awk -F'\t' -v p=$page '$1 == p {print $2}' key.txt > key$page.txt
  cmp -s key$page.txt csv-bands.txt && ok ||
    fail "page $page: key $(paste -sd' ' key$page.txt) != CSV $(paste -sd' ' csv-bands.txt)"
  awk -F'\t' -v p=$page '$1 == p {print $2, $3}' key.txt > colours$page.txt
done
cmp -s colours1.txt colours2.txt && cmp -s colours1.txt colours3.txt && ok ||
  fail "a label's colour differs between pages: $(paste colours1.txt colours2.txt | head -3)"
[ "$(awk '{print $2}' colours1.txt | sort -u | wc -l)" = "$(wc -l < colours1.txt)" ] && ok ||
  fail "two bands share a colour: $(cat colours1.txt)"
# Every input's column in the shared CSV is its own data: equal to the
# column of the same label when that input is drawn alone with every band.
for f in "$A" "$B" "$C"; do
  "$HP2X" -q -m0 -t0 "$f" -o alone.csv
  awk -F, -v src="$f" 'NR == 1 { for (i = 3; i <= NF; i++) h[i] = $i; next }
       $1 == src { for (i = 3; i <= NF; i++) print h[i], NR, $i }' cmp.csv |
    tr -d '\r' > shared.txt
  awk -F, 'NR == 1 { for (i = 2; i <= NF; i++) h[i] = $i; next }
       { for (i = 2; i <= NF; i++) print h[i], NR, $i }' alone.csv |
    tr -d '\r' > alone.txt
  # rows: the shared CSV numbers rows across inputs; renumber per label
  awk '{ n[$1]++; print $1, n[$1], $3 }' shared.txt > s.txt
  awk '{ n[$1]++; print $1, n[$1], $3 }' alone.txt > a.txt
  missing=$(join -j1 <(awk '{print $1"/"$2, $3}' s.txt | sort) \
                     <(awk '{print $1"/"$2, $3}' a.txt | sort) |
            awk '$2 != $3' | head -3)
  [ -z "$missing" ] && ok || fail "$(basename "$f"): shared CSV differs from its own: $missing"
  [ -s s.txt ] && ok || fail "$(basename "$f"): no rows in the shared CSV"
  [ "$(join -j1 <(awk '{print $1"/"$2}' s.txt | sort) <(awk '{print $1"/"$2}' a.txt | sort) |
       wc -l)" -gt 100 ] && ok || fail "$(basename "$f"): too few values compared"
done

# --- uniform axes -----------------------------------------------------
# The tick labels of each page: x ticks are the numbers on the lowest line
# of text, y ticks the numbers left of the graph (x < 90 pt).
ticks() {
  pdftotext -bbox "$1" - | python3 -c '
import re, sys
pages = sys.stdin.read().split("<page ")[1:]
for n, page in enumerate(pages, 1):
    words = [(float(a), float(b), float(c), w) for a, b, c, w in re.findall(
        r"xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"[0-9.]+\">([^<]*)<", page)]
    nums = [w for w in words if re.fullmatch(r"-?[0-9][0-9.,]*[kM]?", w[3])]
    low = max(w[1] for w in nums)
    xs = [w[3] for w in nums if abs(w[1] - low) < 1]
    ys = [w[3] for w in nums if w[2] < 90 and abs(w[1] - low) >= 1]
    print(n, "x", " ".join(xs), "y", " ".join(ys))'
}
ticks cmp.pdf > ticks.txt
[ "$(cut -d' ' -f2- ticks.txt | sort -u | wc -l)" = 1 ] && ok ||
  fail "tick labels differ between pages: $(cat ticks.txt)"
grep -q 'x 0.0 2.0 4.0' ticks.txt && ok || fail "no shared time axis from 0: $(head -1 ticks.txt)"
"$HP2X" -q -c --uniform-scale=none "$A" "$B" -o own.pdf && ticks own.pdf > own.txt
[ "$(cut -d' ' -f2- own.txt | sort -u | wc -l)" = 2 ] && ok ||
  fail "--uniform-scale=none still shares the axes: $(cat own.txt)"
"$HP2X" -q -c --uniform-scale=time "$A" "$B" -o time.pdf && ticks time.pdf > time.txt
[ "$(sed 's/ y .*//' time.txt | cut -d' ' -f2- | sort -u | wc -l)" = 1 ] &&
  [ "$(sed 's/.* y //' time.txt | sort -u | wc -l)" = 2 ] && ok ||
  fail "--uniform-scale=time: $(cat time.txt)"

# --- colour distinctness ----------------------------------------------
# The label palette's claim: any two bands of a picture (up to 24) differ
# by CIEDE2000 >= 9.7 for normal vision and >= 8.5 under simulated
# protanopia, deuteranopia and tritanopia.  manycc has 20 bands.
"$HP2X" -q -c "$P/manycc.hc.hp" -o many.svg &&
  "$HP2X" -q -c -m24 "$P/manycc.hc.hp" -o many24.svg &&
  "$HP2X" -q -c "$A" "$B" "$C" -o 'pic-%s.svg' && ok || fail "SVG outputs"
$CC svg 9.7 8.5 many.svg many24.svg pic-*.svg > de.txt && ok ||
  fail "colours too close: $(cat de.txt)"
grep -q '^many24.svg: 24 colours' de.txt && ok || fail "-m24: not 24 colours: $(cat de.txt)"
# ... which hp2ps's own palette does not meet (so the check can fail).
"$HP2X" -q -c --palette=hp2ps "$P/manycc.hc.hp" -o hp2ps.svg
$CC svg 9.7 8.5 hp2ps.svg > /dev/null && fail "hp2ps's palette passes the distinctness check" || ok
# The SVG files of one run share their band colours.
for f in pic-*.svg; do
  grep -oE 'fill(:|=")rgb\([^)]*\)' "$f" | sort -u > "$f.fills"
done
cmp -s pic-leak.hy.svg.fills pic-longrun.hy.svg.fills && ok || fail "SVG files use different colours"

# --- output shapes ------------------------------------------------------
ls pic-leak.hy.svg pic-longrun.hy.svg pic-mapwave.hy.svg > /dev/null 2>&1 && ok ||
  fail "%s did not name the files after the inputs: $(ls)"
mkdir outdir
"$HP2X" -q --format=pdf "$A" "$P/manycc.hc.eventlog" -o outdir &&
  [ "$(ls outdir | paste -sd' ')" = "leak.hy.pdf manycc.hc.pdf" ] && ok ||
  fail "-o DIR: $(ls outdir)"
mkdir plain && (cd plain && "$HP2X" -q "$A" "$B") &&
  [ "$(ls plain | paste -sd' ')" = "leak.hy.ps longrun.hy.ps" ] && ok ||
  fail "no -o: $(ls plain)"
"$HP2X" -q -c --layout=stack "$A" "$B" -o stack.pdf &&
  [ "$(pdfinfo stack.pdf | awk '/^Pages:/ {print $2}')" = 1 ] && ok || fail "stack: not one page"
"$HP2X" -q -c --layout=stack "$A" "$B" "$C" -o stack.svg &&
  grep -q 'height="1404pt"' stack.svg && rsvg-convert stack.svg > /dev/null && ok ||
  fail "stack of three: not 3 x 432 + 2 x 18 + 72 pt high"
"$HP2X" -q --layout=stack -e 12cm "$A" "$B" -o stack.eps &&
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage stack.eps && ok || fail "stacked EPS"
"$HP2X" -q --pattern "$A" "$B" -o pat.ps && gs -q -dSAFER -dBATCH -dNOPAUSE \
  -sDEVICE=nullpage pat.ps && ok || fail "--pattern PS"
"$HP2X" -q --pattern --layout=stack "$A" "$B" -o pat.svg && rsvg-convert pat.svg > /dev/null &&
  grep -q '<pattern' pat.svg && ok || fail "--pattern SVG has no pattern"
"$HP2X" -q "$P/manycc.hc.hp" "$P/manycc.hc.eventlog" -o mixed.pdf &&
  [ "$(pdfinfo mixed.pdf | awk '/^Pages:/ {print $2}')" = 2 ] && ok || fail ".hp and eventlog together"
awk -F, 'NR > 1 { n[$1]++ } END { for (f in n) print f, n[f] }' cmp.csv | sort > rows.txt
for f in "$A" "$B" "$C"; do
  want=$(($(grep -c BEGIN_SAMPLE "$f")))
  grep -qx "$f $want" rows.txt && ok || fail "CSV rows of $f: $(grep "$f" rows.txt), wanted $want"
done

# --- diff -----------------------------------------------------------------
# B - A at 0 %, 25 %, 50 % and 100 % of the runs, interpolated here from the
# inputs' rows in a shared CSV.  Eventlogs: unlike .hp files they do not
# start and end with empty samples, so the ends are not trivially 0.  The
# CSV's times are in microseconds, the eventlogs' in nanoseconds, so in
# between the two interpolations may differ by a few bytes in 10^4.
EA=$P/leak.hy.eventlog EB=$P/mapwave.hy.eventlog
"$HP2X" -q --diff "$EA" "$EB" -o diff.csv && ok || fail "--diff -> CSV"
[ "$(($(wc -l < diff.csv) - 1))" = 201 ] && ok || fail "diff: not 201 rows"
"$HP2X" -q "$EA" "$EB" -o ab.csv
head -1 ab.csv | tr -d '\r' | cut -d, -f3- | tr , '\n' > ab-bands.txt
head -1 diff.csv | tr -d '\r' | cut -d, -f2- | tr , '\n' | cmp -s - ab-bands.txt && ok ||
  fail "diff bands differ from the shared selection"
# at PCT % of the run: each band of input F, linearly between the
# bracketing rows
at() {
  tr -d '\r' < ab.csv | awk -F, -v f="$1" -v u="$2" -v OFMT=%.3f '
    $1 == f { n++; t[n] = $2; for (i = 3; i <= NF; i++) v[n, i] = $i; w = NF }
    END { u /= 100; x = t[1] + u * (t[n] - t[1]); k = 1
          while (k < n - 1 && t[k + 1] <= x) k++
          g = t[k + 1] > t[k] ? (x - t[k]) / (t[k + 1] - t[k]) : 1
          if (g < 0) g = 0; if (g > 1) g = 1
          for (i = 3; i <= w; i++) printf "%s%.3f", (i > 3 ? "," : ""), v[k, i] + g * (v[k + 1, i] - v[k, i])
          print "" }'
}
for pct in 0 25 50 100; do
  row=$((pct * 2 + 2))
  got=$(sed -n ${row}p diff.csv | tr -d '\r')
  want=$(paste -d, <(at "$EA" $pct | tr , '\n') <(at "$EB" $pct | tr , '\n') |
         awk -F, '{ printf "%.3f\n", $2 - $1 }' | paste -sd,)
  paste -d, <(echo "$got" | cut -d, -f2- | tr , '\n') <(echo "$want" | tr , '\n') |
    awk -F, '{ d = $1 - $2; if (d < 0) d = -d; m = $2 < 0 ? -$2 : $2
               if (d > 1 + 1e-4 * m) bad = 1 } END { exit bad }' && ok ||
    fail "diff at $pct %: $got, wanted $want"
  echo "$got" | grep -q "^$pct\.000000," && ok || fail "diff row $row is not at $pct %"
done
[ "$(sed -n 202p diff.csv | cut -d, -f2- | tr -d '\r0,-')" != "" ] && ok ||
  fail "diff at 100 % is all zeros: a weak test"
"$HP2X" -q -c --diff "$A" "$B" -o diff.pdf && pdftotext diff.pdf - > diff.txt &&
  grep -q '% of run' diff.txt && grep -q 'minus' diff.txt && ok || fail "--diff -> PDF"
(cd plain && "$HP2X" -q --diff "$A" "$B" && [ -s longrun.hy-minus-leak.hy.ps ]) && ok ||
  fail "--diff without -o"

# --- .aux round trip with several inputs ---------------------------------
: > cmp.aux
"$HP2X" -q -p -c "$A" "$B" -o cmp.pdf && cp cmp.aux first.aux &&
  "$HP2X" -q -p -c "$A" "$B" -o cmp.pdf && cmp -s cmp.aux first.aux && ok ||
  fail "-p with two inputs does not round-trip"
grep -q '^SHADE .* 1\.[0-9]\{6\}$' first.aux && ok || fail "label shades missing in the .aux"

# --- determinism --------------------------------------------------------
for fmt in pdf ps csv; do
  "$HP2X" -q -c "$A" "$B" -o r1.$fmt && "$HP2X" -q -c "$A" "$B" -o r2.$fmt &&
    cmp -s r1.$fmt r2.$fmt && ok || fail "$fmt differs between two runs"
done
for fmt in svg eps; do
  "$HP2X" -q -c --layout=stack -e 6in "$A" "$B" -o r1.$fmt &&
    "$HP2X" -q -c --layout=stack -e 6in "$A" "$B" -o r2.$fmt &&
    cmp -s r1.$fmt r2.$fmt && ok || fail "$fmt differs between two runs"
done
# SOURCE_DATE_EPOCH (1700000000 = 2023-11-14 22:13:20 UTC, from lib.sh)
# is the date of every format that carries one.
pdfinfo r1.pdf | grep -q '^CreationDate: .*Nov 14 22:13:20 2023' && ok || fail "PDF date"
grep -q '^%%CreationDate: 2023-11-14T22:13:20Z$' r1.ps && ok || fail "PS date"
grep -q '^%%CreationDate: 2023-11-14T22:13:20Z$' r1.eps && ok || fail "EPS date"
SOURCE_DATE_EPOCH=0 "$HP2X" -q "$A" -o zero.eps -e 6in &&
  grep -q '^%%CreationDate: 1970-01-01T00:00:00Z$' zero.eps && ok || fail "EPS date 0"
env -u SOURCE_DATE_EPOCH "$HP2X" -q "$A" -o own.ps &&
  grep -q "^%%CreationDate: $(sed -n 's/^DATE "\(.*\)"/\1/p' "$A")\$" own.ps && ok ||
  fail "without SOURCE_DATE_EPOCH, PS must carry the profile's DATE"
# -p with --diff and no -o has no single output for its .aux: a usage
# error, nothing written (it used to crash).
mkdir -p pdiff && (cd pdiff && "$HP2X" -p --diff "$A" "$B" > out.txt 2> err.txt; echo $? > rc)
[ "$(cat pdiff/rc)" -eq 2 ] && ok || fail "-p --diff without -o: exit $(cat pdiff/rc)"
grep -q "^hp2x: no -o: with several inputs -p needs one output file" pdiff/err.txt && ok ||
  fail "-p --diff without -o: $(head -1 pdiff/err.txt)"
[ "$(ls pdiff | paste -sd' ')" = "err.txt out.txt rc" ] && ok || fail "-p --diff wrote $(ls pdiff)"
# The formats these two messages name come from format.c's table and are
# the ones that work: -p with one file holding several inputs (PS, PDF,
# CSV and the summary, not EPS), --diff in every format but .hp.
grep -qx "hp2x: no -o: with several inputs -p needs one output file (-o NAME.ps, .pdf, .csv or .txt), and no --diff" \
  pdiff/err.txt && ok || fail "-p's formats: $(head -1 pdiff/err.txt)"
mkdir -p paux && (cd paux && "$HP2X" -q "$A" && cp leak.hy.aux x.aux &&
  "$HP2X" -q -p "$A" "$B" -o x.txt && [ -s x.txt ] &&
  ! "$HP2X" -q -p "$A" "$B" -o x.eps 2> /dev/null) && ok ||
  fail "-p with several inputs: the summary must work, EPS must not"
"$HP2X" -q --diff "$A" "$B" -o diff.hp 2> diffhp.txt; [ $? -eq 2 ] && ok || fail "--diff -> .hp: not a usage error"
grep -qx "hp2x: --diff draws a chart (PS, EPS, PDF, SVG, PNG, CSV, summary or HTML): not .hp" diffhp.txt &&
  ok || fail "--diff's formats: $(head -1 diffhp.txt)"
"$HP2X" -q --diff "$A" "$B" -o diff.png && [ -s diff.png ] &&
  "$HP2X" -q --diff "$A" "$B" -o diff-summary.txt && grep -q "minus" diff-summary.txt && ok ||
  fail "--diff -> PNG, summary"
finish
