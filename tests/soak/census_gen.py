#!/usr/bin/env python3
"""census_gen.py -- the hour soak's service (tests/soak/soak_serve.sh): a
stand-in for a GHC program serving its eventlog on a Unix socket, writing
RATE heap censuses a second for as long as it runs.

  census_gen.py SOCKET EVENTLOG RATE LOG [--after S] [--seed N]

EVENTLOG is a real GHC eventlog with heap censuses (the soak uses
tests/data/live/ghc9.10.3-longrun.from-start.eventlog, 16 censuses of 45
or 46 bands).  Real GHC writes censuses in blocks of the runtime's global
buffer: a block marker (18, capability 0xffff) whose size covers
HEAP_PROF_SAMPLE_BEGIN (162), a HEAP_PROF_SAMPLE_STRING (164) per band and
HEAP_PROF_SAMPLE_END (165); a block holds one census when the buffer is
flushed between censuses, as in a service's stream, and each census here
is sent so (the recording's blocks of several are split, the events'
bytes as they are).  After --after seconds this listens on SOCKET, accepts one client
and sends it the EVENTLOG's bytes before its first census (the header and
the runtime's opening events, verbatim), then census k (k = 1, 2, ...)
every 1/RATE s: the k-th of the EVENTLOG's census blocks, taken in turn,
with every time (the marker's, its end time, each event's) moved to the
time since the generator began (the runtime's clock, in ns) and the era
of 162 set to k.  One census in four is sent in two writes split at a
random byte, 5 ms apart, so the reader gets it cut inside an event.  A
stop (SIGSTOP) leaves a gap in time, not a burst: after a delay of more
than a second the pace starts again from now.  On SIGTERM or SIGINT it
ends the census it is writing, sends the data-end marker (0xffff) as a
runtime that exits does, and closes.

LOG gets "censuses N" about once a second while it runs and, at the end,
"censuses N", "bytes B" and "sha256 HEX" of everything sent (the soak
compares the last with hp2x's --tee file).
"""
import argparse
import hashlib
import os
import random
import signal
import socket
import struct
import sys
import time

VARIABLE = 0xFFFF
BLOCK, BEGIN, STRING, END = 18, 162, 164, 165


def event_sizes(d):
    """The header's event sizes and where the events begin."""
    if d[:8] != b"hdrbhetb":
        sys.exit("census_gen: not an eventlog")
    pos, sizes = 8, {}
    while d[pos:pos + 4] != b"hete":
        num, size, dlen = struct.unpack_from(">HHI", d, pos + 4)
        pos += 12 + dlen
        (elen,) = struct.unpack_from(">I", d, pos)
        pos += 4 + elen + 4
        sizes[num] = size
    return sizes, pos + 12


def events(d, sizes, pos):
    """(offset, type, time offset, payload offset, payload length, end)."""
    while pos + 2 <= len(d):
        (num,) = struct.unpack_from(">H", d, pos)
        if num == 0xFFFF:
            return
        body = pos + 10
        if sizes[num] == VARIABLE:
            (plen,) = struct.unpack_from(">H", d, body)
            body += 2
        else:
            plen = sizes[num]
        yield pos, num, body, plen, body + plen
        pos = body + plen


def census_blocks(d):
    """The bytes before the first census, and each census as GHC writes a
    block holding one: (bytes, [offsets of its times], era offset, t0)."""
    sizes, pos = event_sizes(d)
    blocks, prefix_end, marker, begin = [], None, None, None
    for off, num, body, plen, end in events(d, sizes, pos):
        if num == BLOCK:
            marker = off
        elif num == BEGIN:
            if prefix_end is None:
                prefix_end = marker if marker is not None else off
            begin = off
        elif num == END and begin is not None:
            evs = d[begin:end]
            (t0,) = struct.unpack_from(">Q", d, begin + 2)
            (t1,) = struct.unpack_from(">Q", d, off + 2)
            # the marker: type, time, its payload (the block's size from
            # the marker's first byte, the end time, capability 0xffff)
            blk = struct.pack(">HQIQH", BLOCK, t0, 24 + len(evs), t1, 0xFFFF) + evs
            times, era = [2, 14], None
            for o, n, b, _, _ in events(blk, sizes, 24):
                times.append(o + 2)
                if n == BEGIN:
                    era = b
            blocks.append((blk, times, era, t0))
            begin = None
    if not blocks:
        sys.exit("census_gen: no censuses")
    return d[:prefix_end], blocks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("socket")
    ap.add_argument("eventlog")
    ap.add_argument("rate", type=float)
    ap.add_argument("log")
    ap.add_argument("--after", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    o = ap.parse_args()
    prefix, blocks = census_blocks(open(o.eventlog, "rb").read())
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    began = time.monotonic()
    (t_base,) = struct.unpack_from(">Q", blocks[0][0], 2)
    time.sleep(o.after)
    if os.path.exists(o.socket):
        os.unlink(o.socket)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(o.socket)
    srv.listen(1)
    srv.settimeout(0.2)  # so that a stop before any client ends it
    c = None
    while c is None and not stop:
        try:
            c, _ = srv.accept()
        except socket.timeout:
            pass
    if c is None:
        srv.close()
        os.unlink(o.socket)
        open(o.log, "a").write("no client came\ncensuses 0\n")
        return
    c.settimeout(None)
    rng, sha, sent, k = random.Random(o.seed), hashlib.sha256(), 0, 0
    log = open(o.log, "a")

    def send(b):
        nonlocal sent
        c.sendall(b)
        sha.update(b)
        sent += len(b)

    def census(k):
        blk, times, era, t0 = blocks[(k - 1) % len(blocks)]
        b = bytearray(blk)
        now = t_base + int((time.monotonic() - began) * 1e9)
        for at in times:
            (t,) = struct.unpack_from(">Q", blk, at)
            struct.pack_into(">Q", b, at, now + max(0, t - t0))
        struct.pack_into(">Q", b, era, k)
        return bytes(b)

    try:
        send(prefix)
        due, said = time.monotonic(), time.monotonic()
        while not stop:
            k += 1
            b = census(k)
            if rng.random() < 0.25:
                cut = rng.randint(1, len(b) - 1)
                send(b[:cut])
                time.sleep(0.005)
                send(b[cut:])
            else:
                send(b)
            now = time.monotonic()
            if now - said >= 1:
                log.write("censuses %d\n" % k)
                log.flush()
                said = now
            due += 1 / o.rate
            if now - due > 1:
                due = now  # stopped: a gap, not a burst
            if due > now:
                time.sleep(due - now)
        send(b"\xff\xff")
    except (BrokenPipeError, ConnectionResetError):
        log.write("client went away\n")
    c.close()
    srv.close()
    os.unlink(o.socket)
    log.write("censuses %d\nbytes %d\nsha256 %s\n" % (k, sent, sha.hexdigest()))
    log.close()


if __name__ == "__main__":
    main()
