#!/usr/bin/env bash
# live-check.sh -- follows a real GHC program serving its eventlog, under GHC 9.6 and 9.10.
# Not part of `make check`: it needs the chroots of tests/live/modern-ghc.sh and root
# (see tests/live/README.md for the setup); without them it prints SKIPPED and exits 0.
#
#   tests/live/live-check.sh            (from the top of the repository)
#
# For each runtime it builds samples/programs/longrun.hs with tests/live/eventlog_serve.c
# (cached: rebuilt when a source changes), then runs two rounds of
#   longrun TICKS +RTS -hT -l -i0.05 --eventlog-flush-interval=0.2 -RTS
# - unix: the program waits for a first client (HP2X_EVENTLOG_WAIT=1), which receives the
#   stream from the start (stream0); a second client connects 2 s in and hangs up 2 s later
#   (stream1: its arrival restarts logging, which ends stream0); a third connects at 4.5 s
#   and reads until the program ends (stream2: a client that reconnects).
# - tcp: no client at the start; clients as stream1 and stream2 above, over TCP.
# - stall: the first client (unix, from the start) reads nothing for its first 8 s: the
#   program must drop it and go on (stream0 is what it read afterwards: what was buffered
#   for it); no second client; the third as above.
# Each stream is the exact bytes one client received.  tests/live/streamcheck.py then prints
# its facts and checks that every census in it equals one of the run's own .hp, in order.
#
# Environment:
#   HP2X_LIVE_OUT=DIR       where the streams go (default build/live)
#   HP2X_LIVE_TICKS=N       longrun's argument (default 200000: 7 s on an idle machine)
#   HP2X_LIVE_AT1=S HP2X_LIVE_FOR1=S HP2X_LIVE_AT2=S
#                           when the second client connects (2), how long it reads (2),
#                           when the third connects (4.5), in seconds, from when the program listens
#   HP2X_LIVE_TIMEOUT=S     end a run still going after S seconds (default 300)
#   HP2X_LIVE_ROUNDS="..."  the rounds to run (default "unix tcp stall")
#   HP2X_LIVE_CHROOTS="..." the chroots (default "/opt/hp2x-ghc96 /opt/hp2x-ghc910")
#   HP2X_MODERN_GHC=PATH    modern-ghc.sh (default tests/live/modern-ghc.sh)
#   HP2X_CMD='...'          a client command to run in place of the second and third clients
#                           of each round, e.g. 'build/hp2x --watch {addr} -o {out}.svg
#                           --tee={tee}': the second is ended by SIGTERM when that client
#                           would hang up, then the third connects (a client that connects
#                           twice) and reads until the program ends.  Placeholders: {addr}
#                           the round's operand (unix:PATH or tcp:127.0.0.1:PORT), {sock}
#                           the Unix socket's path, {tcp} HOST:PORT, {out} a path prefix in
#                           the round's directory (hp2x1 for the second client, hp2x for the
#                           third), {tee} a file checked as a stream afterwards if the
#                           command wrote it.  Then every census the command drew is
#                           checked against the run's .hp by tests/tools/census_match.py:
#                           those of its .hp output ({out}.hp) if it wrote one, else those
#                           of its tee as HP2X_CHECK (default build/hp2x) reads it; and an
#                           SVG, EPS or CSV output must be the tee's one-shot render.
#                           tests/live/serve-follow.sh is such a command: hp2x --serve with its
#                           live page open in chromium; its page's censuses are checked too.
#   HP2X_CHECK=PATH         the hp2x that reads the tees for that check
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
live="$top/tests/live"
out_root=${HP2X_LIVE_OUT:-$top/build/live}
ticks=${HP2X_LIVE_TICKS:-200000}
chroots=${HP2X_LIVE_CHROOTS:-/opt/hp2x-ghc96 /opt/hp2x-ghc910}
modern_ghc=${HP2X_MODERN_GHC:-$top/tests/live/modern-ghc.sh}
timeout=${HP2X_LIVE_TIMEOUT:-300}
at1=${HP2X_LIVE_AT1:-2}
for1=${HP2X_LIVE_FOR1:-2}
at2=${HP2X_LIVE_AT2:-4.5}
rts_flags=(+RTS -hT -l -i0.05 --eventlog-flush-interval=0.2 -RTS)
work=/work/hp2x-live                       # inside each chroot

