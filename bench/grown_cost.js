// grown_cost.js -- a live page's own drawing cost per census (issue 42):
// how long hp2x.grown() (report_main.js) takes to draw one appended census,
// measured in the page with performance.now(), in Debian's chromium.
// usage: node grown_cost.js HP2X INPUT APPEND [HP2X ARGS...]
// Starts `HP2X INPUT ARGS --serve=0` (a one-shot run: its page holds the
// whole input), opens its live page, takes the last APPEND censuses out of
// the page's data and draws the rest (one full draw), then appends them
// back one at a time, as live_apply.js does with each update: the census, the
// axes (x growing with each census, as the server's), then hp2x.grown().
// Prints one JSON line: the censuses and bands held, the median, p90 and
// max of grown() per census, and of grown() and the layout it leaves
// (a forced layout after it), in ms; and `full`, the median of a whole
// redraw (hp2x.redraw) where the page has one.
'use strict';
const { spawn } = require('child_process');
const { launchOrSkip } = require('../tests/browser/chromium.js');

function serve(hp2x, args) {
  return new Promise((done, fail) => {
    const p = spawn(hp2x, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => {
      err += d;
      const m = /serving (http:\/\/\S+\/)/.exec(err);
      if (m) done({ p, url: m[1] });
    });
    p.on('exit', (c) => fail(new Error('hp2x ended (' + c + '): ' + err)));
  });
}

async function main() {
  const [hp2x, input, append, ...args] = process.argv.slice(2);
  const { p, url } = await serve(hp2x, [input, ...args, '--serve=0']);
  const browser = await launchOrSkip();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 }, deviceScaleFactor: 1 });
    for (let i = 0; i < 200; i++) {
      await page.goto(url);
      if (await page.$('#hp2x-report:not([data-hp2x-warm])')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.waitForSelector('html[data-hp2x-ready="1"]');
    const r = await page.evaluate((n) => {
      const h = window.hp2x, D = h.data, nb = D.bands.length, parts = {};
      /* the time in each of the report's parts that grown() calls */
      ['censusSet', 'curves', 'drawBands', 'drawTicks', 'drawYAxis', 'drawKeyBoxes', 'drawLines',
        'drawMarks', 'markKey', 'moment', 'bandStats', 'zoomRange', 'momentCensus', 'yTicks'].forEach((f) => {
        const fn = h[f];
        if (typeof fn !== 'function') return;
        parts[f] = 0;
        h[f] = function () {
          const a = performance.now();
          try { return fn.apply(this, arguments); } finally { parts[f] += performance.now() - a; }
        };
      });
      const T = D.t.slice(), TX = D.tx ? D.tx.slice() : null, V = D.bands.map((b) => b.v.slice());
      const keep = T.length - n, x0 = D.x0;
      function to(m) {
        D.t.length = m;
        if (TX) D.tx.length = m;
        D.bands.forEach((b) => { b.v.length = m; });
      }
      function axes(m) {
        const last = Number(TX ? TX[m - 1] : T[m - 1]);
        D.xrange = last > x0 ? last - x0 : 1;
        D.tickEnd = last;
        D.censuses = m;
      }
      to(keep);
      axes(keep);
      h.grown(0);
      Object.keys(parts).forEach((f) => { parts[f] = 0; });
      const g = [], gl = [];
      for (let i = keep; i < T.length; i++) {
        D.t.push(T[i]);
        if (TX) D.tx.push(TX[i]);
        D.bands.forEach((b, k) => b.v.push(V[k][i]));
        axes(i + 1);
        const a = performance.now();
        h.grown(0);
        const b = performance.now();
        void document.body.offsetHeight; /* the layout it leaves */
        const c = performance.now();
        g.push(b - a);
        gl.push(c - a);
      }
      const mean = {};
      Object.keys(parts).forEach((f) => { if (parts[f] > 0) mean[f] = Math.round(parts[f] / n * 100) / 100; });
      const full = [];
      if (h.redraw) for (let i = 0; i < 5; i++) {
        const a = performance.now();
        h.redraw();
        full.push(performance.now() - a);
      }
      return { held: T.length, bands: nb, g, gl, full, parts: mean, builds: document.getElementById("hp2x-bandpaths").getAttribute("data-builds") };
    }, Number(append));
    const q = (xs, f) => {
      const s = xs.slice().sort((a, b) => a - b);
      return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(f * s.length))] * 10) / 10 : null;
    };
    console.log(JSON.stringify({ input: input.replace(/.*\//, ''), args: args.join(' '), held: r.held,
      bands: r.bands, appended: r.g.length, grown: { min: q(r.g, 0), p25: q(r.g, 0.25), p50: q(r.g, 0.5), p90: q(r.g, 0.9), max: q(r.g, 1) },
      withLayout: { min: q(r.gl, 0), p25: q(r.gl, 0.25), p50: q(r.gl, 0.5), p90: q(r.gl, 0.9) }, full: q(r.full, 0.5), meanParts: r.parts, builds: r.builds, series: process.env.GROWN_SERIES ? r.g.map(Math.round) : undefined }));
  } finally {
    await browser.close();
    p.kill('SIGTERM');
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
