#!/usr/bin/env python3
"""live_page_hp.py LIVE.json OUT.hp

Writes, as .hp text, the censuses the live page held at its last look:
LIVE.json is what tests/browser/live_test.js records ("last": the page's
census times and, per band, its values).  A band's zero is not written, as
GHC's .hp writes no line for it.  The result is for census_match.py, which
compares censuses by content, so the header is a placeholder.
"""
import json
import sys


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        last = json.load(f)["last"]
    with open(sys.argv[2], "w") as out:
        out.write('JOB "live page"\nDATE ""\nSAMPLE_UNIT "seconds"\n'
                  'VALUE_UNIT "bytes"\n')
        for i, t in enumerate(last["t"]):
            out.write("BEGIN_SAMPLE %s\n" % t)
            for band in last["bands"]:
                if int(band["v"][i]):
                    out.write("%s\t%s\n" % (band["name"], band["v"][i]))
            out.write("END_SAMPLE %s\n" % t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
