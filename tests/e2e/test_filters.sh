#!/usr/bin/env bash
# --include / --exclude: labels filtered out take no part in hp2ps's
# selection, their values go to OTHER (named so in the CSV and the key), and
# every sample's total stays what it was.
. "$(dirname "$0")/lib.sh"
cd "$T"
S=$TOP/samples/profiles/manycc.hc.hp
header() { head -1 "$1" | tr -d '\r' | tr ',' '\n' | tail -n +2; }
# Row sums of a CSV (all band columns), one line per sample.
row_sums() { tail -n +2 "$1" | awk -F, '{ s = 0; for (i = 2; i <= NF; i++) s += $i; print s }'; }

"$HP2X" -m0 -t0 "$S" -o all.csv || fail "unfiltered CSV"
"$HP2X" -m0 -t0 --include sierra "$S" -o inc.csv || fail "--include CSV"
header inc.csv > inc.txt
[ "$(tail -1 inc.txt)" = "OTHER (incl. filtered)" ] && ok ||
  fail "--include: the last column is '$(tail -1 inc.txt)', not the filtered OTHER"
n=$(grep -c sierra inc.txt)
[ "$n" -ge 3 ] && ok || fail "--include sierra kept $n sierra bands"
[ "$(grep -vc -e sierra -e '^OTHER (incl. filtered)$' inc.txt)" -eq 0 ] && ok ||
  fail "--include sierra kept other bands: $(grep -v sierra inc.txt | head -3)"
cmp -s <(row_sums all.csv) <(row_sums inc.csv) && ok ||
  fail "--include changed the totals of the samples"

"$HP2X" -m0 -t0 --exclude 'sierra|juliett' "$S" -o exc.csv || fail "--exclude CSV"
header exc.csv > exc.txt
grep -qE 'sierra|juliett' exc.txt && fail "--exclude left a matching band" || ok
grep -qx 'OTHER (incl. filtered)' exc.txt && ok || fail "--exclude: no filtered OTHER"
cmp -s <(row_sums all.csv) <(row_sums exc.csv) && ok ||
  fail "--exclude changed the totals of the samples"

# The selection over what remains is hp2ps's: the same bands, in the same
# order, as for a profile holding only the remaining labels (-t1: the
# trace threshold is over the remaining labels' total).
awk '/^[A-Z_]+ / || /sierra/' "$S" > only.hp
"$HP2X" only.hp -m0 -o only.csv && "$HP2X" "$S" -m0 --include sierra -o sel.csv ||
  fail "selection runs"
cmp -s <(header only.csv) <(header sel.csv | grep -v '^OTHER (incl') && ok ||
  fail "bands over the remaining labels differ from hp2ps's selection of them"
# -m counts the filtered OTHER: -m4 gives 3 bands of matching labels + OTHER.
"$HP2X" "$S" -m4 --include sierra -o m4.csv && header m4.csv > m4.txt
[ "$(wc -l < m4.txt)" -eq 4 ] && [ "$(tail -1 m4.txt)" = "OTHER (incl. filtered)" ] &&
  cmp -s <(head -3 m4.txt) <(header only.csv | head -3) && ok ||
  fail "-m4 --include: $(tr '\n' ' ' < m4.txt)"

# The key says so.
"$HP2X" -c "$S" --exclude sierra -o key.pdf && pdftotext key.pdf key.txt &&
  grep -q 'OTHER (incl. filtered)' key.txt && ok || fail "key lacks 'OTHER (incl. filtered)'"
# Nothing filtered: plain OTHER, as before.
"$HP2X" "$S" --exclude 'no such label' -o none.csv &&
  header none.csv | grep -qx OTHER && ok || fail "a filter matching nothing renamed OTHER"
# Several inputs share the filter.
"$HP2X" "$S" "$TOP/samples/profiles/leak.hc.hp" --include 'sierra|leak' -m0 -o two.csv &&
  head -1 two.csv | tr -d "\r" | grep -q '^input,time,.*OTHER (incl. filtered)$' && ok ||
  fail "two inputs with --include"

# A regex that does not compile is a usage error: cases of
# tests/cli/cases.test.
finish
