// stats_test.js -- the page's number text (src/write/report_stats.js)
// against what C's printf and band_stats.c write for the same doubles:
// the cases of tests/tools/number_cases.py (Python formats as glibc
// does: the exact value, ties to even).  Node alone, no browser.
// usage: node stats_test.js CASES.json
// Prints "FAIL: ..." lines and "N checks, N failed"; exits 1 on a failure.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const C = require('./checks.js').makeChecks();
const window = { hp2x: {} };
vm.runInNewContext(fs.readFileSync(path.join(__dirname, '../../src/write/report_stats.js'), 'utf8'),
  { window, BigInt, DataView, ArrayBuffer, Math, Number, String, isFinite });
const hp2x = window.hp2x;
const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let said = 0;
for (const [x, d, want] of cases.fixed) {
  const got = hp2x.fixed(Number(x), d);
  if (!C.check(got === want || said > 5, `fixed(${x}, ${d}) is ${got}, printf says ${want}`)) said++;
}
for (const [x, want] of cases.thousands) {
  const got = hp2x.thousands(Number(x));
  if (!C.check(got === want || said > 5, `thousands(${x}) is ${got}, C says ${want}`)) said++;
}
C.check(said === 0, `${said} numbers written otherwise than C writes them`);
process.exit(C.summary());
