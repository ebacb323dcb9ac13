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
job = b'J (x) \\\\ %%EOF <b> & ""quoted"" ) (\x02 cr\r%%EOF\rshowpage'
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
  # Only the real end-of-file comment, last, may start a line with %%EOF
  # (CR ends a line too, for DSC readers); nothing injected starts a line.
  python3 - "$f" <<'PY' && ok || fail "$f: injected line"
import re, sys
lines = [l for l in re.split(rb"\r\n|\r|\n", open(sys.argv[1], "rb").read()) if l]
eof = [i for i, l in enumerate(lines) if l.startswith(b"%%EOF")]
assert eof == [len(lines) - 1], eof
assert not any(l.startswith((b"%!PS", b"<script", b"cr", b"mid"))
               for l in lines[1:]), "injected"
pages = sum(l.startswith(b"%%Page:") for l in lines)
assert sum(l.startswith(b"showpage") for l in lines) == pages, "showpage"
PY
done
pdfinfo evil.pdf > /dev/null 2>&1 && ok || fail "evil.pdf unreadable"
rsvg-convert evil.svg > /dev/null && ok || fail "evil.svg unreadable"
python3 - <<'PY' && ok || fail "SVG/CSV/.hp content check"
import csv, sys, xml.etree.ElementTree as ET
svg = ET.parse("evil.svg")                # well-formed XML
tags = {e.tag.split("}")[-1] for e in svg.iter()}
assert "script" not in tags and "b" not in tags and "i" not in tags, tags
text = "".join("".join(e.itertext()) for e in svg.iter()
               if e.tag.split("}")[-1] in ("title", "desc"))
labels = open("labels.txt", "rb").read().split(b"\n")[:-1]
rows = list(csv.reader(open("evil.csv", newline="", encoding="latin-1")))
head = rows[0]
assert head[0] == "time", head
assert sorted(h.encode("latin-1") for h in head[1:]) == sorted(labels), head
assert len(rows) == 5 and all(len(r) == len(head) for r in rows), rows
hp = open("evil.hp", "rb").read()
assert hp.count(b"BEGIN_SAMPLE") == 4
# The printable labels reach the SVG's tooltips as they are, markup as text.
for l in labels:
    s = l.decode("latin-1")
    if s.isprintable() and s.isascii():
        assert s in text, s
# .hp output: JOB and DATE and every label survive byte for byte.
assert b'JOB "J (x) ' in hp and b"cr\r%%EOF\rshowpage" in hp
for l in labels:
    assert b"\n" + l + b"\t" in hp, l
PY
# Text extracted from the PDF's key (-m 20 draws one): the printable
# labels, whole.
"$HP2X" -q -t0 in.hp -o key.pdf && pdftotext -raw key.pdf evil.txt && python3 - <<'PY' && ok || fail "PDF text"
labels = open("labels.txt", "rb").read().split(b"\n")[:-1]
text = open("evil.txt", encoding="utf-8").read()
for l in labels:
    s = l.decode("latin-1")
    if s.isprintable() and s.isascii():
        assert s in text, s
PY
"$HP2X" -q -m0 -t0 evil.hp -o round.csv && cmp -s round.csv evil.csv && ok ||
  fail ".hp written by hp2x does not read back the same"

# An eventlog's labels may hold what a .hp line cannot: line breaks, TABs,
# a CR or blank at the end.  Made with bench/gen.py from placeholders of
# the same length, replaced in the binary.
python3 - "$TOP/bench/gen.py" <<'PY'
import subprocess, sys
evil = [b"x\n%%EOF\nshowpage", b"tab\there and there", b"label ends in CR\r",
        b"ends in blank ", b"two\n\nline breaks"]
marks = [b"PLACEHOLDER%02d" % i + b"_" * (len(l) - 13) for i, l in enumerate(evil)]
out = [b'JOB "j"', b'DATE "d"', b'SAMPLE_UNIT "seconds"', b'VALUE_UNIT "bytes"']
for s in range(3):
    out.append(b"BEGIN_SAMPLE %.6f" % s)
    out += [m + b"\t%d" % ((k + 1) * 100) for k, m in enumerate(marks)]
    out.append(b"END_SAMPLE %.6f" % s)
open("marks.hp", "wb").write(b"\n".join(out) + b"\n")
subprocess.run([sys.executable, sys.argv[1], "eventlog", "marks.hp",
                "evil.eventlog"], check=True)
data = open("evil.eventlog", "rb").read()
for m, l in zip(marks, evil):
    assert len(m) == len(l) and data.count(m) == 3, m
    data = data.replace(m, l)
open("evil.eventlog", "wb").write(data)
open("evil-labels.txt", "wb").write(repr(evil).encode())
PY
expect_status 1 "eventlog labels with line breaks -> .hp" -- \
  "$HP2X" -q evil.eventlog -o evil2.hp
expect_stderr "evil2.hp: .*cannot be written as .hp text" ".hp refusal message"
[ ! -e evil2.hp ] && ok || fail "refused .hp left a file"
for fmt in ps eps pdf svg csv; do
  "$HP2X" -q -m0 -t0 evil.eventlog -o "ev.$fmt" 2> err.txt && ok ||
    fail "evil.eventlog -> $fmt: $(head -1 err.txt)"
done
python3 - <<'PY' && ok || fail "eventlog labels: CSV round trip, PS lines, SVG"
import ast, csv, re, xml.etree.ElementTree as ET
evil = ast.literal_eval(open("evil-labels.txt").read())
head = next(csv.reader(open("ev.csv", newline="", encoding="latin-1")))
assert sorted(h.encode("latin-1") for h in head[1:]) == sorted(evil), head
for f in ("ev.ps", "ev.eps"):
    lines = [l for l in re.split(rb"\r\n|\r|\n", open(f, "rb").read()) if l]
    eof = [i for i, l in enumerate(lines) if l.startswith(b"%%EOF")]
    assert eof == [len(lines) - 1], (f, eof)
    pages = sum(l.startswith(b"%%Page:") for l in lines)
    assert sum(l.startswith(b"showpage") for l in lines) == pages, f
ET.parse("ev.svg")
PY
pdfinfo ev.pdf > /dev/null 2>&1 && ok || fail "ev.pdf unreadable"
finish
