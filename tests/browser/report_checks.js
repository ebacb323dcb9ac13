// report_checks.js -- the checks report_test.js runs on each report, in
// the order a reader meets them: it opens offline without errors, its
// band table has every band's row at load (below the screen too), its
// picture is the PNG's, hover says the CSV's numbers, a key click hides a
// band, a drag zooms the time axis, each chart kind of the switch is
// hp2x's own PNG of that kind and keeps the band hidden and the zoom, the
// table says --summary's numbers, hostile labels stay text (in the band
// table and the moment table; tests/browser/moment_test.js checks the
// moment table's numbers and the zoom's table).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');
const T = require('./report_test.js');
const check = T.check;

async function launch(exe, args) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hp2x-chromium-'));
  try {
    const ctx = await chromium.launchPersistentContext(dir, {
      executablePath: exe, headless: true, args, ignoreDefaultArgs: ['--enable-automation'],
      viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1, offline: true,
    });
    return { ctx, dir };
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function open(ctx, file, errors) {
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
  page.on('request', (r) => { if (!/^(file|data):/.test(r.url())) errors.push('request: ' + r.url()); });
  const t0 = Date.now();
  await page.goto('file://' + file);
  await page.waitForSelector('html[data-hp2x-ready]', { timeout: 10000 });
  return { page, ms: Date.now() - t0 };
}

// The picture as shown, at device scale 1, against the PNG at 96 dpi.
async function checkPicture(page, name, png) {
  const shot = await page.locator('#hp2x-figure').screenshot();
  const r = await T.comparePngs(page, shot.toString('base64'), png.toString('base64'), 8);
  check(!r.size, `${name}: the page's picture is ${r.size && r.size.slice(0, 2)}, the PNG ${r.size && r.size.slice(2)}`);
  if (!r.size) check(r.bad <= r.n / 100, `${name}: ${r.bad} of ${r.n} pixels differ from the PNG by more than 8/255`);
}

// The page's own drawing (what shows once the view differs from the PNG)
// against the PNG, inside the graph, where it draws the bands: a browser
// rasterises edges a little differently from cairo (to a quarter pixel),
// and sets the mark labels' text itself, so pixels along edges and in
// labels differ (0-4 % of the graph on these reports); a band out of
// place would differ by far more.
async function checkDrawn(page, name, geo, png) {
  await page.evaluate(() => {
    document.getElementById('hp2x-vector').setAttribute('visibility', 'visible');
    document.getElementById('hp2x-raster').style.visibility = 'hidden';
  });
  const box = T.graphBox(geo);
  const shot = await page.locator('#hp2x-figure').screenshot();
  const r = await T.comparePngs(page, shot.toString('base64'), png.toString('base64'), 8, box);
  const area = (box[2] - box[0]) * (box[3] - box[1]);
  console.log(`${name}: drawn by the page, ${r.bad} of ${area} graph pixels differ from the PNG`);
  check(r.bad <= area * DRAWN_SHARE, `${name}: drawn by the page, ${r.bad} of ${area} graph pixels differ from the PNG`);
  await page.evaluate(() => {
    document.getElementById('hp2x-vector').setAttribute('visibility', 'hidden');
    document.getElementById('hp2x-raster').style.visibility = 'visible';
  });
}
const DRAWN_SHARE = 0.05;

// Hover over a grid of the graph: every census shown is a row of the CSV,
// the value shown is the band's cell there.
async function checkHover(page, name, geo, csv) {
  const D = geo.D, g = D.page.graph, head = csv[0], byTime = new Map();
  for (const row of csv.slice(1)) byTime.set(row[0], row);
  // What the tip says after each move, recorded in the page as the page's
  // own listener leaves it (the window's listener runs after the
  // picture's): one read for the whole grid, not one a move.
  await page.evaluate(() => {
    window.hp2xTips = [];
    window.hp2xTipRecorder = () => {
      const t = document.getElementById('hp2x-tip');
      window.hp2xTips.push(t.hidden || !t.querySelector('.hp2x-tip-time') ? null
        : { band: +t.dataset.band, time: t.querySelector('.hp2x-tip-time').textContent,
          value: t.querySelector('.hp2x-tip-value').textContent,
          name: t.querySelector('.hp2x-tip-name').textContent });
    };
    window.addEventListener('mousemove', window.hp2xTipRecorder);
  });
  let moves = 0;
  for (let i = 1; i < 18; i++) {
    for (let j = 1; j < 9; j++) {
      const [x, y] = T.screenOf(geo, g[0] + g[2] * i / 18, g[1] + g[3] * j / 9);
      await page.mouse.move(x, y);
      moves++;
    }
  }
  const tips = await page.evaluate(() => {
    window.removeEventListener('mousemove', window.hp2xTipRecorder);
    return window.hp2xTips;
  });
  check(tips.length === moves, `${name}: ${moves} mouse moves, ${tips.length} mousemove events`);
  let seen = 0, bad = 0;
  for (const tip of tips) {
    if (!tip) continue;
    seen++;
    const row = byTime.get(tip.time), col = 1 + (D.bands.length - 1 - tip.band);
    if (!row || row[col] !== tip.value || tip.name !== D.bands[tip.band].name ||
        !head[col].startsWith(tip.name)) {
      if (bad++ < 3) check(false, `${name}: hover says ${JSON.stringify(tip)}, the CSV ${row ? row[col] : 'has no such census'}`);
    }
  }
  check(seen >= 10, `${name}: hover showed a census ${seen} times over the graph`);
  check(bad === 0, `${name}: ${bad} of ${seen} hovers disagree with the CSV`);
  // A key entry: the band's whole label and peak.
  if (D.page.keyW > 0) {
    const k = D.bands.length - 1, [x, y] = T.screenOf(geo, D.page.keyX + 12, D.page.keyC[k]);
    await page.mouse.move(x, y);
    const t = await page.evaluate(() => document.getElementById('hp2x-tip').textContent);
    check(t.includes(D.bands[k].name) && t.includes('peak ' + D.bands[k].peak),
      `${name}: key hover says '${t}'`);
  }
}

// A key click hides the band with the most pixels; another shows it.
async function checkHide(page, name, geo) {
  const D = geo.D, box = T.graphBox(geo);
  if (!(D.page.keyW > 0) || D.bands.length < 2) return;
  const before = await page.locator('#hp2x-figure').screenshot();
  const colours = D.bands.map((b) => b.colour);
  const had = await T.countColours(page, before.toString('base64'), colours, box);
  let k = -1, most = 0;
  for (let i = 0; i < D.bands.length; i++) {
    if (had[i] > most) { most = had[i]; k = i; }
  }
  if (!check(k >= 0 && most > 200, `${name}: no band's colour fills the graph (${most})`)) return;
  const [x, y] = T.screenOf(geo, D.page.keyX + 12, D.page.keyC[k]);
  await page.mouse.click(x, y);
  const after = await page.locator('#hp2x-figure').screenshot();
  const now = await T.countColours(page, after.toString('base64'), colours, box);
  const left = now[k];
  check(left === 0, `${name}: band ${k} hidden, still ${left} of its ${most} pixels in the graph`);
  const marked = await page.evaluate((k) => document.querySelector(`#hp2x-table tr[data-band="${k}"]`).classList.contains('hp2x-hidden'), k);
  check(marked, `${name}: the hidden band is not marked in the table`);
  let others = 0;
  for (let i = 0; i < D.bands.length; i++)
    if (i !== k) others += now[i];
  check(others > 0, `${name}: hiding one band hid them all`);
  await page.mouse.click(x, y);
  const again = await page.locator('#hp2x-figure').screenshot();
  const back = await T.countColour(page, again.toString('base64'), D.bands[k].colour, box);
  check(back === most, `${name}: shown again, band ${k} has ${back} pixels, had ${most}`);
}

async function tickLabels(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('#hp2x-xlabels text')).map((t) => t.textContent));
}

