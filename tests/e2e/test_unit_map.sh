#!/usr/bin/env bash
# Tests are found by name (tests/unit/README.md): tests/unit/STAGE/test_FILE.c
# tests src/STAGE/FILE.c, STAGE one of the Makefile's LIB_STAGES or
# tool/FOLDER, FOLDER one of its TOOL_FOLDERS.
# Checked here: every .c of the library has one row in the README's first
# table, naming its own test when it has one; every test a row names
# exists (STAGE/test_NAME: tests/unit/STAGE/test_NAME.c; e2e/test_NAME.sh:
# tests/e2e/test_NAME.sh); every unit test is named after a file of its
# folder or is in the second table, with the files it covers; and no test
# lies where the Makefile would not build it (tests/unit itself, or a
# folder that is no stage).  Then the check itself, on copies: each kind
# of fault planted once, and each caught.
. "$(dirname "$0")/lib.sh"
stages=$(sed -n 's/^LIB_STAGES *:= *//p' "$TOP/Makefile")
[ -n "$stages" ] && ok || fail "no LIB_STAGES in the Makefile"
tool_folders=$(sed -n 's/^TOOL_FOLDERS *:= *//p' "$TOP/Makefile")
[ -n "$tool_folders" ] && ok || fail "no TOOL_FOLDERS in the Makefile"
check() { # README SRC_DIR UNIT_DIR: one line per problem
  python3 - "$1" "$2" "$3" "$TOP/tests/e2e" "$tool_folders" $stages <<'PY'
import glob, os, re, sys
readme, src, unit, e2e, tool_folders = sys.argv[1:6]
stages = sys.argv[6:]
folders = stages + ['tool/' + d for d in tool_folders.split()]
rows, named_otherwise, table = {}, {}, 0
for line in open(readme):
    if line.startswith('| library file |'): table = 1
    if line.startswith('| test |'): table = 2
    m = re.match(r'^\| `([a-z]+/[a-z_0-9]+(?:\.c)?)` \| (.*) \|$', line)
    if not m: continue
    key, text = m.groups()
    into = rows if table == 1 else named_otherwise
    if key in into: print(f'{key}: listed twice')
    into[key] = text
def exists(e2e_prefix, name):
    if e2e_prefix: return os.path.exists(f'{e2e}/{name}.sh')
    return os.path.exists(f'{unit}/{name}.c')
lib = sorted(os.path.relpath(f, src) for d in stages
             for f in glob.glob(os.path.join(src, d, '*.c')))
for f in lib:
    if f not in rows: print(f'{f}: not in tests/unit/README.md')
for f, text in rows.items():
    if f not in lib: print(f'{f}: listed, but there is no src/{f}')
    names = re.findall(r'`(e2e/)?((?:[a-z]+/)?test_[a-z0-9_]+)(?:\.sh)?`', text)
    if not names: print(f'{f}: names no test')
    for e2e_prefix, name in names:
        if not e2e_prefix and '/' not in name:
            print(f'{f}: {name} has no STAGE/')
        elif not exists(e2e_prefix, name):
            print(f'{f}: {e2e_prefix}{name} does not exist')
    own = f[:-2].replace('/', '/test_', 1)
    if os.path.exists(f'{unit}/{own}.c') and own not in [n for p, n in names if not p]:
        print(f'{f}: its own test {own} is not in its row')
for t, text in named_otherwise.items():
    if not os.path.exists(f'{unit}/{t}.c'): print(f'{t}: listed, but there is no tests/unit/{t}.c')
    covered = re.findall(r'`([a-z]+/[a-z_0-9]+\.c)`', text)
    if not covered: print(f'{t}: names no file it covers')
    for c in covered:
        if not os.path.exists(f'{src}/{c}'): print(f'{t}: covers src/{c}, which does not exist')
for path in sorted(glob.glob(f'{unit}/**/test_*.c', recursive=True)):
    rel = os.path.relpath(path, unit)[:-2]
    folder, _, name = rel.rpartition('/')
    if folder not in folders:
        print(f'tests/unit/{rel}.c: not in a stage folder ({" ".join(folders)}): never built')
        continue
    of = f'{folder}/{name[len("test_"):]}.c'
    if os.path.exists(f'{src}/{of}'):
        if rel in named_otherwise: print(f'{rel}: named after src/{of}, but listed as named otherwise')
    elif rel not in named_otherwise:
        print(f'tests/unit/{rel}.c: no src/{of}, and not listed as named otherwise')
PY
}
check "$TOP/tests/unit/README.md" "$TOP/src" "$TOP/tests/unit" > "$T/bad.txt"
[ ! -s "$T/bad.txt" ] && ok || fail "tests/unit/README.md: $(cat "$T/bad.txt")"
n=$(grep -c '^| `[a-z]*/[a-z_0-9]*\.c` |' "$TOP/tests/unit/README.md")
[ "$n" -ge 40 ] && ok || fail "only $n rows in tests/unit/README.md"
n=$(find "$TOP/tests/unit" -name 'test_*.c' | wc -l)
[ "$n" -ge 20 ] && ok || fail "only $n unit tests found"

