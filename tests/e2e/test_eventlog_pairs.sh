#!/usr/bin/env bash
# The eventlog front end's proof: every samples/profiles eventlog, converted
# by the binary to .hp with the run's -L, holds the same censuses as the .hp
# GHC wrote in the same run -- label for label, value for value -- after the
# normalisations the formats spec documents: the (ccsID) prefix stripped,
# the .hp's empty first and last samples left out, times ignored (different
# clocks).  -hr's MANY lines are the one known difference (the RTS writes
# them to .hp only).
. "$(dirname "$0")/lib.sh"
P=$TOP/samples/profiles
CMP="python3 $TOP/tests/tools/hpcompare.py --strip-ids --skip-empty --ignore-times"
cd "$T"
pairs=0 same=0
for ev in "$P"/*.eventlog "$P"/*.eventlog.gz; do
  name=$(basename "$ev"); name=${name%.gz}; name=${name%.eventlog}
  hp=$P/$name.hp
  [ -f "$hp" ] || continue
  case $ev in *.gz) gzip -dc "$ev" > in.eventlog; ev=in.eventlog;; esac
  L=$(awk -F'\t' -v r="$name" '$1 == r { if (match($2, /-L[0-9]+/)) print substr($2, RSTART + 2, RLENGTH - 2) }' "$P/runs.tsv")
  "$HP2X" -q "$ev" --ccs-length="${L:-25}" -o out.hp 2> err.txt ||
    { fail "$name: $(head -1 err.txt)"; continue; }
  pairs=$((pairs + 1))
  if $CMP out.hp "$hp" > cmp.txt; then
    same=$((same + 1)); ok
  else
    case $name in
      *.hr) # allowed: the .hp's extra MANY entries, nothing else
        grep -q '^sample count' cmp.txt && fail "$name: $(head -1 cmp.txt)" ||
          { grep -v '^different' cmp.txt | grep -qv "only in A {}, only in B {b'MANY'" &&
            fail "$name differs beyond MANY: $(head -2 cmp.txt)" || ok; };;
      *) fail "$name: $(head -3 cmp.txt)";;
    esac
  fi
done
echo "eventlog vs .hp: $same of $pairs pairs identical (others: -hr MANY only)"
[ $pairs -ge 48 ] && ok || fail "only $pairs pairs found"
# Default is the whole stack: longer labels than the .hp's -L25 cut.
"$HP2X" -q "$P/manycc.hc.eventlog" --format=csv -o full.csv
"$HP2X" -q "$P/manycc.hc.eventlog" --ccs-length=25 --format=csv -o cut.csv
[ "$(head -1 full.csv | wc -c)" -gt "$(head -1 cut.csv | wc -c)" ] && ok ||
  fail "whole stacks are not longer than -L25 cuts"
# A .hp through the converter is a clean copy: same samples.
"$HP2X" -q "$P/leak.hc.hp" -o copy.hp && python3 "$TOP/tests/tools/hpcompare.py" copy.hp "$P/leak.hc.hp" > /dev/null && ok ||
  fail ".hp -> .hp copy differs"
"$HP2X" -q "$TOP/tests/data/incomplete/manycc.hc.cut-mid-sample.hp" -o clean.hp &&
  [ "$(grep -c '^END_SAMPLE' clean.hp)" = 64 ] && [ "$(tail -1 clean.hp | cut -c1-10)" = "END_SAMPLE" ] && ok ||
  fail "cut .hp -> clean copy"
finish
