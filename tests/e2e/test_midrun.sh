#!/usr/bin/env bash
# Streams that begin mid-run, as every eventlog-socket client that connects
# after the program started receives them: a header, the init events again,
# then censuses, and no HEAP_PROF_BEGIN.  Real ones (tests/data/socket: what
# clients of a GHC 9.6.6 and a 9.10.3 program received, with the run's own
# .hp) are read from a file, piped to --watch, and served over unix: and tcp:
# (tests/tools/serve_stream.py) with and without --watch.  Every census hp2x
# reads equals one census of the run's .hp by content, consecutive and in
# order (tests/tools/census_match.py), as many as the stream holds whole (an
# independent walk: tests/live/streamcheck.py); the title's second line and
# --summary say "breakdown not in stream"; the x axis starts at the first
# sample on the runtime's clock, not at 0, its ticks at round times.  Cut
# after its first census begins, a stream is read up to its last whole
# census with one warning; cut before, it holds no heap profile (exit 1).
# Its waits are limits, not clocks (a server's port within 10 s; a stream
# read to its end however long that takes), so
# run-tests.sh: with others
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/socket
SERVE="python3 $TOP/tests/tools/serve_stream.py"
MATCH="python3 $TOP/tests/tools/census_match.py"
cd "$T"

# facts STREAM: "FIRST_BEGIN FIRST_TIME N" (where its first census begins,
# that census's time in seconds, its whole censuses), then one line per
# whole census: the byte just past its end event.
facts() {
  python3 -c "import sys; sys.path.insert(0, '$TOP/tests/live'); import streamcheck
s = streamcheck.parse_stream(open(sys.argv[1], 'rb').read())
c = s.censuses
print(c[0][3] if c else 0, '%.3f' % (c[0][1] / 1e9) if c else 0, len(c))
for e in s.census_ends: print(e)" "$1"
}
# wait_file FILE: until the server says where it listens (at most 10 s).
wait_file() {
  local i=0; while [ ! -s "$1" ]; do i=$((i + 1)); [ $i -ge 200 ] && return 1; sleep 0.05; done
}
# axis_check PDF T0 T1: the x axis's tick labels are round times from T0
# on (the first within a seventh of the run of T0, not 0), and the axis's
# left end (where the y labels end, 5 pt to their right) is at time T0: the
# labels' positions, fitted to their values, put T0 there.  Prints what is
# wrong, nothing when right.
axis_check() {
  pdftotext -bbox "$1" - | python3 -c '
import re, sys
t0, t1 = float(sys.argv[1]), float(sys.argv[2])
words = re.findall(r"xMin=\"([\d.]+)\" yMin=\"([\d.]+)\" xMax=\"([\d.]+)\" yMax=\"([\d.]+)\">([^<]*)<", sys.stdin.read())
words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in words]
axis = [w for w in words if w[4] == "seconds" and w[0] > 300]
if not axis: sys.exit(print("no x axis legend"))
y = axis[0][1]
ticks = [((w[0] + w[2]) / 2, float(w[4])) for w in words
         if abs(w[1] - y) < 1 and re.fullmatch(r"[\d.]+", w[4])]
ylabels = [w for w in words if re.fullmatch(r"\d+[kMG]?", w[4]) and w[0] < 100]
if len(ticks) < 2 or not ylabels: sys.exit(print("ticks %r, y labels %r" % (ticks, ylabels)))
(xa, va), (xb, vb) = ticks[0], ticks[1]
scale = (xb - xa) / (vb - va)
left = max(w[2] for w in ylabels) + 5
at_t0 = xa + (t0 - va) * scale
if not (t0 - 1e-3 <= va <= t0 + (t1 - t0) / 7 + 1e-3):
    print("first tick %g, first sample at %g" % (va, t0))
if abs(at_t0 - left) > 2:
    print("time %g is %.1f pt from the axis start" % (t0, at_t0 - left))
if any(abs(v / (vb - va) - round(v / (vb - va))) > 1e-6 for _, v in ticks):
    print("ticks not at multiples of their step: %r" % [v for _, v in ticks])
