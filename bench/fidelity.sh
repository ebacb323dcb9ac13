#!/usr/bin/env bash
# bench/fidelity.sh HP2X MEMGEN PNG_COMPARE -- how far the picture drawn
# from a profile bounded by the picture (profile_bound.c) is from the one
# drawn from every sample: a 40,000-census, 300-band profile from
# bench/memgen.c, drawn at 600 dpi as it is by default (bounded: it thins
# from 21,604 samples) and with --from=0 (a window: every sample held, the
# same samples and drawing otherwise), then bench/png_compare.c: pixels
# that differ and how far a column's top moves.  Part of `make bench`.
set -eu
hp2x=$1 memgen=$2 compare=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
top=$(cd "$(dirname "$0")/.." && pwd)
export SOURCE_DATE_EPOCH=1700000000 HP2X_FONTS_CONF="${HP2X_FONTS_CONF:-$top/fonts/fonts.conf}"
"$memgen" 40000 300 23 > "$work/p.hp" 2> /dev/null
echo "## Fidelity: the bounded picture against every sample's (600 dpi)"
echo
for opts in "" "-c"; do
  # shellcheck disable=SC2086
  "$hp2x" -q $opts --dpi=600 "$work/p.hp" -o "$work/bounded.png"
  # shellcheck disable=SC2086
  "$hp2x" -q $opts --dpi=600 --from=0 "$work/p.hp" -o "$work/every.png"
  echo "- \`hp2x ${opts:+$opts }--dpi=600\` vs \`--from=0\`: $("$compare" "$work/every.png" "$work/bounded.png")"
done
echo
