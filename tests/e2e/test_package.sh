#!/usr/bin/env bash
# The Debian packaging (debian/, mk/package.mk; docs/RELEASE.md) agrees
# with the tree: debian/changelog's version is hp2x.h's; the symbols file
# lists exactly what BUILD's libhp2x.so exports (mk/symbols.sh --check,
# which also fails on a planted missing and a planted extra entry, and
# whose rewrite adds a new export with this version); the library
# package, its symbols file and its data directory carry the soname's
# number; hp2x's examples are the profiles the README, docs and man page
# use; libhp2x0 depends on the packages that own fonts.conf's font
# directories; Build-Depends are in make deps' DEB_PKGS; make
# check-package leaves out only tests that exist, and every test that
# starts a browser, Go or Prometheus; debian/tests' scripts exist; and
# make dist is reproducible: every member dated the changelog's date,
# owned by root, gzip without a name or date, the same bytes under
# another umask and zone and from the tarball's own tree, and (in git)
# exactly the tracked files.
. "$(dirname "$0")/lib.sh"
D=$TOP/debian
# make_list VAR: the words of the Makefile's "VAR := ..." (continued lines
# too).
make_list() {
  awk -v v="$1" '$1 == v && $2 == ":=" { f = 1 } f { print; if ($0 !~ /\\$/) exit }' \
    "$TOP/Makefile" | sed "s/^$1 :=//; s/\\\\\$//" | tr '\n' ' '
}
version=$(sed -n 's/^#define HP2X_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' \
          "$TOP/include/hp2x.h" | paste -sd.)
major=${version%%.*}

# ---- one version
top_entry=$(head -1 "$D/changelog")
deb_version=$(echo "$top_entry" | sed -n 's/^hp2x (\([^)]*\)) .*/\1/p')
[ "${deb_version%%-*}" = "$version" ] && ok ||
  fail "debian/changelog's top entry is '$top_entry'; hp2x.h says $version"
grep -q "^Source: hp2x$" "$D/control" && ok || fail "debian/control: Source is not hp2x"

# ---- the symbols file
syms=$D/libhp2x$major.symbols
so=$BUILD/libhp2x.so.$version
case $BUILD in
*asan* | *tsan*) echo "SKIPPED: symbols (a sanitizer's build exports its own)" ;;
*)
  sh "$TOP/mk/symbols.sh" --check "$so" "libhp2x.so.$major" "$version" "$syms" \
    > "$CAP/check" 2>&1 && ok || fail "$(cat "$CAP/check")"
  first=$(sed -n 's/^ \([^@]*\)@Base .*/\1/p' "$syms" | head -1)
  grep -v "^ $first@" "$syms" > "$T/missing.symbols"
  sh "$TOP/mk/symbols.sh" --check "$so" "libhp2x.so.$major" "$version" \
    "$T/missing.symbols" > "$CAP/check" 2>&1 && fail "a missing entry passes" ||
    { grep -q "no entry for the export $first" "$CAP/check" &&
        grep -q "run make symbols" "$CAP/check" && ok ||
        fail "a missing entry: $(cat "$CAP/check")"; }
  { cat "$syms"; echo " hp2x_no_such_function@Base 0.0.1"; } > "$T/extra.symbols"
  sh "$TOP/mk/symbols.sh" --check "$so" "libhp2x.so.$major" "$version" \
    "$T/extra.symbols" > "$CAP/check" 2>&1 && fail "an extra entry passes" ||
    { grep -q "does not export hp2x_no_such_function" "$CAP/check" && ok ||
        fail "an extra entry: $(cat "$CAP/check")"; }
  # make symbols' rewrite: the missing export comes back with this version.
  sed "s/^ $first@Base .*/ $first@Base 0.0.1/" "$syms" > "$T/old.symbols"
  grep -v "^ $first@" "$syms" > "$T/new.symbols"
  sh "$TOP/mk/symbols.sh" "$so" "libhp2x.so.$major" "$version" "$T/new.symbols" \
    > "$CAP/rewrite" 2>&1 && grep -q "^added (version $version): $first$" "$CAP/rewrite" &&
    grep -q "^ $first@Base $version$" "$T/new.symbols" &&
    [ "$(grep -vc "^ $first@" "$T/new.symbols")" = "$(grep -vc "^ $first@" "$syms")" ] &&
    ok || fail "mk/symbols.sh's rewrite: $(head -3 "$CAP/rewrite")"
  ;;
