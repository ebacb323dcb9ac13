#!/usr/bin/env bash
# Outputs are all or nothing: a failed run creates no file and leaves an
# existing one untouched; write failures are reported with exit 1.
. "$(dirname "$0")/lib.sh"
S=$TOP/samples/profiles/leak.hc.hp
BAD=$TOP/tests/data/malformed/negative-value.hp
cd "$T"
for fmt in ps eps pdf svg csv hp; do
  expect_status 1 "bad input to .$fmt" -- "$HP2X" "$BAD" -o "out.$fmt"
  [ ! -e "out.$fmt" ] && ok || fail "bad input left out.$fmt"
done
[ -z "$(ls -A)" ] && ok || fail "bad input left files: $(ls -A)"
echo "keep me" > keep.pdf
expect_status 1 "bad input over an existing file" -- "$HP2X" "$BAD" -o keep.pdf
[ "$(cat keep.pdf)" = "keep me" ] && ok || fail "existing output was changed"
# hp2ps-compatible mode (no -o) on bad input: no BASE.ps, no BASE.aux.
cp "$BAD" bad.hp
expect_status 1 "bad input, hp2ps mode" -- "$HP2X" bad.hp
[ ! -e bad.ps ] && [ ! -e bad.aux ] && ok || fail "hp2ps mode left bad.ps/bad.aux"
rm -f bad.hp keep.pdf
# A full disk, written in place (a device).
for fmt in ps eps pdf svg png csv hp txt; do
  expect_status 1 "/dev/full as $fmt" -- "$HP2X" "$S" --format=$fmt -o /dev/full
  expect_stderr "/dev/full.*(No space|write)" "/dev/full $fmt message"
