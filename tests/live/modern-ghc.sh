#!/usr/bin/env bash
# modern-ghc.sh -- a real GHC 9.6 or 9.10 on this Debian 12 machine, in a chroot made
# from Debian's own packages (trixie ships GHC 9.6.6, sid GHC 9.10.3).  Needs root,
# ~1.5 GB of disk and 5-10 minutes the first time; afterwards it is instant.
#
#   modern-ghc.sh setup  trixie|sid DIR      make DIR a chroot with ghc + ghc-prof
#   modern-ghc.sh ghc    DIR ARGS...         run ghc inside it (the current directory
#                                            must be under DIR; paths are DIR-relative)
#   modern-ghc.sh run    DIR CMD ARGS...     run a program inside it
#
# Example (a -hi profile of a program of ours, written by GHC 9.10.3):
#   sudo tests/live/modern-ghc.sh setup sid /opt/ghc910
#   mkdir -p /opt/ghc910/work && cp samples/programs/leak.hs /opt/ghc910/work/
#   tests/live/modern-ghc.sh ghc /opt/ghc910 -finfo-table-map \
#       -fdistinct-constructor-tables -eventlog -rtsopts -threaded -O /work/leak.hs
#   tests/live/modern-ghc.sh run /opt/ghc910 sh -c 'cd /work && ./leak +RTS -hi -l -RTS'
#   -> /opt/ghc910/work/leak.eventlog and leak.hp
#
# sid's release file may be past its validity date on the package mirror; apt is told
# to accept it.  Profiling builds (-prof) need ghc-prof, which setup installs.
set -euo pipefail

# The Debian mirror this machine's own apt uses (deb822 .sources or sources.list).
mirror() {
  local m
  m=$(awk '$1 == "URIs:" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$m" ] || m=$(awk '$1 == "deb" && $0 !~ /security/ {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$m" ] || { echo "modern-ghc.sh: no Debian mirror found in /etc/apt" >&2; exit 1; }
  echo "$m"
}

mounts() {
  local d=$1
  mountpoint -q "$d/proc" || mount -t proc proc "$d/proc"
  mountpoint -q "$d/dev" || mount --bind /dev "$d/dev"
}

case "${1:-}" in
  setup)
    suite=${2:?suite: trixie or sid}; dir=${3:?directory}
    command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
    if [ ! -x "$dir/usr/bin/ghc" ]; then
      [ -d "$dir/usr" ] || debootstrap --variant=minbase "$suite" "$dir" "$(mirror)"
      cp /etc/resolv.conf "$dir/etc/" 2>/dev/null || true
      mounts "$dir"
      chroot "$dir" apt-get -o Acquire::Check-Valid-Until=false update -q
      chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q ghc ghc-prof
    fi
    mounts "$dir"
    chroot "$dir" ghc --version ;;
  ghc)
    dir=${2:?directory}; shift 2; mounts "$dir"
    chroot "$dir" ghc "$@" ;;
  run)
    dir=${2:?directory}; shift 2; mounts "$dir"
    chroot "$dir" "$@" ;;
  *)
    sed -n '2,21p' "$0"; exit 2 ;;
esac
