#!/usr/bin/env bash
# bench/run.sh -- times hp2x against hp2ps and `wc -l` (one pass over the
# bytes: the floor) on large inputs generated from samples/, in one run, and
# prints a table: best wall time of REPS runs, peak RSS, output size, and
# speed ratios (hp2ps time / hp2x time: above 1 means hp2x is faster).
# Inputs are cached in build/bench/.  Not a test: `make bench` runs it.
#   REPS=3  HP2PS_MAX_MB=110 (hp2ps is quadratic: skipped on bigger inputs)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
hp2x=${HP2X:-$top/build/hp2x}
export HP2X_FONTS_CONF=$top/fonts/fonts.conf
reps=${REPS:-3}
hp2ps_max=${HP2PS_MAX_MB:-110}
dir=$top/build/bench
mkdir -p "$dir"
S=$top/samples/profiles
gen() { [ -s "$dir/$1" ] || { echo "generating $1" >&2; python3 "$top/bench/gen.py" "${@:2}" "$dir/$1"; }; }
gen small.hp stretch "$S/leak.hc.hp" 0.05
gen stretch-10mb.hp stretch "$S/longrun.hc.hp" 10
gen stretch-100mb.hp stretch "$S/longrun.hc.hp" 100
[ -n "${BENCH_BIG:-}" ] && gen stretch-500mb.hp stretch "$S/longrun.hc.hp" 500
gen many-samples-60000x60.hp shape "$S/manycc.hc.hp" 60000 60
gen many-bands-20x50000.hp shape "$S/manycc.hc.hp" 20 50000
gen many-samples-60000x60.eventlog eventlog "$dir/many-samples-60000x60.hp"
gen stretch-100mb.eventlog eventlog "$dir/stretch-100mb.hp"

have_time=0; [ -x /usr/bin/time ] && have_time=1
# measure CMD...: sets $wall (best of reps, seconds, from a nanosecond
# clock) and $rss (peak KB, from GNU time when installed).
measure() {
  wall=999999 rss=0
  for _ in $(seq "$reps"); do
    r=0
    s=$(date +%s.%N)
    if [ $have_time = 1 ]; then
      /usr/bin/time -f '%M' -o "$dir/time.txt" "$@" > /dev/null 2>&1
      read -r r < "$dir/time.txt"
    else
      "$@" > /dev/null 2>&1
    fi
    e=$(date +%s.%N)
    w=$(echo "scale=4; $e - $s" | bc)
    wall=$(echo "if ($w < $wall) $w else $wall" | bc)
    [ "$r" -gt "$rss" ] && rss=$r
  done
}
printf '| input | MB | tool | wall s | peak RSS MB | output KB | vs hp2ps | vs wc -l |\n'
printf '|---|---:|---|---:|---:|---:|---:|---:|\n'
for f in small.hp stretch-10mb.hp stretch-100mb.hp stretch-500mb.hp \
         many-samples-60000x60.hp many-bands-20x50000.hp \
         many-samples-60000x60.eventlog stretch-100mb.eventlog; do
  in=$dir/$f; [ -s "$in" ] || continue
  mb=$(printf "%.2f" "$(echo "scale=3; $(stat -c %s "$in") / 1000000" | bc)")
  measure wc -l "$in"; wc_wall=$wall
  printf '| %s | %s | wc -l | %.3f | %s | | | 1.0 |\n' "$f" "$mb" "$wall" "$((rss / 1024))"
  ps_wall=""
  case $f in *.hp)
    if [ "$(echo "$mb <= $hp2ps_max" | bc)" = 1 ] && command -v hp2ps > /dev/null; then
      cp "$in" "$dir/in.hp"
      (cd "$dir" && reps=1 && measure hp2ps in.hp; echo "$wall $rss" > ps.txt)
      read -r ps_wall ps_rss < "$dir/ps.txt"
      printf '| %s | %s | hp2ps | %.3f | %s | %s | 1.0 | %.1f |\n' "$f" "$mb" "$ps_wall" \
        "$((ps_rss / 1024))" "$(( $(stat -c %s "$dir/in.ps") / 1024 ))" \
        "$(echo "$ps_wall / $wc_wall" | bc -l)"
    fi;;
  esac
  for fmt in pdf svg; do
    measure "$hp2x" -q "$in" -o "$dir/out.$fmt"
    vs_ps=""; [ -n "$ps_wall" ] && vs_ps=$(printf '%.2fx' "$(echo "$ps_wall / $wall" | bc -l)")
    printf '| %s | %s | hp2x %s | %.3f | %s | %s | %s | %.1f |\n' "$f" "$mb" "$fmt" "$wall" \
      "$((rss / 1024))" "$(( $(stat -c %s "$dir/out.$fmt") / 1024 ))" "$vs_ps" \
      "$(echo "$wall / $wc_wall" | bc -l)"
  done
done
