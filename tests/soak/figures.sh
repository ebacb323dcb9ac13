#!/usr/bin/env bash
# figures.sh -- the soak's figures for bench/RESULTS.md (12.6 for the
# hour), from the output of `make soak`:  tests/soak/figures.sh OUTPUT
# prints its table (the served watch's rows, the criteria and the file
# watchers' summary rows; not each fault's and each signal's) in the form
# RESULTS.md takes.  While the soak runs (no table yet) it prints how far
# it is: the served watch's RSS and the censuses sent so far, from the
# run's directory (SOAK_KEEP keeps it after).
set -u
out=${1:?usage: figures.sh OUTPUT}
if grep -q '^## make soak' "$out"; then
  sed -n '/^## make soak/,/^soak: /p' "$out" |
    grep -v '^| - fault\|^| signal latency SIG\|^soak: '
  exit 0
fi
W=$(sed -n 's/^soak: running for [0-9]*s in \([^ ]*\) .*/\1/p' "$out")
secs=$(sed -n 's/^soak: running for \([0-9]*\)s in .*/\1/p' "$out")
[ -n "$W" ] && [ -d "$W/serve" ] || { echo "figures: no table and no run directory in $out"; exit 1; }
began=$(stat -c %Y "$W/serve/prom.yml")
echo "still running: began $(date -u -d @"$began" +%H:%MZ), ends about $(date -u -d @$((began + secs)) +%H:%MZ) (then 1-3 minutes of checks)"
awk -v s="$began" '$2 != "-" {printf "%s%ds: %.1f MiB (%d censuses)", sep, $1 / 1000 - s, $2 / 1024, $3; sep = ", "}
  END {print ""}' "$W/serve/rss.log"
echo "pprof fetches (ms exit samples): $(wc -l < "$W/serve/pprof.log"), failed: $(awk '$2 != 0' "$W/serve/pprof.log" | wc -l)"