esac
head -1 "$syms" | grep -q "^libhp2x\.so\.$major libhp2x$major #MINVER#$" && ok ||
  fail "$syms's first line: $(head -1 "$syms")"

# ---- the library package is named for the soname, and so is its data
grep -q "^Package: libhp2x$major$" "$D/control" && ok ||
  fail "debian/control has no package libhp2x$major"
grep -q "^usr/share/libhp2x$major$" "$D/libhp2x$major.install" && ok ||
  fail "debian/libhp2x$major.install does not install usr/share/libhp2x$major"
grep -q "DATADIR=/usr/share/libhp2x$major " "$D/rules" && ok ||
  fail "debian/rules does not set DATADIR=/usr/share/libhp2x$major"

# ---- debian/control, read once: fields of each stanza
python3 - "$D/control" > "$T/control.txt" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
for stanza in text.strip().split('\n\n'):
    fields, key = {}, None
    for line in stanza.split('\n'):
        if line.startswith((' ', '\t')): fields[key] += ' ' + line.strip()
        else:
            key, _, value = line.partition(':'); fields[key] = value.strip()
    name = fields.get('Package', 'source')
    for key in ('Build-Depends', 'Depends'):
        for dep in filter(None, (d.strip() for d in fields.get(key, '').split(','))):
            profile = 'nocheck' if '<!nocheck>' in dep else 'build'
            print(name, key, re.match(r'[^ (<\[]+', dep).group(0), profile)
PY
# Every Build-Depends is one make deps installs (debhelper-compat is
# debhelper's), so make deb builds where make deps ran.
deb_pkgs=" $(make_list DEB_PKGS) "
awk '$2 == "Build-Depends" { print $3 }' "$T/control.txt" | sed 's/^debhelper-compat$/debhelper/' |
  while read -r p; do
    case $deb_pkgs in *" $p "*) ;; *) echo "$p" ;; esac
  done > "$T/absent"
[ -s "$T/absent" ] && fail "Build-Depends not in DEB_PKGS: $(tr '\n' ' ' < "$T/absent")" || ok
[ "$(grep -c ' nocheck$' "$T/control.txt")" -ge 5 ] && ok ||
  fail "no <!nocheck> Build-Depends found"

# libhp2x0 depends on the package owning each of fonts.conf's font
# directories (where dpkg knows them).
if command -v dpkg-query > /dev/null; then
  for dir in $(sed -n 's|.*<dir>\(.*\)</dir>.*|\1|p' "$TOP/fonts/fonts.conf"); do
    # (A directory several packages share: one of them will do.)
    owners=$(dpkg-query -S "$dir" 2> /dev/null | sed 's/: .*//; s/,/ /g')
    if [ -z "$owners" ]; then echo "SKIPPED: no package owns $dir here"; continue; fi
    found=
    for o in $owners; do
      grep -q "^libhp2x$major Depends $o " "$T/control.txt" && found=$o
    done
    [ -n "$found" ] && ok ||
      fail "fonts.conf's $dir is $owners's; libhp2x$major depends on none of them"
  done
else
  echo "SKIPPED: font packages (no dpkg-query)"
fi

# ---- hp2x's examples: the profiles the README's pictures (gallery.sh's
# table) and the docs' and man page's commands use.
{
  sed -n '/^TABLE$/q; /^[a-z]*|/p' "$TOP/tests/tools/gallery.sh" | cut -d'|' -f2 |
    tr ' ' '\n' | grep -E '\.(hp|eventlog)$'
  grep -ohE 'samples/profiles/[A-Za-z0-9._-]+\.(hp|eventlog)' "$TOP/README.md" \
    "$TOP"/docs/*.md "$TOP/man/hp2x.1" | sed 's|.*/||'
} | sort -u > "$T/used"
sed -n 's|^samples/profiles/||p' "$D/hp2x.examples" | sort > "$T/examples"
[ "$(wc -l < "$T/used")" -ge 8 ] && ok || fail "too few profiles found in the docs"
diff "$T/used" "$T/examples" > "$T/examples.diff" && ok ||
  fail "debian/hp2x.examples (>) against the profiles the docs use (<): $(tr '\n' ' ' < "$T/examples.diff")"
