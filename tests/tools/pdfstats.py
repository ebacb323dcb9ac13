#!/usr/bin/env python3
"""pdfstats.py -- facts about hp2x's PDFs and their rasters, for the tests.

  pdfstats.py points FILE.pdf      line-to points in the content streams
  pdfstats.py inflate FILE.pdf     the PDF with each compressed stream
                                   inflated in place, to standard output: its
                                   objects readable wherever cairo put them
                                   (cairo 1.18 writes them into compressed
                                   object streams; 1.16 plainly)
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


def pieces(path):
    """The PDF's bytes in order, each compressed stream's data inflated
    (streams that do not inflate are left as they are)."""
    data = open(path, "rb").read()
    at = 0
    for m in re.finditer(rb"stream\r?\n", data):
        if m.start() < at or data[m.start() - 3:m.start()] == b"end":
            continue
        d = zlib.decompressobj()
        try:
            body = d.decompress(data[m.end():])
        except zlib.error:
            continue
        yield data[at:m.end()]
        yield body
        at = len(data) - len(d.unused_data)
    yield data[at:]


def points(path):
    return sum(len(re.findall(rb"[0-9.] l\b", p)) for p in pieces(path))


def pgm(path):
    parts = open(path, "rb").read().split(maxsplit=4)
    if parts[0] != b"P5":
        raise SystemExit("%s: not a binary PGM" % path)
    return int(parts[1]), int(parts[2]), parts[4]


def main(argv):
    if len(argv) == 3 and argv[1] == "points":
        print(points(argv[2]))
    elif len(argv) == 3 and argv[1] == "inflate":
        for p in pieces(argv[2]):
            sys.stdout.buffer.write(p)
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
