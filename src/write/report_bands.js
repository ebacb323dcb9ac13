/* report_bands.js -- the bands of the chart kind shown (hp2x.drawBands):
 * each band's fill and its outline (quadrilaterals, report_draw.js's
 * hp2x.quad), or on a lines chart its line, drawn so that a census a live
 * page appends costs what it adds, not the whole run.  Each census's
 * points and each segment's outline are made once, as path text, in the
 * coordinates of a base (the view and the y axis when they were made),
 * and kept (R.bands: see fresh); a path is the kept pieces joined.  While
 * the axes move a little (the x axis of the whole run grows with each
 * census, the y axis with a new peak) the layer is scaled from its base
 * by a transform; once they move more than SLACK, or the chart kind, the
 * bands hidden, the zoom or the census set's start change, everything is
 * made again from the view shown.  A redraw made from nothing
 * (hp2x.redraw, report_main.js) draws what the pieces draw. */
(function (hp2x) {
  "use strict";
  var el = hp2x.el, f2 = hp2x.f2, quad = hp2x.quad;
  /* How far an axis may scale from the base before the bands are made
   * again: an outline's width drifts by at most this share of itself; a
   * line's (a stroke, scaled with the layer) by less. */
  var SLACK = 1 / 32, SLACK_LINE = 1 / 128;
  /* An outline is a path per CHUNK censuses: those drawn before stay. */
  var CHUNK = 256;

  /* The drawing's key: what, changed, makes every piece again. */
  function keyOf(R) {
    var v = R.state.view, D = R.D, key = R.state.chart + "|" + R.state.hidden.join(",") + "|" +
      D.bands.length + "|" + (v.zoomed ? v.t0 + "," + v.span : "run");
    /* a line is its band's share of the band's peak */
    if (R.curves.line) key += "|" + D.bands.map(function (b) { return b.peakV; }).join(",");
    return key;
  }

  /* A new base, from the view and the axis shown: no census made yet. */
  function fresh(R, key) {
    var v = R.state.view, c = R.D.charts[R.state.chart];
    var B = { key: key, t0: v.t0, span: v.span, ymin: c.ymin, yrange: c.yrange, from: -1,
      x: [], curves: {}, chunks: {}, els: [], sigs: [], ds: [] };
    B.axis = yAt(R, B, 0);
    return B;
  }
  function yAt(R, B, y) {
    var G = R.fr.G;
    return G.y + (y - B.ymin) / B.yrange * G.h;
  }

  /* The base's transform to the view shown: [ax, ay, bx, by]. */
  function shift(R, B) {
    var G = R.fr.G, v = R.state.view, c = R.D.charts[R.state.chart];
    var ax = B.span / v.span, ay = B.yrange / c.yrange;
    return [ax, ay, G.x + (B.t0 - v.t0) * G.w / v.span - ax * G.x,
      G.y + (B.ymin - c.ymin) * G.h / c.yrange - ay * G.y];
  }

  /* Curve `vals`'s pieces (name: its key in the base) up to census n - 1:
   * y, each census's point "x y", each segment's outline (q[i]: census i
   * to i + 1). */
  function curve(R, B, name, vals, n) {
    var cv = B.curves[name] || (B.curves[name] = { name: name, y: [], p: [], q: [] }), w = R.D.look.line;
    for (var i = cv.y.length; i < n; i++) {
      var y = yAt(R, B, vals[i]);
      cv.y.push(y);
      cv.p.push(f2(B.x[i]) + " " + f2(y));
      if (i > 0) cv.q.push(quad(B.x[i - 1], cv.y[i - 1], B.x[i], y, w));
    }
    return cv;
  }
  function axisCurve(R, B, n) {
    var cv = B.curves.axis || (B.curves.axis = { name: "axis", y: [], p: [], q: [] });
    for (var i = cv.y.length; i < n; i++) {
      cv.y.push(B.axis);
      cv.p.push(f2(B.x[i]) + " " + f2(B.axis));
    }
    return cv;
  }

  /* The outline of curve cv's segments a to b - 1 as path texts: a
   * text per CHUNK censuses, each whole chunk's made once (a census
   * changes the last chunk's text alone). */
  function chunks(B, cv, a, b) {
    var out = [], i = a;
    while (i < b) {
      var j = Math.floor(i / CHUNK), end = Math.min(b, (j + 1) * CHUNK), key = cv.name + ":" + j;
      if (i === j * CHUNK && end === (j + 1) * CHUNK)
        out.push(B.chunks[key] || (B.chunks[key] = cv.q.slice(i, end).join("")));
      else out.push(cv.q.slice(i, end).join(""));
      i = end;
    }
    return out;
  }

  /* The shape between curve f (forward) and curve g (back), censuses a
   * to b: its fill, then its outline's texts (f's chunks, the ends, g's
   * chunks).  With `flat` g is the axis, drawn as the one segment it is. */
  function shape(R, B, f, g, a, b, flat) {
    var w = R.D.look.line, x = B.x, fill, ends = quad(x[b], f.y[b], x[b], g.y[b], w);
    if (flat) {
      fill = "M" + g.p[a] + "L" + f.p.slice(a, b + 1).join("L") + "L" + g.p[b] + "Z";
      ends = quad(x[a], g.y[a], x[a], f.y[a], w) + ends + quad(x[b], g.y[b], x[a], g.y[a], w);
      return [fill].concat(chunks(B, f, a, b), [ends]);
    }
    var back = [];
    for (var i = b; i >= a; i--) back.push(g.p[i]);
    fill = "M" + f.p.slice(a, b + 1).join("L") + "L" + back.join("L") + "Z";
    ends += quad(x[a], g.y[a], x[a], f.y[a], w);
    return [fill].concat(chunks(B, f, a, b), [ends], chunks(B, g, a, b));
  }

  /* Band k's paths (attributes, bottom first) over censuses r. */
  function bandPaths(R, B, k, r, n, out) {
    var D = R.D, c = R.curves, ink = hp2x.rgb(D.look.ink), stacked = R.state.chart === "stacked" && !D.signed;
    function filled(s) {
      out.push({ d: s[0], fill: D.bands[k].colour, "data-band": k, "class": "hp2x-band" });
      for (var i = 1; i < s.length; i++) if (s[i]) out.push({ d: s[i], fill: ink, "class": "hp2x-outline" });
    }
    var hi = curve(R, B, "h" + k, c.hi[k], n);
    if (c.line) {
      hp2x.lineAttrs(R, k, "M" + hi.p.slice(r[0], r[1] + 1).join("L")).forEach(function (a) { out.push(a); });
      return;
    }
    if (stacked) { /* down to the nearest hidden band below, or the axis */
      var lo = -1;
      for (var j = k - 1; j >= 0; j--) if (R.state.hidden[j]) { lo = j; break; }
      if (lo < 0) filled(shape(R, B, hi, axisCurve(R, B, n), r[0], r[1], true));
      else filled(shape(R, B, hi, curve(R, B, "h" + lo, c.hi[lo], n), r[0], r[1], false));
      return;
    }
    var low = curve(R, B, "l" + k, c.lo[k], n), i = r[0];
    while (i <= r[1]) { /* a shape per run of drawn censuses */
      while (i <= r[1] && !c.drawn[i]) i++;
      var a = i;
      while (i <= r[1] && c.drawn[i]) i++;
      if (i === a) break;
      filled(shape(R, B, low, hi, a, i - 1, false));
    }
  }

  /* Sets the layer's paths to `want` (attributes): the elements there
   * kept where they are alike but for their path, made again else. */
  function place(B, g, want) {
    var sigs = want.map(function (a) {
      var s = "";
      for (var f in a) if (f !== "d") s += f + "=" + a[f] + ";";
      return s;
    });
    if (sigs.length !== B.sigs.length || sigs.some(function (s, i) { return s !== B.sigs[i]; })) {
      hp2x.clear(g);
      B.els = want.map(function (a) { return el("path", a, g); });
      B.sigs = sigs;
      B.ds = want.map(function (a) { return a.d; });
      return;
    }
    want.forEach(function (a, i) {
      if (B.ds[i] === a.d) return;
      B.els[i].setAttribute("d", a.d);
      B.ds[i] = a.d;
    });
  }

  hp2x.drawBands = function (R) {
    var g = R.layers.bands, D = R.D, nb = D.bands.length, n = R.times.length, r = hp2x.inView(R);
    var key = keyOf(R), B = R.bands;
    if (B && (B.key !== key || B.from !== r[0] || B.x.length > n)) B = null;
    var m = B ? shift(R, B) : null;
    var slack = R.curves.line ? SLACK_LINE : SLACK;
    if (m && !(Math.abs(m[0] - 1) <= slack && Math.abs(m[1] - 1) <= slack)) B = null;
    if (!B) {
      var prev = R.bands;
      B = R.bands = fresh(R, key);
      B.from = r[0];
      if (prev && prev.layer.parentNode === g) { /* its elements, to keep where alike */
        B.layer = prev.layer;
        B.els = prev.els;
        B.sigs = prev.sigs;
        B.ds = prev.ds;
        B.zero = prev.zero;
      } else {
        hp2x.clear(g);
        B.layer = el("g", { "class": "hp2x-bandshift" }, g);
      }
      R.bandBuilds = (R.bandBuilds || 0) + 1;
      m = [1, 1, 0, 0];
    }
    var G = R.fr.G;
    for (var i = B.x.length; i < n; i++) B.x.push(G.x + (R.times[i] - B.t0) / B.span * G.w);
    if (m[0] === 1 && m[1] === 1 && m[2] === 0 && m[3] === 0) B.layer.removeAttribute("transform");
    else B.layer.setAttribute("transform", "matrix(" + [m[0], 0, 0, m[1], m[2], m[3]].join(" ") + ")");
    var want = [], stacked = R.state.chart === "stacked" && !D.signed;
    if (n && nb)
      for (var j = 0; j < nb; j++) {
        /* hp2x paints stacked bands top-down, the others bottom-up */
        var k = stacked ? nb - 1 - j : j;
        if (!R.state.hidden[k]) bandPaths(R, B, k, r, n, want);
      }
    place(B, B.layer, want);
    if (B.zero) { g.removeChild(B.zero); B.zero = null; }
    if (D.signed && n && nb) /* the zero line, over the bands */
      B.zero = el("path", { d: hp2x.outline([[G.x, hp2x.yOf(R, 0)], [G.x + G.w, hp2x.yOf(R, 0)]], false, D.look.line),
        fill: hp2x.rgb(D.look.ink) }, g);
    g.setAttribute("data-builds", String(R.bandBuilds));
  };
})(window.hp2x);
