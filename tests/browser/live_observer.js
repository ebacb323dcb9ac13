// live_observer.js -- what hp2x --serve's live pages show, as it changes,
// for the serving benchmark (bench/serve_latency.js) and the soak
// (tests/soak/serve_clients.js).  observe(context, onSeen) adds to every
// page of a playwright browser context a script that watches the
// attributes live_*.js set (the status line's data-censuses, the root's
// data-hp2x-redraw and data-hp2x-census) and, at each change, calls back into node with what
// the page holds now; node stamps it with its own performance.now() (ms),
// so that the time a census is shown and the time it was sent are read
// from one clock (quiet: the page keeps it until collect()); and the page's own stamp (what.at: epoch ms, once the
// frame showing it was made), which the benchmark takes as the time shown.  onSeen(page, what, now_ms): what.kind is 'status'
// ({censuses, picture, input}) or 'picture' ({redraw, n: the census count
// the report shows (data-hp2x-census, set once the page draws a census
// from an update itself; before that, the censuses its data holds), held:
// the censuses it holds, last: its last census time}).  The report's data
// is the page's (window.hp2x.data: live_apply.js appends to it), else #hp2x-data.
'use strict';
const { performance } = require('perf_hooks');

// Runs in the page (before its own scripts, and again after a reload).
function pageScript(quiet) {
  let censuses = -2, redraw = null, census = null;
  const kept = window.hp2xSeen = []; // quiet: what collect() takes
  // at: the page's own clock (epoch ms, as node's performance.timeOrigin
  // + now()) once the frame showing the change was made: the first
  // animation frame after it, and the task after that frame.  How late
  // node hears of it (the binding's way through the browser to node) is
  // the observation's own cost, left out of what a page is said to show.
  const send = (what) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      what.at = performance.timeOrigin + performance.now();
      if (quiet) kept.push(what);
      else try { window.hp2xObserved(what); } catch (e) { /* gone */ }
    };
    ch.port2.postMessage(0);
  });
  // The page's long tasks (over 50 ms), for the benchmark's causes.
  const tasks = window.hp2xLongTasks = [];
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        tasks.push({ at: performance.timeOrigin + e.startTime, ms: e.duration });
        if (tasks.length > 2000) tasks.shift();
      }
    }).observe({ type: 'longtask' });
  } catch (e) { /* no long tasks here */ }
  function look() {
    const st = document.getElementById('hp2x-live-status');
    if (st && st.hasAttribute('data-censuses')) {
      const n = Number(st.getAttribute('data-censuses'));
      if (n !== censuses) {
        censuses = n;
        send({ kind: 'status', censuses: n, input: st.getAttribute('data-input') });
      }
    }
    const root = document.documentElement, r = root.getAttribute('data-hp2x-redraw');
    const c = root.getAttribute('data-hp2x-census'), data = document.getElementById('hp2x-data');
    if (r !== null && (r !== redraw || c !== census) && data && document.querySelector('#hp2x-report:not([data-hp2x-warm])')) {
      redraw = r;
      census = c;
      let t = [];
      try {
        t = (window.hp2x && window.hp2x.data || JSON.parse(data.textContent)).t || [];
      } catch (e) { /* half swapped */ }
      send({ kind: 'picture', redraw: Number(r), n: c !== null ? Number(c) : t.length, held: t.length,
        last: t.length ? t[t.length - 1] : null });
    }
  }
  new MutationObserver(look).observe(document, {
    attributes: true, subtree: true, attributeFilter: ['data-censuses', 'data-hp2x-redraw', 'data-hp2x-census'],
  });
  document.addEventListener('DOMContentLoaded', look);
}

// quiet: the pages keep what they saw (no call into node per change,
// each a round trip through the browser process that the pages measured
// would share the cores with); collect(page) hands it to onSeen, stamped
// with the page's own time.
async function observe(context, onSeen, quiet = false) {
  if (!quiet) {
    await context.exposeBinding('hp2xObserved', (source, what) => {
      onSeen(source.page, what, performance.now());
    });
  }
  await context.addInitScript(pageScript, quiet);
}

// What a quiet page saw since the last collect, to onSeen(page, what, now:
// node's clock of the page's stamp).
async function collect(page, onSeen) {
  const seen = await page.evaluate(() => (window.hp2xSeen || []).splice(0)).catch(() => []);
  for (const what of seen) onSeen(page, what, what.at - performance.timeOrigin);
}

module.exports = { observe, collect };
