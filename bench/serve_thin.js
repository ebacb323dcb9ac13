// serve_thin.js -- one live page of a served watch (bench/serve_thin.sh):
// usage: node serve_thin.js URL OUT.json READY
// Opens URL in Debian's chromium, creates READY once the page shows its
// report, follows until the input closed and nothing changed for 1.5 s;
// prints the reports it swapped in after its first, by reason, and the
// time of each drawing of what an update changed (hp2x.grown: appended, or
// made again), and writes its data and log to OUT.json.
'use strict';
const fs = require('fs');
const { launchOrSkip } = require('../tests/browser/chromium.js');
const [url, out, ready] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

(async () => {
  const browser = await launchOrSkip();
  const page = await browser.newPage();
  // each hp2x.grown's time in the page and whether it made the census set
  // again (null: the censuses held changed) or appended
  await page.addInitScript(() => {
    const h = window.hp2x = window.hp2x || {}, ms = window.hp2xGrownMs = [];
    let g = null;
    Object.defineProperty(h, 'grown', { configurable: true, set(f) { g = f; }, get() {
      return g && function (d) { const t = performance.now(); const r = g(d); ms.push([performance.now() - t, d === null]); return r; };
    } });
  });
  await page.goto(url);
  let marked = false, doneAt = 0, s = null;
  const start = Date.now();
  while (Date.now() - start < 180000) {
    s = await page.evaluate(() => {
      const st = document.getElementById('hp2x-live-status');
      return { input: st && st.getAttribute('data-input'), held: window.hp2x && window.hp2x.data ? 1 : 0,
        shown: document.documentElement.getAttribute('data-hp2x-census'),
        censuses: st && st.getAttribute('data-censuses'), log: (window.hp2x && window.hp2x.liveLog) || [] };
    }).catch(() => null);
    if (s && s.held && !marked) { marked = true; fs.writeFileSync(ready, 'ready\n'); }
    if (s && s.input === 'closed' && s.shown === s.censuses) {
      if (!doneAt) doneAt = Date.now();
      if (Date.now() - doneAt > 1500) break;
    } else doneAt = 0;
    await sleep(100);
  }
  const data = await page.evaluate(() => window.hp2x.data);
  const whys = {};
  s.log.filter((e) => e.why !== 'first').forEach((e) => { whys[e.why] = (whys[e.why] || 0) + 1; });
  console.log(`the page's reports swapped in after its first: ${JSON.stringify(whys)}`);
  const grown = await page.evaluate(() => window.hp2xGrownMs);
  const q = (a, f) => { const v = a.map((x) => x[0]).sort((x, y) => x - y); return v.length ? v[Math.floor(f * (v.length - 1))].toFixed(1) : '-'; };
  const remade = grown.filter((x) => x[1]), added = grown.filter((x) => !x[1]);
  console.log(`hp2x.grown: ${added.length} appended (p50 ${q(added, 0.5)} ms, p90 ${q(added, 0.9)}), ` +
    `${remade.length} made again (p50 ${q(remade, 0.5)} ms, p90 ${q(remade, 0.9)})`);
  fs.writeFileSync(out, JSON.stringify({ data, log: s.log }));
  await browser.close();
})();
