#!/usr/bin/env python3
"""census_match.py RUN.hp GOT.hp [--count N] [--prefix-of WHOLE.hp]

Checks the censuses hp2x read from a stream (GOT.hp: hp2x's .hp output of
it) against the run's own .hp (RUN.hp), as a stream joined mid-run must
match: each census of GOT equals one census of RUN by content (the multiset
of label -> bytes; the order of lines in a census does not matter), and
they are consecutive censuses of RUN, in order.  Times are not compared: a
stream's are the runtime's clock, the .hp's count mutator time.
  --count N          GOT must hold exactly N censuses (an independent count
                     of the stream's complete censuses)
  --prefix-of WHOLE  GOT's censuses must be WHOLE's first ones, times
                     included (a cut stream against the whole stream)
census_match.py RUN.hp --batch LIST [--prefix-of WHOLE.hp]
  the same check of many GOTs, RUN and WHOLE read once: LIST's lines are
  "GOT.hp N" (N as --count's; - for none); prints "GOT.hp: " and the line
  the check of that one alone prints (what differs: its lines joined by
  "; ", the last "different"), and exits 1 when any differs.
Prints "N censuses, each equal to one of RUN's, in order: RUN's censuses
I..J (0-based) of M" and exits 0, or says what differs and exits 1 (2 on a
usage error).  An incomplete last line or census is not part of a .hp.
Works on bytes: labels need not be UTF-8.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hpcompare import samples  # noqa: E402  (the one .hp census reader)


def censuses(path):
    """The complete censuses of a .hp file: (time, Counter(label -> bytes))."""
    return samples(path, strip_ids=False)


def match_consecutive(got, run):
    """Where in run got's censuses are, as consecutive ones by content: the
    index of got[0] in run, or a description of the first mismatch."""
    if not got:
        return None, "no census read"
    starts = [i for i, (_, c) in enumerate(run) if c == got[0][1]]
    if not starts:
        return None, "census 0 (time %.6f) equals none of the run's" % got[0][0]
    best = (0, starts[0])
    for s in starts:
        k = 0
        while k < len(got) and s + k < len(run) and run[s + k][1] == got[k][1]:
            k += 1
        if k == len(got):
            return s, None
        best = max(best, (k, s))
    k, s = best
    where = ("the run's census %d" % (s + k)) if s + k < len(run) else "the run's end"
    rest = [i for i, (_, c) in enumerate(run) if c == got[k][1]]
    return None, ("census %d (time %.6f) is not %s%s" %
                  (k, got[k][0], where,
                   "; it equals the run's census %d" % rest[0] if rest
                   else "; it equals none of the run's"))


def check(run, got, count, whole, whole_name):
    """What differs between got's censuses and run's (and whole's): a list,
    empty when none; and the line that says how they match."""
    problems = []
    if count is not None and len(got) != count:
        problems.append("%d censuses read, wanted %d" % (len(got), count))
    if whole is not None:
        if len(got) > len(whole) or any(
                abs(g[0] - w[0]) > 1e-6 or g[1] != w[1]
                for g, w in zip(got, whole)):
            problems.append("not the first %d censuses of %s" % (len(got), whole_name))
    at = None
    if got or count != 0:
        at, why = match_consecutive(got, run)
        if why:
            problems.append(why)
    if problems or not got:
        return problems, "0 censuses"
    return problems, ("%d censuses, each equal to one of RUN's, in order: RUN's censuses "
                      "%d..%d (0-based) of %d" % (len(got), at, at + len(got) - 1, len(run)))


def batch(run, listing, whole, whole_name):
    """Each line "GOT N" of listing checked; 1 when any differs."""
    status = 0
    for line in open(listing, encoding="utf-8"):
        if not line.strip():
            continue
        name, n = line.split()
        try:
            got = censuses(name)
        except OSError as e:
            print("%s: cannot read: %s; different" % (name, e.strerror))
            status = 1
            continue
        problems, says = check(run, got, None if n == "-" else int(n), whole, whole_name)
        print("%s: %s" % (name, "; ".join(problems + ["different"]) if problems else says))
        status |= 1 if problems else 0
    return status


def main(argv):
    args, count, prefix_of, listing = [], None, None, None
    it = iter(argv[1:])
    for a in it:
        if a == "--count":
            count = int(next(it, "-1"))
        elif a == "--prefix-of":
            prefix_of = next(it, None)
        elif a == "--batch":
            listing = next(it, None)
        elif a.startswith("--"):
            args = []
            break
        else:
            args.append(a)
    if len(args) != (1 if listing else 2) or (count is not None and count < 0) or \
            (prefix_of is None and "--prefix-of" in argv) or \
            (listing is None and "--batch" in argv) or (listing and count is not None):
        sys.stderr.write(__doc__)
        return 2
    run = censuses(args[0])
    whole = censuses(prefix_of) if prefix_of is not None else None
    if listing:
        return batch(run, listing, whole, prefix_of)
    problems, says = check(run, censuses(args[1]), count, whole, prefix_of)
    if problems:
        for p in problems:
            print(p)
        print("different")
        return 1
    print(says)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
