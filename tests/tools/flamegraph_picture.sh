#!/usr/bin/env bash
# flamegraph_picture.sh HP2X OUT.png -- the README's picture of a flame
# graph: the peak census of tests/data/pprof/ghc-9.6.6/deepcc.hc.eventlog.gz
# written by HP2X as pprof, shown by `go tool pprof -http` (its flame graph
# page) and photographed in Debian's chromium through playwright-core
# (tests/browser).  Needs go, node and chromium (make deps).
set -eu
hp2x=$1 out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2> /dev/null; rm -rf "$work"' EXIT
zcat "$top/tests/data/pprof/ghc-9.6.6/deepcc.hc.eventlog.gz" > "$work/deepcc.eventlog"
"$hp2x" -q "$work/deepcc.eventlog" -o "$work/heap.pb.gz"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
HOME=$work PPROF_TMPDIR=$work go tool pprof -http="127.0.0.1:$port" -no_browser \
  "$work/heap.pb.gz" > "$work/pprof.log" 2>&1 & pid=$!
i=0
until curl -s -o /dev/null "http://127.0.0.1:$port/ui/flamegraph"; do
  i=$((i + 1)); [ $i -lt 100 ] || { cat "$work/pprof.log"; exit 1; }; sleep 0.1
done
cat > "$work/shot.js" <<'JS'
const { launchOrSkip } = require(process.argv[2] + '/tests/browser/chromium.js');
(async () => {
  const browser = await launchOrSkip();
  const page = await browser.newPage({ viewport: { width: 900, height: 940 } });
  await page.goto(process.argv[3]);
  await page.waitForTimeout(2000);
  await page.screenshot({ path: process.argv[4] });
  await browser.close();
})();
JS
NODE_PATH=$top/tests/browser/node_modules node "$work/shot.js" "$top" \
  "http://127.0.0.1:$port/ui/flamegraph" "$out"
