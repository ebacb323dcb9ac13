// report_test.js -- hp2x's HTML report in a real browser: Debian's
// chromium, driven by playwright-core (never a browser of its own).
// usage: node report_test.js DIR NAME...
// For each NAME, DIR holds what tests/e2e/test_report.sh made with the
// binary: NAME.html (the report), NAME.csv (the CSV of the same
// selection), NAME.txt (its --summary), NAME.png (the PNG at --dpi=96) and
// NAME.expect (JSON: what else to check, e.g. hostile labels).  Prints one
// line per failed check and "N checks, N failed"; exits 0 when all pass,
// 1 on a failure, 3 (after "SKIPPED: why") when chromium cannot start.
'use strict';
const { CHROMIUM, ARGS } = require('./chromium.js');
let checks = 0, failures = 0;
function check(ok, what) {
  checks++;
  if (!ok) { failures++; console.log('FAIL: ' + what); }
  return ok;
}

// RFC 4180 rows of a CSV text.
function parseCsv(text) {
  const rows = []; let row = [], field = '', q = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') q = false;
      else field += c;
    } else if (c === '"') q = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field.replace(/\r$/, '')); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

// The band rows of a --summary (key order, top first): six cells, then
// the name.
function parseSummary(text) {
  const lines = text.split('\n'), out = [];
  let on = false;
  for (const l of lines) {
    if (/^ +total +peak +peak at +slope +R\^2 +area +band/.test(l)) { on = true; continue; }
    if (!on) continue;
    if (l.trim() === '') break;
    if (/^ {80}/.test(l)) continue; // a -hi band's record, under its row
    const m = l.match(/^ *(\S+) +(\S+) +(\S+) +(\S+) +(\S+) +(\S+)  (.*)$/);
    if (m) out.push({ total: m[1], peak: m[2], peakAt: m[3], slope: m[4], r2: m[5], area: m[6], name: m[7] });
  }
  const sus = [];
  let inSus = false;
  for (const l of lines) {
    if (/^leak suspects/.test(l)) { inSus = true; continue; }
    if (inSus && l.trim() === '') break;
    const m = inSus && l.match(/^ *\d+\. .*R\^2 [0-9.]+  (.*)$/);
    if (m) sus.push(m[1]);
  }
  return { rows: out, suspects: sus };
}

// Pixels of two PNGs (base64) compared in the page, within box [x0, y0,
// x1, y1) (default: all): how many differ by more than `tol` in any
// channel; or their sizes when they differ.
async function comparePngs(page, a, b, tol, box) {
  return page.evaluate(async ([a, b, tol, box]) => {
    async function px(b64) {
      const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
      const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
      const g = c.getContext('2d'); g.drawImage(img, 0, 0);
      return { w: img.width, h: img.height, d: g.getImageData(0, 0, img.width, img.height).data };
    }
    const A = await px(a), B = await px(b);
    if (A.w !== B.w || A.h !== B.h) return { size: [A.w, A.h, B.w, B.h] };
    const [x0, y0, x1, y1] = box || [0, 0, A.w, A.h];
    let bad = 0;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const i = y * A.w + x;
        for (let c = 0; c < 3; c++)
          if (Math.abs(A.d[4 * i + c] - B.d[4 * i + c]) > tol) { bad++; break; }
      }
    return { bad, n: (x1 - x0) * (y1 - y0) };
  }, [a, b, tol, box]);
}

