#!/usr/bin/env python3
"""gen.py -- builds large benchmark inputs, deterministically, from the real
GHC profiles in samples/.

  gen.py stretch SRC.hp MB OUT.hp      repeat SRC's samples with shifted times
                                       and varied values until OUT is MB big
  gen.py shape SRC.hp SAMPLES BANDS OUT.hp
                                       SAMPLES samples x BANDS bands, labels
                                       taken (and extended) from SRC; every
                                       band in every sample, in one order
  gen.py varied SRC.hp SAMPLES BANDS OUT.hp
                                       the same, but bands come and go as in
                                       real profiles: absent in runs (mean 20
                                       samples) between present runs (mean
                                       100), so a sample holds ~5/6 of them
  gen.py eventlog IN.hp OUT.eventlog   the same samples as a GHC eventlog
                                       (HEAP_PROF_SAMPLE_STRING events, in
                                       2 MiB blocks as GHC writes them)
  gen.py deepcc CENSUSES STACKS OUT.eventlog
                                       a -hc eventlog of STACKS cost-centre
                                       stacks 100 to 255 frames deep (paths
                                       through a tree of 2,000 cost centres
                                       with source locations), every stack
                                       in every census, in GHC's blocks
"""
import random
import struct
import sys


def read_hp(path):
    header, samples, cur = [], [], None
    for raw in open(path, "rb"):
        line = raw.rstrip(b"\n")
        if line.startswith(b"BEGIN_SAMPLE"):
            cur = (float(line.split()[1]), [])
        elif line.startswith(b"END_SAMPLE"):
            if cur is not None:
                samples.append(cur)
            cur = None
        elif cur is not None:
            label, _, value = line.rpartition(b"\t")
            cur[1].append((label, int(value)))
        elif line:
            header.append(line)
    return header, samples


def write_sample(out, t, entries):
    ts = b"%.6f" % t
    out.write(b"BEGIN_SAMPLE " + ts + b"\n")
    out.write(b"".join(b"%s\t%d\n" % (l, v) for l, v in entries))
    out.write(b"END_SAMPLE " + ts + b"\n")


def stretch(src, mb, dst):
    header, samples = read_hp(src)
    samples = [s for s in samples if s[1]]
    rnd = random.Random(42)
    limit = int(mb * 1e6)
    span = samples[-1][0] - samples[0][0] + 0.01
    with open(dst, "wb") as out:
        out.write(b"\n".join(header) + b"\n")
        rep, t0 = 0, 0.0
        while out.tell() < limit:
            for t, entries in samples:
                scale = 0.5 + rnd.random()
                write_sample(out, t0 + t, [(l, max(8, int(v * scale) & ~7))
                                           for l, v in entries])
            rep += 1
            t0 = rep * span


def shape(src, n_samples, n_bands, dst, varied=False):
    """In a real profile (manycc.hc.hp: 112 labels, 28 to 128 of its 128
    samples each) a label is missing from the samples where its cost centre
    holds nothing; `varied` imitates that with two-state runs."""
    header, samples = read_hp(src)
    labels = []
    for _, entries in samples:
        for l, _ in entries:
            if l not in labels:
                labels.append(l)
    base = list(labels)
    i = 0
    while len(labels) < n_bands:
        labels.append(base[i % len(base)] + b"/%d" % i)
        i += 1
    labels = labels[:n_bands]
    rnd = random.Random(7)
    runs = random.Random(11)
    present = [True] * len(labels)
    with open(dst, "wb") as out:
        out.write(b"\n".join(header) + b"\n")
        for s in range(n_samples):
            t = s * 0.005
            if varied:
                for k in range(len(labels)):
                    if runs.random() < (0.01 if present[k] else 0.05):
                        present[k] = not present[k]
            entries = [(l, 8 * (1 + int(1000 * (1 + (k % 7)) *
                                        (1.5 + rnd.random()))))
                       for k, l in enumerate(labels) if present[k]]
            write_sample(out, t, entries)


def ev(tag, t, payload, variable):
    head = struct.pack(">HQ", tag, t)
    if variable:
        head += struct.pack(">H", len(payload))
    return head + payload


