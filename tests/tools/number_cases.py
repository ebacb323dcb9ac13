#!/usr/bin/env python3
"""number_cases.py -- cases for the page's number text (report_stats.js):
doubles with the text C's printf (glibc: the exact value rounded to
nearest, ties to even, as Python's own formatting rounds) and
band_stats.c's hpx_band_thousands give them, as JSON on standard output:
{"fixed": [[x, decimals, text]...], "thousands": [[x, text]...]}.
Ties (k/16 and such), negatives and -0.0, huge and tiny values, and
random doubles of every magnitude; x as a 17-digit string (exact)."""
import json
import random
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(40)
xs = [0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 12.25, 12.75, 0.0625,
      1.0625, 2.5e-7, 0.0005, 1e21, 1.5e22, 9e18, -9e18, 9.1e18, 123456789.5,
      2 ** 53, 2 ** 53 + 2, 5e-324, 1.7976931348623157e308, 0.1, 0.7, 1e-5]
xs += [k / 16 for k in range(-40, 40)] + [k / 8 + 1000 for k in range(20)]
xs += [rng.uniform(-1, 1) * 10 ** rng.randint(-8, 20) for _ in range(3000)]
xs += [rng.randint(0, 2 ** 62) / 2 ** rng.randint(0, 70) for _ in range(1000)]
xs += [float(rng.randint(9 * 10 ** 18, 10 ** 25)) for _ in range(200)]
xs += [12345 * 10 ** 15 + 0.0, 99995 * 10 ** 15 + 0.0, 1.00005e19]


def thousands(v):
    """hpx_band_thousands: "%.3e" past 9e18, else llround(|v|) with commas."""
    if not abs(v) < 9e18:
        return '%.3e' % v
    r = int(Decimal(abs(v)).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return ('-' if v < 0 else '') + format(r, ',')


cases = {"fixed": [], "thousands": []}
for x in xs:
    for d in (1, 2, 3, 6):
        cases["fixed"].append([repr(x), d, '%.*f' % (d, x)])
    cases["thousands"].append([repr(x), thousands(x)])
print(json.dumps(cases))
