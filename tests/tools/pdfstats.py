#!/usr/bin/env python3
"""pdfstats.py -- facts about hp2x's PDFs and their rasters, for the tests.

  pdfstats.py points FILE.pdf      line-to points in the content streams
  pdfstats.py pgmdiff A.pgm B.pgm  "PIXELS DIFFERING LARGEST MEAN TOPS" of two
                                   greyscale rasters of the same size (binary
                                   PGM): pixel counts, the largest and the mean
                                   difference (of 255), and the largest shift,
                                   in pixels, of a column's topmost dark pixel
                                   (where a peak would be lost)
"""
import re
import sys
import zlib


def points(path):
    data = open(path, "rb").read()
    n = 0
    for m in re.finditer(rb"stream\r?\n", data):
        end = data.find(b"endstream", m.end())
        try:
            n += len(re.findall(rb"[0-9.] l\b", zlib.decompress(data[m.end():end])))
        except zlib.error:
            pass
    return n


def pgm(path):
    parts = open(path, "rb").read().split(maxsplit=4)
    if parts[0] != b"P5":
        raise SystemExit("%s: not a binary PGM" % path)
    return int(parts[1]), int(parts[2]), parts[4]


def main(argv):
    if len(argv) == 3 and argv[1] == "points":
        print(points(argv[2]))
    elif len(argv) == 4 and argv[1] == "pgmdiff":
        wa, ha, a = pgm(argv[2])
        wb, hb, b = pgm(argv[3])
        if (wa, ha) != (wb, hb):
            raise SystemExit("sizes differ")
        d = [abs(x - y) for x, y in zip(a, b) if x != y]
        tops = 0
        for c in range(wa):
            ta = next((r for r in range(ha) if a[r * wa + c] < 128), ha)
            tb = next((r for r in range(ha) if b[r * wa + c] < 128), ha)
            tops = max(tops, abs(ta - tb))
        print(wa * ha, len(d), max(d) if d else 0,
              "%.3f" % (sum(d) / (wa * ha)), tops)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
