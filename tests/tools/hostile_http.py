#!/usr/bin/env python3
"""hostile_http.py -- hostile clients against hp2x --serve, over real
sockets, for tests/e2e/test_serve_hostile.sh.

  hostile_http.py PORT

Malformed request lines, huge headers, a huge target, a wrong Host, other
methods: each must get its status (or a closed connection where the server
library gives none).  Then 200 idle connections and a slowloris (one byte a
second) at once: meanwhile /metrics must still be answered at once, and
each of them closed by the server within 15 s.  Prints one line per check
("ok NAME" or "FAIL NAME: why"); exits 1 on any failure.
"""
import socket
import sys
import threading
import time

PORT = int(sys.argv[1])
failures = []


def report(name, good, why=""):
    print(("ok %s" % name) if good else ("FAIL %s: %s" % (name, why)))
    if not good:
        failures.append(name)


def exchange(raw, timeout=5.0):
    """Sends raw bytes; returns the status code (int), or None when the
    server closed without one."""
    s = socket.create_connection(("127.0.0.1", PORT), timeout=timeout)
    try:
        try:
            s.sendall(raw)
        except OSError:
            pass  # closed while sending: a close
        data = b""
        while b"\r\n" not in data:
            try:
                chunk = s.recv(4096)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
        if data.startswith(b"HTTP/1."):
            return int(data.split(b" ", 2)[1])
        return None
    finally:
        s.close()


def expect(name, raw, allowed):
    got = exchange(raw)
    report(name, got in allowed, "got %r, wanted one of %r" % (got, allowed))


def single_requests():
    host = b"Host: localhost\r\n"
    expect("garbage line", b"GARBAGE\r\n\r\n", {400, None})
    expect("no target", b"GET\r\n\r\n", {400, None})
    expect("binary line", b"\x00\x01\x02\xff\r\n\r\n", {400, None})
    expect("HTTP/9.9", b"GET / HTTP/9.9\r\n" + host + b"\r\n", {400, 505, None})
    expect("no Host in HTTP/1.1", b"GET /metrics HTTP/1.1\r\n\r\n", {400})
    expect("huge header", b"GET /metrics HTTP/1.1\r\n" + host + b"X-Big: " +
           b"a" * 200000 + b"\r\n\r\n", {400, 413, 431, None})
    expect("many headers", b"GET /metrics HTTP/1.1\r\n" + host +
           b"".join(b"X-%d: v\r\n" % i for i in range(5000)) + b"\r\n",
           {400, 413, 431, None})
    expect("huge target", b"GET /" + b"a" * 100000 + b" HTTP/1.1\r\n" + host +
           b"\r\n", {400, 413, 414, 431, None})
    expect("target past ours", b"GET /" + b"a" * 2000 + b" HTTP/1.1\r\n" +
           host + b"\r\n", {414})
    expect("wrong Host", b"GET /metrics HTTP/1.1\r\nHost: evil.example\r\n\r\n",
           {403})
    expect("rebinding Host with port",
           b"GET / HTTP/1.1\r\nHost: attacker.test:%d\r\n\r\n" % PORT, {403})
    expect("loopback Host", b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
           b"Connection: close\r\n\r\n" % PORT, {200})
    for m in (b"POST", b"PUT", b"DELETE", b"OPTIONS", b"TRACE", b"PATCH",
              b"CONNECT"):
        expect("method " + m.decode(), m + b" /metrics HTTP/1.1\r\n" + host +
               b"Content-Length: 0\r\n\r\n", {405, 400})
    expect("no such path", b"GET /nope HTTP/1.1\r\n" + host + b"\r\n", {404})
    expect("file path", b"GET /../../etc/passwd HTTP/1.1\r\n" + host +
           b"\r\n", {404, 400})


def closed_within(s, seconds):
    """Whether the server closes s (recv gives b'' or an error) in time."""
    s.settimeout(seconds)
    start = time.time()
    try:
        while time.time() - start < seconds:
            if not s.recv(4096):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False
    return False


def slowloris(result):
    s = socket.create_connection(("127.0.0.1", PORT))
    start = time.time()
    req = b"GET /metrics HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"b" * 100
    closed = False
    for byte in req:
        try:
            s.send(bytes([byte]))
        except OSError:
            closed = True
            break
        time.sleep(1.0)
        s.setblocking(False)
        try:
            if s.recv(4096) == b"":
                closed = True
                break
        except BlockingIOError:
            pass
        except OSError:
            closed = True
            break
        finally:
            s.setblocking(True)
        if time.time() - start > 15:
            break
    result["slowloris"] = (closed, time.time() - start)


def crowd():
    idle = [socket.create_connection(("127.0.0.1", PORT)) for _ in range(200)]
    result = {}
    t = threading.Thread(target=slowloris, args=(result,))
    t.start()
    time.sleep(1.0)
    start = time.time()
    got = exchange(b"GET /metrics HTTP/1.1\r\nHost: localhost\r\n"
                   b"Connection: close\r\n\r\n")
    took = time.time() - start
    report("metrics beside 200 idle and a slowloris", got == 200 and took < 2,
           "status %r in %.2f s" % (got, took))
    still = sum(1 for s in idle[:20] if closed_within(s, 0.0001) is False)
    report("idle connections held a while", still > 0, "all closed at once")
    closed = sum(1 for s in idle if closed_within(s, 15))
    report("200 idle connections closed by the server", closed == 200,
           "%d of 200 closed" % closed)
    t.join()
    done, secs = result["slowloris"]
    report("slowloris closed within 15 s", done and secs <= 15,
           "closed %s after %.1f s" % (done, secs))
    for s in idle:
        s.close()


single_requests()
crowd()
sys.exit(1 if failures else 0)
