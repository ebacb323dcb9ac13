#!/usr/bin/env python3
"""layer-check.py -- the house rules on the source tree, which make check
keeps (tests/e2e/test_layers.sh): functions over 90 lines, circles among the
.c files under SRC_DIR (file A calls a function defined in B and B one
defined in A, directly or around a loop), private headers (.h under
SRC_DIR) over 200 lines, (with --max-file) source files over N lines, and
(with --folders) circles among the folders of SRC_DIR: a folder uses
another when one of its files calls a function defined there or includes a
header that lives there (SRC_DIR's own files are the folder '.').
usage: layer-check.py [--max-function N] [--max-file N] [--folders] [SRC_DIR]
Exit 0 when there are none."""
import argparse, glob, os, re, sys
ap = argparse.ArgumentParser()
ap.add_argument('--max-function', type=int, default=90)
ap.add_argument('--max-file', type=int, default=0, help='0: no limit on file length')
ap.add_argument('--folders', action='store_true', help='also report circles among folders')
ap.add_argument('src', nargs='?', default='src')
opt = ap.parse_args()
src = opt.src
files = sorted(glob.glob(os.path.join(src, '**', '*.c'), recursive=True))
headers = sorted(glob.glob(os.path.join(src, '**', '*.h'), recursive=True))
defs, lengths = {}, []
for f in files:
    lines = open(f, encoding='utf-8', errors='replace').read().split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r'^(static\s+)?(?:inline\s+)?[A-Za-z_][\w \t\*]*?\b(\w+)\s*\([^;]*$', line)
        if m and not line[:1].isspace() and '=' not in line and not line.startswith(('#', '}')):
            j = i
            while j < len(lines) and '{' not in lines[j] and not lines[j].rstrip().endswith(';'):
                j += 1
            if j < len(lines) and '{' in lines[j]:
                depth, k = 0, j
                while k < len(lines):
                    depth += lines[k].count('{') - lines[k].count('}')
                    if depth == 0:
                        break
                    k += 1
                lengths.append((k - i + 1, os.path.relpath(f, src), m.group(2)))
                if not m.group(1):
                    defs[m.group(2)] = f
                i = k
        i += 1
uses = {f: set() for f in files}
for f in files:
    text = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"', ' ', open(f, encoding='utf-8', errors='replace').read(), flags=re.S)
    for w in set(re.findall(r'\b\w+\b', text)):
        g = defs.get(w)
        if g and g != f:
            uses[f].add(g)
# strongly connected components (Tarjan)
def circles(uses):
  index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
  def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in uses[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(sorted(comp))
  for f in uses:
    if f not in index: visit(f)
  return sccs
sys.setrecursionlimit(10000)
sccs = [[os.path.relpath(f, src) for f in c] for c in circles(uses)]
fsccs = []
if opt.folders:
    folder = lambda f: os.path.dirname(os.path.relpath(f, src)) or '.'
    fuses = {}
    for f, gs in uses.items():
        fuses.setdefault(folder(f), set()).update(folder(g) for g in gs if folder(g) != folder(f))
    by_name = {}
    for h in headers: by_name.setdefault(os.path.basename(h), h)
    for f in files + headers:  # an #include "x.h" of a header in another folder is a use too
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(f, encoding='utf-8', errors='replace').read(), re.M):
            h = by_name.get(os.path.basename(inc))
            if h and folder(h) != folder(f):
                fuses.setdefault(folder(f), set()).add(folder(h))
    for gs in list(fuses.values()):
        for g in gs: fuses.setdefault(g, set())
    fsccs = circles(fuses)
lengths.sort(reverse=True)
over = [l for l in lengths if l[0] > opt.max_function]
top = ', '.join(f'{b}:{c} {a}' for a, b, c in lengths[:3])
circ = '; '.join(' <-> '.join(c) for c in sccs) or 'none'
big = [(sum(1 for _ in open(h, encoding='utf-8', errors='replace')), os.path.relpath(h, src)) for h in headers]
big = sorted([b for b in big if b[0] > 200], reverse=True)
hdrs = ', '.join(f'{n} {c}' for c, n in big) or 'none'
long_files = []
if opt.max_file:
    long_files = sorted([(sum(1 for _ in open(f, encoding='utf-8', errors='replace')), os.path.relpath(f, src))
                         for f in files], reverse=True)
    long_files = [x for x in long_files if x[0] > opt.max_file]
files_part = ''
if opt.max_file:
    files_part = f"; files over {opt.max_file} lines: " + (', '.join(f'{c} {n}' for n, c in long_files) or 'none')
folders_part = ''
if opt.folders:
    folders_part = '; folder circles: ' + ('; '.join(' <-> '.join(c) for c in fsccs) or 'none')
print(f'functions over {opt.max_function} lines: {len(over)} (longest: {top}); circles: {circ}; '
      f'private headers over 200 lines: {hdrs}{files_part}{folders_part}')
sys.exit(0 if not over and not sccs and not big and not long_files and not fsccs else 1)