// The page's own ticks are the picture's; a drag zooms, the axis says
// the new range; the button goes back.
async function checkZoom(page, name, geo) {
  const D = geo.D, g = D.page.graph;
  const first = await tickLabels(page);
  check(JSON.stringify(first) === JSON.stringify(D.page.tickLabels),
    `${name}: the page's ticks ${first} are not the picture's ${D.page.tickLabels}`);
  const [x0, y] = T.screenOf(geo, g[0] + g[2] * 0.3, g[1] + g[3] * 0.5);
  const [x1] = T.screenOf(geo, g[0] + g[2] * 0.55, g[1] + g[3] * 0.5);
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move(x1, y, { steps: 5 });
  await page.mouse.up();
  const zoomed = await tickLabels(page);
  const t0 = D.x0 + D.xrange * 0.3, t1 = D.x0 + D.xrange * 0.55;
  const nums = zoomed.map(Number);
  check(zoomed.length >= 2 && JSON.stringify(zoomed) !== JSON.stringify(first),
    `${name}: zoomed ticks ${zoomed}, before ${first}`);
  check(nums.every((v) => v >= t0 - (t1 - t0) * 0.02 && v <= t1 + (t1 - t0) * 0.02),
    `${name}: zoomed to ${t0}..${t1}, ticks ${zoomed}`);
  const drawn = await page.evaluate(() => document.getElementById('hp2x-figure').dataset.drawn);
  check(drawn === '1', `${name}: a zoomed view is not drawn by the page`);
  await page.click('#hp2x-reset');
  const reset = await tickLabels(page);
  check(JSON.stringify(reset) === JSON.stringify(first), `${name}: after reset ${reset}, at first ${first}`);
}

