#!/usr/bin/env bash
# `make install PREFIX= DESTDIR=` gives a working tool and a usable library:
# the binary, the man page and the pinned fonts, found from any working
# directory (no HP2X_FONTS_CONF): the PDF embeds Nimbus Sans; the lean
# bin/hp2x finds libexec/hp2x/hp2x-full relative to itself, or where it was
# built to be installed, and says where it looked when neither is there; hp2x.h,
# libhp2x.a, libhp2x.so with its soname and hp2x.pc, through which alone
# tests/install/example.c builds (shared, then --static against the .a)
# and writes a PDF.  The shared library exports exactly the functions
# hp2x.h declares; both libraries define no global but hp2x_ (declared)
# and hpx_ ones, so tests/install/clash.c, which defines the names the
# internals once had, links statically; and hp2x.h compiles as C++.
# make install works in BUILD (it may write its libraries and hp2x.pc):
# run-tests.sh: alone
. "$(dirname "$0")/lib.sh"
unset HP2X_FONTS_CONF
# How the build was made (make check-one writes it): the example program is
# compiled with the same compiler and sanitizer flags as the library.
# (Not the variables of a make that runs this test, which it exports: a
# package build's LIBDIR, DATADIR and pkg-config style are not this
# install's defaults.)
CC=cc OPT= PORTABLE=0 TOOL_LINK=static
[ -f "$BUILD/build.env" ] && . "$BUILD/build.env"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u LIBDIR -u INCLUDEDIR -u DATADIR \
    -u PC_RELOCATABLE make -s -C "$TOP" install \
    BUILD="${BUILD#$TOP/}" CC="$CC" OPT="$OPT" PORTABLE="$PORTABLE" \
    TOOL_LINK="$TOOL_LINK" PREFIX=/opt/hp2x DESTDIR="$T/root" > "$CAP/install.log" 2>&1 &&
  ok || { fail "make install: $(tail -3 "$CAP/install.log")"; finish; exit 1; }
prefix=$T/root/opt/hp2x
bin=$prefix/bin/hp2x
[ -x "$bin" ] && ok || fail "no installed binary"
[ -f "$prefix/share/man/man1/hp2x.1" ] && ok || fail "no installed man page"
[ -f "$prefix/share/hp2x/fonts/fonts.conf" ] && ok || fail "no installed fonts.conf"
mkdir "$T/elsewhere" && cd "$T/elsewhere"
"$bin" "$TOP/samples/profiles/unicode.hc.hp" -o u.pdf && ok || fail "installed binary failed"
pdffonts u.pdf > fonts.txt 2>&1
grep -q NimbusSans fonts.txt && ok || fail "Nimbus Sans not used: $(cat fonts.txt)"
grep -qi 'DroidSansFallback\|DejaVu' fonts.txt && ok || fail "no fallback font for CJK/Cyrillic: $(cat fonts.txt)"

# ---- two programs (a portable build installs one): bin/hp2x, which links
# neither cairo, pango, fontconfig nor libmicrohttpd, found
# libexec/hp2x/hp2x-full from where it is (u.pdf above, under the DESTDIR);
# alone, it says where it looked and exits 1, and writes text still.
if [ "$PORTABLE" != 1 ]; then
  [ -x "$prefix/libexec/hp2x/hp2x-full" ] && ok || fail "no installed libexec/hp2x/hp2x-full"
  readelf -d "$bin" > "$CAP/needed" 2>&1
  grep -E 'NEEDED.*(cairo|pango|fontconfig|microhttpd|gnutls)' "$CAP/needed" &&
    fail "bin/hp2x links the drawing's or the server's libraries" || ok
  mkdir "$T/alone" && cp "$bin" "$T/alone/hp2x"
  expect_status 1 "bin/hp2x alone, drawing" -- "$T/alone/hp2x" \
    "$TOP/samples/profiles/leak.hc.hp" -o alone.pdf
  grep -q "drawing a picture needs the full program, hp2x-full, which is not installed: not found as $T/alone/hp2x-full, .* or /opt/hp2x/libexec/hp2x/hp2x-full\$" \
    "$CAP/err" && ok || fail "bin/hp2x alone: $(cat "$CAP/err")"
  [ ! -e alone.pdf ] && ok || fail "bin/hp2x alone wrote alone.pdf"
  "$T/alone/hp2x" "$TOP/samples/profiles/leak.hc.hp" -o alone.csv && [ -s alone.csv ] &&
    ok || fail "bin/hp2x alone does not write CSV"
  # Where it was built to be installed, when it is not found from where it
  # is: an install without DESTDIR, its bin/hp2x copied elsewhere.
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u LIBDIR -u INCLUDEDIR -u DATADIR \
      -u PC_RELOCATABLE make -s -C "$TOP" install \
      BUILD="${BUILD#$TOP/}" CC="$CC" OPT="$OPT" PORTABLE="$PORTABLE" \
      TOOL_LINK="$TOOL_LINK" PREFIX="$T/direct" > "$CAP/install.log" 2>&1 &&
    ok || fail "make install PREFIX=$T/direct: $(tail -3 "$CAP/install.log")"
  mkdir "$T/moved" && cp "$T/direct/bin/hp2x" "$T/moved/hp2x"
  "$T/moved/hp2x" "$TOP/samples/profiles/leak.hc.hp" -o moved.pdf 2> "$CAP/err" &&
    pdfinfo moved.pdf > /dev/null 2>&1 && ok ||
    fail "bin/hp2x moved did not find $T/direct/libexec/hp2x/hp2x-full: $(cat "$CAP/err")"
