// chromium.js -- how every browser test and benchmark starts Debian's
// chromium: its path (HP2X_CHROMIUM overrides) and the flags that keep it
// headless, unsandboxed as root, and from calling home (the closed
// network refuses those calls at every start).
'use strict';
const CHROMIUM = process.env.HP2X_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

// The browser, started headless; or, when playwright-core or chromium is
// missing, "SKIPPED: why" printed and exit 3 (the tests' "skipped").
async function launchOrSkip() {
  let chromium;
  try { chromium = require('playwright-core').chromium; } catch (e) {
    console.log('SKIPPED: playwright-core not installed (make deps: npm ci in tests/browser)');
    process.exit(3);
  }
  try {
    return await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  } catch (e) {
    console.log('SKIPPED: chromium does not start: ' + String(e.message).split('\n')[0]);
    process.exit(3);
  }
}
module.exports = { CHROMIUM, ARGS, launchOrSkip };
