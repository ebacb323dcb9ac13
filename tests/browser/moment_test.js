// moment_test.js -- the report's two tables of one moment and of the
// zoomed time, in a real browser (Debian's chromium through
// playwright-core, as report_test.js), against the real binary.
// usage: node moment_test.js HP2X DIR NAME...
// For each NAME, DIR holds NAME.html (the report), NAME.csv (the CSV of
// the same input and options) and NAME.json: { "args": [the options and
// input the report was made with], "exact": true when every label is a
// band (-m0 -t0: the zoom's table is --summary --from --to's row for
// row), "held": true when the page holds fewer censuses than the run }.
// Checks: the moment shown first is the peak, as --summary --at has it;
// a click on the graph picks the census nearest it, whose table is that
// census's CSV row and --summary --at's table, with a line on the graph;
// the moment table sorts; a drag zooms and the band table is --summary
// --from --to's for the range it states, its run lines too; a zoom over
// the whole graph gives the whole run's table, the C's own; the reset
// brings the whole run's table back; a page holding fewer censuses than
// the run says so.  Prints "FAIL: ..." lines and "N checks, N failed";
// exits 1 on a failure, 3 (after "SKIPPED: why") when chromium cannot
// start.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { launchOrSkip } = require('./chromium.js');
const T = require('./report_test.js');
const C = require('./checks.js').makeChecks();
const check = C.check;

