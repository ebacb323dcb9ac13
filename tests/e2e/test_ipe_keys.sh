#!/usr/bin/env bash
# -hi keys on real GHC 9.6.6 and 9.10.3 eventlogs (tests/data/real-hi and
# tests/data/ghc-modern): every band an IPE event names shows what it is
# and its whole source location in the key, at the default size (A4
# landscape PostScript, and PDF) and with -e 15cm, however long its
# binding; the whole IPE record is in the SVG tooltip, the CSV header and
# --summary; an -hi address without an IPE event keeps its address and
# the summary says why; .hp output keeps the addresses; --include matches
# the record.  The key text is read back with pdftotext (PostScript through
# ghostscript).
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data
cd "$T"

files="real-hi/ghc-9.10.3-unicode.ipehi.eventlog real-hi/ghc-9.6.6-unicode.ipehi.eventlog
real-hi/ghc-9.10.3-mapwave.ipehi.eventlog ghc-modern/ghc-9.6.6/leak.ipehi.eventlog
ghc-modern/ghc-9.10.3/markers.ipehi.eventlog"

# key_text PICTURE: the picture's text, one line per text line, the
# spaces pdftotext puts inside a run of the key made single.
key_text() {
  case $1 in
  *.pdf) pdftotext "$1" - ;;
  *.ps | *.eps)
    gs -q -dNOPAUSE -dBATCH -dSAFER -dEPSCrop -sDEVICE=pdfwrite \
      -sOutputFile="$1.pdf" "$1" && pdftotext "$1.pdf" - ;;
  esac | tr -s ' '
}

