#!/bin/sh
# mk/symbols.sh [--check] LIB SONAME VERSION SYMBOLS -- the Debian symbols
# file SYMBOLS (debian/libhp2xN.symbols, N the soname's number) against
# what the shared library LIB exports (nm -D): one entry " NAME@Base V"
# per export, V the version it first appeared in.  `make symbols` runs it
# to rewrite SYMBOLS: entries kept with their versions, each new export
# added with VERSION (hp2x.h's), each entry whose export is gone dropped
# (an ABI break: the soname must change), every change printed.  With
# --check (tests/e2e/test_package.sh) nothing is written: it exits 1 when
# they differ, naming each difference and `make symbols`.  The package
# build checks the same with dpkg-gensymbols -c4 (debian/rules).
set -eu
check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
lib=$1 soname=$2 version=$3 symbols=$4
pkg=$(basename "$symbols" .symbols)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The exports (the linker's own markers aside), one name a line, sorted.
nm -D --defined-only "$lib" | awk 'NF >= 3 { print $3 }' |
  grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$' | LC_ALL=C sort -u \
  > "$tmp/exports"
[ -s "$tmp/exports" ] || { echo "$0: no exports read from $lib" >&2; exit 1; }
if [ -f "$symbols" ]; then
  grep -v '^ ' "$symbols" > "$tmp/head"
  sed -n 's/^ \([^@ ]*\)@Base \(.*\)$/\1 \2/p' "$symbols" | LC_ALL=C sort \
    > "$tmp/listed"
else
  printf '%s %s #MINVER#\n* Build-Depends-Package: libhp2x-dev\n' \
    "$soname" "$pkg" > "$tmp/head"
  : > "$tmp/listed"
fi
cut -d' ' -f1 "$tmp/listed" > "$tmp/names"
LC_ALL=C comm -13 "$tmp/names" "$tmp/exports" > "$tmp/new"
LC_ALL=C comm -23 "$tmp/names" "$tmp/exports" > "$tmp/gone"
if [ "$check" = 1 ]; then
  [ -s "$tmp/new" ] || [ -s "$tmp/gone" ] || exit 0
  sed "s|^|$symbols: no entry for the export |" "$tmp/new"
  sed "s|^|$symbols: an entry, but $lib does not export |" "$tmp/gone"
  echo "$symbols: run make symbols (new exports get version $version)," \
    "check its changes and commit them"
  exit 1
fi
{
  cat "$tmp/head"
  { LC_ALL=C join "$tmp/exports" "$tmp/listed"
    sed "s/\$/ $version/" "$tmp/new"; } |
    LC_ALL=C sort | awk '{ print " " $1 "@Base " $2 }'
} > "$tmp/out"
sed "s/^/added (version $version): /" "$tmp/new"
sed 's/^/removed: /' "$tmp/gone"
[ -s "$tmp/gone" ] && echo "$0: exports are gone: an ABI break, so the" \
  "soname (HP2X_VERSION_MAJOR) must change" >&2
[ -s "$tmp/new" ] || [ -s "$tmp/gone" ] || echo "$symbols: up to date"
cp "$tmp/out" "$symbols"
