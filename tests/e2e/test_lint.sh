#!/usr/bin/env bash
# make lint (mk/lint.py; docs/STYLE.md) passes on the tree and fails on a
# violation of each rule planted in a scratch copy of it: a line formatted
# otherwise than clang-format 14 would, a line over 80 columns, a global
# of the library and one of the tool without their prefixes, one of the
# tool with another tool folder's prefix, a tool folder with no prefix
# rule, a C file and a script that do not open with what they own.  Where
# the clang-format found is another version, the format check says so and
# skips itself, and the other rules still run (a fake clang-format 19
# shows it); make format refuses that version and, with 14, formats the
# planted line back.  The scratch copy starts from this
# build's objects, so only planted files are compiled.
. "$(dirname "$0")/lib.sh"
S=$T/tree
mkdir -p "$S/build"
tar -C "$TOP" --exclude=./build --exclude=./.git --exclude=node_modules \
  --exclude=./samples/profiles --exclude=./tests/data -cf - . | tar -C "$S" -xf -
cp -a "$BUILD/obj" "$S/build/obj"
cp -a "$TOP/build/gen" "$S/build/gen"
lint() { # ARGS...: make lint in the scratch tree, its output in $T/lint.out
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CLANG_FORMAT \
    make -C "$S" --no-print-directory lint BUILD="$S/build" "$@" \
    > "$T/lint.out" 2>&1
}
# fails WHAT PATTERN [ARGS...]: make lint exits 1 and says PATTERN.
fails() {
  local what=$1 pattern=$2; shift 2
  if lint "$@"; then fail "$what: make lint passed"; return; fi
  grep -qE -- "$pattern" "$T/lint.out" && ok ||
    fail "$what: make lint does not say /$pattern/: $(grep -v '^  CC' "$T/lint.out" | head -5)"
}
# restore FILE: the file as it was (its time too, so nothing rebuilds but
# the object made from the planted copy, which goes).
restore() {
  cp -p "$TOP/$1" "$S/$1"
  case $1 in src/*.c) o=${1#src/}; rm -f "$S/build/obj/${o%.c}.o" ;; esac
}

cf=$(command -v clang-format-14 || command -v clang-format || true)
v14=0
[ -n "$cf" ] && "$cf" --version | grep -q 'version 14\.' && v14=1

lint && ok || fail "the clean tree: $(grep -v '^  CC' "$T/lint.out" | head -5)"
grep -q '^lint: 0 faults' "$T/lint.out" && ok || fail "clean: no '0 faults' line"
if [ "$v14" = 1 ]; then
  grep -q '^lint: format: [0-9]* files checked with version 14\.' "$T/lint.out" && ok ||
    fail "the format check did not run: $(grep format "$T/lint.out")"
else
  echo "SKIPPED: the format plants: no clang-format 14 here (found: ${cf:-none})"
fi

# 1. Formatting: a line indented by four.
sed -i '0,/^  return/s//    return/' "$S/src/base/hash.c"
if [ "$v14" = 1 ]; then
  fails "a misformatted line" "^lint: format: src/base/hash.c:[0-9]+: not as clang-format 14"
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$S" --no-print-directory format \
    > "$T/format.out" 2>&1 && ok || fail "make format: $(head -3 "$T/format.out")"
  cmp -s "$TOP/src/base/hash.c" "$S/src/base/hash.c" && ok ||
    fail "make format did not put the planted line back"
fi
restore src/base/hash.c

# Another clang-format: the format check says so and skips; the others run.
cat > "$T/clang-format-19" <<'EOF'
#!/bin/sh
[ "$1" = --version ] && echo "Debian clang-format version 19.1.7 (3+b1)" && exit 0
echo "the fake clang-format was asked to format" >&2
exit 9
EOF
chmod +x "$T/clang-format-19"
lint CLANG_FORMAT="$T/clang-format-19" && ok || fail "clean, clang-format 19: $(head -3 "$T/lint.out")"
grep -qE '^lint: format: skipped: .*clang-format-19 is version 19\.1\.7, not 14' "$T/lint.out" &&
  ok || fail "clang-format 19: no skip message: $(grep format "$T/lint.out")"
if env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$S" --no-print-directory format \
     CLANG_FORMAT="$T/clang-format-19" > "$T/format.out" 2>&1; then
  fail "make format ran with clang-format 19"
else
  grep -q 'needs clang-format 14' "$T/format.out" && ok ||
    fail "make format, clang-format 19: $(head -3 "$T/format.out")"
fi

# The other rules run without the format check (the fake clang-format),
# which takes most of a lint's time.
fake=CLANG_FORMAT=$T/clang-format-19

# 2. Width: a comment line of 90 columns.
printf '/* %s */\n' "$(printf 'x%.0s' $(seq 1 84))" >> "$S/src/draw/surface.h"
n=$(wc -l < "$S/src/draw/surface.h")
fails "a wide line" "^lint: width: src/draw/surface.h:$n: 90 columns" "$fake"
restore src/draw/surface.h

# 3. Prefixes: a library global, a tool global, a tool file without a rule.
printf '\nint thin_planted_count = 1;\n' >> "$S/src/select/thin.c"
fails "a library global without hp2x_/hpx_" \
  "^lint: prefix: src/select/thin.c: global thin_planted_count does not start with hp2x_ or hpx_" \
  "$fake"
restore src/select/thin.c
printf '\nint hpx_planted_in_tool = 1;\n' >> "$S/src/tool/cli/names.c"
fails "a tool global with the library's prefix" \
  "^lint: prefix: src/tool/cli/names.c: global hpx_planted_in_tool does not start with cli_ or names_" \
  "$fake"
restore src/tool/cli/names.c
printf '\nint msg_planted_elsewhere = 1;\n' >> "$S/src/tool/io/tee.c"
fails "a tool global with another folder's prefix" \
  "^lint: prefix: src/tool/io/tee.c: global msg_planted_elsewhere does not start with outfile_ or .* or outputs_ \\(mk/prefixes.txt: tool/io/\\*.c\\)" \
  "$fake"
restore src/tool/io/tee.c
mkdir -p "$S/src/tool/extra"
printf '/* planted.c -- a tool folder no rule names */\nint planted_one(void);\nint planted_one(void) { return 1; }\n' \
  > "$S/src/tool/extra/planted.c"
fails "a tool folder with no rule" "^lint: prefix: src/tool/extra/planted.c: no rule in mk/prefixes.txt" \
  "$fake"
rm -rf "$S/src/tool/extra"

# 4. What each file owns: a C file and a script without their opening comment.
sed -i '1s|^/\* surface.c -- |/* |' "$S/src/draw/surface.c"
fails "a C file without its name" \
  '^lint: opener: src/draw/surface.c:1: does not open with "/\* surface.c -- ' "$fake"
restore src/draw/surface.c
sed -i '1i set -u' "$S/tests/e2e/lib.sh"
fails "a script without its comment" \
  "^lint: opener: tests/e2e/lib.sh:1: does not open with a comment" "$fake"
restore tests/e2e/lib.sh

lint "$fake" && ok || fail "the tree restored: $(grep -v '^  CC' "$T/lint.out" | head -5)"
finish
