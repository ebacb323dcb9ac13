#!/usr/bin/env bash
# The HTML report (-o NAME.html) in a real browser: Debian's chromium,
# driven by playwright-core from tests/browser (make deps installs both).
# Each report opens from file:// with nothing else, and is checked against
# the real binary's own outputs of the same input and options: the
# picture against the PNG at --dpi=96, hover against the CSV, the table
# against --summary; hiding a band, zooming and hostile labels too
# (tests/browser/report_checks.js).  Without the browser or node, the
# browser checks say SKIPPED and why; the page's size and escaping are
# checked here regardless.
. "$(dirname "$0")/lib.sh"
cd "$T"
P=$TOP/samples/profiles

# A profile whose labels are markup and script.
{
  printf 'JOB "<b>job</b>"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n'
  for i in 0 1 2 3 4 5 6 7 8 9; do
    printf 'BEGIN_SAMPLE %d.0\n' "$i"
    printf '<img src=x onerror=window.hp2xPwned=1>\t%d\n' $((1000 * (i + 1)))
    printf '</script><script>window.hp2xPwned=2</script>\t%d\n' $((3000 + 100 * i))
    printf '"quoted" & \\u003c\t%d\n' $((500 * (i % 3 + 1)))
    printf 'END_SAMPLE %d.0\n' "$i"
  done
} > hostile.hp
printf '{"labels": ["<img src=x onerror=window.hp2xPwned=1>", "</script><script>window.hp2xPwned=2</script>", "\\"quoted\\" & \\\\u003c"]}\n' > hostile.expect

# Profiles of one census, and of none but GHC's empty ones.
printf 'JOB "one"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.5\nx\t100\ny\t50\nEND_SAMPLE 0.5\n' > one.hp
printf 'JOB "empty"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\nEND_SAMPLE 1.0\n' > empty.hp
echo '{"few": true}' > one.expect
echo '{"few": true}' > empty.expect

# NAME INPUT OPTIONS...: the report and the outputs it is checked against.
make_report() {
  local name=$1 input=$2
  shift 2
  expect_status 0 "$name: report" -- "$HP2X" -q "$@" "$input" -o "$name.html"
  expect_status 0 "$name: CSV" -- "$HP2X" -q "$@" "$input" -o "$name.csv"
  expect_status 0 "$name: PNG" -- "$HP2X" -q "$@" --dpi=96 "$input" -o "$name.png"
  expect_status 0 "$name: summary" -- "$HP2X" -q "$@" --summary "$input" -o "$name.txt"
  if grep -q '"charts": true' "$name.expect" 2> /dev/null; then # the page's switch
    local kind
    for kind in percent streamgraph lines; do
      expect_status 0 "$name: $kind PNG" -- "$HP2X" -q "$@" --chart=$kind --dpi=96 "$input" -o "$name.$kind.png"
    done
  fi
  local size
  size=$(wc -c < "$name.html")
  [ "$size" -le 1000000 ] && ok || fail "$name: the report is $size bytes, over 1 MB"
  # Nothing fetched: no URL but the SVG namespaces' names.
  grep -oE '(src|href)="[a-z]+:[^"#]{0,20}' "$name.html" | grep -vE '"data:image/png;base64,' |
    grep -q . && fail "$name: the page refers to $(grep -oE '(src|href)="[a-z]+:' "$name.html" | sort -u)" || ok
}
# Reports whose chart switch is checked against hp2x's PNG of each kind.
for name in leak manycc ipehi he hb; do echo '{"charts": true}' > $name.expect; done
# A report with marks whose labels the page draws again and again.
echo '{"marks": true}' > markers.expect
make_report leak "$P/leak.hc.hp"
make_report manycc "$P/manycc.hc.hp" -c
make_report unicode "$P/unicode.hc.hp" -c
make_report markers "$P/markers.hc.eventlog" -c --heap
make_report ipehi "$P/manycc.ipehi.eventlog" -c
make_report hostile hostile.hp -c -t0
make_report one one.hp -c
make_report empty empty.hp
make_report diff "$P/leak.hy.hp" -c --diff "$P/longrun.hy.hp"
# -he (GHC 9.10.3, --automatic-era-increment: eras in order, a sequential
# palette) and -hb (the biographies' fixed colours).
make_report he "$P/mapwave.he.hp" -c
make_report hb "$P/mapwave.hb.eventlog" -c -t0

# The hostile labels never reach the page as markup.
grep -qF '<img src=x' hostile.html && fail "a label's <img> is in the page as markup" || ok
grep -qF 'window.hp2xPwned=2</script>' hostile.html && fail "a label closes the page's script" || ok
grep -qF '<b>job</b>' hostile.html && fail "the JOB is in the page as markup" || ok
# -o NAME.html and --format=html agree (several inputs are refused: a case
# of tests/cli/cases.test).
"$HP2X" -q "$P/leak.hc.hp" --format=html -o - > stdout.html && cmp -s stdout.html leak.html && ok ||
  fail "--format=html to standard output differs from -o leak.html"
# A label of a megabyte (a broken profile's) is cut in the page, which says
# how long it was, and the page stays within 1 MB; CSV keeps it whole.
huge=$TOP/tests/data/malformed/huge-line.hp
expect_status 0 "a megabyte label: report" -- "$HP2X" -q "$huge" -o huge.html
size=$(wc -c < huge.html)
[ "$size" -le 1000000 ] && ok || fail "huge-line: the report is $size bytes, over 1 MB"
grep -qE '(…|&#8230;) \([0-9]{7} bytes in all\)' huge.html && ok ||
  fail "huge-line: the page does not say the label was cut"
"$HP2X" -q "$huge" -o huge.csv && [ "$(head -1 huge.csv | wc -c)" -gt 1000000 ] && ok ||
  fail "huge-line: the CSV does not keep the whole label"

if ! command -v node > /dev/null; then
  echo "SKIPPED: browser checks: node is not installed (make deps)"
elif [ ! -d "$TOP/tests/browser/node_modules/playwright-core" ]; then
  echo "SKIPPED: browser checks: playwright-core is not installed (make deps)"
elif [ ! -x /usr/bin/chromium ]; then
  echo "SKIPPED: browser checks: /usr/bin/chromium is not installed (make deps)"
else
  start=$SECONDS
  timeout 180 node "$TOP/tests/browser/report_test.js" "$T" leak manycc unicode markers ipehi hostile one empty diff he hb \
    > browser.txt 2>&1
  status=$?
  cat browser.txt
  echo "browser checks: $((SECONDS - start)) s"
  if [ "$status" -eq 3 ]; then
    ok
  else
    [ "$status" -eq 0 ] && ok || fail "browser checks (exit $status)"
    [ $((SECONDS - start)) -le 120 ] && ok || fail "browser checks took $((SECONDS - start)) s"
  fi
fi
finish
