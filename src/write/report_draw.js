/* report_draw.js -- the page's own drawing, into hp2x's SVG of the picture
 * (which hp2x drew without it: its frame and title only): the bands of
 * the chart kind shown, the axes, their ticks, the x axis's unit and the y
 * legend, the key (boxes, and names as key_names.c shortened them), the
 * --heap lines and the marks, at the picture's places and with its look (the data's `look`:
 * widths, dashes, the key's boxes, the font), for the view shown (the
 * time span, the bands hidden).  A report R in, SVG elements out: R.D is
 * the data, R.fr its frame (report_base.js), R.state the view, R.curves
 * the kind's numbers (report_charts.js).  Strokes are drawn as fills, as
 * hp2x's SVG has them (a browser draws a stroke thinner than a pixel
 * wider and fainter). */
(function (hp2x) {
  "use strict";
  var el = hp2x.el, f2 = hp2x.f2, num = hp2x.num;

  /* hp2x's SVG (what the page does not draw) goes into a group shown
   * instead of the PNG once the view differs from it; the page's layers
   * go with it. */
  hp2x.setUp = function (R) {
    var svg = R.svg, G = R.fr.G, look = R.D.look, ink = hp2x.rgb(look.ink), L = {};
    var defs = svg.querySelector("defs") || el("defs", {}, null);
    if (!defs.parentNode) svg.insertBefore(defs, svg.firstChild);
    var vector = el("g", { id: "hp2x-vector", visibility: "hidden" });
    while (defs.nextSibling) vector.appendChild(defs.nextSibling);
    svg.appendChild(vector);
    L.vector = vector;
    var clip = el("clipPath", { id: "hp2x-graph-clip" }, defs);
    /* the graph and room for the outlines along its edges */
    var m = look.line;
    el("rect", { x: G.x - m, y: G.y - 2 * m, width: G.w + 2 * m, height: G.h + 4 * m }, clip);
    var matrix = "matrix(" + R.fr.F.join(" ") + ")";
    var data = el("g", { id: "hp2x-data-layer", transform: matrix });
    vector.insertBefore(data, vector.firstChild);
    L.bands = el("g", { id: "hp2x-bandpaths", "clip-path": "url(#hp2x-graph-clip)" }, data);
    L.lines = el("g", { id: "hp2x-lines", "clip-path": "url(#hp2x-graph-clip)", fill: "none" }, data);
    L.marks = el("g", { id: "hp2x-marks" }, data);
    L.ticks = el("g", { id: "hp2x-xticks" }, data);
    L.yticks = el("g", { id: "hp2x-yticks" }, data);
    L.keyBoxes = el("g", { id: "hp2x-key-boxes" }, data);
    L.axes = el("g", { id: "hp2x-axes" }, data);
    L.keyLines = el("g", { id: "hp2x-key-lines", fill: "none" }, data);
    var font = look.font + ", " + look.fontFallback;
    L.labels = el("g", { id: "hp2x-xlabels", "font-family": font, "font-size": f2(look.text * R.fr.scale),
      "text-anchor": "middle", fill: ink }, vector);
    L.ylabels = el("g", { id: "hp2x-ylabels", "font-family": font, "font-size": f2(look.text * R.fr.scale),
      "text-anchor": "end", fill: ink }, vector);
    L.unit = el("g", { id: "hp2x-xunit", "font-family": font, "font-size": f2(look.text * R.fr.scale),
      "text-anchor": "end", fill: ink }, vector);
    var A = R.D.page.area;
    L.area = el("text", { id: "hp2x-area-text", "font-family": font, "font-size": f2(A[3] * R.fr.scale),
      "text-anchor": ["start", "middle", "end"][R.D.page.areaAnchor], fill: ink }, vector);
    L.keyNames = el("g", { id: "hp2x-key-names", "font-family": font, "font-size": f2(look.text * R.fr.scale),
      fill: ink }, vector);
    L.keyMarks = el("g", { id: "hp2x-key-hidden" }, vector);
    var over = el("g", { id: "hp2x-overlay", transform: matrix }, svg);
    L.moment = el("g", { id: "hp2x-moment-mark" }, over);
    L.select = el("rect", { id: "hp2x-selection", fill: "#3366cc", "fill-opacity": "0.2",
      stroke: "#3366cc", "stroke-width": "0.5", visibility: "hidden" }, over);
    R.layers = L;
  };

  function xOf(R, t) {
    var G = R.fr.G, v = R.state.view;
    return G.x + (t - v.t0) / v.span * G.w;
  }
  function yOf(R, y) {
    var G = R.fr.G, c = R.D.charts[R.state.chart];
    return G.y + (y - c.ymin) / c.yrange * G.h;
  }
  hp2x.xOf = xOf;

  /* Segment a-b of a stroke `width` wide as a quadrilateral (path data;
   * "" for a segment of no length), wound as every other. */
  function quad(ax, ay, bx, by, width) {
    var dx = bx - ax, dy = by - ay, len = Math.sqrt(dx * dx + dy * dy), w = width / 2;
    if (!(len > 0)) return "";
    var nx = -dy / len * w, ny = dx / len * w;
    return "M" + f2(ax + nx) + " " + f2(ay + ny) + "L" + f2(bx + nx) + " " + f2(by + ny) +
      "L" + f2(bx - nx) + " " + f2(by - ny) + "L" + f2(ax - nx) + " " + f2(ay - ny) + "Z";
  }
  /* A path's segments as quadrilaterals `width` wide, all wound alike: a
   * stroke filled. */
  function outline(pts, closed, width) {
    var d = [], n = pts.length;
    for (var i = 0; i + 1 < n + (closed ? 1 : 0); i++) {
      var a = pts[i], b = pts[(i + 1) % n];
      d.push(quad(a[0], a[1], b[0], b[1], width));
    }
    return d.join("");
  }
  function polyline(pts, closed) {
    return pts.map(function (p, i) { return (i ? "L" : "M") + f2(p[0]) + " " + f2(p[1]); }).join("") +
      (closed ? "Z" : "");
  }
  hp2x.outline = outline;
  hp2x.quad = quad;
  hp2x.yOf = yOf;
  hp2x.polyline = polyline;

  /* Held censuses drawn: those in view, and one beyond each side. */
  hp2x.inView = function (R) {
    var t = R.times, nh = t.length, v = R.state.view, a = 0, b = nh - 1, t1 = v.t0 + v.span;
    while (a < nh - 1 && t[a + 1] < v.t0) a++;
    while (b > 0 && t[b - 1] > t1) b--;
    return [a, b];
  };

  /* A band's line: its colour over a black casing (under --pattern black,
   * dashed by band), as in the picture's key and graph: the attributes of
   * its paths, bottom first. */
  hp2x.lineAttrs = function (R, k, d) {
    var look = R.D.look, a = { d: d, fill: "none", "stroke-linejoin": "round",
      "stroke-linecap": "round", "class": "hp2x-band", "data-band": k };
    if (R.D.pattern) {
      var dash = look.patternDashes[k % look.patternDashes.length];
      a.stroke = hp2x.rgb(look.ink);
      a["stroke-width"] = look.patternLine;
      if (dash.length) a["stroke-dasharray"] = dash.join(" ");
      return [a];
    }
    a.stroke = R.D.bands[k].colour;
    a["stroke-width"] = look.chartLine;
    return [{ d: d, fill: "none", stroke: hp2x.rgb(look.ink), "stroke-width": look.chartCasing,
      "stroke-linejoin": "round", "stroke-linecap": "round", "class": "hp2x-casing" }, a];
  };
  function bandLine(R, k, d, parent) {
    var made = null;
    hp2x.lineAttrs(R, k, d).forEach(function (a) { made = el("path", a, parent); });
    return made;
  }

  /* Whether layer g is to be drawn again: what it is drawn from (text)
   * differs from what it was drawn from last (a live page's census
   * changes the ticks now and then, the key never). */
  function changed(g, from) {
    if (g.hp2xFrom === from) return false;
    g.hp2xFrom = from;
    return true;
  }

  /* The x ticks of the view and their labels. */
  hp2x.drawTicks = function (R) {
    var D = R.D, t = R.layers.ticks, l = R.layers.labels, G = R.fr.G, look = D.look;
    var ink = hp2x.rgb(look.ink);
    var ticks = R.times.length > 1 || D.tickEnd > D.x0 ? hp2x.xTicks(D, R.state.view, G.w) : [];
    if (!changed(t, ticks.join(";"))) return;
    hp2x.clear(t);
    hp2x.clear(l);
    var d = [];
    ticks.forEach(function (tk) {
      var x = G.x + tk[0], p = R.fr.toPage(x, look.xLabelY);
      d.push(outline([[x, G.y], [x, G.y - look.tickLen]], false, look.line));
      el("text", { x: f2(p[0]), y: f2(p[1]) }, l).textContent = tk[1];
    });
    if (d.length) el("path", { d: d.join(""), fill: ink }, t);
  };

  /* The chart kind's y ticks, their labels and the y legend, reading
   * upwards to the top of the axis. */
  hp2x.drawYAxis = function (R) {
    var D = R.D, G = R.fr.G, look = D.look, c = D.charts[R.state.chart], l = R.layers.ylabels, d = [];
    var ink = hp2x.rgb(look.ink);
    if (!changed(l, c.ticks.join(";") + "|" + c.legend)) return;
    hp2x.clear(R.layers.yticks);
    hp2x.clear(l);
    c.ticks.forEach(function (tk) {
      var y = G.y + tk[0], p = R.fr.toPage(G.x - look.yLabelDx, y);
      d.push(outline([[G.x, y], [G.x - look.tickLen, y]], false, look.line));
      el("text", { x: f2(p[0]), y: f2(p[1]), "class": "hp2x-ylabel" }, l).textContent = tk[1];
    });
    if (d.length) el("path", { d: d.join(""), fill: ink }, R.layers.yticks);
    var at = R.fr.toPage(G.x - look.legendDx, G.y + G.h);
    el("text", { x: 0, y: 0, id: "hp2x-ylegend",
      transform: "translate(" + f2(at[0]) + " " + f2(at[1]) + ") rotate(-90)" }, l).textContent = c.legend;
  };

  /* The key's boxes: each band's colour, outlined; on a lines chart a
   * stretch of its line. */
  hp2x.drawKeyBoxes = function (R) {
    var D = R.D, P = D.page, look = D.look, g = R.layers.keyBoxes, ink = hp2x.rgb(look.ink);
    if (!changed(g, String(R.curves.line))) return;
    hp2x.clear(g);
    if (!(P.keyW > 0)) return;
    var x = P.keyX + look.keyBoxDx, s = look.keyBox;
    D.bands.forEach(function (b, k) {
      var c = P.keyC[k];
      if (R.curves.line) {
        bandLine(R, k, polyline([[x, c], [x + s, c]], false), g).setAttribute("class", "hp2x-key-box");
        return;
      }
      var box = [[x, c - s / 2], [x + s, c - s / 2], [x + s, c + s / 2], [x, c + s / 2]];
      el("path", { d: polyline(box, true), fill: b.colour, "class": "hp2x-key-box", "data-band": k }, g);
      el("path", { d: outline(box, true, look.line), fill: ink }, g);
    });
  };

  /* The axes and the x axis's unit, right-aligned at its end: hp2x's
   * picture has them where its graph is, which a live page's new band set
   * moves (the key's width with it). */
  hp2x.drawAxes = function (R) {
    var G = R.fr.G, look = R.D.look, g = R.layers.axes, u = R.layers.unit;
    if (!changed(g, G.x + " " + G.y + " " + G.w + " " + G.h)) return;
    hp2x.clear(g);
    hp2x.clear(u);
    var d = outline([[G.x, G.y], [G.x + G.w, G.y]], false, look.line) +
      outline([[G.x, G.y], [G.x, G.y + G.h]], false, look.line);
    el("path", { d: d, fill: hp2x.rgb(look.ink) }, g);
    var p = R.fr.toPage(G.x + G.w, look.xLabelY);
    el("text", { x: f2(p[0]), y: f2(p[1]) }, u).textContent = R.D.sampleUnit;
  };

  /* The title's area text (D.areaText, a live page's growing with it)
   * where hp2x would draw it, cut in the middle to its width as
   * hpx_render_draw_text's ellipsis does. */
  hp2x.drawArea = function (R) {
    var D = R.D, A = D.page.area, t = R.layers.area, s = D.areaText || "";
    if (!changed(t, s)) return;
    var p = R.fr.toPage(A[0], A[1]), maxW = A[2] * R.fr.scale;
    t.setAttribute("x", f2(p[0]));
    t.setAttribute("y", f2(p[1]));
    t.setAttribute("data-text", s);
    t.textContent = s;
    if (!(A[2] > 0) || !t.getComputedTextLength || t.getComputedTextLength() <= maxW) return;
    var chars = Array.from(s), cut = 1;
    while (cut < chars.length && t.getComputedTextLength() > maxW) {
      var keep = chars.length - cut, head = Math.ceil(keep / 2);
      t.textContent = chars.slice(0, head).join("") + "\u2026" + chars.slice(chars.length - (keep - head)).join("");
      cut++;
    }
  };

  /* The key's names (as key_names.c shortened them to fit) and the
   * --heap lines' entries, a stretch of each line and its name, above the
   * bands'. */
  hp2x.drawKeyNames = function (R) {
    var D = R.D, P = D.page, look = D.look, g = R.layers.keyNames, nb = D.bands.length;
    var names = (P.keyNames || []).concat(D.lines.map(function (l) { return l.name; }));
    if (!changed(g, P.keyX + "|" + P.keyC.join(",") + "|" + names.join("\n"))) return;
    hp2x.clear(g);
    hp2x.clear(R.layers.keyLines);
    if (!(P.keyW > 0)) return;
    names.forEach(function (name, k) {
      var c = P.keyC[k];
      if (c === undefined) return;
      var p = R.fr.toPage(P.keyX + look.keyTextDx, c - look.text / 2);
      el("text", { x: f2(p[0]), y: f2(p[1]), "class": "hp2x-key-name" }, g).textContent = name;
      if (k < nb) return;
      var line = D.lines[k - nb], x = P.keyX + look.keyBoxDx;
      var a = { d: polyline([[x, c], [x + look.keyBox, c]], false), "stroke-width": look.heapLine,
        stroke: "rgb(" + line.rgb.map(function (v) { return Math.round(v * 255); }).join(",") + ")" };
      if (line.dash.length) a["stroke-dasharray"] = line.dash.join(" ");
      el("path", a, R.layers.keyLines);
    });
  };

  /* The --heap lines, where the kind draws them: a streamgraph's on both
   * sides of the middle line, half their value from it. */
  hp2x.drawLines = function (R) {
    var g = R.layers.lines, D = R.D, stream = R.state.chart === "streamgraph";
    hp2x.clear(g);
    if (!D.charts[R.state.chart].heap) return;
    D.lines.forEach(function (line) {
      var rgb = line.rgb.map(function (c) { return Math.round(c * 255); });
      (stream ? [-0.5, 0.5] : [1]).forEach(function (side) {
        var pts = [];
        for (var i = 0; i < line.t.length; i++) pts.push([xOf(R, line.t[i]), yOf(R, num(line.y[i]) * side)]);
        var a = { d: polyline(pts, false), stroke: "rgb(" + rgb.join(",") + ")",
          "stroke-width": D.look.heapLine, "stroke-linejoin": "round", "class": "hp2x-line" };
        if (line.dash.length) a["stroke-dasharray"] = line.dash.join(" ");
        el("path", a, g);
      });
    });
  };

  /* The marks: a dashed line across the graph, a triangle under the axis,
   * the label on white reading upwards, left of the line; a label too
   * near the last one drawn left out.  Each label's box in its own frame
   * is measured once (no layout a census) and kept while the label is
   * drawn: a live page that draws new marks census after census for days
   * (live_apply.js takeMarks) keeps the boxes of the labels it draws now,
   * by a Map, so that any text ("__proto__" too) is a label's own key. */
  hp2x.drawMarks = function (R) {
    var g = R.layers.marks, D = R.D, G = R.fr.G, look = D.look, last = -Infinity;
    var had = g.hp2xBoxes || new Map(), boxes = g.hp2xBoxes = new Map();
    var on = look.markDash[0], period = look.markDash[0] + look.markDash[1], tri = look.markTri;
    var ink = hp2x.rgb(look.ink), paper = hp2x.rgb(look.paper);
    hp2x.clear(g);
    D.marks.forEach(function (mk) {
      var x = xOf(R, mk[0]), d = [];
      if (!(x >= G.x && x <= G.x + G.w)) return;
      for (var y = G.y; y < G.y + G.h; y += period)
        d.push(outline([[x, y], [x, Math.min(y + on, G.y + G.h)]], false, look.markLine));
      el("path", { d: d.join(""), fill: ink }, g);
      var points = [[x - tri, G.y], [x, G.y - tri], [x + tri, G.y]];
      el("path", { d: polyline(points, true), fill: paper }, g);
      el("path", { d: outline(points, true, look.line), fill: ink }, g);
      if (!mk[1] || x - last < look.markGap) return;
      var t = el("text", { x: 0, y: 0, "font-size": look.markFont, "text-anchor": "end", "class": "hp2x-mark",
        "font-family": look.font + ", " + look.fontFallback,
        transform: "translate(" + f2(x - look.markDx) + " " + f2(G.y + G.h - look.markTop) +
          ") scale(1 -1) rotate(-90)" }, g);
      t.textContent = mk[1];
      var box = boxes.get(mk[1]) || had.get(mk[1]) || t.getBBox();
      boxes.set(mk[1], box);
      g.insertBefore(el("rect", { x: f2(box.x), y: f2(box.y), width: f2(box.width),
        height: f2(box.height), fill: paper, transform: t.getAttribute("transform") }), t);
      last = x;
    });
  };

  /* White over the key entries of what is not drawn: the bands hidden,
   * and the --heap lines on a chart kind without them. */
  hp2x.markKey = function (R) {
    var D = R.D, P = D.page, look = D.look, g = R.layers.keyMarks, nb = D.bands.length;
    hp2x.clear(g);
    if (!(P.keyW > 0)) return;
    for (var k = 0; k < P.keyC.length; k++) {
      if (k < nb ? !R.state.hidden[k] : D.charts[R.state.chart].heap) continue;
      var c = P.keyC[k], half = look.keyBox / 2;
      var a = R.fr.toPage(P.keyX + look.keyBoxDx, c + half);
      var b = R.fr.toPage(P.keyX + look.keyBoxDx + P.keyW, c - half);
      el("rect", { x: f2(Math.min(a[0], b[0])), y: f2(Math.min(a[1], b[1])),
        width: f2(Math.abs(b[0] - a[0])), height: f2(Math.abs(b[1] - a[1])),
        fill: "#fff", "fill-opacity": "0.75", "class": "hp2x-key-hidden", "data-band": k }, g);
    }
  };
})(window.hp2x);
