#!/bin/sh
# make.sh -- rebuilds this folder: shelves (shelves.hs, Ledger.hs) under
# real GHC 9.6.6 and 9.10.3, static, position-independent and stripped,
# each run with +RTS -hi -l.  Run from the repository's top as root:
#   tests/data/program/make.sh ROOT96 ROOT910
# with chroots made by tests/live/modern-ghc.sh setup (trixie, sid).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tool=$(cd "$here/../.." && pwd)/live/modern-ghc.sh
flags="-O -rtsopts -finfo-table-map -fdistinct-constructor-tables"
z() { gzip -9 -n -c "$1" > "$2"; }
one() { # one ROOT OUTDIR
  r=$1 o=$here/$2
  mkdir -p "$r/w" "$o" && cp "$here"/*.hs "$r/w/"
  "$tool" run "$r" sh -c "cd /w && ghc $flags -outputdir o_s shelves.hs -o shelves"
  "$tool" run "$r" sh -c "cd /w && ghc $flags -dynamic -fPIC -pie -outputdir o_p shelves.hs -o shelves-pie"
  "$tool" run "$r" sh -c "cd /w && cp shelves shelves-stripped && strip shelves-stripped"
  for v in shelves shelves-pie shelves-stripped; do
    for m in i T; do
      "$tool" run "$r" sh -c "rm -rf /w/run && mkdir /w/run && cd /w/run && ../$v 30000 +RTS -h$m -l -i0.02 -RTS >/dev/null"
      z "$r/w/run/$v.eventlog" "$o/$v.h$m.eventlog.gz"
      z "$r/w/run/$v.hp" "$o/$v.h$m.hp.gz"
    done
    z "$r/w/$v" "$o/$v.gz"
  done
}
one "${1:?ROOT96}" ghc-9.6.6
one "${2:?ROOT910}" ghc-9.10.3