// hp2x's standard output for these arguments.
function run(hp2x, args) {
  return execFileSync(hp2x, ['-q', ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

// The moment table of --summary --at: its census line and rows.
function parseMoment(text) {
  const lines = text.split('\n'), rows = [];
  const head = lines.findIndex((l) => /^ +\S+ +share +change  band/.test(l));
  for (const l of lines.slice(head + 1)) {
    if (l.trim() === '') break;
    if (/^ {43}/.test(l)) continue; // a -hi band's record, under its row
    const m = l.match(/^ *(\S+) +(\S+) +(\S+)  (.*)$/);
    if (m) rows.push({ value: m[1], share: m[2], change: m[3], name: m[4] });
  }
  const c = text.match(/census at (\S+) \S+ \(sample (\d+) of (\d+)\): (-?\d+) /);
  const d = text.match(/change since the census before, at \S+ \S+: (\S+) /);
  return { time: c && c[1], sample: c && +c[2], total: c && c[4], change: d ? d[1] : '-', rows };
}

// --summary's run lines: samples, first and last times, total peak.
function runLines(text) {
  const a = text.match(/(\d+) samples from (\S+) to (\S+) /), b = text.match(/total peak: (\S+) \S+ at (\S+) /);
  return a && b ? { n: +a[1], from: a[2], to: a[3], topPeak: b[1], topPeakAt: b[2] } : null;
}

async function geometry(page) {
  const geo = await T.geometry(page);
  geo.times = (geo.D.tx || geo.D.t).map(Number);
  return geo;
}

async function tables(page) {
  return page.evaluate(() => {
    const rows = (sel, cols) => Array.from(document.querySelectorAll(sel + ' tbody tr')).map((tr) => {
      const r = { band: +tr.dataset.band, name: tr.querySelector('.hp2x-label').textContent };
      const tds = tr.querySelectorAll('td.hp2x-num');
      cols.forEach((c, i) => { r[c] = tds[i].textContent; });
      const s = tr.querySelector('.hp2x-suspect');
      if (s) r.suspect = s.textContent === 'suspect';
      return r;
    });
    const mt = document.getElementById('hp2x-moment-table'), bs = document.getElementById('hp2x-bands-says');
    return {
      census: +mt.dataset.census, time: mt.dataset.time,
      momentSays: document.getElementById('hp2x-moment-says').textContent,
      moment: rows('#hp2x-moment-table', ['value', 'share', 'change']),
      line: document.querySelectorAll('#hp2x-moment-mark .hp2x-moment-line').length,
      bandsSays: bs.textContent, zoomed: bs.dataset.zoomed === '1', from: bs.dataset.from, to: bs.dataset.to,
      bands: rows('#hp2x-table', ['total', 'peak', 'peakAt', 'slope', 'r2', 'area']),
    };
  });
}

// The moment table shown against the CSV's row of its census and
// --summary --at's table of it.
function checkMoment(ctx, s, what) {
  const { name, csv, hp2x, args, D } = ctx;
  const row = csv.find((r) => r[0] === s.time);
  if (!check(!!row, `${name}: ${what}: the moment's census ${s.time} is no row of the CSV`)) return;
  const want = parseMoment(run(hp2x, [...args, '--summary', '--at=' + s.time]));
  check(want.time === s.time, `${name}: ${what}: --summary --at=${s.time} shows the census at ${want.time}`);
  check(want.rows.length === D.bands.length && s.moment.length === D.bands.length,
    `${name}: ${what}: ${s.moment.length} rows, --summary --at ${want.rows.length}, ${D.bands.length} bands`);
  let bad = 0;
  s.moment.forEach((r, i) => {
    const col = 1 + (D.bands.length - 1 - r.band), w = want.rows[i] || {};
    const ok = r.value === row[col] && csv[0][col].startsWith(r.name) && r.name === w.name &&
      r.value === w.value && r.share === w.share && r.change === w.change;
    if (!ok && bad++ < 3)
      check(false, `${name}: ${what}: ${r.name} ${r.value} ${r.share} ${r.change}; CSV ${row[col]}; ` +
        `--summary --at ${w.name} ${w.value} ${w.share} ${w.change}`);
  });
  check(bad === 0, `${name}: ${what}: ${bad} of ${s.moment.length} moment rows disagree`);
  const i = D.t.indexOf(s.time);
  check(s.momentSays.includes(`at ${s.time} ${D.sampleUnit}: ${want.total} ${D.valueUnit} in all`) &&
    (i === 0 || s.momentSays.includes(`${want.change} ${D.valueUnit} since the census`)),
  `${name}: ${what}: the moment says '${s.momentSays}', --summary --at ${want.total} ${want.change}`);
}

// The band table shown against --summary (with --from and --to when
// zoomed), row by row by name; what the page alone has, by rule.
function checkBands(ctx, s, what) {
  const { name, hp2x, args, exact } = ctx;
  const extra = s.zoomed ? ['--from', s.from, '--to', s.to] : [];
  const text = run(hp2x, [...args, '--summary', ...extra]), want = T.parseSummary(text), lines = runLines(text);
  const says = lines && `${lines.n} censuses from ${lines.from} to ${lines.to} ` +
    `${ctx.D.sampleUnit}; total peak ${lines.topPeak} ${ctx.D.valueUnit} at ${lines.topPeakAt} `;
  check(says && s.bandsSays.includes(says), `${name}: ${what}: the table says '${s.bandsSays}', --summary ${says}`);
  const byName = new Map(s.bands.map((r) => [r.name, r]));
  let matched = 0, bad = 0;
  for (const w of want.rows) {
    const r = byName.get(w.name);
    if (w.name === 'OTHER' && !exact) continue; // OTHER holds what each selection leaves
    const cells = r && [r.total, r.peak, r.peakAt, r.slope, r.r2, r.area].join(' ');
    const ok = r && cells === [w.total, w.peak, w.peakAt, w.slope, w.r2, w.area].join(' ') &&
      r.suspect === want.suspects.includes(w.name);
    if (ok) matched++;
    else if (bad++ < 3) check(false, `${name}: ${what}: ${w.name}: the page ${cells}, --summary ${w.total} ${w.peak} ${w.peakAt} ${w.slope} ${w.r2} ${w.area}`);
  }
  check(bad === 0 && matched >= 1, `${name}: ${what}: ${matched} rows as --summary's, ${bad} not`);
  if (exact) { // every band a label: the page's others are empty in the zoom
    const names = new Set(want.rows.map((w) => w.name));
    const others = s.bands.filter((r) => !names.has(r.name));
    check(others.every((r) => r.total === '0' && r.peak === '0'),
      `${name}: ${what}: bands the zoom's --summary has not: ${others.map((r) => r.name + ' ' + r.total)}`);
  }
}

async function click(page, geo, fx) {
  const g = geo.D.page.graph;
  await page.mouse.click(...T.screenOf(geo, g[0] + g[2] * fx, g[1] + g[3] * 0.5));
  return tables(page);
}

async function drag(page, geo, f0, f1) {
  const g = geo.D.page.graph;
  const [x0, y] = T.screenOf(geo, g[0] + g[2] * f0, g[1] + g[3] * 0.4);
  const [x1] = T.screenOf(geo, g[0] + g[2] * f1, g[1] + g[3] * 0.4);
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move(x1, y, { steps: 5 });
  await page.mouse.up();
  return tables(page);
}

// Clicks at censuses' own times, and between them: each picks the census
// nearest (within a pixel's time where two are nearly as near).
async function checkClicks(ctx, page, geo) {
  const { name, D } = ctx, n = geo.times.length, px = D.xrange / D.page.graph[2];
  const picks = [];
  for (let j = 1; j <= 5; j++) picks.push(Math.floor(j * (n - 1) / 6));
  for (const i of picks) {
    const s = await click(page, geo, (geo.times[i] - D.x0) / D.xrange);
    check(s.time === D.t[i], `${name}: a click at census ${i} (${D.t[i]}) shows ${s.time}`);
    check(s.line === 1, `${name}: no line marks the census picked`);
    checkMoment(ctx, s, `click at census ${i}`);
  }
  for (const fx of [0.07, 0.33, 0.71, 0.93]) {
    const t = D.x0 + D.xrange * fx, s = await click(page, geo, fx);
    const d = Math.abs(geo.times[s.census] - t), best = Math.min(...geo.times.map((x) => Math.abs(x - t)));
    check(d <= best + 2 * px, `${name}: a click at ${t} picked ${s.time}, ${d} away; the nearest is ${best} away`);
    checkMoment(ctx, s, `click at ${t.toFixed(3)}`);
  }
  // sorted by share, largest first; again, smallest
  await page.click('#hp2x-moment-table th:nth-child(3)');
  let shares = (await tables(page)).moment.map((r) => parseFloat(r.share) || -1);
  check(shares.every((v, i) => i === 0 || shares[i - 1] >= v), `${name}: the moment sorted by share: ${shares}`);
  await page.click('#hp2x-moment-table th:nth-child(3)');
  shares = (await tables(page)).moment.map((r) => parseFloat(r.share) || -1);
  check(shares.every((v, i) => i === 0 || shares[i - 1] <= v), `${name}: the moment sorted by share, rising: ${shares}`);
}

async function checkOne(hp2x, browser, dir, name) {
  const f = (ext) => path.join(dir, name + ext);
  const spec = JSON.parse(fs.readFileSync(f('.json'), 'utf8'));
  const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto('file://' + f('.html'));
  await page.waitForSelector('html[data-hp2x-ready]', { timeout: 10000 });
  const geo = await geometry(page), D = geo.D;
  const ctx = { name, hp2x, args: spec.args, exact: !!spec.exact, D, csv: T.parseCsv(fs.readFileSync(f('.csv'), 'utf8')) };
  const first = await tables(page);
  const held = D.t.length < D.censuses;
  check(held === !!spec.held, `${name}: the page holds ${D.t.length} of ${D.censuses} censuses`);
  check(/\(the peak\)/.test(first.momentSays) && first.line === 0, `${name}: at first the moment says '${first.momentSays}'`);
  if (held) {
    check(/The page holds [\d,]+ of the run's [\d,]+ censuses/.test(first.momentSays),
      `${name}: the moment does not say the page holds fewer censuses: '${first.momentSays}'`);
    const z = await drag(page, geo, 0.2, 0.6);
    check(z.zoomed && /Computed from the censuses the page holds/.test(z.bandsSays),
      `${name}: zoomed, the table does not say it is computed from the held censuses: '${z.bandsSays}'`);
    // its figures are the held censuses': the count and the totals' sum
    const x0 = Number(z.from), x1 = Number(z.to), inside = geo.times.map((t, i) => i).filter((i) => geo.times[i] >= x0 && geo.times[i] <= x1);
    check(z.bandsSays.includes(`: ${inside.length} censuses from`), `${name}: the zoom holds ${inside.length} censuses, says '${z.bandsSays}'`);
    const k = D.bands.length - 1, sum = inside.reduce((a, i) => a + Number(D.bands[k].v[i]), 0);
    const row = z.bands.find((r) => r.band === k);
    check(row && Number(row.total.replace(/,/g, '')) === sum, `${name}: zoomed, ${D.bands[k].name}'s total ${row && row.total}, the held censuses' ${sum}`);
    await page.click('#hp2x-reset');
  } else {
    checkMoment(ctx, first, 'the peak');
    const peak = run(hp2x, [...spec.args, '--summary']).match(/at (\S+) \S+ \(sample (\d+)\)/);
    check(peak && first.census === +peak[2], `${name}: the moment shows census ${first.census}, the peak is ${peak && peak[2]}`);
    await checkClicks(ctx, page, geo);
    for (const [a, b] of [[0.25, 0.6], [0.05, 0.3]]) {
      const z = await drag(page, geo, a, b);
      check(z.zoomed && /\(the zoom\)/.test(z.bandsSays), `${name}: a zoom's table says '${z.bandsSays}'`);
      checkBands(ctx, z, `zoomed to ${z.from}..${z.to}`);
      await page.click('#hp2x-reset');
    }
    // a zoom holding every census (hp2x.zoom, as a drag from just before
    // the first to just after the last): the page's arithmetic gives the
    // C's own table
    await page.evaluate((D) => window.hp2x.zoom({ t0: Math.max(0, D.x0 - D.xrange / 1000), span: D.xrange * 1.002, zoomed: true }), D);
    const w = await tables(page);
    check(w.zoomed && w.bandsSays.includes(`: ${D.censuses} censuses from`), `${name}: a zoom over every census says '${w.bandsSays}'`);
    const same = w.bands.every((r) => ['total', 'peak', 'peakAt', 'slope', 'r2', 'area'].every((c) => r[c] === D.bands[r.band][c]) &&
      r.suspect === D.bands[r.band].suspect);
    check(same, `${name}: zoomed over every census, the page's figures differ from the C's`);
    checkBands(ctx, w, 'zoomed over everything');
    await page.click('#hp2x-reset');
  }
  const back = await tables(page);
  check(!back.zoomed && /^The whole run: /.test(back.bandsSays), `${name}: after the reset the table says '${back.bandsSays}'`);
  if (!held) checkBands(ctx, back, 'reset');
  check(errors.length === 0, `${name}: console errors: ${errors.slice(0, 3)}`);
  console.log(`${name}: ${D.t.length} censuses held of ${D.censuses}, ${D.tx ? 'exact times sent' : 'the CSV times exact'}`);
  await page.close();
}

async function main() {
  const [hp2x, dir, ...names] = process.argv.slice(2);
  const browser = await launchOrSkip();
  try {
    for (const name of names) await checkOne(hp2x, browser, dir, name);
  } finally {
    await browser.close();
  }
  process.exit(C.summary());
}
main().catch((e) => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
