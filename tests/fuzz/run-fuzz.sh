#!/usr/bin/env bash
# run-fuzz.sh DIR TARGET -- runs one libFuzzer target built in DIR (by
# mk/fuzz.mk) on its corpus and prints one summary line: executions, exec/s,
# wall time, coverage (cov: edges, ft: features) and the crashes it wrote.
# Env: FUZZ_RUNS (executions; wins over FUZZ_SECONDS), FUZZ_SECONDS,
# FUZZ_MAX_LEN, FUZZ_FLAGS (more libFuzzer flags).  Exit status: non-zero
# when the target found something.
#
# Corpus: DIR/corpus-TARGET (kept between runs; new inputs go there), read
# together with DIR/seeds/TARGET (tests/fuzz/seeds.py) and the inputs kept in
# tests/fuzz-regress/.  Findings: DIR/crashes/TARGET/{crash,leak,timeout,
# oom}-*; minimise with `DIR/fuzz_TARGET -minimize_crash=1 -runs=100000 FILE`
# and keep the result in tests/fuzz-regress/ (see mk/fuzz.mk).
set -u
dir=${1:?usage: run-fuzz.sh DIR TARGET} t=${2:?usage: run-fuzz.sh DIR TARGET}
top=$(cd "$(dirname "$0")/../.." && pwd)
case $t in
  hp_parse) regress=hp ;;
  eventlog_parse) regress=eventlog ;;
  *) regress=$t ;;
esac
corpus=$dir/corpus-$t crashes=$dir/crashes/$t log=$dir/$t.log
mkdir -p "$corpus" "$crashes"
if [ -n "${FUZZ_RUNS:-}" ]; then
  limit=(-runs="$FUZZ_RUNS" -max_total_time=0)
else
  limit=(-max_total_time="${FUZZ_SECONDS:-60}")
fi
extra=()
asan=detect_leaks=1
if [ "$t" = pipeline ] || [ "$t" = stream ]; then
  # Both draw.  cairo, pango and fontconfig grow process-lifetime caches (scaled fonts
  # per EPS width, glyphs, shaping plans) on most inputs, and libFuzzer scans
  # the whole heap after every input that freed less than it allocated: 6x
  # slower.  Leaks are still checked once, at exit (LSan, suppressions in
  # tests/lsan.supp), and per input by the two parser targets, make check
  # and make valgrind.  ASan's quarantine is cut from 256 to 16 MiB (freed
  # blocks stay poisoned for a while yet, enough for a use after free within
  # one render) and new blocks are not filled with garbage: 1.4x faster.
  extra=(-detect_leaks=0)
  asan=detect_leaks=1:quarantine_size_mb=16:max_malloc_fill_size=0
fi
before=$(ls "$crashes" | wc -l)
start=$(date +%s)
# shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
ASAN_OPTIONS=$asan:${ASAN_OPTIONS:-} \
LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
HP2X_FONTS_CONF=$top/fonts/fonts.conf \
  "$dir/fuzz_$t" "${limit[@]}" -max_len="${FUZZ_MAX_LEN:-65536}" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "${extra[@]}" ${FUZZ_FLAGS:-} \
    "$corpus" "$dir/seeds/$t" "$top/tests/fuzz-regress/$regress" \
    > "$log" 2>&1
rc=$?
wall=$(($(date +%s) - start))
found=$(($(ls "$crashes" | wc -l) - before))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
cov=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 |
      sed -E 's/.*(cov: [0-9]+ ft: [0-9]+).*/\1/')
printf 'fuzz_%-15s %10s execs %6s exec/s %6ss  %-22s crashes: %d%s\n' \
  "$t" "${execs:-?}" "${rate:-?}" "$wall" "${cov:-cov: ? ft: ?}" "$found" \
  "$([ "$rc" -ne 0 ] && echo "  (exit $rc; see $log)")"
if [ "$rc" -ne 0 ]; then
  grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 5 |
    sed 's/^/    /'
fi
[ "$rc" -eq 0 ] && [ "$found" -eq 0 ]
