#!/usr/bin/env python3
"""lint.py -- the style rules `make lint` checks (docs/STYLE.md), and
`make format`'s formatting:

  format   every C file is as clang-format 14 writes it with .clang-format
           (skipped, saying so, where the clang-format found is not 14);
  width    no line of a C file is wider than 80 columns;
  prefix   every global a file of src/ defines starts with a prefix its
           rule in mk/prefixes.txt allows (read from its object with nm);
  opener   every C file opens with "/* NAME -- what it owns", NAME its own
           name, and every script, makefile and style sheet with a comment.

  lint.py [--top DIR] [--build DIR] [--clang-format PROG] [--nm PROG]
  lint.py --format [--top DIR] [--clang-format PROG]

Prints one line per fault and exits 1 when there is any; 0 when clean.
"""
import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys

WIDTH = 80
FORMAT_VERSION = 14
SKIP_DIRS = {'.git', 'node_modules'}
C_EXT = ('.c', '.h')
SCRIPT_EXT = ('.sh', '.py', '.js', '.css', '.mk')
SCRIPT_NAMES = ('Makefile', 'run')  # .ci/run


def walk(top):
    """Every file of the tree, relative to top, in a stable order: not the
    builds (build/, build-*/), .git, node_modules or fuzzing corpora."""
    out = []
    for d, dirs, files in os.walk(top):
        rel = os.path.relpath(d, top)
        dirs[:] = sorted(x for x in dirs
                         if x not in SKIP_DIRS
                         and not (rel == '.' and re.match(r'build($|-)', x))
                         and not x.startswith('corpus-'))
        out += [os.path.normpath(os.path.join(rel, f)) for f in sorted(files)]
    return out


def c_files(files):
    return [f for f in files if f.endswith(C_EXT)]


def find_clang_format(given):
    """(path, version text, major) of the clang-format to use: the one
    given, else clang-format-14, else clang-format; None when none is."""
    for name in [given] if given else ['clang-format-%d' % FORMAT_VERSION,
                                       'clang-format']:
        path = shutil.which(name)
        if path:
            out = subprocess.run([path, '--version'], capture_output=True,
                                 text=True).stdout
            m = re.search(r'version (\d+)\.\S+', out)
            return path, m.group(0) if m else out.strip(), \
                int(m.group(1)) if m else 0
    return None


def check_format(top, files, given, faults, notes):
    cf = find_clang_format(given)
    if not cf:
        notes.append('format: skipped: no clang-format found (Debian 12\'s '
                     'clang-format %d is the one .clang-format is written '
                     'for); the other rules ran' % FORMAT_VERSION)
        return
    path, version, major = cf
    if major != FORMAT_VERSION:
        notes.append('format: skipped: %s is %s, not %d (Debian 12\'s), the '
                     'one .clang-format is written for; the other rules ran'
                     % (path, version, FORMAT_VERSION))
        return
    bad = {}
    for i in range(0, len(files), 50):
        r = subprocess.run([path, '--dry-run', '--Werror', '--style=file']
                           + files[i:i + 50], cwd=top, capture_output=True,
                           text=True)
        for m in re.finditer(r'^(\S+?):(\d+):\d+: (?:error|warning): code '
                             r'should be clang-formatted', r.stderr, re.M):
            bad.setdefault(os.path.normpath(m.group(1)), int(m.group(2)))
        if r.returncode != 0 and not bad:
            faults.append('format: %s failed: %s' % (path, r.stderr.strip()
                                                    [:200]))
            return
    for f, line in sorted(bad.items()):
        faults.append('format: %s:%d: not as clang-format %d writes it '
                      '(make format)' % (f, line, FORMAT_VERSION))
    notes.append('format: %d files checked with %s' % (len(files), version))


def check_width(top, files, faults):
    for f in files:
        with open(os.path.join(top, f), encoding='utf-8',
                  errors='replace') as fh:
            for n, line in enumerate(fh, 1):
                w = len(line.rstrip('\n').expandtabs(8))
                if w > WIDTH:
                    faults.append('width: %s:%d: %d columns (at most %d)'
                                  % (f, n, w, WIDTH))


def read_prefixes(path):
    """[(pattern, [prefix...])] from mk/prefixes.txt, in order; a line
    that starts with a blank goes on with the rule above it."""
    rules = []
    with open(path, encoding='utf-8') as fh:
        for line in fh:
            words = line.split('#', 1)[0].split()
            if words and line[0].isspace() and rules:
                rules[-1][1].extend(words)
            elif words:
                rules.append((words[0], words[1:]))
    return rules


