#!/usr/bin/env bash
# `make install PREFIX= DESTDIR=` gives a working tool: the binary, the man
# page, and the pinned fonts, found from any working directory (no
# HP2X_FONTS_CONF): the PDF embeds Nimbus Sans.
. "$(dirname "$0")/lib.sh"
unset HP2X_FONTS_CONF
make -s -C "$TOP" install BUILD="${BUILD#$TOP/}" PREFIX=/opt/hp2x DESTDIR="$T/root" > "$CAP/install.log" 2>&1 &&
  ok || { fail "make install: $(tail -3 "$CAP/install.log")"; finish; exit 1; }
bin=$T/root/opt/hp2x/bin/hp2x
[ -x "$bin" ] && ok || fail "no installed binary"
[ -f "$T/root/opt/hp2x/share/man/man1/hp2x.1" ] && ok || fail "no installed man page"
[ -f "$T/root/opt/hp2x/share/hp2x/fonts/fonts.conf" ] && ok || fail "no installed fonts.conf"
mkdir "$T/elsewhere" && cd "$T/elsewhere"
"$bin" "$TOP/samples/profiles/unicode.hc.hp" -o u.pdf && ok || fail "installed binary failed"
pdffonts u.pdf > fonts.txt 2>&1
grep -q NimbusSans fonts.txt && ok || fail "Nimbus Sans not used: $(cat fonts.txt)"
grep -qi 'DroidSansFallback\|DejaVu' fonts.txt && ok || fail "no fallback font for CJK/Cyrillic: $(cat fonts.txt)"
finish