done
# A write failing on the way to a regular file (the file size limit: the
# temporary file cannot grow): exit 1, no output, no temporary file left.
# The limit applies to standard error too when it is a file: a pipe
# carries the message out.  Not under make valgrind: the limit would stop
# valgrind writing its own log.
fsize_fmts="ps eps pdf svg png csv hp txt"
[ -z "${HP2X_UNDER_VALGRIND:-}" ] || fsize_fmts=
for fmt in $fsize_fmts; do
  expect_status 1 "file size limit, $fmt" -- \
    bash -c "set -o pipefail; trap '' XFSZ
      (ulimit -f 0; exec \"$HP2X\" \"$S\" --format=$fmt -o small.$fmt) 2>&1 | cat >&2"
  expect_stderr "small.$fmt" "file size limit message names the file ($fmt)"
  [ -z "$(ls -A | grep small)" ] && ok || fail "file size limit left: $(ls -A | grep small)"
done
# hp2ps mode: BASE.ps fails, and no BASE.aux is left either.
if [ -n "$fsize_fmts" ]; then
  cp "$S" limited.hp
  expect_status 1 "file size limit, hp2ps mode" -- \
    bash -c "set -o pipefail; trap '' XFSZ
      (ulimit -f 0; exec \"$HP2X\" limited.hp) 2>&1 | cat >&2"
  [ -z "$(ls -A | grep -v '^limited.hp$' | grep limited)" ] && ok ||
    fail "hp2ps mode left: $(ls -A | grep limited)"
  rm -f limited.hp
fi
# Standard output to a full device.
expect_status 1 "stdout on /dev/full" -- sh -c "\"$HP2X\" \"$S\" -o - > /dev/full"
# A directory we cannot write (root ignores modes, so use a path under a file).
touch plainfile
expect_status 1 "output inside a non-directory" -- "$HP2X" "$S" -o plainfile/x.pdf
expect_stderr "plainfile/x.pdf" "non-directory message names the file"
mkdir ro && chmod 555 ro
if [ "$(id -u)" != 0 ]; then
  expect_status 1 "read-only directory" -- "$HP2X" "$S" -o ro/x.pdf
  [ -z "$(ls -A ro)" ] && ok || fail "read-only directory got files"
fi
# A missing input: a case of tests/cli/cases.test.
# Killed while writing: the previous output or none, never a partial file
# (or, if the run ended before the kill came, its whole picture).
# The process is stopped as soon as its temporary file exists (so it is
# caught mid-write, not before or after), then killed.
"$HP2X" "$S" -o killed.pdf && cp killed.pdf before.pdf
big=$TOP/samples/profiles/longrun.hT.hp
"$HP2X" "$big" -o whole.pdf
caught=0
for i in 1 2 3 4 5 6 7 8; do
  "$HP2X" "$big" -o killed.pdf & pid=$!
  while kill -0 $pid 2>/dev/null && ! compgen -G '.killed.pdf.*' > /dev/null; do :; done
  kill -STOP $pid 2>/dev/null && compgen -G '.killed.pdf.*' > /dev/null &&
    caught=$((caught + 1))
  kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; rc=$?
  if cmp -s killed.pdf before.pdf; then ok
  # on a crowded machine the run may end before the kill: then the whole
  # new picture, never a part of it
  elif [ $rc -eq 0 ] && cmp -s killed.pdf whole.pdf; then ok; cp before.pdf killed.pdf
  else fail "kill -9 changed killed.pdf (exit $rc)"; fi
  rm -f .killed.pdf.*
done
[ $caught -ge 1 ] && ok || fail "no kill landed while the output was being written"
# No temporary files left behind after those kills except by SIGKILL itself;
# SIGTERM cleans up.
rm -f .killed.pdf.*
"$HP2X" "$big" -o term.pdf & pid=$!
sleep 0.05; kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null
ls -A | grep -q '^\.term\.pdf\.' && fail "SIGTERM left a temporary file" || ok
# hp2ps mode: the .aux fails only when its last bytes are written out (its
# name leads to a full device) -- the picture, complete by then, is not
# renamed into place either: a set is finished whole before any rename.
mkdir auxfull && cp "$TOP/samples/profiles/leak.hc.hp" auxfull/ &&
  ln -s /dev/full auxfull/leak.hc.aux
(cd auxfull && "$HP2X" leak.hc 2> err.txt); rc=$?
[ $rc -eq 1 ] && ok || fail "full .aux: exit $rc"
grep -q "^hp2x: leak.hc.aux: write failed: No space left on device" auxfull/err.txt && ok ||
  fail "full .aux: $(head -1 auxfull/err.txt)"
[ "$(ls -A auxfull | paste -sd' ')" = "err.txt leak.hc.aux leak.hc.hp" ] && ok ||
  fail "full .aux left $(ls -A auxfull)"
# -o names a symbolic link: the file it names gets the output, the link
# stays; -o /dev/stdout redirected to a file writes into that file (at its
# offset: `>>` appends), not a file put in its place.  Our own link to
# /proc/self/fd/1 stands for /dev/stdout, which a regression run as root
# would replace.
mkdir links && echo old > links/real.csv && ln -s real.csv links/out.csv
"$HP2X" "$S" -o links/out.csv && ok || fail "output through a link"
[ -L links/out.csv ] && ok || fail "the link was replaced"
head -1 links/real.csv | grep -q '^time,' && ok || fail "link's file: $(head -1 links/real.csv)"
# A dangling link: a write that fails leaves no file where it leads.
ln -s made.csv links/dangling.csv
if [ -z "${HP2X_UNDER_VALGRIND:-}" ]; then
  expect_status 1 "file size limit through a dangling link" -- \
    bash -c "set -o pipefail; trap '' XFSZ
      (ulimit -f 1; exec \"$HP2X\" \"$S\" -o links/dangling.csv) 2>&1 | cat >&2"
  [ ! -e links/made.csv ] && [ -L links/dangling.csv ] && ok ||
    fail "failed write through a dangling link left: $(ls -A links)"
fi
"$HP2X" "$S" -o links/dangling.csv && [ -L links/dangling.csv ] &&
  head -1 links/made.csv | grep -q '^time,' && ok || fail "dangling link's file"
echo head > std.csv && ln -s /proc/self/fd/1 links/stdout
"$HP2X" "$S" --format=csv -o links/stdout >> std.csv && ok || fail "-o /dev/stdout >> file"
[ "$(sed -n '1p;2p' std.csv | cut -c1-5 | paste -sd' ')" = "head time," ] && ok ||
  fail "-o /dev/stdout >> file: $(head -2 std.csv)"
# /dev/fd/N of a descriptor the shell opened (3>> log): written through
# it, appended, as -o /dev/stdout >> log is.
echo head > fd3.csv
"$HP2X" "$S" --format=csv -o /dev/fd/3 3>> fd3.csv && ok || fail "-o /dev/fd/3 3>> file"
[ "$(sed -n '1p;2p' fd3.csv | cut -c1-5 | paste -sd' ')" = "head time," ] && ok ||
  fail "-o /dev/fd/3 3>> file: $(head -2 fd3.csv)"
# Watch mode with -o naming standard output's file: refused as -o - is
# (each update would add a whole output after the last), the file left
# as the shell made it.
: > watched.csv
expect_status 2 "--watch -o /dev/stdout > file" -- \
  sh -c "\"$HP2X\" \"$S\" --watch --idle-exit=0.1 --format=csv -o links/stdout > watched.csv"
expect_stderr "needs an output file.*links/stdout" "--watch -o /dev/stdout message"
[ ! -s watched.csv ] && ok || fail "--watch -o /dev/stdout wrote $(wc -c < watched.csv) bytes"
finish
