#!/usr/bin/env bash
# The lists of formats spelt out by hand agree with the one table of
# formats (src/base/format.c), read through the library itself
# (tests/tools/format_table.c, linked against BUILD/libhp2x.a): the unit
# test of the options' messages (tool/cli/test_cli.c), test_compare.sh's
# messages (-p's formats that hold several inputs, --diff's that take
# bands), the loops over every format of test_locale.sh and test_faults.sh
# and over every picture of test_bound.sh, the formats
# test_formats.sh runs (and the tests it names for the others), the prose
# of include/hp2x.h, the man page's NAME line and its --format entry, and
# --help.  A new row fails here until every list names it; a list naming
# what the table lacks fails too.  Then the check itself: a copy of
# test_cli.c missing a format is caught.
. "$(dirname "$0")/lib.sh"
# Built as the library was (build.env: the compiler and, in the sanitizer
# pass, the sanitizers' flags, which its objects need at link time).
CC=cc OPT=
[ -f "${BUILD:-}/build.env" ] && . "$BUILD/build.env"
lib=${BUILD:-$TOP/build}/libhp2x.a
# shellcheck disable=SC2086
if ! "$CC" $OPT -I"$TOP/include" -o "$T/format_table" \
     "$TOP/tests/tools/format_table.c" "$lib" 2> "$T/cc.log"; then
  fail "cannot build format_table against $lib: $(head -3 "$T/cc.log")"
  finish; exit
fi
"$T/format_table" > "$T/table.tsv" && ok || fail "format_table: $(cat "$T/table.tsv")"
[ "$(wc -l < "$T/table.tsv")" -ge 8 ] && ok || fail "the table has $(wc -l < "$T/table.tsv") rows"
"$HP2X" --help > "$T/help.txt" && ok || fail "--help failed"

