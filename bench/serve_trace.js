// serve_trace.js -- what a census costs a live page's renderer (issue 42):
// one recorded stream replayed, census by census every 150 ms, into
// `hp2x --watch --interval=0.1 unix:PATH --serve=0`, with PAGES live pages
// (default 1) in Debian's chromium through playwright-core, the first page
// traced (chromium's devtools.timeline).  Prints one JSON line: per event
// of the first page's renderer main thread (its tasks, the script, style,
// layout, paint, commit), how many and their median and total ms, and the
// tasks' total per census; and the first censuses apart (`first`: for
// censuses 1-5, each event's total ms that began between that census's
// send and the next's, on the same clock: a stream's first censuses are
// where each page lays out a whole new report; `firstTotal`, the five's
// sums).  A measure the machine's load changes less than latency (each
// event's own time), to compare two builds.
// usage: node serve_trace.js HP2X STREAM.eventlog[.gz] [PAGES]
'use strict';
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { spawn, execFileSync } = require('child_process');
const B = path.join(__dirname, '..', 'tests', 'browser');
const { CHROMIUM, ARGS } = require(path.join(B, 'chromium.js'));
const EVENTS = ['RunTask', 'FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Where each census of the stream ends (tests/live/streamcheck.py).
function censusEnds(file) {
  return JSON.parse(execFileSync('python3', ['-c', 'import json, sys\nsys.path.insert(0, sys.argv[1])\n' +
    'import streamcheck\nprint(json.dumps(streamcheck.parse_stream(open(sys.argv[2], "rb").read()).census_ends))',
  path.join(__dirname, '..', 'tests', 'live'), file], { encoding: 'utf8' }));
}

// The renderer main thread's events of trace `file`: {name: [ms...]}, and
// with `at` an array, each event's [name, start (µs, the trace's clock),
// ms] pushed to it.
function mainThread(file, at) {
  const ev = JSON.parse(fs.readFileSync(file, 'utf8')).traceEvents;
  const main = new Set(ev.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain')
    .map((e) => e.pid + ':' + e.tid));
  const out = {};
  for (const e of ev) {
    if (e.ph !== 'X' || !main.has(e.pid + ':' + e.tid) || EVENTS.indexOf(e.name) < 0) continue;
    (out[e.name] = out[e.name] || []).push(e.dur / 1000);
    if (at) at.push([e.name, e.ts, e.dur / 1000]);
  }
  return out;
}

// For censuses 1..n, each event's total ms (tasks over 0.5 ms, as the
// run's totals) that began in [sent[k], sent[k + 1]).
function firstCensuses(at, sent, n) {
  const out = [];
  for (let k = 0; k < Math.min(n, sent.length - 1); k++) {
    const c = { census: k + 1 };
    for (const n of EVENTS) c[n] = 0;
    for (const [name, ts, ms] of at) {
      if (ts < sent[k] || ts >= sent[k + 1] || (name === 'RunTask' && ms <= 0.5)) continue;
      c[name] += ms;
    }
    for (const n of EVENTS) c[n] = +c[n].toFixed(1);
    out.push(c);
  }
  return out;
}

async function main() {
  const [hp2x, stream, pagesArg] = process.argv.slice(2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp2x-trace-'));
  let data = fs.readFileSync(stream);
  if (stream.endsWith('.gz')) data = zlib.gunzipSync(data);
  fs.writeFileSync(path.join(dir, 's.eventlog'), data);
  const ends = censusEnds(path.join(dir, 's.eventlog')), sock = path.join(dir, 'app.sock');
  let conn = null;
  const server = net.createServer((c) => { conn = c; c.on('error', () => {}); });
  await new Promise((r) => server.listen(sock, r));
  const proc = spawn(hp2x, ['--watch', '--interval=0.1', 'unix:' + sock, '--serve=0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise((done, fail) => {
    let err = '';
    proc.stderr.on('data', (b) => { err += b; const m = /serving http:\/\/[^\n]*:(\d+)\/\n/.exec(err); if (m) done(Number(m[1])); });
    proc.on('exit', (code) => fail(new Error(`hp2x exited (${code}) before serving: ${err.trim()}`)));
  });
  const { chromium } = require(path.join(B, 'node_modules', 'playwright-core'));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const pages = [];
  for (let i = 0; i < (Number(pagesArg) || 1); i++) { // a context a page, as the latency bench
    const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const p = await ctx.newPage();
    await p.goto(`http://127.0.0.1:${port}/`);
    pages.push(p);
  }
  while (!conn) await sleep(20);
  const trace = path.join(dir, 'trace.json');
  await browser.startTracing(pages[0], { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  // Each send's time on chromium's trace clock: CLOCK_MONOTONIC in µs on
  // Linux, as node's hrtime.
  const t0 = Date.now(), sent = [], now = () => Number(process.hrtime.bigint() / 1000n);
  let from = 0;
  for (let k = 0; k < ends.length; k++) {
    while (Date.now() < t0 + k * 150) await sleep(2);
    sent.push(now());
    conn.write(data.subarray(from, ends[k]));
    from = ends[k];
  }
  sent.push(now() + 1e6);
  await sleep(1000);
  await browser.stopTracing();
  const at = [], ev = mainThread(trace, at), out = { censuses: ends.length, pages: pages.length };
  for (const n of EVENTS) {
    const xs = (ev[n] || []).filter((x) => n !== 'RunTask' || x > 0.5).sort((a, b) => a - b);
    out[n] = { n: xs.length, p50: xs.length ? +xs[xs.length >> 1].toFixed(2) : null,
      total: +xs.reduce((a, x) => a + x, 0).toFixed(0) };
  }
  out.tasksPerCensus = +(out.RunTask.total / ends.length).toFixed(2);
  out.first = firstCensuses(at, sent, 5);
  out.firstTotal = {}; // the five together: a census's work can fall in the next one's span
  for (const n of EVENTS) out.firstTotal[n] = +out.first.reduce((a, c) => a + c[n], 0).toFixed(1);
  console.log(JSON.stringify(out));
  conn.end();
  await browser.close();
  proc.kill('SIGTERM');
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
main().catch((e) => { console.error('serve_trace: ' + (e && e.stack || e)); process.exit(1); });
