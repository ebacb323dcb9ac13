/* report_pointer.js -- what the pointer does on the picture: resting on a
 * band or its key entry shows its full label, the census nearest the
 * pointer with the band's value there (as the CSV has it) and its peak; a
 * drag across the graph zooms to that stretch of time; a click on the
 * graph picks the census nearest it for the moment table; a click on a
 * key entry hides or shows the band.  The report R says what is shown
 * (report_main.js); R.zoom, R.pick and R.toggle change it. */
(function (hp2x) {
  "use strict";
  var html = hp2x.html, f2 = hp2x.f2;

  function framePoint(R, ev) {
    var pt = R.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    var p = pt.matrixTransform(R.svg.getScreenCTM().inverse());
    return R.fr.fromPage(p.x, p.y);
  }
  function inGraph(G, f) {
    return f[0] >= G.x && f[0] <= G.x + G.w && f[1] >= G.y && f[1] <= G.y + G.h;
  }
  /* The band whose key entry is at frame point f, or -1. */
  function keyAt(R, f) {
    var P = R.D.page, look = R.D.look, x = P.keyX + look.keyBoxDx;
    if (!(P.keyW > 0)) return -1;
    for (var k = 0; k < R.D.bands.length; k++)
      if (f[0] >= x && f[0] <= x + P.keyW && Math.abs(f[1] - P.keyC[k]) <= look.keyBox / 2)
        return k;
    return -1;
  }
  /* The held census nearest time t among those in view. */
  function nearest(R, t) {
    var r = hp2x.inView(R), best = r[0];
    for (var i = r[0]; i <= r[1]; i++)
      if (Math.abs(R.times[i] - t) < Math.abs(R.times[best] - t)) best = i;
    return best;
  }

  /* Band k's tooltip near the pointer: census i's value (i < 0: none),
   * on a percent or lines chart with its share. */
  function showTip(R, ev, k, i) {
    var D = R.D, b = D.bands[k], tip = R.tip, c = R.curves;
    hp2x.clear(tip);
    html("div", { "class": "hp2x-tip-name" }, tip, b.name);
    if (b.detail) html("div", { "class": "hp2x-detail" }, tip, b.detail);
    if (i >= 0) {
      var line = html("div", { "class": "hp2x-tip-census" }, tip);
      line.appendChild(document.createTextNode("census at "));
      html("span", { "class": "hp2x-tip-time" }, line, D.t[i]);
      line.appendChild(document.createTextNode(" " + D.sampleUnit + ": "));
      html("span", { "class": "hp2x-tip-value" }, line, String(b.v[i]));
      line.appendChild(document.createTextNode(" " + D.valueUnit));
      var kind = R.state.chart, share = kind === "lines" ? c.hi[k][i] : c.hi[k][i] - c.lo[k][i];
      if (kind === "percent" || kind === "lines")
        html("div", { "class": "hp2x-tip-share" }, tip, share.toFixed(1) +
          (kind === "percent" ? " % of the census" : " % of its peak"));
    }
    html("div", { "class": "hp2x-tip-peak" }, tip, "peak " + b.peak + " " + D.valueUnit + " at " +
      b.peakAt + " " + D.sampleUnit);
    tip.setAttribute("data-band", k);
    tip.setAttribute("data-census", i);
    tip.hidden = false;
    tip.style.left = Math.min(ev.pageX + 14, window.scrollX + document.documentElement.clientWidth - 320) + "px";
    tip.style.top = (ev.pageY + 14) + "px";
  }

  /* Listens on R's picture. */
  hp2x.listen = function (R) {
    var G = R.fr.G, sel = R.layers.select, drag = null;
    function onMove(ev) {
      var f = framePoint(R, ev);
      if (drag !== null) {
        var x0 = Math.max(G.x, Math.min(drag, f[0])), x1 = Math.min(G.x + G.w, Math.max(drag, f[0]));
        sel.setAttribute("x", f2(x0));
        sel.setAttribute("width", f2(Math.max(x1 - x0, 0)));
        return;
      }
      var k = keyAt(R, f), i = -1, v = R.state.view, c = R.D.charts[R.state.chart];
      if (k < 0 && inGraph(G, f) && R.times.length) {
        i = nearest(R, v.t0 + (f[0] - G.x) / G.w * v.span);
        /* a line is found within 3 % of the axis */
        k = hp2x.bandAt(R.curves, i, (f[1] - G.y) / G.h * c.yrange + c.ymin, R.state.hidden,
          c.yrange * 0.03);
      }
      if (k >= 0) showTip(R, ev, k, i);
      else R.tip.hidden = true;
    }
    function onDown(ev) {
      var f = framePoint(R, ev);
      if (ev.button !== 0 || !inGraph(G, f)) return;
      drag = f[0];
      sel.setAttribute("x", f2(f[0]));
      sel.setAttribute("y", G.y);
      sel.setAttribute("width", 0);
      sel.setAttribute("height", G.h);
      sel.setAttribute("visibility", "visible");
      ev.preventDefault();
    }
    function onUp(ev) {
      if (drag === null) return;
      var f = framePoint(R, ev), a = Math.max(G.x, Math.min(drag, f[0])), b = Math.min(G.x + G.w, Math.max(drag, f[0]));
      var v = R.state.view;
      drag = null;
      sel.setAttribute("visibility", "hidden");
      if (b - a < 2) { /* a click, not a drag: the census nearest */
        if (R.times.length) R.pick(nearest(R, v.t0 + (a - G.x) / G.w * v.span));
        return;
      }
      var t0 = v.t0 + (a - G.x) / G.w * v.span, t1 = v.t0 + (b - G.x) / G.w * v.span;
      R.zoom({ t0: t0, span: t1 - t0, zoomed: true });
    }
    R.svg.addEventListener("mousemove", onMove);
    R.svg.addEventListener("mouseleave", function () { R.tip.hidden = true; });
    R.svg.addEventListener("mousedown", onDown);
    R.svg.addEventListener("click", function (ev) {
      var k = keyAt(R, framePoint(R, ev));
      if (k >= 0) R.toggle(k);
    });
    /* The window's listeners outlive a report a live page swaps out: they
     * call the current one's. */
    hp2x.onUp = onUp;
    if (!hp2x.listening) {
      hp2x.listening = true;
      window.addEventListener("mouseup", function (e) { hp2x.onUp(e); });
      window.addEventListener("resize", function () { hp2x.onResize(); });
    }
  };
})(window.hp2x);
