#!/usr/bin/env bash
# run-tests.sh BUILD -- runs every unit test binary in BUILD/tests/STAGE
# (tests/unit/STAGE/test_FILE.c, built by the Makefile) and every
# end-to-end script tests/e2e/test_*.sh against BUILD/hp2x; prints one
# summary line "N passed, N failed" and exits non-zero on any failure.
# Each test program has TEST_TIMEOUT seconds (600 unless set): one that
# runs longer is stopped and fails, so a hang costs one test, not the
# run.  Each program's time goes to BUILD/test-times.txt ("SECONDS NAME",
# slowest first); the summary names the slowest.
# TEST_JOBS programs run at once (2 unless set; 1: one after another),
# the slowest first (by the last run's test-times.txt).  The scripts that
# wait on a clock, a server, a browser or another process (a script that
# says --watch, --serve, sleep or node, or starts chromium or
# tests/browser) run one at a time, in a lane of their own from the
# start, so that two of them never share the cores; the others take the
# remaining TEST_JOBS - 1 places until that lane is done, then all
# TEST_JOBS (a waiting script has at most one program beside it, and
# mostly waits while the other computes: on 2 cores the run takes about
# the longer of the two lanes, not their sum).  A script whose waits are
# only generous limits (a process that must end within a minute) may say
# "# run-tests.sh: with others", and why.  The scripts that work in BUILD
# itself (a line "# run-tests.sh: alone" says so) run last, with nothing
# beside them.
# E2E="seams install" runs only those end-to-end scripts (test_seams.sh,
# test_install.sh; "shared": the command-line and format tests with
# BUILD/hp2x-shared, the tool linked against libhp2x.so, which otherwise
# run after the others); every unit test runs regardless.  E2E_SKIP="report
# pprof" leaves those out (make check-package's PACKAGE_SKIP, .ci/run's
# PORTABLE=1 pass), and says so.
set -u
build=${1:?usage: run-tests.sh BUILD}
top=$(cd "$(dirname "$0")/.." && pwd)
export HP2X="$top/$build/hp2x" TOP="$top" BUILD="$top/$build"
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
# A sanitizer's report exits 86, never 1 (hp2x's "bad input"): a test that
# expects a rejection cannot pass over one.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=86"
export LC_ALL=C.UTF-8
export HP2X_FONTS_CONF="$top/fonts/fonts.conf"
passed=0 failed=0 failures=() skipped=()
limit=${TEST_TIMEOUT:-600}
times="$top/$build/test-times.txt"
: > "$times.tmp"
# timed NAME CMD...: runs CMD under the time limit, records its time.
timed() {
  local name=$1 t0=$EPOCHREALTIME status
  shift
  timeout -k 10 "$limit" "$@"
  status=$?
  [ "$status" -eq 124 ] || [ "$status" -eq 137 ] &&
    echo "run-tests.sh: $name stopped after $limit s (TEST_TIMEOUT)"
  awk -v a="$t0" -v b="$EPOCHREALTIME" -v n="$name" \
    'BEGIN { printf "%.1f %s\n", b - a, n }' >> "$times.tmp"
  return "$status"
}
# ran[SUITE]: the programs run in each suite (unit, e2e, shared).
declare -A ran=([unit]=0 [e2e]=0 [shared]=0)
par=${TEST_JOBS:-2}
case $par in '' | *[!0-9]* | 0) par=1 ;; esac
# The last run's time of each program (NAME -> seconds), to start the
# slowest first.
declare -A last=()
if [ -f "$times" ]; then
  while read -r s n; do last[$n]=$s; done < "$times"
fi
# queue SUITE NAME LOG WHAT CMD...: a program to run (WHAT: how a failure
# is named); pool holds those run TEST_JOBS at once, waiting those run in
# their own lane beside the pool, alone those run last with nothing beside.
pool=() waiting=() alone=() order=()
declare -A cmd=() logof=() what=() suite=()
queue() {
  local s=$1 n=$2
  suite[$n]=$s logof[$n]=$3 what[$n]=$4
  shift 4
  cmd[$n]=$(printf '%q ' "$@")
  order+=("$n")
  ran[$s]=$((ran[$s] + 1))
}
runs_alone() { # SCRIPT
  grep -q '^# run-tests.sh: alone' "$1"
}
waits() { # SCRIPT
  ! grep -q '^# run-tests.sh: with others' "$1" &&
    grep -qE -- '--watch|--serve|sleep |tests/browser|\$B/|node |chromium --' "$1"
}
# Unit tests: each tests/unit/STAGE/test_FILE.c runs as
# BUILD/tests/STAGE/test_FILE; one not built is a failure, not a skip.
for src in "$top"/tests/unit/*/test_*.c "$top"/tests/unit/tool/*/test_*.c; do
  [ -f "$src" ] || continue
  name=${src#"$top/tests/unit/"}; name=${name%.c}
  t="$top/$build/tests/$name"
  if [ ! -x "$t" ]; then
    ran[unit]=$((ran[unit] + 1))
    failed=$((failed + 1)); failures+=("unit/$name (not built: $build/tests/$name)")
    continue
  fi
  queue unit "unit/$name" "$t.log" "unit/$name" "$t"
  pool+=("unit/$name")
done
mkdir -p "$top/$build/e2e"
# A name in E2E or E2E_SKIP with no tests/e2e/test_NAME.sh is a failure:
# a renamed test must not leave a pass that lists it without a word.
for name in ${E2E:-} ${E2E_SKIP:-}; do
  [ -f "$top/tests/e2e/test_$name.sh" ] && continue
  failed=$((failed + 1)); failures+=("e2e/test_$name (named, but no tests/e2e/test_$name.sh)")
done
for t in "$top"/tests/e2e/test_*.sh; do
  [ -f "$t" ] || continue
  name=$(basename "$t" .sh)
  if [ -n "${E2E:-}" ]; then
    case " $E2E " in *" ${name#test_} "*) ;; *) continue ;; esac
  fi
  case " ${E2E_SKIP:-} " in *" ${name#test_} "*) skipped+=("${name#test_}"); continue ;; esac
  queue e2e "e2e/$name" "$top/$build/e2e/$name.log" "e2e/$name" bash "$t"
  if runs_alone "$t"; then alone+=("e2e/$name")
  elif waits "$t"; then waiting+=("e2e/$name")
  else pool+=("e2e/$name"); fi
