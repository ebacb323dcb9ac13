#!/usr/bin/env bash
# PNG: the PDF page rendered at --dpi (default 150) on white, written
# atomically like every output; decoded here (png_info.py) to check its
# size and that the bands are drawn.
. "$(dirname "$0")/lib.sh"
cd "$T"
S=$TOP/samples/profiles/manycc.hc.hp
info() { python3 "$TOP/tests/e2e/png_info.py" "$@"; }

"$HP2X" -c "$S" -o a.png || fail "PNG from .hp"
# 720 x 504 pt page (the 648 x 432 frame and half-inch margins) at 150 dpi.
set -- $(info a.png 5 5 300 900)
[ "$1 $2" = "1500 1050" ] && ok || fail "150 dpi PNG is $1 x $2, wanted 1500 x 1050"
awk -v p="$3" 'BEGIN { exit !(p > 20 && p < 90) }' && ok || fail "$3% of the pixels are drawn"
[ "$4 $5 $6" = "255 255 255" ] && ok || fail "margin is not white: $4 $5 $6"
[ "$7 $8 $9" != "255 255 255" ] && ok || fail "the graph's lower left is not filled"
"$HP2X" --dpi=72 "$S" -o b.png && set -- $(info b.png) && [ "$1 $2" = "720 504" ] && ok ||
  fail "72 dpi: $1 x $2"
"$HP2X" --dpi 300 -e 6in "$S" -o c.png && set -- $(info c.png) && [ "$1 $2" = "1800 1200" ] && ok ||
  fail "-e 6in at 300 dpi: $1 x $2"
# Greys without -c: the lower left band is one of hp2ps's greys.
"$HP2X" "$S" -o g.png && set -- $(info g.png 300 900) && [ "$4" = "$5" ] && [ "$5" = "$6" ] && ok ||
  fail "grey PNG pixel $4 $5 $6"
# From an eventlog, standard output, --format, reproducible.
"$HP2X" --format=png - < "$TOP/samples/profiles/leak.hc.eventlog" > ev.png &&
  info ev.png > /dev/null && ok || fail "eventlog to PNG on stdout"
"$HP2X" -c "$S" -o a2.png && cmp -s a.png a2.png && ok || fail "PNG bytes differ between runs"
# Two inputs stacked in one PNG; a page each is impossible.
"$HP2X" --layout=stack "$S" "$TOP/samples/profiles/leak.hc.hp" -o st.png &&
  set -- $(info st.png) && [ "$1" = 1500 ] && [ "$2" -gt 1900 ] && ok || fail "stacked PNG is $1 x $2"
# Two inputs in one PNG, a --dpi out of range and a failed write (which
# leaves nothing) are cases of tests/cli/cases.test.
finish
