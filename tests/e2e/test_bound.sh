#!/usr/bin/env bash
# test_bound.sh -- a picture of a long profile is drawn from a profile
# bounded by the picture (profile_bound.c): on a profile long enough to be
# thinned (36 000 samples: an A4 graph thins from 21 604), the picture's
# text -- title and area figure, axis labels, key -- equals that of the
# picture drawn from every sample (--all-samples), for the default
# selection, -d, -m, -t and -c; the final picture of a watched pipe equals
# the one-shot picture byte for byte in every format, for .hp and eventlog
# input (a growing file's: test_bound_grow.sh); a stream three times as long takes
# hardly more memory; --last SECONDS draws the window --from its documented
# start would; outputs that list every sample (CSV) still list every one.
# Nothing here waits on a clock (a pipe is read to its end, memory is
# the process's own), so
# run-tests.sh: with others
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1

. "$TOP/tests/e2e/bound_lib.sh"

# 1. The picture's text: drawn from the bounded profile and from every
# sample.
for opts in "" "-d" "-m4" "-t5" "-c" "-d -m3 -t0"; do
  # shellcheck disable=SC2086
  "$HP2X" -q $opts long.hp -o bounded.pdf &&
    "$HP2X" -q $opts --all-samples long.hp -o every.pdf ||
    { fail "render '$opts'"; continue; }
  pdftotext -layout bounded.pdf bounded.txt && pdftotext -layout every.pdf every.txt
  if [ -s bounded.txt ] && cmp -s bounded.txt every.txt; then ok; else
    fail "options '$opts': the bounded picture's text differs from every sample's"
    diff bounded.txt every.txt | head -5
  fi
done
# --all-samples still holds and draws every sample (it is not bounded): its
# picture is the larger (the bound itself is checked by memory in part 3)
"$HP2X" -q long.hp -o bounded.ps && "$HP2X" -q long.hp --all-samples -o every.ps
b=$(wc -c < bounded.ps) e=$(wc -c < every.ps)
[ "$b" -lt "$e" ] && ok || fail "bounded PS ($b bytes) not smaller than every sample's ($e)"

# 2. A watched pipe's final picture is the one-shot picture, every format.
for in in long.hp long.eventlog; do
  for fmt in ps eps pdf svg png; do
    "$HP2X" -q "$in" -o "one.$fmt" || { fail "$in one-shot $fmt"; continue; }
    # a pipe, read as it comes
    python3 - "$in" <<'EOF' | "$HP2X" -q --watch - -o "pipe.$fmt"
import random, sys, time
data = open(sys.argv[1], "rb").read()
r, pos, out = random.Random(3), 0, sys.stdout.buffer
while pos < len(data):
    n = r.choice([1, 17, 4096, 65536, 300000])
    out.write(data[pos:pos + n]); out.flush(); pos += n
EOF
    # stdin's picture is named after the job; the file's too: same bytes
    if cmp -s "one.$fmt" "pipe.$fmt"; then ok; else
      # cairo numbers SVG surfaces per process: compare without those ids
      if [ "$fmt" = svg ] &&
         cmp -s <(sed 's/surface[0-9]*/surfaceN/g' one.svg) \
                <(sed 's/surface[0-9]*/surfaceN/g' pipe.svg); then ok; else
        fail "$in: --watch - final $fmt differs from the one-shot"; fi
    fi
  done
done

# 3. Memory: a stream three times as long takes hardly more (plain build:
# the sanitizers' own memory would hide it).
case "${BUILD:-}" in
*asan*) echo "SKIPPED: peak memory under the sanitizers" ;;
*)
  peak() { # SAMPLES: peak RSS (KiB) of hp2x --watch - on a 60-band stream
    python3 - "$HP2X" "$1" <<'EOF'
import resource, subprocess, sys
hp2x, n = sys.argv[1], int(sys.argv[2])
p = subprocess.Popen([hp2x, "-q", "--watch", "-", "-o", "stream.pdf"],
                     stdin=subprocess.PIPE)
out = p.stdin
out.write(b'JOB "long"\nDATE "Wed Nov 25 2026"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
names = [b"cost_centre_%02d" % k for k in range(60)]
for s in range(n):
    t = b"%.2f" % (0.01 * s)
    lines = [b"BEGIN_SAMPLE " + t]
    for k, name in enumerate(names):
        lines.append(name + b"\t%d" % (8 * (1000 + (s * (k + 3)) % 977)))
    lines.append(b"END_SAMPLE " + t + b"\n")
    out.write(b"\n".join(lines))
out.close()
p.wait()
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
  }
  # 40000 samples are thinned already (from 21604), 120000 many times;
  # held every sample, the longer would take three times the memory
  short=$(peak 40000) long=$(peak 120000)
  echo "peak RSS: 40000 samples $short KiB, 120000 samples $long KiB"
  if [ "$long" -lt $((short + short * 3 / 10)) ]; then ok; else
    fail "120000 samples took $long KiB, 40000 took $short KiB: memory grows with the run"
  fi
  ;;
esac

# 4. --last SECONDS: the picture of the window whose start is the slot
# boundary (SECONDS / 256 from time 0) the man page names equals --from
# that start: samples, bands chosen over them, area; watched, the same.
last_from() { # SECONDS FILE: where --last's window starts
  python3 - "$1" "$2" <<'EOF'
import math, sys
S, t = float(sys.argv[1]), 0.0
for line in open(sys.argv[2]):
    if line.startswith("BEGIN_SAMPLE"):
        t = float(line.split()[1])
slot = S / 256
print(repr((math.floor(t / slot) - 255) * slot))
EOF
}
for S in 50 123.4; do
  W=$(last_from "$S" long.hp)
  for opts in "" "-d" "-m3" "-c"; do
    # shellcheck disable=SC2086
    "$HP2X" -q $opts --last="$S" long.hp -o last.pdf &&
      "$HP2X" -q $opts --from="$W" long.hp -o from.pdf ||
      { fail "--last=$S '$opts'"; continue; }
    pdftotext -layout last.pdf last.txt && pdftotext -layout from.pdf from.txt
    if [ -s last.txt ] && cmp -s last.txt from.txt; then ok; else
      fail "--last=$S '$opts': not the picture of --from=$W"
      diff last.txt from.txt | head -5
    fi
  done
done
"$HP2X" -q --last=50 long.hp -o last.pdf
"$HP2X" -q --last=50 --watch - -o last-watch.pdf < long.hp
cmp -s last.pdf last-watch.pdf && ok || fail "--last --watch: final PDF differs from one-shot"
# --last with another window, and --last=0, are usage errors: cases of
# tests/cli/cases.test.

# 5. Outputs that list every sample list every one.
rows=$("$HP2X" -q long.hp -o - --format=csv | wc -l)
[ "$rows" -eq 36001 ] && ok || fail "CSV of the long profile: $rows rows, wanted 36001"

finish
