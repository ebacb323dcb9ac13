#!/usr/bin/env bash
# The source tree keeps its shape: the stage folders under src/ use one
# another one way only (calls and includes), no two files call each other
# around a loop, no function is over 60 lines, no file over 600, no
# private header over 200 (README "Source layout").  Also that the check
# itself sees a folder using one above it, and that the tool includes no
# library header but hp2x.h.
. "$(dirname "$0")/lib.sh"
check=(python3 "$TOP/tests/tools/layer-check.py" --folders --max-function 60
       --max-file 600)
expect_status 0 "src/ keeps its layers" -- "${check[@]}" "$TOP/src"
sed 's/^/    /' "$CAP/out"
# The Makefile builds the folders in the README's order.
stages=$(sed -n 's/^LIB_STAGES *:= *//p' "$TOP/Makefile")
[ "$stages" = "base model read select draw write" ] && ok ||
  fail "LIB_STAGES is '$stages'"
for d in $stages; do
  [ -f "$TOP/src/$d/README.md" ] && ok || fail "src/$d has no README.md"
done
# A base file that includes a drawing header: a circle the check reports.
cp -r "$TOP/src" "$T/src"
sed -i '0,/^#include/s//#include "draw\/layout.h"\n#include/' "$T/src/base/err.c"
expect_status 1 "an upward include is caught" -- "${check[@]}" "$T/src"
grep -q 'folder circles: .*base' "$CAP/out" && ok ||
  fail "the circle is not named: $(cat "$CAP/out")"
# The tool includes, of the library's headers, only hp2x.h: every quoted
# include in src/tool names hp2x.h or a header of the tool's own.
bad=$(cd "$TOP/src/tool" && grep -H '^#include "' ./*.c ./*.h |
      sed 's/^\.\///' | while IFS= read -r line; do
        h=$(echo "$line" | sed 's/.*#include "\([^"]*\)".*/\1/')
        [ "$h" = hp2x.h ] || [ -f "$h" ] || echo "$line"
      done)
[ -z "$bad" ] && ok || fail "the tool includes library headers: $bad"
finish
