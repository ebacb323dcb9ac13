#!/usr/bin/env bash
# Every command in the man page's EXAMPLES that starts with "$ hp2x" runs
# (in a scratch directory holding samples/) and exits 0 with its output.
. "$(dirname "$0")/lib.sh"
cd "$T"
ln -s "$TOP/samples" samples
sed -n '/^\.SH EXAMPLES/,/^\.SH SEE ALSO/p' "$TOP/man/hp2x.1" |
  grep -E '^\$ hp2x ' | sed 's/^\$ hp2x //; s/\\-/-/g' > cmds.txt
[ "$(wc -l < cmds.txt)" -ge 5 ] && ok || fail "too few examples found"
while read -r line; do
  # shellcheck disable=SC2086
  expect_status 0 "example: hp2x $line" -- "$HP2X" $line
  out=$(printf '%s\n' "$line" | grep -oE -- '-o [^ ]+' | cut -c4-)
  if [ -n "$out" ]; then [ -s "$out" ] && ok || fail "example wrote no $out"; fi
done < cmds.txt
[ -s leak.hc.ps ] && [ -s leak.hc.aux ] && ok || fail "hp2ps-style run wrote no leak.hc.ps/leak.hc.aux"
finish
