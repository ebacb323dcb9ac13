#!/usr/bin/env bash
# --help and the man page list every option of the option table; --color
# is --colour.  (The usage errors, which exit 2 with a message and write
# nothing, are cases of tests/cli/cases.test.)
. "$(dirname "$0")/lib.sh"
mkdir "$T/work" && cd "$T/work"
expect_status 0 "--help" -- "$HP2X" --help
cp "$CAP/out" "$CAP/help.txt"
[ -z "$(ls -A)" ] && ok || fail "--help left files: $(ls -A)"

# Every option in --help is documented in the man page, and the reverse:
# the options of --help's left column (and its "(also --X)" aliases)
# against those in the headings of the man page's OPTIONS section, long and
# short.  (-i+ and -i- are forms of -i.)
man=$TOP/man/hp2x.1
sed -nE '/^  +-/{s/^ +//; s/  .*//; p}' "$CAP/help.txt" |
  grep -oE -- '-{1,2}[A-Za-z][A-Za-z-]*' > "$CAP/help-opts.txt"
grep -oE -- '\(also --[a-z-]+\)' "$CAP/help.txt" | grep -oE -- '--[a-z-]+' >> "$CAP/help-opts.txt"
sort -u -o "$CAP/help-opts.txt" "$CAP/help-opts.txt"
awk '/^\.SH / {in_opts = ($2 == "OPTIONS")} in_opts && prev == ".TP" {print} {prev = $0}' "$man" |
  sed 's/\\-/-/g' | grep -oE -- '(^|[ "])-{1,2}[A-Za-z][A-Za-z+-]*' |
  sed -E 's/^[ "]//; s/^(-[A-Za-z])[+-]$/\1/' | sort -u > "$CAP/man-opts.txt"
[ "$(grep -c -- '^--' "$CAP/help-opts.txt")" -ge 30 ] && ok || fail "--help lists too few long options"
[ "$(grep -c -- '^-[^-]' "$CAP/help-opts.txt")" -ge 15 ] && ok || fail "--help lists too few short options"
while read -r opt; do
  fail "man page's OPTIONS lack $opt (in --help)"
done < <(comm -23 "$CAP/help-opts.txt" "$CAP/man-opts.txt")
while read -r opt; do
  fail "--help lacks $opt (in the man page's OPTIONS)"
done < <(comm -13 "$CAP/help-opts.txt" "$CAP/man-opts.txt")
cmp -s "$CAP/help-opts.txt" "$CAP/man-opts.txt" && ok
# --color is --colour (the help and the man page say so): the same
# picture as -c.
"$HP2X" -q -c "$TOP/samples/profiles/leak.hc.hp" -o "$T/c.svg" &&
  "$HP2X" -q --color "$TOP/samples/profiles/leak.hc.hp" -o "$T/color.svg" &&
  "$HP2X" -q --colour "$TOP/samples/profiles/leak.hc.hp" -o "$T/colour.svg" && ok ||
  fail "--color or --colour refused"
cmp -s "$T/c.svg" "$T/color.svg" && cmp -s "$T/c.svg" "$T/colour.svg" && ok ||
  fail "--color does not draw what -c draws"
finish
