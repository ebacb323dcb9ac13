#!/usr/bin/env bash
# The two programs (docs/internals/LAYOUT.md, "Two programs"): BUILD/hp2x
# writes text (CSV, .hp, the summary, pprof; --version, --help, usage
# errors) without loading cairo, pango, fontconfig, libmicrohttpd or
# gnutls -- LD_DEBUG=libs's list of the libraries started, and
# /proc/PID/maps of a run waiting on its pipe -- and a run that draws or
# serves, through the same hp2x, becomes BUILD/hp2x-full in the same
# process (same pid, same standard streams: it reads the pipe the lean one
# was given), with the bytes, messages and exit statuses hp2x-full gives
# itself.  The full program missing: a message naming where hp2x looked,
# exit 1.  A portable build (PORTABLE=1) is one program: hp2x draws.
# run-tests.sh: alone (a server, a run held on a pipe)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
full=$BUILD/hp2x-full
leak=$TOP/samples/profiles/leak.hc.hp
event=$TOP/samples/profiles/markers.hc.eventlog
heavy='lib(cairo|pango|fontconfig|microhttpd|gnutls|glib|harfbuzz)'
cd "$T" || exit 1
export SOURCE_DATE_EPOCH=1700000000

if [ ! -e "$full" ]; then
  # A portable build: one program, which draws.
  "$HP2X" "$leak" -o one.pdf && pdfinfo one.pdf > /dev/null 2>&1 && ok ||
    fail "the portable hp2x does not draw"
  echo "SKIPPED: the lean program's checks (one program: a portable build)"
  finish
  exit
fi

# ---- what the lean program runs itself loads none of the heavy libraries
# started: LD_DEBUG=libs (glibc's) lists each library as it starts it.
lean_run() { # what, args...
  local what=$1
  shift
  LD_DEBUG=libs "$HP2X" "$@" > "$CAP/out" 2> "$CAP/libs" && ok ||
    fail "$what: exit $?: $(grep -v '^ *[0-9]*:' "$CAP/libs" | head -2)"
  grep -q 'calling init: .*libc\.so' "$CAP/libs" && ok ||
    fail "$what: LD_DEBUG=libs listed nothing"
  if grep -E "calling init: .*$heavy" "$CAP/libs" > "$CAP/heavy"; then
    fail "$what loaded: $(sed 's/.*init: //' "$CAP/heavy" | head -3 | tr '\n' ' ')"
  else ok; fi
}
lean_run "CSV" "$leak" -o lean.csv
lean_run ".hp" "$event" -o lean.hp
lean_run "the summary" --summary "$leak"
lean_run "pprof" "$event" -o lean.pb.gz
lean_run "CSV of one census" --at=1 "$leak" -o at.csv
lean_run "two inputs as CSV" "$leak" "$leak" -o two.csv
lean_run "--version" --version
lean_run "--help" --help
# ... and gives the full program's bytes.
for f in lean.csv lean.hp lean.pb.gz at.csv two.csv; do
  case $f in
  lean.hp | lean.pb.gz) in=$event ;;
  two.csv) in="$leak $leak" ;;
  *) in=$leak ;;
  esac
  args=()
  [ "$f" = at.csv ] && args=(--at=1)
  # shellcheck disable=SC2086
  "$full" "${args[@]}" $in -o "full-$f" && cmp -s "$f" "full-$f" && ok ||
    fail "$f differs from hp2x-full's"
done
# A usage error is the lean program's, word for word the full one's.
expect_status 2 "usage error (lean)" -- "$HP2X" --format=nope "$leak"
cp "$CAP/err" lean.err
expect_status 2 "usage error (full)" -- "$full" --format=nope "$leak"
cmp -s lean.err "$CAP/err" && ok || fail "usage errors differ: $(cat lean.err)"

# ---- a run held on its pipe: the lean program's map has no cairo; one
# that draws is hp2x-full by then, in the same process, and reads the
# same pipe.
held_run() { # output, then what its map must (1) or must not (0) hold
  local out=$1 drawn=$2 fifo=$T/in.$1 pid i=0
  mkfifo "$fifo"
  "$HP2X" - -o "$out" < "$fifo" 2> "$CAP/held.err" &
  pid=$!
  exec 7> "$fifo" # the run now waits on its standard input
  head -c 200 "$leak" >&7
  while [ $i -lt 100 ]; do
    if [ "$drawn" = 1 ]; then
      grep -q libcairo "/proc/$pid/maps" 2> /dev/null && break
    else
      grep -q libz "/proc/$pid/maps" 2> /dev/null && break
    fi
    i=$((i + 1))
    sleep 0.05
  done
  cp "/proc/$pid/maps" "$CAP/maps" 2> /dev/null
  exe=$(readlink "/proc/$pid/exe")
  tail -c +201 "$leak" >&7
  exec 7>&-
  wait "$pid" && ok || fail "$out: exit $?: $(cat "$CAP/held.err")"
  rm -f "$fifo"
  if [ "$drawn" = 1 ]; then
    [ "$exe" = "$(readlink -f "$full")" ] && ok || fail "$out: the run is $exe, not hp2x-full"
    grep -q libcairo "$CAP/maps" && ok || fail "$out: hp2x-full's map has no cairo"
  else
    [ "$exe" = "$(readlink -f "$HP2X")" ] && ok || fail "$out: the run is $exe, not hp2x"
    grep -q libz "$CAP/maps" && ok || fail "$out: no map read"
    grep -Eq "$heavy" "$CAP/maps" && fail "$out: the lean run maps $(grep -Eo "$heavy" "$CAP/maps" | sort -u | tr '\n' ' ')" || ok
  fi
}
held_run held.csv 0
cmp -s held.csv lean.csv && ok || fail "held.csv differs from lean.csv"
held_run held.svg 1
"$full" - -o full-held.svg < "$leak" && cmp -s held.svg full-held.svg && ok ||
  fail "held.svg differs from hp2x-full's"

