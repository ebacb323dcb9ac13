# scratch_lib.sh -- for the tests that plant faults in a scratch copy of
# src/ and see the compiler refuse them (sourced after lib.sh): the copy
# in $T/src, and compiles FILE (a path under src/), which checks one file's
# syntax as the build would, its messages in $T/cc.log.
CC=cc
[ -f "${BUILD:-}/build.env" ] && . "$BUILD/build.env"
cflags=(-std=c11 -D_POSIX_C_SOURCE=200809L -fsyntax-only -I"$T/src"
        -I"$TOP/include" $(pkg-config --cflags cairo pangocairo 2>/dev/null))
cp -r "$TOP/src" "$T/src"
compiles() { "$CC" "${cflags[@]}" "$T/src/$1" 2> "$T/cc.log"; }
