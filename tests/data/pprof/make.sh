#!/usr/bin/env bash
# make.sh -- regenerates this folder: samples/programs/deepcc.hs run under
# real GHC 9.6.6 and 9.10.3 with -hc, -hd and -hy, each run writing its .hp
# and its eventlog.  Needs root, two chroots with a real GHC 9.6 and 9.10,
# and MODERN_GHC: the program that runs a command in one
# (`$MODERN_GHC run ROOT CMD...`).
# usage: make.sh ROOT96 ROOT910 [WORKDIR]   (WORKDIR inside each root:
# /work-pprof by default)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../../..
tool=${MODERN_GHC:?the program that runs a command in a GHC chroot (MODERN_GHC=... make.sh ...)}
r96=${1:?chroot with GHC 9.6 (Debian trixie)}
r910=${2:?chroot with GHC 9.10 (Debian sid)}
work=${3:-/work-pprof}
for pair in "$r96:ghc-9.6.6" "$r910:ghc-9.10.3"; do
  root=${pair%%:*} v=${pair#*:}
  mkdir -p "$root$work" "$here/$v"
  cp "$top/samples/programs/deepcc.hs" "$root$work/"
  "$tool" run "$root" sh -c "cd $work && ghc -prof -fprof-auto -rtsopts -O -outputdir o_prof deepcc.hs -o deepcc" >/dev/null
  for mode in hc hd hy; do
    "$tool" run "$root" sh -c "cd $work && rm -f deepcc.hp deepcc.eventlog && ./deepcc 60 8 +RTS -$mode -l -i0.02 -RTS >/dev/null"
    gzip -9 -n -c "$root$work/deepcc.eventlog" >"$here/$v/deepcc.$mode.eventlog.gz"
    gzip -9 -n -c "$root$work/deepcc.hp" >"$here/$v/deepcc.$mode.hp.gz"
  done
done
