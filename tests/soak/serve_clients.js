// serve_clients.js -- the clients of the soak's served watch
// (tests/soak/soak.sh): PAGES live pages in one chromium (a context each:
// chromium keeps at most 6 connections per host in one profile, and a
// live page holds one) and SSE plain SSE clients (reconnecting as an
// EventSource does) follow hp2x --serve for the whole soak.  Each tracks
// the last status and picture it saw; the first SSE client logs each new
// picture to DIR/redraws.log ("ms_since_epoch picture"), so the soak can
// tell a redraw after each fault.  Once DIR/final.json appears (the
// server's last status, written by the soak at the end), every client gets
// up to 30 s to show that status (the SSE clients that picture too); then
// DIR/clients.json gets what each saw and the names of those that stopped
// following.  Every client also keeps which censuses reached it
// (coverage.js): a page through its EventSource (tapped before the page's
// own scripts run) or the page load or fetch of "/" that brought them, an
// SSE client through its updates; a page that misses a census has
// stopped following (an SSE client's misses are only counted).
// usage: node serve_clients.js PORT PAGES SSE DIR
// Exit: 0 all followed, 1 one did not (or a failure), 3 no browser.
'use strict';
const fs = require('fs');
const path = require('path');
const B = path.join(__dirname, '..', 'browser');
const { SseClient } = require(path.join(B, 'sse_client.js'));
const { observe } = require(path.join(B, 'live_observer.js'));
const { launchOrSkip } = require(path.join(B, 'chromium.js'));
const { Coverage, tapScript } = require('./coverage.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const [port, nPages, nSse, dir] = [Number(process.argv[2]), Number(process.argv[3]),
    Number(process.argv[4]), process.argv[5]];
  const browser = await launchOrSkip();
  const clients = [], byPage = new Map(), errors = [];
  const onSeen = (page, what) => {
    const c = byPage.get(page);
    if (!c) return;
    c.events++;
    if (what.kind === 'status') { c.censuses = what.censuses; c.input = what.input; }
    if (what.kind === 'picture') { c.picture = what.redraw; c.held = what.n; }
  };
  for (let i = 0; i < nPages; i++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await observe(context, onSeen);
    const c = { name: `page${i + 1}`, censuses: -1, picture: -1, held: 0, input: null, events: 0,
      loads: 0, cov: new Coverage() };
    await context.exposeBinding('hp2xTapped', (src, data) => c.cov.event(data));
    await context.addInitScript(tapScript);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${c.name}: ${e}`));
    page.on('load', () => { c.loads++; });
    byPage.set(page, c);
    clients.push(c);
    await page.goto(`http://127.0.0.1:${port}/`);
  }
  const log = fs.openSync(path.join(dir, 'redraws.log'), 'a');
  let logged = -1;
  const sse = [];
  for (let i = 0; i < nSse; i++) {
    const c = { name: `sse${i + 1}`, censuses: -1, picture: -1, input: null, events: 0, cov: new Coverage() };
    clients.push(c);
    sse.push(new SseClient(port, c.name, (st, now, cl) => {
      if (cl.events === 1) c.cov.event('open'); // it holds what it joined with
      c.cov.update(st);
      c.censuses = st.censuses; c.picture = st.picture; c.input = st.input; c.events++;
      if (i === 0 && st.picture > logged) {
        logged = st.picture;
        fs.writeSync(log, `${Date.now()} ${st.picture}\n`);
      }
    }, { reconnect: true }));
    c.sse = sse[i];
  }
  fs.writeFileSync(path.join(dir, 'clients.ready'), '');
  const finalPath = path.join(dir, 'final.json');
  while (!fs.existsSync(finalPath)) await sleep(200);
  await sleep(100);
  const final = JSON.parse(fs.readFileSync(finalPath, 'utf8'));
  // A page must hold every census (it catches up by fetching "/"); a plain
  // SSE client cannot catch up on what went by beyond an update's tail:
  // its gaps are reported, it must reach the last status and picture.
  const following = (c) => c.censuses === final.censuses &&
    (c.loads !== undefined ? c.cov.missing(final.censuses) === 0 : c.picture === final.picture);
  const end = Date.now() + 30000;
  while (Date.now() < end && !clients.every(following)) await sleep(200);
  // What each page shows as its census count (issue 42's live page sets
  // data-hp2x-census on drawing a census itself; null: never did).
  // Why it fetched "/" again (hp2x.liveLog), and whether it was hidden.
  for (const [page, c] of byPage) {
    const seen = await Promise.race([page.evaluate(() => {
      const e = document.querySelector('[data-hp2x-census]');
      const log = (window.hp2x && window.hp2x.liveLog) || [];
      const why = {};
      for (const x of log) why[x.why] = (why[x.why] || 0) + 1;
      return { shown: e ? Number(e.getAttribute('data-hp2x-census')) : null,
        hidden: document.hidden, why };
    }).catch(() => null), sleep(5000).then(() => ({ shown: 'no answer in 5 s' }))]);
    Object.assign(c, seen || {});
  }
  const stopped = clients.filter((c) => !following(c)).map((c) =>
    `${c.name} (last saw ${c.censuses} censuses, picture ${c.picture}, missed ` +
    `${c.cov.missing(final.censuses)}${c.cov.gaps(final.censuses)}; the server ${final.censuses}, ${final.picture})`);
  const out = clients.map((c) => ({ name: c.name, censuses: c.censuses, picture: c.picture,
    events: c.events, loads: c.loads, shown: c.shown, hidden: c.hidden, why: c.why, reconnects: c.sse ? c.sse.reconnects : undefined,
    ...c.cov.report(final.censuses) }));
  fs.writeFileSync(path.join(dir, 'clients.json'), JSON.stringify({ final, clients: out, stopped, errors }));
  for (const s of sse) s.stop();
  await Promise.race([browser.close(), sleep(20000)]);
  process.exit(stopped.length || errors.length ? 1 : 0);
}
main().catch((e) => { console.log('serve_clients: ' + (e && e.stack || e)); process.exit(1); });
