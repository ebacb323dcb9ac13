#!/usr/bin/env bash
# Real GHC 9.6.6 and 9.10.3 runs through the binary, held against GHC's own
# .hp of the same run (labels without their (ccsID), the .hp's empty first
# and last samples left out, times ignored: different clocks), as
# test_eventlog_pairs.sh does for 9.0.2.  Always: the small copies in
# tests/data/ghc-modern (-hi and -hT of -finfo-table-map builds, whose IPE
# events declare a byte more than they hold; -hc, -hT, -he; the -hc run
# GHC 9.10.3 wrote corrupt, which loses one census with one warning).
# Where ../shared/corpus/ghc-modern exists, every pair there too; elsewhere
# that part says SKIPPED.
# Its one wait is a limit (the watch over a pipe ends within 30 s), not a
# clock, so
# run-tests.sh: with others
. "$(dirname "$0")/lib.sh"
M=$TOP/tests/data/ghc-modern
CMP="python3 $TOP/tests/tools/hpcompare.py --strip-ids --skip-empty --ignore-times"
cd "$T"

# check_pair EVENTLOG HP: the eventlog (.gz read) converted to .hp holds the
# censuses of HP; the -hc run of markers under 9.10.3 all but the one its
# corrupt event cut, with one warning, every other run with none.
corrupt_seen=0
check_pair() {
  local ev=$1 hp=$2 name
  name=$(basename "$(dirname "$ev")")/$(basename "$ev")
  case $ev in *.gz) gzip -dc "$ev" > in.eventlog; ev=in.eventlog;; esac
  case $hp in *.gz) gzip -dc "$hp" > in.hp; hp=in.hp;; esac
  "$HP2X" "$ev" --ccs-length=25 -o out.hp 2> err.txt ||
    { fail "$name: exit $?: $(head -1 err.txt)"; return; }
  case $name in
    ghc-9.10.3/markers.hc.eventlog)
      corrupt_seen=$((corrupt_seen + 1))
      [ "$(wc -l < err.txt)" -eq 1 ] &&
        grep -q ": byte 95146: warning: corrupt event (HEAP_PROF_SAMPLE_COST_CENTRE claims 20912 bytes; a 255-deep stack needs 1030); skipped bytes 95146-95200, losing the census at 2.472632 s; using the 35 complete samples$" err.txt &&
        ok || fail "$name: wanted one warning: $(cat err.txt)"
      $CMP --lost-one out.hp "$hp" > cmp.txt &&
        grep -qx "lost sample 22 (time 0.730067 in B)" cmp.txt && ok ||
        fail "$name: not its .hp but census 22: $(head -2 cmp.txt)";;
    *)
      [ ! -s err.txt ] && ok || fail "$name: said $(head -1 err.txt)"
      $CMP out.hp "$hp" > cmp.txt && ok || fail "$name: $(head -2 cmp.txt)";;
  esac
}

# 1. The copies in the repository: both runtimes, every layout we ship.
n=0
for ev in "$M"/*/*.eventlog "$M"/*/*.eventlog.gz; do
  base=${ev%.gz}; base=${base%.eventlog}
  hp=$base.hp; [ -f "$hp" ] || hp=$base.hp.gz
  [ -f "$hp" ] || { fail "$(basename "$ev"): no .hp beside it"; continue; }
  check_pair "$ev" "$hp"
  n=$((n + 1))