# ---- what draws, through hp2x, is hp2x-full's output, byte for byte.
for fmt in ps eps pdf svg png html; do
  set -- "$leak"
  [ "$fmt" = eps ] && set -- -e 6in "$leak"
  "$HP2X" "$@" --format="$fmt" -o "lean.$fmt" 2> "$CAP/err" && ok ||
    fail "$fmt through hp2x: $(cat "$CAP/err")"
  "$full" "$@" --format="$fmt" -o "full.$fmt" && cmp -s "lean.$fmt" "full.$fmt" && ok ||
    fail "$fmt through hp2x differs from hp2x-full's"
done
# Standard input and output go with it.
"$HP2X" --format=svg - -o - < "$leak" > stdout.svg && cmp -s stdout.svg full.svg && ok ||
  fail "standard input to standard output through hp2x differs"
# A bad input's message and status are hp2x-full's (it reads the input).
printf 'JOB "x"\nBEGIN_SAMPLE 1\nbad\n' > bad.hp
expect_status 1 "a bad input drawn (lean)" -- "$HP2X" bad.hp -o bad.pdf
cp "$CAP/err" lean.err
expect_status 1 "a bad input drawn (full)" -- "$full" bad.hp -o bad.pdf
cmp -s lean.err "$CAP/err" && ok || fail "bad input messages differ: $(cat lean.err)"

# ---- serving, through hp2x, is hp2x-full's server.
if command -v curl > /dev/null; then
  if serve_start serve.err -q "$leak" --serve=0; then
    ok
    [ "$(readlink "/proc/$SERVED_PID/exe")" = "$(readlink -f "$full")" ] && ok ||
      fail "the server is $(readlink "/proc/$SERVED_PID/exe")"
    serve_wait_census && ok || fail "/metrics counted no census"
    curl -s -m 5 "http://127.0.0.1:$PORT/" | grep -q '</html>' && ok ||
      fail "/ is no page"
  else
    fail "no serving line: $(cat serve.err)"
  fi
  serve_stop
else
  echo "SKIPPED: the server through hp2x (no curl)"
fi

# ---- hp2x-full missing: where hp2x looked, exit 1; text is still written.
mkdir alone && cp "$HP2X" alone/hp2x
libexec=$(strings "$HP2X" | grep -m1 '/hp2x$' || true)
installed=                      # an hp2x-full at the compile-time path
[ -n "$libexec" ] && [ -x "$libexec/hp2x-full" ] && installed=$libexec/hp2x-full
if [ -n "$installed" ]; then
  echo "SKIPPED: hp2x-full missing ($installed is installed here)"
else
  expect_status 1 "hp2x alone, drawing" -- alone/hp2x "$leak" -o alone.pdf
  expect_stderr "^hp2x: drawing a picture needs the full program, hp2x-full, which is not installed: not found as $T/alone/hp2x-full, $T/alone/.*/hp2x-full or /.*/hp2x-full\$" \
    "hp2x alone"
  [ ! -e alone.pdf ] && ok || fail "hp2x alone left alone.pdf"
  expect_status 1 "hp2x alone, serving" -- alone/hp2x "$leak" --serve=0
  expect_stderr "^hp2x: --serve needs the full program" "hp2x alone, --serve"
  expect_status 0 "hp2x alone, CSV" -- alone/hp2x "$leak" -o alone.csv
  cmp -s alone.csv lean.csv && ok || fail "hp2x alone writes another CSV"
fi
# An hp2x-full beside it that cannot be run: named, with why; one that is
# a copy of the lean program hands the run back, which stops (where it
# would exec itself for ever).
cp "$full" alone/hp2x-full && chmod -x alone/hp2x-full
if [ -n "$installed" ]; then
  echo "SKIPPED: hp2x-full not runnable ($installed is installed here)"
else
  expect_status 1 "hp2x-full not executable" -- alone/hp2x "$leak" -o alone.pdf
  expect_stderr "^hp2x: $T/alone/hp2x-full: cannot run it \\(drawing a picture needs the full program\\): Permission denied\$" \
    "hp2x-full not executable"
fi
rm -f alone/hp2x-full && cp "$HP2X" alone/hp2x-full
expect_status 1 "hp2x-full a copy of hp2x" -- timeout 20 alone/hp2x "$leak" -o alone.pdf
expect_stderr "^hp2x: drawing a picture needs the full program, hp2x-full, but the one found handed the run back" \
  "hp2x-full a copy of hp2x"
[ ! -e alone.pdf ] && ok || fail "a handed-back run left alone.pdf"
# Beside it, it is found (the build tree's way).
rm -f alone/hp2x-full && cp "$full" alone/hp2x-full
alone/hp2x "$leak" -o beside.pdf && cmp -s beside.pdf full.pdf && ok ||
  fail "hp2x did not run the hp2x-full beside it"
finish
