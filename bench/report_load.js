// report_load.js -- how fast an HTML report opens and responds in
// Debian's chromium (headless, software rendering, as the tests start
// it): `node bench/report_load.js REPORT.html...` (playwright-core from
// tests/browser, installed by make deps).  For each report, best of 3
// fresh pages: from navigation to the page's script having drawn
// everything (html[data-hp2x-ready]: JSON parsed, table built, the
// page's own drawing made), the browser's load event, then the time from
// an input event to the next painted frame for a key click (hide the top
// band), a drag zoom (the band table of the zoom computed), the reset and
// a click on the graph (the moment table of the census picked).  Not a
// test.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require(path.join(__dirname, '..', 'tests', 'browser', 'node_modules', 'playwright-core'));

const { CHROMIUM, ARGS } = require(path.join(__dirname, '..', 'tests', 'browser', 'chromium.js'));

// ms from running `act` in the page to the frame after it is painted.
async function respond(page, act) {
  return page.evaluate(async (act) => {
    const t0 = performance.now();
    // eslint-disable-next-line no-new-func
    new Function(act)();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  }, act);
}

async function once(ctx, file) {
  const page = await ctx.newPage();
  const t0 = Date.now();
  await page.goto('file://' + file, { waitUntil: 'load' });
  await page.waitForSelector('html[data-hp2x-ready]');
  const ready = Date.now() - t0;
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return { load: n.loadEventEnd, dcl: n.domContentLoadedEventEnd };
  });
  const geo = await page.evaluate(() => {
    const D = JSON.parse(document.getElementById('hp2x-data').textContent);
    return { keyX: D.page.keyX, keyC: D.page.keyC, F: D.page.frame, g: D.page.graph, n: D.bands.length };
  });
  const F = geo.F, at = (x, y) => [F[0] * x + F[2] * y + F[4], F[1] * x + F[3] * y + F[5]];
  const k = at(geo.keyX + 12, geo.keyC[geo.n - 1]), a = at(geo.g[0] + geo.g[2] * 0.3, geo.g[1] + geo.g[3] / 2);
  const b = at(geo.g[0] + geo.g[2] * 0.6, geo.g[1] + geo.g[3] / 2);
  const ev = (type, p, q) => `{const s=document.getElementById('hp2x-picture'),r=s.getBoundingClientRect();` +
    `const o={bubbles:true,button:0,clientX:r.left+${p[0]},clientY:r.top+${p[1]}};` +
    (type === 'click' ? `s.dispatchEvent(new MouseEvent('click',o));}` :
      `s.dispatchEvent(new MouseEvent('mousedown',o));` +
      `window.dispatchEvent(new MouseEvent('mouseup',{bubbles:true,button:0,clientX:r.left+${q[0]},clientY:r.top+${q[1]}}));}`);
  const hide = await respond(page, ev('click', k));
  const show = await respond(page, ev('click', k));
  const zoom = await respond(page, ev('drag', a, b));
  const reset = await respond(page, "document.getElementById('hp2x-reset').click()");
  const pick = await respond(page, ev('drag', a, a)); /* a click: the moment table */
  await page.close();
  return { ready, load: nav.load, hide, show, zoom, reset, pick };
}

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp2x-bench-'));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM,
    headless: true, args: ARGS, viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1, offline: true });
  console.log('| report | bytes | ready ms | load event ms | hide ms | show ms | zoom ms | reset ms | pick ms |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const file of process.argv.slice(2)) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await once(ctx, path.resolve(file)));
    const best = (f) => Math.min(...runs.map((r) => r[f])).toFixed(0);
    console.log(`| ${path.basename(file)} | ${fs.statSync(file).size} | ${best('ready')} | ${best('load')} | ` +
      `${best('hide')} | ${best('show')} | ${best('zoom')} | ${best('reset')} | ${best('pick')} |`);
  }
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
})();
