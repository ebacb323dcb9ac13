#!/usr/bin/env python3
"""endless_hp.py DST [--delay S] [--bands N]

Writes a .hp profile to DST ("-": standard output) that never ends: the
header, then one complete sample after another, flushing after each and
sleeping DELAY seconds between them (0: as fast as the reader takes them).
Stops quietly when the reader goes away.  For the watch-mode signal tests
(a writer faster than the watcher must not hide a stop signal from it).
"""
import argparse
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dst")
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--bands", type=int, default=8)
    a = ap.parse_args()
    out = sys.stdout.buffer if a.dst == "-" else open(a.dst, "wb")
    try:
        out.write(b'JOB "endless"\nDATE "Thu Jan  1 00:00 1970"\n'
                  b'SAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
        i = 0
        while True:
            t = i * 0.01
            lines = ["BEGIN_SAMPLE %.2f" % t]
            for b in range(a.bands):
                lines.append("band%d\t%d" % (b, 1000 + (i * (b + 1)) % 5000))
            lines.append("END_SAMPLE %.2f\n" % t)
            out.write("\n".join(lines).encode())
            out.flush()
            i += 1
            if a.delay:
                time.sleep(a.delay)
    except (BrokenPipeError, KeyboardInterrupt):
        pass


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
