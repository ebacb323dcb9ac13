#!/usr/bin/env python3
"""layer-check.py -- the house rules on the source tree, which make check
keeps (tests/e2e/test_layers.sh).

Stage order: the folders of SRC_DIR are ranked by the Makefile's LIB_STAGES
(base model read select draw write), then the tool's folders by its
TOOL_FOLDERS (util io serve cli run, as tool/util ...), then the tool's
folder itself (--after, by default 'tool': main.c).  A file may use only
its own folder and earlier ones:
  - an #include "x.h" that resolves (as the compiler does: the includer's
    folder, then SRC_DIR, or for the tool's files SRC_DIR/tool, which is
    all the tool is compiled with) to a header of a later stage is refused;
  - a word in a .c file naming a function defined (not static) in a later
    stage's .c file -- a call, or its address taken -- is refused;
  - a header naming a later stage's function (declaring it, or a macro that
    calls it) is refused.
A folder with sources that is not ranked is refused too.
Also: functions over --max-function lines, (with --max-file) source files
over N lines, private headers (.h under SRC_DIR) over 200 lines, circles
among the .c files (A calls B and B calls A, directly or around a loop),
and (with --max-fields N) a struct or union of the tool (a file under
SRC_DIR/tool) with more than N members: the members of its body, a
declaration of several names counting each, a nested struct one.
usage: layer-check.py [--max-function N] [--max-file N] [--max-fields N]
                      [--makefile M] [--stages 'a b ...']
                      [--tool-folders 'a b ...'] [--after 'tool'] [SRC_DIR]
Prints one summary line, then one line per fault; exit 0 when there are none."""
import argparse, glob, os, re, sys

ap = argparse.ArgumentParser()
ap.add_argument('--max-function', type=int, default=90)
ap.add_argument('--max-file', type=int, default=0, help='0: no limit on file length')
ap.add_argument('--makefile', help="where LIB_STAGES is (default: SRC_DIR/../Makefile)")
ap.add_argument('--stages', help='the stages in order, instead of the Makefile\'s LIB_STAGES')
ap.add_argument('--tool-folders', help='the tool\'s folders in order, instead of the Makefile\'s TOOL_FOLDERS')
ap.add_argument('--max-fields', type=int, default=0, help='0: no limit on a tool struct\'s members')
ap.add_argument('--after', default='tool', help='folders ranked after the stages (space separated)')
ap.add_argument('src', nargs='?', default='src')
opt = ap.parse_args()
src = os.path.normpath(opt.src)


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def code_only(text):
    """The text without comments and string literals."""
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', ' ', text, flags=re.S)


def make_list(given, name):
    """The words of the Makefile's NAME, or `given` when given."""
    if given is not None:
        return given.split()
    mk = opt.makefile or os.path.join(src, '..', 'Makefile')
    m = re.search(r'^' + name + r'\s*:?=\s*(.*)$', read(mk), re.M)
    if not m:
        sys.exit(f'layer-check: no {name} in {mk}')
    return m.group(1).split()


TOOL = 'tool'
order = (make_list(opt.stages, 'LIB_STAGES') +
         [f'{TOOL}/{d}' for d in make_list(opt.tool_folders, 'TOOL_FOLDERS')] +
         opt.after.split())
rank = {name: i for i, name in enumerate(order)}
rel = lambda f: os.path.relpath(f, src)
folder = lambda f: os.path.dirname(rel(f)) or '.'
files = sorted(glob.glob(os.path.join(src, '**', '*.c'), recursive=True))
headers = sorted(glob.glob(os.path.join(src, '**', '*.h'), recursive=True))
texts = {f: read(f) for f in files + headers}
codes = {f: code_only(t) for f, t in texts.items()}

# Function definitions and their lengths.
# A definition's first line: a name and '(' at the margin, and before any
# '{' (a body on the same line) no ';' (a declaration) and no '=' (data).
DEF = re.compile(r'^(static\s+)?(?:inline\s+)?[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(')
defs, lengths = {}, []
for f in files:
    lines = texts[f].split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DEF.match(line)
        head = line.split('{', 1)[0]
        if m and not line[:1].isspace() and ';' not in head and '=' not in head \
                and not line.startswith(('#', '}')):
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
                lengths.append((k - i + 1, rel(f), m.group(2)))
                if not m.group(1):
                    defs[m.group(2)] = f
                i = k
        i += 1

