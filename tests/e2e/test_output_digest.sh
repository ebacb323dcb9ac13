#!/usr/bin/env bash
# tests/tools/output-digest.sh, the check that a change alters no output,
# checks what it claims, on a few inputs (OUTPUT_DIGEST_MATCH: two samples,
# one incomplete and one malformed input, one comparison pair): two runs
# of the same binary, one reading on one thread and one on seven in parts
# of a byte (OUTPUT_DIGEST_JOBS, HP2X_PART_BYTES), print the same digests;
# its runs write every format
# of the formats' table (read through the library, tests/tools/
# format_table.c), each at least once successfully; and a planted change
# -- the same binary with another SOURCE_DATE_EPOCH, which dates
# PostScript and PDF only -- changes exactly the digests of the dated
# formats.
. "$(dirname "$0")/lib.sh"
CC=cc OPT=
[ -f "${BUILD:-}/build.env" ] && . "$BUILD/build.env"
lib=${BUILD:-$TOP/build}/libhp2x.a
export OUTPUT_DIGEST_MATCH='^samples/leak\.hy\.|^tests/data/incomplete/leak\.hb\.segfault\.hp$|^tests/data/malformed/bad-time\.hp$'
digest() { TZ=UTC0 bash "$TOP/tests/tools/output-digest.sh" "$1"; }
OUTPUT_DIGEST_JOBS=1 digest "$HP2X" > "$T/a.txt" 2> "$T/a.err" && ok ||
  fail "output-digest.sh failed: $(head -3 "$T/a.err")"
OUTPUT_DIGEST_JOBS=7 HP2X_PART_BYTES=1 digest "$HP2X" > "$T/b.txt" \
  2> "$T/b.err" && ok || fail "output-digest.sh failed again"
n=$(wc -l < "$T/a.txt")
[ "$n" -ge 40 ] && ok || fail "only $n runs: $(head -3 "$T/a.txt")"
cmp -s "$T/a.txt" "$T/b.txt" && ok ||
  fail "one and seven threads differ: $(diff "$T/a.txt" "$T/b.txt" | head -4)"
grep -q ' leak:compare.pdf$' "$T/a.txt" && ok || fail "no comparison run"
grep -q ' 1 tests/data/malformed/' "$T/a.txt" && ok || fail "no failing run"

# Every format of the table: a run named after it (NAME:FMT, or :X.FMT)
# that succeeds.
# shellcheck disable=SC2086
if "$CC" $OPT -I"$TOP/include" -o "$T/format_table" \
     "$TOP/tests/tools/format_table.c" "$lib" 2> "$T/cc.log" &&
   "$T/format_table" > "$T/table.tsv"; then
  ok
  while IFS=$'\t' read -r fmt _; do
    awk -v f="$fmt" '$2 == 0 && ($3 ~ ":" f "$" || $3 ~ ":[a-z]+\\." f "$")' \
      "$T/a.txt" | grep -q . && ok ||
      fail "output-digest.sh writes no $fmt (the formats' table has it)"
  done < "$T/table.tsv"
  [ "$(wc -l < "$T/table.tsv")" -ge 9 ] && ok || fail "the table: $(cat "$T/table.tsv")"
else
  fail "cannot build format_table against $lib: $(head -3 "$T/cc.log")"
fi

# A planted change: a wrapper giving the binary another source date (set
# after output-digest.sh sets its own).  PostScript and PDF are dated, so
# exactly their runs change; nothing else does.
cat > "$T/hp2x-dated" <<SH
#!/bin/sh
SOURCE_DATE_EPOCH=1700086400 exec "$HP2X" "\$@"
SH
chmod +x "$T/hp2x-dated"
digest "$T/hp2x-dated" > "$T/c.txt" 2> "$T/c.err" && ok || fail "planted run failed"
LC_ALL=C join -j 3 <(LC_ALL=C sort -k3,3 "$T/a.txt") \
  <(LC_ALL=C sort -k3,3 "$T/c.txt") > "$T/joined.txt"
[ "$(wc -l < "$T/joined.txt")" -eq "$n" ] && ok || fail "the planted run has other runs"
changed=$(awk '$2 != $4 || $3 != $5 {print $1}' "$T/joined.txt")
echo "$changed" | grep -q ':ps$' && echo "$changed" | grep -q ':pdf$' && ok ||
  fail "another source date changes no PS or PDF digest: $changed"
odd=$(echo "$changed" | grep -v ':ps$\|:eps$\|:pdf$\|:default$\|\.pdf$')
[ -z "$odd" ] && ok || fail "another source date changes what is not dated: $odd"
kept=$(awk '$2 == $4 {print $1}' "$T/joined.txt" | grep -c ':csv$\|:txt$\|:hp$')
[ "$kept" -ge 3 ] && ok || fail "text outputs changed too"
finish
