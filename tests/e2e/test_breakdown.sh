#!/usr/bin/env bash
# Colours and order that know the breakdown, on real GHC files: -hb's five
# biographies in one order and one colour each, the same in every run
# (GHC 9.0.2 and 9.6.6, .hp and eventlog), distinct for colour-blind
# readers and in greyscale; -he's eras (GHC 9.10.3, --automatic-era-
# increment) in era order with a sequential palette, the key reading
# "era N"; -hr's key saying retainer set; the breakdown from a stream
# joined mid-run's program arguments; an explicit order or palette wins;
# an .hp whose era labels are not numbers is drawn as usual, with one
# note.  The key is read back from the PDF (tests/tools/colour_check.py
# key: each word with a key box to its left, top to bottom, and the box's
# colour; pdftotext for whole lines).
. "$(dirname "$0")/lib.sh"
cd "$T"
P=$TOP/samples/profiles
D=$TOP/tests/data/breakdown
CC=$TOP/tests/tools/colour_check.py
zcat "$D/ghc9.6.6-mapwave.hb.eventlog.gz" > mapwave96.hb.eventlog
zcat "$D/ghc9.6.6-longrun-hb.mid-run.eventlog.gz" > longrun-hb.mid-run.eventlog
cp "$P/mapwave.he.eventlog" mapwave.he.eventlog
zcat "$D/ghc9.10.3-longrun-he.mid-run.eventlog.gz" > longrun-he.mid-run.eventlog