// Pixels exactly of each colour #rrggbb of COLOURS in a PNG (base64)
// within box [x0, y0, x1, y1): their counts, in COLOURS' order (one
// decoding for them all).
async function countColours(page, b64, colours, box) {
  return page.evaluate(async ([b64, colours, box]) => {
    const img = new Image(); img.src = 'data:image/png;base64,' + b64; await img.decode();
    const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, img.width, img.height).data;
    const which = new Map(), n = colours.map(() => 0);
    colours.forEach((colour, k) => {
      const rgb = parseInt(colour.slice(1, 7), 16);
      which.set(rgb, (which.get(rgb) || []).concat(k));
    });
    for (let y = Math.max(0, box[1]); y < Math.min(img.height, box[3]); y++)
      for (let x = Math.max(0, box[0]); x < Math.min(img.width, box[2]); x++) {
        const i = 4 * (y * img.width + x);
        const ks = which.get((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        if (ks) for (const k of ks) n[k]++;
      }
    return n;
  }, [b64, colours, box]);
}
// Pixels exactly of colour #rrggbb in a PNG (base64) within box.
async function countColour(page, b64, colour, box) {
  return (await countColours(page, b64, [colour], box))[0];
}

// The report's data and where its frame points are on the screen.
async function geometry(page) {
  return page.evaluate(() => {
    const D = JSON.parse(document.getElementById('hp2x-data').textContent);
    const r = document.getElementById('hp2x-picture').getBoundingClientRect();
    return { D, left: r.left, top: r.top };
  });
}
function screenOf(geo, fx, fy) {
  const F = geo.D.page.frame;
  return [geo.left + F[0] * fx + F[2] * fy + F[4], geo.top + F[1] * fx + F[3] * fy + F[5]];
}
function graphBox(geo) {
  const g = geo.D.page.graph, F = geo.D.page.frame;
  const a = [F[0] * g[0] + F[2] * g[1] + F[4], F[1] * g[0] + F[3] * g[1] + F[5]];
  const b = [F[0] * (g[0] + g[2]) + F[2] * (g[1] + g[3]) + F[4], F[1] * (g[0] + g[2]) + F[3] * (g[1] + g[3]) + F[5]];
  return [Math.ceil(Math.min(a[0], b[0])) + 2, Math.ceil(Math.min(a[1], b[1])) + 2,
    Math.floor(Math.max(a[0], b[0])) - 2, Math.floor(Math.max(a[1], b[1])) - 2];
}

// The band table as a reader sees it: how it was (stale, its rows, below
// the screen), then scrolled into view and looked at in the frame that
// shows it (a live page makes its rows then, report_table.js's keeper):
// every band a row, in key order (top first: the table unsorted), each
// row's name and swatch its band's, and the rows of the bands hidden
// (hp2x.state()) marked so and unticked; `bad` says what differs.  Also,
// from that frame, each row's figures against the data's (`cells`: those
// that differ) and what the table says.  Scrolls back to the top.
async function bandTable(page) {
  const t = await page.evaluate(() => new Promise((done) => {
    const table = document.getElementById('hp2x-table'), rows = () => table.querySelectorAll('tbody tr');
    const was = { stale: table.hasAttribute('data-hp2x-stale'), rows: rows().length,
      below: table.getBoundingClientRect().top >= innerHeight };
    table.scrollIntoView();
    requestAnimationFrame(() => {
      try { look(); } catch (e) {
        done({ was, bad: [String(e)], cells: [], says: '', imgs: 0, stale: true, rows: 0, bands: 0, labels: [], hidden: [] });
      }
    });
    function look() {
      const D = window.hp2x.data, nb = D.bands.length, bad = [], cells = [];
      const hidden = new Set(window.hp2x.state().hidden), probe = document.createElement('span');
      const trs = Array.from(rows());
      if (trs.length !== nb) bad.push(`${trs.length} rows for ${nb} bands`);
      trs.forEach((tr, i) => {
        const k = Number(tr.dataset.band), b = D.bands[k];
        if (k !== nb - 1 - i || !b) { bad.push(`row ${i} is band ${tr.dataset.band}, not ${nb - 1 - i}`); return; }
        if (tr.querySelector('.hp2x-label').textContent !== b.name) bad.push(`row ${i}'s name is not ${b.name}`);
        probe.style.background = b.colour;
        if (tr.querySelector('.hp2x-swatch').style.background !== probe.style.background)
          bad.push(`${b.name}'s swatch is ${tr.querySelector('.hp2x-swatch').style.background}, not ${b.colour}`);
        ['total', 'peak', 'peakAt', 'slope', 'r2', 'area'].forEach((f) => {
          const got = tr.querySelector(`td[data-col="${f}"]`).textContent;
          if (got !== String(b[f])) cells.push(`${b.name} ${f} ${got} != ${b[f]}`);
        });
        const h = hidden.has(b.name);
        if (tr.classList.contains('hp2x-hidden') !== h || tr.querySelector('input').checked === h)
          bad.push(`${b.name} is ${h ? '' : 'not '}hidden, its row not marked so`);
      });
      done({ was, bad, cells, says: document.getElementById('hp2x-bands-says').textContent, censuses: D.censuses,
        imgs: document.querySelectorAll('img:not(#hp2x-raster), script[src]').length,
        stale: table.hasAttribute('data-hp2x-stale'), rows: trs.length, bands: nb,
        labels: trs.map((tr) => tr.querySelector('.hp2x-label').textContent),
        hidden: trs.filter((tr) => tr.classList.contains('hp2x-hidden')).map((tr) => tr.querySelector('.hp2x-label').textContent) });
    }
  }));
  await page.evaluate(() => window.scrollTo(0, 0));
  return t;
}

module.exports = { check, parseCsv, parseSummary, comparePngs, countColour, countColours, geometry, screenOf, graphBox, bandTable };
if (require.main === module) require('./report_checks.js').main(CHROMIUM, ARGS, () => [checks, failures])
  .catch((e) => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
