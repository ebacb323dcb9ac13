#!/usr/bin/env bash
# The key shortens names by meaning: on real -hT, -hc, -hy and -hi files of
# GHC 9.6.6 and 9.10.3, at the default size and at -e 15cm, every key line
# is read back from the PDF (pdftotext -bbox) and held against its band's
# whole name (the CSV header, key order): the same name, or one that drops
# a package version, makes packages and module prefixes initials, or leaves
# out segments at '.', ':', '/', '-' or a space, marked by one "…" each;
# the name's last segment (a constructor, an outermost frame, a location)
# is kept; no two lines alike; each within the page.  The whole names are
# in the CSV, --summary and the SVG tooltips.  (A name the font renderer
# had to cut inside a word reads back with a space in the word: the PDF
# maps its ellipsis back to the letters it stands for.)
. "$(dirname "$0")/lib.sh"
D=$TOP/tests/data
cd "$T"
command -v pdftotext >/dev/null || { echo "SKIPPED: no pdftotext (poppler-utils)"; exit 0; }

files="program/ghc-9.6.6/shelves.hT.hp.gz ghc-modern/ghc-9.10.3/markers.hc.eventlog
ghc-modern/ghc-9.10.3/mapwave.hc.eventlog.gz key/ghc-9.10.3-manycc.hy.hp.gz
ghc-modern/ghc-9.10.3/markers.ipehi.eventlog real-hi/ghc-9.10.3-mapwave.ipehi.eventlog
../../samples/profiles/unicode.hc.eventlog"

cut_seen=0
for rel in $files; do
  name=$(echo "${rel#../../}" | tr '/' '_')
  name=${name%.gz}
  zcat -f "$D/$rel" > "$name"
  "$HP2X" -q "$name" -o "$name.csv" && ok || fail "$name: CSV"
  head -1 "$name.csv" | tr -d '\r' | python3 -c '
import csv, sys
for field in next(csv.reader(sys.stdin))[1:]:
    print(field.split("; table ")[0])' > "$name.names"
  "$HP2X" -q --summary "$name" > "$name.sum" && ok || fail "$name: summary"
  while IFS= read -r band; do
    grep -qF -- "$band" "$name.sum" || { fail "$name: '$band' not whole in --summary"; break; }
  done < "$name.names"
  for size in "" "-e15cm"; do
    pdf=$name$size.pdf
    "$HP2X" -q $size "$name" -o "$pdf" && pdftotext -bbox "$pdf" "$pdf.html" &&
      ok || fail "$pdf: picture"
    python3 - "$pdf.html" "$name.names" > "$pdf.cuts" <<'EOF' && ok || fail "$pdf: key"
import re, sys
html = open(sys.argv[1], encoding="utf-8").read()
page_w = float(re.search(r'<page width="([0-9.]+)"', html).group(1))
words = [(float(a), float(b), float(c), w) for a, b, c, w in re.findall(
    r'<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" [^>]*>([^<]*)</word>',
    html)]
lines = {}
for x0, y, x1, w in words:
    lines.setdefault(round(y, 2), []).append((x0, x1, w))
# Key lines: those starting at the key's x, the commonest start right of
# the middle of the page; top first.
starts = {}
for ws in lines.values():
    x0 = round(min(w[0] for w in ws), 2)
    if x0 > page_w / 2:
        starts[x0] = starts.get(x0, 0) + 1
kx = max(starts, key=starts.get)
key = [(y, sorted(ws)) for y, ws in sorted(lines.items())
       if round(min(w[0] for w in ws), 2) == kx]
names = [n.rstrip("\n") for n in open(sys.argv[2], encoding="utf-8")]
names = [n.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
         for n in names]
texts = [" ".join(w for _, _, w in ws) for _, ws in key]
if len(texts) != len(names):
    sys.exit("key has %d lines, %d bands: %s" % (len(texts), len(names), texts))
SEP = ".:/ -"
def matches(shown, whole):
    if shown == whole:
        return True
    # shown as a pattern over whole: "…" (and a stack's "…/") stands for
    # segments left out, a one-letter segment for an initial, a package
    # may have lost its version.
    pat, i = "", 0
    while i < len(shown):
        if shown.startswith("\u2026", i):
            before = shown[i - 1] if i else ""
            if before and before not in SEP:
                return False  # cut inside a word
            after = shown[i + 1] if i + 1 < len(shown) else ""
            # the text after it begins a segment: at a separator, or
            # right after one in the whole name
            pat += ".*" if not after or after in SEP else \
                "(?:.*[%s])?" % re.escape(SEP)
            i += 1
            continue
        m = re.match(r"[^%s\u2026]+" % re.escape(SEP), shown[i:])
        if m:
            tok = m.group(0)
            if len(tok) == 1 and tok.isalpha():
                pat += re.escape(tok) + "[^%s]*" % re.escape(SEP.replace("-", ""))
            else:
                pat += re.escape(tok)
            i += len(tok)
            if shown.startswith(":", i) and not pat.count(":"):
                pat += r"(?:-[0-9][0-9.]*(?:-[a-z0-9]+)?)?"
            continue
        pat += re.escape(shown[i])
        i += 1
    return re.fullmatch(pat, whole) is not None
for (y, ws), shown, whole in zip(key, texts, names):
    if not matches(shown, whole):
        sys.exit("key line %r does not shorten %r" % (shown, whole))
    if max(w[1] for w in ws) > page_w + 0.5:
        sys.exit("key line %r leaves the page" % shown)
    if shown != whole:
        print(shown)
if len(set(texts)) != len(texts):
    sys.exit("two key lines alike: %s" % texts)
EOF
    [ -s "$pdf.cuts" ] && cut_seen=$((cut_seen + 1))
  done
  # the SVG tooltips name the bands whole
  "$HP2X" -q "$name" -o "$name.svg" && ok || fail "$name: SVG"
  python3 - "$name.svg" "$name.names" <<'EOF' && ok || fail "$name: tooltips"
import sys, xml.etree.ElementTree as ET
titles = [t.text for t in ET.parse(sys.argv[1]).iter("{http://www.w3.org/2000/svg}title")]
for n in open(sys.argv[2], encoding="utf-8"):
    n = n.rstrip("\n")
    if n != "OTHER" and not any(t.startswith(n + ": ") for t in titles):
        sys.exit("no tooltip for " + n)
EOF
done
# The -hT and -hc keys above have names to shorten (the test is not empty).
[ "$cut_seen" -ge 4 ] && ok || fail "only $cut_seen keys with a shortened name"
grep -qx 'containers:Data.Sequence.Internal.Node3' program_ghc-9.6.6_shelves.hT.hp.pdf.cuts &&
  ok || fail "-hT: the package version is not what went first"
finish
