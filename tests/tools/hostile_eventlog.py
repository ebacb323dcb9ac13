#!/usr/bin/env python3
"""hostile_eventlog.py OUT.eventlog OUT.hp -- a -hc eventlog (GHC 9.10's
layout, from mkeventlog.py's pieces) and a .hp of hostile labels, for
tests/e2e/test_pprof.sh: cost centres named with '/', with bytes that are
not UTF-8 and control characters, one of 5,000 bytes; a stack 255 frames
deep; two stacks that print alike (two cost centres of one name, module
and location); a stack of depth 0; an id never declared.  The .hp holds
labels of the same kinds: not UTF-8, 5,000 bytes, "(N)" stacks with '/'.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkeventlog import GLOBAL, Log, ev, header, heap_begin  # noqa: E402


def cc(i, label, module, loc):
    return ev(161, 3000, struct.pack(">I", i) + label + b"\0" + module +
              b"\0" + loc + b"\0" + b"\0")


CCS = [(1, b"parse/json", b"Main", b"h.hs:10:1-20"),
       (2, b"bad\xff\xfe\x01utf", b"M\xc3od", b"h.hs:(11,1)-(12,9)"),
       (3, b"twin", b"Main", b"h.hs:13:1-4"),
       (4, b"twin", b"Main", b"h.hs:13:1-4"),
       (5, b"x" * 5000, b"Long", b"<no location info>"),
       (6, b"CAF", b"Main", b"<entire-module>")]
CCS += [(100 + d, b"f%d" % d, b"Deep", b"deep.hs:%d:1-9" % (d + 1))
        for d in range(255)]
STACKS = [([100 + d for d in range(255)], 255000),   # 255 frames deep
          ([1, 2, 6], 5000),                         # '/', not UTF-8, CAF
          ([3, 1], 3000), ([4, 1], 3100),            # alike, two samples
          ([5], 7000),                               # a 5,000-byte name
          ([], 900),                                 # MAIN
          ([999, 1], 100)]                           # never declared


def write_eventlog(path):
    log = Log("9.10")
    args = [b"hostile", b"+RTS", b"-hc", b"-l", b"-RTS"]
    info = [ev(43, 1000, struct.pack(">IQI", 0, 1700000000, 0)),
            ev(30, 1000, struct.pack(">I", 0) + b"".join(a + b"\0"
                                                         for a in args))]
    log.block(GLOBAL, info + [heap_begin(2000, 1)] +
              [cc(*c) for c in CCS])
    for k, t in enumerate((100000000, 200000000)):
        evs = [ev(162, t, struct.pack(">Q", 0))]
        for ids, value in STACKS:
            evs.append(ev(163, t + 1, struct.pack(">BQB", 0, value + k,
                                                  len(ids)) +
                          b"".join(struct.pack(">I", i) for i in ids)))
        evs.append(ev(165, t + 2, struct.pack(">Q", 0)))
        log.block(GLOBAL, evs)
    data, _ = log.data()
    with open(path, "wb") as out:
        out.write(header("9.10") + data)


def write_hp(path):
    labels = [(b"(10)bad\xff\xfe\x01/parse/json", 5000),
              (b"(11)" + b"y" * 5000, 7000),
              (b"(12)a/b/c...", 300),
              (b"MAIN", 900),
              (b"plain \x80\x81", 11)]
    with open(path, "wb") as out:
        out.write(b'JOB "hostile +RTS -hc -RTS"\nDATE "d"\n'
                  b'SAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
                  b'BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n'
                  b'BEGIN_SAMPLE 1.00\n')
        out.write(b"".join(l + b"\t%d\n" % v for l, v in labels))
        out.write(b"END_SAMPLE 1.00\n")


if __name__ == "__main__":
    write_eventlog(sys.argv[1])
    write_hp(sys.argv[2])
