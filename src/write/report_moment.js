/* report_moment.js -- the moment table: every band at one census of those
 * the page holds, OTHER included, with its value as that census's CSV row
 * has it, its share of the census and its change since the census before
 * (the rows of hp2x.moment, report_stats.js: --summary --at's), sorting
 * like the band table, saying which census it shows and when.  The census
 * is the total's peak at first, or on a live page the newest, followed
 * until the reader picks one with a click on the graph
 * (report_pointer.js: R.pick); a button goes back to following.  A thin
 * line marks a picked census on the graph.  Which census is shown is a
 * function of the data and R.state.moment alone (hp2x.momentCensus). */
(function (hp2x) {
  "use strict";
  var html = hp2x.html, el = hp2x.el, f2 = hp2x.f2;
  var COLS = [["Band", "name"], ["Value", "value"], ["Share", "share"], ["Change", "change"]];

  /* The held census the moment shows, or -1 when none is held:
   * following, the newest; picked, the one picked; else the peak (the
   * first of the largest totals, as --summary's). */
  hp2x.momentCensus = function (R) {
    var m = R.state.moment, n = R.C.t.length;
    if (!n) return -1;
    if (m.follow) return n - 1;
    if (m.i >= 0 && m.i < n) return m.i;
    var best = 0, top = null;
    for (var i = 0; i < n; i++) {
      var t = hp2x.censusTotal(R.C, i);
      if (top === null || t > top) { top = t; best = i; }
    }
    return best;
  };

  /* The held census of time text `t` (a D.t entry), else the nearest to
   * it; -1 when none is held.  A live page keeps a picked census so. */
  hp2x.censusOfTime = function (R, t) {
    var exact = R.D.t.indexOf(t), x = Number(t), best = -1;
    if (exact >= 0) return exact;
    for (var i = 0; i < R.times.length; i++)
      if (best < 0 || Math.abs(R.times[i] - x) < Math.abs(R.times[best] - x)) best = i;
    return best;
  };

  /* What the caption says of census i. */
  function says(R, i, mo) {
    var D = R.D, m = R.state.moment, held = D.t.length, all = held === D.censuses;
    var t = all ? "Census " + i + " of " + D.censuses : "The held census";
    t += m.follow ? " (the newest, followed)" : m.picked ? "" : " (the peak)";
    t += ", at " + D.t[i] + " " + D.sampleUnit + ": " + mo.total + " " + D.valueUnit + " in all; ";
    t += i > 0 ? mo.change + " " + D.valueUnit + " since the census " + (all ? "" : "held ") +
      "before, at " + D.t[i - 1] + " " + D.sampleUnit + "." : "the first census.";
    if (!all)
      t += " The page holds " + hp2x.thousands(held) + " of the run's " + hp2x.thousands(D.censuses) +
        " censuses: a click picks the nearest it holds.";
    return t;
  }

  /* The moment table of report R.  Returns { show() }: fills it for the
   * census hp2x.momentCensus names, and marks it on the graph. */
  hp2x.buildMoment = function (R) {
    var D = R.D, nb = D.bands.length, rows = [], cells = [];
    var t = document.getElementById("hp2x-moment-table");
    var head = html("thead", {}, t), tr = html("tr", {}, head), body = html("tbody", {}, t);
    for (var k = nb - 1; k >= 0; k--) {
      var r = html("tr", { "data-band": k }, body), name = html("td", { "class": "hp2x-name" }, r);
      html("span", { "class": "hp2x-swatch", style: "background:" + D.bands[k].colour }, name);
      html("span", { "class": "hp2x-label" }, name, D.bands[k].name);
      ["value", "share", "change"].forEach(function (f) { html("td", { "class": "hp2x-num", "data-col": f }, r); });
      rows[k] = r;
    }
    var units = html("tr", { "class": "hp2x-units" }, head);
    ["", D.valueUnit, "of the census", D.valueUnit + " since the census before"].forEach(function (u) {
      html("th", {}, units, u);
    });
    var sorter = hp2x.sortable(tr, COLS, nb, body, function (k) { return rows[k]; }, function (k, field) {
      return field === "name" ? D.bands[k].name.toLowerCase() : hp2x.cellNumber(cells[k] ? cells[k][field] : "-");
    });
    var follow = document.getElementById("hp2x-follow");
    follow.onclick = function () {
      R.state.moment = { follow: true, i: -1, picked: false };
      show();
    };
    function show() {
      var i = hp2x.momentCensus(R), p = document.getElementById("hp2x-moment-says");
      follow.hidden = !R.live || R.state.moment.follow;
      t.setAttribute("data-census", String(i));
      t.setAttribute("data-time", i >= 0 ? D.t[i] : "");
      drawLine(R, i);
      if (i < 0) {
        p.textContent = "No census.";
        return;
      }
      var mo = hp2x.moment(R.C, i, i - 1);
      for (var k = 0; k < nb; k++) {
        cells[k] = mo.rows[k];
        var tds = rows[k].querySelectorAll("td.hp2x-num");
        hp2x.text(tds[0], cells[k].value);
        hp2x.text(tds[1], cells[k].share);
        hp2x.text(tds[2], cells[k].change);
        rows[k].classList.toggle("hp2x-hidden", R.state.hidden[k]);
      }
      hp2x.text(p, says(R, i, mo));
      sorter.again();
    }
    return { show: show };
  };

  /* A thin line across the graph at a picked census, when in view. */
  function drawLine(R, i) {
    var g = R.layers.moment, G = R.fr.G;
    hp2x.clear(g);
    if (i < 0 || !R.state.moment.picked) return;
    var x = hp2x.xOf(R, R.times[i]);
    if (!(x >= G.x && x <= G.x + G.w)) return;
    el("path", { d: "M" + f2(x) + " " + f2(G.y) + "V" + f2(G.y + G.h), stroke: "#c00",
      "stroke-width": R.D.look.line * 2, "stroke-dasharray": "4 2", "class": "hp2x-moment-line" }, g);
  }
})(window.hp2x);
