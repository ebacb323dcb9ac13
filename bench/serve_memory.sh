#!/usr/bin/env bash
# serve_memory.sh HP2X -- the memory of a served watch over a run long
# enough for the profile to thin (man page, MEMORY: from 21,604 samples):
# a generated profile (bench/gen.py varied: SERVE_MEM_SAMPLES samples of
# SERVE_MEM_BANDS bands) is appended to a watched file, evenly over
# SERVE_MEM_SECONDS, while four curl clients ask for /, /picture.png,
# /picture.pdf and /metrics one request after another.  Three runs: the
# watch alone (-o SVG), the watch with --serve, and the same with
# MALLOC_ARENA_MAX=1 (glibc's malloc arenas, one per thread that draws,
# each keeping its free memory).  Prints each run's RSS every 20 s and
# its growth over the last third (after thinning: bounded means none).
# Slow (3 x SERVE_MEM_SECONDS, default 240); not part of make bench.
set -eu
hp2x=$(realpath "${1:?usage: serve_memory.sh HP2X}")
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${SERVE_MEM_SECONDS:-240}
samples=${SERVE_MEM_SAMPLES:-40000}
bands=${SERVE_MEM_BANDS:-50}
export HP2X_FONTS_CONF="$top/fonts/fonts.conf"
T=$(mktemp -d)
trap 'kill $(jobs -p) 2> /dev/null || true; rm -rf "$T"' EXIT
cd "$T"
python3 "$top/bench/gen.py" varied "$top/samples/profiles/leak.hT.hp" \
  "$samples" "$bands" big.hp

# feed SECONDS: big.hp's header, then its samples appended to w.hp evenly.
feed() {
  python3 - big.hp w.hp "$1" <<'PY'
import sys, time
src, dst, secs = sys.argv[1], sys.argv[2], float(sys.argv[3])
data = open(src, 'rb').read()
head = data.index(b'BEGIN_SAMPLE')
samples = [b'BEGIN_SAMPLE' + s for s in data[head:].split(b'BEGIN_SAMPLE')[1:]]
out = open(dst, 'wb')
out.write(data[:head])
out.flush()
t0, dt = time.time(), secs / len(samples)
for k, s in enumerate(samples):
    out.write(s)
    out.flush()
    time.sleep(max(0.0, t0 + (k + 1) * dt - time.time()))
PY
}

# client PATH: requests PATH one after another while the feed runs.
client() {
  while kill -0 "$F" 2> /dev/null; do
    curl -sf -m 60 -o /dev/null "http://127.0.0.1:$port/$1" || sleep 0.2
  done
}

# run NAME [VAR=VALUE...] HP2X ARGS...: one run; prints a table row.
run() {
  local name=$1 serve=0 t=0
  shift
  rm -f w.hp err
  feed "$secs" & F=$!
  sleep 0.5
  env "$@" 2> err & H=$!
  case " $* " in *" --serve=0 "*) serve=1 ;; esac
  if [ $serve = 1 ]; then
    for _ in $(seq 100); do
      port=$(sed -n 's|^hp2x: serving http://.*:\([0-9][0-9]*\)/$|\1|p' err)
      [ -n "$port" ] && break
      sleep 0.1
    done
    client "" & client picture.png & client picture.pdf & client metrics &
  fi
  : > rss
  while kill -0 "$F" 2> /dev/null; do
    sleep 20; t=$((t + 20))
    echo "$t $(awk '/VmRSS/ { print $2 }' /proc/$H/status)" >> rss
  done
  kill -TERM "$H"; wait "$H" || true
  wait
  awk -v n="$name" -v s="$secs" '
    { t[NR] = $1; r[NR] = $2 / 1024 }
    END {
      row = "| " n " |"
      for (i = 1; i <= NR; i++) row = row sprintf(" %.0f", r[i])
      k = int(NR * 2 / 3); if (k < 1) k = 1
      printf "%s | %.1f |\n", row, r[NR] - r[k]
    }' rss
}

echo "### The served watch's memory: $samples samples x $bands bands over $secs s"
echo
echo "| run | RSS every 20 s, MiB | growth over the last third, MiB |"
echo "|---|---|---|"
run "watch, -o SVG" "$hp2x" --watch w.hp -o "$T/out.svg"
run "watch, --serve, 4 clients" "$hp2x" --watch w.hp --serve=0 -o "$T/out.svg"
run "the same, MALLOC_ARENA_MAX=1" MALLOC_ARENA_MAX=1 "$hp2x" --watch w.hp \
  --serve=0 -o "$T/out.svg"
