#!/usr/bin/env bash
# The malformed and incomplete corpus through the binary.  Rejected inputs
# exit 1 with "hp2x: FILE:LINE: ..." or "hp2x: FILE: byte N: ...", create no
# output; accepted and incomplete ones exit 0, an incomplete one with
# exactly one warning naming where the incomplete part starts.
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data
cd "$T"
while IFS=$'\t' read -r file expected what; do
  [ "$file" = file ] && continue
  src=$D/malformed/$file
  [ -f "$src" ] || { fail "missing test file $file"; continue; }
  "$HP2X" "$src" -o out.pdf > /dev/null 2> err.txt; rc=$?
  case $expected in
    "reject or warn")
      if [ $rc -eq 1 ]; then
        [ ! -e out.pdf ] && ok || fail "$file: rejected but output left"
        grep -qE "^hp2x: [^ ]*$file(:[0-9]+|: byte [0-9]+): " err.txt && ok ||
          fail "$file: message lacks FILE:LINE or byte offset: $(head -1 err.txt)"
        line=$(printf '%s' "$what" | grep -oE '\(line [0-9]+' | head -1 | grep -oE '[0-9]+')
        if [ -n "$line" ]; then
          grep -q "$file:$line: " err.txt && ok ||
            fail "$file: wanted line $line: $(head -1 err.txt)"
        fi
      elif [ $rc -eq 0 ]; then
        grep -q "warning" err.txt && ok || fail "$file: accepted without a warning"
      else fail "$file: exit $rc"; fi;;
    reject*)
      if [ $rc -eq 1 ]; then ok; else fail "$file: exit $rc, wanted 1 ($what)"; fi
      [ ! -e out.pdf ] && ok || fail "$file: output left behind"
      # The message names the file and a line or byte offset.
      if grep -qE "^hp2x: [^ ]*$file(:[0-9]+|: byte [0-9]+): " err.txt; then ok
      else fail "$file: message lacks FILE:LINE or byte offset: $(head -1 err.txt)"; fi
      line=$(printf '%s' "$what" | grep -oE '\(line [0-9]+' | head -1 | grep -oE '[0-9]+')
      if [ -n "$line" ]; then
        grep -q "$file:$line: " err.txt && ok ||
          fail "$file: wanted line $line: $(head -1 err.txt)"
      fi
      case $expected in *"byte 0"*)
        grep -q "$file: byte 0: " err.txt && ok || fail "$file: wanted byte 0";;
      esac
      [ "$(wc -l < err.txt)" -le 3 ] && ok || fail "$file: too many messages";;
    accept*)
      if [ $rc -eq 0 ]; then ok; else fail "$file: exit $rc, wanted 0: $(head -1 err.txt)"; fi
      [ -s out.pdf ] && pdfinfo out.pdf > /dev/null 2>&1 && ok || fail "$file: no valid PDF";;
    recover*)
      # A corrupt event inside the data: exit 0, one warning naming the
      # corrupt bytes and the census lost, and small-valid-hc's samples but
      # that census.
      if [ $rc -eq 0 ]; then ok; else fail "$file: exit $rc, wanted 0: $(head -1 err.txt)"; fi
      [ -s out.pdf ] && pdfinfo out.pdf > /dev/null 2>&1 && ok || fail "$file: no valid PDF"
      [ "$(wc -l < err.txt)" -eq 1 ] &&
        grep -qE "^hp2x: [^ ]*$file: byte [0-9]+: warning: corrupt event \(.*\); skipped bytes [0-9]+-[0-9]+, losing the census at [0-9.]+ s; using the 5 complete samples$" err.txt &&
        ok || fail "$file: wanted one warning: $(cat err.txt)"
      "$HP2X" -q "$src" -o got.hp && "$HP2X" -q "$D/malformed/small-valid-hc.eventlog" -o base.hp &&
        python3 "$TOP/tests/tools/hpcompare.py" --lost-one got.hp base.hp > cmp.txt && ok ||
        fail "$file: not small-valid-hc but one census: $(head -2 cmp.txt)";;
  esac
  rm -f out.pdf
done < "$D/malformed/cases.tsv"

# Incomplete inputs: exit 0, one warning (when incomplete), the complete
# samples drawn; a cut inside the header is an error, and so is an
# eventlog cut before its heap profile began (the ghc-events oracle's
# table, tools-on-bad-inputs.tsv, says which have none).
no_profile=$(awk -F'\t' '$2 == "ghc-events-dump" && /no HEAP_PROF_BEGIN/ { sub(/^incomplete\//, "", $1); print $1 }' \
  "$D/reference/tools-on-bad-inputs.tsv")