done
# The tool linked against libhp2x.so (BUILD/hp2x-shared, which uses only
# hp2x.h's API) passes the command-line and format tests too.
shared_tool="$top/$build/hp2x-shared"
for name in test_cli_usage test_cli_cases test_formats; do
  if [ -n "${E2E:-}" ]; then
    case " $E2E " in *" shared "*) ;; *) continue ;; esac
  fi
  log="$top/$build/e2e/$name-shared.log"
  if [ -x "$shared_tool" ] && ldd "$shared_tool" 2>/dev/null | grep -q 'libhp2x\.so'; then
    queue shared "shared/$name" "$log" "e2e/$name (hp2x-shared)" \
      env HP2X="$shared_tool" bash "$top/tests/e2e/$name.sh"
    pool+=("shared/$name")
  else
    ran[shared]=$((ran[shared] + 1))
    failed=$((failed + 1)); failures+=("e2e/$name (hp2x-shared)")
    [ -x "$shared_tool" ] || echo "no $shared_tool" > "$log"
    tail -n 30 "$log"
  fi
done
# show_failed LOG: a failed program's output: all of it when short, else
# the first 20 FAIL lines before its last 30 lines (where a script says
# what failed first), then those 30.
show_failed() {
  if [ "$(wc -l < "$1")" -le 60 ]; then cat "$1"; return; fi
  head -n -30 "$1" | grep -m 20 'FAIL'
  echo "  [...]"
  tail -n 30 "$1"
}
# start NAME: runs it in the background, its status in LOG.status.
start() {
  rm -f "${logof[$1]}.status"
  ( eval "timed \"\$1\" ${cmd[$1]}" > "${logof[$1]}" 2>&1
    echo $? > "${logof[$1]}.status" ) &
}
# slowest NAME...: the names, slowest first (unknown ones first of all).
slowest() {
  for n in "$@"; do echo "${last[$n]:-9999} $n"; done | sort -k1,1rn -s | cut -d' ' -f2-
}
mapfile -t pool < <(slowest "${pool[@]+"${pool[@]}"}")
mapfile -t waiting < <(slowest "${waiting[@]+"${waiting[@]}"}")
# The waiting lane, one job: its scripts one after another.
if [ "${#waiting[@]}" -gt 0 ]; then
  ( for n in "${waiting[@]}"; do start "$n"; wait; done ) &
fi
# The pool beside it, TEST_JOBS at once counting the lane while it runs.
for n in "${pool[@]+"${pool[@]}"}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n; done
  start "$n"
done
wait
for n in "${alone[@]+"${alone[@]}"}"; do
  start "$n"; wait
done
for n in "${order[@]+"${order[@]}"}"; do
  if [ "$(cat "${logof[$n]}.status" 2> /dev/null)" = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); failures+=("${what[$n]}")
    echo "== ${what[$n]}:"
    show_failed "${logof[$n]}"
  fi
  rm -f "${logof[$n]}.status"
done
sort -rn "$times.tmp" > "$times" && rm -f "$times.tmp"
echo "[$build] test programs ($(awk '{ s += $1 } END { printf "%.0f", s }' "$times") s; slowest:" \
  "$(head -4 "$times" | awk '{ printf "%s%s %s s", (NR > 1 ? ", " : ""), $2, $1 }')):"
for f in "${failures[@]+"${failures[@]}"}"; do echo "  FAILED: $f"; done
[ "${#skipped[@]}" -eq 0 ] || echo "  not run (E2E_SKIP): ${skipped[*]}"
echo "tests: $passed passed, $failed failed" \
  "(unit ${ran[unit]}, e2e ${ran[e2e]}, e2e with hp2x-shared ${ran[shared]})"
[ "$failed" -eq 0 ]
