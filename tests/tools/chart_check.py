#!/usr/bin/env python3
"""chart_check.py -- what each chart kind must be, read back from hp2x's
own pictures, independently of its C.

  chart_check.py svg KIND FILE.svg
  chart_check.py png KIND FILE.png FILE.svg DPI

KIND is percent, streamgraph or lines.  The SVG is read for its paths:
the graph is the axes' path (M X0 Y0 L X0+W Y0 M X0 Y0 L X0 Y0+H, frame
points, y upwards), a band a filled path inside it, a lines chart's band
a path stroked 1.4 wide (look.c's chart line).  The PNG (the same
picture at DPI) is read pixel by pixel (png_info.py) at the graph's place
in the SVG's page.

  percent      the bands reach the top at every census drawn: every
               vertex of the top band's upper edge is at 100 %, and its
               runs span every census any band has; in the PNG every
               column with a band has one right under the graph's top.
  streamgraph  the stack is centred: each census's lowest and highest
               edges (the bottom band's lower edge, the top band's upper
               one; the SVG drawn with --all-samples) are as far below as
               above the middle line; in the PNG each column's coloured
               extent is centred on it, to 1.5 pixels.
  lines        no line exceeds its band's peak: every vertex at or below
               100 %, each line touching 100 %; in the PNG no pixel of a
               line above the graph's top but for half its casing.

Prints one line of what was checked; exits 1 with the reason when a check
fails.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "e2e"))
from png_info import read as read_png  # noqa: E402

EPS = 0.01
LINE_W = 1.4    # src/draw/look.c: chart_line_w
CASING_W = 2.4  # ... chart_casing_w


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def parse_d(d):
    """A path's subpaths, each a list of (x, y) (moves and lines only)."""
    subs, cur = [], None
    for op, x, y in re.findall(r"([MLZ])\s*(?:(-?[\d.]+)\s+(-?[\d.]+))?", d):
        if op == "M":
            cur = [(float(x), float(y))]
            subs.append(cur)
        elif op == "L":
            cur.append((float(x), float(y)))
    return subs


def svg_paths(path):
    """(style, subpaths, transform) of each drawn path: not the glyphs'
    definitions, not the tooltips."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"<defs>.*?</defs>", "", text, flags=re.S)
    text = re.sub(r'<g id="hp2x-tooltips".*?</g>', "", text, flags=re.S)
    out = []
    for m in re.finditer(r"<path ([^>]*)/>", text):
        attrs = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', m.group(1)))
        style = dict(kv.split(":", 1) for kv in attrs.get("style", "").split(";")
                     if ":" in kv)
        # cairo 1.16 paints with style="fill:rgb(R%,G%,B%);stroke-width:W;...",
        # 1.18 with attributes, fill="rgb(R%, G%, B%)", and a space after
        # each comma (in the transform's matrix too): read as 1.16's.
        for k, v in attrs.items():
            if k not in ("d", "style", "transform"):
                style.setdefault(k, v)
        style = {k: v.replace(" ", "") for k, v in style.items()}
        out.append((style, parse_d(attrs.get("d", "")),
                    attrs.get("transform", "").replace(" ", "")))
    return out


def graph_of(paths):
    """The graph (x0, y0, w, h) in frame points, and the frame's origin on
    the page (ox, oy), from the axes' path."""
    for style, subs, transform in paths:
        if len(subs) >= 2 and len(subs[0]) == 2 and len(subs[1]) == 2:
            (a, b), (c, d) = subs[0], subs[1]
            if a == c and b[1] == a[1] and d[0] == a[0] and b[0] > a[0] and d[1] > a[1]:
                m = re.match(r"matrix\(1,0,0,-1,([\d.]+),([\d.]+)\)", transform)
                if m:
                    return (a[0], a[1], b[0] - a[0], d[1] - a[1]), (float(m.group(1)),
                                                                 float(m.group(2)))
    fail("no axes in the SVG")


def inside(G, pts):
    x0, y0, w, h = G
    return all(x0 - EPS <= x <= x0 + w + EPS and y0 - EPS <= y <= y0 + h + EPS for x, y in pts)


def band_fills(paths, G):
    """Filled polygons inside the graph, in drawing order: (fill, points)."""
    out = []
    for style, subs, _ in paths:
        fill = style.get("fill", "none")
        if fill == "none" or not subs:
            continue
        pts = [p for s in subs if len(s) > 1 for p in s]  # not the M after Z
        if inside(G, pts) and len(pts) >= 3:
            out.append((fill, pts))
    return out


def check_percent(G, paths):
    bands = band_fills(paths, G)
    if not bands:
        fail("percent: no bands in the graph")
    top = G[1] + G[3]
    top_fill = bands[-1][0]
    runs = [pts for fill, pts in bands if fill == top_fill]
    spans = []
    for pts in runs:
        at_top = [x for x, y in pts if abs(y - top) <= EPS]
        xs = [x for x, _ in pts]
        if not at_top or min(at_top) > min(xs) + EPS or max(at_top) < max(xs) - EPS:
            fail("percent: the top band's upper edge leaves 100 %% (%s)" % pts[:6])
        spans.append((min(xs), max(xs)))
    censuses = set()
    for _, pts in bands:
        for x, y in pts:
            if y > top + EPS:
                fail("percent: a band above 100 %% at x %.2f" % x)
            censuses.add(round(x, 3))
    missed = [x for x in censuses if not any(a - EPS <= x <= b + EPS for a, b in spans)]
    if missed:
        fail("percent: no band reaches 100 %% at x %s" % sorted(missed)[:5])
    print("percent: %d band paths, %d census positions, each at 100 %% (%d runs)"
          % (len(bands), len(censuses), len(runs)))


