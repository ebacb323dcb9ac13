/* report_base.js -- the first part of the HTML report's script (mk/embed.sh
 * joins the report_*.js files, in the Makefile's REPORT_JS order, into
 * one script): the one global, window.hp2x, that the parts fill in and the
 * live page (live_*.js) calls, and what every part uses: making elements,
 * the numbers of the page's data, and the picture's frame (frame points to
 * the page's pixels and back).  No network, no other file, no library.
 * Labels are untrusted: they reach the page only through textContent and
 * attribute values, never as markup. */
window.hp2x = window.hp2x || {};
(function (hp2x) {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";

  /* An SVG element with attributes, appended to parent when given. */
  hp2x.el = function (name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  };
  /* An HTML element with attributes and text. */
  hp2x.html = function (name, attrs, parent, text) {
    var e = document.createElement(name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  };
  /* Sets e's text, unless it is that already (a live page's census
   * leaves most cells as they were: no change, no layout). */
  hp2x.text = function (e, s) {
    if (e.textContent !== s) e.textContent = s;
  };
  hp2x.clear = function (e) {
    while (e.firstChild) e.removeChild(e.firstChild);
  };
  /* A number of the data: values beyond 2^53 come as strings. */
  hp2x.num = function (v) { return Number(v); };
  /* A colour of the look (r, g, b in 0..1) as CSS. */
  hp2x.rgb = function (c) {
    return "rgb(" + c.map(function (v) { return Math.round(v * 255); }).join(",") + ")";
  };
  /* Two decimals, for path data. */
  hp2x.f2 = function (v) { return Math.round(v * 100) / 100; };

  /* The picture's frame: its graph G (frame points, y upwards) and the
   * matrix F from frame points to the page's pixels (xx yx xy yy x0 y0). */
  hp2x.frame = function (D) {
    var P = D.page, F = P.frame;
    return {
      F: F,
      G: { x: P.graph[0], y: P.graph[1], w: P.graph[2], h: P.graph[3] },
      toPage: function (x, y) {
        return [F[0] * x + F[2] * y + F[4], F[1] * x + F[3] * y + F[5]];
      },
      fromPage: function (px, py) {
        var det = F[0] * F[3] - F[1] * F[2], dx = px - F[4], dy = py - F[5];
        return [(F[3] * dx - F[2] * dy) / det, (F[0] * dy - F[1] * dx) / det];
      },
      /* Frame points per page pixel, for text sizes set in page pixels. */
      scale: Math.abs(F[0] || F[1])
    };
  };
})(window.hp2x);
