#!/usr/bin/env bash
# serve-follow.sh -- a client for live-check.sh's HP2X_CMD that follows the live program
# with `hp2x --watch ADDR --serve=0` and the live page open in a real chromium
# (tests/browser/live_test.js: hides a band, zooms, and records what the page shows until
# the status line says the input closed).  By hand, not in `make check`:
#
#   HP2X_CMD='tests/live/serve-follow.sh {addr} {out} {tee}' tests/live/live-check.sh
#
# Writes TEE (the stream as hp2x received it, checked by live-check.sh as a stream), OUT.hp (hp2x's own -o, checked by live-check.sh against the run's .hp),
# OUT.live.json (what the page showed), OUT.page.hp (the page's last censuses as .hp:
# live-check.sh checks them against the run's .hp too; each census must be on the page
# within 10 s of the status line counting it), OUT.serve.err and OUT.browser.txt.
# Exits with the browser checks' status (0 when they all passed).  On SIGTERM (live-check
# ends the second client so) it stops both and exits 143.
set -u
addr=$1 out=$2 tee=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
hp2x=${HP2X:-$top/build/hp2x}
"$hp2x" --watch --interval=0.1 -m0 -t0 "$addr" --serve=0 -o "$out.hp" --tee="$tee" 2> "$out.serve.err" &
served=$!
node_pid=
stop() { kill -TERM $served $node_pid 2> /dev/null; wait; exit 143; }
trap stop TERM INT
port=
for _ in $(seq 200); do
  port=$(sed -n 's|^hp2x: serving http://.*:\([0-9][0-9]*\)/$|\1|p' "$out.serve.err")
  [ -n "$port" ] && break
  kill -0 $served 2> /dev/null || break
  sleep 0.05
done
if [ -z "$port" ]; then
  echo "serve-follow: hp2x printed no serving line:"; cat "$out.serve.err"
  kill -TERM $served 2> /dev/null; wait $served; exit 1
fi
echo "serve-follow: http://127.0.0.1:$port/ follows $addr"
node "$top/tests/browser/live_test.js" "http://127.0.0.1:$port/" "$out.live.json" \
  "${HP2X_FOLLOW_SECONDS:-280}" > "$out.browser.txt" 2>&1 & node_pid=$!
wait $node_pid; brc=$?
cat "$out.browser.txt"
kill -TERM $served 2> /dev/null; wait $served; src=$?
echo "serve-follow: browser checks exit $brc, hp2x --serve exit $src"
[ -f "$out.live.json" ] || exit 1
python3 "$top/tests/tools/live_page_hp.py" "$out.live.json" "$out.page.hp" --max-late 10; lrc=$?
[ $brc -eq 0 ] && [ $src -eq 0 ] && [ $lrc -eq 0 ]
