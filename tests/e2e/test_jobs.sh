#!/usr/bin/env bash
# --jobs: reading on several threads writes the bytes one thread writes.
#   - Every profile in samples/ and every small input kept under tests/data
#     (malformed, cut short, corrupt as GHC wrote it, every GHC layout) is
#     read with --jobs=1, with --jobs=7 in parts of a byte and with
#     --jobs=2 in parts of 700 bytes (HP2X_PART_BYTES, so that these small
#     inputs are read in parts), and so again with their censuses' values
#     packed (HP2X_PACK_BYTES=1, as an input of 512 MiB is; one thread
#     packed: read/test_parts): the CSV and the summary, the exit status
#     and standard error are the same.
#   - The real GHC runs over 1 MiB (samples' longrun eventlogs, 5 to 7 MB,
#     and its biggest .hp) in the parts hp2x chooses, from the file (read
#     with pread) and from a pipe: the same CSV and SVG.
#   - A generated profile of 40,000 samples, enough that the bands are
#     filled and the CSV rows formatted on several threads too: the same
#     CSV and summary with --jobs=1, 2 and 7.
#   - Over an old output of 2 MiB (let go of on a thread), the same CSV
#     and SVG, and nothing else left in the folder.
#   - Watch mode's first read of a file, on several threads: the last
#     picture is the one-shot picture.
#   - The default is the cores hp2x may use: with one core allowed
#     (taskset), the same bytes.
# Its one wait is a limit (the watch ends within 60 s), not a clock, so
# run-tests.sh: with others
. "$(dirname "$0")/lib.sh"
export LC_ALL=C.UTF-8
# run NAME INPUT ARGS...: the outputs of hp2x -q ARGS INPUT into $T/NAME.*
run() {
  local name=$1 in=$2; shift 2
  "$HP2X" "$@" "$in" -o "$T/$name.csv" > /dev/null 2> "$T/$name.err"
  echo "exit $?" >> "$T/$name.err"
  "$HP2X" -q "$@" --summary "$in" -o "$T/$name.txt" 2> /dev/null
}
same_file() { # A B: the same bytes, or neither written
  if [ -e "$1" ] || [ -e "$2" ]; then cmp -s "$1" "$2"; fi
}
same() { # A B WHAT
  if same_file "$T/$1.csv" "$T/$2.csv" && same_file "$T/$1.txt" "$T/$2.txt" &&
     cmp -s "$T/$1.err" "$T/$2.err"; then ok; else
    fail "$3 differs: $(diff "$T/$1.err" "$T/$2.err" | head -3)"
  fi
}
inputs=("$TOP"/samples/profiles/*.hp "$TOP"/samples/profiles/*.eventlog)
for d in malformed incomplete found eventlogs; do
  while IFS= read -r -d '' f; do inputs+=("$f"); done < <(
    find "$TOP/tests/data/$d" -type f -size -300k \
      \( -name '*.hp' -o -name '*.eventlog' \) -print0 | sort -z)
done
for f in "$TOP"/tests/data/ghc-modern/*/*.eventlog; do inputs+=("$f"); done
[ "${#inputs[@]}" -gt 100 ] && ok || fail "only ${#inputs[@]} inputs"
for f in "${inputs[@]}"; do
  rm -f "$T"/one.* "$T"/many.*
  run one "$f" --jobs=1
  # JOBS:PART_BYTES:PACK_BYTES (empty: the default)
  for how in 7:1: 2:700: 2:700:1; do
    IFS=: read -r jobs parts pack <<< "$how"
    rm -f "$T"/many.*
    HP2X_PART_BYTES=$parts HP2X_PACK_BYTES=$pack run many "$f" --jobs=$jobs
    same one many "${f#"$TOP"/} with --jobs=$jobs, parts of ${parts:-any} bytes, packed from ${pack:-512 MiB}"
  done
done

# Real runs over 1 MiB, in the parts hp2x chooses, from the file and piped.
for f in "$TOP"/samples/profiles/longrun.h[cT].eventlog.gz "$TOP"/samples/profiles/longrun.hT.hp; do
  b=$(basename "${f%.gz}")
  case $f in *.gz) zcat "$f" > "$T/$b" ;; *) cp "$f" "$T/$b" ;; esac
  [ "$(stat -c %s "$T/$b")" -gt 1048576 ] && ok || fail "$b is under 1 MiB"
  "$HP2X" -q --jobs=1 "$T/$b" -o "$T/big1.csv" && "$HP2X" -q --jobs=1 -c "$T/$b" -o "$T/big1.svg" &&
    ok || fail "$b on one thread"
  "$HP2X" -q --jobs=2 "$T/$b" -o "$T/big2.csv" && "$HP2X" -q --jobs=2 -c "$T/$b" -o "$T/big2.svg" &&
    ok || fail "$b on two threads"
  "$HP2X" -q --jobs=3 - -o "$T/big3.csv" < "$T/$b" &&
    cat "$T/$b" | "$HP2X" -q --jobs=3 -c - -o "$T/big3.svg" && ok || fail "$b piped"
  cmp -s "$T/big1.csv" "$T/big2.csv" && cmp -s "$T/big1.svg" "$T/big2.svg" &&
    ok || fail "$b: two threads write other bytes"
  cmp -s "$T/big1.csv" "$T/big3.csv" && cmp -s "$T/big1.svg" "$T/big3.svg" &&
    ok || fail "$b: read from a pipe, other bytes"
  [ "$(grep -c . "$T/big1.csv")" -gt 100 ] && ok || fail "$b: too few samples"
