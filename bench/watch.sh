#!/usr/bin/env bash
# bench/watch.sh -- watch-mode cost: a writer appends a large .hp in 40
# equal steps while `hp2x --watch` follows it; reports the watcher's total
# CPU time and peak RSS next to a one-shot render of the final file.  If
# each update re-read the whole file, the watcher's CPU would grow with
# (steps x size); reading only the new bytes, it stays near one parse plus
# one render per update.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
hp2x=${HP2X:-$top/build/hp2x}
export HP2X_FONTS_CONF=$top/fonts/fonts.conf SOURCE_DATE_EPOCH=1700000000
dir=$top/build/bench; mkdir -p "$dir"
steps=40
printf '| file | MB | one-shot CPU s | watch CPU s (%d appends) | watch / one-shot | watch peak RSS MB |\n|---|---:|---:|---:|---:|---:|\n' $steps
for mb in ${WATCH_SIZES:-10 100}; do
  src=$dir/watch-src-$mb.hp
  [ -s "$src" ] || python3 "$top/bench/gen.py" stretch "$top/samples/profiles/longrun.hc.hp" $mb "$src"
  size=$(stat -c %s "$src"); step=$(( size / steps + 1 ))
  /usr/bin/time -f '%U %S' -o "$dir/t1" "$hp2x" -q "$src" -o "$dir/w1.pdf"
  one=$(awk '{print $1 + $2}' "$dir/t1")
  live=$dir/live-$mb.hp; : > "$live"
  /usr/bin/time -f '%U %S %M' -o "$dir/t2" "$hp2x" --watch -q --interval=0.02 --idle-exit=1 "$live" -o "$dir/w2.pdf" &
  pid=$!
  for i in $(seq 0 $((steps - 1))); do
    tail -c +$((i * step + 1)) "$src" | head -c $step >> "$live"; sleep 0.15
  done
  wait $pid
  read -r u s m < "$dir/t2"
  w=$(echo "$u + $s" | bc)
  cmp -s "$dir/w1.pdf" "$dir/w2.pdf" || echo "(note: final watch output differs from one-shot)" >&2
  printf '| %s | %s | %.2f | %.2f | %.1f | %d |\n' "$(basename "$src")" "$mb" "$one" "$w" \
    "$(echo "$w / $one" | bc -l)" $((m / 1024))
done

# The same appended bytes per update on top of a small and a big prefix:
# each step is one write(2), slowly enough (0.3 s a step) that every step
# gets its own render, and strace counts the renders (each renames a
# finished file into place).  A run on the prefix alone (no appends) costs
# the start, the first render and the idle wait; the watcher's CPU beyond
# that, divided by the renders after the first, is one update's cost.
# Equal costs mean an update costs what its new bytes cost, whatever the
# file's size.
src=$dir/watch-src-100.hp
step=250000
# watch_cpu PREFIX STEPS: the watcher's CPU seconds and its renders after
# the first, following PREFIX bytes of $src plus STEPS appends of $step.
watch_cpu() {
  local prefix=$1 n=$2 live=$dir/live-prefix.hp
  head -c "$prefix" "$src" > "$live"
  /usr/bin/time -f '%U %S %M' -o "$dir/t2" strace -f --seccomp-bpf -qq \
    -e trace=rename,renameat,renameat2 -o "$dir/renames" \
    "$hp2x" --watch -q --interval=0.02 --idle-exit=2 "$live" -o "$dir/w2.pdf" &
  local pid=$!
  sleep 1
  for i in $(seq 0 $((n - 1))); do
    tail -c +$((prefix + i * step + 1)) "$src" | head -c $step > "$dir/chunk"
    dd if="$dir/chunk" of="$live" bs=$step oflag=append conv=notrunc status=none
    sleep 0.3
  done
  wait $pid
  read -r u s m < "$dir/t2"
  echo "$(echo "$u + $s" | bc) $(( $(grep -c 'rename' "$dir/renames") - 1 )) $((m / 1024))"
}
printf '\n| prefix MB | appended per update MB | renders after the first | watch CPU s, no appends | watch CPU s, with appends | CPU per update ms | peak RSS MB |\n|---:|---:|---:|---:|---:|---:|---:|\n'
for prefix in 1000000 90000000; do
  read -r base _ _ <<< "$(watch_cpu $prefix 0)"
  read -r w updates rss <<< "$(watch_cpu $prefix $steps)"
  printf '| %d | %.2f | %d | %.2f | %.2f | %.1f | %d |\n' $((prefix / 1000000)) \
    "$(echo "$steps * $step / $updates / 1000000" | bc -l)" $updates "$base" "$w" \
    "$(echo "($w - $base) * 1000 / $updates" | bc -l)" "$rss"
done
