// report_picture.js -- the README's picture of the HTML report
// (samples/pictures/report.png): chromium's screenshot of a report, with
// the page's own controls used as a reader would.  Drawn by hand after a
// change to the page (tests/tools/gallery.sh draws the other pictures):
//   build/hp2x -q -c --heap samples/profiles/markers.hc.eventlog -o /tmp/r.html
//   node tests/browser/report_picture.js /tmp/r.html samples/pictures/report.png
// It switches the chart to a streamgraph, hides the key's last band but
// one and rests the pointer on a band, then shoots the top 900 pixels.
'use strict';
const { launchOrSkip } = require('./chromium.js');

async function main() {
  const [html, out] = process.argv.slice(2);
  const browser = await launchOrSkip();
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1 });
  await page.goto('file://' + html);
  await page.waitForSelector('html[data-hp2x-ready]');
  await page.click('#hp2x-charts button[data-chart="streamgraph"]');
  const at = await page.evaluate(() => {
    const D = JSON.parse(document.getElementById('hp2x-data').textContent);
    const r = document.getElementById('hp2x-picture').getBoundingClientRect(), F = D.page.frame;
    const to = (x, y) => [r.left + F[0] * x + F[2] * y + F[4], r.top + F[1] * x + F[3] * y + F[5]];
    const g = D.page.graph, k = D.bands.length - 2;
    return { key: to(D.page.keyX + 12, D.page.keyC[k]), band: to(g[0] + g[2] * 0.7, g[1] + g[3] * 0.58) };
  });
  await page.mouse.click(at.key[0], at.key[1]);
  await page.mouse.move(at.band[0], at.band[1]);
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1000, height: 900 } });
  await browser.close();
}
main().catch((e) => { console.log('FAIL: ' + (e && e.stack || e)); process.exit(1); });