// The table's cells are --summary's; sorting and the filter work.
async function checkTable(page, name, geo, summary) {
  const rows = await page.evaluate(() => Array.from(document.querySelectorAll('#hp2x-table tbody tr')).map((tr) => ({
    band: +tr.dataset.band, name: tr.querySelector('.hp2x-label').textContent,
    cells: Array.from(tr.querySelectorAll('td.hp2x-num')).map((td) => td.textContent),
    suspect: tr.querySelector('.hp2x-suspect').textContent === 'suspect' })));
  check(rows.length === summary.rows.length, `${name}: ${rows.length} table rows, ${summary.rows.length} in --summary`);
  rows.forEach((r, i) => {
    const s = summary.rows[i];
    if (!s) return;
    const want = [s.total, s.peak, s.peakAt, s.slope, s.r2, s.area];
    check(JSON.stringify(r.cells) === JSON.stringify(want) && r.name === s.name,
      `${name}: row ${i} says ${r.name} ${r.cells}, --summary ${s.name} ${want}`);
    check(r.suspect === summary.suspects.includes(r.name), `${name}: ${r.name} suspect=${r.suspect}`);
  });
  await page.click('#hp2x-table th:nth-child(5)'); // Peak
  const peaks = await page.evaluate(() => Array.from(document.querySelectorAll('#hp2x-table tbody tr td:nth-child(5)')).map((td) => Number(td.textContent.replace(/,/g, ''))));
  check(peaks.every((v, i) => i === 0 || peaks[i - 1] >= v), `${name}: sorted by peak: ${peaks}`);
  await page.click('#hp2x-table th:nth-child(5)');
  const up = await page.evaluate(() => Array.from(document.querySelectorAll('#hp2x-table tbody tr td:nth-child(5)')).map((td) => Number(td.textContent.replace(/,/g, ''))));
  check(up.every((v, i) => i === 0 || up[i - 1] <= v), `${name}: sorted by peak, rising: ${up}`);
  const word = rows.length > 1 ? rows[rows.length - 1].name.slice(0, 6) : '';
  if (word) {
    await page.fill('#hp2x-filter', word);
    const shown = await page.evaluate(() => Array.from(document.querySelectorAll('#hp2x-table tbody tr')).filter((tr) => !tr.hidden).map((tr) => tr.querySelector('.hp2x-label').textContent));
    check(shown.length >= 1 && shown.every((n) => n.toLowerCase().includes(word.toLowerCase())),
      `${name}: filter '${word}' shows ${shown}`);
    await page.fill('#hp2x-filter', '');
  }
}

