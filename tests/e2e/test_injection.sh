#!/usr/bin/env bash
# Hostile strings in JOB, DATE and labels -- PostScript string and comment
# syntax, XML markup, CSV quoting, control characters, invalid UTF-8 --
# cannot break or inject into any output format.
. "$(dirname "$0")/lib.sh"
cd "$T"
python3 - <<'PY'
labels = [b"paren(", b"close)", b"back\\slash\\", b"%%EOF", b"%!PS-Adobe-3.0",
          b"<script>alert(1)</script>", b"a&amp;b", b"]]>", b'quote"d,comma',
          b"ctl\x01\x07\x1b[31m", b"latin1 Gr\xf6\xdfe", b"utf8 \xc3\xa4\xe8\xa8\x88",
          b"=cmd|' /C calc'!A0", b"showpage", b"mid\rcr"]
job = b'J (x) \\\\ %%EOF <b> & ""quoted"" ) (\x02'
out = [b'JOB "' + job + b'"', b'DATE "Mon ) ( \\\\ %% <i>&"',
       b'SAMPLE_UNIT "seconds"', b'VALUE_UNIT "bytes"']
for s in range(4):
    t = b"%.6f" % (s * 0.5)
    out.append(b"BEGIN_SAMPLE " + t)
    for k, l in enumerate(labels):
        out.append(l + b"\t" + str((k + 1) * 1000 * (s + 1)).encode())
    out.append(b"END_SAMPLE " + t)
open("in.hp", "wb").write(b"\n".join(out) + b"\n")
open("labels.txt", "wb").write(b"\n".join(labels) + b"\n")
PY
for fmt in ps eps pdf svg csv hp; do
  "$HP2X" -q -m0 -t0 in.hp -o "evil.$fmt" 2> err.txt && ok ||
    { fail "evil -> $fmt: $(head -1 err.txt)"; continue; }
done
for f in evil.ps evil.eps; do
  gs -q -dSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage "$f" > gs.log 2>&1 && ok ||
    fail "$f: ghostscript: $(head -3 gs.log)"
  # Only the real end-of-file comment may start a line with %%EOF.
  [ "$(grep -c '^%%EOF' "$f")" -le 1 ] && ok || fail "$f: injected %%EOF line"
  [ "$(grep -c '^showpage' "$f")" -le 3 ] && ok || fail "$f: injected showpage"
done
pdfinfo evil.pdf > /dev/null 2>&1 && ok || fail "evil.pdf unreadable"
rsvg-convert evil.svg > /dev/null && ok || fail "evil.svg unreadable"
python3 - <<'PY' && ok || fail "SVG/CSV/.hp content check"
import csv, sys, xml.etree.ElementTree as ET
ET.parse("evil.svg")                      # well-formed XML
labels = open("labels.txt", "rb").read().split(b"\n")[:-1]
rows = list(csv.reader(open("evil.csv", newline="", encoding="latin-1")))
head = rows[0]
assert head[0] == "time", head
assert sorted(h.encode("latin-1") for h in head[1:]) == sorted(labels), head
assert len(rows) == 5 and all(len(r) == len(head) for r in rows), rows
hp = open("evil.hp", "rb").read()
assert hp.count(b"BEGIN_SAMPLE") == 4
PY
"$HP2X" -q -m0 -t0 evil.hp -o round.csv && cmp -s round.csv evil.csv && ok ||
  fail ".hp written by hp2x does not read back the same"
finish