done

# Many samples: the bands' values and the CSV rows on several threads.
awk 'BEGIN {
  print "JOB \"gen\"\nDATE \"d\"\nSAMPLE_UNIT \"seconds\"\nVALUE_UNIT \"bytes\""
  for (s = 0; s < 40000; s++) {
    printf "BEGIN_SAMPLE %d.%03d\n", s, s % 1000
    for (k = 0; k < 5; k++) printf "(%d)lab%d\t%d\n", (s * 7 + k * 13) % 30, k, 8 * ((s * 31 + k) % 9973)
    printf "END_SAMPLE %d.%03d\n", s, s % 1000
  }
}' > "$T/many.hp"
for j in 1 2 7; do
  "$HP2X" -q --jobs=$j "$T/many.hp" -o "$T/many$j.csv" &&
    "$HP2X" -q --jobs=$j --summary "$T/many.hp" -o "$T/many$j.txt" &&
    ok || fail "40,000 samples on $j threads"
done
cmp -s "$T/many1.csv" "$T/many2.csv" && cmp -s "$T/many1.csv" "$T/many7.csv" &&
  cmp -s "$T/many1.txt" "$T/many2.txt" && cmp -s "$T/many1.txt" "$T/many7.txt" &&
  ok || fail "40,000 samples: other bytes on several threads"
[ "$(grep -c . "$T/many1.csv")" -eq 40001 ] && ok || fail "40,000 samples: not 40,000 rows"

# Over an old output of 2 MiB (one let go of on a thread with --jobs
# above 1, io/outfile.c): the bytes --jobs=1 writes, nothing else left in
# the folder (no temporary file, no .nfsXXXX).
"$HP2X" -q --jobs=1 -c "$T/many.hp" -o "$T/many1.svg"
for j in 2 7; do
  rm -rf "$T/over$j" && mkdir "$T/over$j"
  for ext in csv svg aux; do head -c 2097152 /dev/zero > "$T/over$j/out.$ext"; done
  "$HP2X" -q --jobs=$j "$T/many.hp" -o "$T/over$j/out.csv" &&
    "$HP2X" -q --jobs=$j -c "$T/many.hp" -o "$T/over$j/out.svg" &&
    cmp -s "$T/many1.csv" "$T/over$j/out.csv" && cmp -s "$T/many1.svg" "$T/over$j/out.svg" &&
    ok || fail "--jobs=$j over an old output: other bytes"
  left=$(cd "$T/over$j" && ls -A | tr '\n' ' ')
  [ "$left" = "out.aux out.csv out.svg " ] && ok || fail "--jobs=$j over an old output left: $left"
done

# Watch mode: the first read on several threads; the eventlog's end
# marker ends the watch with the one-shot picture.
cp "$T/longrun.hc.eventlog" "$T/w.eventlog"
HP2X_PART_BYTES=4096 timeout 60 "$HP2X" -q --jobs=3 --watch --interval=0.05 \
  "$T/w.eventlog" -o "$T/w.svg" && ok || fail "the watch failed"
"$HP2X" -q --jobs=1 "$T/w.eventlog" -o "$T/once.svg"
cmp -s "$T/w.svg" "$T/once.svg" && ok || fail "the watch's picture is not the one-shot one"

# The default: every core this process may use; one allowed, the same.
if command -v taskset > /dev/null && taskset -c 0 true 2> /dev/null; then
  "$HP2X" -q "$T/longrun.hc.eventlog" -o "$T/default.csv" &&
    taskset -c 0 "$HP2X" -q "$T/longrun.hc.eventlog" -o "$T/taskset.csv" &&
    "$HP2X" -q --jobs=1 "$T/longrun.hc.eventlog" -o "$T/jobs1.csv" &&
    cmp -s "$T/default.csv" "$T/jobs1.csv" && cmp -s "$T/taskset.csv" "$T/jobs1.csv" &&
    ok || fail "the default --jobs writes other bytes"
else
  echo "SKIPPED: taskset (util-linux) cannot limit this process's cores"
fi
finish
