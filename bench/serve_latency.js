// serve_latency.js -- one configuration of the serving benchmark
// (bench/serve_latency.sh): replays recorded eventlog streams into
// `hp2x --watch unix:PATH` (one hp2x run per stream) with live pages in
// chromium and plain SSE clients following its --serve, and measures, in
// node's one monotonic clock (performance.now()), the time from census k
// reaching the socket (its last byte written) to each client showing it:
// the status line counting k, and the page's report showing census k
// (drawn by the page from an update, or fetched with the page), a page's
// by its own stamp once the frame showing it is made
// (tests/browser/live_observer.js), in node's clock (clockOffset).
// Also the watch's CPU time (utime + stime of /proc/PID/stat, threads
// included) over each replay.
// usage: node serve_latency.js CONFIG.json
//   CONFIG: {hp2x, dir, streams: [{file, ends: [byte after census k]}],
//            pages, sse, serve (bool), pace_ms, interval, out}
// Writes `out` (JSON: the latencies per kind, CPU, census and redraw
// counts, clients that missed a census); exits 1 when a run failed.
'use strict';
const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');
const { performance } = require('perf_hooks');
const B = path.join(__dirname, '..', 'tests', 'browser');
const { SseClient } = require(path.join(B, 'sse_client.js'));
const { observe, collect } = require(path.join(B, 'live_observer.js'));
const { CHROMIUM, ARGS } = require(path.join(B, 'chromium.js'));

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICK_MS = 1000 / 100; // USER_HZ: /proc's clock ticks
const children = new Set(); // hp2x runs still going (killed on a failure)

function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS; // fields 14, 15
}

// until(cond, ms): polls cond every 20 ms; false when ms passed first.
async function until(cond, ms) {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) return false;
    await sleep(20);
  }
  return true;
}