for rel in $files; do
  f=$D/$rel
  name=$(basename "$(dirname "$rel")")-$(basename "$rel" .eventlog)
  name=${name#real-hi-}
  # The bands in key order, top first: "NAME; DETAIL" from the CSV header.
  "$HP2X" -q "$f" -o "$name.csv" && ok || fail "$name: CSV exit $?"
  head -1 "$name.csv" | tr -d '\r' | python3 -c '
import csv, sys
for field in next(csv.reader(sys.stdin))[1:]:
    print(field)' > cols.txt
  named=$(grep -c '; table ' cols.txt)
  [ "$named" -ge 2 ] && ok || fail "$name: only $named IPE-named bands"
  # Each named band's name ends with its source location (then its address
  # when another band has the same name), and its detail says it too.
  while IFS= read -r col; do
    case $col in *"; table "*) ;; *) continue ;; esac
    key=${col%%; table *}
    src=$(printf '%s\n' "$col" | sed -n 's/.*; source \([^;]*\);.*/\1/p')
    [ -n "$src" ] || continue
    case $key in *" $src" | *" $src 0x"*) ok ;; *) fail "$name: '$key' lacks '$src'" ;; esac
    printf '%s\t%s\n' "$key" "$src" >> "$name.located"
  done < cols.txt
  [ -s "$name.located" ] && ok || fail "$name: no band with a location"

  # The key at the default size and at -e 15cm: every located band's
  # location whole, after what the band is.
  "$HP2X" -q -c "$f" -o "$name.pdf" && "$HP2X" -q -c "$f" -o "$name.ps" &&
    "$HP2X" -q -c -e 15cm "$f" -o "$name-15.eps" &&
    "$HP2X" -q -c -e 15cm "$f" -o "$name-15.pdf" && ok || fail "$name: pictures"
  for pic in "$name.pdf" "$name.ps" "$name-15.eps" "$name-15.pdf"; do
    key_text "$pic" > "$pic.txt"
    missing=0
    while IFS=$'\t' read -r key src; do
      what=${key%% *}
      grep -F -- "$src" "$pic.txt" | grep -qF -- "$what" || {
        missing=$((missing + 1)); echo "    $pic: '$what ... $src' not whole in the key"; }
    done < "$name.located"
    [ "$missing" -eq 0 ] && ok || fail "$pic: $missing locations cut in the key"
  done

  # The SVG tooltip: the name, the peak, then the whole record.
  "$HP2X" -q -c "$f" -o "$name.svg" && ok || fail "$name: SVG"
  first=$(grep -m1 '; table ' cols.txt)
  detail=${first#*; }
  key=${first%%; table *}
  python3 - "$name.svg" "$key" "$detail" <<'EOF' && ok || fail "$name: tooltip of '$key'"
import sys, xml.etree.ElementTree as ET
svg, key, detail = sys.argv[1:]
titles = [t.text for t in ET.parse(svg).iter("{http://www.w3.org/2000/svg}title")]
want = [t for t in titles if t.startswith(key + ": peak ")]
sys.exit(0 if want and all(t.endswith("\n" + detail) for t in want) else 1)
EOF

  # --summary: the record under each named band; unnamed addresses say why.
  "$HP2X" -q --summary "$f" > "$name.sum" && ok || fail "$name: summary"
  grep -qF -- "$detail" "$name.sum" && ok || fail "$name: summary lacks '$detail'"
  if grep -qE '^0x[0-9a-f]+$' cols.txt; then
    grep -q 'unnamed: no IPE event describes this info table' "$name.sum" && ok ||
      fail "$name: summary does not say why an address has no name"
  fi

  # .hp output keeps GHC's addresses.
  "$HP2X" -q "$f" -o "$name.hp" && ok || fail "$name: .hp"
  bad=$(sed -n '/^BEGIN_SAMPLE/,/^END_SAMPLE/p' "$name.hp" |
        grep -vE '^(BEGIN|END)_SAMPLE|^0x[0-9a-f]+	[0-9]+$' | head -1)
  [ -z "$bad" ] && ok || fail "$name: .hp has '$bad'"
done

# --include matches the record: only cons cells, whose name says "(:)".
f=$D/real-hi/ghc-9.10.3-mapwave.ipehi.eventlog
"$HP2X" -q --include 'closure CONSTR_2_0; type \[\];' "$f" -o inc.csv && ok || fail "--include"
head -1 inc.csv | tr -d '\r' | tr ',' '\n' | sed 1d | grep -v '^OTHER' > inc.txt
[ -s inc.txt ] && ! grep -qv '^(:) in ' inc.txt && ok ||
  fail "--include on the record: $(tr '\n' '|' < inc.txt)"
# --exclude too: no cons cell left among the bands.
"$HP2X" -q --exclude 'type \[\];' "$f" -o exc.csv && ok || fail "--exclude"
! head -1 exc.csv | tr ',' '\n' | grep -q '^(:) in ' && ok || fail "--exclude on the record"

# A binding too long for the key is cut at its dots, with one "…", what
# and where not; with a long location too, less of it is kept.  No real
# run has such names, so the generator of tests/data/eventlogs (IPE events
# as GHC 9.10 writes them) makes them.
python3 - "$TOP/tests/tools" <<'EOF' && ok || fail "long-binding fixture"
import sys
sys.path.insert(0, sys.argv[1])
import mkeventlog as m
binding = "processEverything.loop.step.accumulateIntoTheMap.go"
m.IPES[0x4c8e70] = ("sat_s1ab_info", "16", "Int", binding, "Main",
                    "src/Strict.hs:120:3-40")
m.IPES[0x4c8e48] = ("sat_s1ac_info", "16", "Int", binding, "Main",
                    "src/Data/Collection/Internal/Strict.hs:120:3-40")
m.FIXTURES["long"] = ("9.10", 8, {})
m.write_fixture(".", "long")
EOF
"$HP2X" -q -c long.eventlog -o long.pdf && pdftotext -bbox long.pdf long.html &&
python3 - long.html <<'EOF' && ok || fail "long binding: not cut, or its ends lost"
import re, sys
words = [(float(a), float(b), float(c), w) for a, b, c, w in re.findall(
    r'<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" [^>]*>([^<]*)</word>',
    open(sys.argv[1], encoding="utf-8").read())]
lines = {}
for x0, y, x1, w in words:
    lines.setdefault(y, []).append((x0, x1, w))
texts = {" ".join(w for _, _, w in ws): ws for ws in lines.values()}
binding = "processEverything.loop.step.accumulateIntoTheMap.go"
for where in ("src/Strict.hs:120:3-40",
              "src/Data/Collection/Internal/Strict.hs:120:3-40"):
    got = [(t, ws) for t, ws in texts.items()
           if t.startswith("thunk ") and t.endswith(" " + where)]
    assert len(got) == 1, (where, texts)
    t, ws = got[0]
    middle = t[len("thunk "):-len(" " + where)]
    # the binding cut at a dot: "…" and the end of it after a dot
    assert middle.count("\u2026") == 1, t
    head, tail = middle.split("\u2026")
    head = head.strip()
    assert head in ("", "in"), t
    assert tail == "" or ("." + tail) in ("." + binding) and \
        binding.endswith(tail) and (tail == binding or
                                    binding[-len(tail) - 1] == "."), t
    assert ws[-1][1] <= 720, ws  # within the page
EOF
finish
