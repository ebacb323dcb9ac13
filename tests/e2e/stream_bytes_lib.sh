# stream_bytes_lib.sh -- the inputs, chunkings and transports of
# test_stream_bytes.sh and test_stream_bytes_file.sh (sourced after lib.sh):
# transports HOW... runs each format's watch of each input by those
# transports and compares it with the one-shot render.
HP=$TOP/samples/profiles/leak.hc.hp
EV=$TOP/tests/data/live/ghc9.10.3-longrun.from-start.eventlog
SMALL_HP=$TOP/samples/profiles/markers.hc.hp
SMALL_EV=$TOP/tests/data/malformed/small-valid-hc.eventlog
GROW="python3 $TOP/tests/tools/grow.py"
SERVE="python3 $TOP/tests/tools/serve_stream.py"
cd "$T"

formats=(ps eps pdf svg png csv hp)
# Chunk sizes "MIN MAX DELAY"; small chunks are slow enough unpaused.
chunkings=("1 1 0" "65536 65536 0.01" "1 9000 0.003" "4096 4096 0.003"
           "13 13 0" "1 700 0.001" "512 512 0.001")

# once SRC FMT: the one-shot render of SRC, made once per input and format.
once() {
  local out=once.$(basename "$1").$2
  [ -e "$out" ] || "$HP2X" -q "$1" -o "$out"
  echo "$out"
}

# watch_file SRC KIND FMT CHUNKING SEED: grows live.KIND while watching it.
watch_file() {
  local min max delay; read -r min max delay <<< "$4"
  rm -f "live.$2" "out.$3"; : > "live.$2"
  $GROW "$1" "live.$2" --seed "$5" --min "$min" --max "$max" --delay "$delay" &
  local g=$!
  # --idle-exit counts from the watch's start: on a crowded machine the
  # grower's interpreter can take over a second to write its first byte,
  # so the watch starts once the file has begun to grow.
  while [ ! -s "live.$2" ] && kill -0 $g 2> /dev/null; do sleep 0.01; done
  "$HP2X" --watch --interval=0.02 --idle-exit=1 -q "live.$2" -o "out.$3"
  local rc=$?
  wait $g
  return $rc
}
# watch_pipe SRC KIND FMT CHUNKING SEED: the same bytes through a pipe.
watch_pipe() {
  local min max delay; read -r min max delay <<< "$4"
  rm -f "out.$3"
  $GROW "$1" /dev/stdout --seed "$5" --min "$min" --max "$max" --delay "$delay" |
    "$HP2X" --watch --interval=0.02 -q "--from-$2" - -o "out.$3"
}
# watch_socket SRC KIND FMT CHUNKING SEED: served on a Unix socket.
watch_socket() {
  local min max delay; read -r min max delay <<< "$4"
  rm -f "out.$3"
  $SERVE "unix:$T/app.sock" "$1" --seed "$5" --min "$min" --max "$max" \
    --delay "$delay" & local s=$!
  "$HP2X" --watch --interval=0.02 -q "unix:$T/app.sock" -o "out.$3"; local rc=$?
  wait $s
  return $rc
}

# Each transport gives each format another chunking (format i, transport
# t, input k: chunking (i + 2 t + 3 k) mod 7), so each one meets all seven.
# transports HOW...: the runs of those transports (file, pipe, socket),
# each with the chunking and seed it has when all three run.
transports() {
  local run=0 k=0 input kind big small t how i f c src rc
  for input in "hp $HP $SMALL_HP" "eventlog $EV $SMALL_EV"; do
    read -r kind big small <<< "$input"
    t=0
    for how in file pipe socket; do
      [ "$kind.$how" = hp.socket ] && continue # a service serves eventlogs
      for i in "${!formats[@]}"; do
        f=${formats[$i]}
        c=${chunkings[$(( (i + 2 * t + 3 * k) % ${#chunkings[@]} ))]}
        src=$big; [ "$c" = "1 1 0" ] && src=$small
        run=$((run + 1))
        case " $* " in *" $how "*) ;; *) continue ;; esac
        "watch_$how" "$src" "$kind" "$f" "$c" "$run"; rc=$?
        [ $rc -eq 0 ] && ok || fail "$kind by $how, $f, chunks '$c': exit $rc"
        cmp -s "out.$f" "$(once "$src" "$f")" && ok ||
          fail "$kind by $how, $f, chunks '$c': final picture differs from the one-shot render"
      done
      t=$((t + 1))
    done
    k=$((k + 1))
  done
}