// Hostile labels: shown as text, nothing of theirs runs or loads.
async function checkHostile(page, name, expect) {
  for (const label of expect.labels || []) {
    for (const table of ['#hp2x-table', '#hp2x-moment-table']) {
      const found = await page.evaluate(([t, l]) => Array.from(document.querySelectorAll(t + ' .hp2x-label')).some((e) => e.textContent === l), [table, label]);
      check(found, `${name}: the label ${JSON.stringify(label)} is not shown as text in ${table}`);
    }
  }
  const state = await page.evaluate(() => ({ pwned: window.hp2xPwned === undefined ? null : window.hp2xPwned,
    imgs: document.querySelectorAll('img').length, scripts: document.scripts.length }));
  check(state.pwned === null, `${name}: a label's script ran`);
  check(state.imgs === 1, `${name}: ${state.imgs} <img> elements, the picture's alone expected`);
  check(state.scripts === 2, `${name}: ${state.scripts} <script> elements, 2 expected`);
}

// Marks' labels drawn again and again, as a live page does census after
// census with new marks (live_apply.js takeMarks): each on its white box,
// whatever its text (a label such as "__proto__" or "constructor" too),
// and the boxes the page keeps measured are those of the labels it draws
// now, not of every label it ever drew.
async function checkMarkLabels(page, name) {
  const r = await page.evaluate(() => {
    const D = window.hp2x.data, g = document.getElementById('hp2x-marks'), n = D.t.length;
    const saved = D.marks, at = (i) => Number(D.t[Math.floor(i * (n - 1) / 3)]);
    const bad = [];
    let most = 0;
    for (let round = 0; round < 40; round++) {
      D.marks = [[at(0), '__proto__'], [at(1), 'constructor'], [at(2), 'label ' + round]];
      window.hp2x.redraw();
      for (const t of g.querySelectorAll('text.hp2x-mark')) {
        const box = t.previousSibling;
        if (!box || box.tagName !== 'rect' || !(Number(box.getAttribute('width')) > 0)) bad.push(t.textContent);
      }
      const kept = g.hp2xBoxes ? (g.hp2xBoxes instanceof Map ? g.hp2xBoxes.size : Object.keys(g.hp2xBoxes).length) : 0;
      most = Math.max(most, kept);
    }
    D.marks = saved;
    window.hp2x.redraw();
    return { bad: Array.from(new Set(bad)), most, labels: g.querySelectorAll('text.hp2x-mark').length };
  });
  check(r.bad.length === 0, `${name}: mark labels without their white box: ${JSON.stringify(r.bad)}`);
  check(r.most <= 3, `${name}: the page keeps ${r.most} mark label boxes for 3 marks drawn`);
}