skip() { echo "SKIPPED: $*"; exit 0; }
[ -x "$modern_ghc" ] || [ -f "$modern_ghc" ] || skip "no modern-ghc.sh at $modern_ghc"
[ "$(id -u)" = 0 ] || skip "modern-ghc.sh needs root (chroot)"
command -v python3 >/dev/null || skip "no python3"
present=()
for c in $chroots; do [ -x "$c/usr/bin/ghc" ] && present+=("$c"); done
[ ${#present[@]} -gt 0 ] || skip "no GHC chroot among: $chroots"

# Builds longrun with our writer in chroot $1, unless the sources are unchanged.
build() {
  local c=$1 dir="$1$work"
  mkdir -p "$dir"
  if [ -x "$dir/longrun" ] && cmp -s "$top/samples/programs/longrun.hs" "$dir/longrun.hs" \
     && cmp -s "$live/eventlog_serve.c" "$dir/eventlog_serve.c"; then
    return 0
  fi
  cp "$top/samples/programs/longrun.hs" "$live/eventlog_serve.c" "$dir/"
  rm -f "$dir/longrun"
  (cd "$dir" && bash "$modern_ghc" ghc "$c" -O -threaded -rtsopts -eventlog -no-hs-main \
     -optc-Wall -optc-Wextra -optc-Werror "$work/longrun.hs" "$work/eventlog_serve.c" \
     -o "$work/longrun") >"$dir/build.log" 2>&1 || { cat "$dir/build.log"; return 1; }
}

# Starts longrun in chroot $1 with environment $2..., stderr to $dir/serve.err.
start_program() {
  local c=$1; shift
  rm -f "$c$work/longrun.hp" "$c$work/ev.sock" "$c$work/serve.err"
  env "$@" bash "$modern_ghc" run "$c" sh -c \
    "cd $work && exec ./longrun $ticks ${rts_flags[*]}" \
    >"$c$work/program.out" 2>"$c$work/serve.err" &
  program_pid=$!
}

# Waits (up to 20 s) for the program's stderr $1 to announce "listening on $2".
await_listening() {
  local err=$1 what=$2 i
  for i in $(seq 400); do
    grep -q "listening on $what" "$err" 2>/dev/null && return 0
    sleep 0.05
  done
  echo "live-check: the program did not announce $what" >&2; return 1
}

# HP2X_CMD as a client: $1 address  $2 round directory  $3 socket path  $4 host:port
# $5 its name (hp2x1, hp2x)  $6 when it connects  $7 how long it reads (0: to the end).
hp2x_client() {
  local addr=$1 dir=$2 sock=$3 tcp=$4 name=$5 at=$6 for=$7 cmd=$HP2X_CMD
  cmd=${cmd//\{addr\}/$addr}; cmd=${cmd//\{sock\}/$sock}; cmd=${cmd//\{tcp\}/$tcp}
  cmd=${cmd//\{out\}/$dir/$name}; cmd=${cmd//\{tee\}/$dir/$name.tee.eventlog}
  local limit=120 sig=TERM
  [ "$for" = 0 ] || limit=$for
  (sleep "$at"; echo "+ $cmd"; cd "$top" && timeout --preserve-status -s $sig "$limit" bash -c "$cmd"
   echo "hp2x command exit $?") >"$dir/$name.log" 2>&1 &
}

# The second client of a round (not in the stall round): the recording client,
# or HP2X_CMD when given.  $1 address  $2 round directory  $3 socket path  $4 host:port
second_client() {
  if [ -n "${HP2X_CMD:-}" ]; then
    hp2x_client "$1" "$2" "$3" "$4" hp2x1 "$at1" "$for1"
  else
    python3 "$live/eventlog_client.py" "$1" "$2/stream1.eventlog" --after "$at1" \
      --for "$for1" &
  fi
}

# The third client of a round: the recording client, or HP2X_CMD when given.
# $1 address  $2 round directory  $3 socket path  $4 host:port
follow_client() {
  if [ -n "${HP2X_CMD:-}" ]; then
    hp2x_client "$1" "$2" "$3" "$4" hp2x "$at2" 0
  else
    python3 "$live/eventlog_client.py" "$1" "$2/stream2.eventlog" --after "$at2" &
  fi
}

# Checks what HP2X_CMD's clients of round directory $1 drew: every census equals one
# of the run's .hp, in order; a picture is its tee's one-shot render.  Prints a line per
# client: "NAME: N censuses drawn, each equal to one of the run's ...".
check_drawn() {
  local dir=$1 name ok=0 check=${HP2X_CHECK:-$top/build/hp2x}
  for name in hp2x1 hp2x; do
    local tee=$dir/$name.tee.eventlog got=$dir/$name.hp
    [ -f "$dir/$name.log" ] || continue
    if [ ! -f "$got" ]; then
      [ -s "$tee" ] || { echo "  $name: no .hp output and no tee"; ok=1; continue; }
      got=$dir/$name.tee.hp
      "$check" -q "$tee" -o "$got" || { echo "  $name: $check cannot read its tee"; ok=1; continue; }
    fi
    echo -n "  $name: "
    python3 "$top/tests/tools/census_match.py" "$dir/longrun.hp" "$got" || ok=1
    if [ -f "$dir/$name.page.hp" ]; then # what serve-follow.sh's live page showed
      echo -n "  $name's live page: "
      python3 "$top/tests/tools/census_match.py" "$dir/longrun.hp" "$dir/$name.page.hp" || ok=1
    fi
    local out ext
    for out in "$dir/$name".svg "$dir/$name".eps "$dir/$name".csv; do
      [ -f "$out" ] && [ -s "$tee" ] || continue
      ext=${out##*.}
      "$check" -q "$tee" -o "$dir/$name.once.$ext"
      if cmp -s <(grep -v -e '^%%Title' -e '<title>' "$out" | sed 's/surface[0-9]*/surface/g') \
                <(grep -v -e '^%%Title' -e '<title>' "$dir/$name.once.$ext" |
                  sed 's/surface[0-9]*/surface/g'); then
        echo "  $name.$ext: the tee's one-shot render"
      else
        echo "  $name.$ext: DIFFERS from the tee's one-shot render"; ok=1
      fi
    done
  done
  return $ok
}

# One round: $1 chroot, $2 unix|tcp|stall, $3 round directory.
round() {
  local c=$1 kind=$2 dir=$3 sock="$1$work/ev.sock" addr port=""
  rm -rf "$dir"; mkdir -p "$dir"
  local pids=()
  # Client times count from the moment the program listens.
  if [ "$kind" != tcp ]; then
    start_program "$c" HP2X_EVENTLOG_SOCKET=$work/ev.sock HP2X_EVENTLOG_WAIT=1
    await_listening "$c$work/serve.err" unix: || return 1
    addr=unix:$sock
    local stall=0
    [ "$kind" = stall ] && stall=8
    python3 "$live/eventlog_client.py" "$addr" "$dir/stream0.eventlog" --stall "$stall" &
    pids+=($!)
  else
    start_program "$c" HP2X_EVENTLOG_TCP=0
    await_listening "$c$work/serve.err" tcp: || return 1
    port=$(sed -n 's/.*listening on tcp:127\.0\.0\.1:\([0-9]*\).*/\1/p' "$c$work/serve.err")
    addr=tcp:127.0.0.1:$port
  fi
  if [ "$kind" != stall ]; then
    second_client "$addr" "$dir" "$sock" "${port:+127.0.0.1:$port}"
    pids+=($!)
  fi
  follow_client "$addr" "$dir" "$sock" "${port:+127.0.0.1:$port}"; pids+=($!)
  # GHC 9.6.6's runtime can hang in hs_exit (README.md): a run that outlives
  # HP2X_LIVE_TIMEOUT is ended (its longrun is the child of modern-ghc.sh, by id).
  local rc=0 tenths=0
  while kill -0 "$program_pid" 2>/dev/null; do
    if [ "$tenths" -ge $((timeout * 10)) ]; then
      echo "live-check: longrun still running after ${timeout} s: ended it" >&2
      local child; child=$(pgrep -P "$program_pid" || true)
      [ -z "$child" ] || kill $child
      break
    fi
    sleep 0.1; tenths=$((tenths + 1))
  done
  wait "$program_pid" || rc=$?
  wait "${pids[@]}" || true
  cp "$c$work/longrun.hp" "$c$work/serve.err" "$c$work/program.out" "$dir/"
  echo "program exit status $rc" >>"$dir/serve.err"
  [ "$rc" = 0 ] || { echo "live-check: longrun exited $rc" >&2; return 1; }
}

failed=0
for c in "${present[@]}"; do
  version=$(bash "$modern_ghc" run "$c" ghc --numeric-version)
  echo "== GHC $version ($c)"
  build "$c" || { failed=1; continue; }
  for kind in ${HP2X_LIVE_ROUNDS:-unix tcp stall}; do
    dir="$out_root/ghc-$version/$kind"
    round "$c" "$kind" "$dir" || { failed=1; continue; }
    cat "$dir"/*.log 2>/dev/null || true
    streams=()
    for f in "$dir"/stream*.eventlog "$dir"/hp2x*.tee.eventlog; do [ -f "$f" ] && streams+=("$f"); done
    [ ${#streams[@]} -gt 0 ] || { echo "live-check: no stream recorded in $dir" >&2; failed=1; continue; }
    python3 "$live/streamcheck.py" "$dir/longrun.hp" "${streams[@]}" || failed=1
    if [ -n "${HP2X_CMD:-}" ]; then
      echo "what HP2X_CMD drew:"
      check_drawn "$dir" || failed=1
    fi
  done
done
[ "$failed" = 0 ] && echo "live-check: all streams match their run's .hp" \
  || echo "live-check: FAILED"
exit "$failed"
