/* report_ticks.js -- the x axis's ticks of the view the page shows, by the
 * rule the picture's are placed by (src/draw/layout.c), from its inputs in
 * the data's look: a step of about the span over look.tickDivisions,
 * rounded by look.tickLadder (hp2ps's 1, 2 or 5 times a power of ten), at
 * most look.maxTicks.  The whole run's ticks start at the first census
 * with one decimal, as hp2ps's; a zoomed view's (or a stream joined
 * mid-run's) at the step's multiples, with the decimals the step needs. */
(function (hp2x) {
  "use strict";

  /* hp2ps's rounding of a tick step, by the look's ladder. */
  hp2x.roundStep = function (y, look) {
    if (!(y > 0)) return 1;
    var up = 0, down = 0, L = look.tickLadder, step = 1;
    while (y > 10) { y /= 10; down++; }
    while (y < 1) { y *= 10; up++; }
    for (var i = 0; i + 1 < L.length; i += 2)
      if (y > L[i]) { step = L[i + 1]; break; }
    for (; down > 0; down--) step *= 10;
    for (; up > 0; up--) step /= 10;
    return step;
  };

  /* [x from the graph's left, label] of each tick of view (t0, span,
   * zoomed) over a graph w points wide whose ticks stop at room. */
  hp2x.xTicks = function (D, view, w) {
    var look = D.look, t0 = view.t0, dec = 1, v = t0, out = [];
    var inc = hp2x.roundStep(view.span / look.tickDivisions, look);
    var end = view.zoomed ? t0 + view.span : D.tickEnd;
    if ((view.zoomed || D.midRun) && inc > 0) {
      while (dec < look.tickMaxDecimals && inc < Math.pow(10, -dec) * (1 - 1e-9)) dec++;
      v = Math.ceil(t0 / inc - 1e-9) * inc;
      if (v < t0) v = t0;
    }
    for (; v < end && out.length < look.maxTicks; v += inc) {
      var x = (v - t0) * w / view.span;
      if (x < D.page.xRoom) out.push([x, v.toFixed(dec)]);
      if (!(inc > 0)) break;
    }
    return out;
  };

  /* "N,NNN" of an integer, a '-' before a negative one. */
  function grouped(n) {
    var s = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
    return n < 0 ? "-" + s : s;
  }
  /* A y tick's label (layout.c's y_tick_label): a whole per cent, or the
   * value (a streamgraph's distance from its middle) in k or M by the step. */
  function yLabel(kind, v, inc) {
    if (kind === "percent" || kind === "lines") return hp2x.fixed(v, 0);
    var div = inc >= 1e6 ? 1e6 : inc >= 1e3 ? 1e3 : 1, unit = div === 1e6 ? "M" : div === 1e3 ? "k" : "";
    if (kind === "streamgraph") v = Math.abs(v);
    if (v < 0) { /* llround */
      var q = v / div, r = Math.round(Math.abs(q));
      return grouped(q < 0 ? -r : r) + unit;
    }
    return grouped(Math.trunc(v / div + 0.5)) + unit;
  }

  /* [y from the graph's bottom, label] of each y tick of chart kind, for
   * its axis in D.charts (ymin, yrange) over the graph's height, as
   * hpx_layout_y_ticks places them. */
  hp2x.yTicks = function (D, kind) {
    var c = D.charts[kind], look = D.look, h = D.page.graph[3], out = [];
    var d = look.tickDivisions, inc = hp2x.roundStep(c.yrange / d > 1 ? c.yrange / d : 1, look);
    var start = c.ymin < 0 ? Math.ceil(c.ymin / inc) * inc : 0;
    for (var v = start; v - c.ymin <= c.yrange && out.length < look.maxTicks; v += inc) {
      var y = c.ymin < 0 ? (v - c.ymin) * h / c.yrange : v * h / c.yrange;
      if (!(y < c.yRoom) && v > 0) continue;
      out.push([y, yLabel(kind, v, inc)]);
    }
    return out;
  };
})(window.hp2x);