// The chart switch: each kind the page offers, drawn by the page, against
// hp2x's own PNG of that kind (NAME.KIND.png, --chart=KIND) inside the
// graph, by the rule above; its y axis is the data's for the kind.
async function checkCharts(page, name, geo, dir) {
  const kinds = Object.keys(geo.D.charts);
  check(kinds.length === (geo.D.signed ? 1 : 4), `${name}: the page offers ${kinds}`);
  const buttons = await page.evaluate(() => Array.from(document.querySelectorAll('#hp2x-charts button')).map((b) => b.dataset.chart));
  check(JSON.stringify(buttons) === JSON.stringify(kinds.length > 1 ? kinds : []), `${name}: chart buttons ${buttons}`);
  const box = T.graphBox(geo), area = (box[2] - box[0]) * (box[3] - box[1]);
  for (const kind of kinds.filter((k) => k !== geo.D.chart)) {
    await page.click(`#hp2x-charts button[data-chart="${kind}"]`);
    const state = await page.evaluate(() => ({ drawn: document.getElementById('hp2x-figure').dataset.drawn,
      pressed: document.querySelector('#hp2x-charts button[aria-pressed="true"]').dataset.chart,
      ylabels: Array.from(document.querySelectorAll('#hp2x-ylabels .hp2x-ylabel')).map((t) => t.textContent),
      legend: document.getElementById('hp2x-ylegend').textContent }));
    check(state.drawn === '1' && state.pressed === kind, `${name}: ${kind} switched to ${JSON.stringify(state)}`);
    const want = geo.D.charts[kind];
    check(JSON.stringify(state.ylabels) === JSON.stringify(want.ticks.map((t) => t[1])) && state.legend === want.legend,
      `${name}: ${kind}'s y axis ${state.ylabels} ${state.legend}, the data's ${want.ticks.map((t) => t[1])} ${want.legend}`);
    const shot = await page.locator('#hp2x-figure').screenshot();
    const png = fs.readFileSync(path.join(dir, `${name}.${kind}.png`));
    const r = await T.comparePngs(page, shot.toString('base64'), png.toString('base64'), 8, box);
    console.log(`${name}: ${kind} drawn by the page, ${r.bad} of ${area} graph pixels differ from hp2x's PNG`);
    check(!r.size && r.bad <= area * DRAWN_SHARE, `${name}: ${kind} drawn by the page, ${r.size || r.bad} of ${area} graph pixels differ from hp2x's --chart=${kind} PNG`);
  }
  await page.click(`#hp2x-charts button[data-chart="${geo.D.chart}"]`);
  const back = await page.evaluate(() => document.getElementById('hp2x-figure').dataset.drawn);
  check(back === '0', `${name}: back on its own chart, the page still draws (${back})`);
}

// What the reader chose survives a switch of chart: a band hidden stays
// hidden (none of its colour in the graph; marked in the table), a zoom
// keeps its span and ticks; both go when undone.
async function checkSwitchKeeps(page, name, geo) {
  const D = geo.D, box = T.graphBox(geo), g = D.page.graph;
  if (Object.keys(D.charts).length < 2 || !(D.page.keyW > 0) || D.bands.length < 2) return;
  const k = D.bands.length - 1;
  await page.mouse.click(...T.screenOf(geo, D.page.keyX + 12, D.page.keyC[k]));
  const [x0, y] = T.screenOf(geo, g[0] + g[2] * 0.2, g[1] + g[3] * 0.5);
  const [x1] = T.screenOf(geo, g[0] + g[2] * 0.7, g[1] + g[3] * 0.5);
  await page.mouse.move(x0, y);
  await page.mouse.down();
  await page.mouse.move(x1, y, { steps: 5 });
  await page.mouse.up();
  const before = { ticks: await tickLabels(page), view: await page.evaluate(() => document.getElementById('hp2x-view').textContent) };
  for (const kind of Object.keys(D.charts)) {
    await page.click(`#hp2x-charts button[data-chart="${kind}"]`);
    const shot = await page.locator('#hp2x-figure').screenshot();
    const left = await T.countColour(page, shot.toString('base64'), D.bands[k].colour, box);
    const now = await page.evaluate((k) => ({
      ticks: Array.from(document.querySelectorAll('#hp2x-xlabels text')).map((t) => t.textContent),
      view: document.getElementById('hp2x-view').textContent,
      marked: document.querySelector(`#hp2x-table tr[data-band="${k}"]`).classList.contains('hp2x-hidden'),
      drawn: document.querySelectorAll(`#hp2x-bandpaths [data-band="${k}"]`).length,
      state: window.hp2x.state() }), k);
    // Its colour may still arise where two other bands' edges blend (greys).
    check(now.drawn === 0 && left < 50 && now.marked && now.state.hidden.includes(D.bands[k].name) &&
      now.state.chart === kind, `${name}: on ${kind}, the hidden band has ${now.drawn} paths, ${left} pixels (marked ${now.marked})`);
    check(JSON.stringify(now.ticks) === JSON.stringify(before.ticks) && now.view === before.view && now.state.view.zoomed,
      `${name}: on ${kind}, the zoom is ${now.view} ${now.ticks}, was ${before.view} ${before.ticks}`);
  }
  await page.click(`#hp2x-charts button[data-chart="${D.chart}"]`);
  await page.click('#hp2x-reset');
  await page.mouse.click(...T.screenOf(geo, D.page.keyX + 12, D.page.keyC[k]));
  const drawn = await page.evaluate(() => document.getElementById('hp2x-figure').dataset.drawn);
  check(drawn === '0', `${name}: everything undone, the page still draws`);
}