' "$2" "$3"
}

streams=()
for v in ghc-9.6.6 ghc-9.10.3; do
  gzip -dc "$D/$v/longrun.hT.hp.gz" > "$v.run.hp"
  for s in 1 2; do
    gzip -dc "$D/$v/longrun.hT.stream$s.eventlog.gz" > "$v.s$s.eventlog"
    streams+=("$v.s$s")
  done
done

seed=0
for st in "${streams[@]}"; do
  ev=$st.eventlog run=${st%.s?}.run.hp
  facts "$ev" > "$st.facts"
  read -r first_begin t0 n < "$st.facts"
  [ "$n" -gt 20 ] && [ "$first_begin" -gt 0 ] && ok || fail "$st: test setup: $n censuses"
  python3 "$TOP/tests/live/streamcheck.py" "$run" "$ev" > check.txt
  grep -q 'HEAP_PROF_BEGIN (160): no' check.txt && ok ||
    fail "$st: test setup: the stream has a HEAP_PROF_BEGIN"

  # 1. From the file: every census, each one of the run's; one warning (no
  # data-end marker: the client hung up).
  "$HP2X" "$ev" -o "$st.once.hp" 2> err; rc=$?
  [ $rc -eq 0 ] && ok || { fail "$st: exit $rc"; cat err; continue; }
  [ "$(wc -l < err)" -eq 1 ] && grep -q "byte [0-9]*: warning: " err && ok ||
    { fail "$st: wanted one warning"; cat err; }
  $MATCH "$run" "$st.once.hp" --count "$n" > m.txt && ok || { fail "$st: censuses"; cat m.txt; }

  # 2. --summary and the key say the breakdown is not in the stream; the
  # run's span is on the runtime's clock.
  "$HP2X" -q --summary "$ev" > sum.txt; rc=$?
  [ $rc -eq 0 ] && grep -qx 'a stream joined mid-run: breakdown not in stream' sum.txt && ok ||
    { fail "$st: --summary (exit $rc) does not say 'breakdown not in stream'"; head -3 sum.txt; }
  grep -q "^$n samples from $t0 to " sum.txt && ok ||
    fail "$st: --summary's span is not from $t0: $(grep samples sum.txt)"
  t1=$(sed -n 's/^.* samples from [0-9.]* to \([0-9.]*\) .*/\1/p' sum.txt)
  "$HP2X" -q "$ev" -o "$st.pdf"
  pdftotext "$st.pdf" - | grep -q 'bytes x seconds, breakdown not in stream' && ok ||
    fail "$st: the title does not say 'breakdown not in stream'"
  pdftotext "$st.pdf" - | grep -q '^longrun$' && ok || fail "$st: the title is not the program's name"
  axis_check "$st.pdf" "$t0" "$t1" > axis.txt
  [ ! -s axis.txt ] && ok || { fail "$st: x axis"; cat axis.txt; }

  # 3. --watch on the stream piped in chunks: the same censuses.
  seed=$((seed + 1))
  python3 "$TOP/tests/tools/grow.py" "$ev" /dev/stdout --seed $seed --min 1 --max 40000 \
      --delay 0 | "$HP2X" -q --watch --interval=0.05 --from-eventlog - -o piped.hp; rc=$?
  [ $rc -eq 0 ] && cmp -s piped.hp "$st.once.hp" && ok ||
    fail "$st: --watch on standard input (exit $rc) read other censuses than the file's"

  # 4. Served over unix: and tcp:, with and without --watch.
  for addr in unix tcp; do
    for watch in --watch ""; do
      seed=$((seed + 1)); rm -f port
      if [ $addr = unix ]; then
        $SERVE "unix:$T/app.sock" "$ev" --ready port --seed $seed --max 20000 & S=$!
        wait_file port; target=unix:$T/app.sock
      else
        $SERVE tcp:127.0.0.1:0 "$ev" --ready port --seed $seed --max 20000 & S=$!
        wait_file port; target=tcp:127.0.0.1:$(cat port)
      fi
      "$HP2X" -q $watch --interval=0.05 "$target" -o served.hp; rc=$?
      wait $S
      [ $rc -eq 0 ] && cmp -s served.hp "$st.once.hp" && ok ||
        { fail "$st: $addr ${watch:-once}: exit $rc or other censuses than the file's";
          $MATCH "$run" served.hp --count "$n"; }
    done
  done
