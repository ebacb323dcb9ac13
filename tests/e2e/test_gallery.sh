#!/usr/bin/env bash
# The README's pictures are what hp2x draws now: tests/tools/gallery.sh
# draws each again, by its caption's command, and each must equal the
# committed one in samples/pictures byte for byte (so a change to what
# hp2x draws shows in the commit that makes it, with the pictures drawn
# again), where the libraries and fonts are those that drew them
# (samples/pictures/drawn-with.txt: Debian 12's); elsewhere (Debian 13's
# cairo 1.18 rasterises otherwise) each is the same size with the same
# share of ink, within a point.  Every committed picture but chromium's screenshots,
# report.png and flamegraph.png (go tool pprof's page), is drawn.
# And the README shows every picture, each one gallery.sh draws under a
# caption that is gallery.sh's command for it: a caption cannot drift from
# what made its picture.
. "$(dirname "$0")/lib.sh"
"$TOP/tests/tools/gallery.sh" "$HP2X" "$T/gallery" > "$T/log" 2>&1 && ok ||
  fail "gallery.sh: $(head -3 "$T/log")"
exact=1
if ! cmp -s "$TOP/samples/pictures/drawn-with.txt" "$T/gallery/drawn-with.txt"; then
  exact=0
  echo "SKIPPED: byte comparison: the pictures were drawn with" \
    "$(tr '\n' ' ' < "$TOP/samples/pictures/drawn-with.txt"), this build has" \
    "$(tr '\n' ' ' < "$T/gallery/drawn-with.txt"): size and ink compared"
fi
for f in "$TOP"/samples/pictures/*.png; do
  n=$(basename "$f")
  case $n in report.png|flamegraph.png) continue;; esac
  if [ ! -f "$T/gallery/$n" ]; then
    fail "$n: gallery.sh does not draw it"
  elif [ $exact = 1 ]; then
    cmp -s "$f" "$T/gallery/$n" && ok ||
      fail "$n differs from what hp2x draws now (tests/tools/gallery.sh build/hp2x samples/pictures)"
  else
    read -r w h ink < <(python3 "$TOP/tests/e2e/png_info.py" "$f")
    read -r w2 h2 ink2 < <(python3 "$TOP/tests/e2e/png_info.py" "$T/gallery/$n")
    [ "$w $h" = "$w2 $h2" ] && awk -v a="$ink" -v b="$ink2" 'BEGIN { exit !(a - b <= 1 && b - a <= 1) }' &&
      ok || fail "$n: $w2 x $h2, $ink2% ink; the committed one $w x $h, $ink%"
  fi
done

# README.md's tables: a row of captions, then a row of the pictures they
# caption, column by column.  A caption starts with `hp2x ARGS`.
python3 - "$TOP/README.md" "$TOP/tests/tools/gallery.sh" "$TOP/samples/pictures" \
  > "$T/captions" 2>&1 <<'PY'
import os, re, shlex, sys
readme, gallery, pictures = sys.argv[1:4]
rows = [[c.strip() for c in l.strip().strip('|').split('|')]
        for l in open(readme, encoding='utf-8')
        if l.startswith('|') and not re.fullmatch(r'[|:\s-]+', l)]
caption = {}
for above, row in zip(rows, rows[1:]):
    for i, cell in enumerate(row):
        m = re.fullmatch(r'!\[[^]]*\]\(samples/pictures/([\w-]+)\.png\)', cell)
        if m and i < len(above):
            c = re.match(r'`hp2x ([^`]*)`', above[i])
            caption[m.group(1)] = shlex.split(c.group(1)) if c else None
shown = set(re.findall(r'\(samples/pictures/([\w-]+)\.png\)',
                       open(readme, encoding='utf-8').read()))
text = open(gallery, encoding='utf-8').read()
table = text.split("<<'TABLE'\n", 1)[1].split('\nTABLE', 1)[0]
drawn = {}
for line in table.splitlines():
    name, args = line.split('|', 1)
    drawn[name] = [a.replace('_', ' ') for a in args.split()]
for f in sorted(os.listdir(pictures)):
    name = f[:-4]
    if f.endswith('.png') and name not in shown:
        print(f'{f}: not shown in README.md')
for name, args in sorted(drawn.items()):
    if name not in caption:
        print(f'{name}.png: no caption row above it in README.md')
    elif caption[name] != args:
        print(f'{name}.png: README.md says hp2x {shlex.join(caption[name] or [])}, '
              f'gallery.sh draws hp2x {shlex.join(args)}')
PY
[ -s "$T/captions" ] && fail "README's pictures: $(cat "$T/captions")" || ok
[ "$(grep -c '^[a-z]*|' "$TOP/tests/tools/gallery.sh")" -ge 10 ] && ok ||
  fail "gallery.sh's table has fewer rows than the README has pictures"
finish
