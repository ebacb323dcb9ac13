#!/usr/bin/env bash
# Tests are found by name: every .c of the library (the stage folders of
# the Makefile's LIB_STAGES) is in tests/unit/README.md's table once, and
# every test the table names exists (tests/unit/test_NAME.c, or
# tests/e2e/test_NAME.sh when written e2e/test_NAME.sh).  Then the check
# itself: a library file the table lacks, and a test it names that does
# not exist, are both caught.
. "$(dirname "$0")/lib.sh"
stages=$(sed -n 's/^LIB_STAGES *:= *//p' "$TOP/Makefile")
check() { # README SRC_DIR: one line per problem
  python3 - "$1" "$2" "$TOP/tests" $stages <<'PY'
import glob, os, re, sys
readme, src, tests, stages = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rows = {}
for line in open(readme):
    m = re.match(r'^\| `([a-z]+/[a-z_0-9]+\.c)` \| (.*) \|$', line)
    if m:
        if m.group(1) in rows: print(f'{m.group(1)}: listed twice')
        rows[m.group(1)] = m.group(2)
files = sorted(os.path.relpath(f, src) for d in stages
               for f in glob.glob(os.path.join(src, d, '*.c')))
for f in files:
    if f not in rows: print(f'{f}: not in tests/unit/README.md')
for f, tests_named in rows.items():
    if f not in files: print(f'{f}: listed, but there is no src/{f}')
    names = re.findall(r'`(e2e/)?(test_[a-z0-9_]+)(?:\.sh)?`', tests_named)
    if not names: print(f'{f}: names no test')
    for e2e, name in names:
        path = f'{tests}/e2e/{name}.sh' if e2e else f'{tests}/unit/{name}.c'
        if not os.path.exists(path): print(f'{f}: {path} does not exist')
PY
}
check "$TOP/tests/unit/README.md" "$TOP/src" > "$T/bad.txt"
[ ! -s "$T/bad.txt" ] && ok || fail "tests/unit/README.md: $(cat "$T/bad.txt")"
n=$(grep -c '^| `[a-z]*/[a-z_0-9]*\.c` |' "$TOP/tests/unit/README.md")
[ "$n" -ge 40 ] && ok || fail "only $n rows in tests/unit/README.md"
# A new library file without a row, and a row naming a missing test.
cp -r "$TOP/src" "$T/src"
: > "$T/src/model/profile_new.c"
sed 's/| `test_aux` |/| `test_aux_gone` |/' "$TOP/tests/unit/README.md" > "$T/README.md"
check "$T/README.md" "$T/src" > "$T/bad.txt"
grep -q '^model/profile_new.c: not in' "$T/bad.txt" && ok ||
  fail "a library file without a row is not caught: $(cat "$T/bad.txt")"
grep -q 'test_aux_gone.c does not exist' "$T/bad.txt" && ok ||
  fail "a missing test is not caught: $(cat "$T/bad.txt")"
finish
