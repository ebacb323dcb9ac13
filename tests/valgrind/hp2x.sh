#!/bin/sh
# hp2x.sh ARGS... -- the real hp2x ($HP2X_REAL) under valgrind's memcheck,
# for `make valgrind` (tests/valgrind/run.sh points the end-to-end tests'
# $HP2X here).  Exits 99 on a memory error or a definite leak; the report
# goes to a file per process in $HP2X_VALGRIND_LOGS, not to the stderr the
# tests inspect.  exec: the test's $! and signals reach hp2x itself;
# --trace-children: a run hp2x hands to hp2x-full (exec) is checked too.
exec valgrind -q --trace-children=yes --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite --show-leak-kinds=definite \
  --num-callers=40 --gen-suppressions=all \
  --suppressions="$(dirname "$0")/valgrind.supp" \
  --log-file="${HP2X_VALGRIND_LOGS:?}/vg.%p.log" "${HP2X_REAL:?}" "$@"