# key FILE.pdf: "label #rrggbb" lines of the key, top to bottom.
key() { python3 "$CC" key "$1" | cut -f2,3; }
# lightness #rrggbb...: CIELAB L* of each colour, one a line.
lightness() {
  python3 - "$TOP/tests/tools" "$@" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from colour_check import lab
for c in sys.argv[2:]:
    print("%.1f" % lab(tuple(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0])
PY
}

# -hb: two programs, two GHCs, both front ends, a stream joined mid-run:
# every biography in one colour, and the key in one order.
runs=("$P/leak.hb.hp" "$P/mapwave.hb.eventlog" "$D/ghc9.6.6-leak.hb.hp" mapwave96.hb.eventlog
      longrun-hb.mid-run.eventlog)
: > hb.keys
for i in "${!runs[@]}"; do
  expect_status 0 "-hb run $i" -- "$HP2X" -q -c -t0 "${runs[$i]}" -o "hb$i.pdf"
  key "hb$i.pdf" > "hb$i.key"
  cat "hb$i.key" >> hb.keys
  order=$(cut -f1 "hb$i.key" | tr '\n' ' ')
  want=$(printf '%s\n' VOID DRAG LAG INHERENT_USE USE | grep -xFf <(cut -f1 "hb$i.key") | tr '\n' ' ')
  [ "$order" = "$want" ] && [ "$(wc -l < "hb$i.key")" -ge 3 ] && ok ||
    fail "-hb run $i: key '$order', wanted '$want'"
done
[ "$(sort -u hb.keys | cut -f1 | uniq -d)" = "" ] && ok ||
  fail "-hb: a biography has two colours: $(sort -u hb.keys | tr '\n' ' ')"
[ "$(sort -u hb.keys | wc -l)" = 5 ] && [ "$(cut -f2 hb.keys | sort -u | wc -l)" = 5 ] && ok ||
  fail "-hb: not five biographies in five colours: $(sort -u hb.keys | tr '\n' ' ')"
grep -q "breakdown not in stream" <(pdftotext hb4.pdf -) && ok ||
  fail "-hb mid-run: the title should still say the breakdown is not in the stream"
# Apart for colour-blind readers: CIEDE2000 of at least 15 under normal
# vision and simulated protanopia, deuteranopia and tritanopia.
"$HP2X" -q -c -t0 "$P/leak.hb.hp" -o hb.svg
python3 "$CC" svg 15 15 hb.svg > cvd.txt && ok || fail "-hb colours: $(cat cvd.txt)"
# And in greyscale: five lightnesses at least 12 apart, with -c and
# without it (its greys have the same lightnesses).
l_colour=$(lightness $(cut -f2 hb.keys | sort -u) | sort -n | tr '\n' ' ')
"$HP2X" -q -t0 "$P/leak.hb.hp" -o grey.pdf && key grey.pdf > grey.key
l_grey=$(lightness $(cut -f2 grey.key) | sort -n | tr '\n' ' ')
for ls in "$l_colour" "$l_grey"; do
  python3 -c "
import sys; l = [float(x) for x in sys.argv[1].split()]
sys.exit(0 if len(l) == 5 and min(b - a for a, b in zip(l, l[1:])) >= 12 else 1)" "$ls" && ok ||
    fail "-hb lightnesses not 12 apart: $ls"
done
cut -f2 grey.key | grep -qvE '^#(..)\1\1$' && fail "-hb without -c is not grey: $(cat grey.key)" || ok
# An explicit palette or order wins.
"$HP2X" -q -c --palette=label -t0 "$P/leak.hb.hp" -o label.pdf && key label.pdf > label.key
[ "$(sort label.key)" != "$(sort hb0.key)" ] && ok || fail "--palette=label keeps the biographies' colours"
"$HP2X" -q -c --sort=area -t0 "$P/leak.hb.hp" -o area.pdf && key area.pdf > area.key
[ "$(cut -f1 area.key)" != "$(cut -f1 hb0.key)" ] && [ "$(sort area.key)" = "$(sort hb0.key)" ] && ok ||
  fail "--sort=area: order $(cut -f1 area.key | tr '\n' ' ') (its colours must stay)"
# The labels stay the bands' names, in the key's order, in the CSV.
"$HP2X" -q -t0 "$P/leak.hb.hp" -o hb.csv
[ "$(head -1 hb.csv | tr -d '\r')" = "time,$(cut -f1 hb0.key | paste -sd,)" ] && ok || fail "-hb CSV header: $(head -1 hb.csv)"

# -he: eras in numeric order in the key (newest on top), each lighter than
# the one before, "era N"; OTHER at the bottom; from the .hp's JOB, the
# eventlog's HEAP_PROF_BEGIN and a mid-run stream's program arguments.
for src in "$P/mapwave.he.hp" mapwave.he.eventlog longrun-he.mid-run.eventlog; do
  name=$(basename "$src")
  expect_status 0 "$name" -- "$HP2X" -q -c "$src" -o he.pdf
  pdftotext -layout he.pdf - | grep -oE 'era [0-9]+' | awk '{print $2}' > eras.txt
  [ "$(wc -l < eras.txt)" -ge 10 ] && [ "$(sort -rn eras.txt)" = "$(cat eras.txt)" ] && ok ||
    fail "$name: eras in the key, top to bottom: $(tr '\n' ' ' < eras.txt)"
  key he.pdf > he.key
  [ "$(tail -1 he.key | cut -f1)" = OTHER ] && ok || fail "$name: OTHER is not at the bottom"
  lightness $(grep -v OTHER he.key | cut -f2) > l.txt
  [ "$(sort -rn l.txt)" = "$(cat l.txt)" ] && ok || fail "$name: the eras' colours are not ever lighter: $(tr '\n' ' ' < l.txt)"
done
# An explicit order wins (area: not era order), its colours stay by age.
"$HP2X" -q -c -d "$P/mapwave.he.hp" -o d.pdf
pdftotext -layout d.pdf - | grep -oE 'era [0-9]+' | awk '{print $2}' > d.txt
[ "$(sort -rn d.txt)" != "$(cat d.txt)" ] && ok || fail "-d: the eras are still in era order"
# The eventlog and the .hp of one run: the same bands in the same order.
"$HP2X" -q "$P/mapwave.he.hp" -o hp.csv && "$HP2X" -q mapwave.he.eventlog -o ev.csv
[ "$(head -1 hp.csv)" = "$(head -1 ev.csv)" ] && ok || fail "-he: .hp and eventlog order differ"
head -1 hp.csv | tr -d '\r' | tr , '\n' | sed '1d;$d' > csv-eras.txt
[ "$(tail -1 hp.csv | tr -d '\r' | grep -c .)" = 1 ] && [ "$(sort -rn csv-eras.txt)" = "$(cat csv-eras.txt)" ] &&
  [ "$(head -1 hp.csv | tr -d '\r' | tr , '\n' | tail -1)" = OTHER ] && ok ||
  fail "-he CSV header not in era order: $(head -1 hp.csv)"

# An .hp whose era labels are not all numbers: the usual order, one note.
{
  printf 'JOB "prog +RTS -he -i0.1"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
  for i in 0 1 2 3; do
    printf 'BEGIN_SAMPLE %d.0\n3\t%d\n1\t%d\nlate\t%d\n2\t%d\nEND_SAMPLE %d.0\n' "$i" \
      $((100 * i)) $((5000 - 100 * i)) $((3000 + i)) $((800)) "$i"
  done
} > odd.hp
expect_status 0 "non-numeric eras" -- "$HP2X" -c odd.hp -o odd.pdf
[ "$(grep -c 'note: the era labels are not all numbers' "$CAP/err")" = 1 ] && ok ||
  fail "non-numeric eras: not one note: $(cat "$CAP/err")"
pdftotext -layout odd.pdf - | grep -oE '^ *(1|2|3|late)$|  (1|2|3|late) *$' | tr -d ' ' > odd.txt
[ "$(tr '\n' ' ' < odd.txt)" = "1 late 2 3 " ] && ok || fail "non-numeric eras: key $(tr '\n' ' ' < odd.txt), wanted by size"
grep -q era <(pdftotext odd.pdf -) && fail "non-numeric eras: the key says era" || ok
expect_status 0 "non-numeric eras, -q" -- "$HP2X" -q -c odd.hp -o odd2.pdf
[ ! -s "$CAP/err" ] && ok || fail "-q still notes: $(cat "$CAP/err")"

# -hr: the key says each band is a retainer set, numbered where two read
# alike; the CSV keeps GHC's labels.
for src in "$P/leak.hr.hp" "$P/leak.hr.eventlog" "$D/ghc9.6.6-leak.hr.hp"; do
  "$HP2X" -q -c "$src" -o hr.pdf
  n=$(pdftotext -layout hr.pdf - | grep -c 'retainer set .*{.*}')
  [ "$n" -ge 3 ] && ok || fail "$(basename "$src"): $n key entries say retainer set"
done
pdftotext -layout hr.pdf - | grep -qE 'retainer set [0-9]+ \{tallyBuckets' && ok ||
  fail "-hr: two sets that read alike are not numbered"
"$HP2X" -q "$D/ghc9.6.6-leak.hr.hp" -o hr.csv
head -1 hr.csv | grep -q ',(2)SYSTEM' && ok || fail "-hr CSV: $(head -1 hr.csv | cut -c1-80)"
finish
