#!/usr/bin/env bash
# --program=EXE on our program built by real GHC 9.6.6 and 9.10.3
# (tests/data/program): with the static executable, no selected band of
# the -hi eventlog or of GHC's .hp is a bare address, and each name made
# from a symbol is checked against `nm` of the executable (the symbol 16
# bytes after the table, or the nearest below it, z-decoded by this
# test's own decoder); IPE names stay; .hp output keeps the addresses;
# --include matches the names; the SVG tooltips carry them.  The PIE
# variant: named from its eventlog (the load bias from the IPE records),
# its libraries' tables said once; its .hp has no IPE record: one warning,
# addresses kept.  The stripped variant: one warning.  The wrong program:
# one warning, nothing named.  Without --program: one note, none with -q,
# exit 0.  A malformed EXE: exit 1 and a message naming it; the fuzzer's
# kept inputs are replayed.
# --watch is here only as a usage error: nothing waits, so
# run-tests.sh: with others
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data/program
cd "$T"
command -v nm >/dev/null || { echo "SKIPPED: no nm (binutils)"; exit 0; }

# bands FILE [ARGS]: the bands' names, key order, from the CSV header.
bands() {
  local f=$1; shift
  "$HP2X" -q "$@" "$f" -o bands.csv || return 1
  head -1 bands.csv | tr -d '\r' | python3 -c '
import csv, sys
for field in next(csv.reader(sys.stdin))[1:]:
    print(field.split("; ")[0])'
}

# check_names EXE SUMMARY: every "symbol" detail in SUMMARY against nm.
check_names() {
  nm -n "$1" > nm.txt
  python3 - nm.txt "$2" <<'EOF'
import re, sys, bisect
syms = {}
addrs = []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 3:
        a = int(p[0], 16)
        syms.setdefault(a, []).append(p[2])
        addrs.append(a)
addrs.sort()
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "tools"))
from zdecode import zdecode
checked = 0
text = open(sys.argv[2], encoding="utf-8").read().split("\n")
for k, line in enumerate(text):
    m = re.search(r"^ +(symbol|nearest symbol below) (\S+)( \(\+0x([0-9a-f]+)\))?; "
                  r"closure (\S+); address 0x([0-9a-f]+)( \(0x([0-9a-f]+) in the file\))?$", line)
    if not m:
        continue
    kind, sym, off, ctype = m.group(1), m.group(2), m.group(4), m.group(5)
    a = int(m.group(8) or m.group(6), 16)
    name = re.sub(r" 0x[0-9a-f]+$", "", text[k - 1].split("  ")[-1].strip())
    parts = sym.split("_")
    if kind == "symbol":
        assert sym in syms.get(a + 16, []), (sym, hex(a))
        if sym.endswith("_con_info"):
            con = zdecode(parts[-3] if not parts[-3].isdigit() else parts[-5])
            mod = zdecode(parts[-4] if not parts[-3].isdigit() else parts[-6])
            want = ("(%s)" % con if not re.match(r"[\w(\[]", con) else con) + " [%s]" % mod
            if parts[-3].isdigit():  # a module's own table of it
                want += " in " + zdecode(parts[-4])
            assert name == want, (name, want, sym)
    else:
        below = a - int(off, 16)
        assert sym in syms.get(below, []), (sym, hex(below))
        i = bisect.bisect_right(addrs, below)
        assert i == len(addrs) or addrs[i] > a, ("a symbol between", sym, hex(a))
        assert name.startswith(("thunk in ", "function in ", "constructor in ",
                                "selector thunk in ", ctype + " in ")), name
        binding = zdecode(parts[-2]) if len(parts) >= 3 else None
        if binding and not sym.startswith("stg_"):
            assert (" in %s [" % binding) in name, (name, sym)
    checked += 1
print(checked)
sys.exit(0 if checked else 1)
EOF
}

