// grown_test.js -- a live page's drawing of appended censuses
// (report_bands.js: each census's pieces kept, the layer scaled while the
// axes move a little) gives the pixels a drawing from nothing gives, in
// Debian's chromium through playwright-core.
// usage: node grown_test.js DIR CASE...
// Each CASE is NAME[:KIND[:hide|zoom|ygrow]]: DIR/NAME.html is hp2x's
// report of a profile and DIR/NAME.png its PNG at --dpi=96
// (tests/e2e/test_page_grown.sh makes both with the binary).  The page is
// opened, the chart KIND shown (the picture's by default), a band hidden
// or the view zoomed to the first half if asked, and the newest third of
// its censuses taken out of the data and drawn from the rest; then they are
// appended back one at a time as a live page appends them (the census,
// the x axis growing to it; with ygrow the y axis too, from 90 % of its
// height), hp2x.grown() drawing each.  Checks, after half of them and
// after the last: the graph's pixels equal those of
// hp2x.redraw() (everything drawn again from nothing) within 8/255 on
// each channel, but for at most 0.5 % of them, and within 64/255 but for
// at most 0.01 % (the antialiased edges of outlines scaled from their
// base, up to a thirty-second wider or narrower: a census drawn twice,
// left out or out of place differs by far more); the drawing
// was made from nothing far fewer times than censuses were appended (the
// pieces were kept); the band layer was scaled at least once.  At the end,
// for the picture's own kind with nothing hidden, the page's drawing
// matches the PNG within the report's rule (report_checks.js's
// checkDrawn: at most 5 % of the pixels differ by more than 8/255).
// Prints "FAIL: ..." lines and "N checks, N failed"; exits 1 on a failure,
// 3 (after "SKIPPED: why") when chromium cannot start.
'use strict';
const fs = require('fs');
const path = require('path');
const { launchOrSkip } = require('./chromium.js');
const T = require('./report_test.js');
const { check, summary } = require('./checks.js').makeChecks();
const SHARE = 0.005, TOL = 8, FAR = 64, FAR_SHARE = 0.0001;

// The page's state: the drawing made from nothing how often, the layer's
// transform.
function drawn(page) {
  return page.evaluate(() => {
    const g = document.getElementById('hp2x-bandpaths'), s = g.querySelector('.hp2x-bandshift');
    return { builds: Number(g.getAttribute('data-builds')), transform: s ? s.getAttribute('transform') : null,
      held: window.hp2x.data.t.length };
  });
}