lists() { # TABLE HELP TEST_OPTIONS TEST_FORMATS HEADER MAN TEST_COMPARE: one line per disagreement
  python3 - "$@" <<'PY'
import re, sys, os
table, helptxt, test_cli, test_formats, header, man, test_compare = sys.argv[1:8]
rows = [l.rstrip('\n').split('\t') for l in open(table)]
names = [r[0] for r in rows]
pictures = [r for r in rows if r[3] == 'picture']
texts = [r for r in rows if r[3] == 'text']
bad = []
def same(where, got, want, ordered=True):
    if (list(got) if ordered else sorted(got)) != (list(want) if ordered else sorted(want)):
        bad.append(f'{where}: {", ".join(got)} -- the table has {", ".join(want)}')
def words(s):
    return [w for w in re.split(r'\s*(?:,|\bor\b)\s*', s.strip()) if w]
# test_cli.c: the unknown-format message and the --format=a|b|... hint.
# (a C string may be split over lines: adjacent literals are one string)
t = re.sub(r'"\s*\n\s*"', '', open(test_cli).read())
for m in re.finditer(r"unknown format 'gif' \(([^)]*)\)", t):
    same('test_cli.c unknown format', words(m.group(1)), names)
hints = re.findall(r'--format=([a-z0-9]+(?:\|[a-z0-9]+)+)"', t)
if not hints: bad.append('test_cli.c: no --format=... hint found')
for h in hints:
    same('test_cli.c --format hint', h.split('|'), names)
# test_compare.sh: -p's one output file (formats holding several inputs)
# and --diff's chart (formats taking bands).
c = open(test_compare).read()
m = re.search(r'-p needs one output file \(-o NAME(\.[a-z0-9]+(?:, \.[a-z0-9]+)*(?: or \.[a-z0-9]+)?)\)', c)
got = [w.lstrip('.') for w in words(m.group(1))] if m else []
same('test_compare.sh -p formats', got, [r[0] for r in rows if r[4] == 'several'])
m = re.search(r'--diff draws a chart \(([^)]*)\)', c)
got = [re.sub(r'^summary$', 'summary', w) for w in words(m.group(1))] if m else []
same('test_compare.sh --diff formats', got, [r[1] for r in rows if r[5] == 'bands'])
# Loops over every format, or every picture, in other tests.
loops = ((os.path.join(os.path.dirname(test_compare), 'test_locale.sh'),
          r'^# Every format, with decimal[^\n]*\nfor fmt in ([a-z0-9 ]+); do', names),
         (os.path.join(os.path.dirname(test_compare), 'test_faults.sh'),
          r'^fmts=\(([a-z0-9 ]+) hp2ps\)', names),
         (os.path.join(os.path.dirname(test_compare), 'test_bound.sh'),
          r'one-shot picture, every format\.\nfor in [^\n]*\n\s*for fmt in ([a-z0-9 ]+); do',
          [r[0] for r in pictures]))
for path, pat, want in loops:
    m = re.search(pat, open(path).read(), re.M)
    same(f'{os.path.basename(path)} loop', m.group(1).split() if m else [], want)
# test_formats.sh: its formats=(...) and the formats it leaves to others.
f = open(test_formats).read()
m = re.search(r'^formats=\(([^)]*)\)', f, re.M)
e = re.search(r'^# elsewhere: (.*)$', f, re.M)
if not m or not e:
    bad.append('test_formats.sh: no formats=(...) or no "# elsewhere:" line')
else:
    elsewhere = re.findall(r'([a-z0-9]+) \((test_[a-z0-9_]+\.sh)\)', e.group(1))
    for fmt, script in elsewhere:
        if not os.path.exists(os.path.join(os.path.dirname(test_formats), script)):
            bad.append(f'test_formats.sh: {fmt} is left to {script}, which does not exist')
    same('test_formats.sh formats + elsewhere',
         m.group(1).split() + [x for x, _ in elsewhere], names, ordered=False)
# hp2x.h: the prose lists of pictures and of text formats.
h = re.sub(r'\n\s*\*\s*', ' ', open(header).read())
plabels = [r[1] for r in pictures]
for pat in (r'pictures \(hp2x_format_is_picture: ([^)]*)\)',
            r'a picture format \(([^:]*):', r'is a picture \(([^:]*):'):
    found = re.findall(pat, h)
    if not found: bad.append(f'hp2x.h: no list /{pat}/')
    for s in found: same(f'hp2x.h /{pat[:24]}/', words(s), plabels)
m = re.search(r'rather than text or data \(([^)]*)\)', h)
if not m: bad.append('hp2x.h: no "rather than text or data (...)" list')
else:
    got = [re.sub(r'^the (\w+) table$', r'\1', w) for w in words(m.group(1))]
    same('hp2x.h text formats', got, [r[1] for r in texts])
# The man page: NAME's pictures, and the --format entry's words.
mp = open(man).read()
m = re.search(r'^hp2x \\- .* as (.*)$', mp, re.M)
same('man NAME', words(m.group(1)) if m else [], [r[2] for r in pictures])
m = re.search(r'^\.BR \\-\\-format =\\fIFMT\n(.*?)^\.TP', mp, re.M | re.S)
got = re.findall(r'^\.BR? ([a-z0-9]+)(?: ,)?$', m.group(1), re.M) if m else []
same('man --format entry', got, names, ordered=False)
# --help (written from the table: checks the tool's reading of it).
hp = open(helptxt).read()
m = re.search(r'--format=FMT +output format: (.*?) \(--summary\)', hp)
same('--help --format', words(m.group(1)) if m else [], names)
m = re.search(r'as (.*?),\nor convert it to (.*?) text', hp)
same('--help pictures', words(m.group(1)) if m else [], [r[2] for r in pictures])
for l in bad: print(l)
PY
}
args=("$T/table.tsv" "$T/help.txt" "$TOP/tests/unit/tool/cli/test_cli.c"
      "$TOP/tests/e2e/test_formats.sh" "$TOP/include/hp2x.h" "$TOP/man/hp2x.1"
      "$TOP/tests/e2e/test_compare.sh")
lists "${args[@]}" > "$T/bad.txt"
[ ! -s "$T/bad.txt" ] && ok || fail "lists of formats that disagree with the table:
$(cat "$T/bad.txt")"
# The check sees a list that lacks a format: the table's names without
# its second one, in a copy of test_cli.c.
all=$(cut -f1 "$T/table.tsv" | paste -sd, | sed 's/,/, /g')
second=$(sed -n 2p "$T/table.tsv" | cut -f1)
less=$(printf '%s' "$all" | sed "s/, $second,/,/")
sed "/unknown format 'gif'/s/, $second,/,/" \
  "$TOP/tests/unit/tool/cli/test_cli.c" > "$T/test_cli.c"
args[2]=$T/test_cli.c
lists "${args[@]}" > "$T/bad.txt"
grep -qF "test_cli.c unknown format: $less --" "$T/bad.txt" && ok ||
  fail "a list without $second is not caught: $(cat "$T/bad.txt")"
finish
