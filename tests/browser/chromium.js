// chromium.js -- how every browser test and benchmark starts Debian's
// chromium: its path (HP2X_CHROMIUM overrides) and the flags that keep it
// headless, unsandboxed as root, and from calling home (the closed
// network refuses those calls at every start).
'use strict';
const CHROMIUM = process.env.HP2X_CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
module.exports = { CHROMIUM, ARGS };
