#!/usr/bin/env bash
# --summary: the table's numbers agree with the CSV of the same selection;
# the leak suspects are the bands that grow steadily; the table goes to the
# terminal, or atomically to -o FILE.txt.
. "$(dirname "$0")/lib.sh"
cd "$T"
L=$TOP/samples/profiles/leak.hc.hp

"$HP2X" --summary "$L" > s.txt 2> err.txt || fail "--summary to the terminal"
[ ! -s err.txt ] && ok || fail "--summary wrote to stderr: $(head -1 err.txt)"
ls ./*.ps ./*.aux 2> /dev/null && fail "--summary wrote a picture or .aux" || ok
"$HP2X" "$L" -o s.csv
# The total's peak and its time, from the CSV's rows.
want=$(tail -n +2 s.csv | tr -d '\r' | awk -F, '{ s = 0; for (i = 2; i <= NF; i++) s += $i;
  if (s > m) { m = s; t = $1 } } END { printf "%d %.3f\n", m, t }')
got=$(sed -n 's/^total peak: \([0-9,]*\) bytes at \([0-9.]*\) seconds.*/\1 \2/p' s.txt | tr -d ,)
[ -n "$got" ] && [ "$got" = "$want" ] && ok || fail "total peak '$got', CSV says '$want'"
# Each band's peak is its column's maximum (rows: key order, top first,
# as the CSV's columns).
want=$(tail -n +2 s.csv | tr -d '\r' | awk -F, '{ for (i = 2; i <= NF; i++) if ($i > m[i]) m[i] = $i; n = NF }
  END { for (i = 2; i <= n; i++) print m[i] + 0 }')
got=$(awk '/^ +total +peak/ { on = 1; next } on && NF == 0 { exit } on { gsub(",", "", $2); print $2 }' s.txt)
[ -n "$got" ] && [ "$got" = "$want" ] && ok || fail "band peaks '$got', CSV says '$want'"
# The leak (readings kept forever) is the one suspect.
sed -n '/^leak suspects/,/^$/p' s.txt > sus.txt
grep -q '^  1\. .*readings' sus.txt && ok || fail "readings is not suspect 1: $(cat sus.txt)"
[ "$(grep -c '^ *[0-9]*\. ' sus.txt)" -eq 1 ] && ok || fail "more than one suspect: $(cat sus.txt)"

# A made-up profile with known slopes: 'grow' gains 1000 bytes a second,
# 'flat' stays, 'saw' goes up and down, 'tiny' grows 1 byte a second.
{
  printf 'JOB "slopes"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
  printf 'BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\n'
  for i in 1 2 3 4 5 6 7 8 9 10; do
    printf 'BEGIN_SAMPLE %d.0\ngrow\t%d\nflat\t50000\nsaw\t%d\ntiny\t%d\nEND_SAMPLE %d.0\n' \
      "$i" $((i * 1000)) $(( (i % 2) * 40000 + 1000)) $((100 + i)) "$i"
  done
  printf 'BEGIN_SAMPLE 11.0\nEND_SAMPLE 11.0\n'
} > slopes.hp
"$HP2X" --summary -t0 slopes.hp > k.txt || fail "--summary slopes.hp"
grep -qE '^ +55,000 +10,000 +10\.000 +1,000 +1\.00 +55,000  grow$' k.txt && ok ||
  fail "grow's row: $(grep 'grow$' k.txt)"
grep -qE ' 0 +0\.00 +500,000  flat$' k.txt && ok || fail "flat's row: $(grep 'flat$' k.txt)"
sed -n '/^leak suspects/,/^$/p' k.txt > ks.txt
grep -q '^  1\. +9,000 bytes over the run, 1,000 bytes per second, R^2 1\.00  grow$' ks.txt && ok ||
  fail "grow is not the suspect: $(cat ks.txt)"
grep -qE 'flat|saw|tiny' ks.txt && fail "a steady or noisy band is a suspect: $(cat ks.txt)" || ok
# The empty first and last samples are not fitted: grow's R^2 is 1.
# Nothing grows: no suspects.
"$HP2X" --summary --exclude grow -t0 slopes.hp | grep -q '^leak suspects.*: none$' && ok ||
  fail "no suspects expected without grow"

# -o FILE.txt: the same table, written atomically (under a comma-decimal
# locale too: test_locale.sh).
"$HP2X" -t0 slopes.hp -o k2.txt && cmp -s k.txt k2.txt && ok || fail "-o FILE.txt differs from the terminal's"
# One table per input.
"$HP2X" --summary "$L" slopes.hp -o two.txt && [ "$(grep -c '^== ' two.txt)" -eq 2 ] && ok ||
  fail "two inputs: $(grep -c '^== ' two.txt 2>/dev/null) tables"
# A window and the index axis apply to the summary too.
"$HP2X" --summary --x=index -t0 slopes.hp | grep -q '1,000 bytes per sample' && ok ||
  fail "--x=index summary slope unit"
finish
