#!/usr/bin/env python3
"""metrics_check.py -- hp2x --serve's /metrics against the CSV output of the
same run, for tests/e2e/test_serve*.sh.

  metrics_check.py text METRICS CSV    the exposition text (a file)
  metrics_check.py prom JSON CSV       Prometheus's /api/v1/query answer for
                                       {__name__=~"hp2x_band_bytes|hp2x_profile_bytes|hp2x_last_census_seconds"}

Checks that every band of the CSV's header has one hp2x_band_bytes series
whose value is the CSV's last row's (band names compared as the CSV has
them: ASCII names here), that there are no other band series, that
hp2x_profile_bytes is their sum and hp2x_last_census_seconds the row's
time.  Prints what differs and exits 1, or exits 0 silently.
"""
import csv
import json
import re
import sys


def last_row(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head, last = rows[0], rows[-1]
    bands = {name: int(v) for name, v in zip(head[1:], last[1:])}
    return bands, last[0]


def unescape(v):
    return re.sub(r'\\(.)', lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), v)


def from_text(path):
    bands, scalars = {}, {}
    sample = re.compile(r'^(\w+)(?:\{band="((?:[^"\\]|\\.)*)"\})? (\S+)$')
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = sample.match(line)
        if not m:
            raise SystemExit("unparsed line: %r" % line)
        name, band, value = m.groups()
        if band is not None:
            if unescape(band) in bands:
                raise SystemExit("band twice: %r" % band)
            bands[unescape(band)] = value
        else:
            scalars[name] = value
    return bands, scalars


def from_prom(path):
    data = json.load(open(path))
    bands, scalars = {}, {}
    for r in data["data"]["result"]:
        name, value = r["metric"]["__name__"], r["value"][1]
        if name == "hp2x_band_bytes":
            bands[r["metric"]["band"]] = value
        else:
            scalars[name] = value
    return bands, scalars


def main():
    kind, src, csv_path = sys.argv[1:4]
    bands, scalars = (from_text if kind == "text" else from_prom)(src)
    want, time = last_row(csv_path)
    bad = []
    for name, v in want.items():
        got = bands.get(name)
        if got is None or float(got) != v:
            bad.append("band %r: %s, CSV %d" % (name, got, v))
    for name in bands:
        if name not in want:
            bad.append("band %r not in the CSV" % name)
    total = scalars.get("hp2x_profile_bytes")
    if total is None or float(total) != sum(want.values()):
        bad.append("hp2x_profile_bytes %s, CSV sum %d" % (total, sum(want.values())))
    t = scalars.get("hp2x_last_census_seconds")
    if t is None or abs(float(t) - float(time)) > 5e-7:
        bad.append("hp2x_last_census_seconds %s, CSV %s" % (t, time))
    if bad:
        print("\n".join(bad))
        sys.exit(1)


main()
