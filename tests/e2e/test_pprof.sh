#!/usr/bin/env bash
# pprof profiles (-o NAME.pb.gz, --at) read by the real go tool pprof
# (Debian's golang-go), held against the same run's CSV (-m0 -t0) by
# tests/tools/pprof_check.py: real GHC 9.6.6 and 9.10.3 runs, -hc, -hd,
# -hy (samples/programs/deepcc.hs, tests/data/pprof), -hi, -hT and -he
# (tests/data/ghc-modern), eventlogs and .hp files.  The total is the
# census's and each stack's value its label's; reading bounded by a
# picture changes nothing; an eventlog's -hc stacks
# are its stacks, whole (whatever --ccs-length says), with source files
# and lines, and deeper than the .hp's cut labels; --program's names of
# -hi tables are under their modules; -hi frames have a file and a line; --at picks the
# census nearest; -diff_base between two censuses; hostile labels; a
# profile with no census (exit 1, no file); a file each of several
# inputs; /debug/pprof/heap of --serve, fetched by go tool pprof from a
# finished input and from a live --watch, equal to the last census.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
if ! command -v go > /dev/null || ! go tool pprof -h > /dev/null 2>&1; then
  echo "SKIPPED: no go tool pprof (Debian's golang-go; make deps installs it)"
  exit 0
fi
mkdir -p "$T/home" && cd "$T"
# go tool pprof keeps what it fetches under PPROF_TMPDIR (else $HOME).
pp() { HOME="$T/home" PPROF_TMPDIR="$T/home" go tool pprof "$@"; }
CHECK="python3 $TOP/tests/tools/pprof_check.py"
D=$TOP/tests/data
json() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

# check NAME FILE STACKS [HP2X ARGS]: FILE's profile (and the same run's
# CSV), read by go tool pprof -raw, checked; its JSON in NAME.json.
check() {
  local name=$1 file=$2 stacks=$3; shift 3
  rm -f "$name.pb.gz"
  if ! "$HP2X" -q "$file" "$@" -o "$name.pb.gz" 2> "$name.err"; then
    fail "$name: hp2x: $(head -2 "$name.err")"; return
  fi
  "$HP2X" -q -m0 -t0 "$file" -o "$name.csv"
  if ! pp -raw "$name.pb.gz" > "$name.raw" 2> "$name.pperr"; then
    fail "$name: go tool pprof: $(head -2 "$name.pperr")"; return
  fi
  [ ! -s "$name.pperr" ] && ok || fail "$name: go tool pprof says: $(head -2 "$name.pperr")"
  $CHECK "$name.raw" "$name.csv" $stacks > "$name.json" && ok ||
    fail "$name: $(head -5 "$name.json")"
}

# 1. Every real run: the peak census.
runs=(
  "96-hc-evl pprof/ghc-9.6.6/deepcc.hc.eventlog.gz eventlog"
  "96-hc-hp pprof/ghc-9.6.6/deepcc.hc.hp.gz hp"
  "910-hc-evl pprof/ghc-9.10.3/deepcc.hc.eventlog.gz eventlog"
  "910-hc-hp pprof/ghc-9.10.3/deepcc.hc.hp.gz hp"
  "96-mapwave-hc-evl ghc-modern/ghc-9.6.6/mapwave.hc.eventlog.gz eventlog"
  "910-markers-hc-evl ghc-modern/ghc-9.10.3/markers.hc.eventlog eventlog"
  "910-mapwave-hc-hp ghc-modern/ghc-9.10.3/mapwave.hc.hp.gz hp"
  "96-hd-evl pprof/ghc-9.6.6/deepcc.hd.eventlog.gz"
  "96-hd-hp pprof/ghc-9.6.6/deepcc.hd.hp.gz"
  "910-hd-evl pprof/ghc-9.10.3/deepcc.hd.eventlog.gz"
  "910-hd-hp pprof/ghc-9.10.3/deepcc.hd.hp.gz"
  "96-hy-evl pprof/ghc-9.6.6/deepcc.hy.eventlog.gz"
  "96-hy-hp pprof/ghc-9.6.6/deepcc.hy.hp.gz"
  "910-hy-evl pprof/ghc-9.10.3/deepcc.hy.eventlog.gz"
  "910-hy-hp pprof/ghc-9.10.3/deepcc.hy.hp.gz"
  "96-hi-evl ghc-modern/ghc-9.6.6/leak.ipehi.eventlog"
  "96-hi-hp ghc-modern/ghc-9.6.6/leak.ipehi.hp.gz"
  "910-hi-evl ghc-modern/ghc-9.10.3/markers.ipehi.eventlog"
  "910-hi-hp ghc-modern/ghc-9.10.3/markers.ipehi.hp.gz"
  "96-hT-evl ghc-modern/ghc-9.6.6/markers.hT.eventlog.gz"
  "96-hT-hp ghc-modern/ghc-9.6.6/markers.hT.hp.gz"
  "910-hT-evl ghc-modern/ghc-9.10.3/leak.ipehT.eventlog.gz"
  "910-hT-hp ghc-modern/ghc-9.10.3/leak.ipehT.hp.gz"
  "910-he-evl ghc-modern/ghc-9.10.3/mapwave.he.eventlog.gz"
)
for r in "${runs[@]}"; do
  set -- $r
  case $2 in *.hp|*.hp.gz) in=$1.hp;; *) in=$1.eventlog;; esac
  zcat -f "$D/$2" > "$in"
  check "$1" "$in" "${3:-}"
