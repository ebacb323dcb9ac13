// live_share_test.js -- several live pages of one hp2x --serve in one
// browser profile (Debian's chromium, through playwright-core).
// usage: node live_share_test.js URL PAGES OUT.json READY
// A browser keeps about six connections to one server, so PAGES (7) live
// pages that each held an event stream would leave the seventh unable to
// load.  The pages share one stream: the page that follows /events (it
// marks <html data-hp2x-follows>) passes each update to the others.
// Opens PAGES pages in one context before the service's stream begins
// (hp2x's waiting page), and once each shows the status line (or 20 s
// passed) creates the file READY: test_serve_browser.sh then replays the
// stream.  Once the following page has shown 5 censuses, closes it:
// another page must take over.  Checks: every page loads the waiting page
// before the stream begins, then the report; one page follows at a time,
// another after the first closed; each page's first report is the one the
// server pushed, or drawn into its warm-up from census 1's update (passed
// on by the following page), not fetched; at the end
// every page left says the
// input closed with the same census count, shows it (data-hp2x-census) and
// holds the same censuses (appended from updates or fetched with the page);
// no page stops answering.  Writes OUT.json (each page's last state);
// prints "FAIL: ..." lines and "N checks, N failed"; exits 1 on a failure
// (or after 150 s in all), 3 (after "SKIPPED: why") when chromium cannot
// start.
'use strict';
const fs = require('fs');
const { launchOrSkip } = require('./chromium.js');
let checks = 0, failures = 0;
function check(ok, what) {
  checks++;
  if (!ok) { failures++; console.log('FAIL: ' + what); }
  return ok;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What a page shows; {stuck: true} when it does not answer in 5 s (a page
// still loading, as one waiting for a connection).
function look(page) {
  const stuck = sleep(5000).then(() => ({ stuck: true }));
  return Promise.race([stuck, page.evaluate(() => {
    const st = document.getElementById('hp2x-live-status');
    const root = document.documentElement;
    return {
      follows: root.hasAttribute('data-hp2x-follows'),
      input: st ? st.getAttribute('data-input') : null,
      censuses: st && st.hasAttribute('data-censuses') ? Number(st.getAttribute('data-censuses')) : -1,
      redraw: Number(root.getAttribute('data-hp2x-redraw') || '-1'),
      shown: Number(root.getAttribute('data-hp2x-census') || '-1'),
      // (a report the page holds: not the warm-up, live_swap.js warmUp)
      held: window.hp2x && window.hp2x.data && document.querySelector('#hp2x-report:not([data-hp2x-warm])') ? window.hp2x.data.t.join(' ') : '',
      report: !!document.querySelector('#hp2x-report:not([data-hp2x-warm])'),
      // how the waiting page's first report came: drawn into its warm-up
      // from census 1's update, pushed (a "report" event; either passed on
      // by the following page) or fetched
      first: ((window.hp2x && window.hp2x.liveLog) || []).filter((e) => e.why === 'first')
        .map((e) => (e.update ? 'update' : e.pushed ? 'pushed' : 'fetched')).join(' '),
    };
  }).catch(() => null)]);
}

async function main() {
  const [url, n, out, ready] = process.argv.slice(2);
  setTimeout(() => { console.log('FAIL: still running after 150 s'); process.exit(1); }, 150000);
  const browser = await launchOrSkip();
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  // the pushed report waited for up to 20 s (a sanitizer's build is slow)
  await context.addInitScript(() => { window.hp2x = window.hp2x || {}; window.hp2x.pushWait = 20000; });
  const pages = [];
  for (let i = 0; i < Number(n); i++) {
    const page = await context.newPage();
    // not awaited: a page that cannot get a connection never finishes loading
    page.goto(url, { timeout: 40000 }).catch(() => {});
    pages.push(page);
  }
  // Before the stream: every page loads the waiting page and shows its
  // status; one page follows /events.
  let states = [];
  const t0 = Date.now();
  while (Date.now() - t0 < 20000) {
    states = await Promise.all(pages.map(look));
    if (states.every((s) => s && !s.stuck && s.input)) break;
    await sleep(200);
  }
  const shown = states.filter((s) => s && !s.stuck && s.input).length;
  check(shown === Number(n), `${shown} of ${n} pages show the waiting page's status before the stream begins`);
  const leaders = states.filter((s) => s && s.follows).length;
  check(leaders === 1, `${leaders} waiting pages follow /events`);
  fs.writeFileSync(ready, '');
  let closed = null, takenOver = false;
  const start = Date.now();
  while (Date.now() - start < 40000) {
    states = await Promise.all(pages.map((p) => (p.isClosed() ? null : look(p))));
    const live = states.filter((s) => s && !s.stuck);
    const following = live.filter((s) => s.follows).length;
    check(following <= 1, `${following} pages follow /events at once`);
    if (closed === null) {
      const k = states.findIndex((s) => s && s.follows && s.censuses >= 5);
      if (k >= 0) { closed = k; await pages[k].close(); continue; }
    } else if (following === 1) {
      takenOver = true;
    }
    if (closed !== null && live.length && live.every((s) => s.input === 'closed')) break;
    await sleep(200);
  }
  await sleep(2000); // the last redraw swapped in everywhere
  states = await Promise.all(pages.map((p) => (p.isClosed() ? null : look(p))));
  check(closed !== null, 'no page followed /events and showed 5 censuses');
  check(takenOver, 'no page took over after the following one closed');
  const left = states.filter((s) => s);
  check(left.length === Number(n) - 1, `${left.length} pages left, not ${Number(n) - 1}`);
  check(left.every((s) => !s.stuck), `${left.filter((s) => s.stuck).length} pages do not answer`);
  left.forEach((s, i) => {
    check(s.report, `page ${i}: no report loaded`);
    check(s.first === 'pushed' || s.first === 'update', `page ${i}: its first report was '${s.first}', not pushed nor from its update`);
    check(s.input === 'closed', `page ${i}: the input is ${s.input}, not closed`);
    check(s.censuses === left[0].censuses && s.censuses > 5, `page ${i}: ${s.censuses} censuses, page 0 ${left[0].censuses}`);
    check(s.shown === s.censuses, `page ${i}: shows census ${s.shown}, the status counts ${s.censuses}`);
    check(s.held === left[0].held && s.held, `page ${i}: holds ${s.held.split(' ').length} censuses, not page 0's ${left[0].held.split(' ').length}`);
  });
  fs.writeFileSync(out, JSON.stringify({ closed, takenOver, states }));
  await browser.close();
  console.log(`${checks} checks, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
