#!/usr/bin/env bash
# output-digest.sh HP2X [OUT] -- runs HP2X over every profile in samples/
# and every input kept under tests/data/ in each output format and several
# option sets, and prints one line per run: "<sha256> <exit> <run>".  Two
# builds whose digests are equal write the same bytes for all of them: the
# check that a refactoring changed no output.  Every format of the formats'
# table is written (tests/e2e/test_output_digest.sh checks it).
# OUTPUT_DIGEST_MATCH=ERE runs only the inputs whose name (samples/NAME,
# tests/data/...) matches, and the comparisons whose first input does.
# OUTPUT_DIGEST_JOBS=N reads every input on N threads (--jobs=N), and
# HP2X_PART_BYTES (passed on) cuts it in parts that small, so that even
# the small inputs here are read in parts: the digests must not change.
# Needs bash, sha256sum, zcat.
set -u
match=${OUTPUT_DIGEST_MATCH:-}
jobs=()
[ -z "${OUTPUT_DIGEST_JOBS:-}" ] || jobs=("--jobs=$OUTPUT_DIGEST_JOBS")
hp2x=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 LC_ALL=C.UTF-8
export HP2X_FONTS_CONF="$top/fonts/fonts.conf"
run() { # name, input, args...
  local name=$1 in=$2; shift 2
  rm -rf "$work/o"; mkdir -p "$work/o"
  (cd "$work/o" && "$hp2x" -q ${jobs[@]+"${jobs[@]}"} "$@" "../in/$in" \
     > stdout 2> stderr)
  local rc=$?
  local sum
  sum=$(cd "$work/o" && find . -type f -print0 | sort -z |
        xargs -0 sha256sum | sha256sum | cut -c1-16)
  echo "$sum $rc $name"
}
# Inputs are named relative to the working directory (../in/NAME), so that
# names inside outputs (the summary's) do not depend on where the tree is.
inputs=()
add() { # name, source
  [ -z "$match" ] || [[ $1 =~ $match ]] || return 0
  mkdir -p "$work/in/$(dirname "$1")"; ln -s "$2" "$work/in/$1"; inputs+=("$1")
}
for f in "$top"/samples/profiles/*.hp "$top"/samples/profiles/*.eventlog; do
  add "samples/$(basename "$f")" "$f"
done
mkdir -p "$work/gz"
for f in "$top"/samples/profiles/*.eventlog.gz; do
  b=$(basename "${f%.gz}"); zcat "$f" > "$work/gz/$b"; add "samples/$b" "$work/gz/$b"
done
while IFS= read -r -d '' f; do add "${f#"$top"/}" "$f"; done < <(
  find "$top/tests/data" -type f -print0 2>/dev/null | sort -z)
for in in "${inputs[@]}"; do
  n=$in
  run "$n:ps" "$in" -o out.ps
  run "$n:c.svg" "$in" -c -o out.svg
  run "$n:pdf" "$in" -c -d -m8 -o out.pdf
  run "$n:eps" "$in" -e15cm -i -o out.eps
  run "$n:csv" "$in" -o out.csv
  run "$n:hp" "$in" -o out.hp
  run "$n:txt" "$in" --summary -o out.txt
  run "$n:default" "$in"
  run "$n:png" "$in" --dpi=36 -o out.png
  run "$n:html" "$in" -o out.html
  run "$n:pprof" "$in" -o out.pb.gz
done
for pair in leak mapwave; do
  a="samples/$pair.hy.hp" b="../in/samples/$pair.hy.eventlog"
  [ -z "$match" ] || { [[ $a =~ $match ]] && [[ ${b#../in/} =~ $match ]]; } ||
    continue
  run "$pair:compare.pdf" "$a" -c "$b" -o cmp.pdf
  run "$pair:diff.svg" "$a" -c --diff "$b" -o diff.svg
  run "$pair:stack.svg" "$a" -c --layout=stack "$b" -o stack.svg
done