// A report's page (not live) has every band's row at load, the table
// current, even below the screen (a live page makes them when the table
// comes into view: report_table.js); how many reports' tables were below.
let belowAtLoad = 0;
async function checkRowsAtLoad(page, name) {
  const t = await page.evaluate(() => {
    const table = document.getElementById('hp2x-table');
    return { rows: table.querySelectorAll('tbody tr').length, bands: window.hp2x.data.bands.length,
      stale: table.hasAttribute('data-hp2x-stale'), below: table.getBoundingClientRect().top >= innerHeight };
  });
  if (t.below) belowAtLoad++;
  check(t.rows === t.bands && !t.stale, `${name}: at load the band table has ${t.rows} rows for ${t.bands} bands${t.stale ? ', stale' : ''}`);
}

async function checkOne(ctx, dir, name) {
  const f = (ext) => path.join(dir, name + ext);
  const errors = [];
  const { page, ms } = await open(ctx, f('.html'), errors);
  const expect = fs.existsSync(f('.expect')) ? JSON.parse(fs.readFileSync(f('.expect'), 'utf8')) : {};
  console.log(`${name}: opened in ${ms} ms`);
  await checkRowsAtLoad(page, name);
  await checkPicture(page, name, fs.readFileSync(f('.png')));
  const geo = await T.geometry(page);
  await checkDrawn(page, name, geo, fs.readFileSync(f('.png')));
  if (!expect.few) { // a profile of one or no census has nothing to hover
    await checkHover(page, name, geo, T.parseCsv(fs.readFileSync(f('.csv'), 'utf8')));
    await checkHide(page, name, geo);
    await checkZoom(page, name, geo);
  } else {
    await page.mouse.move(...T.screenOf(geo, geo.D.page.graph[0] + 5, geo.D.page.graph[1] + 5));
    await page.mouse.down();
    await page.mouse.move(...T.screenOf(geo, geo.D.page.graph[0] + 200, geo.D.page.graph[1] + 5));
    await page.mouse.up();
    // the zoom's table holds what the zoom holds; the whole run's again
    const z = await page.evaluate(() => document.getElementById('hp2x-bands-says').textContent);
    check(/\(the zoom\)/.test(z), `${name}: a zoom's table says '${z}'`);
    await page.click('#hp2x-reset');
  }
  if (expect.charts) {
    await checkCharts(page, name, geo, dir);
    await checkSwitchKeeps(page, name, geo);
  }
  await checkTable(page, name, geo, T.parseSummary(fs.readFileSync(f('.txt'), 'utf8')));
  await checkHostile(page, name, expect);
  if (expect.marks) await checkMarkLabels(page, name);
  check(errors.length === 0, `${name}: console errors, requests or dialogs: ${errors.slice(0, 3)}`);
  await page.close();
}

async function main(exe, args, counts) {
  const [dir, ...names] = process.argv.slice(2);
  let b;
  try {
    b = await launch(exe, args);
  } catch (e) {
    console.log('SKIPPED: chromium (' + exe + ') does not start: ' + String(e.message || e).split('\n')[0]);
    process.exit(3);
  }
  try {
    for (const name of names) await checkOne(b.ctx, dir, name);
    // (one report at least whose table was below the screen at load)
    check(belowAtLoad > 0 || names.length < 3, `no report's band table was below the screen at load, of ${names.length}`);
  } finally {
    await b.ctx.close();
    fs.rmSync(b.dir, { recursive: true, force: true });
  }
  const [c, f] = counts();
  console.log(`${c} checks, ${f} failed`);
  process.exit(f ? 1 : 0);
}

module.exports = { main };