[ "$(echo "$no_profile" | grep -c .)" -ge 4 ] && ok || fail "no-profile rows: $no_profile"
for src in "$D"/incomplete/*.hp "$D"/incomplete/*.eventlog; do
  file=$(basename "$src")
  "$HP2X" "$src" -o out.csv > /dev/null 2> err.txt; rc=$?
  if echo "$no_profile" | grep -qxF "$file"; then
    [ $rc -eq 1 ] && ok || fail "$file: no heap profile: exit $rc"
    grep -q "^hp2x: [^ ]*$file: no heap profile in this eventlog, which ends early" err.txt &&
      ok || fail "$file: $(head -1 err.txt)"
    [ ! -e out.csv ] && ok || fail "$file: output left"
    continue
  fi
  case $file in
    *cut-in-header*|*cut-in-magic*|*cut-in-event-types*|*cut-after-header-end*)
      [ $rc -eq 1 ] && ok || fail "$file: cut inside the header: exit $rc"
      [ ! -e out.csv ] && ok || fail "$file: output left";;
    *)
      [ $rc -eq 0 ] && ok || { fail "$file: exit $rc: $(head -1 err.txt)"; continue; }
      warnings=$(grep -c 'warning' err.txt)
      [ "$warnings" -le 1 ] && ok || fail "$file: $warnings warnings"
      if [ "$warnings" -eq 1 ]; then
        grep -qE "^hp2x: [^ ]*$file(:[0-9]+|: byte [0-9]+): warning: " err.txt && ok ||
          fail "$file: warning lacks a position: $(cat err.txt)"
      fi;;
  esac
  rm -f out.csv
done
# cuts.tsv's complete-sample counts, through the CSV (one row a sample).
while IFS=$'\t' read -r file source offset left what; do
  [ "$file" = file ] && continue
  [ -f "$D/incomplete/$file" ] || continue
  case $file in *cut-in-header*|*cut-in-magic*|*cut-in-event-types*|*cut-after-header-end*) continue;; esac
  echo "$no_profile" | grep -qxF "$file" && continue
  "$HP2X" -q -m0 "$D/incomplete/$file" -o rows.csv 2> err.txt ||
    { fail "$file: $(head -1 err.txt)"; continue; }
  rows=$(($(wc -l < rows.csv) - 1))
  [ "$rows" -eq "$left" ] && ok || fail "$file: $rows complete samples, cuts.tsv says $left ($what)"
done < "$D/incomplete/cuts.tsv"
# The eventlog GHC 9.0.2 itself corrupted (a label's first bytes
# overwritten at 216290, 29 stray bytes at 216332) in its last census: that
# census is lost, with one warning from the bad label to where events
# resume (216361); every other census equals the run's .hp.
"$HP2X" "$D/found/markers.hd.eventlog" -o out.pdf 2> err.txt; rc=$?
[ $rc -eq 0 ] && [ "$(wc -l < err.txt)" -eq 1 ] &&
  grep -q "markers.hd.eventlog: byte 216290: warning: corrupt event (HEAP_PROF_SAMPLE_STRING label is empty); skipped bytes 216290-216360, losing the census at 3.457207 s; using the 57 complete samples" err.txt && ok ||
  fail "found/markers.hd.eventlog: exit $rc: $(head -1 err.txt)"
"$HP2X" -q "$D/found/markers.hd.eventlog" -o found.hp &&
  python3 "$TOP/tests/tools/hpcompare.py" --skip-empty --ignore-times --lost-one found.hp "$D/found/markers.hd.hp" > cmp.txt &&
  grep -qx "lost sample 58 (time 1.516255 in B)" cmp.txt && ok ||
  fail "found/markers.hd.eventlog: not its .hp but the last census: $(head -2 cmp.txt)"
"$HP2X" "$D/found/markers.hd.hp" -o out.pdf && ok || fail "found/markers.hd.hp"

# Generated stress inputs (too big to keep in the repo).
head4='JOB "j"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
# A million distinct labels in one sample: read, exit 0; as hp2ps with its
# 20-band limit, 19 bands drawn and the rest in OTHER.
{ printf "$head4"'BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\n'
  awk 'BEGIN { for (i = 1; i <= 1000000; i++) printf "label%d\t%d\n", i, i }'
  printf 'END_SAMPLE 1.0\n'; } > million.hp
"$HP2X" -q million.hp -o million.pdf 2> err.txt &&
  pdftotext million.pdf - | grep -q label1000000 && ok ||
  fail "a million labels: $(head -1 err.txt)"
"$HP2X" -q million.hp -o million.csv 2> err.txt &&
  [ "$(head -1 million.csv | tr ',' '\n' | wc -l)" -eq 21 ] && ok ||
  fail "a million labels: CSV is not time + 19 bands + OTHER"
# Too little memory for it (an address-space limit; not under ASan or
# valgrind, which need their own): a clean "out of memory" at a line, or
# success; never a crash, never a file left.
if [ -z "${HP2X_UNDER_VALGRIND:-}" ] && case ${BUILD:-} in *asan*) false;; *) true;; esac; then
  for kb in 150000 200000 250000 300000; do
    for fmt in pdf svg; do
      rm -f million.$fmt
      (ulimit -v $kb; exec "$HP2X" -q million.hp -o million.$fmt) 2> err.txt; rc=$?
      if [ $rc -eq 0 ]; then ok
      elif [ $rc -eq 1 ] && grep -q "^hp2x: million.hp:[0-9]*: out of memory" err.txt &&
           [ ! -e million.$fmt ]; then ok
      else fail "a million labels in $kb KB -> $fmt: exit $rc: $(head -1 err.txt)"; fi
    done
  done
fi
rm -f million.hp million.pdf million.svg million.csv
# An .aux past its 64 MiB limit (-p): an error at that byte, nothing written.
cp "$TOP/samples/profiles/leak.hc.hp" in.hp
head -c $((64 * 1024 * 1024 + 1)) /dev/zero > in.aux
"$HP2X" -p in.hp 2> err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "^hp2x: in.aux: byte 67108864: larger than 64 MiB" err.txt &&
  [ ! -e in.ps ] && ok || fail "64 MiB .aux: exit $rc: $(head -1 err.txt)"
rm -f in.hp in.aux
# A line past the 16 MiB limit: an error at its line, no output.
{ printf "$head4"'BEGIN_SAMPLE 0.0\n'
  head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' x; printf '\t1\n'; } > longline.hp
rm -f out.pdf
"$HP2X" longline.hp -o out.pdf 2> err.txt; rc=$?
[ $rc -eq 1 ] && grep -q "^hp2x: longline.hp:6: line longer than 16777216 bytes" err.txt &&
  [ ! -e out.pdf ] && ok || fail "16 MiB line: exit $rc: $(head -1 err.txt)"
rm -f longline.hp
# Times of 100 and 300 digits (the parser has no upper bound): every
# writer prints them whole, as %.6f (%.2f in the .aux) would, and reads no
# further than its buffer (this once overflowed a 64-byte one: ASan run).
t100=$(printf '9%.0s' $(seq 100)).5 t300=$(printf '7%.0s' $(seq 300)).25
{ printf "$head4"'MARK %s\n' "$t300"
  printf 'BEGIN_SAMPLE %s\nf\t1\nEND_SAMPLE %s\n' 0.0 0.0 "$t100" "$t100"
  printf 'BEGIN_SAMPLE %s\nf\t2\nEND_SAMPLE %s\n' "$t300" "$t300"; } > huge-times.hp
for fmt in csv hp; do
  expect_status 0 "huge times -> $fmt" -- "$HP2X" -q huge-times.hp -o huge.$fmt
done
expect_status 0 "huge times -> ps and .aux" -- "$HP2X" -q huge-times.hp
csv_times=$(tail -n +2 huge.csv | cut -d, -f1 | tr '\n' ' ')
hp_times=$(sed -n 's/^BEGIN_SAMPLE //p' huge.hp | tr '\n' ' ')
printf '%s\n' "$csv_times" | grep -qE '^0\.000000 [0-9]{101}\.[0-9]{6} 7{15}[0-9]{285}\.[0-9]{6} $' &&
  [ "$csv_times" = "$hp_times" ] && ok ||
  fail "huge times: CSV $(printf '%s' "$csv_times" | cut -c1-60), .hp $(printf '%s' "$hp_times" | cut -c1-60)"
grep -qE "^MARK 7{15}[0-9]{285}\.[0-9]{6}$" huge.hp && ok || fail "huge MARK time in .hp"
grep -qE '^X_RANGE 7{15}[0-9]{285}\.[0-9]{2}$' huge-times.aux && ok ||
  fail "huge X_RANGE in .aux: $(head -c 60 huge-times.aux)"
expect_status 0 "huge times -> summary" -- "$HP2X" -q --summary huge-times.hp -o huge.txt
grep -qE '^3 samples from 0\.000 to 7{15}[0-9]{285}\.[0-9]{3} seconds$' huge.txt &&
  grep -qE '^total peak: 2 bytes at 7{15}[0-9]{285}\.[0-9]{3} seconds \(sample 2\)$' huge.txt &&
  grep -qE ' 7{15}[0-9]{285}\.[0-9]{3} +- +- +[0-9.e+]+  f$' huge.txt && ok ||
  fail "huge times in the summary: $(cut -c1-60 huge.txt | head -4)"
rm -f huge-times.* huge.*
finish
