// checks.js -- the browser tests' count of checks: check(ok, what) prints
// "FAIL: what" when ok is false; summary() prints "N checks, N failed"
// and gives the exit status (0 all passed, 1 a failure).
'use strict';
function makeChecks() {
  let checks = 0, failures = 0;
  return {
    check(ok, what) {
      checks++;
      if (!ok) { failures++; console.log('FAIL: ' + what); }
      return ok;
    },
    summary() {
      console.log(checks + ' checks, ' + failures + ' failed');
      return failures ? 1 : 0;
    },
  };
}
module.exports = { makeChecks };
