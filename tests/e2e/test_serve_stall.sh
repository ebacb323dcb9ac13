#!/usr/bin/env bash
# --serve answers /events, /metrics and /debug/pprof/heap while it draws
# the page: a large profile (2,500 censuses x 800 bands, made by
# bench/gen.py) makes the live page slow to draw, and while `/` is being
# drawn for six requests at once (more than the server's threads), an
# event stream opened then gets its first event (the status and
# the live update, made then), and /metrics and the pprof heap are
# answered, each within a bound and before the page.  Once the event
# stream waited for the page's drawing (the update and the pictures under
# one lock) while it held the server's mutex, and every other request
# waited behind it, and libmicrohttpd's threads waited for the page in
# their requests, serving no other connection: the hour's soak lost 134
# of 721 scrapes (bench/RESULTS.md 12.6).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
serve_need_curl
cd "$T"
serve_big_profile 2500
curl -s -m 120 -o page.html -w '%{time_total}\n' "http://127.0.0.1:$PORT/" > page.time &
CP=$!
# and more pages at once than the server has threads: each waits for the
# one drawing, which libmicrohttpd's threads must not do
OTHERS=
for i in 1 2 3 4 5; do
  curl -s -m 120 -o "page$i.html" "http://127.0.0.1:$PORT/" & OTHERS="$OTHERS $!"
done
sleep 0.3 # the page's drawing has begun
# an event stream: its first event, with the update, read to its blank line
python3 - "$PORT" > events.out 2> events.err << 'EOF' &
import socket, sys, time
t = time.monotonic()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
s.sendall(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
got = b""
def whole(g):  # the headers, and an event with its data to its blank line
    body = g.split(b"\r\n\r\n", 1)
    return (len(body) == 2 and b"data: " in body[1] and
            b"\n\n" in body[1].split(b"data: ", 1)[1])
while not whole(got):
    chunk = s.recv(65536)
    if not chunk:
        break
    got += chunk
print("%.3f" % (time.monotonic() - t))
sys.stdout.flush()
sys.stderr.write(got.decode("utf-8", "replace")[:400])
EOF
EP=$!
sleep 0.3 # the stream has asked for its event
metrics_s=$(curl -s -m 60 -o metrics.txt -w '%{time_total}' "http://127.0.0.1:$PORT/metrics")
pprof_s=$(curl -s -m 60 -o heap.pb -w '%{time_total}' "http://127.0.0.1:$PORT/debug/pprof/heap")
page_done=$([ -s page.time ] && echo yes || echo no)
wait $EP
events_s=$(head -n 1 events.out)
wait $CP $OTHERS
echo "page $(cat page.time) s; meanwhile /events' first event $events_s s, /metrics $metrics_s s, pprof $pprof_s s"
[ "$page_done" = no ] && ok || fail "the page was drawn before the others were answered"
grep -q '^hp2x_censuses_total 2500$' metrics.txt && ok || fail "/metrics: $(head -c 300 metrics.txt)"
grep -q '"update":{' events.err && ok || fail "no update in the first event: $(cat events.err)"
[ -s heap.pb ] && [ "$(head -c 2 heap.pb | od -An -tx1 | tr -d ' ')" = 1f8b ] && ok ||
  fail "/debug/pprof/heap is not a gzipped profile"
grep -q 'hp2x-data' page.html && ok || fail "no page"
for i in 1 2 3 4 5; do
  cmp -s page.html "page$i.html" && ok || fail "page $i differs from the first (one redraw's page)"
done
# each answered within a bound, well before the page (which takes seconds)
for pair in "/metrics:$metrics_s" "/events:$events_s" "pprof:$pprof_s"; do
  awk -v m="${pair#*:}" -v p="$(cat page.time)" 'BEGIN { exit !(m != "" && m < 2 && m < p / 3) }' &&
    ok || fail "${pair%%:*} took ${pair#*:} s, the page $(cat page.time) s"
done
serve_stop
finish