while read -r f; do
  [ -e "$TOP/$f" ] && ok || fail "debian/hp2x.examples: no $f"
done < "$D/hp2x.examples"

# ---- make check-package's PACKAGE_SKIP names tests, and every test that
# starts a browser, Go or Prometheus (outside comments) is in it.
skip=" $(make_list PACKAGE_SKIP) "
for name in $skip; do
  [ -f "$TOP/tests/e2e/test_$name.sh" ] && ok || fail "PACKAGE_SKIP names $name: no such test"
done
for t in "$TOP"/tests/e2e/test_*.sh; do
  name=$(basename "$t" .sh); name=${name#test_}
  if grep -v '^\s*#' "$t" |
     grep -qE '(^|[^-[:alnum:]_])(chromium|node|go tool|prometheus|promtool)( |$)'; then
    case $skip in *" $name "*) ok ;; *) fail "test_$name.sh starts a browser, Go or Prometheus; PACKAGE_SKIP lacks it" ;; esac
  fi
done

# ---- debian/tests: each test of the control file is an executable script.
for t in $(sed -n 's/^Tests: //p' "$D/tests/control"); do
  [ -x "$D/tests/$t" ] && ok || fail "debian/tests/$t is not an executable script"
done

# ---- make dist: reproducible
dist() { # DIR OUT: make dist in DIR into OUT
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$1" dist DIST="$2" \
    > "$CAP/dist.log" 2>&1 || fail "make dist in $1: $(tail -3 "$CAP/dist.log")"
}
dist "$TOP" "$T/a.tar.gz"
(umask 077 && TZ=Pacific/Kiritimati dist "$TOP" "$T/b.tar.gz")
cmp -s "$T/a.tar.gz" "$T/b.tar.gz" && ok || fail "two make dist differ (umask 077, another zone)"
# The tarball's own tree (no git there, as in make deb's copy) gives it
# back, byte for byte.
mkdir "$T/copy" && tar -C "$T/copy" -xzf "$T/a.tar.gz" &&
  dist "$T/copy/hp2x-$version" "$T/c.tar.gz"
cmp -s "$T/a.tar.gz" "$T/c.tar.gz" && ok ||
  fail "make dist in the tarball's own tree gives other bytes"
rm -rf "$T/copy"
epoch=$(date -u -d "$(sed -n '/^ -- /{s/.*>  //p;q}' "$D/changelog")" +%s)
tar -tvzf "$T/a.tar.gz" --full-time --numeric-owner > "$T/members" 2>&1
awk -v want="$(date -u -d "@$epoch" '+%F %T')" -v v="hp2x-$version/" \
  '$2 != "0/0" || $4 " " $5 != want || index($6, v) != 1 { print; n++ } END { exit n > 0 }' \
  "$T/members" > "$T/odd" && ok || fail "make dist's members not root's at the changelog's date under hp2x-$version/: $(head -3 "$T/odd")"
[ "$(od -An -tx1 -j3 -N5 "$T/a.tar.gz" | tr -d ' ')" = 0000000000 ] && ok ||
  fail "make dist's gzip header has a name or a date: $(od -An -tx1 -N10 "$T/a.tar.gz")"
grep -q " hp2x-$version/debian/rules$" "$T/members" && ok || fail "make dist has no debian/rules"
grep -q " hp2x-$version/build/" "$T/members" && fail "make dist holds build/" || ok
if [ "$(git -C "$TOP" rev-parse --show-toplevel 2> /dev/null)" = "$(cd "$TOP" && pwd -P)" ]; then
  git -C "$TOP" -c core.quotepath=off ls-files | sort > "$T/tracked"
  sed "s|.* hp2x-$version/||" "$T/members" | sort > "$T/listed"
  diff "$T/tracked" "$T/listed" > "$T/dist.diff" && ok ||
    fail "make dist's files (>) against git's (<): $(head -5 "$T/dist.diff" | tr '\n' ' ')"
else
  echo "SKIPPED: make dist against git ls-files (not a git checkout of this tree)"
fi
finish
