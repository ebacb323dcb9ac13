#!/usr/bin/env bash
# soak.sh -- `make soak` (mk/soak.mk; not part of check): one of our own
# programs (samples/programs/longrun.hs, built with the system's ghc,
# threaded, eventlog) writes its .hp and eventlog for SOAK_SECONDS
# (default 600) while two `hp2x --watch` draw them (.hp -> PDF, eventlog ->
# SVG).  The script feeds copies of the program's files to the watchers in
# chunks of random size (so most updates end mid-line or mid-event) and
# meanwhile injects faults: the writer paused and resumed (SIGSTOP/SIGCONT),
# an input cut mid-line, truncated to nothing, replaced by a new file, and
# the output directory full (a small tmpfs; skipped with a message where it
# cannot be mounted).  Extra short-lived watchers (--interval=60) get
# SIGTERM/SIGINT/SIGHUP at random points to measure signal latency.
# A third watcher follows a service's eventlog socket (a generator of real
# GHC census blocks, 30 a second, so that the profile thins after 12
# minutes) and serves it (--serve, --tee) to 10 live pages in chromium, 40
# plain SSE clients, a Prometheus scraping every 5 s and go tool pprof
# every minute, for the whole soak (tests/soak/soak_serve.sh).
# `SOAK_SECONDS=3600 make soak` is issue 42's hour (bench/RESULTS.md 12.6).
# Prints a table: renders, faults injected, said once and survived,
# snapshots checked valid (pdfinfo + gs, rsvg-convert), RSS over time,
# signal latencies, final output = one-shot, the served watch's censuses,
# clients, scrapes, pprof fetches and RSS growth; then the criteria, each
# passed or FAILED.  Exits 1 when a check fails (a client that missed a
# census or a watcher that crashed included).  Bounded: every wait has a
# limit, so it stops by itself.  Debian 12's GHC 9.0 has no
# --eventlog-flush-interval: its eventlog gets the heap samples only as
# buffers fill (for longrun, at exit), so the eventlog watcher draws late;
# a GHC >= 9.2 on PATH gives a flushed eventlog (the script probes the flag).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-build}
case $build in /*) ;; *) build=$top/$build ;; esac
HP2X=${HP2X:-$build/hp2x}
SOAK_SECONDS=${SOAK_SECONDS:-600}
INTERVAL=${SOAK_INTERVAL:-1}   # the main watchers' --interval
export SOURCE_DATE_EPOCH=1700000000 HP2X_FONTS_CONF="$top/fonts/fonts.conf"
export LC_ALL=C.UTF-8

say() { printf 'soak: %s\n' "$*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
[ -x "$HP2X" ] || { say "no $HP2X (make first)"; exit 1; }
for tool in ghc pdfinfo gs rsvg-convert; do
  command -v $tool > /dev/null || { say "needs $tool (make deps deps-dev)"; exit 1; }
done
. "$top/tests/soak/soak_serve.sh"
. "$top/tests/soak/soak_checks.sh"
serve_needs || exit 1

# ---------------------------------------------------------------- program
prog=$build/soak/longrun
src=$top/samples/programs/longrun.hs
if [ ! -x "$prog" ] || [ "$src" -nt "$prog" ]; then
  say "building $prog with $(ghc --numeric-version 2>/dev/null | sed 's/^/ghc /')"
  mkdir -p "$build/soak/obj"
  ghc -v0 -O -rtsopts -eventlog -threaded -outputdir "$build/soak/obj" \
      -o "$prog" "$src" || { say "ghc failed"; exit 1; }
fi
# A flushed eventlog where the RTS knows the flag (GHC >= 9.2); older RTSs
# write it when a buffer fills, which the feeder sees as larger chunks.
FLUSH_FLAG=--eventlog-flush-interval=0.5 FLUSH=$FLUSH_FLAG
"$prog" 1 +RTS $FLUSH -RTS > /dev/null 2>&1 || FLUSH=

W=$(mktemp -d "${TMPDIR:-/tmp}/hp2x-soak.XXXXXX")
mounted=0 pids=()
cleanup() {
  local p
  # the clients first, by SIGTERM: playwright closes its chromium then
  if [ -n "${CLIENTS:-}" ] && kill -TERM "$CLIENTS" 2> /dev/null; then
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$CLIENTS" 2> /dev/null || break; sleep 0.2; done
  fi
  for p in "${pids[@]+"${pids[@]}"}"; do kill -KILL "$p" 2> /dev/null; done
  wait 2> /dev/null
  if [ $mounted = 1 ]; then
    [ -n "${SOAK_KEEP:-}" ] && cp -a "$W/out" "$W/out-kept" 2> /dev/null
    umount "$W/out" 2> /dev/null
  fi
  [ -n "${SOAK_KEEP:-}" ] && say "kept $W" || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$W/prog" "$W/out" "$W/snap"
# The output directory: a 32 MB tmpfs where root may mount one, so that it
# can be filled for a while.
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=32m hp2x-soak "$W/out" 2> /dev/null; then
  mounted=1
else
  say "cannot mount a tmpfs (not root, or not allowed): the full-disk fault is skipped"
fi

# ---------------------------------------------------------------- start
start_ms=$(now_ms)
t_s() { echo $(( ($(now_ms) - start_ms) / 1000 )); }
(cd "$W/prog" && exec "$prog" 2000000000 +RTS -hT -l-sgp -i0.1 $FLUSH -RTS \
   > prog.out 2> prog.err) &
P=$!; pids+=($P)
: > "$W/w.hp"; : > "$W/w.eventlog"
"$HP2X" --watch --interval=$INTERVAL "$W/w.hp" -o "$W/out/live.pdf" \
  2> "$W/pdf.err" & W1=$!; pids+=($W1)
"$HP2X" --watch --interval=$INTERVAL "$W/w.eventlog" -o "$W/out/live.svg" \
  2> "$W/svg.err" & W2=$!; pids+=($W2)
serve_begin

# rss_of PID: "RSS HWM" in KiB, "- -" once it has exited.
rss_of() {
  { [ -r /proc/$1/status ] &&
    awk '/^VmRSS/ {r = $2} /^VmHWM/ {h = $2} END {if (r == "") exit 1; print r, h}' /proc/$1/status 2> /dev/null; } ||
    echo "- -"
}
# The sampler: a new inode of an output is a render (outputs are renamed
# into place); each is copied for checking at the end.  RSS every 2 s.
sampler() {
  local last_pdf= last_svg= n_pdf=0 n_svg=0 tick=0 i
  while [ -e "$W/sampling" ]; do
    i=$(stat -c %i "$W/out/live.pdf" 2> /dev/null)
    if [ -n "$i" ] && [ "$i" != "$last_pdf" ]; then
      last_pdf=$i; n_pdf=$((n_pdf + 1))
      cp "$W/out/live.pdf" "$W/snap/$n_pdf.pdf" 2> /dev/null
      echo "$(now_ms) pdf $n_pdf" >> "$W/renders.log"
    fi
    i=$(stat -c %i "$W/out/live.svg" 2> /dev/null)
    if [ -n "$i" ] && [ "$i" != "$last_svg" ]; then
      last_svg=$i; n_svg=$((n_svg + 1))
      cp "$W/out/live.svg" "$W/snap/$n_svg.svg" 2> /dev/null
      echo "$(now_ms) svg $n_svg" >> "$W/renders.log"
    fi
    if [ $((tick % 10)) = 0 ]; then
      echo "$(now_ms) $(rss_of $W1) $(rss_of $W2) $(rss_of $W3)" >> "$W/rss.log"
    fi
    tick=$((tick + 1))
    sleep 0.2
  done
}
: > "$W/renders.log"; : > "$W/rss.log"; touch "$W/sampling"
sampler & S=$!; pids+=($S)

# ---------------------------------------------------------------- feeding
fed_hp=0 fed_ev=0
# feed RAW WATCHED FED [ALL]: appends what RAW has beyond FED to WATCHED,
# less a random tail of up to 4 KiB unless ALL (so updates end mid-line or
# mid-event); prints the new FED.
feed() {
  local size n
  size=$(stat -c %s "$1" 2> /dev/null || echo 0)
  n=$(( size - $3 )); [ $n -gt 0 ] || { echo "$3"; return; }
  [ -n "${4:-}" ] || n=$(( n - RANDOM % 4097 ))
  [ $n -gt 0 ] || { echo "$3"; return; }
  dd if="$1" bs=65536 skip="$3" count=$n iflag=skip_bytes,count_bytes \
     status=none >> "$2"
  echo $(( $3 + n ))
}
feed_both() {
  fed_hp=$(feed "$W/prog/longrun.hp" "$W/w.hp" $fed_hp ${1:-})
  fed_ev=$(feed "$W/prog/longrun.eventlog" "$W/w.eventlog" $fed_ev ${1:-})
}
# A byte offset in the first FED bytes of FILE that is not just after a
# newline (so a cut there is mid-line), at least 1.
mid_line_offset() {
  local fed=$1 file=$2 o
  o=$(( fed / 2 + RANDOM % (fed / 4 + 1) ))
  while [ $o -gt 1 ] && [ "$(dd if="$file" bs=1 skip=$((o - 1)) count=1 status=none | od -An -c | tr -d ' ')" = '\n' ]; do
    o=$((o - 1))
  done
  echo $o
}

# ---------------------------------------------------------------- faults
faults=0 fault_log=$W/faults.log; : > "$fault_log"
serve_faults
# fault NAME WHICH: records an injected fault (WHICH: pdf, svg or both),
# ended now; survived is decided at the end (a render after it).
fault_done() { faults=$((faults + 1)); echo "$(now_ms) $2 $1" >> "$fault_log"; }

# Signal latency: a watcher with --interval=60 on a copy of the .hp gets
# SIG after DELAY seconds; latency = signal to exit.
probes=0
probe() {
  local n=$1 sig=$2 delay=$3 p guard t0 t1 rc left
  mkdir -p "$W/probe$n"
  cp "$W/w.hp" "$W/probe$n/in.hp"
  # A background job of a non-interactive shell starts with SIGINT
  # ignored (and under nohup SIGHUP), and hp2x keeps an ignored signal
  # ignored (as nohup expects): give the probe the defaults back, as a
  # terminal's job would have.
  env --default-signal=INT,HUP,TERM "$HP2X" --watch --interval=60 -q "$W/probe$n/in.hp" \
    -o "$W/probe$n/out.pdf" 2> "$W/probe$n/err" & p=$!
  sleep "$delay"
  t0=$(date +%s%N); kill -"$sig" $p
  ( sleep 90; kill -KILL $p 2> /dev/null ) & guard=$!
  wait $p; rc=$?; t1=$(date +%s%N)
  kill $guard 2> /dev/null; wait $guard 2> /dev/null
  left=$(find "$W/probe$n" -name '.*' -type f | wc -l)
  echo "$sig $delay $(( (t1 - t0) / 1000000 )) $rc $left" >> "$W/latency.log"
}
: > "$W/latency.log"

# Fault schedule, in tenths of the run; each line: TENTH ACTION.
plan=( "1 probe" "15 pause" "2 cut_hp" "3 replace_hp" "35 probe" "4 truncate_hp"
       "5 full" "55 probe" "6 pause" "7 cut_ev" "75 probe" "8 replace_ev"
       "85 truncate_ev" "9 probe" )
declare -A done_at=()
end_ms=$(( start_ms + SOAK_SECONDS * 1000 ))
pause_until=0 full_until=0 probe_n=0 sigs=(TERM INT HUP)
say "running for ${SOAK_SECONDS}s in $W ($( [ -n "$FLUSH" ] && echo flushed eventlog || echo "this RTS has no $FLUSH_FLAG: the eventlog comes as its buffers fill" ))"
while [ "$(now_ms)" -lt $end_ms ]; do
  kill -0 $P 2> /dev/null || { say "the program ended early"; break; }
  feed_both
  now=$(now_ms)
  if [ $pause_until -gt 0 ] && [ $now -ge $pause_until ]; then
    kill -CONT $P $GEN; pause_until=0; fault_done "writer and service paused 5 s (SIGSTOP/SIGCONT)" both
  fi
  if [ $full_until -gt 0 ] && [ $now -ge $full_until ]; then
    rm -f "$W/out/filler"; full_until=0; fault_done "output directory full 10 s (ENOSPC)" both
  fi
  for entry in "${plan[@]}"; do
    set -- $entry
    at=$(( start_ms + SOAK_SECONDS * 1000 * $1 / (${#1} == 1 ? 10 : 100) ))
    [ $now -ge $at ] && [ -z "${done_at[$entry]:-}" ] || continue
    done_at[$entry]=$now
    case $2 in
      pause) kill -STOP $P $GEN; pause_until=$(( now + 5000 )) ;;
      cut_hp)   # cut mid-line, then grows again from there
        o=$(mid_line_offset $fed_hp "$W/w.hp"); truncate -s $o "$W/w.hp"; fed_hp=$o
        fault_done ".hp cut mid-line at byte $o" pdf ;;
      cut_ev)
        o=$(( fed_ev / 2 + RANDOM )); [ $o -lt $fed_ev ] || o=$((fed_ev / 2))
        truncate -s $o "$W/w.eventlog"; fed_ev=$o
        fault_done "eventlog cut mid-event at byte $o" svg ;;
      truncate_hp) : > "$W/w.hp"; fed_hp=0; fault_done ".hp truncated to 0" pdf ;;
      truncate_ev) : > "$W/w.eventlog"; fed_ev=0; fault_done "eventlog truncated to 0" svg ;;
      replace_hp)
        head -c $fed_hp "$W/prog/longrun.hp" > "$W/w.hp.new" && mv "$W/w.hp.new" "$W/w.hp"
        fault_done ".hp replaced (new file, same name)" pdf ;;
      replace_ev)
        head -c $fed_ev "$W/prog/longrun.eventlog" > "$W/w.ev.new" && mv "$W/w.ev.new" "$W/w.eventlog"
        fault_done "eventlog replaced (new file, same name)" svg ;;
      full)
        if [ $mounted = 1 ]; then
          dd if=/dev/zero of="$W/out/filler" bs=1M status=none 2> /dev/null
          full_until=$(( now + 10000 ))
        else
          echo "skipped: output directory full (no tmpfs)" >> "$W/skipped.log"
        fi ;;
      probe)
        probe_n=$((probe_n + 1))
        probe $probe_n ${sigs[$((probe_n % 3))]} "$(( RANDOM % 3 )).$(( RANDOM % 10 ))$(( RANDOM % 10 ))" &
        pids+=($!); probes=$((probes + 1)) ;;
    esac
  done
  sleep 0.25
done
[ $pause_until -gt 0 ] && { kill -CONT $P $GEN; fault_done "writer and service paused 5 s (SIGSTOP/SIGCONT)" both; }
[ $full_until -gt 0 ] && { rm -f "$W/out/filler"; fault_done "output directory full 10 s (ENOSPC)" both; }

# ---------------------------------------------------------------- the end
# The program is interrupted (SIGINT: its RTS finishes both files), the
# rest is fed, and the watchers get time to draw it all.
kill -INT $P 2> /dev/null
for _ in $(seq 300); do kill -0 $P 2> /dev/null || break; sleep 0.1; done
kill -KILL $P 2> /dev/null; wait $P 2> /dev/null
hp_size=$(stat -c %s "$W/prog/longrun.hp"); ev_size=$(stat -c %s "$W/prog/longrun.eventlog")
feed_both all
# The one-shot pictures of the final inputs; the watchers get up to 120 s
# to draw the same (a complete eventlog also ends its watcher).
"$HP2X" -q "$W/w.hp" -o "$W/oneshot.pdf"; "$HP2X" -q "$W/w.eventlog" -o "$W/oneshot.svg"
# running PID: not exited (a child that exited stays a zombie until waited).
running() { [ -e /proc/$1 ] && [ "$(awk '{print $3}' /proc/$1/stat 2> /dev/null)" != Z ]; }
# same ONESHOT LIVE: the same bytes, but for cairo's SVG surface serial
# (<g id="surfaceN">, counted per process: a watch draws many surfaces, a
# one-shot one), the one thing watch mode legitimately changes.
same() {
  cmp -s "$1" "$2" ||
    cmp -s <(sed -E 's/<g id="surface[0-9]+">/<g id="surface">/' "$1" 2> /dev/null) \
           <(sed -E 's/<g id="surface[0-9]+">/<g id="surface">/' "$2" 2> /dev/null)
}
# drawn ONESHOT LIVE PID: LIVE has ONESHOT's picture, or its watcher is gone.
drawn() { same "$1" "$2" || ! running $3; }
for _ in $(seq 600); do
  drawn "$W/oneshot.pdf" "$W/out/live.pdf" $W1 &&
    drawn "$W/oneshot.svg" "$W/out/live.svg" $W2 && break
  sleep 0.2
done
sleep 0.5 # the sampler's last look
wait_for_probes() {
  local p
  for p in $(jobs -p); do
    case " $S $W1 $W2 $W3 $PROM $CLIENTS $GEN $PPROF_LOOP $RSS_LOOP " in *" $p "*) ;; *) wait "$p" 2> /dev/null ;; esac
  done
}
# The main watchers end by signal too: SIGTERM, SIGINT.
stop_watcher() {
  local p=$1 sig=$2 tag=${3:-end} t0 t1 rc guard
  if ! running $p; then
    wait $p; rc=$?
    echo "$sig gone - $rc $(find "$W/out" -name '.*' -type f | wc -l)" >> "$W/latency.log"
    return $rc
  fi
  t0=$(date +%s%N); kill -"$sig" $p
  ( sleep 90; kill -KILL $p 2> /dev/null ) & guard=$!
  wait $p; rc=$?; t1=$(date +%s%N)
  kill $guard 2> /dev/null; wait $guard 2> /dev/null
  echo "$sig $tag $(( (t1 - t0) / 1000000 )) $rc $(find "$W/out" -name '.*' -type f | wc -l)" >> "$W/latency.log"
  return $rc
}
stop_watcher $W1 TERM; rc1=$?
stop_watcher $W2 INT; rc2=$?
bad=0
serve_end
rm -f "$W/sampling"; wait $S 2> /dev/null
wait_for_probes
elapsed=$(( ($(now_ms) - start_ms) / 1000 ))

# ---------------------------------------------------------------- checks
same_note() {
  if cmp -s "$1" "$2"; then echo yes
  elif same "$1" "$2"; then echo "yes but for cairo's surface serial (<g id=\"surfaceN\">)"
  else echo NO; return 1; fi
}
same_pdf=$(same_note "$W/oneshot.pdf" "$W/out/live.pdf") || bad=1
same_svg=$(same_note "$W/oneshot.svg" "$W/out/live.svg") || bad=1
cmp -s "$W/w.hp" "$W/prog/longrun.hp" && cmp -s "$W/w.eventlog" "$W/prog/longrun.eventlog" && fed_ok=yes || { fed_ok=NO; bad=1; }
renders_pdf=$(grep -c ' pdf ' "$W/renders.log"); renders_svg=$(grep -c ' svg ' "$W/renders.log")
valid_pdf=0 valid_svg=0 invalid=()
for f in "$W"/snap/*.pdf; do
  [ -e "$f" ] || continue
  if pdfinfo "$f" > /dev/null 2>&1 &&
     gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=nullpage "$f" > /dev/null 2>&1; then
    valid_pdf=$((valid_pdf + 1)); else invalid+=("$f"); fi
done
for f in "$W"/snap/*.svg; do
  [ -e "$f" ] || continue
  if rsvg-convert -f png "$f" > /dev/null 2>&1; then
    valid_svg=$((valid_svg + 1)); else invalid+=("$f"); fi
done
[ ${#invalid[@]} = 0 ] || bad=1
# A fault is survived when its watcher(s) drew again after it (so it was
# still running and recovered).  How each watcher ended is checked apart.
survived=0 lost=()
while read -r at which what; do
  ok=1
  for k in pdf svg; do
    [ "$which" = both ] || [ "$which" = $k ] || continue
    awk -v t="$at" -v k=" $k " 'index($0, k) && $1 > t {f=1} END {exit !f}' "$W/renders.log" || ok=0
  done
  # the served watch (the service paused, late): a picture published since
  if [ "$which" = both ] || [ "$which" = served ]; then
    awk -v t="$at" '$1 > t {f=1} END {exit !f}' "$W/serve/redraws.log" || ok=0
  fi
  [ $ok = 1 ] && survived=$((survived + 1)) || lost+=("$what")
done < "$fault_log"
[ $survived = $faults ] || bad=1
said_once

# ---------------------------------------------------------------- table
echo
echo "## make soak: ${SOAK_SECONDS} s requested, ${elapsed} s in all ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores)"
echo
echo "| figure | value |"
echo "|---|---|"
echo "| program | longrun (ghc $(ghc --numeric-version), -threaded, +RTS -hT -l-sgp -i0.1 ${FLUSH:-(no flush flag)}) |"
echo "| input fed | .hp $hp_size bytes, eventlog $ev_size bytes; copies equal the program's files: $fed_ok |"
echo "| renders (PDF from .hp, SVG from eventlog; --interval=$INTERVAL) | $renders_pdf, $renders_svg |"
echo "| faults injected / survived | $faults / $survived${lost[0]+ (lost: ${lost[*]})} |"
echo "| faults said once (each message exactly once per fault of its kind; a pause has none) | $said_ok of $faults${unsaid[0]+ (${unsaid[*]})} |"
while read -r at which what; do echo "| - fault | $what |"; done < "$fault_log"
[ -s "$W/skipped.log" ] && while read -r l; do echo "| - $l | |"; done < "$W/skipped.log"
echo "| snapshots valid (pdfinfo+gs / rsvg-convert) | PDF $valid_pdf of $renders_pdf, SVG $valid_svg of $renders_svg${invalid[0]+ (invalid: ${#invalid[@]})} |"
# RSS at each tenth of the run, and the peak (VmHWM), in MiB ("-": the
# watcher had exited).  rss.log: ms, then RSS and HWM of each watcher, KiB.
awk -v s="$start_ms" -v d="$SOAK_SECONDS" '
  function mib(k) { return k == "-" ? "-" : sprintf("%.1f", k / 1024) }
  { t = ($1 - s) / 1000; tenth = int(t * 10 / d); if (tenth > 10) tenth = 10
    if (!(tenth in seen)) { seen[tenth] = 1
      row = row sprintf(" %ds: %s/%s/%s", t, mib($2), mib($4), mib($6)) }
    if ($3 != "-" && $3 + 0 > h1) h1 = $3 + 0
    if ($5 != "-" && $5 + 0 > h2) h2 = $5 + 0
    if ($7 != "-" && $7 + 0 > h3) h3 = $7 + 0 }
  END { printf "| RSS over time, MiB (PDF watcher/SVG watcher/served watch) |%s |\n", row
        printf "| peak RSS (VmHWM), MiB | PDF watcher %.1f, SVG watcher %.1f, served watch %.1f |\n", h1 / 1024, h2 / 1024, h3 / 1024 }' \
  "$W/rss.log"
while read -r sig delay ms rc left; do
  case $delay in
    end) what="main watcher at the end" ;;
    served) what="served watch at the end" ;;
    gone) echo "| main watcher had ended before SIG$sig (by itself: a complete eventlog, or a failure) | exit $rc, temp files left $left |"
          { [ "$rc" = 0 ] && [ "$left" = 0 ]; } || bad=1; continue ;;
    *) what="--interval=60 watcher, ${delay} s after start" ;;
  esac
  echo "| signal latency SIG$sig, $what | $ms ms, exit $rc, temp files left $left |"
  { [ "$rc" = 0 ] && [ "$left" = 0 ]; } || bad=1
done < "$W/latency.log"
lat=$(awk '$3 != "-" {print $3}' "$W/latency.log" | sort -n | awk '{a[NR]=$1} END {if (NR) printf "min %d ms, median %d ms, max %d ms over %d", a[1], a[int((NR+1)/2)], a[NR], NR}')
echo "| signal latency summary | $lat |"
echo "| final output = one-shot (byte for byte) | PDF $same_pdf, SVG $same_svg |"
echo "| watcher messages (stderr lines) | PDF $(wc -l < "$W/pdf.err"), SVG $(wc -l < "$W/svg.err"), served $(wc -l < "$W/serve.err") |"
serve_table
criteria
echo
if [ $bad = 0 ]; then echo "soak: all checks passed"; else
  echo "soak: FAILED (see above)"
  for f in pdf.err svg.err serve.err serve/clients.out; do echo "--- $f"; tail -n 5 "$W/$f"; done
fi
[ $bad = 0 ]
