/* report_table.js -- the band table under the picture: a row per band
 * (top of the key first) with its swatch, name, the record its name leaves
 * out, a sparkline and --summary's figures; sorting by a heading, the
 * filter box, a box per row that hides or shows the band. */
(function (hp2x) {
  "use strict";
  var el = hp2x.el, html = hp2x.html, f2 = hp2x.f2, num = hp2x.num;
  var COLS = [["Shown", null], ["Band", "name"], ["Trend", null], ["Total", "total"],
    ["Peak", "peak"], ["Peak at", "peakAt"], ["Slope", "slope"], ["R\u00b2", "r2"],
    ["Area", "area"], ["Leak suspect", "suspect"]];

  /* A sparkline of band k's held values: at most 100 points, each the
   * largest value of its stretch. */
  function sparkline(D, k) {
    var v = D.bands[k].v, nh = D.t.length, n = Math.min(nh, 100), pts = [], max = 0, i;
    for (i = 0; i < nh; i++) max = Math.max(max, num(v[i]));
    for (var j = 0; j < n; j++) {
      var a = Math.floor(j * nh / n), b = Math.max(a + 1, Math.floor((j + 1) * nh / n)), m = 0;
      for (i = a; i < b; i++) m = Math.max(m, num(v[i]));
      pts.push(f2(j * 100 / Math.max(n - 1, 1)) + "," + f2(19 - (max > 0 ? m / max * 18 : 0)));
    }
    var s = el("svg", { width: "100", height: "20", viewBox: "0 0 100 20", "class": "hp2x-spark" });
    el("polyline", { points: pts.join(" "), fill: "none", stroke: D.bands[k].colour === "#ffffff" ?
      "#000" : "#333", "stroke-width": "1" }, s);
    return s;
  }

  function cellKey(D, k, field) {
    var b = D.bands[k];
    if (field === "name") return b.name.toLowerCase();
    if (field === "suspect") return b.suspect ? 1 : 0;
    var v = Number(String(b[field]).replace(/,/g, ""));
    return isNaN(v) ? -Infinity : v;
  }

  /* The table of report R; setHidden(k, hidden) is called when a row's
   * box changes.  Returns { mark() }: marks the rows of hidden bands. */
  hp2x.buildTable = function (R, setHidden) {
    var D = R.D, nb = D.bands.length, T = { rows: [], sortCol: -1, asc: true };
    var t = document.getElementById("hp2x-table");
    var head = html("thead", {}, t), tr = html("tr", {}, head), body = html("tbody", {}, t);
    function row(k) {
      var b = D.bands[k], r = html("tr", { "data-band": k });
      var box = html("input", { type: "checkbox", "aria-label": "show band" }, html("td", {}, r));
      box.checked = true;
      box.addEventListener("change", function () { setHidden(k, !box.checked); });
      var name = html("td", { "class": "hp2x-name" }, r);
      html("span", { "class": "hp2x-swatch", style: "background:" + b.colour }, name);
      html("span", { "class": "hp2x-label" }, name, b.name);
      html("span", { "class": "hp2x-hidden-tag" }, name, " (hidden)");
      if (b.detail) html("div", { "class": "hp2x-detail" }, name, b.detail);
      html("td", {}, r).appendChild(sparkline(D, k));
      ["total", "peak", "peakAt", "slope", "r2", "area"].forEach(function (f) {
        html("td", { "class": "hp2x-num", "data-col": f }, r, b[f]);
      });
      html("td", { "class": "hp2x-suspect" }, r, b.suspect ? "suspect" : "");
      if (b.suspect) r.className = "hp2x-is-suspect";
      T.rows[k] = r;
      return r;
    }
    function sort(i) {
      var field = COLS[i][1], ks = [];
      T.asc = T.sortCol === i ? !T.asc : field === "name";
      T.sortCol = i;
      for (var k = 0; k < nb; k++) ks.push(k);
      ks.sort(function (a, b) {
        var x = cellKey(D, a, field), y = cellKey(D, b, field);
        var c = x < y ? -1 : x > y ? 1 : b - a;
        return T.asc ? c : -c;
      });
      ks.forEach(function (k) { body.appendChild(T.rows[k]); });
      var ths = document.querySelectorAll("#hp2x-table thead tr:first-child th");
      for (var j = 0; j < ths.length; j++)
        if (COLS[j][1]) ths[j].setAttribute("aria-sort", j === i ? (T.asc ? "ascending" : "descending") : "none");
    }
    function filter() {
      var q = document.getElementById("hp2x-filter").value.toLowerCase(), shown = 0;
      for (var k = 0; k < nb; k++) {
        var b = D.bands[k], hit = !q || (b.name + " " + b.detail).toLowerCase().indexOf(q) >= 0;
        T.rows[k].hidden = !hit;
        if (hit) shown++;
      }
      document.getElementById("hp2x-count").textContent = shown + " of " + nb + " bands";
    }
    COLS.forEach(function (c, i) {
      var th = html("th", { scope: "col" }, tr, c[0]);
      if (!c[1]) return;
      th.className = "hp2x-sortable";
      th.tabIndex = 0;
      th.addEventListener("click", function () { sort(i); });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") sort(i); });
    });
    var units = html("tr", { "class": "hp2x-units" }, head), per = D.sampleUnit.replace(/s$/, "");
    ["", "", "", D.valueUnit, D.valueUnit, D.sampleUnit, D.valueUnit + "/" + per, "",
      D.valueUnit + "\u00b7" + per, ""].forEach(function (u) { html("th", {}, units, u); });
    for (var k = nb - 1; k >= 0; k--) body.appendChild(row(k));
    document.getElementById("hp2x-filter").addEventListener("input", filter);
    filter();
    return {
      mark: function () {
        for (var k = 0; k < nb; k++) {
          T.rows[k].classList.toggle("hp2x-hidden", R.state.hidden[k]);
          T.rows[k].querySelector("input").checked = !R.state.hidden[k];
        }
      }
    };
  };
})(window.hp2x);
