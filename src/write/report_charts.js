/* report_charts.js -- the chart kinds as numbers, as src/draw/chart.c makes
 * them: for a kind and the censuses the page holds, each band's lower and
 * upper curve in the kind's y units.  Stacked: bytes, stacked from 0 (a
 * diff chart's growth stacked up from 0 and shrinkage down); percent: each
 * census's bands as 100 % of its total (a census of total 0 is not drawn);
 * streamgraph: stacked from minus half the census's total, so the stack is
 * centred on 0; lines: each band alone, as a share of its own peak.  Data
 * in, numbers out, a census at a time (a live page's census adds its own):
 * report_bands.js draws them, report_pointer.js finds the band under the
 * pointer with them. */
(function (hp2x) {
  "use strict";

  /* The curves of kind for the data D: { kind, lo[k][i], hi[k][i],
   * drawn[i] (false: census i is a gap), line (bands are lines) }.  Given
   * c, the curves of the same kind for fewer of D's censuses (a live page
   * appended some), only the censuses after them are computed: a census's
   * numbers are its own values' (a line's, and its band's peak: when a
   * peak changed, all are computed again). */
  hp2x.curves = function (D, kind, c) {
    var nh = D.t.length, nb = D.bands.length, line = kind === "lines";
    var peaks = line ? D.bands.map(function (b) { return b.peakV; }).join(",") : "";
    if (!c || c.lo.length !== nb || c.drawn.length > nh || c.peaks !== peaks)
      c = { kind: kind, lo: D.bands.map(function () { return []; }), hi: D.bands.map(function () { return []; }),
        drawn: [], line: line, peaks: peaks };
    for (var i = c.drawn.length; i < nh; i++) column(D, kind, c, i);
    return c;
  };
  /* Census i's numbers, appended to c. */
  function column(D, kind, c, i) {
    var nb = D.bands.length, total = 0, k, v, cum = 0, pos = 0, neg = 0;
    for (k = 0; k < nb; k++) total += hp2x.num(D.bands[k].v[i]);
    c.drawn.push(kind !== "percent" || total > 0);
    for (k = 0; k < nb; k++) {
      v = hp2x.num(D.bands[k].v[i]);
      if (D.signed) { /* a diff chart: growth stacked up from 0, shrinkage down */
        if (v >= 0) { c.lo[k].push(pos); c.hi[k].push(pos += v); }
        else { c.hi[k].push(neg); c.lo[k].push(neg += v); }
      } else if (c.line) {
        var peak = hp2x.num(D.bands[k].peakV), y = peak > 0 ? v / peak * 100 : 0;
        c.lo[k].push(y);
        c.hi[k].push(y);
      } else {
        c.lo[k].push(onAxis(kind, total, cum));
        cum += v;
        c.hi[k].push(onAxis(kind, total, cum));
      }
    }
  }
  /* A stacked height h of a census of total `total` on kind's axis. */
  function onAxis(kind, total, h) {
    if (kind === "percent") return total > 0 ? h / total * 100 : 0;
    if (kind === "streamgraph") return h - total / 2;
    return h;
  }

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