# Who uses whom: calls (any file naming another's function) and includes.
faults = []
calls = {f: {} for f in files + headers}
for f in files + headers:
    for w in set(re.findall(r'\b[A-Za-z_]\w*\b', codes[f])):
        g = defs.get(w)
        if g and g != f:
            calls[f].setdefault(g, w)


def in_tool(f):
    return rel(f) == TOOL or rel(f).startswith(TOOL + os.sep)


def resolve(includer, name):
    """The header an include names, found as the compiler does: the tool
    is compiled with SRC_DIR/tool on its path, the library with SRC_DIR."""
    root = os.path.join(src, TOOL) if in_tool(includer) else src
    for base in (os.path.dirname(includer), root):
        p = os.path.normpath(os.path.join(base, name))
        if p in texts:
            return p
    return None


includes = {f: [] for f in files + headers}
for f in files + headers:
    for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', texts[f], re.M):
        h = resolve(f, name)
        if h:
            includes[f].append(h)


def later(f, g):
    """True when g lives in a stage after f's."""
    return rank.get(folder(g), -1) > rank.get(folder(f), len(order))


for d in sorted({folder(f) for f in files + headers}):
    if d not in rank:
        faults.append(f"unranked folder: {d} (not in LIB_STAGES or --after '{opt.after}')")
for f in files + headers:
    for h in includes[f]:
        if later(f, h):
            faults.append(f'upward include: {rel(f)} includes {rel(h)} '
                          f'({folder(h)} comes after {folder(f)})')
    for g, w in sorted(calls[f].items()):
        if later(f, g):
            what = 'declares' if f.endswith('.h') else 'calls'
            kind = 'upward declaration' if f.endswith('.h') else 'upward call'
            faults.append(f'{kind}: {rel(f)} {what} {w} of {rel(g)} '
                          f'({folder(g)} comes after {folder(f)})')


def circles(uses):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in uses[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))
    for v in uses:
        if v not in index:
            visit(v)
    return sccs


sys.setrecursionlimit(10000)
for c in circles({f: set(calls[f]) & set(files) for f in files}):
    faults.append('file circle: ' + ' <-> '.join(rel(f) for f in c))
lengths.sort(reverse=True)
for n, f, name in lengths:
    if n > opt.max_function:
        faults.append(f'long function: {f}:{name} {n} lines (over {opt.max_function})')
for h in headers:
    n = texts[h].count('\n')
    if n > 200:
        faults.append(f'long private header: {rel(h)} {n} lines (over 200)')
if opt.max_file:
    for f in files:
        n = texts[f].count('\n')
        if n > opt.max_file:
            faults.append(f'long file: {rel(f)} {n} lines (over {opt.max_file})')


def struct_sizes(f):
    """(name, members, line) of each struct or union body in file f: the
    declarations of its body (a nested body counts as one), each name
    declared a member."""
    text = codes[f]
    out = []
    for m in re.finditer(r'\b(?:struct|union)\s+(\w*)\s*\{', text):
        body, depth, i = '', 1, m.end()
        while i < len(text) and depth:
            ch = text[i]
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
            elif depth == 1:
                body += ch
            i += 1
        tail = re.match(r'\s*(\w+)', text[i:])
        name = m.group(1) or (tail.group(1) if tail else '(anonymous)')
        # Commas inside a function pointer's parameters or an array's size
        # separate no members.
        body = re.sub(r'\([^()]*\)', '()', re.sub(r'\([^()]*\)', '()', body))
        body = re.sub(r'\[[^\]]*\]', '[]', body)
        members = sum(d.count(',') + 1 for d in body.split(';') if d.strip())
        out.append((name, members, text.count('\n', 0, m.start()) + 1))
    return out


if opt.max_fields:
    for f in files + headers:
        if not in_tool(f):
            continue
        for name, n, line in struct_sizes(f):
            if n > opt.max_fields:
                faults.append(f'big struct: {rel(f)}:{line} {name} has {n} '
                              f'members (over {opt.max_fields})')
top = ', '.join(f'{b}:{c} {a}' for a, b, c in lengths[:3])
print(f"stages: {' -> '.join(order)}; {len(files)} sources, {len(headers)} headers; "
      f'longest functions: {top}; faults: {len(faults)}')
for line in faults:
    print(line)
sys.exit(1 if faults else 0)