// Starts hp2x on the socket; resolves {proc, port} once it serves (or,
// without --serve, at once).
function startHp2x(sock, out) {
  const args = ['--watch', `--interval=${cfg.interval}`, `unix:${sock}`];
  if (cfg.serve) args.push('--serve=0'); else args.push('-o', out);
  const proc = spawn(cfg.hp2x, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(proc);
  proc.on('exit', () => children.delete(proc));
  let err = '';
  return new Promise((resolve, reject) => {
    proc.stderr.on('data', (b) => {
      err += b.toString();
      const m = /hp2x: serving http:\/\/[^\n]*:(\d+)\/\n/.exec(err);
      if (m) resolve({ proc, port: Number(m[1]), err: () => err });
    });
    proc.on('exit', (code) => reject(new Error(`hp2x exited (${code}): ${err}`)));
    if (!cfg.serve) resolve({ proc, port: 0, err: () => err });
  });
}

// One stream: serve it on a Unix socket, paced by census, to a fresh hp2x
// with fresh clients.  Appends to `res`.
async function runStream(stream, browser, res) {
  const data = fs.readFileSync(stream.file);
  const sock = path.join(cfg.dir, 'app.sock');
  try { fs.unlinkSync(sock); } catch (e) { /* none */ }
  let conn = null;
  const server = net.createServer((c) => { conn = c; c.on('error', () => {}); });
  await new Promise((r) => server.listen(sock, r));
  const h = await startHp2x(sock, path.join(cfg.dir, 'out.html'));
  const sent = [];                 // sent[k-1]: when census k was written
  const clients = [];              // {name, status: [first time >= k], picture: [...]}
  const mark = (arr, n, now) => { for (let k = 1; k <= n; k++) if (arr[k - 1] === undefined) arr[k - 1] = now; };
  const pages = [];
  let lastPicture = -1;
  // A context per page: chromium keeps at most 6 connections per host in
  // one profile, and each live page holds one (its /events), so the 6th
  // page of one context would wait for ever (RESULTS.md, section 12).
  const byPage = new Map(), contexts = [];
  const onSeen = (page, what, now) => {
    const c = byPage.get(page);
    if (!c) return;
    // The page's own stamp, in node's clock (the two agree to a
    // millisecond: node never hears of a change before the page stamped
    // it); how much later node heard is the observation's cost.
    const shown = what.at ? what.at - c.offset - performance.timeOrigin : now;
    if (!cfg.quiet) c.heard.push(now - shown);
    if (what.kind === 'status') { c.ready = true; mark(c.status, what.censuses, shown); }
    if (what.kind === 'picture') mark(c.picture, what.n, shown);
  };
  for (let i = 0; i < cfg.pages; i++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    contexts.push(context);
    await observe(context, onSeen, cfg.quiet);
    const page = await context.newPage();
    const c = { name: `page${i + 1}`, status: [], picture: [], ready: false, heard: [], offset: 0 };
    byPage.set(page, c);
    clients.push(c);
    pages.push(page);
    await page.goto(`http://127.0.0.1:${h.port}/`);
    c.offset = await clockOffset(page);
  }
  const sse = [];
  for (let i = 0; i < cfg.sse; i++) {
    const c = { name: `sse${i + 1}`, status: [], picture: null, ready: false };
    clients.push(c);
    sse.push(new SseClient(h.port, c.name, (st, now) => {
      c.ready = true; mark(c.status, st.censuses, now);
      if (st.picture > lastPicture) lastPicture = st.picture;
    }));
  }
  // Quiet pages (SERVE_OBSERVE=quiet) are asked what they saw every 250
  // ms, not heard at each change.
  let polling = true;
  const poll = cfg.quiet ? (async () => {
    while (polling) {
      for (const p of pages) await collect(p, onSeen);
      await sleep(250);
    }
  })() : null;
  if (!(await until(() => clients.every((c) => c.ready) && conn, 30000)))
    throw new Error('clients or hp2x not ready in 30 s');
  // The replay: census k's bytes (from the previous census's end) at
  // t0 + k * pace, on an absolute schedule.
  const cpu0 = cpuMs(h.proc.pid), t0 = performance.now();
  let from = 0;
  for (let k = 0; k < stream.ends.length; k++) {
    const due = t0 + k * cfg.pace_ms;
    while (performance.now() < due - 1) await sleep(Math.max(0, due - performance.now() - 1));
    conn.write(data.subarray(from, stream.ends[k]));
    sent.push(performance.now());
    from = stream.ends[k];
  }
  const n = stream.ends.length;
  const caught = await until(() => clients.every((c) => c.status.length >= n &&
    (!c.picture || c.picture.length >= n)), 20000);
  await sleep(Math.max(0, t0 + (n + 5) * cfg.pace_ms - performance.now()));
  const cpu1 = cpuMs(h.proc.pid), t1 = performance.now();
  if (cfg.serve) { // the redraws so far: the status a fresh client gets
    const probe = new SseClient(h.port, 'probe', (st) => { lastPicture = Math.max(lastPicture, st.picture); });
    await until(() => probe.events > 0, 5000);
    probe.stop();
  }
  polling = false;
  if (poll) await poll;
  for (const p of pages) await collect(p, onSeen);
  conn.end(data.subarray(from));
  await keepDetail(stream, sent, clients, pages, res);
  for (const c of clients) {
    for (let k = 1; k <= n; k++) {
      if (c.status[k - 1] !== undefined) res.status.push(c.status[k - 1] - sent[k - 1]);
      if (c.picture && c.picture[k - 1] !== undefined) res.picture.push(c.picture[k - 1] - sent[k - 1]);
    }
    const lacking = c.status.length < n || (c.picture && c.picture.length < n);
    if (lacking) res.missed.push(`${path.basename(stream.file)}:${c.name} (status ${c.status.length}, picture ${c.picture ? c.picture.length : '-'} of ${n})`);
    if (c.name.startsWith('sse')) res.sse_status.push(...c.status.map((t, k) => t - sent[k]));
    else res.page_status.push(...c.status.map((t, k) => t - sent[k]));
  }
  res.caught = res.caught && caught;
  res.censuses += n;
  res.cpu_ms += cpu1 - cpu0;
  res.wall_ms += t1 - t0;
  res.redraws += lastPicture > 0 ? lastPicture : 0;
  for (const s of sse) s.stop();
  for (const c of contexts) await c.close();
  h.proc.kill('SIGTERM');
  const code = await new Promise((r) => h.proc.exitCode !== null ? r(h.proc.exitCode) : h.proc.on('exit', r));
  server.close();
  if (code !== 0) throw new Error(`hp2x ended with ${code}: ${h.err()}`);
}

// How far the page's clock (epoch ms: its performance.timeOrigin + now())
// is ahead of node's: each renderer maps its own monotonic clock to the
// epoch, tens of ms apart at times.  The page's time is read between two
// of node's, the closest of 9 tries taken (within half its round trip).
async function clockOffset(page) {
  let best = null;
  for (let i = 0; i < 9; i++) {
    const a = performance.timeOrigin + performance.now();
    const t = await page.evaluate(() => performance.timeOrigin + performance.now());
    const b = performance.timeOrigin + performance.now();
    if (!best || b - a < best.rtt) best = { rtt: b - a, off: t - (a + b) / 2 };
  }
  return best.off;
}

// For the slowest censuses' causes (serve_latency.sh): per page, each
// census's times (epoch ms: node's clock as the pages' is), why it fetched
// "/" (hp2x.liveLog: census, why, at, ms) and its long tasks; and how
// late node heard of what a page saw (the observation's own delay).
async function keepDetail(stream, sent, clients, pages, res) {
  const epoch = (t) => (t === undefined ? null : performance.timeOrigin + t);
  const d = { stream: path.basename(stream.file), sent: sent.map(epoch), pages: [] };
  for (let i = 0; i < pages.length; i++) {
    const c = clients[i];
    const got = await pages[i].evaluate(() => ({
      log: (window.hp2x && window.hp2x.liveLog) || [], reports: (window.hp2x && window.hp2x.liveReports) || [], tasks: window.hp2xLongTasks || [],
      warm: (window.hp2x && window.hp2x.liveWarm) || null,
      // (null while the page has not loaded: loadEventEnd 0)
      loaded: ((n) => (n && n.loadEventEnd ? performance.timeOrigin + n.loadEventEnd : null))(
        performance.getEntriesByType('navigation')[0]),
    })).catch(() => ({ log: [], tasks: [] }));
    // the page's times in node's clock
    got.log.forEach((e) => { if (e.at) e.at -= c.offset; });
    got.tasks.forEach((e) => { e.at -= c.offset; });
    // the page's load and its warm-up (live_swap.js: drawn, dropped or adopted), node's clock
    const warm = got.warm ? Object.fromEntries(['drawn', 'dropped', 'adopted'].map((k) =>
      [k, got.warm[k] ? got.warm[k] - c.offset : null])) : null;
    d.pages.push({ name: c.name, status: sent.map((_, k) => epoch(c.status[k])),
      picture: sent.map((_, k) => epoch(c.picture[k])), log: got.log, tasks: got.tasks, reports: got.reports,
      loaded: got.loaded ? got.loaded - c.offset : null, warm,
      clock_offset_ms: c.offset });
    res.heard.push(...c.heard);
  }
  res.detail.push(d);
}

async function main() {
  let browser = null;
  if (cfg.pages > 0) {
    const { chromium } = require(path.join(B, 'node_modules', 'playwright-core'));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  }
  const res = { status: [], picture: [], page_status: [], sse_status: [], missed: [],
    caught: true, censuses: 0, cpu_ms: 0, wall_ms: 0, redraws: 0, heard: [], detail: [] };
  for (const s of cfg.streams) await runStream(s, browser, res);
  if (browser) await browser.close();
  fs.writeFileSync(cfg.out, JSON.stringify(res));
}
main().catch((e) => {
  console.error('serve_latency: ' + (e && e.stack || e));
  for (const c of children) c.kill('SIGKILL');
  process.exit(1);
});
