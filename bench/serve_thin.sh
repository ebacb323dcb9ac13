#!/bin/bash
# bench/serve_thin.sh HP2X [CENSUSES] [BANDS] -- a served watch past the
# point where the report thins (3,200 censuses), by hand (bench/RESULTS.md
# 12.5t): a generated .hp of CENSUSES censuses (default 4,000) of BANDS
# bands (default 3), 10 ms apart, its first 3,200 written before the
# watch starts and the rest 5 at a time every 0.1 s (--interval=0.1), with
# (1) one live page in Debian's chromium (bench/serve_thin.js: the reports
# it swapped in after its first, by reason, and whether its data at the
# end equals -o x.html's), (2) one plain SSE client (the updates' bytes
# past 3,200), (3) no client; for each the watch's CPU per census (user +
# system, /proc) from the first census fed to the last, against the CPU
# of -o x.html of the whole file (median of 3).  MARKS=K: a MARK line
# after every K-th census (bench/RESULTS.md 12.5v; the SSE client's
# updates with and without marks told apart); KINDS: the clients run
# (default "page sse none").
set -u
MARKS=${MARKS:-0}
KINDS=${KINDS:-page sse none}
HP2X=$(realpath "$1")
N=${2:-4000}
BANDS=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
python3 - "$N" "$BANDS" "$MARKS" <<'PY'
import math, sys
n, bands, marks = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
with open("big.hp", "w") as out:
    out.write('JOB "thin"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
    for k in range(n):
        out.write("BEGIN_SAMPLE %.3f\n" % (k * 0.01))
        for b in range(bands):
            out.write("band%02d\t%d\n" % (b, 1000 * (b + 1) + int(900 * (1 + math.sin(k / (37.0 + b))))))
        out.write("END_SAMPLE %.3f\n" % (k * 0.01))
        if marks and k % marks == 0:
            out.write("MARK %.3f\n" % (k * 0.01))
PY
split() { # split FIRST REST: the header and censuses [FIRST, REST)
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open("big.hp").read()
head, rest = text.split("BEGIN_SAMPLE", 1)
s = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n(?:MARK[^\n]*\n)*", "BEGIN_SAMPLE" + rest, re.S)
a, b = int(sys.argv[1]), int(sys.argv[2])
sys.stdout.write((head if a == 0 else "") + "".join(s[a:b]))
PY
}
cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$1/stat"; }

# run KIND: one served watch with KIND's client; prints its figures
run() {
  local kind=$1 pid port cpu0 cpu1 k
  split 0 3200 > grow.hp
  : > err
  "$HP2X" --watch --interval=0.1 --idle-exit=3 grow.hp --serve=0 2> err &
  pid=$!
  for _ in $(seq 100); do
    port=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' err)
    [ -n "$port" ] && break
    sleep 0.1
  done
  rm -f ready
  case $kind in
    page) node "$HERE/serve_thin.js" "http://127.0.0.1:$port/" page.json ready > page.txt 2>&1 & ;;
    sse) curl -sN "http://127.0.0.1:$port/events" > events.txt & touch ready ;;
    none) touch ready ;;
  esac
  local client=$!
  [ "$kind" = none ] && client=
  for _ in $(seq 300); do [ -e ready ] && break; sleep 0.1; done
  sleep 0.5
  cpu0=$(cpu_ms $pid)
  for ((k = 3200; k < N; k += 5)); do
    split $k $((k + 5)) >> grow.hp
    sleep 0.1
  done
  sleep 1
  cpu1=$(cpu_ms $pid)
  sleep 3 # --idle-exit: the input closes; the server serves on
  case $kind in
    page) wait $client ;;
    sse) kill $client; wait $client 2> /dev/null ;;
  esac
  kill $pid
  wait $pid
  echo "$kind $(( (cpu1 - cpu0) )) $((N - 3200))"
}

html_ms() {
  local best=()
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S" -o t.txt "$HP2X" big.hp -o out.html 2> /dev/null
    best+=($(awk '{printf "%d", ($1 + $2) * 1000}' t.txt))
  done
  printf "%s\n" "${best[@]}" | sort -n | sed -n 2p
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
HTML=$(html_ms)
echo "-o x.html of all $N censuses ($BANDS bands): $HTML ms CPU"
for kind in $KINDS; do
  read -r k ms n < <(run $kind)
  per=$(python3 -c "print('%.2f' % ($ms / $n))")
  ratio=$(python3 -c "print('%.3f' % ($ms / $n / max($HTML, 1)))")
  echo "$k: $ms ms CPU for $n censuses: $per ms a census, ${ratio}x -o x.html"
  if [ "$k" = page ]; then cat page.txt; fi
  if [ "$k" = sse ]; then
    python3 - events.txt <<'PY'
import json, sys
sizes, thin, runs, added, marked, plain = [], [], [], [], [], []
for e in open(sys.argv[1], encoding="utf-8").read().split("\n\n"):
    if not e.startswith("event: update"):
        continue
    line = [l for l in e.split("\n") if l.startswith("data: ")][0][6:]
    u = json.loads(line).get("update")
    if not u:
        continue
    sizes.append(len(line.encode()))
    (marked if "marks" in u else plain).append(len(line.encode()))
    if "thin" in u and u["thin"]["base"] >= 0:
        thin.append(len(line.encode()))
        runs.append(len(u["thin"]["runs"]))
        added.append(len(u["thin"]["t"]))
for name, v in (("with marks", sorted(marked)), ("without marks", sorted(plain))):
    if v:
        print("updates %s: %d, bytes median %d, max %d" % (name, len(v), v[len(v) // 2], v[-1]))
s = sorted(thin)
if not s:
    print("updates: %d, none with a change of the censuses held" % len(sizes))
    sys.exit(0)
print("updates: %d, %d with a change of the censuses held: bytes median %d, max %d; runs median %d, max %d; "
      "censuses added median %d, max %d" % (len(sizes), len(thin), s[len(s) // 2], s[-1],
      sorted(runs)[len(runs) // 2], max(runs), sorted(added)[len(added) // 2], max(added)))
PY
  fi
done
"$HP2X" grow.hp -o final.html 2> /dev/null
[ -e page.json ] && python3 - page.json final.html <<'PY'
import json, re, sys
page = json.load(open(sys.argv[1]))["data"]
rep = json.loads(re.search(r'id="hp2x-data">(.*?)</script>', open(sys.argv[2], encoding="utf-8").read(), re.S).group(1))
same = page["t"] == rep["t"] and all(p["v"] == r["v"] for p, r in zip(page["bands"], rep["bands"]))
same = same and page.get("marks") == rep.get("marks")
print("the page's final %d censuses and %d marks %s -o x.html's" % (len(page["t"]), len(page.get("marks", [])),
      "equal" if same else "DIFFER from"))
PY