async function oneCase(browser, dir, spec) {
  const [name, kind, how] = spec.split(':');
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 }, deviceScaleFactor: 1 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto('file://' + path.resolve(dir, name + '.html'));
  await page.waitForSelector('html[data-hp2x-ready="1"]');
  const geo = await T.geometry(page), box = T.graphBox(geo), area = (box[2] - box[0]) * (box[3] - box[1]);
  // Take the newest third out, with the view and kind asked.
  const n = await page.evaluate(([kind, how]) => {
    const h = window.hp2x, D = h.data;
    if (kind) document.querySelector(`#hp2x-charts button[data-chart="${kind}"]`).click();
    if (how === 'hide') document.querySelector('#hp2x-table tbody tr:nth-child(2) input').click();
    if (how === 'zoom') h.zoom({ t0: D.x0, span: D.xrange / 2, zoomed: true });
    const all = { t: D.t.slice(), tx: D.tx ? D.tx.slice() : null, v: D.bands.map((b) => b.v.slice()),
      ranges: Object.keys(D.charts).map((k) => [k, D.charts[k].yrange]) };
    window.hp2xAll = all;
    const keep = Math.max(2, Math.ceil(all.t.length * 2 / 3));
    D.t.length = keep;
    if (D.tx) D.tx.length = keep;
    D.bands.forEach((b) => { b.v.length = keep; });
    window.hp2xAxes = function (m, f) { /* the axes of m censuses, as the server's grow */
      const last = Number(all.tx ? all.tx[m - 1] : all.t[m - 1]);
      D.xrange = last > D.x0 ? last - D.x0 : 1;
      D.tickEnd = last;
      D.censuses = m;
      if (how === 'ygrow') all.ranges.forEach(([k, y]) => { D.charts[k].yrange = y * f; D.charts[k].ticks = h.yTicks(D, k); });
    };
    window.hp2xAxes(keep, 0.9);
    h.grown(0);
    const at = (m) => Number(all.tx ? all.tx[m - 1] : all.t[m - 1]) - D.x0;
    return { keep, total: all.t.length, gx: how === 'zoom' ? 1 : at(all.t.length) / at(keep) };
  }, [kind || '', how || '']);

  let scaled = false, built = 0, lastGrown = null;
  for (let m = n.keep + 1; m <= n.total; m++) {
    const st = await page.evaluate(([m, total]) => {
      const h = window.hp2x, D = h.data, all = window.hp2xAll, i = m - 1;
      D.t.push(all.t[i]);
      if (D.tx) D.tx.push(all.tx[i]);
      D.bands.forEach((b, k) => b.v.push(all.v[k][i]));
      window.hp2xAxes(m, 0.9 + 0.1 * (m === total ? 1 : (m - 1) / total));
      const g = document.getElementById('hp2x-bandpaths'), before = Number(g.getAttribute('data-builds'));
      h.grown(0);
      const s = g.querySelector('.hp2x-bandshift');
      return { scaled: s && s.hasAttribute('transform'), built: Number(g.getAttribute('data-builds')) - before };
    }, [m, n.total]);
    scaled = scaled || st.scaled;
    built += st.built;
    if (m === n.total || m === n.keep + Math.ceil((n.total - n.keep) / 2)) {
      const grown = lastGrown = await page.locator('#hp2x-figure').screenshot();
      await page.evaluate(() => window.hp2x.redraw());
      const full = await page.locator('#hp2x-figure').screenshot();
      const r = await T.comparePngs(page, grown.toString('base64'), full.toString('base64'), TOL, box);
      const far = await T.comparePngs(page, grown.toString('base64'), full.toString('base64'), FAR, box);
      if (!check(r.bad <= area * SHARE && far.bad <= area * FAR_SHARE, `${spec}: census ${m} of ${n.total}: ` +
        `the appended drawing differs from a drawing from nothing in ${r.bad} of ${area} graph pixels, ` +
        `${far.bad} by more than ${FAR}/255 (both in ${dir})`)) {
        const base = path.resolve(dir, spec.replace(/:/g, '-'));
        fs.writeFileSync(base + '.grown.png', grown);
        fs.writeFileSync(base + '.full.png', full);
        break;
      }
      console.log(`${spec}: census ${m}: ${r.bad} of ${area} graph pixels differ from a drawing from nothing ` +
        `(${far.bad} by more than ${FAR}/255)`);
    }
  }
  const last = await drawn(page), appended = n.total - n.keep;
  console.log(`${spec}: ${appended} censuses appended, drawn from nothing ${built} times`);
  check(last.held === n.total, `${spec}: the page holds ${last.held} censuses, not ${n.total}`);
  // A drawing from nothing each time an axis scaled by a thirty-second
  // since the last (a 128th on a lines chart: the x axis grows gx times,
// the y axis 1/0.9 times),
  // and once more: far fewer than the censuses of a long run.
  const step = Math.log(1 + (kind === 'lines' ? 1 / 128 : 1 / 32));
  const most = Math.ceil(Math.log(n.gx) / step) + (how === 'ygrow' ? Math.ceil(Math.log(1 / 0.9) / step) : 0) + 1;
  check(built <= most, `${spec}: drawn from nothing ${built} times for ${appended} censuses (at most ${most})`);
  if (how !== 'zoom') check(scaled, `${spec}: the band layer was never scaled from its base`);
  if (!kind && !how && lastGrown) { /* the last census's appended drawing */
    const r = await T.comparePngs(page, lastGrown.toString('base64'),
      fs.readFileSync(path.resolve(dir, name + '.png')).toString('base64'), TOL, box);
    check(r.bad <= area * 0.05, `${spec}: the appended drawing differs from hp2x's PNG in ${r.bad} of ${area} pixels`);
  }
  check(errors.length === 0, `${spec}: page errors: ${errors.slice(0, 3)}`);
  await page.close();
}

async function main() {
  const [dir, ...cases] = process.argv.slice(2);
  const browser = await launchOrSkip();
  try {
    for (const c of cases) await oneCase(browser, dir, c);
  } finally {
    await browser.close();
  }
  process.exit(summary());
}
main().catch((e) => { console.error(e); process.exit(1); });
