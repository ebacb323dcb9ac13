// speedscope_test.js -- hp2x's pprof profiles opened in speedscope (npm,
// pinned in package-lock.json: its own page, dist/release/index.html,
// from disk) in Debian's chromium, driven by playwright-core.
// usage: node speedscope_test.js DIR NAME...
// For each NAME, DIR holds NAME.pb.gz (hp2x -o NAME.pb.gz), NAME.total
// (the census's total in bytes, from the CSV) and NAME.located (how many
// frames must have a file and a line).  The profile is loaded as
// speedscope's own command line loads one (a script calling
// speedscope.loadFileFromBase64); it must be read as pprof, its sandwich
// view list frames, speedscope's own export of it (its JSON file format)
// span exactly the census's total in bytes with the frames' files and
// lines, and the page log no error.  Prints one line per failed check and
// "N checks, N failed"; exits 0 when all pass, 1 on a failure, 3 (after
// "SKIPPED: why") when chromium or speedscope is missing.
'use strict';
const fs = require('fs');
const path = require('path');
const { launchOrSkip } = require('./chromium.js');
const { check, summary } = require('./checks.js').makeChecks();

async function one(browser, dir, name) {
  const index = path.join(__dirname, 'node_modules/speedscope/dist/release/index.html');
  if (!fs.existsSync(index)) {
    console.log('SKIPPED: speedscope not installed (make deps: npm ci in tests/browser)');
    process.exit(3);
  }
  const profile = fs.readFileSync(path.join(dir, name + '.pb.gz'));
  const total = Number(fs.readFileSync(path.join(dir, name + '.total'), 'utf8'));
  const loader = path.join(dir, name + '.load.js');
  fs.writeFileSync(loader, 'speedscope.loadFileFromBase64(' +
    JSON.stringify(name + '.pb.gz') + ', ' +
    JSON.stringify(profile.toString('base64')) + ')');
  const context = await browser.newContext({ acceptDownloads: true,
    viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const errors = [], logs = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); else logs.push(m.text()); });
  page.on('pageerror', e => errors.push(e.message));
  await page.goto('file://' + index + '#localProfilePath=' + loader + '&view=sandwich');
  let text = '';
  for (let i = 0; i < 100 && !/Symbol Name/.test(text); i++) {
    await page.waitForTimeout(100);
    text = await page.evaluate(() => document.body.innerText);
  }
  check(logs.some(l => /Importing as protobuf encoded pprof file/.test(l)),
    name + ': not read as pprof: ' + logs.join(' | ').slice(0, 300));
  check(text.includes(name + '.pb.gz'), name + ': the profile\'s name is not shown');
  check(/Symbol Name\s+[0-9.]+ (B|KB|MB|GB) \(/.test(text),
    name + ': the sandwich view lists no frame');
  const [download] = await Promise.all([page.waitForEvent('download'),
    page.getByText('Export').click()]);
  const saved = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  const p = saved.profiles[saved.activeProfileIndex || 0];
  check(p.unit === 'bytes', name + ': unit ' + p.unit);
  check(p.endValue - p.startValue === total,
    name + ': speedscope holds ' + (p.endValue - p.startValue) + ' bytes, the census ' + total);
  const frames = saved.shared.frames;
  const located = frames.filter(f => f.file && f.line > 0).length;
  check(located >= Number(fs.readFileSync(path.join(dir, name + '.located'), 'utf8')),
    name + ': ' + located + ' frames with a file and a line');
  check(errors.length === 0, name + ': errors: ' + errors.join(' | ').slice(0, 300));
  await context.close();
  return frames.length;
}

(async () => {
  const [dir, ...names] = process.argv.slice(2);
  const browser = await launchOrSkip();
  for (const name of names) {
    const frames = await one(browser, dir, name);
    console.log(name + ': ' + frames + ' frames');
  }
  await browser.close();
  process.exit(summary());
})();
