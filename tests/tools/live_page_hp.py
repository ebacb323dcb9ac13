#!/usr/bin/env python3
"""live_page_hp.py LIVE.json OUT.hp [--max-late S]

What the live page showed, from LIVE.json (tests/browser/live_test.js's
record):
- writes, as .hp text, the censuses the page held at its last look ("last":
  its census times and, per band, its values), for census_match.py, which
  compares censuses by content (so the header is a placeholder; a band's
  zero is not written, as GHC's .hp writes no line for it);
- prints how many censuses it saw the page hold while following, and the
  longest time between the status line counting census n and the page
  first holding n censuses.
With --max-late S, exits 1 if that time is over S seconds for any census.
"""
import json
import sys


def write_hp(last, path):
    with open(path, "w") as out:
        out.write('JOB "live page"\nDATE ""\nSAMPLE_UNIT "seconds"\n'
                  'VALUE_UNIT "bytes"\n')
        for i, t in enumerate(last["t"]):
            out.write("BEGIN_SAMPLE %s\n" % t)
            for band in last["bands"]:
                if int(band["v"][i]):
                    out.write("%s\t%s\n" % (band["name"], band["v"][i]))
            out.write("END_SAMPLE %s\n" % t)


def lateness(record):
    """(census n, seconds) for each census the status counted and the page held."""
    held = sorted(record["seen"].values())
    late = []
    for n, when in sorted((int(k), v) for k, v in record["statusAt"].items()):
        if 0 < n <= len(held):
            late.append((n, held[n - 1] - when))
    return late


def main(argv):
    if len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--max-late"):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as f:
        record = json.load(f)
    write_hp(record["last"], argv[2])
    late = lateness(record)
    worst = max(late, key=lambda p: p[1], default=(0, 0.0))
    print("%d censuses seen while following; slowest: census %d, %.1f s after the status counted it"
          % (len(record["seen"]), worst[0], worst[1]))
    if len(argv) == 5:
        over = [(n, round(s, 1)) for n, s in late if s > float(argv[4])]
        if over:
            print("shown later than %s s: %s" % (argv[4], over))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