fi

# ---- the library
version=$(sed -n 's/^#define HP2X_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' \
          "$TOP/include/hp2x.h" | paste -sd.)
major=${version%%.*}
lib=$prefix/lib
[ -f "$prefix/include/hp2x.h" ] && ok || fail "no installed hp2x.h"
[ -f "$lib/libhp2x.a" ] && ok || fail "no installed libhp2x.a"
[ -f "$lib/libhp2x.so.$version" ] && ok || fail "no libhp2x.so.$version"
[ "$(readlink "$lib/libhp2x.so.$major")" = "libhp2x.so.$version" ] && ok ||
  fail "libhp2x.so.$major is not a link to libhp2x.so.$version"
[ "$(readlink "$lib/libhp2x.so")" = "libhp2x.so.$major" ] && ok ||
  fail "libhp2x.so is not a link to libhp2x.so.$major"
readelf -d "$lib/libhp2x.so.$version" | grep -q "SONAME.*\[libhp2x.so.$major\]" && ok ||
  fail "soname is not libhp2x.so.$major: $(readelf -d "$lib/libhp2x.so.$version" | grep SONAME)"

# Exported: exactly the functions hp2x.h declares (comments stripped by
# the preprocessor; a declaration is a name followed by its parameters).
$CC -E -P "$prefix/include/hp2x.h" | grep -o '\bhp2x_[a-z0-9_]*[[:space:]]*(' |
  tr -d ' \t(' | sort -u > "$T/declared"
nm -D --defined-only "$lib/libhp2x.so.$version" | awk '{print $NF}' |
  sort -u > "$T/exported"
[ "$(wc -l < "$T/declared")" -gt 50 ] && ok || fail "too few declarations found in hp2x.h"
if diff "$T/declared" "$T/exported" > "$T/exports.diff"; then ok; else
  fail "exports differ from hp2x.h (< declared only, > exported only):"
  head -20 "$T/exports.diff"
fi
# The static library's global names: hp2x_ is the API's prefix alone
# (internal functions are hpx_), so a program linking libhp2x.a meets no
# hp2x_ name that hp2x.h does not declare.
nm --defined-only -g "$lib/libhp2x.a" | awk 'NF == 3 {print $3}' |
  grep '^hp2x_' | sort -u > "$T/static_hp2x"
if comm -23 "$T/static_hp2x" "$T/declared" > "$T/static.diff" && [ ! -s "$T/static.diff" ]; then ok; else
  fail "libhp2x.a defines hp2x_ names hp2x.h does not declare: $(head -5 "$T/static.diff" | tr '\n' ' ')"
fi

# The example program, with nothing but pkg-config (hp2x.pc names its
# directories relative to itself, so it works under the DESTDIR).
export PKG_CONFIG_PATH=$lib/pkgconfig
unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR
[ "$(pkg-config --modversion hp2x)" = "$version" ] && ok ||
  fail "pkg-config --modversion hp2x: $(pkg-config --modversion hp2x 2>&1)"
# $OPT is word-split on purpose: compiler flags.
# shellcheck disable=SC2086
$CC $OPT -o "$T/example" "$TOP/tests/install/example.c" \
    $(pkg-config --cflags --libs hp2x) > "$CAP/cc.log" 2>&1 && ok ||
  fail "example (shared) does not build: $(head -5 "$CAP/cc.log")"
readelf -d "$T/example" | grep -q "NEEDED.*\[libhp2x.so.$major\]" && ok ||
  fail "example does not use libhp2x.so.$major"
LD_LIBRARY_PATH=$lib "$T/example" "$TOP/samples/profiles/leak.hc.hp" shared.pdf \
  > "$CAP/example.out" 2>&1 && ok || fail "example (shared) failed: $(head -3 "$CAP/example.out")"
grep -q "libhp2x $version" "$CAP/example.out" && ok ||
  fail "hp2x_version() of the linked library: $(cat "$CAP/example.out")"