# The naming rule against the eventlog's own IPE records, every one: an
# IPE record's table with an "_info" symbol 16 bytes on is that symbol,
# z-decoded, less its package and module ("_"), or less the "$fld:Book:"
# of a record field's selector (":", GHC 9.10).
ipe_rule() { # ipe_rule EVENTLOG NM
  python3 - "$1" "$2" <<'EOF'
import re, struct, sys
data = open(sys.argv[1], "rb").read()
syms = {}
for line in open(sys.argv[2]):
    p = line.split()
    if len(p) == 3:
        syms.setdefault(int(p[0], 16), []).append(p[2])
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP"], "tests", "tools"))
from zdecode import zdecode
n = own = 0
# IPE events (169): type, time, size, then the info pointer and the
# table's name, NUL-terminated.
for m in re.finditer(rb"\x00\xa9.{10}(.{8})([\x21-\x7e]+_info)\x00", data, re.S):
    a, t = struct.unpack(">Q", m.group(1))[0], m.group(2).decode()
    n += 1
    for s in [x for x in syms.get(a + 16, []) if x.endswith("_info")][:1]:
        own += 1
        d = zdecode(s)
        assert d == t or d.endswith("_" + t) or d.endswith(":" + t), (t, s)
print(n, own)
sys.exit(0 if n > 100 and own > 50 else 1)
EOF
}

for g in ghc-9.10.3 ghc-9.6.6; do
  zcat "$D/$g/shelves.gz" > "shelves-$g" && chmod +x "shelves-$g"
  zcat "$D/$g/shelves.hi.eventlog.gz" > rule.eventlog
  nm -n "shelves-$g" > rule.nm
  got=$(ipe_rule rule.eventlog rule.nm) && ok || fail "$g: the naming rule against IPE records: $got"
  echo "  $g: IPE records, of them with a symbol: $got"
  for ext in eventlog hp; do
    f=$g-shelves.hi.$ext
    zcat "$D/$g/shelves.hi.$ext.gz" > "$f"
    # without --program: bare addresses among the bands, one note
    bands "$f" > plain.txt && ok || fail "$f: CSV"
    grep -qE '^0x[0-9a-f]+$' plain.txt && ok || fail "$f: no bare address to name"
    expect_status 0 "$f: no --program" -- "$HP2X" "$f" -o plain.pdf
    [ "$(grep -c 'note: .*--program=EXE names them' "$CAP/err")" -eq 1 ] && ok ||
      fail "$f: not one note about --program: $(cat "$CAP/err")"
    expect_status 0 "$f: -q" -- "$HP2X" -q "$f" -o plain.pdf
    [ ! -s "$CAP/err" ] && ok || fail "$f: -q still says: $(cat "$CAP/err")"
    if [ $ext = eventlog ]; then
      "$HP2X" -q --summary "$f" | grep -q -- '--program=EXE names it' && ok ||
        fail "$f: --summary's unnamed line lacks --program"
    fi
    # with it: every band named, checked against nm
    bands "$f" "--program=shelves-$g" > named.txt && ok || fail "$f: --program"
    ! grep -qE '^0x[0-9a-f]+$' named.txt && ok ||
      fail "$f: bare addresses left: $(grep -E '^0x' named.txt | tr '\n' ' ')"
    grep -q '^(:) \[GHC.Types\]$' named.txt && ok || fail "$f: no (:) [GHC.Types]"
    "$HP2X" -q --summary "--program=shelves-$g" "$f" > named.sum
    n=$(check_names "shelves-$g" named.sum) && ok || fail "$f: names against nm"
    echo "  $f: $n names checked against nm"
    # IPE names stay (the eventlog's): each IPE-named band is a label of
    # the run without --program (ties between equal bands may pick others)
    if [ $ext = eventlog ]; then
      bands "$f" -m0 > all-plain.txt
      grep ' shelves.hs:' named.txt > ipe-after.txt
      [ -s ipe-after.txt ] && ! grep -vxFf all-plain.txt ipe-after.txt && ok ||
        fail "$f: IPE-named bands changed"
    fi
    # .hp output keeps the addresses
    "$HP2X" -q "--program=shelves-$g" "$f" -o out.hp && ok || fail "$f: .hp"
    bad=$(sed -n '/^BEGIN_SAMPLE/,/^END_SAMPLE/p' out.hp |
          grep -vE '^(BEGIN|END)_SAMPLE|^0x[0-9a-f]+	[0-9]+$' | head -1)
    [ -z "$bad" ] && ok || fail "$f: .hp has '$bad'"
    # --include matches the names
    bands "$f" "--program=shelves-$g" --include '\[GHC\.Types\]' > inc.txt
    grep -q '^(:) \[GHC.Types\]$' inc.txt && ! grep -vqE '\[GHC\.Types\]|^OTHER' inc.txt &&
      ok || fail "$f: --include on the names: $(tr '\n' '|' < inc.txt)"
    # SVG tooltips
    "$HP2X" -q "--program=shelves-$g" "$f" -o named.svg &&
      grep -q '<title>(:) \[GHC.Types\]: peak' named.svg && ok || fail "$f: tooltip"
  done