def edges(pts):
    """A band polygon's lower edge (forwards, while x grows) and upper
    edge (the rest, backwards), as {x: y}; a point of the upper edge that
    cairo left out, being where the lower edge turned back or began, is
    that point."""
    i = 1
    while i < len(pts) and pts[i][0] > pts[i - 1][0] + EPS:
        i += 1
    lower = {round(x, 3): y for x, y in pts[:i]}
    upper = {round(x, 3): y for x, y in pts[i:]}
    upper.setdefault(round(pts[0][0], 3), pts[0][1])
    upper.setdefault(round(pts[i - 1][0], 3), pts[i - 1][1])
    return lower, upper


def check_streamgraph(G, paths):
    bands = band_fills(paths, G)
    if len(bands) < 2:
        fail("streamgraph: fewer than two bands")
    mid = G[1] + G[3] / 2
    lo, _ = edges(bands[0][1])    # the bottom band's lower edge
    _, hi = edges(bands[-1][1])   # the top band's upper edge
    if set(lo) != set(hi):
        fail("streamgraph: the stack's edges are at different censuses "
             "(draw the SVG with --all-samples)")
    worst = max(abs((lo[x] + hi[x]) / 2 - mid) for x in lo)
    if worst > EPS:
        fail("streamgraph: a census's stack is off the middle line by %.3f pt" % worst)
    print("streamgraph: %d censuses, each centred on the middle line (within %.4f pt)"
          % (len(lo), worst))


def line_paths(paths):
    out = []
    for style, subs, _ in paths:
        if style.get("fill") == "none" and abs(float(style.get("stroke-width", 0)) - LINE_W) < 1e-6:
            out.append([p for s in subs if len(s) > 1 for p in s])
    return out


def check_lines(G, paths):
    lines = line_paths(paths)
    top = G[1] + G[3]
    key_x = G[0] + G[2]
    lines = [pts for pts in lines if all(x <= key_x + EPS for x, _ in pts)]  # not the key's
    if not lines:
        fail("lines: no band lines")
    for pts in lines:
        ys = [y for _, y in pts]
        if max(ys) > top + EPS:
            fail("lines: a line exceeds its peak by %.3f pt" % (max(ys) - top))
        if abs(max(ys) - top) > EPS:
            fail("lines: a line does not reach its peak (%.3f pt below)" % (top - max(ys)))
        if min(ys) < G[1] - EPS:
            fail("lines: a line below 0")
    print("lines: %d lines, each reaching its peak, none above it" % len(lines))


def pixels(png, svg, dpi):
    paths = svg_paths(svg)
    G, (ox, oy) = graph_of(paths)
    w, h, bpp, rows = read_png(png)
    s = dpi / 72.0
    box = (int(round((ox + G[0]) * s)), int(round((oy - G[1] - G[3]) * s)),
           int(round((ox + G[0] + G[2]) * s)), int(round((oy - G[1]) * s)))

    def white(x, y):
        return rows[y][x * bpp:x * bpp + 3] == b"\xff\xff\xff"
    return box, white, s


def check_png(kind, png, svg, dpi):
    (left, top, right, bottom), white, s = pixels(png, svg, dpi)
    cols = range(left + 3, right - 3)
    if kind == "percent":
        mid = (top + bottom) // 2
        drawn = [not white(x, mid) for x in cols]
        bad = [x for i, x in enumerate(cols) if drawn[i] and white(x, top + 1)
               and all(drawn[j] for j in range(max(0, i - 2), min(len(drawn), i + 3)))]
        if bad:
            fail("percent: columns %s have a band but none under the top" % bad[:5])
        print("percent (PNG): %d columns with bands, each filled to the top" % sum(drawn))
    elif kind == "streamgraph":
        mid, n = (top + bottom) / 2.0, 0
        for x in cols:
            ys = [y for y in range(top + 1, bottom - 1) if not white(x, y)]
            if len(ys) < 5:
                continue
            n += 1
            off = (ys[0] + ys[-1]) / 2.0 - mid
            if abs(off) > 1.5:
                fail("streamgraph: column %d's stack is %.1f px off the middle" % (x, off))
        print("streamgraph (PNG): %d columns, each stack centred to 1.5 px" % n)
    else:
        over = int(CASING_W / 2 * s + 1.5)
        above = [x for x in cols for y in range(top - int(4 * s), top - over) if not white(x, y)]
        if above:
            fail("lines: pixels above the peak in columns %s" % sorted(set(above))[:5])
        touch = sum(1 for x in cols for y in range(top - over, top + over) if not white(x, y))
        if not touch:
            fail("lines: no line reaches the top")
        print("lines (PNG): no line above its peak; %d pixels at it" % touch)


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ("percent", "streamgraph", "lines"):
        print(__doc__)
        sys.exit(2)
    mode, kind = sys.argv[1], sys.argv[2]
    if mode == "svg":
        paths = svg_paths(sys.argv[3])
        G, _ = graph_of(paths)
        {"percent": check_percent, "streamgraph": check_streamgraph,
         "lines": check_lines}[kind](G, paths)
    elif mode == "png" and len(sys.argv) == 6:
        check_png(kind, sys.argv[3], sys.argv[4], float(sys.argv[5]))
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