done

# 5. The key from a --watch over a socket says it too, and its picture is the
# one-shot render's.
st=ghc-9.10.3.s2
rm -f port; $SERVE tcp:127.0.0.1:0 "$st.eventlog" --ready port --seed 99 --max 50000 & S=$!
wait_file port
"$HP2X" -q --watch --interval=0.05 "tcp:127.0.0.1:$(cat port)" -o live.pdf; rc=$?
wait $S
[ $rc -eq 0 ] && pdftotext live.pdf - | grep -q 'breakdown not in stream' && ok ||
  fail "tcp --watch (exit $rc): the key does not say 'breakdown not in stream'"
[ "$(pdftotext live.pdf - | md5sum)" = "$(pdftotext "$st.pdf" - | md5sum)" ] && ok ||
  fail "tcp --watch: the picture's text differs from the one-shot render's"

# 6. Cut anywhere: before the first census begins, no heap profile (exit 1,
# no output); after, exit 0, one warning, and the censuses whole before the
# cut, the first ones of the whole stream.  Every 997 bytes over the first
# 40 KB (header, init events, first censuses), then every 40 877 bytes.
# The censuses of every cut are checked in one census_match.py --batch
# (the run's .hp and the whole stream's read once, not once a cut).
for st in ghc-9.6.6.s1 ghc-9.10.3.s2; do
  ev=$st.eventlog run=${st%.s?}.run.hp
  read -r first_begin t0 n < "$st.facts"
  size=$(wc -c < "$ev")
  cuts=0 bad=0
  mkdir "$st.cuts"; : > "$st.cuts.list"
  for ((cut = 997; cut < size; cut += cut < 40000 ? 997 : 40877)); do
    cuts=$((cuts + 1))
    out=$st.cuts/$cut.hp
    head -c $cut "$ev" > cut.eventlog
    "$HP2X" cut.eventlog -o "$out" 2> err; rc=$?
    if [ $cut -lt $((first_begin + 18)) ]; then  # 18: a whole census begin event
      if [ $rc -ne 1 ] || [ -e "$out" ] ||
         ! grep -qE 'no heap profile in this eventlog|ends inside the eventlog header' err; then
        bad=$((bad + 1)); echo "cut at $cut (before the first census): exit $rc: $(cat err)"
      fi
      continue
    fi
    whole=$(tail -n +2 "$st.facts" | awk -v c=$cut '$1 <= c' | wc -l)
    echo "$out $whole" >> "$st.cuts.list"
    if [ $rc -ne 0 ] || [ "$(wc -l < err)" -ne 1 ] || ! grep -q ': warning: ' err; then
      bad=$((bad + 1)); echo "cut at $cut: exit $rc: $(cat err)"
    fi
  done
  $MATCH "$run" --batch "$st.cuts.list" --prefix-of "$st.once.hp" > m.txt 2>&1
  mrc=$?
  grep 'different$' m.txt | sed 's/^/cut: /'
  bad=$((bad + $(grep -c 'different$' m.txt)))
  # each cut said once, and nothing else wrong
  if [ "$(wc -l < m.txt)" -ne "$(wc -l < "$st.cuts.list")" ] ||
     { [ $mrc -ne 0 ] && ! grep -q 'different$' m.txt; }; then
    bad=$((bad + 1)); echo "census_match.py --batch: exit $mrc: $(tail -3 m.txt)"
  fi
  echo "$st: $cuts cuts"
  [ $bad -eq 0 ] && [ $cuts -gt 60 ] && ok || fail "$st: $bad of $cuts cuts read wrong"
done

finish
