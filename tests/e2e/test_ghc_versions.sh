#!/usr/bin/env bash
# Eventlogs of every GHC runtime through the binary.  Our fixtures
# (tests/data/eventlogs, written by tests/tools/mkeventlog.py in the byte
# layouts of GHC 8.2, 9.0, 9.2 and 9.10) hold exactly the censuses of their
# .expected.hp; GHC 9.2's ending (the last block's size counts the data-end
# marker) is read; -hi bands are named by their IPE events in pictures,
# CSV and summaries, and keep their addresses in .hp; an eventlog with no
# heap profile is refused with one plain message (a growing 9.2 eventlog
# followed in watch mode: test_ghc_versions_watch.sh, apart as it waits
# on the watch).  Where ../shared/corpus/ghc-events exists (real
# eventlogs of GHC 8.2 to 9.3 with the ghc-events library's dumps), every
# one is checked against its dump; elsewhere that part says it skipped.
. "$(dirname "$0")/lib.sh"
E=$TOP/tests/data/eventlogs
CMP="python3 $TOP/tests/tools/hpcompare.py"
cd "$T"

# The committed fixtures are the generator's.
python3 "$TOP/tests/tools/mkeventlog.py" gen && ok || fail "mkeventlog.py"
for f in "$E"/*; do
  cmp -s "$f" "gen/$(basename "$f")" && ok || fail "$(basename "$f") is not what mkeventlog.py writes"
done
[ "$(ls gen | wc -l)" -eq "$(ls "$E" | wc -l)" ] && ok || fail "fixture lists differ"

# 1. Every fixture: exit 0, no message, its censuses exactly.
n=0
for f in "$E"/*.eventlog; do
  name=$(basename "$f" .eventlog)
  case $name in *no-heap-profile*) continue;; esac
  "$HP2X" "$f" -o "$name.hp" 2> err.txt && ok || fail "$name: exit $?: $(head -1 err.txt)"
  [ ! -s err.txt ] && ok || fail "$name: said $(head -1 err.txt)"
  $CMP "$name.hp" "$E/$name.expected.hp" > cmp.txt && ok || fail "$name: $(head -2 cmp.txt)"
  "$HP2X" -q "$f" -o "$name.pdf" && pdfinfo "$name.pdf" > /dev/null 2>&1 && ok ||
    fail "$name: no valid PDF"
  n=$((n + 1))
done
[ $n -ge 13 ] && ok || fail "only $n fixtures"

# 2. GHC 9.2's ending, really in the fixtures: the last block marker's size
# runs 2 bytes past the events, onto the data-end marker.
for name in ghc92-hc ghc92-he ghc92-live; do
  last=$(tail -1 "$E/$name.blocks")
  python3 - "$E/$name.eventlog" "$last" <<'EOF' && ok || fail "$name: not GHC 9.2's ending"
import struct, sys
data = open(sys.argv[1], "rb").read(); at = int(sys.argv[2])
size = struct.unpack(">I", data[at + 10:at + 14])[0]
sys.exit(0 if at + size == len(data) and data[-2:] == b"\xff\xff" else 1)
EOF
done
# Cut anywhere after the profile began (block boundaries, mid-event,
# mid-marker): exit 0, one warning, the complete censuses a prefix of the
# whole's.
whole=$(grep -c '^BEGIN_SAMPLE' ghc92-live.hp)
size=$(stat -c %s "$E/ghc92-live.eventlog")
prev=0 mono=1
begun=$(sed -n 3p "$E/ghc92-live.blocks")   # the heap profile's block
for cut in $(sed 1,3d "$E/ghc92-live.blocks") $(seq $((begun + 60)) 397 "$size"); do
  head -c "$cut" "$E/ghc92-live.eventlog" > cut.eventlog
  "$HP2X" cut.eventlog -o cut.hp 2> err.txt || { fail "cut at $cut: $(head -1 err.txt)"; continue; }
  [ "$(grep -c warning err.txt)" -eq 1 ] && ok || fail "cut at $cut: $(cat err.txt)"
  $CMP --prefix cut.hp ghc92-live.hp > /dev/null && ok || fail "cut at $cut: not a prefix"
done
"$HP2X" -q -m0 "$E/ghc92-live.eventlog" -o live.csv
[ "$(($(wc -l < live.csv) - 1))" -eq "$whole" ] && ok || fail "live fixture sample count"

# 3. -hi: names from IPE events, before or after the samples.
for name in ghc92-hi ghc92-hi-ipe-after ghc910-hi ghc910-hi-ipe-after; do
  "$HP2X" -q "$E/$name.eventlog" -o "$name.csv"
  head -1 "$name.csv" | tr -d "\r" | tr "," "\n" | sed 1d | sort > cols.txt
  sort > want.txt <<'EOF'
0x4d0000
Just libraries/base/GHC/Maybe.hs:29:5-8; table Just; closure CONSTR_1_0; type Maybe; module GHC.Maybe; source libraries/base/GHC/Maybe.hs:29:5-8; address 0x4c8e48
Tip in Data.Set.Internal 0x4d1130; table Tip; closure CONSTR_1_0; type Set; module Data.Set.Internal; address 0x4d1130
Tip in Data.Set.Internal 0x4d1158; table Tip; closure CONSTR_1_0; type Set; module Data.Set.Internal; address 0x4d1158
thunk in build prog.hs:12:3-40; table sat_s1ab_info; closure THUNK; type Int; label build; module Main; source prog.hs:12:3-40; address 0x4c8e70
EOF
  cmp -s cols.txt want.txt && ok || fail "$name: CSV columns $(cat cols.txt)"
  "$HP2X" -q "$E/$name.eventlog" --summary | grep -q "^ *table Just; closure CONSTR_1_0; type Maybe; module GHC.Maybe;" && ok ||
    fail "$name: summary lacks the IPE name"
  "$HP2X" -q -c "$E/$name.eventlog" -o "$name.svg"
  grep -q "<title>thunk in build prog.hs:12:3-40: peak" "$name.svg" &&
    grep -q "^table sat_s1ab_info; closure THUNK; type Int; label build; module Main; source prog.hs:12:3-40; address 0x4c8e70</title>" "$name.svg" && ok ||
    fail "$name: SVG tooltip lacks the IPE name"
  # .hp output keeps the addresses, as GHC's own .hp does
  grep -q "^0x4c8e48	" "$name.hp" && ! grep -q "GHC.Maybe" "$name.hp" && ok ||
    fail "$name: .hp does not keep the addresses"
done
cmp -s ghc92-hi.csv ghc92-hi-ipe-after.csv && ok || fail "IPE after the samples: other bands"
"$HP2X" -q --include 'Data\.Set' "$E/ghc92-hi.eventlog" -o inc.csv
[ "$(head -1 inc.csv | tr ',' '\n' | grep -c 'Data.Set')" -eq 2 ] && ok ||
  fail "--include does not match IPE names"

# 4. The title says the breakdown, for every breakdown 1-9.
for pair in hc:cost-centre.stack hm:module hd:closure.description hy:type hr:retainer.set \
            hb:biography hT:closure.type hi:info.table he:era; do
  flag=${pair%%:*} words=${pair#*:}
  "$HP2X" -q "$E/ghc92-$flag.eventlog" -o t.pdf
  pdftotext t.pdf - | tr '\n' ' ' | grep -qE "by $words, -$flag" && ok ||
    fail "ghc92-$flag: title lacks 'by $words, -$flag'"
done

# 5. No heap profile: exit 1, one message saying what to do, no output.
expect_status 1 "no heap profile" -- "$HP2X" "$E/ghc92-no-heap-profile.eventlog" -o none.pdf
expect_stderr "^hp2x: [^ ]*ghc92-no-heap-profile.eventlog: no heap profile in this eventlog \(run the program with \+RTS -hT -l, or another -h option\)$" \
  "no heap profile message"
[ "$(wc -l < "$CAP/err")" -eq 1 ] && ok || fail "more than one line: $(cat "$CAP/err")"
[ ! -e none.pdf ] && ls -A | grep -q '^\.none' && fail "temporary file left" || ok
[ ! -e none.pdf ] && ok || fail "output written"

# 6. Real eventlogs of other runtimes, against ghc-events' own dumps.
G=$TOP/../shared/corpus/ghc-events
if [ -d "$G" ]; then
  seen=0
  for f in "$G"/*.eventlog; do
    name=$(basename "$f")
    if [ -f "$f.reference" ] && ! grep -q "start heap profiling" "$f.reference"; then
      expect_status 1 "$name (no heap profile)" -- "$HP2X" "$f" -o none.pdf
      expect_stderr "no heap profile in this eventlog \(run the program with \+RTS -hT -l" "$name"
      [ ! -e none.pdf ] && ok || fail "$name: output written"
    else
      "$HP2X" "$f" -o "$name.hp" 2> err.txt && ok || { fail "$name: exit $?: $(head -1 err.txt)"; continue; }
      if [ -f "$f.reference" ]; then
        python3 "$TOP/tests/tools/ghc_events_reference.py" "$f.reference" "$name.hp" > cmp.txt &&
          ok || fail "$name: $(head -3 cmp.txt)"
      else # no dump (stop.hT: ghc-events' test only parses it): censuses read
        [ "$(grep -c '^BEGIN_SAMPLE' "$name.hp")" -ge 10 ] && ok || fail "$name: censuses"
      fi
    fi
    seen=$((seen + 1))
  done
  echo "ghc-events corpus: $seen eventlogs checked"
  [ $seen -ge 7 ] && ok || fail "only $seen corpus eventlogs"
else
  echo "SKIPPED: no $G (the ghc-events corpus); fixtures only"
fi
finish
