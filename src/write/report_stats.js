/* report_stats.js -- the summary's figures and the moment table, computed
 * in the page as the C writes them (src/write/band_stats.c, summary.c),
 * for the censuses the page holds: numbers as printf writes them (exactly:
 * a double's decimal expansion, ties to even), each band's total, peak,
 * slope, R², area and leak suspicion over a stretch of censuses, and one
 * census's rows.  The arithmetic is band_stats.c's, operation for
 * operation and in its order, on the censuses' exact times (the data's
 * `tx`), so a zoomed table is --summary --from --to's to the last digit.
 * Pure: a census set in, text out; nothing here reads or writes the page.
 * A census set C is { t: exact times, v: per band, its values (numbers,
 * or BigInts past 2^53), other: OTHER's band or -1 }. */
(function (hp2x) {
  "use strict";
  var view = new DataView(new ArrayBuffer(8));
  var INT64_MAX = 9223372036854775807n, INT64_MIN = -9223372036854775808n;

  /* A finite double as m * 2^e exactly (m a BigInt >= 0), and its sign. */
  function split(x) {
    view.setFloat64(0, x);
    var hi = view.getUint32(0), lo = view.getUint32(4), ex = (hi >>> 20) & 0x7ff;
    var m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
    if (ex) m |= 1n << 52n;
    else ex = 1;
    return { neg: hi >>> 31 === 1, m: m, e: ex - 1075 };
  }

  /* x with d decimals, exactly: rounded to nearest with ties to even, as
   * glibc's printf rounds ("%.*f"), or (way -1, +1) down or up. */
  function decimals(x, d, way) {
    if (x !== x) return "nan";
    if (!isFinite(x)) return x > 0 ? "inf" : "-inf";
    var s = split(x), q = s.m * 10n ** BigInt(d);
    if (s.e >= 0) {
      q <<= BigInt(s.e);
    } else {
      var sh = BigInt(-s.e), r = q & ((1n << sh) - 1n), half = 1n << (sh - 1n);
      q >>= sh;
      if (way ? r > 0n && (way > 0) !== s.neg : r > half || (r === half && (q & 1n) === 1n))
        q += 1n;
    }
    var digits = q.toString();
    if (d > 0) {
      digits = digits.padStart(d + 1, "0");
      digits = digits.slice(0, -d) + "." + digits.slice(-d);
    }
    return (s.neg ? "-" : "") + digits;
  }
  function fixed(x, d) {
    return decimals(x, d, 0);
  }

  /* Digits with a comma every three. */
  function commas(digits) {
    return digits.replace(/\B(?=(\d{3})+$)/g, ",");
  }

  /* printf's "%.3e" of an integral x (|x| >= 9e18), ties to even. */
  function exp3(x) {
    if (!isFinite(x)) return fixed(x, 0);
    var digits = (x < 0 ? -BigInt(x) : BigInt(x)).toString(), e = digits.length - 1;
    var keep = BigInt(digits.slice(0, 4)), rest = digits.slice(4);
    var half = "5".padEnd(rest.length, "0");
    if (rest > half || (rest === half && (keep & 1n) === 1n)) keep += 1n;
    if (keep === 10000n) { keep = 1000n; e++; }
    var k = keep.toString();
    return (x < 0 ? "-" : "") + k[0] + "." + k.slice(1) + "e+" + (e < 10 ? "0" : "") + e;
  }

  /* hpx_band_thousands: "N,NNN" of v rounded half away from zero, a '-'
   * before a negative one; "%.3e" past 9e18. */
  function thousands(v) {
    var a = Math.abs(v);
    if (!(a < 9e18)) return exp3(v);
    var r = Math.floor(a);
    if (a - r >= 0.5) r += 1;
    return (v < 0 ? "-" : "") + commas(BigInt(r).toString());
  }

  /* An int64 saturated, as hpx_add_sat leaves sums. */
  function clamp(b) {
    return b > INT64_MAX ? INT64_MAX : b < INT64_MIN ? INT64_MIN : b;
  }
  /* Census s's total over the bands, saturating: a number while exact,
   * else a BigInt. */
  function censusTotal(C, s) {
    var sum = 0, k, nb = C.v.length;
    for (k = 0; k < nb; k++) {
      var x = C.v[k][s];
      if (typeof x !== "number" || !(Math.abs(sum + x) <= 9007199254740992)) break;
      sum += x;
    }
    if (k === nb) return sum;
    var big = 0n;
    for (k = 0; k < nb; k++) big = clamp(big + BigInt(C.v[k][s]));
    return big;
  }

  /* find_total_peak: the total's peak over the censuses idx lists and
   * its census, and which of them the fits use (a total other than 0). */
  function totalPeak(C, idx) {
    var top = -1, at = idx[0], use = [];
    for (var j = 0; j < idx.length; j++) {
      var sum = censusTotal(C, idx[j]);
      use.push(sum != 0); /* a BigInt 0 too */
      if (sum > top) { top = sum; at = idx[j]; }
    }
    return { top: top, at: at, use: use };
  }

  /* fit_growth: the least-squares line of band k's values against time
   * over the censuses `use` marks; its slope, R² and growth over the
   * fitted span, or fitted false. */
  function fit(C, k, idx, use) {
    var t = C.t, v = C.v[k], sx = 0, sy = 0, m = 0, s, j;
    for (j = 0; j < idx.length; j++) {
      s = idx[j];
      if (use[j]) { sx += t[s]; sy += Number(v[s]); m++; }
    }
    if (m < 3) return { fitted: false };
    var mx = sx / m, my = sy / m, sxx = 0, sxy = 0, syy = 0, lo = Infinity, hi = -Infinity;
    for (j = 0; j < idx.length; j++) {
      s = idx[j];
      if (!use[j]) continue;
      var dx = t[s] - mx, dy = Number(v[s]) - my;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
      if (t[s] < lo) lo = t[s];
      if (t[s] > hi) hi = t[s];
    }
    if (!(sxx > 0)) return { fitted: false };
    var f = { fitted: true, slope: sxy / sxx, r2: syy > 0 ? (sxy * sxy) / (sxx * syy) : 0 };
    f.growth = f.slope * (hi - lo);
    if (!isFinite(f.slope) || !isFinite(f.r2) || !isFinite(f.growth)) return { fitted: false };
    return f;
  }

  /* band_figures and hpx_band_cells: band k's row over the censuses idx
   * lists. */
  function bandRow(C, k, idx, P) {
    var t = C.t, v = C.v[k], total = 0, peak = -1, peakAt = idx[0], area = 0;
    for (var j = 0; j < idx.length; j++) {
      var s = idx[j], r = idx[j - 1];
      total += Number(v[s]);
      if (v[s] > peak) { peak = v[s]; peakAt = s; }
      if (j > 0) area += (Number(v[s]) + Number(v[r])) / 2 * (t[s] - t[r]);
    }
    var f = fit(C, k, idx, P.use);
    return {
      total: thousands(total), peak: thousands(Number(peak)), peakAt: fixed(t[peakAt], 3),
      slope: f.fitted ? thousands(f.slope) : "-", r2: f.fitted ? fixed(f.r2, 2) : "-",
      area: thousands(area),
      suspect: k !== C.other && f.fitted && f.slope > 0 && f.r2 >= 0.8 &&
        f.growth >= 0.01 * Number(P.top)
    };
  }

  hp2x.fixed = fixed;
  hp2x.thousands = thousands;

  /* The band table over the censuses idx lists (at least one, in order):
   * a row per band as --summary writes it, and its run lines (the first
   * and last times, the total's peak and when). */
  hp2x.bandStats = function (C, idx) {
    var P = totalPeak(C, idx), rows = [];
    for (var k = 0; k < C.v.length; k++) rows.push(bandRow(C, k, idx, P));
    return { rows: rows, n: idx.length, from: fixed(C.t[idx[0]], 3),
      to: fixed(C.t[idx[idx.length - 1]], 3), topPeak: thousands(Number(P.top)),
      topPeakAt: fixed(C.t[P.at], 3) };
  };

  /* The censuses whose exact times lie in [x0, x1], as
   * hp2x_profile_window keeps them for --from x0 --to x1. */
  function inside(C, x0, x1) {
    var idx = [];
    for (var s = 0; s < C.t.length; s++) if (C.t[s] >= x0 && C.t[s] <= x1) idx.push(s);
    return idx;
  }
  /* A zoom from t0 to t1 (t0 < t1) as --from and --to give it: the range
   * with the fewest decimals (three at least) that, rounded outwards,
   * holds the censuses the zoom shows and no other, and those censuses. */
  hp2x.zoomRange = function (C, t0, t1) {
    var shown = inside(C, t0, t1).length, lo, hi, idx;
    for (var d = 3; d <= 9; d++) {
      lo = decimals(t0, d, -1);
      hi = decimals(t1, d, 1);
      idx = inside(C, Number(lo), Number(hi));
      if (idx.length === shown) break;
    }
    return { lo: lo, hi: hi, idx: idx };
  };

  /* The census set of the page's data D: the exact times, the values
   * (BigInts past 2^53, which come as strings), OTHER's band. */
  hp2x.censusSet = function (D) {
    return { t: (D.tx || D.t).map(Number),
      v: D.bands.map(function (b) {
        return b.v.map(function (x) { return typeof x === "string" ? BigInt(x) : x; });
      }),
      other: D.bands.length && D.bands[0].other ? 0 : -1 };
  };
  hp2x.censusTotal = censusTotal;

  /* now - before as the moment table writes it: "+12", "-3", "0". */
  function change(now, before) {
    var d = clamp(BigInt(now) - BigInt(before));
    return (d > 0n ? "+" : "") + d.toString();
  }

  /* The moment table of census i (hpx_moment_cells): its total, the
   * total's change since census `before` (-1: none), and a row per band:
   * its value as the CSV writes it, its share of the total, its change. */
  hp2x.moment = function (C, i, before) {
    var total = censusTotal(C, i), rows = [];
    for (var k = 0; k < C.v.length; k++) {
      var x = C.v[k][i];
      rows.push({ value: String(x),
        share: total > 0 ? fixed(Number(x) * 100 / Number(total), 1) + "%" : "-",
        change: before < 0 ? "-" : change(x, C.v[k][before]) });
    }
    var out = { total: String(total), rows: rows, change: "-" };
    if (before >= 0) out.change = change(total, censusTotal(C, before));
    return out;
  };
})(window.hp2x);
