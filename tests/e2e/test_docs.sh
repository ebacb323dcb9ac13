#!/usr/bin/env bash
# The README is for users and stays within its budget (300 lines, 20 KB);
# docs/ holds the rest.  What the README and docs/ say is checked where it
# can be: every relative link leads to a file, every file of docs/ is
# linked from the README or from another page of docs/, every long option
# they name is one of hp2x --help's, and each "`hp2x ARGS` prints:" block
# is what hp2x prints now.  Each check is also planted once and seen to
# fail.
. "$(dirname "$0")/lib.sh"
check() { # TOP HP2X: one line per problem
  python3 - "$1" "$2" <<'PY'
import glob, os, re, shlex, subprocess, sys
top, hp2x = sys.argv[1:3]
readme = os.path.join(top, 'README.md')
text = open(readme, encoding='utf-8').read()
lines, size = text.count('\n'), len(text.encode('utf-8'))
if lines > 300: print(f'README.md: {lines} lines (at most 300)')
if size > 20 * 1024: print(f'README.md: {size} bytes (at most 20 KB)')
pages = [readme] + sorted(glob.glob(os.path.join(top, 'docs', '**', '*.md'),
                                    recursive=True))
linked = set()
for page in pages:
    body = open(page, encoding='utf-8').read()
    for target in re.findall(r'\]\(([^)#\s]+)(?:#[^)]*)?\)', body):
        if re.match(r'[a-z]+:', target): continue
        path = os.path.normpath(os.path.join(os.path.dirname(page), target))
        linked.add(path)
        if not os.path.exists(path):
            print(f'{os.path.relpath(page, top)}: link to {target}: no such file')
for page in pages[1:]:
    if page not in linked:
        print(f'{os.path.relpath(page, top)}: no page links to it')
help_text = subprocess.run([hp2x, '--help'], capture_output=True,
                           text=True).stdout
known = set(re.findall(r'--[a-z][a-z-]*', help_text))
for page in pages:
    body = open(page, encoding='utf-8').read()
    for block in re.findall(r'```sh\n(.*?)```', body, re.S):
        for line in block.splitlines():
            if not re.match(r'\s*hp2x ', line): continue
            for opt in re.findall(r'(?<![\w-])--[a-z][a-z-]*', line.split('#')[0]):
                if opt not in known:
                    print(f'{os.path.relpath(page, top)}: {opt} is not an option '
                          f'of hp2x --help ({line.strip()})')
for args, shown in re.findall(r'^`hp2x ([^`]*)` prints:\n\n```\n(.*?)```',
                              text, re.M | re.S):
    got = subprocess.run([hp2x] + shlex.split(args), cwd=top,
                         capture_output=True, text=True).stdout
    if got.rstrip('\n') != shown.rstrip('\n'):
        print(f'README.md: hp2x {args} prints otherwise now')
PY
}
check "$TOP" "$HP2X" > "$T/bad.txt"
[ ! -s "$T/bad.txt" ] && ok || fail "$(cat "$T/bad.txt")"
grep -q '` prints:$' "$TOP/README.md" && ok || fail "README.md shows no output"

# Each check planted in a copy of the README and docs/.
fresh() {
  rm -rf "$T/c" && mkdir -p "$T/c" && cp -r "$TOP/README.md" "$TOP/docs" "$T/c/"
  ln -s "$TOP/samples" "$T/c/samples"
}
seen() { # WHAT PATTERN
  check "$T/c" "$HP2X" > "$T/planted.txt"
  grep -qE -- "$2" "$T/planted.txt" && ok ||
    fail "planted $1 not seen: $(head -3 "$T/planted.txt")"
}
fresh; yes 'a line' | head -300 >> "$T/c/README.md"
seen "a long README" '^README.md: [0-9]+ lines'
fresh; head -c 21000 /dev/zero | tr '\0' x >> "$T/c/README.md"
seen "a big README" '^README.md: [0-9]+ bytes'
fresh; echo 'See [this](docs/GONE.md).' >> "$T/c/README.md"
seen "a dead link" 'link to docs/GONE.md: no such file'
fresh; echo '# Orphan' > "$T/c/docs/ORPHAN.md"
seen "a page no page links to" 'docs/ORPHAN.md: no page links to it'
fresh; printf '```sh\nhp2x --no-such-option x.hp -o x.pdf\n```\n' >> "$T/c/docs/HACKING.md"
seen "an option hp2x does not have" '--no-such-option is not an option'
fresh; sed -i 's/^89 samples from/88 samples from/' "$T/c/README.md"
seen "a stale output" 'hp2x --summary .* prints otherwise now'
finish
