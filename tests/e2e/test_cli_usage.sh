#!/usr/bin/env bash
# Usage errors exit 2 with a message on stderr and write nothing; --help and
# the man page list every option of the option table.
. "$(dirname "$0")/lib.sh"
S=$TOP/samples/profiles/leak.hc.hp
mkdir "$T/work" && cd "$T/work"
for args in "-t6" "-t-1" "-tx" "-e100" "-e2in" "-e15furlong" "-x" "--bogus" \
            "--format=gif" "-mfoo" "--ccs-length=2" "--interval=0" "--watch" \
            "--sort=random" "--colour=yes"; do
  expect_status 2 "hp2x $args" -- "$HP2X" $args "$S"
  expect_stderr "^hp2x: " "hp2x $args message"
  expect_stderr "Try 'hp2x --help'" "hp2x $args hint"
  [ -z "$(ls -A)" ] && ok || { fail "hp2x $args left files: $(ls -A)"; rm -f ./*; }
done
expect_status 2 "unknown output extension" -- "$HP2X" "$S" -o out.xyz
# Several inputs: combinations that cannot work are usage errors.
expect_status 2 "two inputs, one SVG" -- "$HP2X" "$S" "$S" -o out.svg
expect_stderr "layout=stack" "two inputs, one SVG: hint"
expect_status 2 "two inputs, one file each, same name" -- "$HP2X" "$S" "$S" -o 'o-%s.pdf'
expect_status 2 "--diff with one input" -- "$HP2X" --diff "$S" -o d.pdf
expect_status 2 "--diff with three inputs" -- "$HP2X" --diff "$S" "$S" "$S" -o d.pdf
expect_status 2 "--watch with two inputs" -- "$HP2X" --watch "$S" "$S" -o w.pdf
expect_status 2 "stdin twice" -- "$HP2X" - - -o o.pdf
expect_status 2 "-p with a file each" -- "$HP2X" -p "$S" "$S" -o 'o-%s.pdf'
for args in "--palette=rainbow" "--uniform-scale=x" "--layout=grid"; do
  expect_status 2 "hp2x $args" -- "$HP2X" $args "$S" "$S" -o o.pdf
done
[ -z "$(ls -A)" ] && ok || { fail "usage errors left files: $(ls -A)"; rm -f ./*; }

expect_status 0 "--help" -- "$HP2X" --help
cp "$CAP/out" "$CAP/help.txt"
expect_status 0 "--version" -- "$HP2X" --version
grep -qE '^hp2x [0-9]+\.[0-9]+\.[0-9]+$' "$CAP/out" && ok || fail "--version output"
expect_status 0 "-h" -- "$HP2X" -h

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
