#!/usr/bin/env python3
"""eventlog_client.py: one eventlog-socket client, for the live check.

    eventlog_client.py ADDRESS OUT [--after S] [--stall S] [--for S] [--give-up S]

ADDRESS is unix:PATH or tcp:HOST:PORT.  Waits S seconds (--after), then connects,
retrying every 0.05 s while the service is not up (up to --give-up seconds), and writes
every byte received to OUT as it comes.  It hangs up after --for seconds of reading, or
reads until the service closes the connection when --for is not given.  With --stall it
reads nothing for its first S seconds (a client too slow for the service).  Prints one line:
OUT, the bytes received, and whether it hung up or the service closed.
"""

import argparse
import socket
import sys
import time


def connect(address, give_up):
    if address.startswith("unix:"):
        family, target = socket.AF_UNIX, address[5:]
    elif address.startswith("tcp:"):
        host, _, port = address[4:].rpartition(":")
        family, target = socket.AF_INET, (host, int(port))
    else:
        raise SystemExit("eventlog_client: address must be unix:PATH or tcp:HOST:PORT")
    deadline = time.monotonic() + give_up
    while True:
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.connect(target)
            return sock
        except OSError:
            sock.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("address")
    ap.add_argument("out")
    ap.add_argument("--after", type=float, default=0.0)
    ap.add_argument("--stall", type=float, default=0.0)
    ap.add_argument("--for", dest="duration", type=float, default=None)
    ap.add_argument("--give-up", type=float, default=30.0)
    args = ap.parse_args()
    time.sleep(args.after)
    try:
        sock = connect(args.address, args.give_up)
    except OSError as e:
        print("%s: no connection to %s: %s" % (args.out, args.address, e.strerror or e))
        return 1
    time.sleep(args.stall)
    start = time.monotonic()
    sock.settimeout(0.05)
    received, how = 0, "service closed"
    with open(args.out, "wb") as out:
        while True:
            if args.duration is not None and time.monotonic() - start >= args.duration:
                how = "client hung up"
                break
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                continue
            except ConnectionResetError:
                how = "connection reset"
                break
            if not chunk:
                break
            out.write(chunk)
            out.flush()
            received += len(chunk)
    sock.close()
    print("%s: %d bytes, %s after %.2f s" % (args.out, received, how, time.monotonic() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