check_pdf() { # file, what
  pdfinfo "$1" > "$CAP/pdfinfo" 2>&1
  grep -q '^Pages: *1$' "$CAP/pdfinfo" && grep -q "^Creator: *hp2x $version" "$CAP/pdfinfo" &&
    ok || fail "$2: pdfinfo: $(head -5 "$CAP/pdfinfo")"
  pdftotext "$1" - 2> /dev/null | grep -q 'leak +RTS' && ok ||
    fail "$2: the PDF does not show the profile's job"
}
check_pdf shared.pdf "example (shared)"

# docs/LIBRARY.md quotes this program, from its #include on, in its first
# C block.
awk '/^```c$/ { c = 1; next } c && /^```$/ { exit } c' \
  "$TOP/docs/LIBRARY.md" > "$T/readme.c"
[ -s "$T/readme.c" ] && ok || fail "docs/LIBRARY.md has no C block"
sed -n '/^#include <hp2x.h>/,$p' "$TOP/tests/install/example.c" | cmp -s - "$T/readme.c" &&
  ok || fail "docs/LIBRARY.md does not quote tests/install/example.c"

# Static: the .a alone (no .so beside it), with pkg-config --static.
cp -a "$T/root" "$T/static-root" && rm -f "$T/static-root/opt/hp2x/lib/libhp2x.so"*
PKG_CONFIG_PATH=$T/static-root/opt/hp2x/lib/pkgconfig
# shellcheck disable=SC2086
$CC $OPT -o "$T/example-static" "$TOP/tests/install/example.c" \
    $(pkg-config --static --cflags --libs hp2x) > "$CAP/cc.log" 2>&1 && ok ||
  fail "example (static) does not build: $(head -5 "$CAP/cc.log")"
readelf -d "$T/example-static" | grep -q 'NEEDED.*libhp2x' &&
  fail "example (static) needs libhp2x.so" || ok
"$T/example-static" "$TOP/samples/profiles/leak.hc.hp" static.pdf > "$CAP/example.out" 2>&1 &&
  ok || fail "example (static) failed: $(head -3 "$CAP/example.out")"
check_pdf static.pdf "example (static)"

# Every global the library defines is hp2x_ and declared in hp2x.h, or
# hpx_ (internal), in the .a and in the .so alike: a program of the user's
# own names meets none of them.
for f in "$lib/libhp2x.a" "$lib/libhp2x.so.$version"; do
  # (An ASan build adds one __odr_asan.NAME marker per global variable.)
  nm -g --defined-only "$f" | awk 'NF >= 3 {print $NF}' |
    grep -v '^__odr_asan\.' | sort -u > "$T/globals"
  [ "$(grep -c '^hp2x_' "$T/globals")" -gt 50 ] && ok || fail "$f: nm found too few hp2x_ names"
  grep -v '^hpx_' "$T/globals" | comm -23 - "$T/declared" > "$T/stray"
  [ ! -s "$T/stray" ] && ok ||
    fail "$(basename "$f") defines globals neither hpx_ nor declared hp2x_: $(head -8 "$T/stray" | tr '\n' ' ')"
done
# ... so a program defining the names the library's internals once had
# (profile_new, layout_compute, bands_fill, options_complete, ...) links
# statically and runs, drawing through the library.
# shellcheck disable=SC2086
$CC $OPT -o "$T/clash" "$TOP/tests/install/clash.c" \
    $(pkg-config --static --cflags --libs hp2x) > "$CAP/cc.log" 2>&1 && ok ||
  fail "clash (static) does not link: $(grep -m3 -i 'multiple\|error' "$CAP/cc.log")"
"$T/clash" "$TOP/samples/profiles/leak.hc.hp" clash.pdf > "$CAP/clash.out" 2>&1 &&
  grep -q '^clash: 12 functions of its own' "$CAP/clash.out" && ok ||
  fail "clash failed: $(head -3 "$CAP/clash.out")"
check_pdf clash.pdf "clash (static)"

# hp2x.h as C++ (the C++ compiler of the same family as $CC).
case $("$CC" --version 2>&1 | head -1) in
*clang*) cxx=clang++ ;;
*) cxx=g++ ;;
esac
if command -v "$cxx" > /dev/null; then
  echo '#include <hp2x.h>
int main() { return hp2x_version()[0] == HP2X_VERSION_STRING[0] ? 0 : 1; }' > "$T/use.cc"
  "$cxx" -std=c++11 -Wall -Wextra -Werror -pedantic -fsyntax-only \
      $(pkg-config --cflags hp2x) "$T/use.cc" > "$CAP/cxx.log" 2>&1 && ok ||
    fail "hp2x.h does not compile as C++: $(head -5 "$CAP/cxx.log")"
else
  echo "SKIPPED: C++ check ($cxx not installed)"
fi
finish
