#!/usr/bin/env bash
# The command-line cases written as data (tests/cli/cases.test: arguments,
# exit status, what standard error or output says, the files left), run
# by tests/cli/run.py with the real binary, each in an empty directory.
# run.py names each failing case by its line.  Then the driver itself: a
# copy of the cases with one wrong exit status, one wrong message and one
# file that is not written fails on exactly those three lines.
. "$(dirname "$0")/lib.sh"
cases=$TOP/tests/cli/cases.test
python3 "$TOP/tests/cli/run.py" "$HP2X" "$cases" > "$T/out.txt" 2>&1 && ok ||
  fail "tests/cli/cases.test: $(cat "$T/out.txt")"
tail -n 1 "$T/out.txt"
n=$(sed -n 's/^\([0-9]*\) cases, 0 failed$/\1/p' "$T/out.txt")
[ "${n:-0}" -ge 66 ] && ok || fail "only ${n:-no} cases run (66 when written)"

# Three expectations made wrong: the exit status of -t6, the message of
# --include '(', and a file that -h does not write (a line added after
# its status, so that the cases after it move down one line).
l1=$(grep -n -m 1 -- '^-t6 ' "$cases" | cut -d: -f1)
l2=$(grep -n -m 1 -- '^stderr: invalid --include regex$' "$cases" | cut -d: -f1)
l3=$(grep -n -m 1 -x -- '-h' "$cases" | cut -d: -f1)
[ -n "$l1" ] && [ -n "$l2" ] && [ -n "$l3" ] && [ "$l1" -lt "$l3" ] && [ "$l3" -lt "$l2" ] &&
  ok || fail "the cases to make wrong are not where expected: $l1 $l3 $l2"
sed -e "$((l1 + 1))s/^2$/1/" -e "${l2}s/include/exclude/" -e "$((l3 + 1))a files: h.txt" \
  "$cases" > "$T/wrong.test"
python3 "$TOP/tests/cli/run.py" "$HP2X" "$T/wrong.test" > "$T/wrong.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] && ok || fail "wrong expectations: run.py exit $rc"
want() { # PATTERN WHAT: run.py said it
  grep -qE -- "$1" "$T/wrong.txt" && ok || fail "$2 is not caught: $(cat "$T/wrong.txt")"
}
want "wrong\.test:$l1: exit 2, wanted 1$" "a wrong exit status (line $l1)"
want "wrong\.test:$l3: left nothing, wanted \['h\.txt'\]$" "a file not written (line $l3)"
want "wrong\.test:$((l2 + 1)): stderr does not match /invalid --exclude regex/$" \
  "a wrong message (line $((l2 + 1)))"
want "^[0-9]+ cases, 3 failed$" "exactly three failures"
finish