class Blocks:
    """Events framed as GHC's runtime frames them (rts/eventlog/EventLog.c):
    a buffer of EVENT_LOG_SIZE (2 MiB) that starts with a block marker
    (type 18: the block's size counting the marker itself, the time of its
    last event, the capability: 0xffff for the global buffer, where the
    heap profile's events go), written out when the next event does not
    fit; the data-end marker goes into the last block and counts in its
    size (GHC 9.2 and later)."""
    SIZE = 2 * 1024 * 1024
    MARKER = 24

    def __init__(self, out, cap=0xFFFF):
        self.out, self.cap = out, cap
        self.body, self.n, self.t0, self.t1 = [], 0, None, 0

    def flush(self, tail=b""):
        size = self.MARKER + self.n + len(tail)
        self.out.write(struct.pack(">HQIQH", 18, self.t0 or 0, size, self.t1,
                                   self.cap))
        self.out.write(b"".join(self.body) + tail)
        self.body, self.n, self.t0 = [], 0, None

    def add(self, t, data):
        if self.MARKER + self.n + len(data) > self.SIZE:
            self.flush()
        if self.t0 is None:
            self.t0 = t
        self.body.append(data)
        self.n += len(data)
        self.t1 = t

    def end(self):
        if self.MARKER + self.n + 2 > self.SIZE:
            self.flush()
        self.flush(struct.pack(">H", 0xFFFF))


def eventlog_head(f, sample_type, args, breakdown):
    """Writes an eventlog's header to f; returns its blocks, holding the
    program arguments and HEAP_PROF_BEGIN: the events up to the first
    census."""
    types = [(160, -1, b"Start of heap profile"),
             (161, -1, b"Cost centre definition"),
             (162, 8, b"Start of heap profile sample"),
             sample_type,
             (165, 8, b"End of heap profile sample"),
             (30, -1, b"Program arguments"),
             (18, 14, b"Block marker")]
    out = bytearray(b"hdrbhetb")
    for tag, size, desc in types:
        out += b"etb\0" + struct.pack(">Hh", tag, size)
        out += struct.pack(">I", len(desc)) + desc + struct.pack(">I", 0)
        out += b"ete\0"
    out += b"hetehdredatb"
    f.write(out)
    blocks = Blocks(f)
    blocks.add(0, ev(30, 0, struct.pack(">I", 0) + args, True))
    blocks.add(0, ev(160, 0, b"\0" + struct.pack(">QI", 100000000, breakdown)
                     + b"\0" * 7, True))
    return blocks


def eventlog(src, dst):
    header, samples = read_hp(src)
    with open(dst, "wb") as f:
        blocks = eventlog_head(f, (164, -1, b"Heap profile string sample"),
                               b"bench\0", 7)
        for t, entries in samples:
            ns = int(t * 1e9)
            blocks.add(ns, ev(162, ns, struct.pack(">Q", 0), False))
            for l, v in entries:
                blocks.add(ns, ev(164, ns, b"\0" + struct.pack(">Q", v) + l +
                                  b"\0", True))
            blocks.add(ns, ev(165, ns, struct.pack(">Q", 0), False))
        blocks.end()


def deepcc(n_censuses, n_stacks, dst):
    rnd = random.Random(7)
    stacks = []
    for k in range(n_stacks):  # innermost first: a path from the root up
        depth = rnd.randint(100, 255)
        path = [1 + (k * 7 + d * 13 + rnd.randint(0, 3)) % 2000
                for d in range(depth)]
        stacks.append((struct.pack(">B", depth) +
                       b"".join(struct.pack(">I", c) for c in reversed(path)),
                       rnd.randint(1, 1000)))
    with open(dst, "wb") as f:
        blocks = eventlog_head(f, (163, -1, b"Heap profile cost-centre sample"),
                               b"deep\0+RTS\0-hc\0", 1)
        for i in range(1, 2001):  # cost centre i in module Mod(i / 50)
            blocks.add(0, ev(161, 0, struct.pack(">I", i) +
                             b"fn%d\0Mod%d\0src/Mod%d.hs:%d:1-30\0\0"
                             % (i, i // 50, i // 50, 10 * (i % 50) + 1), True))
        for c in range(n_censuses):
            ns = c * 100000000
            blocks.add(ns, ev(162, ns, struct.pack(">Q", 0), False))
            for ids, base in stacks:
                v = 8 * base * (1 + c % 17)
                blocks.add(ns, ev(163, ns, b"\0" + struct.pack(">Q", v) + ids,
                                  True))
            blocks.add(ns, ev(165, ns, struct.pack(">Q", 0), False))
        blocks.end()


def main(argv):
    if len(argv) >= 5 and argv[1] == "stretch":
        stretch(argv[2], float(argv[3]), argv[4])
    elif len(argv) >= 6 and argv[1] == "shape":
        shape(argv[2], int(argv[3]), int(argv[4]), argv[5])
    elif len(argv) >= 6 and argv[1] == "varied":
        shape(argv[2], int(argv[3]), int(argv[4]), argv[5], varied=True)
    elif len(argv) >= 4 and argv[1] == "eventlog":
        eventlog(argv[2], argv[3])
    elif len(argv) >= 5 and argv[1] == "deepcc":
        deepcc(int(argv[2]), int(argv[3]), argv[4])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
