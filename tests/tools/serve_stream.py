#!/usr/bin/env python3
"""serve_stream.py -- a stand-in for a program serving its eventlog on a
socket (as eventlog-socket does), for tests/e2e/test_socket.sh.

  serve_stream.py ADDRESS FILE [--seed N] [--min B] [--max B] [--delay S]
                  [--after S] [--cut N] [--hold] [--ready PATH]

ADDRESS is unix:PATH or tcp:HOST:PORT (tcp:[ADDR]:PORT for IPv6; port 0
picks a free one).  After --after seconds the server listens, writes the
port it bound to (or "unix") to --ready, accepts one client and sends it
FILE's first --cut bytes (default all) in random chunks of --min..--max
bytes with --delay seconds between them, then closes the connection, or
with --hold keeps it open until the client goes away.
"""
import argparse
import os
import random
import socket
import time


def listen(address):
    if address.startswith("unix:"):
        path = address[5:]
        if os.path.exists(path):
            os.unlink(path)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(1)
        return s, "unix"
    host, port = address[4:].rsplit(":", 1)
    family = socket.AF_INET
    if host.startswith("["):
        host, family = host[1:-1], socket.AF_INET6
    s = socket.socket(family, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((host, int(port)))
    s.listen(1)
    return s, str(s.getsockname()[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("address")
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min", type=int, default=1)
    ap.add_argument("--max", type=int, default=4096)
    ap.add_argument("--delay", type=float, default=0.002)
    ap.add_argument("--after", type=float, default=0.0)
    ap.add_argument("--cut", type=int, default=-1)
    ap.add_argument("--hold", action="store_true")
    ap.add_argument("--ready")
    o = ap.parse_args()
    data = open(o.file, "rb").read()
    if o.cut >= 0:
        data = data[:o.cut]
    time.sleep(o.after)
    s, bound = listen(o.address)
    if o.ready:
        with open(o.ready + ".tmp", "w") as f:
            f.write(bound + "\n")
        os.rename(o.ready + ".tmp", o.ready)
    c, _ = s.accept()
    rng = random.Random(o.seed)
    pos = 0
    try:
        while pos < len(data):
            n = rng.randint(o.min, o.max)
            c.sendall(data[pos:pos + n])
            pos += n
            time.sleep(o.delay)
        if o.hold:
            while c.recv(1):
                pass
    except (BrokenPipeError, ConnectionResetError):
        pass
    c.close()
    s.close()
    if o.address.startswith("unix:"):
        os.unlink(o.address[5:])


if __name__ == "__main__":
    main()
