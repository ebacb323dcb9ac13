#!/usr/bin/env python3
"""stdin_flags.py HP2X PROFILE

Runs `HP2X --watch -` on a pipe and on a socket (a terminal's stand-in)
whose other end this script holds, and checks that the file status flags
of standard input's open file description, shared with this script, are
the same while hp2x runs and after it ends as before: after the end of the
input, a SIGTERM, --idle-exit and a bad input.  Prints one line per
failure; exits 1 on any.
"""
import fcntl
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

hp2x, profile = sys.argv[1], sys.argv[2]
data = open(profile, "rb").read()
failures = 0


def flags(fd):
    return fcntl.fcntl(fd, fcntl.F_GETFL)


def check(what, fd, before):
    global failures
    now = flags(fd)
    if now != before:
        print("FAIL: %s: standard input's flags %#o, were %#o" % (what, now, before))
        failures += 1


def wait_for(path, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        time.sleep(0.01)
    return False


def run(kind, how, out):
    if kind == "pipe":
        r, w = os.pipe()
        write = lambda b: os.write(w, b)
        close_writer = lambda: os.close(w)
    else:
        a, b = socket.socketpair()
        r = a.detach()
        write = b.sendall
        close_writer = b.close
    before = flags(r)
    args = [hp2x, "--watch", "-q", "--interval=0.05", "-", "-o", out]
    if how == "idle":
        args.insert(2, "--idle-exit=0.3")
    p = subprocess.Popen(args, stdin=r, stderr=subprocess.DEVNULL)
    what = "%s, %s" % (kind, how)
    if how == "bad":
        write(b"this is not a heap profile\n")
    else:
        write(data)
    if how != "bad":
        if not wait_for(out):
            print("FAIL: %s: no output" % what)
            global failures
            failures += 1
        check(what + ", while running", r, before)
    if how == "end":
        close_writer()
    elif how == "signal":
        p.send_signal(signal.SIGTERM)
    rc = p.wait(timeout=20)
    want = 1 if how == "bad" else 0
    if rc != want:
        print("FAIL: %s: exit %d, wanted %d" % (what, rc, want))
        failures += 1
    check(what + ", after the exit", r, before)
    if how != "end":
        close_writer()
    os.close(r)


with tempfile.TemporaryDirectory() as d:
    for kind in ("pipe", "socket"):
        for how in ("end", "signal", "idle", "bad"):
            run(kind, how, os.path.join(d, "%s-%s.csv" % (kind, how)))
sys.exit(1 if failures else 0)
