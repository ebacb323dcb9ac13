// live_test.js -- hp2x --serve's live page in a real browser: Debian's
// chromium, driven by playwright-core (as report_test.js).
// usage: node live_test.js URL OUT.json [SECONDS]
// Opens URL while tests/e2e/test_serve_browser.sh replays a recorded
// stream into hp2x; once the report is there, hides the band in the
// table's first row (scrolled to: below the screen, a live page's table
// makes its rows then), zooms the time axis with a drag and switches to
// the streamgraph; then, every
// 100 ms until the status line says the input closed and the page shows
// the last redraw, records what the page shows.  The moment table follows
// the newest census until a click on the graph picks one (with the zoom),
// keeps that one through two updates, then the follow button makes it
// follow again to the end.  Checks: no reload (a
// marker set at the start survives), the hidden band stays hidden, the
// zoom stays (the same "Showing ..." words) and the streamgraph stays
// through every update (at least one comes after them), the
// status line follows (waiting/connected, then closed, as the page itself
// records each state it shows; census counts
// never go down), no console error, and at the end the band table,
// scrolled into view, has every band's row with the hidden one marked
// (report_test.js's bandTable).  Writes OUT.json: each census time
// with when the status announced it and when the page first held it, and
// the last page's bands and censuses (the shell test compares them with
// the run's .hp).  Prints "FAIL: ..." lines and "N checks, N failed";
// exits 1 on a failure, 3 (after "SKIPPED: why") when chromium cannot
// start.  SECONDS (default 45) bounds how long it follows.
'use strict';
const fs = require('fs');
const { launchOrSkip } = require('./chromium.js');
const T = require('./report_test.js');
let checks = 0, failures = 0;
const said = new Set();
// A failed check is printed once per kind (`what` up to its first ':').
function check(ok, what) {
  checks++;
  if (!ok) {
    failures++;
    const kind = what.split(':')[0];
    if (!said.has(kind)) console.log('FAIL: ' + what);
    said.add(kind);
  }
  return ok;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What the page shows now.
function snapshot(page) {
  return page.evaluate(() => {
    const st = document.getElementById('hp2x-live-status');
    const data = document.getElementById('hp2x-data');
    // the report's data as the page holds it (live_apply.js appends censuses)
    // (not the waiting page's warm-up report, laid out hidden until the
    // first census: live_swap.js warmUp)
    const D = data && document.querySelector('#hp2x-report:not([data-hp2x-warm])') ?
      (window.hp2x && window.hp2x.data) || JSON.parse(data.textContent) : null;
    // the bands hidden: the page's state, and the table's rows marked so
    // when it has them (a report swapped in while the table is below the
    // screen makes them when it is scrolled to: report_table.js)
    const rows = document.querySelectorAll('#hp2x-table tbody tr').length;
    const hiddenRows = Array.from(document.querySelectorAll('#hp2x-table tr.hp2x-hidden'))
      .map((tr) => tr.querySelector('.hp2x-label').textContent);
    const view = document.getElementById('hp2x-view');
    const pressed = document.querySelector('#hp2x-charts button[aria-pressed="true"]');
    const moment = document.getElementById('hp2x-moment-table');
    const follow = document.getElementById('hp2x-follow');
    return {
      momentTime: moment ? moment.dataset.time : null,
      following: follow ? follow.hidden : null,
      momentSays: moment ? document.getElementById('hp2x-moment-says').textContent : '',
      chart: pressed ? pressed.dataset.chart : null,
      drawnPaths: Array.from(document.querySelectorAll('#hp2x-bandpaths .hp2x-band'))
        .map((p) => D && D.bands[Number(p.dataset.band)].name),
      marker: window.hp2xLiveMarker === 1,
      input: st ? st.getAttribute('data-input') : null,
      censuses: st && st.hasAttribute('data-censuses') ? Number(st.getAttribute('data-censuses')) : -1,
      // the census count the page shows (an update appended or fetched)
      redraw: Number(document.documentElement.getAttribute('data-hp2x-census') || '-1'),
      loads: Number(document.documentElement.getAttribute('data-hp2x-redraw') || '-1'),
      appended: Number(document.documentElement.getAttribute('data-hp2x-appended') || '0'),
      t: D ? D.t : [],
      bands: D ? D.bands.map((b) => ({ name: b.name, v: b.v })) : [],
      hidden: window.hp2x && window.hp2x.state ? window.hp2x.state().hidden : [],
      hiddenRows: rows ? hiddenRows : null,
      view: view ? view.textContent : '',
    };
  });
}

// Hides the first row's band and zooms from 20% to 70% of the graph.
async function hideAndZoom(page) {
  // (the table below the screen: scrolled into view, it has its rows)
  const name = await page.evaluate(() => new Promise((done) => {
    const table = document.getElementById('hp2x-table');
    table.scrollIntoView();
    requestAnimationFrame(() => {
      const tr = table.querySelector('tbody tr');
      window.scrollTo(0, 0);
      if (!tr) { done(null); return; }
      tr.querySelector('input').click();
      done(tr.querySelector('.hp2x-label').textContent);
    });
  }));
  if (name === null) throw new Error('the band table scrolled into view has no rows');
  const box = await page.evaluate(() => {
    const D = window.hp2x.data;
    const r = document.getElementById('hp2x-picture').getBoundingClientRect();
    const F = D.page.frame, g = D.page.graph;
    const at = (fx, fy) => [r.left + F[0] * fx + F[2] * fy + F[4], r.top + F[1] * fx + F[3] * fy + F[5]];
    return [at(g[0] + 0.2 * g[2], g[1] + 0.5 * g[3]), at(g[0] + 0.7 * g[2], g[1] + 0.5 * g[3])];
  });
  await page.mouse.move(box[0][0], box[0][1]);
  await page.mouse.down();
  await page.mouse.move(box[1][0], box[1][1], { steps: 5 });
  await page.mouse.up();
  await page.click('#hp2x-charts button[data-chart="streamgraph"]');
  return name;
}

// Picks a census with a click on the graph, at 40 % of it; its time.
async function pick(page) {
  const at = await page.evaluate(() => {
    const D = window.hp2x.data;
    const r = document.getElementById('hp2x-picture').getBoundingClientRect();
    const F = D.page.frame, g = D.page.graph, fx = g[0] + 0.4 * g[2], fy = g[1] + 0.5 * g[3];
    return [r.left + F[0] * fx + F[2] * fy + F[4], r.top + F[1] * fx + F[3] * fy + F[5]];
  });
  await page.mouse.click(at[0], at[1]);
  return page.evaluate(() => document.getElementById('hp2x-moment-table').dataset.time);
}

async function main() {
  const [url, out, secs] = process.argv.slice(2);
  const limit = 1000 * (Number(secs) || 45);
  const browser = await launchOrSkip();
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  // Every input state the status line shows, recorded by the page as it
  // changes (a poll every 100 ms would miss a short one).
  await page.addInitScript(() => {
    window.hp2xStates = [];
    const look = () => {
      const st = document.getElementById('hp2x-live-status');
      const v = st && st.getAttribute('data-input');
      const seen = window.hp2xStates;
      if (v && seen[seen.length - 1] !== v) seen.push(v);
    };
    new MutationObserver(look).observe(document, {
      attributes: true, childList: true, subtree: true, attributeFilter: ['data-input'],
    });
  });
  await page.goto(url);
  let marked = false; // set once the report is there (the page before the
                      // first census loads it once)
  const seen = {}, statusAt = {}, states = [];
  let hiddenName = null, zoomWords = null, last = null, lastCount = -1, switchedAt = -1;
  // The moment: followed (0), picked (1), followed again (2).
  let phase = 0, picked = null, pickedAt = -1, followAt = -1;
  const start = Date.now();
  while (Date.now() - start < limit) {
    let s;
    try { s = await snapshot(page); } catch (e) {
      // the page before the first census loading the report
      check(!marked, 'the page navigated: ' + e.message);
      await page.waitForLoadState('load').catch(() => {});
      continue;
    }
    const now = (Date.now() - start) / 1000;
    if (s.input && states[states.length - 1] !== s.input) states.push(s.input);
    if (s.censuses >= 0) { // the status line has had its first event
      check(s.censuses >= lastCount, `the status's census count went down: ${lastCount} then ${s.censuses}`);
      // A report just fetched from / (nothing appended to it yet) may be
      // ahead of the last update's count: the server drew it after that
      // update.  Censuses the page appended never are.
      check(s.censuses >= s.t.length || s.appended === 0,
        `the page holds more censuses than the status counts: ${s.t.length} > ${s.censuses}`);
    }
    lastCount = Math.max(lastCount, s.censuses);
    if (!(s.censuses in statusAt)) statusAt[s.censuses] = now;
    for (const t of s.t) if (!(t in seen)) seen[t] = now;
    if (s.t.length && phase !== 1)
      check(s.momentTime === s.t[s.t.length - 1] && s.following && /the newest, followed/.test(s.momentSays),
        `the moment does not follow the newest census (${s.t[s.t.length - 1]}): it shows ${s.momentTime}, '${s.momentSays}'`);
    if (phase === 1) {
      check(s.momentTime === picked && !s.following, `after an update the moment shows ${s.momentTime}, not the census picked, ${picked}`);
      if (s.redraw >= pickedAt + 2) { // two updates kept it: follow again
        await page.click('#hp2x-follow');
        const after = await snapshot(page);
        followAt = after.redraw;
        phase = 2;
        check(after.momentTime === after.t[after.t.length - 1] && after.following,
          `the follow button did not go back to the newest census: ${after.momentTime}`);
      }
    }
    if (!hiddenName && s.t.length >= 3) {
      hiddenName = await hideAndZoom(page);
      picked = await pick(page);
      const p = await snapshot(page);
      pickedAt = p.redraw;
      phase = 1;
      check(p.momentTime === picked && !p.following && picked !== p.t[p.t.length - 1],
        `a click did not pick a census to keep: ${picked} (newest ${p.t[p.t.length - 1]}), follow button hidden ${p.following}`);
      await sleep(100);
      const after = await snapshot(page);
      zoomWords = after.view;
      switchedAt = after.redraw;
      check(/Showing/.test(zoomWords), `no zoom after the drag: "${zoomWords}"`);
      check(after.chart === 'streamgraph', `the chart switch shows ${after.chart}`);
    } else if (hiddenName) {
      check(s.hidden.length === 1 && s.hidden[0] === hiddenName,
        `after an update the hidden bands are ${JSON.stringify(s.hidden)}, not ["${hiddenName}"]`);
      check(!s.hiddenRows || s.hiddenRows.length === 1 && s.hiddenRows[0] === hiddenName,
        `after an update the table's rows hidden are ${JSON.stringify(s.hiddenRows)}, not ["${hiddenName}"]`);
      check(s.view === zoomWords, `after an update the view says "${s.view}", not "${zoomWords}"`);
      check(s.chart === 'streamgraph' && s.drawnPaths.indexOf(hiddenName) < 0,
        `after an update the chart is ${s.chart}, the hidden band drawn: ${s.drawnPaths.indexOf(hiddenName) >= 0}`);
    }
    if (marked) check(s.marker, 'the page was reloaded: after ' + now + ' s');
    if (!marked && s.t.length > 0) {
      await page.evaluate(() => { window.hp2xLiveMarker = 1; });
      marked = true;
    }
    last = s;
    if (s.input === 'closed' && hiddenName) {
      // the last redraw is shown once no update is pending
      await sleep(1500);
      last = await snapshot(page);
      break;
    }
    await sleep(100);
  }
  // The states in the order the page showed them (the polled ones if the
  // page's record is gone).
  const shown = await page.evaluate(() => window.hp2xStates).catch(() => []);
  if (shown.length) states.splice(0, states.length, ...shown);
  check(last && last.input === 'closed', `the status never said the input closed (${JSON.stringify(states)})`);
  check(phase === 2 && last && last.redraw > followAt,
    `the moment was not followed again with an update after (phase ${phase}, redraw ${followAt}, last ${last && last.redraw})`);
  // (switchedAt is -1 where the page showed no update yet when switched:
  // a slow server's first update may come after the page's first load)
  check(hiddenName !== null && last && last.redraw > switchedAt,
    `no live update came after the band was hidden, the time zoomed and the chart switched (redraw ${switchedAt}, last ${last && last.redraw})`);
  if (states[0] === 'closed') // opened late: nothing to follow, say so
    console.log('NOTE: the page opened after the input had closed');
  else
    check(states.indexOf('connected') >= 0, `the status never said connected (${JSON.stringify(states)})`);
  // the band table at the end, scrolled into view: every band's row, the
  // hidden one marked
  const table = await T.bandTable(page);
  check(table.bad.length === 0 && table.rows > 0 && !table.stale && table.hidden.length === 1 && table.hidden[0] === hiddenName,
    `the band table at the end (${table.rows} rows, hidden ${JSON.stringify(table.hidden)}): ${table.bad.slice(0, 3).join('; ')}`);
  console.log(`the band table at the end: ${table.was.below ? 'below' : 'on'} the screen, ${table.was.rows} rows, then ${table.rows}`);
  check(errors.length === 0, 'console errors: ' + errors.join(' | '));
  fs.writeFileSync(out, JSON.stringify({ seen, statusAt, last, hiddenName, states }));
  await browser.close();
  console.log(`${checks} checks, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
