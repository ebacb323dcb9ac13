/* report_main.js -- the last part of the HTML report's script: the report
 * itself (hp2x.report).  It reads the JSON data in #hp2x-data, keeps what
 * the reader chose (the bands hidden, the time zoom, the chart kind, the
 * census of the moment table), and has report_draw.js draw it into hp2x's
 * own picture whenever that differs from the PNG the page shows first;
 * the switch between the chart kinds, the "whole run" button, the tables
 * (report_table.js: the run's or the zoom's figures; report_moment.js:
 * one census) and the pointer (report_pointer.js) change it.  A live page
 * (hp2x --serve, live_*.js) swaps a newer report in and calls hp2x.report()
 * again with hp2x.keep set from hp2x.state(): the bands hidden (by name),
 * the zoom, the chart kind and a census the reader picked (by its time)
 * stay; a moment that follows goes on to the newest census.  Between
 * reports, a live page appends each new census to the data and calls
 * hp2x.grown(): the page draws it itself, at the cost of what it added
 * (the census set extended, report_bands.js's kept pieces). */
(function (hp2x) {
  "use strict";

  hp2x.report = function () {
    var D = JSON.parse(document.getElementById("hp2x-data").textContent);
    var svg = document.getElementById("hp2x-picture");
    var R = { D: D, svg: svg, fr: hp2x.frame(D), tip: document.getElementById("hp2x-tip"),
      times: D.t.map(Number), C: hp2x.censusSet(D), curves: null, cache: {},
      live: !!document.getElementById("hp2x-live-status"),
      state: { hidden: D.bands.map(function () { return false; }),
        view: { t0: D.x0, span: D.xrange, zoomed: false }, chart: D.chart } };
    /* what hp2x drew, as it came: a live page draws a new band set into
     * a copy (live_apply.js newSet) */
    if (R.live) hp2x.pristine = document.getElementById("hp2x-report").cloneNode(true);
    /* the moment: a live page follows the newest census */
    R.state.moment = { follow: R.live, i: -1, picked: false };
    var keep = hp2x.keep;
    hp2x.keep = null;
    if (keep) {
      D.bands.forEach(function (b, k) { R.state.hidden[k] = keep.hidden.indexOf(b.name) >= 0; });
      if (keep.view.zoomed) R.state.view = keep.view;
      if (D.charts[keep.chart]) R.state.chart = keep.chart;
      if (keep.moment && keep.moment.picked)
        R.state.moment = { follow: false, i: hp2x.censusOfTime(R, keep.moment.t), picked: true };
    }
    hp2x.state = function () {
      var i = hp2x.momentCensus(R), m = R.state.moment;
      return { hidden: D.bands.filter(function (b, k) { return R.state.hidden[k]; })
        .map(function (b) { return b.name; }), view: R.state.view, chart: R.state.chart,
        moment: { follow: m.follow, picked: m.picked, t: i >= 0 ? D.t[i] : null } };
    };

    function curves() {
      var kind = R.state.chart;
      R.curves = R.cache[kind] = hp2x.curves(D, kind, R.cache[kind]);
    }
    /* The PNG shows the whole run as the picture's chart kind with every
     * band, pixel for pixel where a CSS pixel is a device pixel; any other
     * view, or another pixel ratio (a high-density screen, the browser's
     * zoom), or censuses a live page appended since, or a live page's
     * report swapped in without its PNG (data-hp2x-stale: the PNG is an
     * older report's, live_swap.js), is drawn. */
    function showDrawn() {
      var s = R.state, drawn = s.view.zoomed || s.hidden.indexOf(true) >= 0 ||
        s.chart !== D.chart || window.devicePixelRatio !== 1 || R.grown ||
        document.getElementById("hp2x-raster").hasAttribute("data-hp2x-stale");
      R.layers.vector.setAttribute("visibility", drawn ? "visible" : "hidden");
      document.getElementById("hp2x-raster").style.visibility = drawn ? "hidden" : "visible";
      document.getElementById("hp2x-figure").setAttribute("data-drawn", drawn ? "1" : "0");
    }
    function drawAll() {
      curves();
      showDrawn();
      hp2x.drawBands(R);
      hp2x.drawTicks(R);
      hp2x.drawYAxis(R);
      hp2x.drawAxes(R);
      hp2x.drawArea(R);
      hp2x.drawKeyBoxes(R);
      hp2x.drawKeyNames(R);
      hp2x.drawLines(R);
      hp2x.drawMarks(R);
      hp2x.markKey(R);
      var v = R.state.view, z = v.zoomed ? hp2x.zoomRange(R.C, v.t0, v.t0 + v.span) : null;
      document.getElementById("hp2x-view").textContent = v.zoomed ? "Showing " + v.t0.toFixed(3) +
        " to " + (v.t0 + v.span).toFixed(3) + " " + D.sampleUnit : "";
      document.getElementById("hp2x-reset").disabled = !v.zoomed;
      switcher.mark();
      if (z) z.stats = z.idx.length ? hp2x.bandStats(R.C, z.idx) : null;
      table.show(z);
      moment.show();
    }
    function setHidden(k, h) {
      R.state.hidden[k] = h;
      showDrawn();
      hp2x.drawBands(R);
      hp2x.markKey(R);
      table.mark();
      moment.show();
    }
    R.zoom = function (view) {
      R.state.view = view;
      drawAll();
    };
    R.pick = function (i) {
      R.state.moment = { follow: false, i: i, picked: true };
      moment.show();
    };
    /* what the pointer does, for a script (a test, the live page) */
    hp2x.zoom = R.zoom;
    hp2x.pick = R.pick;
    /* A live page changed D in place (live_apply.js: censuses appended, the
     * first `dropped` of those held gone; dropped null: the censuses held
     * changed anywhere, as the report's thinning changes them; the axes
     * and the run's figures the server's): the census set, the view of the
     * whole run, a picked census (by its time), the tables and the
     * drawing follow. */
    hp2x.data = D;
    hp2x.grown = function (dropped) {
      var m = R.state.moment, t = m.picked && m.i >= 0 ? R.times[m.i] : null;
      follow(dropped);
      R.grown = true;
      if (!R.state.view.zoomed) R.state.view = { t0: D.x0, span: D.xrange, zoomed: false };
      if (t !== null) m.i = dropped === null ? hp2x.censusOfTime(R, t) : Math.max(m.i - dropped, 0);
      table.spark();
      drawAll();
    };
    /* R.times and the census set follow D: the first `dropped` gone, the
     * censuses after them appended; or made again (dropped null). */
    function follow(dropped) {
      var C = R.C, T = D.tx || D.t;
      if (dropped === null || R.times.length - Math.max(dropped, 0) > D.t.length) {
        R.times = D.t.map(Number);
        R.C = hp2x.censusSet(D);
        R.bands = null;
        R.cache = {};
        return;
      }
      if (dropped > 0) {
        R.times.splice(0, dropped);
        C.t.splice(0, dropped);
        C.v.forEach(function (v) { v.splice(0, dropped); });
        R.bands = null; /* each census's place in the drawing moved */
        R.cache = {};
      }
      if (R.times.length > D.t.length) {
        R.times = D.t.map(Number);
        R.C = hp2x.censusSet(D);
        R.bands = null;
        R.cache = {};
        return;
      }
      for (var i = R.times.length; i < D.t.length; i++) {
        R.times.push(Number(D.t[i]));
        C.t.push(Number(T[i]));
        for (var k = 0; k < C.v.length; k++) {
          var x = D.bands[k].v[i];
          C.v[k].push(typeof x === "string" ? BigInt(x) : x);
        }
      }
    }
    /* Everything drawn again from nothing (a script's: tests, the live
     * page's cost measured against it). */
    hp2x.redraw = function () {
      R.bands = null;
      R.cache = {};
      drawAll();
    };
    R.toggle = function (k) { setHidden(k, !R.state.hidden[k]); };

    /* The switch between the chart kinds the data offers. */
    function buildSwitch() {
      var box = document.getElementById("hp2x-charts"), kinds = Object.keys(D.charts), buttons = [];
      if (box) box.parentNode.removeChild(box);
      if (kinds.length < 2) return { mark: function () {} };
      box = hp2x.html("span", { id: "hp2x-charts", role: "group", "aria-label": "Chart" });
      var controls = document.getElementById("hp2x-controls");
      controls.insertBefore(box, controls.firstChild);
      kinds.forEach(function (kind) {
        var b = hp2x.html("button", { type: "button", "data-chart": kind }, box, kind);
        b.addEventListener("click", function () {
          R.state.chart = kind;
          drawAll();
        });
        buttons.push(b);
      });
      return {
        mark: function () {
          buttons.forEach(function (b) {
            b.setAttribute("aria-pressed", b.getAttribute("data-chart") === R.state.chart ? "true" : "false");
          });
        }
      };
    }

    hp2x.setUp(R);
    var switcher = buildSwitch();
    var table = hp2x.buildTable(R, setHidden);
    var moment = hp2x.buildMoment(R);
    hp2x.listen(R);
    hp2x.onResize = showDrawn; /* the pixel ratio may change */
    drawAll();
    table.mark();
    document.getElementById("hp2x-reset").addEventListener("click", function () {
      R.zoom({ t0: D.x0, span: D.xrange, zoomed: false });
    });
    document.documentElement.setAttribute("data-hp2x-ready", "1");
  };
  /* the live waiting page has the script and no report yet (live_swap.js) */
  if (document.getElementById("hp2x-data")) hp2x.report();
})(window.hp2x);
