#!/usr/bin/env python3
"""palette_slots.py -- how src/select/colour.c's 24 label-palette colours were chosen.

Candidates: sRGB colours with channels in steps of 3/99 (the palette stores
99ths) whose CIELAB lightness is 35 to 92.  The distance of two colours is
the least CIEDE2000 difference over normal vision and simulated
protanopia, deuteranopia and tritanopia (colour_check.py).  Start from the
seven Okabe-Ito colours (black left out), then add, 17 times, the
candidate farthest from every colour chosen and from black and white.
Prints the slots sorted as colour.c lists them (by hue, near-greys last)
and the least distances.  Takes about 15 seconds.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from colour_check import de2000, lab, views  # noqa: E402

OKABE_ITO = ["E69F00", "56B4E9", "009E73", "F0E442", "0072B2", "D55E00",
             "CC79A7"]


def dist(v1, v2):
    return min(de2000(a, b) for a, b in zip(v1, v2))


def main():
    cands = []
    for r in range(0, 100, 3):
        for g in range(0, 100, 3):
            for b in range(0, 100, 3):
                v = views((r / 99, g / 99, b / 99))
                if 35 <= v[0][0] <= 92:
                    cands.append(((r, g, b), v))
    white, black = views((1, 1, 1)), views((0, 0, 0))
    far = [min(dist(v, white), dist(v, black)) for _, v in cands]
    chosen = []

    def take(c, v):
        chosen.append(c)
        for j, (_, w) in enumerate(cands):
            far[j] = min(far[j], dist(w, v))

    for h in OKABE_ITO:
        c = tuple(round(int(h[i:i + 2], 16) / 255 * 99) for i in (0, 2, 4))
        take(c, views(tuple(x / 99 for x in c)))
    while len(chosen) < 24:
        i = max(range(len(cands)), key=lambda i: far[i])
        take(*cands[i])

    def order(c):
        _, a, b = lab(tuple(x / 99 for x in c))
        chroma, hue = math.hypot(a, b), math.degrees(math.atan2(b, a)) % 360
        return (1, lab(tuple(x / 99 for x in c))[0]) if chroma < 10 else (0, hue)

    for c in sorted(chosen, key=order):
        print("    {%d, %d, %d}," % c)
    vs = [views(tuple(x / 99 for x in c)) for c in chosen]
    pairs = [(i, j) for i in range(len(vs)) for j in range(i)]
    print("least CIEDE2000: %.2f all views, %.2f normal vision" % (
        min(dist(vs[i], vs[j]) for i, j in pairs),
        min(de2000(vs[i][0], vs[j][0]) for i, j in pairs)))


if __name__ == "__main__":
    main()