done

# 2. -hc: the eventlog's stacks whole, with files and lines, deeper than
# the .hp's labels cut by the runtime (-L25), which say so.
for v in 96 910; do
  e=$(json max_depth < $v-hc-evl.json) h=$(json max_depth < $v-hc-hp.json)
  [ "$e" -gt 40 ] && [ "$e" -gt "$h" ] && ok || fail "$v: eventlog stacks $e frames, .hp $h"
  [ "$(json located < $v-hc-evl.json)" -gt 40 ] && ok || fail "$v: -hc frames without file:line"
  grep -q ' deepcc.hs:36 s=36(Main.depth01)$' $v-hc-evl.raw && ok ||
    fail "$v: depth01 not at deepcc.hs:36: $(grep depth01 $v-hc-evl.raw | head -1)"
  grep -q ' parse/json deepcc.hs:170 ' $v-hc-evl.raw && ok || fail "$v: the cost centre parse/json is not one frame"
  [ "$(json cut < $v-hc-hp.json)" -gt 40 ] && ok || fail "$v: .hp labels not marked cut"
done
# -hi: tables with a file and a line.
for n in 96-hi-evl 910-hi-evl; do
  [ "$(json located < $n.json)" -ge 3 ] && ok || fail "$n: no -hi frame with file:line"
done
grep -q 'markers.hs:[0-9]* s=[0-9]*(' 910-hi-evl.raw && ok || fail "-hi: no location in markers.hs"

# go tool pprof -traces reads each: a trace per sample.
for n in 96-hc-evl 910-hc-hp 96-hd-evl 910-hy-hp 96-hi-evl 910-hT-evl 910-he-evl; do
  pp -traces $n.pb.gz > $n.traces 2> /dev/null && ok || fail "$n: -traces failed"
  # a rule above each trace and one below the last
  [ "$(grep -c -- '-----------+' $n.traces)" -eq $(( $(json samples < $n.json) + 1 )) ] && ok ||
    fail "$n: -traces shows $(grep -c -- '-----------+' $n.traces) rules, -raw $(json samples < $n.json) samples"
done
# --ccs-length cuts the labels, not the stacks: the same profile.
"$HP2X" -q --ccs-length=25 910-hc-evl.eventlog -o cut.pb.gz
cmp -s cut.pb.gz 910-hc-evl.pb.gz && ok || fail "--ccs-length=25 changed the stacks"
# -hi tables --program names ("(:) [GHC.Types]") under their module.
zcat "$D/program/ghc-9.10.3/shelves.gz" > shelves && chmod +x shelves
zcat "$D/program/ghc-9.10.3/shelves.hi.hp.gz" > shelves.hp
check shelves shelves.hp "" --program=shelves
python3 - shelves.raw <<'PY' && ok || fail "--program: tables not under their modules"
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
locs = dict(re.findall(r'^\s*(\d+): 0x0 M=1 (.*) :0 s=0', text, re.M))
pairs = re.findall(r'^\s+\d+: (\d+) (\d+) $', text, re.M)
named = [(locs[a], locs[b]) for a, b in pairs if locs[a].endswith('[%s]' % locs[b])]
assert len(named) >= 10, (len(named), pairs[:3])
PY