done
[ $n -ge 9 ] && [ $corrupt_seen -eq 1 ] && ok || fail "only $n pairs in tests/data/ghc-modern"
for v in 9.6.6 9.10.3; do
  ls "$M/ghc-$v"/*.ipehi.* > /dev/null 2>&1 && ok || fail "no -hi run of GHC $v"
done

# 2. -hi bands are named by the IPE events, location included.
"$HP2X" -q "$M/ghc-9.6.6/leak.ipehi.eventlog" -o hi.csv
head -1 hi.csv | grep -q "leak.hs:33:50-65" && ok || fail "9.6.6 -hi: no IPE name in $(head -1 hi.csv | cut -c1-200)"
"$HP2X" -q "$M/ghc-9.10.3/markers.ipehi.eventlog" --summary > hi.txt
grep -q "markers.hs:46:" hi.txt && ok || fail "9.10.3 -hi: no IPE name in the summary"

# 3. IPE sizes (a real event rewritten): declared as its content (GHC 9.2)
# reads the same; declared shorter than its content is an error at the
# event's byte offset.
python3 - "$M/ghc-9.6.6/leak.ipehi.eventlog" <<'EOF' > ipe.txt || fail "no IPE event found"
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
# The first IPE event: type 169, then timestamp, size, the info pointer and
# six NUL-terminated strings, one byte fewer than declared (GHC 9.6).
pos = data.index(b"datb") + 4
while True:
    pos = data.index(b"\x00\xa9", pos)
    size = struct.unpack(">H", data[pos + 10:pos + 12])[0]
    p, end = pos + 12 + 8, pos + 12 + size
    for _ in range(6):
        p = data.index(b"\0", p) + 1
    if p == end - 1:
        break
    pos += 1
exact = data[:]
exact[pos + 10:pos + 12] = struct.pack(">H", size - 1)
short = data[:]
short[pos + 10:pos + 12] = struct.pack(">H", size - 2)
open("exact.eventlog", "wb").write(exact)
open("short.eventlog", "wb").write(short)
print(pos)
EOF
at=$(cat ipe.txt)
"$HP2X" -q "$M/ghc-9.6.6/leak.ipehi.eventlog" -o real.csv
"$HP2X" -q exact.eventlog -o exact.csv && cmp -s real.csv exact.csv && ok ||
  fail "an IPE event declared as long as its content reads differently"
"$HP2X" short.eventlog -o short.csv 2> err.txt; rc=$?
[ $rc -eq 1 ] && [ ! -e short.csv ] &&
  grep -q "short.eventlog: byte $at: IPE event declares .* bytes, fewer than its info pointer and six strings" err.txt &&
  ok || fail "IPE shorter than its content: exit $rc: $(head -1 err.txt)"

# 4. The corrupt run followed by --watch, fed in uneven pieces through a
# pipe: it keeps going past the corrupt bytes and ends as the one-shot.
"$HP2X" -q "$M/ghc-9.10.3/markers.hc.eventlog" -o oneshot.csv
python3 "$TOP/tests/tools/grow.py" "$M/ghc-9.10.3/markers.hc.eventlog" /dev/stdout \
    --seed 7 --min 1 --max 3000 --delay 0 |
  timeout 30 "$HP2X" --watch --from-eventlog - -o piped.csv 2> err.txt; rc=$?
[ $rc -eq 0 ] && ok || fail "--watch over the corrupt run: exit $rc: $(head -1 err.txt)"
cmp -s piped.csv oneshot.csv && ok || fail "--watch over the corrupt run differs from one-shot"
[ "$(grep -c 'warning: corrupt event' err.txt)" -eq 1 ] && ok ||
  fail "--watch over the corrupt run: $(cat err.txt)"

# 5. Every pair of the shared corpus, where it exists.
S=$TOP/../shared/corpus/ghc-modern
if [ -d "$S" ]; then
  n=0 corrupt_seen=0
  for ev in "$S"/ghc-*/*.eventlog "$S"/ghc-*/*.eventlog.gz; do
    base=${ev%.gz}; base=${base%.eventlog}
    [ -f "$base.hp" ] || continue
    check_pair "$ev" "$base.hp"
    n=$((n + 1))
  done
  echo "ghc-modern corpus: $n pairs checked"
  [ $n -ge 50 ] && [ $corrupt_seen -eq 1 ] && ok || fail "only $n pairs in $S"
else
  echo "SKIPPED: ../shared/corpus/ghc-modern not found (the repository's copies were checked)"
fi
finish
