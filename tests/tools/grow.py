#!/usr/bin/env python3
"""grow.py SRC DST [--seed N] [--min B] [--max B] [--delay S] [--start B]

Writes SRC to DST the way a running program does: in uneven chunks (split
anywhere: mid-line, mid-event), flushing after each, sleeping DELAY seconds
between chunks.  --start writes that many bytes at once first.  Prints
nothing; exits when everything is written.  For the watch-mode tests.
"""
import argparse
import random
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min", type=int, default=1)
    ap.add_argument("--max", type=int, default=4096)
    ap.add_argument("--delay", type=float, default=0.01)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--append", action="store_true")
    a = ap.parse_args()
    data = open(a.src, "rb").read()
    rnd = random.Random(a.seed)
    with open(a.dst, "ab" if a.append else "wb") as out:
        pos = min(a.start, len(data))
        out.write(data[:pos])
        out.flush()
        while pos < len(data):
            n = rnd.randint(a.min, a.max)
            out.write(data[pos:pos + n])
            out.flush()
            pos += n
            time.sleep(a.delay)
    return 0


if __name__ == "__main__":
    sys.exit(main())
