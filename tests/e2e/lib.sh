# lib.sh -- shared helpers for the end-to-end tests (sourced, not run).
# Env from tests/run-tests.sh: HP2X (the binary), TOP (repo root), BUILD.
# HP2X_FAULTS: the test build of the tool with the allocation-failure hook
# (mk/testhooks.mk), which the fault tests run.
set -u
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${HP2X:=$TOP/build/hp2x}"
: "${HP2X_FAULTS:=${BUILD:-$TOP/build}/hp2x-faults}"
export HP2X_FONTS_CONF="$TOP/fonts/fonts.conf"
export SOURCE_DATE_EPOCH=1700000000
T=$(mktemp -d)      # the test's working directory
CAP=$(mktemp -d)    # captured output of expect_status, kept out of $T
trap 'rm -rf "$T" "$CAP"' EXIT
checks=0 failures=0
ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }
# expect_status WANT DESCRIPTION -- CMD...: runs CMD, compares its status.
expect_status() {
  local want=$1 what=$2; shift 3
  "$@" > "$CAP/out" 2> "$CAP/err"; local got=$?
  if [ "$got" -eq "$want" ]; then ok; else
    fail "$what: exit $got, wanted $want"; sed 's/^/    /' "$CAP/err" | head -5; fi
}
# expect_stderr PATTERN DESCRIPTION: the last command's stderr matches.
expect_stderr() {
  if grep -qE -- "$1" "$CAP/err"; then ok; else
    fail "$2: stderr does not match /$1/"; sed 's/^/    /' "$CAP/err" | head -5; fi
}
finish() {
  echo "$checks checks, $failures failed"
  [ "$failures" -eq 0 ]
}
