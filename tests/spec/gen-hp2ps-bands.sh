#!/usr/bin/env bash
# gen-hp2ps-bands.sh -- developer tool (not run by `make check`): runs the
# real hp2ps (Debian's ghc package, version 0.25) on every samples/profiles
# .hp under each flag set and stores what it chose, as test data for
# tests/unit/test_hp2ps_bands.c:
#   hp2ps-bands/<profile>.<set>.txt:
#     line 1  X_RANGE from hp2ps's .aux     line 2  Y_RANGE from its .aux
#     line 3  AREA as printed in the title  then one band name a line, bottom
#     first, from the .aux ORDER lines (hp2ps writes them also for -m0).
set -eu
export LC_ALL=C  # labels may be cut inside a UTF-8 character: bytes, not text
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/tests/spec/hp2ps-bands
command -v hp2ps > /dev/null || { echo "needs hp2ps: make deps-dev" >&2; exit 1; }
sets="default: m5:-m5 m0:-m0 t0:-t0 t5:-t5 d:-d i:-i i-:-i- dm5:-d_-m5 im5:-i_-m5 m30:-m30"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rm -f "$out"/*.txt
for hp in "$top"/samples/profiles/*.hp; do
  name=$(basename "$hp" .hp)
  for s in $sets; do
    set_name=${s%%:*}; flags=$(echo "${s#*:}" | tr _ ' ')
    rm -f "$tmp"/*; cp "$hp" "$tmp/in.hp"
    # shellcheck disable=SC2086
    (cd "$tmp" && hp2ps $flags in.hp > /dev/null 2>&1) || { echo "hp2ps failed: $name $flags" >&2; continue; }
    {
      grep '^X_RANGE ' "$tmp/in.aux"
      grep '^Y_RANGE ' "$tmp/in.aux"
      printf 'AREA %s\n' "$(grep -m1 -E '^\([0-9,]+ .* x .*\)$' "$tmp/in.ps" | sed -E 's/^\(([0-9,]+) .*/\1/')"
      sed -n 's/^ORDER \(.*\) [0-9][0-9]*$/\1/p' "$tmp/in.aux"
    } > "$out/$name.$set_name.txt"
  done
done
ls "$out" | wc -l
