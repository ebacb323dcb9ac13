/* report.js -- the script of hp2x's HTML report (embedded by mk/embed.sh).
 * It reads the JSON data in #hp2x-data and draws, into hp2x's own SVG
 * picture, what follows the time axis: the bands (from the censuses the
 * page holds, at the picture's places), the x ticks (hp2ps's rule), the
 * --heap lines and the marks; then hover, hiding bands, zooming in time
 * and the band table.  Labels are untrusted: they reach the page only
 * through textContent and attribute values, never as markup.  No
 * network, no other file, no library.  A live page (hp2x --serve, live.js)
 * swaps a newer report in and runs this again (window.hp2xReport), with
 * what the reader chose kept (window.hp2xKeep, from window.hp2xState):
 * the bands hidden, by name, and the time zoom. */
window.hp2xReport = function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var D = JSON.parse(document.getElementById("hp2x-data").textContent);
  var svg = document.getElementById("hp2x-picture");
  var P = D.page, G = { x: P.graph[0], y: P.graph[1], w: P.graph[2], h: P.graph[3] };
  var F = P.frame; /* frame -> page: xx yx xy yy x0 y0 */
  var nb = D.bands.length, nh = D.t.length;
  var times = D.t.map(Number);
  var hidden = D.bands.map(function () { return false; });
  var view = { t0: D.x0, span: D.xrange, zoomed: false };
  var layers = {};
  var keep = window.hp2xKeep;
  window.hp2xKeep = null;
  if (keep) {
    D.bands.forEach(function (b, k) { hidden[k] = keep.hidden.indexOf(b.name) >= 0; });
    if (keep.view.zoomed) view = keep.view;
  }
  window.hp2xState = function () {
    return { hidden: D.bands.filter(function (b, k) { return hidden[k]; })
      .map(function (b) { return b.name; }), view: view };
  };

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(name, attrs, parent, text) {
    var e = document.createElement(name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function toPage(x, y) {
    return [F[0] * x + F[2] * y + F[4], F[1] * x + F[3] * y + F[5]];
  }
  function fromPage(px, py) {
    var det = F[0] * F[3] - F[1] * F[2];
    var dx = px - F[4], dy = py - F[5];
    return [(F[3] * dx - F[2] * dy) / det, (F[0] * dy - F[1] * dx) / det];
  }
  function num(v) { return Number(v); }
  function xOf(t) { return G.x + (t - view.t0) / view.span * G.w; }
  function yOf(v) { return G.y + (v - D.ymin) / D.yrange * G.h; }
  function f2(v) { return Math.round(v * 100) / 100; }

  /* ---------------------------------------------------------- layers */
  /* hp2x's SVG of the picture (without what the page draws) goes into
   * a group shown instead of the PNG once the view differs from it. */
  function setUp() {
    var defs = svg.querySelector("defs") || el("defs", {}, null);
    if (!defs.parentNode) svg.insertBefore(defs, svg.firstChild);
    var vector = el("g", { id: "hp2x-vector", visibility: "hidden" });
    while (defs.nextSibling) vector.appendChild(defs.nextSibling);
    svg.appendChild(vector);
    layers.vector = vector;
    var clip = el("clipPath", { id: "hp2x-graph-clip" }, defs);
    el("rect", { x: G.x - 0.5, y: G.y - 1, width: G.w + 1, height: G.h + 2 }, clip);
    var m = "matrix(" + F.join(" ") + ")";
    var data = el("g", { id: "hp2x-data-layer", transform: m });
    vector.insertBefore(data, vector.firstChild);
    layers.bands = el("g", { id: "hp2x-bandpaths", "clip-path": "url(#hp2x-graph-clip)" }, data);
    layers.lines = el("g", { id: "hp2x-lines", "clip-path": "url(#hp2x-graph-clip)",
      fill: "none" }, data);
    layers.marks = el("g", { id: "hp2x-marks" }, data);
    layers.ticks = el("g", { id: "hp2x-xticks" }, data);
    layers.labels = el("g", { id: "hp2x-xlabels", "font-family": "Nimbus Sans, Helvetica, Arial, sans-serif",
      "font-size": f2(10 * Math.abs(F[0] || F[1])), "text-anchor": "middle", fill: "#000" }, vector);
    layers.keyMarks = el("g", { id: "hp2x-key-hidden" }, vector);
    var over = el("g", { id: "hp2x-overlay", transform: m }, svg);
    layers.select = el("rect", { id: "hp2x-selection", fill: "#3366cc", "fill-opacity": "0.2",
      stroke: "#3366cc", "stroke-width": "0.5", visibility: "hidden" }, over);
  }
  /* The PNG shows the whole run with every band, pixel for pixel where a
   * CSS pixel is a device pixel; any other view, or another pixel ratio
   * (a high-density screen, the browser's zoom), is drawn. */
  function showDrawn() {
    var drawn = view.zoomed || hidden.indexOf(true) >= 0 || window.devicePixelRatio !== 1;
    layers.vector.setAttribute("visibility", drawn ? "visible" : "hidden");
    document.getElementById("hp2x-raster").style.visibility = drawn ? "hidden" : "visible";
    document.getElementById("hp2x-figure").setAttribute("data-drawn", drawn ? "1" : "0");
  }

  /* ----------------------------------------------------------- bands */
  /* Held censuses drawn: those in view, and one beyond each side. */
  function inView() {
    var a = 0, b = nh - 1, t1 = view.t0 + view.span;
    while (a < nh - 1 && times[a + 1] < view.t0) a++;
    while (b > 0 && times[b - 1] > t1) b--;
    return [a, b];
  }
  /* Stacked edges: edge[k][i] is the top of band k at held census i. */
  function edges() {
    var e = [], sum = times.map(function () { return 0; });
    for (var k = 0; k < nb; k++) {
      var v = D.bands[k].v, row = new Array(nh);
      for (var i = 0; i < nh; i++) row[i] = sum[i] += num(v[i]);
      e.push(row);
    }
    return e;
  }
  var EDGES = null;
  /* Band k's outline, painted top-down as hp2x paints: from its upper
   * edge down to the nearest hidden band's upper edge below it, or the
   * axis.  Points in frame units. */
  function bandShape(k, r) {
    var top = EDGES[k], lo = -1, pts = [], a = r[0], b = r[1], i;
    for (var j = k - 1; j >= 0; j--) if (hidden[j]) { lo = j; break; }
    if (lo < 0) pts.push([xOf(times[a]), yOf(0)]);
    for (i = a; i <= b; i++) pts.push([xOf(times[i]), yOf(top[i])]);
    if (lo < 0) pts.push([xOf(times[b]), yOf(0)]);
    else for (i = b; i >= a; i--) pts.push([xOf(times[i]), yOf(EDGES[lo][i])]);
    return pts;
  }
  /* A diff chart's bands: growth stacked above zero, shrinkage below. */
  function signedShapes(r) {
    var pos = times.map(function () { return 0; }), neg = pos.slice(), out = [];
    for (var k = 0; k < nb; k++) {
      var v = D.bands[k].v, lo = [], hi = [], pts = [], i;
      for (i = 0; i < nh; i++) {
        var x = num(v[i]);
        if (x >= 0) { lo[i] = pos[i]; hi[i] = pos[i] += x; }
        else { hi[i] = neg[i]; lo[i] = neg[i] += x; }
      }
      for (i = r[0]; i <= r[1]; i++) pts.push([xOf(times[i]), yOf(lo[i])]);
      for (i = r[1]; i >= r[0]; i--) pts.push([xOf(times[i]), yOf(hi[i])]);
      out.push(pts);
    }
    return out;
  }
  /* A path's segments as quadrilaterals 0.5 pt wide (or width), all
   * wound alike: a
   * stroke filled, as hp2x's SVG has its strokes (a browser draws a
   * stroke thinner than a pixel wider and fainter). */
  function outline(pts, closed, width) {
    var d = [], n = pts.length, w = (width || 0.5) / 2;
    for (var i = 0; i + 1 < n + (closed ? 1 : 0); i++) {
      var a = pts[i], b = pts[(i + 1) % n], dx = b[0] - a[0], dy = b[1] - a[1];
      var len = Math.sqrt(dx * dx + dy * dy);
      if (!(len > 0)) continue;
      var nx = -dy / len * w, ny = dx / len * w;
      d.push("M" + f2(a[0] + nx) + " " + f2(a[1] + ny) + "L" + f2(b[0] + nx) + " " + f2(b[1] + ny) +
        "L" + f2(b[0] - nx) + " " + f2(b[1] - ny) + "L" + f2(a[0] - nx) + " " + f2(a[1] - ny) + "Z");
    }
    return d.join("");
  }
  function polygon(pts) {
    return pts.map(function (p, i) { return (i ? "L" : "M") + f2(p[0]) + " " + f2(p[1]); }).join("") + "Z";
  }
  function drawBands() {
    var g = layers.bands, r = inView();
    while (g.firstChild) g.removeChild(g.firstChild);
    if (!nh || !nb) return;
    var shapes = D.signed ? signedShapes(r) : null;
    /* Painted as hp2x paints: stacked bands top-down, a diff chart's
     * bottom-up. */
    for (var j = 0; j < nb; j++) {
      var k = D.signed ? j : nb - 1 - j;
      if (hidden[k]) continue;
      var pts = shapes ? shapes[k] : bandShape(k, r);
      el("path", { d: polygon(pts), fill: D.bands[k].colour, "data-band": k, "class": "hp2x-band" }, g);
      el("path", { d: outline(pts, true), fill: "#000", "class": "hp2x-outline" }, g);
    }
    if (D.signed) {
      var z = yOf(0);
      el("path", { d: outline([[G.x, z], [G.x + G.w, z]], false), fill: "#000" }, g);
    }
  }

  /* ----------------------------------------------------- x axis ticks */
  /* hp2ps's rounding of a tick step to 1, 2 or 5 times a power of ten. */
  function round125(y) {
    if (!(y > 0)) return 1;
    var up = 0, down = 0;
    while (y > 10) { y /= 10; down++; }
    while (y < 1) { y *= 10; up++; }
    y = y > 4 ? 5 : y > 1 ? 2 : 1;
    for (; down > 0; down--) y *= 10;
    for (; up > 0; up--) y /= 10;
    return y;
  }
  /* The x ticks of the view: hp2ps's from the run's start; a zoomed view
   * (or a stream joined mid-run) at the step's multiples, with the
   * decimals the step needs. */
  function xTicks() {
    var t0 = view.t0, inc = round125(view.span / 7), dec = 1, v = t0;
    var end = view.zoomed ? t0 + view.span : D.tickEnd, out = [];
    if ((view.zoomed || D.midRun) && inc > 0) {
      while (dec < 6 && inc < Math.pow(10, -dec) * (1 - 1e-9)) dec++;
      v = Math.ceil(t0 / inc - 1e-9) * inc;
      if (v < t0) v = t0;
    }
    var room = P.xRoom;
    for (; v < end && out.length < 1000; v += inc) {
      var x = (v - t0) * G.w / view.span;
      if (x < room) out.push([x, v.toFixed(dec)]);
      if (!(inc > 0)) break;
    }
    return out;
  }
  function drawTicks() {
    var t = layers.ticks, l = layers.labels;
    while (t.firstChild) t.removeChild(t.firstChild);
    while (l.firstChild) l.removeChild(l.firstChild);
    if (!(nh > 1 || D.tickEnd > D.x0)) return;
    var ticks = xTicks(), d = [];
    ticks.forEach(function (tk) {
      var x = G.x + tk[0];
      d.push(outline([[x, G.y], [x, G.y - 4]], false));
      var p = toPage(x, 5);
      var text = el("text", { x: f2(p[0]), y: f2(p[1]) }, l);
      text.textContent = tk[1];
    });
    if (d.length) el("path", { d: d.join(""), fill: "#000" }, t);
  }

  /* ------------------------------------------------ heap lines, marks */
  function drawLines() {
    var g = layers.lines;
    while (g.firstChild) g.removeChild(g.firstChild);
    D.lines.forEach(function (line) {
      var d = [];
      for (var i = 0; i < line.t.length; i++)
        d.push((i ? "L" : "M") + f2(xOf(line.t[i])) + " " + f2(yOf(num(line.y[i]))));
      var rgb = line.rgb.map(function (c) { return Math.round(c * 255); });
      var a = { d: d.join(""), stroke: "rgb(" + rgb.join(",") + ")", "stroke-width": "1.2",
        "stroke-linejoin": "round", "class": "hp2x-line" };
      if (line.dash.length) a["stroke-dasharray"] = line.dash.join(" ");
      el("path", a, g);
    });
  }
  function drawMarks() {
    var g = layers.marks, last = -Infinity;
    while (g.firstChild) g.removeChild(g.firstChild);
    D.marks.forEach(function (mk) {
      var x = xOf(mk[0]);
      if (!(x >= G.x && x <= G.x + G.w)) return;
      /* The dashed line (2 on, 1.5 off, 0.35 wide) and the triangle's
       * outline as fills, as the page's other strokes. */
      var d = [];
      for (var y = G.y; y < G.y + G.h; y += 3.5)
        d.push(outline([[x, y], [x, Math.min(y + 2, G.y + G.h)]], false, 0.35));
      el("path", { d: d.join(""), fill: "#000" }, g);
      var tri = [[x - 4, G.y], [x, G.y - 4], [x + 4, G.y]];
      el("path", { d: polygon(tri), fill: "#fff" }, g);
      el("path", { d: outline(tri, true), fill: "#000" }, g);
      if (mk[1] && x - last >= 8.5) {
        var t = el("text", { x: 0, y: 0, "font-size": "7", "text-anchor": "end", "class": "hp2x-mark",
          "font-family": "Nimbus Sans, Helvetica, Arial, sans-serif",
          transform: "translate(" + f2(x - 1.5) + " " + f2(G.y + G.h - 2) + ") scale(1 -1) rotate(-90)" }, g);
        t.textContent = mk[1];
        var box = t.getBBox(); /* on white, as hp2x draws it */
        g.insertBefore(el("rect", { x: f2(box.x), y: f2(box.y), width: f2(box.width),
          height: f2(box.height), fill: "#fff", transform: t.getAttribute("transform") }), t);
        last = x;
      }
    });
  }

  function drawAll() {
    showDrawn();
    drawBands();
    drawTicks();
    drawLines();
    drawMarks();
    var label = document.getElementById("hp2x-view");
    label.textContent = view.zoomed ? "Showing " + view.t0.toFixed(3) + " to " +
      (view.t0 + view.span).toFixed(3) + " " + D.sampleUnit : "";
    document.getElementById("hp2x-reset").disabled = !view.zoomed;
  }

  /* ------------------------------------------------ hiding, the key */
  function markKey() {
    var g = layers.keyMarks;
    while (g.firstChild) g.removeChild(g.firstChild);
    if (!(P.keyW > 0)) return;
    for (var k = 0; k < nb; k++) {
      if (!hidden[k]) continue;
      var c = P.keyC[k], a = toPage(P.keyX + 5, c + 7), b = toPage(P.keyX + 5 + P.keyW, c - 7);
      el("rect", { x: f2(Math.min(a[0], b[0])), y: f2(Math.min(a[1], b[1])),
        width: f2(Math.abs(b[0] - a[0])), height: f2(Math.abs(b[1] - a[1])),
        fill: "#fff", "fill-opacity": "0.75", "class": "hp2x-key-hidden", "data-band": k }, g);
    }
  }
  function setHidden(k, h) {
    hidden[k] = h;
    showDrawn();
    drawBands();
    markKey();
    table.mark();
  }

  /* ------------------------------------------------------- the table */
  var COLS = [["Shown", null], ["Band", "name"], ["Trend", null], ["Total", "total"],
    ["Peak", "peak"], ["Peak at", "peakAt"], ["Slope", "slope"], ["R\u00b2", "r2"],
    ["Area", "area"], ["Leak suspect", "suspect"]];
  var table = { rows: [], sortCol: -1, asc: true };
  function sparkline(k) {
    var v = D.bands[k].v, n = Math.min(nh, 100), pts = [], max = 0;
    for (var i = 0; i < nh; i++) max = Math.max(max, num(v[i]));
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
  function buildTable() {
    var t = document.getElementById("hp2x-table");
    var head = html("thead", {}, t), tr = html("tr", {}, head), body = html("tbody", {}, t);
    COLS.forEach(function (c, i) {
      var th = html("th", { scope: "col" }, tr, c[0]);
      if (c[1]) {
        th.className = "hp2x-sortable";
        th.tabIndex = 0;
        th.addEventListener("click", function () { table.sort(i); });
        th.addEventListener("keydown", function (e) { if (e.key === "Enter") table.sort(i); });
      }
    });
    var units = html("tr", { "class": "hp2x-units" }, head);
    ["", "", "", D.valueUnit, D.valueUnit, D.sampleUnit, D.valueUnit + "/" + D.sampleUnit.replace(/s$/, ""),
      "", D.valueUnit + "\u00b7" + D.sampleUnit.replace(/s$/, ""), ""].forEach(function (u) {
      html("th", {}, units, u);
    });
    for (var k = nb - 1; k >= 0; k--) body.appendChild(bandRow(k));
    document.getElementById("hp2x-filter").addEventListener("input", table.filter);
    table.body = body;
    table.filter();
  }
  function bandRow(k) {
    var b = D.bands[k], tr = html("tr", { "data-band": k });
    var box = html("input", { type: "checkbox", "aria-label": "show band" }, html("td", {}, tr));
    box.checked = true;
    box.addEventListener("change", function () { setHidden(k, !box.checked); });
    var name = html("td", { "class": "hp2x-name" }, tr);
    html("span", { "class": "hp2x-swatch", style: "background:" + b.colour }, name);
    html("span", { "class": "hp2x-label" }, name, b.name);
    html("span", { "class": "hp2x-hidden-tag" }, name, " (hidden)");
    if (b.detail) html("div", { "class": "hp2x-detail" }, name, b.detail);
    html("td", {}, tr).appendChild(sparkline(k));
    ["total", "peak", "peakAt", "slope", "r2", "area"].forEach(function (f) {
      html("td", { "class": "hp2x-num", "data-col": f }, tr, b[f]);
    });
    html("td", { "class": "hp2x-suspect" }, tr, b.suspect ? "suspect" : "");
    if (b.suspect) tr.className = "hp2x-is-suspect";
    table.rows[k] = tr;
    return tr;
  }
  function cellKey(k, field) {
    var b = D.bands[k];
    if (field === "name") return b.name.toLowerCase();
    if (field === "suspect") return b.suspect ? 1 : 0;
    var v = Number(String(b[field]).replace(/,/g, ""));
    return isNaN(v) ? -Infinity : v;
  }
  table.sort = function (i) {
    var field = COLS[i][1];
    table.asc = table.sortCol === i ? !table.asc : field === "name";
    table.sortCol = i;
    var ks = [];
    for (var k = 0; k < nb; k++) ks.push(k);
    ks.sort(function (a, b) {
      var x = cellKey(a, field), y = cellKey(b, field);
      var c = x < y ? -1 : x > y ? 1 : b - a;
      return table.asc ? c : -c;
    });
    ks.forEach(function (k) { table.body.appendChild(table.rows[k]); });
    var ths = document.querySelectorAll("#hp2x-table thead tr:first-child th");
    for (var j = 0; j < ths.length; j++)
      if (COLS[j][1]) ths[j].setAttribute("aria-sort", j === i ? (table.asc ? "ascending" : "descending") : "none");
  };
  table.filter = function () {
    var q = document.getElementById("hp2x-filter").value.toLowerCase(), shown = 0;
    for (var k = 0; k < nb; k++) {
      var b = D.bands[k], hit = !q || (b.name + " " + b.detail).toLowerCase().indexOf(q) >= 0;
      table.rows[k].hidden = !hit;
      if (hit) shown++;
    }
    document.getElementById("hp2x-count").textContent = shown + " of " + nb + " bands";
  };
  table.mark = function () {
    for (var k = 0; k < nb; k++) {
      table.rows[k].classList.toggle("hp2x-hidden", hidden[k]);
      table.rows[k].querySelector("input").checked = !hidden[k];
    }
  };

  /* ------------------------------------------------ pointer: hover, zoom */
  function framePoint(ev) {
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return fromPage(p.x, p.y);
  }
  function inGraph(f) {
    return f[0] >= G.x && f[0] <= G.x + G.w && f[1] >= G.y && f[1] <= G.y + G.h;
  }
  function keyAt(f) {
    if (!(P.keyW > 0)) return -1;
    for (var k = 0; k < nb; k++)
      if (f[0] >= P.keyX + 5 && f[0] <= P.keyX + 5 + P.keyW && Math.abs(f[1] - P.keyC[k]) <= 7)
        return k;
    return -1;
  }
  /* The held census nearest time t among those in view. */
  function nearest(t) {
    var r = inView(), best = r[0];
    for (var i = r[0]; i <= r[1]; i++)
      if (Math.abs(times[i] - t) < Math.abs(times[best] - t)) best = i;
    return best;
  }
  function bandAt(i, value) {
    if (D.signed) { /* growth stacked up from zero, shrinkage down */
      var pos = 0, neg = 0;
      for (var j = 0; j < nb; j++) {
        var x = num(D.bands[j].v[i]), lo = x >= 0 ? pos : neg + x, hi = x >= 0 ? pos + x : neg;
        if (x >= 0) pos += x; else neg += x;
        if (value >= lo && value <= hi && hi > lo) return hidden[j] ? -1 : j;
      }
      return -1;
    }
    for (var k = 0; k < nb; k++) {
      var lo = k ? EDGES[k - 1][i] : 0;
      if (value >= lo && value <= EDGES[k][i] && EDGES[k][i] > lo) return hidden[k] ? -1 : k;
    }
    return -1;
  }
  var tip = document.getElementById("hp2x-tip");
  function showTip(ev, k, i) {
    var b = D.bands[k];
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    html("div", { "class": "hp2x-tip-name" }, tip, b.name);
    if (b.detail) html("div", { "class": "hp2x-detail" }, tip, b.detail);
    if (i >= 0) {
      var line = html("div", { "class": "hp2x-tip-census" }, tip);
      line.appendChild(document.createTextNode("census at "));
      html("span", { "class": "hp2x-tip-time" }, line, D.t[i]);
      line.appendChild(document.createTextNode(" " + D.sampleUnit + ": "));
      html("span", { "class": "hp2x-tip-value" }, line, String(b.v[i]));
      line.appendChild(document.createTextNode(" " + D.valueUnit));
    }
    html("div", { "class": "hp2x-tip-peak" }, tip, "peak " + b.peak + " " + D.valueUnit + " at " +
      b.peakAt + " " + D.sampleUnit);
    tip.setAttribute("data-band", k);
    tip.setAttribute("data-census", i);
    tip.hidden = false;
    tip.style.left = Math.min(ev.pageX + 14, window.scrollX + document.documentElement.clientWidth - 320) + "px";
    tip.style.top = (ev.pageY + 14) + "px";
  }
  var drag = null;
  function onMove(ev) {
    var f = framePoint(ev);
    if (drag) {
      var x0 = Math.max(G.x, Math.min(drag, f[0])), x1 = Math.min(G.x + G.w, Math.max(drag, f[0]));
      layers.select.setAttribute("x", f2(x0));
      layers.select.setAttribute("width", f2(Math.max(x1 - x0, 0)));
      return;
    }
    var k = keyAt(f), i = -1;
    if (k < 0 && inGraph(f) && nh) {
      i = nearest(view.t0 + (f[0] - G.x) / G.w * view.span);
      k = bandAt(i, (f[1] - G.y) / G.h * D.yrange + D.ymin);
    }
    if (k >= 0) showTip(ev, k, i);
    else tip.hidden = true;
  }
  function onDown(ev) {
    var f = framePoint(ev);
    if (ev.button !== 0 || !inGraph(f)) return;
    drag = f[0];
    layers.select.setAttribute("x", f2(f[0]));
    layers.select.setAttribute("y", G.y);
    layers.select.setAttribute("width", 0);
    layers.select.setAttribute("height", G.h);
    layers.select.setAttribute("visibility", "visible");
    ev.preventDefault();
  }
  function onUp(ev) {
    if (drag === null) return;
    var f = framePoint(ev), a = Math.max(G.x, Math.min(drag, f[0])), b = Math.min(G.x + G.w, Math.max(drag, f[0]));
    drag = null;
    layers.select.setAttribute("visibility", "hidden");
    if (b - a < 2) return;
    var t0 = view.t0 + (a - G.x) / G.w * view.span, t1 = view.t0 + (b - G.x) / G.w * view.span;
    view = { t0: t0, span: t1 - t0, zoomed: true };
    drawAll();
  }
  function onClick(ev) {
    var k = keyAt(framePoint(ev));
    if (k >= 0) setHidden(k, !hidden[k]);
  }

  setUp();
  EDGES = edges();
  buildTable();
  drawAll();
  if (hidden.indexOf(true) >= 0) { markKey(); table.mark(); }
  svg.addEventListener("mousemove", onMove);
  svg.addEventListener("mouseleave", function () { tip.hidden = true; });
  svg.addEventListener("mousedown", onDown);
  /* The window's listeners outlive a report a live page swaps out: they
   * call the current one's. */
  window.hp2xOnUp = onUp;
  window.hp2xOnResize = showDrawn; /* the pixel ratio may change */
  if (!window.hp2xListening) {
    window.hp2xListening = true;
    window.addEventListener("mouseup", function (e) { window.hp2xOnUp(e); });
    window.addEventListener("resize", function () { window.hp2xOnResize(); });
  }
  svg.addEventListener("click", onClick);
  document.getElementById("hp2x-reset").addEventListener("click", function () {
    view = { t0: D.x0, span: D.xrange, zoomed: false };
    drawAll();
  });
  document.documentElement.setAttribute("data-hp2x-ready", "1");
};
window.hp2xReport();
