#!/usr/bin/env python3
"""colour_check.py -- colour distances for the tests, independent of hp2x's C.

  colour_check.py selftest
      CIEDE2000 against Sharma, Wu and Dalal's published test pairs.
  colour_check.py svg MIN_NORMAL MIN_CVD FILE.svg...
      Every fill colour of each SVG other than black and white is a band
      colour (cairo 1.16 writes fill:rgb(R%,G%,B%), 1.18
      fill="rgb(R%, G%, B%)").  Prints the least CIEDE2000
      difference between two of them under normal vision and under
      simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira
      and Fernandes 2009, severity 1, on linear RGB) and exits 1 when a
      picture's least difference is below MIN_NORMAL (normal vision) or
      MIN_CVD (the worst of the three simulations).
  colour_check.py key FILE.pdf
      For each page (rendered at 72 dpi by pdftoppm, words placed by
      pdftotext -bbox), the key: every word with a key box 12 pt to its
      left, top to bottom, as "page<TAB>label<TAB>#rrggbb" lines.
"""
import math
import re
import subprocess
import sys
import tempfile


def _lin(c):
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _unlin(c):
    c = min(max(c, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def lab(rgb):
    """sRGB (0..1) to CIELAB, D65."""
    r, g, b = (_lin(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def de2000(lab1, lab2):
    """CIEDE2000 colour difference (Sharma, Wu, Dalal 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    else:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dhhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbp = (h1p + h2p + 360) / 2
    else:
        hbp = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbp - 30))
         + 0.24 * math.cos(math.radians(2 * hbp))
         + 0.32 * math.cos(math.radians(3 * hbp + 6))
         - 0.20 * math.cos(math.radians(4 * hbp - 63)))
    dtheta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp ** 7 / (cbp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhhp / sh) ** 2
                     + rt * (dcp / sc) * (dhhp / sh))


MACHADO = {
    "protan": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
               [-0.003882, -0.048116, 1.051998]],
    "deutan": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
               [-0.011820, 0.042940, 0.968881]],
    "tritan": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
               [0.004733, 0.691367, 0.303900]],
}


def simulate(rgb, kind):
    lin = [_lin(c) for c in rgb]
    m = MACHADO[kind]
    return tuple(_unlin(sum(m[i][j] * lin[j] for j in range(3)))
                 for i in range(3))


def views(rgb):
    """CIELAB of the colour as seen normally and by the three dichromats."""
    return [lab(rgb)] + [lab(simulate(rgb, k)) for k in MACHADO]


def least(colours):
    """(least normal-vision difference, least over the simulations)."""
    vs = [views(c) for c in colours]
    normal = cvd = float("inf")
    for i in range(len(vs)):
        for j in range(i):
            normal = min(normal, de2000(vs[i][0], vs[j][0]))
            cvd = min(cvd, min(de2000(a, b) for a, b in zip(vs[i][1:], vs[j][1:])))
    return normal, cvd


def selftest():
    # Sharma, Wu, Dalal (2005), table 1: pairs 1, 7, 13, 17, 25 and 34.
    pairs = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
             ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
             ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
             ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
             ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082)]
    for a, b, want in pairs:
        got = de2000(a, b)
        if abs(got - want) > 5e-4:
            print("de2000(%s, %s) = %.4f, want %.4f" % (a, b, got, want))
            return 1
    print("CIEDE2000: %d published pairs agree" % len(pairs))
    return 0


FILL = re.compile(r'fill(?::|=")rgb\(([0-9.]+)%, ?([0-9.]+)%, ?([0-9.]+)%\)')


def svg(min_normal, min_cvd, files):
    bad = 0
    for f in files:
        found = set()
        for m in FILL.finditer(open(f, encoding="utf-8").read()):
            c = tuple(round(float(v) / 100, 6) for v in m.groups())
            if c not in ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)):
                found.add(c)
        normal, cvd = least(sorted(found))
        print("%s: %d colours, least CIEDE2000 %.2f normal, %.2f colour-blind"
              % (f, len(found), normal, cvd))
        if len(found) < 2 or normal < min_normal or cvd < min_cvd:
            bad = 1
    return bad


WORD = re.compile(r'<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" '
                  r'yMax="([0-9.]+)">([^<]*)</word>')


def read_ppm(path):
    data = open(path, "rb").read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    w, h = int(fields[1]), int(fields[2])
    return w, h, data[pos + 1:]


def key(pdf):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", "72", pdf, tmp + "/p"], check=True)
        text = subprocess.run(["pdftotext", "-bbox", pdf, "-"], check=True,
                              capture_output=True, text=True).stdout
        pages = text.split("<page ")[1:]
        import glob
        images = sorted(glob.glob(tmp + "/p*.ppm"))
        for n, (page, image) in enumerate(zip(pages, images), 1):
            w, h, px = read_ppm(image)
            rows = []
            for m in WORD.finditer(page):
                x0, y0, x1, y1 = (float(v) for v in m.groups()[:4])
                # the box's centre: 12 pt left of the text, 2 pt above the
                # middle of the word's box (the key centres the box on the
                # text's x-height, not on its descenders)
                x, y = int(x0 - 12), int((y0 + y1) / 2 - 2)
                if not (0 <= x < w and 0 <= y < h):
                    continue
                # a key box: the same colour 3 pt either side of the probe
                probe = [px[3 * (yy * w + xx):3 * (yy * w + xx) + 3]
                         for xx, yy in ((x, y), (x - 3, y), (x + 3, y),
                                        (x, y - 3), (x, y + 3))]
                if len(set(probe)) != 1 or probe[0] == b"\xff\xff\xff":
                    continue
                label = m.group(5).replace("&amp;", "&").replace("&lt;", "<")
                label = label.replace("&gt;", ">").replace("&quot;", '"')
                rows.append((y0, label, "#%02x%02x%02x" % tuple(probe[0])))
            for _, label, colour in sorted(rows):
                print("%d\t%s\t%s" % (n, label, colour))
    return 0


def main(argv):
    if argv[1:2] == ["selftest"]:
        return selftest()
    if argv[1:2] == ["svg"] and len(argv) >= 5:
        return svg(float(argv[2]), float(argv[3]), argv[4:])
    if argv[1:2] == ["key"] and len(argv) == 3:
        return key(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