# Each fault planted once in copies: a library file without a row; a row
# naming a missing test, or a test without its STAGE/; a file whose own
# test its row leaves out; a unit test named after no file and not listed;
# a listed test that does not exist; a test in tests/unit itself and one
# in a folder that is no stage; a tool test named after no file of its
# folder, and one in tests/unit/tool itself (the tool is in folders).
cp -r "$TOP/src" "$T/src"
cp -r "$TOP/tests/unit" "$T/unit"
: > "$T/src/model/profile_new.c"
: > "$T/unit/select/test_nothing.c"
: > "$T/unit/test_flat.c"
mkdir "$T/unit/misc" && : > "$T/unit/misc/test_aux.c"
: > "$T/unit/tool/io/test_nothing.c"
: > "$T/unit/tool/test_flat.c"
sed -e 's/^| `select\/colour.c` | `select\/test_compare`/| `select\/colour.c` | `select\/test_compare_gone`/' \
    -e 's/^\(| `read\/parser.c` | .*\)`base\/test_options`/\1`test_options`/' \
    -e 's/^\(| `write\/metrics.c` |\) `write\/test_metrics`;/\1/' \
    -e 's/^| `draw\/test_threads` |/| `draw\/test_threads_gone` |/' \
  "$TOP/tests/unit/README.md" > "$T/README.md"
check "$T/README.md" "$T/src" "$T/unit" > "$T/bad.txt"
want() { # PATTERN WHAT: the planted fault is caught
  grep -qE -- "$1" "$T/bad.txt" && ok || fail "$2 is not caught: $(cat "$T/bad.txt")"
}
want '^model/profile_new.c: not in' "a library file without a row"
want '^select/colour.c: select/test_compare_gone does not exist' "a row naming a missing test"
want '^read/parser.c: test_options has no STAGE/' "a test named without its folder"
want '^write/metrics.c: its own test write/test_metrics is not in its row' "a row without its file's own test"
want '^tests/unit/select/test_nothing.c: no src/select/nothing.c' "a unit test named after no file"
want '^draw/test_threads_gone: listed, but there is no' "a listed test that does not exist"
want '^tests/unit/draw/test_threads.c: no src/draw/threads.c' "a test named otherwise, not listed"
want '^tests/unit/test_flat.c: not in a stage folder' "a test outside the stage folders"
want '^tests/unit/misc/test_aux.c: not in a stage folder' "a test in a folder that is no stage"
want '^tests/unit/tool/io/test_nothing.c: no src/tool/io/nothing.c' "a tool test named after no file"
want '^tests/unit/tool/test_flat.c: not in a stage folder' "a tool test outside the tool's folders"
[ "$(wc -l < "$T/bad.txt")" -eq 11 ] && ok || fail "more problems than planted: $(cat "$T/bad.txt")"
finish
