// live_census_test.js -- a live page of hp2x --serve draws each census
// itself (Debian's chromium through playwright-core, as live_test.js).
// usage: node live_census_test.js URL OUT.json SECONDS CENSUSES PNG [SLEEP_FROM SLEEP_TO]
// Opens URL while tests/e2e/test_serve_census.sh feeds hp2x, and follows
// until the page shows CENSUSES censuses (the status's count) and nothing
// changes for 1.5 s (with HP2X_WAIT_CLOSED set, once the input closed).
// With HP2X_LOADED set, creates that file once the page has loaded.
// With HP2X_READY set, creates that file once the page shows its report.  With SLEEP_FROM and SLEEP_TO the page is hidden (as a tab
// in the background, which draws nothing) from the status's census
// SLEEP_FROM to SLEEP_TO, then shown again: it must see the gap and catch
// up (with HP2X_SLEEP_WHY, fetch "/" for that reason: "marks", when it
// missed the updates that carried new marks; "any": by whichever way).  PNG is hp2x's picture of the whole input at 96 dpi (-o x.png
// --dpi=96): the page's own drawing of what it appended must match it
// inside the graph, within the report's rule (report_checks.js's
// checkDrawn: at most 5 % of the pixels differ by more than 8/255;
// HP2X_DRAWN_SHARE sets another share).
// Records every census count the page shows (data-hp2x-census), each
// report swapped in after the first load, fetched or pushed, with the
// reason the page gives (hp2x.liveLog) and the band set before and after it.  Checks: no reload
// (a page opened before the first census, hp2x's waiting page, included),
// no console error, no dialog (a hostile label stays text), the census
// count shown never goes down and ends at the status's, the page drew
// censuses itself, every fetch of "/" had a reason (the waiting page's
// first report, a band set that then differs, a band's past that changed,
// new marks, a gap or thinning), and the hidden page's catching
// up (when asked), and the band table: off the screen, left stale while
// the page drew censuses, and a report swapped in without its rows;
// scrolled into view, every band's row and the data's figures in the
// frame that shows it (checkTable; OUT.json's last labels are its).  With HP2X_BLOCK=N the page is kept
// busy for 0.6 s once it shows census N (a renderer that cannot keep
// up): the updates that queued meanwhile must be drawn in fewer drawings
// than updates (hp2x.liveDrawn), every census still shown.  With
// HP2X_DUMPS=DIR the page's data is written where the input pauses (the
// loop below says how).  With HP2X_SLOW_FETCH=MS each fetch of "/" after
// the first load is answered MS later (the updates that come meanwhile
// are missed but the newest).  Writes OUT.json: the page's final data (hp2x.data), the
// counts shown, the fetches.  Prints "FAIL: ..." lines and "N checks, N
// failed"; exits 1 on a failure, 3 (after "SKIPPED: why") when chromium
// cannot start.
// A new band set the page drew from its update (the update holds every
// census, and its key the bands and where the key lies) is neither pushed
// nor fetched: it must then hold exactly the update's set; with
// HP2X_SETS=update every new band set must be drawn so.  With
// HP2X_KEY_CHECK set, the page's key and x axis are also held to hp2x's
// PNG (checkKey: in 8 x 8 pixel cells, the browser's text and pango's
// differing pixel by pixel).
// With HP2X_PUSH=expect, the page must take every other new band set and the
// waiting page's first report from the server's "report" event, with no
// fetch of "/" for them (the push waited for up to 20 s, so that a slow
// sanitizer's build does not fall back); with HP2X_PUSH=drop, the page
// never hears a report event (its listener is dropped, as a lost event)
// and must fetch them after its short wait (300 ms here).
// A waiting page whose census 1 update carried its report's picture and
// data (key.first) once its warm-up was drawn must draw census 1 into the
// warm-up (logged as why "first", update: true), nothing of the warm-up
// left, one report, the run's title; OUT.json's "glyphs" are then the
// picture's glyphs it shows (test_serve_census.sh holds them to the
// report's).
'use strict';
const fs = require('fs');
const { launchOrSkip } = require('./chromium.js');
const T = require('./report_test.js');
let checks = 0, failures = 0;
function check(ok, what) {
  checks++;
  if (!ok) { failures++; console.log('FAIL: ' + what); }
  return ok;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The share of the graph's pixels the page's drawing may differ from the
// PNG in: 5 %, or HP2X_DRAWN_SHARE (a report's own drawing of dense --heap
// lines differs from cairo's by more: test_serve_census.sh's 1h).
const DRAWN_SHARE = Number(process.env.HP2X_DRAWN_SHARE || 0.05);

function look(page) {
  return page.evaluate(() => {
    const st = document.getElementById('hp2x-live-status'), root = document.documentElement;
    const D = window.hp2x && window.hp2x.data && document.querySelector('#hp2x-report:not([data-hp2x-warm])') ? window.hp2x.data : null;
    return {
      input: st ? st.getAttribute('data-input') : null,
      censuses: st && st.hasAttribute('data-censuses') ? Number(st.getAttribute('data-censuses')) : -1,
      shown: Number(root.getAttribute('data-hp2x-census') || '-1'),
      appended: Number(root.getAttribute('data-hp2x-appended') || '0'),
      set: D ? D.set : null,
      held: D ? D.t.length : 0,
      marker: window.hp2xCensusMarker === 1,
      // a hostile label is text: no element but the report's picture is an img
      imgs: document.querySelectorAll('img:not(#hp2x-raster), script[src]').length,
      log: (window.hp2x && window.hp2x.liveLog) || [],
    };
  });
}

// Makes the page hidden (or shown), as a tab sent to the background.
function setHidden(page, hidden) {
  return page.evaluate((h) => {
    Object.defineProperty(document, 'hidden', { value: h, configurable: true });
    Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

// The key and the axes the page drew (after a new band set drawn from its
// update: the key's names, boxes and place, the graph's width) against
// hp2x's PNG: beside the graph, the key's column over the graph's height,
// and below it, the x axis's labels and unit.  Text is the browser's there
// and pango's in the PNG, whose glyphs differ pixel by pixel; so the two
// are held to each other in 8 x 8 pixel cells, by how much ink each holds:
// a cell differs when its mean darkness differs by more than 1/5, and at
// most 5 % of the cells hp2x inks may differ (a name missing, moved by a
// line or cut otherwise fails).
/* The title's area text the page drew (the SVG's <text>; null: none). */
async function drawnArea(page) {
  return page.evaluate(() => {
    const t = document.getElementById('hp2x-area-text');
    return t ? t.textContent : null;
  });
}

async function checkKey(page, geo, shot, want) {
  const P = geo.D.page, F = P.frame, g = T.graphBox(geo), w = want.readUInt32BE(16);
  const keyX = Math.floor(F[0] * P.keyX + F[4]);
  const boxes = { key: [keyX, g[1], w - 10, g[3]], 'x axis': [g[0] - 20, g[3] + 4, keyX, g[3] + 20] };
  for (const [name, box] of Object.entries(boxes)) {
    const r = await page.evaluate(async ([a, b, box]) => {
      async function dark(b64) {
        const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
        const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
        const g = c.getContext('2d'); g.drawImage(img, 0, 0);
        const d = g.getImageData(box[0], box[1], box[2] - box[0], box[3] - box[1]).data, W = box[2] - box[0];
        const cells = new Map();
        for (let i = 0; i < d.length; i += 4) {
          const x = (i / 4) % W, y = Math.floor(i / 4 / W), k = (y >> 3) * 10000 + (x >> 3);
          cells.set(k, (cells.get(k) || 0) + (255 - Math.min(d[i], d[i + 1], d[i + 2])) / 64);
        }
        return cells;
      }
      const A = await dark(a), B = await dark(b);
      let inked = 0, bad = 0;
      for (const [k, v] of B) {
        if (v > 8) inked++;
        if (Math.abs(v - (A.get(k) || 0)) > 51) bad++;
      }
      return { inked, bad, cells: B.size };
    }, [shot.toString('base64'), want.toString('base64'), box]);
    console.log(`the page's ${name}: ${r.bad} of the ${r.inked} cells hp2x's PNG inks (of ${r.cells}) differ`);
    check(r.inked > 0 && r.bad <= r.inked * 0.05,
      `the page's ${name}: ${r.bad} of the ${r.inked} cells hp2x's PNG inks differ`);
  }
}

// The band table, below the screen, is not kept current at each census
// (report_table.js): a page that drew censuses since its report shows it
// stale (data-hp2x-stale), on the screen never; a page that swapped a
// report in (not its first) while the table was below the screen has not
// made its rows; scrolled into view, the frame that shows it has every
// band's row (T.bandTable: in key order, names, swatches, the hidden
// ones marked) with the data's figures of the run, and the census count
// the data's; the line above it says the data's census count before it is
// scrolled to.  Returns the labels it shows.
async function checkTable(page, last, log) {
  // the line above the table, before it is scrolled to: written at once
  // (report_table.js), the data's own, never a warm-up's tiny report's
  const line = await page.evaluate(() => ({ says: document.getElementById('hp2x-bands-says').textContent,
    zoomed: document.getElementById('hp2x-bands-says').getAttribute('data-zoomed'),
    censuses: window.hp2x.data.censuses }));
  check(line.zoomed === '0' && line.says.indexOf(`The whole run: ${line.censuses} census`) === 0,
    `the band table's line off the screen: "${line.says}" (the data: ${line.censuses} censuses)`);
  const t = await T.bandTable(page), was = t.was;
  if (last && last.appended > 0 && was.below) check(was.stale, 'the band table off the screen was drawn at each census');
  if (!was.below) check(!was.stale, 'the band table on the screen is stale');
  const swapped = log.length > 0 && log[log.length - 1].why !== 'first';
  if (was.below && swapped) check(was.rows === 0, `the band table off the screen has ${was.rows} rows after a swap`);
  console.log(`the band table: ${was.below ? 'below' : 'on'} the screen, ${was.rows} rows, then ${t.rows} of ${t.bands}`);
  check(!t.stale && t.bad.length === 0 && t.cells.length === 0 && t.says.indexOf(`${t.censuses} census`) > 0,
    `the band table scrolled into view: ${t.stale ? 'stale, ' : ''}${t.bad.concat(t.cells).slice(0, 3).join('; ')} (${t.says})`);
  check(t.imgs === 0, `a label in the band table became markup: ${t.imgs} elements`);
  return t.labels;
}

// The glyphs hp2x drew (the picture's <use> elements in #hp2x-vector:
// href, x, y) and the redraw the page shows: once census 1 was drawn into
// the warm-up, its picture must be that of the redraw's report.
function firstGlyphs(page) {
  return page.evaluate(() => ({ redraw: Number(document.documentElement.getAttribute('data-hp2x-redraw')),
    uses: Array.from(document.querySelectorAll('#hp2x-vector use')).map((u) =>
      [u.getAttribute('xlink:href') || u.getAttribute('href'), u.getAttribute('x'), u.getAttribute('y')]) }));
}

async function main() {
  const [url, out, secs, total, png, sleepFrom, sleepTo] = process.argv.slice(2);
  const limit = 1000 * (Number(secs) || 60);
  const browser = await launchOrSkip();
  const page = await browser.newPage({ viewport: { width: 1200, height: 1000 }, deviceScaleFactor: 1 });
  const errors = [], fetches = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
  const warms = []; // a waiting page's warm-up ("/?warm=1"), not a report
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname === '/' && r.resourceType() === 'fetch') (u.searchParams.has('warm') ? warms : fetches).push(Date.now());
  });
  let loads = 0; // the page's own loads: the first only (a waiting page fetches its report)
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) loads++; });
  // Every census count the page shows, as it changes.
  await page.addInitScript(() => {
    window.hp2xShown = [];
    new MutationObserver(() => {
      const v = document.documentElement.getAttribute('data-hp2x-census');
      const s = window.hp2xShown;
      if (v !== null && s[s.length - 1] !== Number(v)) s.push(Number(v));
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hp2x-census'] });
  });
  const push = process.env.HP2X_PUSH || '';
  await page.addInitScript((how) => {
    window.hp2x = window.hp2x || {};
    if (how === 'expect') window.hp2x.pushWait = 20000;
    if (how === 'drop') window.hp2x.pushWait = 300;
    const add = EventSource.prototype.addEventListener;
    EventSource.prototype.addEventListener = function (type, f, o) {
      if (type === 'report' && how === 'drop') return;
      // whether the stream's first update with a census carried its
      // report's picture and data (key.first), and when it came
      const g = type !== 'update' ? f : function (e) {
        const u = window.hp2xOffered ? null : JSON.parse(e.data);
        if (u && u.censuses > 0) {
          window.hp2xOffered = { first: !!(u.key && u.key.first), at: performance.timeOrigin + performance.now() };
        }
        return f.call(this, e);
      };
      add.call(this, type, g, o);
    };
  }, push);
  await page.goto(url);
  const slow = Number(process.env.HP2X_SLOW_FETCH || 0);
  if (slow) { /* each fetch of the report after the first load answered that much later */
    await page.route((u) => u.pathname === '/' && !u.search.includes('warm'), async (route) => {
      const response = await route.fetch(); /* the report of now, delivered late */
      await sleep(slow);
      await route.fulfill({ response });
    });
  }
  if (process.env.HP2X_LOADED) fs.writeFileSync(process.env.HP2X_LOADED, 'loaded\n');
  const start = Date.now(), sets = [];
  let marked = false, hidden = false, wasHidden = false, last = null, doneAt = 0, blocked = false, glyphs = null;
  const block = Number(process.env.HP2X_BLOCK || 0);
  const dumps = process.env.HP2X_DUMPS || '', dumped = new Set();
  while (Date.now() - start < limit) {
    let s;
    try { s = await look(page); } catch (e) { // the waiting page loading the report
      check(!marked, 'the page navigated: ' + e.message);
      await page.waitForLoadState('load').catch(() => {});
      continue;
    }
    if (s.set && sets[sets.length - 1] !== s.set) sets.push(s.set);
    if (!glyphs && s.log.length === 1 && s.log[0].update) glyphs = await firstGlyphs(page);
    if (!marked && s.held > 0) {
      await page.evaluate(() => { window.hp2xCensusMarker = 1; });
      marked = true;
      if (process.env.HP2X_READY) fs.writeFileSync(process.env.HP2X_READY, 'report\n');
    } else if (marked) {
      check(s.marker, 'the page was reloaded');
    }
    if (block && !blocked && marked && s.censuses >= block) { /* the page busy: updates queue */
      blocked = true;
      await page.evaluate(() => { const t = performance.now(); while (performance.now() - t < 600); });
    }
    if (sleepFrom && !hidden && !wasHidden && s.censuses >= Number(sleepFrom)) {
      await setHidden(page, true);
      hidden = wasHidden = true;
    } else if (hidden && s.censuses >= Number(sleepTo)) {
      await setHidden(page, false);
      hidden = false;
    }
    // HP2X_DUMPS=DIR: when DIR/pause-K names a census count K the input
    // stopped at, the page's data once it shows K, to DIR/page-K.json,
    // then DIR/dumped-K (the feeder goes on)
    if (dumps && s.shown === s.censuses && !dumped.has(s.shown) &&
        fs.existsSync(dumps + '/pause-' + s.shown)) {
      const d = await page.evaluate(() => window.hp2x.data);
      fs.writeFileSync(dumps + '/page-' + s.shown + '.json', JSON.stringify({ data: d, log: s.log,
        areaDrawn: await drawnArea(page) }));
      fs.writeFileSync(dumps + '/dumped-' + s.shown, 'dumped\n');
      dumped.add(s.shown);
    }
    last = s;
    if (!hidden && s.shown === s.censuses && s.censuses === Number(total) &&
        (!process.env.HP2X_WAIT_CLOSED || s.input === 'closed')) {
      if (!doneAt) doneAt = Date.now();
      if (Date.now() - doneAt > 1500) break; /* nothing pending */
    } else {
      doneAt = 0;
    }
    await sleep(50);
  }
  const shown = await page.evaluate(() => window.hp2xShown);
  const data = await page.evaluate(() => window.hp2x.data);
  check(last && last.shown === last.censuses && last.censuses === Number(total),
    `the page shows census ${last && last.shown}, the status counts ${last && last.censuses}`);
  check(shown.every((v, i) => !i || v >= shown[i - 1]), `the census count shown went down: ${shown.join(' ')}`);
  check(last && last.appended > 0 || shown.length > 1, 'the page drew no census itself');
  const log = last ? last.log : [];
  check(loads === 1, `the page was loaded ${loads} times, not once${log.length && log[0].why === 'first' ? ' (it began waiting)' : ''}`);
  // A page that began waiting warmed up once (a tiny report of the
  // server's, laid out hidden, then dropped) before its first report was
  // swapped in, and nothing of it stayed; a page that came with its
  // report did not.
  const waited = log.length > 0 && log[0].why === 'first';
  const warm = await page.evaluate(() => ({ w: window.hp2x.liveWarm, offered: window.hp2xOffered || null,
    left: document.querySelectorAll('[data-hp2x-warm]').length,
    reports: document.querySelectorAll('#hp2x-report').length, title: document.title }));
  if (waited) {
    const adopted = !!log[0].update;
    console.log(`waiting page: warm-up ${warm.w.drawn === null ? 'not drawn (the census came first)' :
      'drawn ' + Math.round(log[0].at - warm.w.drawn) + ' ms before the first census'}, census 1 ` +
      (adopted ? 'drawn into it from its update' : (log[0].pushed ? 'pushed' : 'fetched') +
      (warm.offered && warm.offered.first ? '' : ' (its update had no report)')));
    // (drawn unless the first census came while it was fetched; adopted
    // when census 1's update carried its report, dropped otherwise)
    check(warms.length === 1 && (warm.w.drawn === null || (adopted ? warm.w.adopted !== null && warm.w.dropped === null
      : warm.w.dropped !== null && warm.w.dropped <= log[0].at + log[0].ms)),
      `the waiting page's warm-up: ${warms.length} fetched, ${JSON.stringify(warm.w)}, its first report at ${log[0].at}`);
    if (warm.offered && warm.offered.first && warm.w.drawn !== null && warm.w.drawn < warm.offered.at) {
      check(adopted && log[0].to === log[0].want && log[0].ms >= 0,
        `census 1's update carried its report, the warm-up was not drawn into: ${JSON.stringify(log[0])}`);
    }
  } else {
    check(warms.length === 0 && warm.w.drawn === null, `a page loaded with its report warmed up: ${warms.length}`);
  }
  check(warm.left === 0 && warm.reports === 1 && warm.title === data.job + ' - hp2x',
    `the warm-up left ${warm.left} of its own, ${warm.reports} reports, the title "${warm.title}"`);
  const fetched = log.filter((e) => !e.pushed && !e.update);
  check(fetches.length === fetched.length || log.length >= 100,
    `${fetches.length} fetches of "/", ${fetched.length} with a reason (${log.length - fetched.length} pushed)`);
  // (a new band set drawn from its update is neither pushed nor fetched)
  const awaited = log.filter((e) => (e.why === 'first' || e.why === 'bands') && !e.update);
  // (census 1 drawn into the warm-up from its update needs no report)
  if (push) check(awaited.length > 0 || log.length > 0 && log[0].why === 'first' && log[0].update,
    'no new band set nor first report to push');
  const fromUpdate = log.filter((e) => e.update);
  if (process.env.HP2X_SETS === 'update') {
    check(fromUpdate.length > 0 && log.every((e) => e.why !== 'bands' || e.update),
      `every new band set drawn from its update: ${JSON.stringify(log.map((e) => [e.why, e.census, !!e.update]))}`);
  }
  // (census 1 drawn into the warm-up: from no band set)
  fromUpdate.forEach((e, i) => check((e.why === 'bands' || e.why === 'first' && e === log[0]) &&
    e.to === e.want && e.set !== e.want && e.ms >= 0,
    `the ${e.why === 'first' ? 'first report' : 'band set'} ${e.want} at census ${e.census} drawn from its update: ` +
    `the page's ${e.set} -> ${e.to}`));
  awaited.forEach((e) => check(e.pushed === (push !== 'drop') || !push,
    `the ${e.why} report at census ${e.census} was ${e.pushed ? 'pushed' : 'fetched'} (HP2X_PUSH=${push})`));
  log.filter((e) => ['first', 'bands'].indexOf(e.why) < 0).forEach((e) =>
    check(!e.pushed, `the ${e.why} report at census ${e.census} was pushed`));
  log.forEach((e, i) => {
    // 'first': the waiting page's first report (no census when it loaded)
    check(['bands', 'past', 'marks', 'gap', 'thinning'].indexOf(e.why) >= 0 || (e.why === 'first' && i === 0),
      `fetch ${i}: reason '${e.why}'`);
    // a new band set: the update that asked for it named another set than
    // the page's (the page's own record, not the sets this test happened
    // to see, which a set held between two looks, or one that recurs,
    // would make wrong)
    if (e.why === 'bands') check(typeof e.want === 'string' && typeof e.set === 'string' && e.want !== e.set,
      `swap ${i} for a new band set: the update's set ${e.want} is the page's ${e.set}`);
  });
  if (block) {
    const d = await page.evaluate(() => window.hp2x.liveDrawn);
    check(blocked && d.appends > d.draws, `the updates that came while the page was busy drawn one each: ${JSON.stringify(d)}`);
    console.log(`busy for 0.6 s at census ${block}: ${d.appends} updates appended censuses, ${d.draws} drawings drew them`);
  }
  if (sleepFrom) { /* HP2X_SLEEP_WHY: the reason it catches up for, "gap" unless said */
    const why = process.env.HP2X_SLEEP_WHY || 'gap';
    check(why === 'any' || log.some((e) => e.why === why),
      `the hidden page did not catch up (${why}): ${JSON.stringify(log)}`);
  }
  // the page's drawing (shown: it drew censuses since its PNG) against
  // hp2x's PNG of the whole input, inside the graph
  const geo = await page.evaluate(() => ({ D: window.hp2x.data,
    drawn: document.getElementById('hp2x-figure').getAttribute('data-drawn'),
    stale: document.getElementById('hp2x-raster').hasAttribute('data-hp2x-stale'),
    size: (() => { const r = document.getElementById('hp2x-figure').getBoundingClientRect(); return [r.width, r.height]; })() }));
  // (a page that fetched its first report last and drew nothing since
  // shows its PNG; one that swapped a report in since, fetched without its
  // PNG ("/?lean=1"), draws it, its own PNG hidden and keeping the size)
  // (and one drawn from census 1's update, or pushed: without its PNG)
  const swapped = log.some((e) => e.why !== 'first' || e.update || e.pushed);
  check(geo.stale === swapped, `the page swapped ${swapped ? 'a' : 'no'} report in, its PNG is ${geo.stale ? '' : 'not '}stale`);
  check(geo.drawn === (last.appended > 0 || geo.stale ? '1' : '0'),
    `the page drew ${last.appended} censuses since its report, shows data-drawn ${geo.drawn}`);
  check(geo.size[0] >= fs.readFileSync(png).readUInt32BE(16) && geo.size[1] >= fs.readFileSync(png).readUInt32BE(20),
    `the figure is ${geo.size.join('x')}, smaller than the PNG`);
  // the figure at the PNG's size (the status line above it may leave the
  // figure's top between two pixels)
  const want = fs.readFileSync(png), at = await page.evaluate(() => {
    const r = document.getElementById('hp2x-figure').getBoundingClientRect();
    return [r.left, r.top];
  });
  const shot = await page.screenshot({ clip: { x: Math.round(at[0]), y: Math.round(at[1]),
    width: want.readUInt32BE(16), height: want.readUInt32BE(20) } });
  const box = T.graphBox(geo);
  const r = await T.comparePngs(page, shot.toString('base64'), want.toString('base64'), 8, box);
  const area = (box[2] - box[0]) * (box[3] - box[1]);
  check(!r.size && r.bad <= area * DRAWN_SHARE, `the page's drawing: ${r.size ? 'size ' + r.size : r.bad + ' of ' + area} graph pixels differ from hp2x's PNG`);
  console.log(`${geo.drawn === '1' ? 'drawn by the page' : 'its PNG'}: ${r.bad} of ${area} graph pixels differ from hp2x's PNG of the whole input`);
  if (process.env.HP2X_KEY_CHECK) await checkKey(page, geo, shot, want);
  if (last) last.labels = await checkTable(page, last, log); /* the table's, made now */
  check(last && last.imgs === 0, `a label became markup: ${last && last.imgs} elements`);
  check(errors.length === 0, 'console errors: ' + errors.join(' | '));
  // the title's area text as the page drew it (the shell holds it to the
  // report's data: a live page's grows with each update)
  const areaDrawn = await drawnArea(page);
  fs.writeFileSync(out, JSON.stringify({ data, shown, log, fetches: fetches.length, sets, last, glyphs, areaDrawn }));
  await browser.close();
  console.log(`censuses shown: ${shown.length} counts, up to ${shown[shown.length - 1]}; ` +
    `fetches of "/": ${fetches.length}; reports swapped in: ` +
    `${log.map((e) => e.why + '@' + e.census + (e.pushed ? ' pushed' : '')).join(', ') || 'none'}`);
  console.log(`${checks} checks, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
main().catch((e) => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
