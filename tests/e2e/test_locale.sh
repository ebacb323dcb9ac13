#!/usr/bin/env bash
# test_locale.sh -- hp2x takes the user's locale (main's setlocale) for
# messages and text shaping, but no number it reads or writes follows it:
# under de_DE.UTF-8, whose decimal point is ',', every output (PS, EPS, PDF,
# SVG, PNG, CSV, .hp, .aux, --summary) and every message with a number is
# byte for byte what the C locale gives, and option values with a '.' parse.
# SKIPPED (passes) where the de_DE.UTF-8 locale is not installed.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
DE=de_DE.UTF-8
if [ "$(LC_ALL=$DE bash -c 'printf %.1f 0' 2> /dev/null)" != "0,0" ]; then
  echo "SKIPPED: the $DE locale is not installed (make deps installs it)"
  exit 0
fi
P=$TOP/samples/profiles

# The locale does reach the binary: libc's messages come in German.
LC_ALL=$DE "$HP2X" missing.hp 2> de.err
grep -q 'Datei oder Verzeichnis nicht gefunden' de.err && ok ||
  fail "the user's locale does not reach hp2x (main's setlocale): $(cat de.err)"

# runs NAME ARGS...: runs hp2x in C/NAME and de/NAME with the same
# arguments (outputs named relative to the directory) and compares every
# file written, standard output and standard error, byte for byte.
runs() {
  local name=$1; shift
  local loc
  for loc in C de; do
    mkdir -p "$loc/$name"
    (cd "$loc/$name" && if [ $loc = C ]; then export LC_ALL=C.UTF-8; else export LC_ALL=$DE; fi &&
      "$HP2X" "$@" > stdout 2> stderr; echo "exit $?" > status)
  done
  local f n=0
  for f in C/"$name"/*; do
    f=${f#C/"$name"/}; n=$((n + 1))
    if cmp -s "C/$name/$f" "de/$name/$f"; then ok; else
      fail "$name: $f differs under $DE"
      diff <(cat -v "C/$name/$f") <(cat -v "de/$name/$f") 2>/dev/null | head -4 | sed 's/^/    /'
    fi
  done
  [ "$(ls "de/$name" | wc -l)" -eq "$n" ] && ok || fail "$name: other files under $DE"
}

# Every format, with decimal option values (-t, -e, --from, --to).
for fmt in ps eps pdf svg png csv hp txt html pprof; do
  runs "leak-$fmt" -c -m5 -t0.5 -e15.5cm "$P/leak.hc.hp" --format=$fmt -o out.$fmt
  runs "window-$fmt" --from=1.25 --to=3.5 "$P/leak.hy.hp" --format=$fmt -o out.$fmt
done
for fmt in ps pdf svg csv txt; do
  runs "heap-$fmt" --heap "$P/leak.hT.eventlog" --format=$fmt -o out.$fmt
done
# Labels in many scripts (Latin, Cyrillic, Greek, CJK): pango shapes and
# picks fonts the same under the user's locale.
for fmt in pdf svg png; do
  runs "unicode-$fmt" -c "$P/unicode.hc.hp" --format=$fmt -o out.$fmt
done
# hp2ps's default outputs: BASE.ps and BASE.aux (shades as decimals), then
# -p reading that .aux back.
runs aux "$P/leak.hc.hp"
for loc in C de; do
  mkdir -p "$loc/aux-reuse" && cp "$loc/aux/leak.hc.aux" "$loc/aux-reuse/reuse.aux"
done
runs aux-reuse -c -p "$P/leak.hc.hp" -o reuse.ps
runs summary --summary -t0 "$P/longrun.hc.hp"
runs diff --diff "$P/leak.hc.hp" "$P/leak.hy.hp" -o diff.svg
# Messages with numbers: the library's (a time out of sequence), the
# tool's (an empty window, a bad option value).
printf 'JOB "x"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 1.5\na\t10\nEND_SAMPLE 1.5\nBEGIN_SAMPLE 0.25\na\t10\nEND_SAMPLE 0.25\n' > seq.hp
runs order-message "$T/seq.hp" -o x.csv
runs window-message --from=100.5 --to=200.25 "$P/leak.hc.hp" -o x.csv
runs range-message --from=2.5 --to=1.5 "$P/leak.hc.hp" -o x.csv
grep -q 'time 0\.250000 is before .* 1\.500000' de/order-message/stderr && ok ||
  fail "library message: $(cat de/order-message/stderr)"
grep -q -- '--from 2\.5 is not before --to 1\.5' de/range-message/stderr && ok ||
  fail "tool message: $(cat de/range-message/stderr)"
# The corrupt-event warning names the lost census's time.
runs corrupt-warning "$TOP/tests/data/ghc-modern/ghc-9.10.3/markers.hc.eventlog" -o x.csv
grep -q 'losing the census at 2\.472632 s' de/corrupt-warning/stderr && ok ||
  fail "corrupt-event warning: $(cat de/corrupt-warning/stderr)"
# The runs did succeed (a run that fails alike in both locales would
# compare equal).
for d in leak-ps leak-pdf leak-svg leak-png leak-csv leak-hp leak-txt window-pdf heap-svg \
         unicode-pdf unicode-png aux aux-reuse summary diff corrupt-warning; do
  grep -qx 'exit 0' "de/$d/status" && ok || fail "$d: $(cat "de/$d/status") under $DE: $(head -2 "de/$d/stderr")"
done
[ -s de/aux/leak.hc.aux ] && grep -q 'SHADE .*0\.' de/aux/leak.hc.aux && ok ||
  fail "no .aux with decimal shades written"
finish
