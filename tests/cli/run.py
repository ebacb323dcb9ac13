#!/usr/bin/env python3
"""run.py HP2X CASES... -- runs the command-line cases of each CASES file
(tests/cli/cases.test says how they are written) with the binary HP2X,
each in a fresh empty directory, and prints each case that fails as
FILE:LINE: what went wrong, then "N cases, M failed".  Exits 1 when one
failed or a file cannot be read as cases, else 0.

Names a case may use in its arguments: $P (samples/profiles), $D
(tests/data), both under TOP (the environment's, else this file's
repository).
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

TIMEOUT = 60  # seconds: a case that hangs fails, it does not stop the run


class CaseError(Exception):
    """A case file that cannot be read; names its line."""


def read_cases(path):
    """Yields (line, args, status, checks) for each block of path."""
    block, start = [], 0
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for number, text in enumerate(lines + [''], 1):
        if text.startswith('#'):
            continue
        if text.strip():
            if not block:
                start = number
            block.append((number, text))
            continue
        if block:
            yield parse_block(path, start, block)
            block = []


def parse_block(path, start, block):
    """One case: its arguments, its exit status, then its checks."""
    if len(block) < 2 or not re.fullmatch(r'[0-9]+', block[1][1].strip()):
        raise CaseError(f'{path}:{start}: a case is its arguments, then its '
                        'exit status on the next line')
    args = shlex.split(block[0][1])
    checks = []
    for number, text in block[2:]:
        m = re.fullmatch(r'(stderr|stdout|!stderr|files): ?(.*)', text)
        if not m:
            raise CaseError(f'{path}:{number}: not a check '
                            f'(stderr:, !stderr:, stdout: or files:): {text}')
        if m.group(1) != 'files':
            try:
                re.compile(m.group(2))
            except re.error as e:
                raise CaseError(f'{path}:{number}: bad pattern: {e}') from e
        checks.append((number, m.group(1), m.group(2)))
    return start, args, int(block[1][1]), checks


def expand(word, names, where):
    """$NAME and ${NAME} in word, from names; any other $ is refused."""
    def one(m):
        name = m.group(1) or m.group(2)
        if name not in names:
            raise CaseError(f'{where}: no ${name} (known: '
                            f'{", ".join("$" + n for n in sorted(names))})')
        return names[name]
    return re.sub(r'\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})',
                  one, word)


def run_case(hp2x, where, args, status, checks, names):
    """Returns the case's problems (empty when it passes)."""
    argv = [hp2x] + [expand(a, names, where) for a in args]
    with tempfile.TemporaryDirectory() as work:
        try:
            run = subprocess.run(argv, cwd=work, stdin=subprocess.DEVNULL,
                                 capture_output=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return [f'{where}: no exit within {TIMEOUT} s']
        left = sorted(os.listdir(work))
    out = run.stdout.decode('utf-8', 'replace')
    err = run.stderr.decode('utf-8', 'replace')
    problems = []
    if run.returncode != status:
        problems.append(f'{where}: exit {run.returncode}, wanted {status}')
    files = []
    for number, kind, pattern in checks:
        at = f'{where.split(":")[0]}:{number}'
        if kind == 'files':
            files += pattern.split()
        elif kind == '!stderr':
            if re.search(pattern, err, re.M):
                problems.append(f'{at}: stderr matches /{pattern}/')
        elif not re.search(pattern, out if kind == 'stdout' else err, re.M):
            problems.append(f'{at}: {kind} does not match /{pattern}/')
    if left != sorted(files):
        problems.append(f'{where}: left {left or "nothing"}, wanted '
                        f'{sorted(files) or "nothing"}')
    if problems:
        problems.append('    ' + shlex.join(argv[1:]))
        problems += ['    stderr: ' + line for line in err.splitlines()[:5]]
    return problems


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: run.py HP2X CASES...')
    hp2x = os.path.abspath(sys.argv[1])
    top = os.environ.get('TOP') or os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    names = {'P': os.path.join(top, 'samples', 'profiles'),
             'D': os.path.join(top, 'tests', 'data')}
    count = failed = 0
    try:
        for path in sys.argv[2:]:
            name = os.path.relpath(path, top)
            for line, args, status, checks in read_cases(path):
                count += 1
                problems = run_case(hp2x, f'{name}:{line}', args, status,
                                    checks, names)
                if problems:
                    failed += 1
                    print('\n'.join(problems))
    except (CaseError, OSError) as e:
        print(f'run.py: {e}')
        print(f'{count} cases, {failed} failed, then stopped')
        return 1
    print(f'{count} cases, {failed} failed')
    return 1 if failed or count == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
