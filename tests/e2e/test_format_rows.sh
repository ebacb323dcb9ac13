#!/usr/bin/env bash
# A format's rows are tied when compiling: base/format.h's table has one
# row for each hp2x_format (base/format.c refuses a missing or doubled
# row), and draw/surface.c a surface for each picture format of that table
# and for nothing else.  Each file compiles as it is; each planted fault
# in a scratch copy is refused with the static assertion's words.  Then
# the medium follows the table's page column: PS on hp2ps's US Letter
# page, PDF on the frame and its margin.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/scratch_lib.sh"
for f in base/format.c draw/surface.c; do
  compiles "$f" && ok || fail "$f does not build as it is: $(head -3 "$T/cc.log")"
done
# edit: a python expression turning the file's text s into the faulty one
# (it must change the text); file compiled; header edited; the words.
plant() { # what, header, file, edit, words
  local what=$1 header=$2 file=$3 edit=$4 words=$5
  python3 - "$T/src/$header" "$edit" <<'PY' || { fail "$what: not planted"; return; }
import sys
path, edit = sys.argv[1:3]
s = open(path).read()
t = eval(edit)
if t == s: sys.exit(1)
open(path, 'w').write(t)
PY
  if compiles "$file"; then
    fail "$what: $file builds"
  else
    grep -qF "$words" "$T/cc.log" && ok ||
      fail "$what: not the assertion: $(head -3 "$T/cc.log")"
  fi
  cp "$TOP/src/$header" "$T/src/$header"
}
each='one row for each hp2x_format, each once'
surf='a surface for every picture format, and for no other'
plant "a picture without its surface" draw/surface.c draw/surface.c \
  "s.replace('  X(HP2X_FORMAT_PNG, png_surface, 1, 0)', '')" "$surf"
plant "a surface for a text format" draw/surface.c draw/surface.c \
  "s.replace('X(HP2X_FORMAT_PNG, png_surface, 1, 0)', 'X(HP2X_FORMAT_PNG, png_surface, 1, 0) X(HP2X_FORMAT_CSV, png_surface, 1, 0)')" "$surf"
plant "a text format made a picture" base/format.h draw/surface.c \
  "s.replace('\"CSV\", HP2X_WRITER_CSV', '\"CSV\", HP2X_WRITER_PICTURE')" "$surf"
plant "a format without its row" base/format.h base/format.c \
  "s.replace('X(HP2X_FORMAT_SVG, ', 'Y(HP2X_FORMAT_SVG, ').replace('#define HPX_FORMAT_ROWS(X)', '#define Y(...)\n#define HPX_FORMAT_ROWS(X)')" "$each"
plant "a format's row twice" base/format.h base/format.c \
  "s.replace('X(HP2X_FORMAT_HTML, ', 'X(HP2X_FORMAT_SVG, ')" "$each"

# The page column at work, through the binary.
"$HP2X" -o "$T/a.ps" "$TOP/samples/profiles/leak.hT.hp" && ok || fail "ps"
grep -aq '^%%DocumentMedia: .* 612 792 ' "$T/a.ps" && ok ||
  fail "PS is not on US Letter: $(grep -a '^%%' "$T/a.ps" | head -8)"
"$HP2X" -o "$T/a.pdf" "$TOP/samples/profiles/leak.hT.hp" && ok || fail "pdf"
pdfinfo "$T/a.pdf" > "$T/pdfinfo.txt" 2>&1
grep -q '^Page size: *720 x 504 pts' "$T/pdfinfo.txt" && ok ||
  fail "PDF is not the frame and its margin: $(grep -a 'size' "$T/pdfinfo.txt")"
finish
