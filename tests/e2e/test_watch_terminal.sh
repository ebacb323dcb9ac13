#!/usr/bin/env bash
# Watch mode with stderr on a terminal (a real pseudo-terminal from
# script(1)): the status line is drawn over itself through
# util/messages.c and ends, when the input ends, with "- done" and a
# newline; its numbers are those of the run (samples = the CSV's rows,
# bytes read = the input's size, output bytes = the CSV's size).  The
# final status line once read the finished profile from the parser, which
# holds none by then, and crashed.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
if ! command -v script > /dev/null; then
  echo "SKIPPED: no script(1) (util-linux's bsdutils) to make a terminal"
  exit 0
fi
# A build chroot may have no pseudo-terminals (no /dev/pts mounted).
if ! script -qec true /dev/null > /dev/null 2>&1; then
  echo "SKIPPED: script(1) cannot make a pseudo-terminal here"
  exit 0
fi
P=$TOP/samples/profiles
for in in leak.hc.hp manycc.hc.eventlog; do
  rm -f out.csv
  script -qec "'$HP2X' --watch --interval=0.05 - -o out.csv < '$P/$in'" \
    /dev/null > tty.txt 2>&1
  rc=$?
  [ $rc -eq 0 ] && ok || fail "$in: exit $rc on a terminal: $(tail -c 300 tty.txt)"
  [ -s out.csv ] && ok || fail "$in: no output"
  samples=$(( $(wc -l < out.csv) - 1 ))
  want=$(printf '^\r\033\\[Khp2x: <stdin>: %d samples, %d bytes read, [1-9][0-9]* renders, output %d bytes - done\r$' \
           "$samples" "$(wc -c < "$P/$in")" "$(wc -c < out.csv)")
  # The last status line, as the terminal got it (its \n made \r\n).
  python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); i = d.rfind(b"\r\x1b[K"); sys.stdout.buffer.write(d[i:])' tty.txt > last.txt
  [ "$(wc -l < last.txt)" -eq 1 ] && grep -qaE "$want" last.txt && ok ||
    fail "$in: last status line $(cat -v last.txt), wanted /$(printf '%s' "$want" | cat -v)/"
done
finish
