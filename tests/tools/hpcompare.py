#!/usr/bin/env python3
"""hpcompare.py [--strip-ids] [--skip-empty] [--ignore-times] A.hp B.hp

Compares two .hp heap profiles sample by sample.  Two profiles are the same
when they have the same number of complete samples and each pair of samples
holds the same multiset of (label, bytes) entries (the order of entries in a
sample does not matter; GHC writes them in no fixed order), with times equal
to the microsecond unless --ignore-times.
  --strip-ids     drop a leading "(digits)" from labels: GHC's cost-centre
                  stack number, which an eventlog does not record
  --skip-empty    leave out samples with no entries (GHC's .hp has an empty
                  first and last sample that the eventlog does not)
  --prefix        A may have fewer samples than B: they must be B's first
                  ones (a cut-short profile against the whole)
  --lost-one      A lacks exactly one of B's samples (a census lost to a
                  corrupt stretch), all others the same and in order;
                  prints "lost sample N (time T in B)", N counted from 1
Works on bytes: labels need not be UTF-8.  Exit 0 same, 1 different, 2 usage.
"""
import re
import sys
from collections import Counter

ID = re.compile(rb"^\(\d+\)")


def samples(path, strip_ids):
    out, cur = [], None
    with open(path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # an incomplete last line is not part of the profile
            line = raw[:-1].rstrip(b"\r")
            if line.startswith(b"BEGIN_SAMPLE "):
                cur = (float(line.split()[1]), Counter())
            elif line.startswith(b"END_SAMPLE "):
                if cur is not None:
                    out.append(cur)
                cur = None
            elif cur is not None and line.strip():
                label, _, value = line.rpartition(b"\t")
                if strip_ids:
                    label = ID.sub(b"", label)
                cur[1][label] += int(value)
    return out


def main(argv):
    opts = {a for a in argv[1:] if a.startswith("--")}
    files = [a for a in argv[1:] if not a.startswith("--")]
    known = {"--strip-ids", "--skip-empty", "--ignore-times", "--prefix",
             "--lost-one"}
    if len(files) != 2 or opts - known:
        sys.stderr.write(__doc__)
        return 2
    a, b = (samples(f, "--strip-ids" in opts) for f in files)
    if "--skip-empty" in opts:
        a = [s for s in a if s[1]]
        b = [s for s in b if s[1]]
    problems = []
    if "--lost-one" in opts:
        if len(a) + 1 != len(b):
            print("sample count: %d vs %d, wanted one fewer" % (len(a), len(b)))
            print("different")
            return 1
        # the first sample of B that A does not have at the same place
        k = next((i for i, (sa, sb) in enumerate(zip(a, b))
                  if sa[1] != sb[1]), len(a))
        print("lost sample %d (time %f in B)" % (k + 1, b[k][0]))
        b = b[:k] + b[k + 1:]
    if "--prefix" in opts and len(a) <= len(b):
        b = b[:len(a)]
    if len(a) != len(b):
        problems.append("sample count: %d vs %d" % (len(a), len(b)))
    for i, (sa, sb) in enumerate(zip(a, b)):
        if "--ignore-times" not in opts and abs(sa[0] - sb[0]) > 1e-6:
            problems.append("sample %d: time %f vs %f" % (i, sa[0], sb[0]))
        if sa[1] != sb[1]:
            only_a = sa[1] - sb[1]
            only_b = sb[1] - sa[1]
            problems.append("sample %d: only in A %r, only in B %r" %
                            (i, dict(only_a), dict(only_b)))
    for p in problems[:10]:
        print(p)
    print("different" if problems else "same (%d samples)" % len(a))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
