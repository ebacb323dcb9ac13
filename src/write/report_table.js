/* report_table.js -- the band table under the picture: a row per band
 * (top of the key first) with its swatch, name, the record its name leaves
 * out, a sparkline and --summary's figures, of the whole run (the C's
 * cells) or, zoomed, of the censuses inside the zoom (report_stats.js, as
 * --summary --from --to computes them), the table saying which; sorting
 * by a heading (hp2x.sortable, which the moment table shares), the filter
 * box, a box per row that hides or shows the band.  On a live page the
 * table is made and kept current only while it is on the screen
 * (keeper). */
(function (hp2x) {
  "use strict";
  var el = hp2x.el, html = hp2x.html, f2 = hp2x.f2, num = hp2x.num;
  var FIGURES = ["total", "peak", "peakAt", "slope", "r2", "area"];
  var COLS = [["Shown", null], ["Band", "name"], ["Trend", null], ["Total", "total"],
    ["Peak", "peak"], ["Peak at", "peakAt"], ["Slope", "slope"], ["R\u00b2", "r2"],
    ["Area", "area"], ["Leak suspect", "suspect"]];

  /* A sparkline of band k's held values: at most 100 points, each the
   * largest value of its stretch. */
  function sparkPoints(D, k) {
    var v = D.bands[k].v, nh = D.t.length, n = Math.min(nh, 100), pts = [], max = 0, i;
    for (i = 0; i < nh; i++) max = Math.max(max, num(v[i]));
    for (var j = 0; j < n; j++) {
      var a = Math.floor(j * nh / n), b = Math.max(a + 1, Math.floor((j + 1) * nh / n)), m = 0;
      for (i = a; i < b; i++) m = Math.max(m, num(v[i]));
      pts.push(f2(j * 100 / Math.max(n - 1, 1)) + "," + f2(19 - (max > 0 ? m / max * 18 : 0)));
    }
    return pts.join(" ");
  }
  function sparkline(D, k) {
    var s = el("svg", { width: "100", height: "20", viewBox: "0 0 100 20", "class": "hp2x-spark" });
    el("polyline", { points: sparkPoints(D, k), fill: "none", stroke: D.bands[k].colour === "#ffffff" ?
      "#000" : "#333", "stroke-width": "1" }, s);
    return s;
  }

  /* A cell's text as a sort key: a number where it reads as one (commas,
   * a sign and a '%' aside), else lowest. */
  hp2x.cellNumber = function (text) {
    var v = Number(String(text).replace(/[,%]/g, ""));
    return isNaN(v) ? -Infinity : v;
  };

  /* Headings for `cols` ([label, field]; field null: not sortable) in
   * header row `tr` of a table whose n rows rowOf(k) gives, in `body`:
   * a click (or Enter) sorts by that column, names rising and numbers
   * falling first, again the other way; ties in key order, top first.
   * keyOf(k, field) is row k's key.  Returns { again() }: sorts anew by
   * the column last chosen (after the cells changed). */
  hp2x.sortable = function (tr, cols, n, body, rowOf, keyOf) {
    var S = { col: -1, asc: true }, ths = [];
    function order() {
      var field = cols[S.col][1], ks = [];
      for (var k = 0; k < n; k++) ks.push(k);
      ks.sort(function (a, b) {
        var x = keyOf(a, field), y = keyOf(b, field);
        var c = x < y ? -1 : x > y ? 1 : b - a;
        return S.asc ? c : -c;
      });
      var moved = ks.some(function (k, j) { return body.children[j] !== rowOf(k); });
      if (moved) ks.forEach(function (k) { body.appendChild(rowOf(k)); });
      ths.forEach(function (th, j) {
        if (cols[j][1]) th.setAttribute("aria-sort", j === S.col ? (S.asc ? "ascending" : "descending") : "none");
      });
    }
    function sort(i) {
      S.asc = S.col === i ? !S.asc : cols[i][1] === "name";
      S.col = i;
      order();
    }
    cols.forEach(function (c, i) {
      var th = html("th", { scope: "col" }, tr, c[0]);
      ths.push(th);
      if (!c[1]) return;
      th.className = "hp2x-sortable";
      th.tabIndex = 0;
      th.addEventListener("click", function () { sort(i); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(i); });
    });
    return { again: function () { if (S.col >= 0) order(); } };
  };

  /* "From 2.100 to 4.550 s (the zoom): 23 censuses from 2.104 to 4.548
   * seconds; total peak N bytes at T seconds." and what the page lacks. */
  function says(R, z) {
    var D = R.D, unit = D.sampleUnit, held = D.t.length, n = R.C.t.length, st = z ? z.stats : null;
    var t = z ? "From " + z.lo + " to " + z.hi + " " + unit + " (the zoom): " : "The whole run: ";
    if (!z && held) /* the first and last censuses are held */
      st = { n: D.censuses, from: hp2x.fixed(R.C.t[0], 3), to: hp2x.fixed(R.C.t[n - 1], 3),
        topPeak: D.topPeak, topPeakAt: D.topPeakAt };
    if (!st) return t + "no census.";
    t += st.n + (st.n === 1 ? " census" : " censuses") + " from " + st.from + " to " + st.to + " " + unit +
      "; total peak " + st.topPeak + " " + D.valueUnit + " at " + st.topPeakAt + " " + unit + ".";
    if (z && held < D.censuses)
      t += " Computed from the censuses the page holds, " + hp2x.thousands(held) + " of the run's " +
        hp2x.thousands(D.censuses) + ": not the run's own figures, which --summary --from --to gives.";
    return t;
  }

  /* How the band table of report R (element t) is kept current: when(what,
   * f) runs f, a change of its cells ("show") or sparklines ("spark"), now,
   * or, on a live page while the table is off the screen, later: a census
   * then costs the page no layout nor paint of the table (a third of what
   * it cost, bench/RESULTS.md 12.5k).  The newest change of each kind is
   * kept and made as soon as the page scrolls or resizes (before the
   * frame that would show the table) or the browser sees the table on
   * the screen; the table says data-hp2x-stale meanwhile.  The table's
   * rows themselves (build) are made so too: a live page's new report,
   * its table off the screen, lays out none of them (a stream's first
   * censuses, where every page swaps in a whole new report, RESULTS
   * 12.5q) until the first of those catch-ups, which makes them before
   * its other changes.  A report swapped in starts where the one before
   * it was (on the screen or not); the first after a waiting page's
   * warm-up (live_swap.js: laid out hidden, its tiny report's table on the
   * screen) as off it.  A report's page (not live) is always current: its
   * rows are made at once. */
  function keeper(R, t, build) {
    var old = hp2x.tableWatch, near = old ? old.near() : true, due = null, unsure = false;
    var warm = !!t.closest("[data-hp2x-warm]");
    if (old) old.stop(); /* a live page's former report: where it was */
    hp2x.tableWatch = null;
    function now(what, f) { f(); }
    if (!R.live || !window.IntersectionObserver) { build(); return now; }
    function catchUp() {
      var d = due;
      if (!d) return;
      due = null;
      t.removeAttribute("data-hp2x-stale");
      if (d.build) d.build(); /* then the sparklines are current */
      else if (d.spark) d.spark();
      if (d.show) d.show();
    }
    /* whether the table is on the screen now (the observer says so only
     * after a frame, and a report swapped in before then takes it) */
    function measure() {
      var r = t.getBoundingClientRect();
      near = r.top < window.innerHeight && r.bottom >= 0;
      unsure = false;
    }
    /* a scroll or resize: with a change due, measured at once (the frame
     * that shows the table shows it current); with none, only noted
     * (unsure), measured by the next change or swap that asks: a scroll
     * while censuses append forces no layout of its own */
    function moved() {
      if (!due) { unsure = true; return; }
      measure();
      catchUp();
    }
    var seen = new IntersectionObserver(function (es) {
      near = es[es.length - 1].isIntersecting;
      if (near) catchUp();
    });
    seen.observe(t);
    window.addEventListener("scroll", moved, { passive: true });
    window.addEventListener("resize", moved);
    hp2x.tableWatch = { near: function () {
      if (unsure) measure();
      return near && !warm;
    }, stop: function () {
      seen.disconnect();
      window.removeEventListener("scroll", moved);
      window.removeEventListener("resize", moved);
    } };
    function when(what, f) {
      if (unsure) measure();
      if (near && !due) { f(); return; }
      if (!due) { due = {}; t.setAttribute("data-hp2x-stale", "1"); }
      due[what] = f;
      if (near) catchUp();
    }
    if (near) build(); else when("build", build);
    return when;
  }

  /* The table of report R; setHidden(k, hidden) is called when a row's
   * box changes.  Returns { mark(), show(z), spark() }: mark() marks the rows of
   * hidden bands; show(z) shows the zoom's figures (z from hp2x.zoomed:
   * its range and stats, null stats when it holds no census) or, for z
   * null, the whole run's; spark() draws the sparklines again (a live
   * page's censuses grew).  Its headings and rows are made by build(),
   * now or, on a live page, when the table is first on the screen
   * (keeper); until then rows is null, mark() has nothing to mark (build
   * marks the rows it makes) and the filter only counts. */
  hp2x.buildTable = function (R, setHidden) {
    var D = R.D, nb = D.bands.length, rows = null, cells = D.bands, sorter = null;
    var t = document.getElementById("hp2x-table"), query = document.getElementById("hp2x-filter");
    function row(k) {
      var b = D.bands[k], r = html("tr", { "data-band": k });
      var box = html("input", { type: "checkbox", "aria-label": "show band" }, html("td", {}, r));
      box.addEventListener("change", function () { setHidden(k, !box.checked); });
      var name = html("td", { "class": "hp2x-name" }, r);
      html("span", { "class": "hp2x-swatch", style: "background:" + b.colour }, name);
      html("span", { "class": "hp2x-label" }, name, b.name);
      html("span", { "class": "hp2x-hidden-tag" }, name, " (hidden)");
      if (b.detail) html("div", { "class": "hp2x-detail" }, name, b.detail);
      html("td", { "class": "hp2x-trend" }, r).appendChild(sparkline(D, k));
      FIGURES.forEach(function (f) { html("td", { "class": "hp2x-num", "data-col": f }, r); });
      html("td", { "class": "hp2x-suspect" }, r);
      rows[k] = r;
      return r;
    }
    function build() {
      var head = html("thead", {}, t), tr = html("tr", {}, head), body = html("tbody", {}, t);
      rows = [];
      sorter = hp2x.sortable(tr, COLS, nb, body, function (k) { return rows[k]; }, keyOf);
      var units = html("tr", { "class": "hp2x-units" }, head), per = D.sampleUnit.replace(/s$/, "");
      ["", "", "", D.valueUnit, D.valueUnit, D.sampleUnit, D.valueUnit + "/" + per, "",
        D.valueUnit + "\u00b7" + per, ""].forEach(function (u) { html("th", {}, units, u); });
      for (var k = nb - 1; k >= 0; k--) body.appendChild(row(k));
      mark();
      filter();
    }
    /* Row k's figures from c (a row of cells). */
    function fill(k, c) {
      var tds = rows[k].querySelectorAll("td.hp2x-num");
      FIGURES.forEach(function (f, j) { hp2x.text(tds[j], c[f]); });
      hp2x.text(rows[k].querySelector(".hp2x-suspect"), c.suspect ? "suspect" : "");
      rows[k].classList.toggle("hp2x-is-suspect", !!c.suspect);
    }
    function keyOf(k, field) {
      if (field === "name") return D.bands[k].name.toLowerCase();
      if (field === "suspect") return cells[k].suspect ? 1 : 0;
      return hp2x.cellNumber(cells[k][field]);
    }
    function filter() {
      var q = query.value.toLowerCase(), shown = 0;
      for (var k = 0; k < nb; k++) {
        var b = D.bands[k], hit = !q || (b.name + " " + b.detail).toLowerCase().indexOf(q) >= 0;
        if (rows) rows[k].hidden = !hit;
        if (hit) shown++;
      }
      document.getElementById("hp2x-count").textContent = shown + " of " + nb + " bands";
    }
    function mark() {
      for (var k = 0; rows && k < nb; k++) {
        rows[k].classList.toggle("hp2x-hidden", R.state.hidden[k]);
        rows[k].querySelector("input").checked = !R.state.hidden[k];
      }
    }
    query.addEventListener("input", filter);
    filter(); /* the count, rows or not */
    var when = keeper(R, t, build);
    function spark() {
      for (var k = 0; k < nb; k++) {
        var line = rows[k].querySelector("td.hp2x-trend polyline"), pts = sparkPoints(D, k);
        if (line.getAttribute("points") !== pts) line.setAttribute("points", pts);
      }
    }
    function show(z) {
      var blank = { total: "-", peak: "-", peakAt: "-", slope: "-", r2: "-", area: "-" };
      cells = !z ? D.bands : z.stats ? z.stats.rows : D.bands.map(function () { return blank; });
      for (var k = 0; k < nb; k++) fill(k, cells[k]);
      sorter.again();
    }
    /* The line above the table, at once even while the cells wait: one
     * line, on the screen while the table may not be (as the count beside
     * the filter), and never the former report's (a live page's report
     * made in its warm-up, live_swap.js adopt). */
    function line(z) {
      var p = document.getElementById("hp2x-bands-says");
      hp2x.text(p, says(R, z));
      p.setAttribute("data-zoomed", z ? "1" : "0");
      if (z) {
        p.setAttribute("data-from", z.lo);
        p.setAttribute("data-to", z.hi);
      } else {
        p.removeAttribute("data-from");
        p.removeAttribute("data-to");
      }
    }
    return {
      spark: function () { when("spark", spark); }, /* the held censuses changed */
      mark: mark,
      show: function (z) {
        line(z);
        when("show", function () { show(z); });
      }
    };
  };
})(window.hp2x);
