/* report_charts.js -- the chart kinds as numbers, as src/draw/chart.c makes
 * them: for a kind and the censuses the page holds, each band's lower and
 * upper curve in the kind's y units.  Stacked: bytes, stacked from 0 (a
 * diff chart's growth stacked up from 0 and shrinkage down); percent: each
 * census's bands as 100 % of its total (a census of total 0 is not drawn);
 * streamgraph: stacked from minus half the census's total, so the stack is
 * centred on 0; lines: each band alone, as a share of its own peak.  Data
 * in, numbers out: report_draw.js draws them, report_pointer.js finds the
 * band under the pointer with them. */
(function (hp2x) {
  "use strict";

  /* Each held census's total of every band. */
  function totals(D, nh) {
    var t = new Array(nh), k, i;
    for (i = 0; i < nh; i++) t[i] = 0;
    for (k = 0; k < D.bands.length; k++)
      for (i = 0; i < nh; i++) t[i] += hp2x.num(D.bands[k].v[i]);
    return t;
  }

  /* A diff chart's bands: growth stacked up from 0, shrinkage down. */
  function signedCurves(D, nh, c) {
    var pos = new Array(nh).fill(0), neg = new Array(nh).fill(0);
    D.bands.forEach(function (b) {
      var lo = new Array(nh), hi = new Array(nh);
      for (var i = 0; i < nh; i++) {
        var x = hp2x.num(b.v[i]);
        if (x >= 0) { lo[i] = pos[i]; hi[i] = pos[i] += x; }
        else { hi[i] = neg[i]; lo[i] = neg[i] += x; }
      }
      c.lo.push(lo);
      c.hi.push(hi);
    });
    return c;
  }

  /* The curves of kind for the data D: { kind, lo[k][i], hi[k][i],
   * drawn[i] (false: census i is a gap), line (bands are lines) }. */
  hp2x.curves = function (D, kind) {
    var nh = D.t.length, c = { kind: kind, lo: [], hi: [], drawn: [], line: kind === "lines" };
    var total = totals(D, nh), cum = new Array(nh).fill(0), i;
    for (i = 0; i < nh; i++) c.drawn.push(kind !== "percent" || total[i] > 0);
    if (D.signed) return signedCurves(D, nh, c);
    function onAxis(i, h) {
      if (kind === "percent") return total[i] > 0 ? h / total[i] * 100 : 0;
      if (kind === "streamgraph") return h - total[i] / 2;
      return h;
    }
    D.bands.forEach(function (b) {
      var lo = new Array(nh), hi = new Array(nh), peak = hp2x.num(b.peakV);
      for (var i = 0; i < nh; i++) {
        var v = hp2x.num(b.v[i]);
        if (c.line) {
          lo[i] = hi[i] = peak > 0 ? v / peak * 100 : 0;
          continue;
        }
        lo[i] = onAxis(i, cum[i]);
        cum[i] += v;
        hi[i] = onAxis(i, cum[i]);
      }
      c.lo.push(lo);
      c.hi.push(hi);
    });
    return c;
  };

  /* The band at census i whose shape holds y (the kind's units), or -1;
   * on a lines chart the nearest line within `near` of y.  Hidden bands
   * are passed over. */
  hp2x.bandAt = function (c, i, y, hidden, near) {
    var best = -1, bestD = near;
    for (var k = 0; k < c.hi.length; k++) {
      if (hidden[k]) continue;
      var lo = c.lo[k][i], hi = c.hi[k][i];
      if (c.line) {
        if (Math.abs(hi - y) <= bestD) { best = k; bestD = Math.abs(hi - y); }
      } else if (c.drawn[i] && y >= lo && y <= hi && hi > lo) {
        return k;
      }
    }
    return best;
  };
})(window.hp2x);