# A profile read bounded by a picture (the default without --at: it keeps
# the peak and the last census) gives the same bytes as one read whole.
for n in 910-hc-evl 96-hc-hp 96-hi-evl 910-hT-evl; do
  in=$(ls $n.eventlog $n.hp 2> /dev/null | head -1)
  "$HP2X" -q --all-samples "$in" -o whole.pb.gz
  cmp -s whole.pb.gz $n.pb.gz && ok || fail "$n: the bounded read's profile differs"
done

# 3. --at: the census nearest (a CSV row's time plus 0.4 ms) in the run;
# within --from/--to the peak of that window.
t=$(sed -n 20p 910-hc-evl.csv | cut -d, -f1)
check 910-at 910-hc-evl.eventlog eventlog --at="$(python3 -c "print($t + 0.0004)")"
python3 -c "import json, sys; assert abs(json.load(open('910-at.json'))['census_time'] - $t * 1e9) < 1000" &&
  ok || fail "--at=$t+0.4ms: not the census at $t"
check 910-window 910-hc-evl.eventlog eventlog --from=0.5 --to=1
python3 - 910-window.json 910-hc-evl.csv <<'PY' && ok || fail "--from 0.5 --to 1: not that window's peak"
import csv, json, sys
ns = json.load(open(sys.argv[1]))['census_time']
rows = [r for r in csv.reader(open(sys.argv[2], encoding='latin-1'))][1:]
inside = [r for r in rows if 0.5 <= float(r[0]) <= 1]
top = max(inside, key=lambda r: sum(int(v) for v in r[1:]))
assert abs(float(top[0]) * 1e9 - ns) < 1000, (top[0], ns)
PY

# 4. -diff_base: a census against the peak; the difference is theirs.
pp -raw -diff_base=910-at.pb.gz 910-hc-evl.pb.gz > diff.raw 2> diff.err && ok || fail "-diff_base: $(head -2 diff.err)"
got=$(sed -n '/^Samples:/,/^Locations/p' diff.raw | grep -E '^ +-?[0-9]+:' | awk '{s += $1} END {print s}')
want=$(( $(json total < 910-hc-evl.json) - $(json total < 910-at.json) ))
[ "$got" = "$want" ] && ok || fail "-diff_base: $got, wanted $want"

# 5. Hostile labels: stacks 255 deep, cost centres named with '/', with
# bytes that are not UTF-8, of 5,000 bytes, two stacks that print alike
# (two samples); go tool pprof reads valid UTF-8.
python3 "$TOP/tests/tools/hostile_eventlog.py" hostile.eventlog hostile.hp
check hostile-evl hostile.eventlog eventlog
check hostile-hp hostile.hp hp
[ "$(json max_depth < hostile-evl.json)" -eq 255 ] && ok || fail "hostile: not 255 frames deep"
[ "$(json samples < hostile-evl.json)" -eq 7 ] && ok || fail "hostile: stacks that print alike merged"
grep -q ' parse/json h.hs:10 ' hostile-evl.raw && ok || fail "hostile: parse/json split"
pp -traces hostile-evl.pb.gz > hostile.traces 2>&1 && ok || fail "hostile: -traces failed"
python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' hostile.traces &&
  ok || fail "hostile: go tool pprof's output is not UTF-8"
grep -qF "$(printf 'bad\303\277\303\276\357\277\275utf')" hostile.traces && ok ||
  fail "hostile: bytes not shown as the picture shows them"

# 6. No census: bad input, no file.  An eventlog without a heap profile.
printf 'JOB "x +RTS -hc"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n' > empty.hp
expect_status 1 "no census" -- "$HP2X" empty.hp -o none.pb.gz
expect_stderr "empty.hp: no complete census in the profile" "no census: message"
expect_status 1 "no heap profile" -- "$HP2X" "$D/eventlogs/ghc92-no-heap-profile.eventlog" -o none.pb.gz
[ ! -e none.pb.gz ] && ok || fail "a profile without a census left none.pb.gz"

# 7. Several inputs: a profile each; the derived .aux drops the whole
# .pb.gz (-p reads NAME.aux).
mkdir -p each
"$HP2X" -q --format=pprof 96-hc-evl.eventlog 910-hc-evl.eventlog -o each/ 2> each.err && ok ||
  fail "-o DIR/: $(cat each.err)"