done

# PIE: named from the eventlog, its libraries' tables said once; its .hp
# has no IPE record to place it: one warning, the addresses kept.
for g in ghc-9.10.3 ghc-9.6.6; do
  zcat "$D/$g/shelves-pie.gz" > shelves-pie && chmod +x shelves-pie
  zcat "$D/$g/shelves-pie.hi.eventlog.gz" > pie.eventlog
  zcat "$D/$g/shelves-pie.hi.hp.gz" > pie.hp
  expect_status 0 "$g PIE eventlog" -- "$HP2X" --summary --program=shelves-pie pie.eventlog -o pie.sum
  [ "$(grep -c 'outside shelves-pie' "$CAP/err")" -eq 1 ] && ok ||
    fail "$g PIE: the libraries' tables not said once: $(cat "$CAP/err")"
  grep -q '\[Ledger\]' pie.sum && ok || fail "$g PIE: Ledger's tables not named"
  n=$(check_names shelves-pie pie.sum) && ok || fail "$g PIE: names against nm (with the bias)"
  echo "  $g PIE: $n names checked against nm"
  expect_status 0 "$g PIE .hp" -- "$HP2X" --program=shelves-pie pie.hp -o pie.csv
  [ "$(grep -c 'position-independent.*addresses kept' "$CAP/err")" -eq 1 ] && ok ||
    fail "$g PIE .hp: not one warning: $(cat "$CAP/err")"
  bands pie.hp --program=shelves-pie > pie.txt
  grep -qE '^0x' pie.txt && ok || fail "$g PIE .hp: addresses not kept"
done
g=ghc-9.10.3

# Stripped: one warning, addresses kept.
zcat "$D/$g/shelves-stripped.gz" > stripped
for ext in eventlog hp; do
  zcat "$D/$g/shelves-stripped.hi.$ext.gz" > "stripped.$ext"
  expect_status 0 "stripped $ext" -- "$HP2X" --program=stripped "stripped.$ext" -o s.csv
  [ "$(grep -c 'no symbol table (stripped)' "$CAP/err")" -eq 1 ] && ok ||
    fail "stripped $ext: not one warning: $(cat "$CAP/err")"
  bands "stripped.$ext" --program=stripped > s.txt
  grep -qE '^0x' s.txt && ok || fail "stripped $ext: addresses not kept"
done

# The wrong program: 9.6.6's with 9.10.3's runs (the eventlog's IPE
# records disagree; the .hp's addresses miss its tables).
for f in ghc-9.10.3-shelves.hi.eventlog ghc-9.10.3-shelves.hi.hp; do
  expect_status 0 "wrong program, $f" -- "$HP2X" --program=shelves-ghc-9.6.6 "$f" -o w.csv
  [ "$(grep -c 'is not the program that ran' "$CAP/err")" -eq 1 ] && ok ||
    fail "$f: wrong program not said once: $(cat "$CAP/err")"
  bands "$f" --program=shelves-ghc-9.6.6 > w.txt
  bands "$f" > p.txt
  cmp -s w.txt p.txt && ok || fail "$f: the wrong program named something"
done

# Malformed or missing executables: exit 1, named, no output.
head -c 3000 shelves-ghc-9.10.3 > cut-elf
printf 'not an executable\n' > text-file
: > empty
for exe in cut-elf text-file empty missing-file /; do
  rm -f m.pdf
  expect_status 1 "--program=$exe" -- "$HP2X" --program="$exe" ghc-9.10.3-shelves.hi.hp -o m.pdf
  expect_stderr "$exe" "--program=$exe: message names it"
  [ ! -e m.pdf ] && ok || fail "--program=$exe: output written"
done
# The fuzzer's kept inputs (tests/fuzz-regress/program): read or refused,
# never a crash.
for f in "$TOP"/tests/fuzz-regress/program/*; do
  "$HP2X" -q --program="$f" ghc-9.10.3-shelves.hi.hp -o r.csv 2> /dev/null
  rc=$?
  [ $rc -le 1 ] && ok || fail "fuzz input $(basename "$f"): exit $rc"
done
expect_status 2 "--program with --watch" -- "$HP2X" --watch --program=x ghc-9.10.3-shelves.hi.hp -o w.pdf
finish
