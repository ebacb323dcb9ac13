#!/usr/bin/env bash
# SVG tooltips: every band, and its key entry, carries a <title> with its
# full label and peak; the file stays valid XML that rsvg reads; in headless
# Chromium each band's tooltip area is what the pointer hits over the band
# (skipped, with a note, when chromium is not installed).
. "$(dirname "$0")/lib.sh"
cd "$T"
L=$TOP/samples/profiles/leak.hc.hp
titles() { grep -o '<title>[^<]*</title>' "$1" | sed 's/<title>//; s/<\/title>//'; }

"$HP2X" -c "$L" -o t.svg && "$HP2X" "$L" -o t.csv || fail "renders"
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' t.svg && ok || fail "not well-formed XML"
rsvg-convert t.svg > /dev/null && ok || fail "rsvg-convert rejects it"
# One title per band over the graph and one per key entry, each naming the
# band and its peak as in the CSV (value and time of the column's maximum).
nb=$(head -1 t.csv | tr -d '\r' | tr ',' '\n' | tail -n +2 | wc -l)
[ "$(titles t.svg | wc -l)" -eq $((2 * nb)) ] && ok ||
  fail "$(titles t.svg | wc -l) titles for $nb bands"
head -1 t.csv | tr -d '\r' | tr ',' '\n' | tail -n +2 > names.txt
i=2
while read -r name; do
  peak=$(tail -n +2 t.csv | tr -d '\r' | awk -F, -v c=$i '$c > m { m = $c; t = $1 } END { printf "%d %.3f", m, t }')
  v=$(printf '%d' "${peak% *}" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta') at=${peak#* }
  want="$name: peak $v bytes at $at seconds"
  [ "$(titles t.svg | grep -cxF "$want")" -eq 2 ] && ok || fail "no two titles '$want'"
  i=$((i + 1))
done < names.txt
# Labels are escaped for XML.
printf 'JOB "x"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\nBEGIN_SAMPLE 0.0\na<b>&"c"\t10\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 1.0\na<b>&"c"\t20\nEND_SAMPLE 1.0\n' > esc.hp
"$HP2X" esc.hp -o esc.svg && python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' esc.svg &&
  grep -qF '<title>a&lt;b&gt;&amp;&quot;c&quot;: peak 20 bytes at 1.000 seconds</title>' esc.svg && ok ||
  fail "label not escaped in its title: $(grep -o '<title>[^/]*' esc.svg | head -1)"
# Other formats are unchanged by it; stacked pictures get titles each.
"$HP2X" -c --layout=stack "$L" "$TOP/samples/profiles/leak.hy.hp" -o st.svg &&
  [ "$(grep -c '<g id="hp2x-tooltips"' st.svg)" -eq 1 ] &&
  titles st.svg | grep -q 'readings' && titles st.svg | grep -q '^\[' && ok ||
  fail "stacked SVG titles"

# Hovering in a browser: every tooltip area is the topmost element at some
# point inside it (document.elementFromPoint, the hit test hover uses).
if command -v chromium > /dev/null; then
  {
    printf '<!DOCTYPE html><html><body style="margin:0">\n'
    sed '1{/^<?xml/d}' t.svg
    cat <<'JS'
<pre id="out"></pre>
<script>
const out = [];
for (const p of document.querySelectorAll('#hp2x-tooltips > path')) {
  const r = p.getBoundingClientRect();
  let hit = false;
  for (let i = 1; i < 40 && !hit; i++)
    for (let j = 1; j < 40 && !hit; j++)
      hit = document.elementFromPoint(r.left + r.width * i / 40,
                                      r.top + r.height * j / 40) === p;
  out.push((hit ? 'HIT ' : 'MISS ') + p.querySelector('title').textContent);
}
document.getElementById('out').textContent = out.join('\n');
</script></body></html>
JS
  } > page.html
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --window-size=1200,900 --dump-dom "file://$T/page.html" 2> chromium.err |
    sed -n '/<pre id="out">/,/<\/pre>/p' | sed 's/<[^>]*>//g' > hover.txt
  [ "$(grep -c '^HIT ' hover.txt)" -eq $((2 * nb)) ] && ! grep -q '^MISS' hover.txt && ok ||
    fail "chromium hover: $(head -3 hover.txt) $(tail -2 chromium.err)"
  grep -q '^HIT (305)readings.go/readings/...: peak 12,000,000 bytes at 1.080 seconds$' hover.txt && ok ||
    fail "chromium: the leak band's tooltip"
else
  echo "note: chromium not installed: browser hover check skipped"
fi
finish