"$HP2X" -q 96-hc-evl.eventlog 910-hc-evl.eventlog -o 'each/p-%s.pb.gz' 2> each.err && ok || fail "%s: $(cat each.err)"
for f in each/96-hc-evl.pb.gz each/910-hc-evl.pb.gz each/p-96-hc-evl.pb.gz each/p-910-hc-evl.pb.gz; do
  pp -raw "$f" > /dev/null 2>&1 && ok || fail "$f: not read"
done
cmp -s each/910-hc-evl.pb.gz 910-hc-evl.pb.gz && ok || fail "a file each differs from the one-input run's"
expect_status 1 "-p" -- "$HP2X" -p 96-hc-evl.eventlog -o reuse.pb.gz
expect_stderr "reuse\.aux" "-p: NAME.aux beside NAME.pb.gz"

# 8. /debug/pprof/heap: a finished input's last census.
serve_start serve1.err 910-hc-evl.eventlog --serve=0 || fail "no serving line: $(cat serve1.err)"
serve_wait_census || fail "no census served: $(cat serve1.err)"
pp -raw "http://127.0.0.1:$PORT/debug/pprof/heap" > served.raw 2> served.err && ok ||
  fail "go tool pprof http://.../debug/pprof/heap: $(head -3 served.err)"
$CHECK served.raw 910-hc-evl.csv eventlog > served.json && ok || fail "served: $(head -3 served.json)"
last=$(tail -1 910-hc-evl.csv | cut -d, -f1)
python3 -c "import json; assert abs(json.load(open('served.json'))['census_time'] - $last * 1e9) < 1000" &&
  ok || fail "served: not the last census ($last s)"
get /debug/pprof/heap > a.gz; get /debug/pprof/heap > b.gz
[ "$HTTP_CODE" = 200 ] && cmp -s a.gz b.gz && ok || fail "/debug/pprof/heap: $HTTP_CODE, or not the same bytes twice"
serve_stop

# 9. A live --watch of a service: /debug/pprof/heap fetched while it runs
# is one of its censuses, and at the end the last; -o NAME.pb.gz follows
# the last census too.
zcat "$D/socket/ghc-9.10.3/longrun.hT.stream1.eventlog.gz" > s1.eventlog
python3 "$TOP/tests/tools/serve_stream.py" "unix:$T/app.sock" s1.eventlog \
  --after 1 --min 20000 --max 40000 --delay 0.05 --seed 5 & SS=$!
serve_start serve2.err --watch --interval=0.05 "unix:$T/app.sock" --serve=0 \
  --tee=kept.eventlog -o live.pb.gz || fail "watch: no serving line: $(cat serve2.err)"
i=0
while [ $i -lt 100 ]; do # the first census
  get /debug/pprof/heap > mid.gz 2> /dev/null; [ "$HTTP_CODE" = 200 ] && break
  sleep 0.1; i=$((i + 1))
done
pp -raw "http://127.0.0.1:$PORT/debug/pprof/heap" > mid.raw 2> mid.err && ok || fail "live: $(head -2 mid.err)"
wait $SS
i=0 # the input closed: its last census drawn
while ! get /metrics 2> /dev/null | grep -q '^hp2x_input_connected 0$' && [ $i -lt 100 ]; do
  sleep 0.1; i=$((i + 1))
done
pp -raw "http://127.0.0.1:$PORT/debug/pprof/heap" > end.raw 2> end.err && ok || fail "live end: $(head -2 end.err)"
serve_stop
"$HP2X" -q -m0 -t0 kept.eventlog -o kept.csv
$CHECK mid.raw kept.csv > mid.json && ok || fail "live: not a census of the run: $(head -3 mid.json)"
$CHECK end.raw kept.csv > end.json && ok || fail "live end: $(head -3 end.json)"
pp -raw live.pb.gz > live.raw 2> /dev/null && $CHECK live.raw kept.csv > live.json && ok ||
  fail "--watch -o live.pb.gz: $(head -3 live.json)"
last=$(tail -1 kept.csv | cut -d, -f1)
for j in end live; do
  python3 -c "import json; assert abs(json.load(open('$j.json'))['census_time'] - $last * 1e9) < 1000" &&
    ok || fail "$j: not the last census ($last s)"
done
finish
