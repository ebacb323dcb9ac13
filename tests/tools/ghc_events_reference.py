#!/usr/bin/env python3
"""ghc_events_reference.py X.eventlog.reference HP2X.hp

Compares the censuses of a ghc-events text dump (the ghc-events library's
test oracle: "T: start heap prof sample E [at time NS]", then "T: heap prof
sample 0, residency N, label L" or "..., cost centre stack S" lines) with
the .hp text hp2x wrote from the same eventlog: the same number of
censuses, each at the same time (the event's timestamp, or the census time
of a biographical sample, to the microsecond) with the same residencies,
and for string samples the same labels.  Cost-centre samples are compared
by residency only: the dump prints stack ids, the .hp names.
Exit 0 same, 1 different, 2 usage.
"""
import re
import sys
from collections import Counter

START = re.compile(r"^(\d+): start heap prof sample \d+(?: at time (\d+))?$")
SAMPLE = re.compile(
    r"^\d+: heap prof sample \d+, residency (\d+), "
    r"(?:label (.*)|cost centre stack .*)$")


def reference(path):
    censuses = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            m = START.match(line)
            if m:
                ns = int(m.group(2) or m.group(1))
                censuses.append((ns / 1e9, Counter(), Counter()))
                continue
            m = SAMPLE.match(line)
            if m and censuses:
                _, labels, values = censuses[-1]
                values[int(m.group(1))] += 1
                if m.group(2) is not None:
                    labels[(m.group(2), int(m.group(1)))] += 1
    return censuses


def hp(path):
    censuses = []
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("BEGIN_SAMPLE "):
                censuses.append((float(line.split()[1]), Counter(), Counter()))
            elif censuses and "\t" in line:
                label, _, value = line.rpartition("\t")
                censuses[-1][1][(label, int(value))] += 1
                censuses[-1][2][int(value)] += 1
    return censuses


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    want, got = reference(argv[1]), hp(argv[2])
    problems = []
    if len(want) != len(got):
        problems.append("censuses: %d in the dump, %d from hp2x" %
                        (len(want), len(got)))
    for i, (w, g) in enumerate(zip(want, got)):
        if abs(w[0] - g[0]) > 1e-6:
            problems.append("census %d: time %f vs %f" % (i, w[0], g[0]))
        if w[2] != g[2]:
            problems.append("census %d: residencies differ" % i)
        if w[1] and w[1] != g[1]:
            problems.append("census %d: labels differ: %r" %
                            (i, dict(w[1] - g[1])))
    for p in problems[:10]:
        print(p)
    print("different" if problems else "same (%d censuses)" % len(want))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
