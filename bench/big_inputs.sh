# bench/big_inputs.sh -- sourced by bench/report.sh and bench/pprof.sh: the
# benchmark's two big inputs, made once and kept in build/bench.
#   big_inputs MEMGEN   sets ev, bench/mem.py's 80,000-census eventlog of
#                       300 labels (1.6 GB, memgen --eventlog 80000 300 23),
#                       and hp, run.py's 60,000 x 60 .hp (128 MB,
#                       bench/gen.py shape); dir is build/bench
big_inputs() {
  local memgen=$1
  dir=$top/build/bench
  mkdir -p "$dir"
  ev=$dir/mem-80000.eventlog
  if [ ! -s "$ev" ]; then
    echo "generating $ev (1.6 GB)" >&2
    "$memgen" --eventlog 80000 300 23 > "$ev.tmp" && mv "$ev.tmp" "$ev"
  fi
  hp=$dir/many-samples-60000x60.hp
  if [ ! -s "$hp" ]; then
    echo "generating $hp" >&2
    python3 "$top/bench/gen.py" shape "$top/samples/profiles/manycc.hc.hp" 60000 60 "$hp.tmp"
    mv "$hp.tmp" "$hp"
  fi
}
