#!/usr/bin/env bash
# Every sample profile (.hp and eventlog) in every format, each output read
# by a real consumer: ghostscript for PS and EPS, pdfinfo for PDF,
# rsvg-convert for SVG, and hp2x itself for .hp and CSV.
. "$(dirname "$0")/lib.sh"
cd "$T"
check_ps() { gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage "$1" > gs.log 2>&1; }
check_pdf() { pdfinfo "$1" > pdf.log 2>&1; }
check_svg() { rsvg-convert "$1" > /dev/null 2> svg.log; }
# Each sample gets two formats in turn (one under the sanitizers or
# valgrind, which are slow): every sample and every format is covered, each
# format by a third (a sixth) of the samples.  A new format goes in this
# list with its reader in the case below, or on the "elsewhere" line with
# the test that reads it (tests/e2e/test_format_lists.sh checks both).
formats=(ps eps pdf svg csv hp)
# elsewhere: png (test_png.sh) txt (test_summary.sh) html (test_report.sh) pprof (test_pprof.sh)
n=0
for src in "$TOP"/samples/profiles/*.hp "$TOP"/samples/profiles/*.eventlog; do
  name=$(basename "$src")
  k=${#formats[@]}
  these=("${formats[$((n % k))]}" "${formats[$(((n + k / 2) % k))]}")
  case ${BUILD:-} in *asan*) these=("${formats[$((n % k))]}");; esac
  [ -z "${HP2X_UNDER_VALGRIND:-}" ] || these=("${formats[$((n % k))]}")
  for fmt in "${these[@]}"; do
    out="$name.$fmt"
    extra=""; [ $fmt = eps ] && extra="-e 6in"
    # shellcheck disable=SC2086
    if ! "$HP2X" -q $extra "$src" -o "$out" 2> err.txt; then
      fail "$name -> $fmt: $(head -1 err.txt)"; continue
    fi
    case $fmt in
      ps|eps) check_ps "$out" && ok || fail "$name.$fmt: gs rejects it: $(head -2 gs.log)";;
      pdf) check_pdf "$out" && ok || fail "$name.pdf: pdfinfo rejects it";;
      svg) check_svg "$out" && ok || fail "$name.svg: rsvg-convert rejects it: $(head -2 svg.log)";;
      hp) "$HP2X" -q "$out" -o back.csv && ok || fail "$name.hp: hp2x cannot read its own .hp";;
      csv) head -1 "$out" | grep -q '^time' && ok || fail "$name.csv: no header";;
    esac
    rm -f "$out"
  done
  n=$((n + 1))
done
[ $n -ge 50 ] && ok || fail "only $n samples found"

# Reproducible: two runs give the same bytes in every format (lib.sh sets
# SOURCE_DATE_EPOCH; PostScript carries the profile's DATE, as hp2ps does).
for fmt in "${formats[@]}"; do
  "$HP2X" -q -c "$TOP/samples/profiles/unicode.hc.hp" --format=$fmt -o r1.$fmt &&
  "$HP2X" -q -c "$TOP/samples/profiles/unicode.hc.hp" --format=$fmt -o r2.$fmt &&
  cmp -s r1.$fmt r2.$fmt && ok || fail "$fmt output differs between two runs"
done
# (Locale independence of every format: test_locale.sh.)

# A Linux build has cairo's PDF streams compressed at zlib's fastest level,
# not its default (src/tool/util/zlib_level.c): every zlib header says so
# (FLEVEL 0), and every stream still inflates.  Under PORTABLE=1 (and off
# Linux) they keep zlib's default level (FLEVEL 2; tests/e2e/test_seams.sh).
zlib_levels() {
  python3 - "$1" <<'PY'
import re, sys, zlib
data = open(sys.argv[1], "rb").read()
levels = set()
for m in re.finditer(rb"(?<!end)stream\r?\n", data):
    head = data[m.end():m.end() + 2]
    if len(head) == 2 and head[0] == 0x78:
        levels.add(head[1] >> 6)
        zlib.decompressobj().decompress(data[m.end():])
print(" ".join(str(x) for x in sorted(levels)))
PY
}
PORTABLE=0
[ -f "${BUILD:-}/build.env" ] && . "$BUILD/build.env"
if [ "$PORTABLE" = 1 ] || [ "$(uname -s)" != Linux ]; then want_flevel=2; else want_flevel=0; fi
"$HP2X" -q "$TOP/samples/profiles/manycc.hc.hp" -o level.pdf &&
  [ "$(zlib_levels level.pdf)" = $want_flevel ] && ok ||
  fail "PDF streams' zlib FLEVEL is not all $want_flevel: $(zlib_levels level.pdf)"

# Long labels are fitted to the key, never drawn off the page (a 1 MiB
# label; labels of every sample): every word's box lies inside the page.
on_page() {
  local w; w=$(pdfinfo "$1" | awk '/Page size/ {print $3}')
  pdftotext -bbox "$1" - | grep -o 'xMax="[0-9.]*"' | tr -dc '0-9.\n' |
    awk -v w="$w" '$1 > w { bad = 1 } END { exit bad }'
}
"$HP2X" -q "$TOP/tests/data/malformed/huge-line.hp" -o huge.pdf && on_page huge.pdf && ok ||
  fail "the 1 MiB label runs off the page"
for f in manycc.hc-L80 unicode.hc textbytes.hd; do
  "$HP2X" -q "$TOP/samples/profiles/$f.hp" -o k.pdf && on_page k.pdf && ok || fail "$f: text off the page"
done

# EPS: %%BoundingBox width equals the requested width, in every unit.
S=$TOP/samples/profiles/manycc.hc.hp
for w in "6in:432" "15cm:425" "200mm:567" "300pt:300" "300:300"; do
  spec=${w%%:*} want=${w##*:}
  "$HP2X" -e "$spec" "$S" -o w.eps || { fail "-e $spec"; continue; }
  got=$(grep -m1 '^%%BoundingBox:' w.eps | awk '{print $4 - $2}')
  [ "$got" = "$want" ] && ok || fail "-e $spec: BoundingBox width $got, wanted $want"
  head -1 w.eps | grep -q 'EPSF' && ok || fail "-e $spec: no EPSF header"
done
"$HP2X" -e15cm "$S" -o glued.eps && grep -q '^%%BoundingBox: 0 0 425 ' glued.eps && ok ||
  fail "-e15cm (glued) width"

# Standard input to standard output (hp2ps's filter mode), both kinds.
"$HP2X" < "$S" > stdin.ps && check_ps stdin.ps && ok || fail "stdin -> stdout PS"
"$HP2X" --format=svg - < "$TOP/samples/profiles/leak.hc.eventlog" > ev.svg &&
  check_svg ev.svg && ok || fail "eventlog on stdin -> SVG"
cat "$S" | "$HP2X" --format=pdf -o - > pipe.pdf && check_pdf pipe.pdf && ok ||
  fail "pipe -> PDF"
[ ! -e stdin.aux ] && ok || fail "filter mode wrote an .aux"

# hp2ps's naming: NAME without .hp reads NAME.hp; writes ./NAME.ps + .aux.
mkdir sub && cp "$S" sub/prog.hp
"$HP2X" sub/prog && [ -s prog.ps ] && [ -s prog.aux ] && ok ||
  fail "hp2x sub/prog did not write ./prog.ps and ./prog.aux"
check_ps prog.ps && ok || fail "prog.ps unreadable"
"$HP2X" -p -c sub/prog.hp && check_ps prog.ps && ok || fail "-p round trip"
"$HP2X" -e 6in sub/prog.hp && grep -q '^%%BoundingBox' prog.ps && ok ||
  fail "-e without -o writes EPS to BASE.ps"
# .aux round trip: a second -p run keeps order, ranges and shades exactly,
# colours included.
"$HP2X" -c sub/prog.hp && cp prog.aux first.aux && "$HP2X" -p -c sub/prog.hp &&
  cmp -s prog.aux first.aux && ok || fail "-p -c does not round-trip the .aux"
grep -q '^SHADE .* 1\.[0-9]\{6\}$' first.aux && ok || fail "label colours not kept exactly"
# hp2ps's palette: its own encoding, round-tripped too.
"$HP2X" -c --palette=hp2ps sub/prog.hp && cp prog.aux first.aux &&
  "$HP2X" -p -c --palette=hp2ps sub/prog.hp && cmp -s prog.aux first.aux && ok ||
  fail "-p -c --palette=hp2ps does not round-trip the .aux"
grep -q '^SHADE .* 0\.[0-9]\{6\}$' first.aux && ok || fail "hp2ps colour shades not kept exactly"
rm -f prog.aux
"$HP2X" -p sub/prog.hp 2> err.txt; [ $? -eq 1 ] && grep -q 'prog.aux' err.txt && ok ||
  fail "-p without BASE.aux must fail naming it"
# What a reader sees: the text of the picture, read back from its glyphs
# (pdftotext; PostScript and EPS through ps2pdf): the job, the axis unit
# and every band name of the key, each once.  (SVG draws its glyphs as
# paths; test_render checks its band names and sizes.)
printf 'JOB "keytest"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n%b%b%b' \
  'BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\nBEGIN_SAMPLE 1.00\n' \
  'alpha\t4000\nbravo\t3000\ncharlie\t2000\ndelta\t1000\nEND_SAMPLE 1.00\n' \
  'BEGIN_SAMPLE 2.00\nEND_SAMPLE 2.00\n' > key.hp
for fmt in pdf ps eps; do
  "$HP2X" -q key.hp -o key.$fmt || { fail "key.$fmt not drawn"; continue; }
  if [ $fmt = pdf ]; then cp key.pdf key-$fmt.pdf; else
    ps2pdf -dEPSCrop key.$fmt key-$fmt.pdf 2> /dev/null; fi
  pdftotext key-$fmt.pdf key-$fmt.txt 2> /dev/null
  for word in keytest seconds alpha bravo charlie delta; do
    [ "$(grep -cx "$word" key-$fmt.txt 2> /dev/null)" = 1 ] && ok ||
      fail "$fmt: a reader does not see '$word' once: $(tr '\n' ' ' < key-$fmt.txt 2> /dev/null)"
  done
done
finish
