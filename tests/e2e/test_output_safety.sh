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
# A full disk.
for fmt in ps pdf svg csv hp; do
  expect_status 1 "/dev/full as $fmt" -- "$HP2X" "$S" --format=$fmt -o /dev/full
  expect_stderr "/dev/full.*(No space|write)" "/dev/full $fmt message"
done
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
# A missing input.
expect_status 1 "missing input" -- "$HP2X" nonexistent.hp -o x.pdf
expect_stderr "nonexistent.hp: cannot open" "missing input message"
# Killed while writing: the previous output or none, never a partial file.
"$HP2X" "$S" -o killed.pdf && cp killed.pdf before.pdf
big=$TOP/samples/profiles/longrun.hT.hp
for i in 1 2 3 4 5; do
  "$HP2X" "$big" -o killed.pdf & pid=$!
  sleep 0.0$i; kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
  if cmp -s killed.pdf before.pdf || pdfinfo killed.pdf > /dev/null 2>&1; then ok
  else fail "kill -9 left a broken killed.pdf"; fi
done
# No temporary files left behind after those kills except by SIGKILL itself;
# SIGTERM cleans up.
rm -f .killed.pdf.*
"$HP2X" "$big" -o term.pdf & pid=$!
sleep 0.05; kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null
ls -A | grep -q '^\.term\.pdf\.' && fail "SIGTERM left a temporary file" || ok
finish
