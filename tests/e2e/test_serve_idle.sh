#!/usr/bin/env bash
# --serve's idle timeout (libmicrohttpd's MHD_OPTION_CONNECTION_TIMEOUT,
# 10 s: src/tool/serve/serve.c) and its request deadline (10 s,
# guard.c) do not cut a live page's event stream: with nothing new for
# 16 s (a watched file that stops growing), a client on a real socket
# that holds /events open still has its connection, got the heartbeat
# comments (events.c, every 5 s) meanwhile, and gets the next census's
# update on the same connection when the file grows again.  Meanwhile
# (the two waits at once), a client that sends half a request and then
# nothing is still shut down by the deadline.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
cd "$T"
census() { # census I: one sample of three bands at time I
  printf 'BEGIN_SAMPLE %d.0\na\t%d\nb\t%d\nc\t%d\nEND_SAMPLE %d.0\n' "$1" $((1000 + $1)) $((2000 + 3 * $1)) 300 "$1"
}
{
  printf 'JOB "idle"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
  for i in 0 1 2; do census $i; done
} > grow.hp
serve_start err --watch --interval=0.1 grow.hp --serve=0 || fail "no serving line: $(cat err)"
serve_wait_census || fail "no census on /metrics"
# The client: reads /events for HOLD s, noting when each event and each
# comment came, then for the census after the file grew (at most 20 s).
python3 - "$PORT" 16 > stream.out 2> stream.err << 'PY' &
import socket, sys, time
port, hold = int(sys.argv[1]), float(sys.argv[2])
s = socket.create_connection(("127.0.0.1", port), timeout=1)
s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
t0, got, closed = time.monotonic(), b"", False
def counts():
    return [int(x.split(b'"censuses":')[1].split(b",")[0]) for x in got.split(b"\n")
            if x.startswith(b"data: ") and b'"censuses":' in x]
def read_until(end, stop):
    global got, closed
    while time.monotonic() < end and not closed and not stop():
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            closed = True
            break
        got += chunk
read_until(t0 + hold, lambda: False)
beats = got.count(b"\n:")
print("held %.1f closed %d beats %d last %s" % (time.monotonic() - t0, closed, beats, counts()[-1:]))
sys.stdout.flush()
open("held", "w").close()  # the test grows the file now
read_until(time.monotonic() + 20, lambda: counts() and counts()[-1] >= 4)
print("after closed %d last %s" % (closed, counts()[-1:]))
PY
CLIENT=$!
# Meanwhile (the two waits at once, on the same server): half a request,
# then nothing, shut down by the deadline.
python3 - "$PORT" > half.out << 'PY' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
t = time.monotonic()
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n")
try:
    end = s.recv(100)
except (socket.timeout, ConnectionResetError):
    end = b"timeout"
print("%.1f %r" % (time.monotonic() - t, end))
PY
HALF=$!
i=0
while [ ! -e held ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
census 3 >> grow.hp
wait $CLIENT || fail "the client: $(cat stream.err)"
cat stream.out
read -r _ held _ closed _ beats _ last < <(head -1 stream.out)
[ "$closed" = 0 ] && ok || fail "the event stream was closed within ${held} s: $(head -1 stream.out)"
[ "${held%.*}" -ge 16 ] && ok || fail "the stream was held ${held} s, not 16"
[ "$beats" -ge 2 ] && ok || fail "$beats heartbeats in 16 s"
grep -q '^after closed 0 last \[4\]' stream.out && ok ||
  fail "the census after 16 s idle did not come on the same stream: $(tail -1 stream.out)"
wait $HALF
read -r secs _ < half.out
[ "${secs%.*}" -ge 9 ] && [ "${secs%.*}" -le 20 ] && grep -q "b''" half.out && ok ||
  fail "half a request: $(cat half.out) (shut down after 10 s expected)"
serve_stop
finish