def path_match(path, pattern):
    """Shell-style, but '*' stays within one folder and '**' crosses."""
    rx = ''
    for part in re.split(r'(\*\*|\*|\?)', pattern):
        rx += {'**': '.*', '*': '[^/]*', '?': '[^/]'}.get(
            part, re.escape(part))
    return re.fullmatch(rx, path) is not None


def check_prefixes(top, build, nm, table, faults, notes):
    rules = read_prefixes(os.path.join(top, table))
    sources = [f for f in walk(os.path.join(top, 'src')) if f.endswith('.c')]
    objects = {}
    for f in sources:
        rule = next((r for r in rules if path_match(f, r[0])), None)
        obj = os.path.join(build, 'obj', f[:-2] + '.o')
        if not rule:
            faults.append('prefix: src/%s: no rule in %s (add one)'
                          % (f, table))
        elif not os.path.exists(obj):
            faults.append('prefix: src/%s: no object %s (make lint builds '
                          'it)' % (f, obj))
        else:
            objects[obj] = (f, rule)
    if not objects:
        return
    # One nm for every object: "OBJECT: NAME TYPE VALUE SIZE" a line.
    r = subprocess.run([nm, '-A', '-P', '-g', '--defined-only']
                       + sorted(objects), capture_output=True, text=True)
    if r.returncode != 0:
        faults.append('prefix: %s failed: %s' % (nm, r.stderr.strip()[:200]))
        return
    for line in r.stdout.splitlines():
        obj, _, rest = line.rpartition(': ')
        name = rest.split()[0] if rest.split() else ''
        if obj not in objects or name.startswith(('__', '.')):
            continue  # names the compiler makes (sanitizers) start with __
        f, rule = objects[obj]
        if not any(name.startswith(p) for p in rule[1]):
            faults.append('prefix: src/%s: global %s does not start '
                          'with %s (%s: %s)'
                          % (f, name, ' or '.join(rule[1]), table, rule[0]))
    notes.append('prefix: the globals of %d objects' % len(objects))


def check_openers(top, files, faults):
    n = 0
    for f in files:
        base = os.path.basename(f)
        is_c = f.endswith(C_EXT)
        if not (is_c or f.endswith(SCRIPT_EXT) or base in SCRIPT_NAMES
                and (base == 'Makefile' or f == os.path.join('.ci', 'run'))):
            continue
        n += 1
        with open(os.path.join(top, f), encoding='utf-8',
                  errors='replace') as fh:
            lines = fh.read().split('\n')
        if is_c:
            m = re.match(r'/\* (\S+) -- \S', lines[0])
            if not m or m.group(1) not in (base, f):
                faults.append('opener: %s:1: does not open with "/* %s -- '
                              'what it owns"' % (f, base))
            continue
        i = 0
        while i < len(lines) and (lines[i].startswith('#!') or
                                  lines[i].startswith('# shellcheck ')):
            i += 1
        first = lines[i] if i < len(lines) else ''
        if not re.match(r'(#|//|/\*|"""|\'\'\')\s*\S', first):
            faults.append('opener: %s:%d: does not open with a comment '
                          'saying what it owns' % (f, i + 1))
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--top', default='.')
    ap.add_argument('--build', default='build')
    ap.add_argument('--clang-format', default=os.environ.get('CLANG_FORMAT'))
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--prefixes', default=os.path.join('mk', 'prefixes.txt'))
    ap.add_argument('--format', action='store_true',
                    help='format every C file in place instead')
    opt = ap.parse_args()
    top = opt.top
    files = walk(top)
    cfiles = c_files(files)
    if opt.format:
        cf = find_clang_format(opt.clang_format)
        if not cf or cf[2] != FORMAT_VERSION:
            sys.exit('make format: needs clang-format %d (Debian 12\'s), '
                     'which .clang-format is written for; found %s'
                     % (FORMAT_VERSION, cf[1] if cf else 'none'))
        for i in range(0, len(cfiles), 50):
            subprocess.run([cf[0], '-i', '--style=file'] + cfiles[i:i + 50],
                           cwd=top, check=True)
        print('make format: %d files formatted with %s' % (len(cfiles),
                                                            cf[1]))
        return 0
    faults, notes = [], []
    check_format(top, cfiles, opt.clang_format, faults, notes)
    check_width(top, cfiles, faults)
    check_prefixes(top, opt.build, opt.nm, opt.prefixes, faults, notes)
    n = check_openers(top, files, faults)
    notes.append('width and opener: %d C files, %d files in all'
                 % (len(cfiles), n))
    for line in faults:
        print('lint: ' + line)
    for line in notes:
        print('lint: ' + line)
    print('lint: %d faults' % len(faults))
    return 1 if faults else 0


if __name__ == '__main__':
    sys.exit(main())
