#!/usr/bin/env python3
"""pprof_check.py -- holds what the real `go tool pprof -raw` read of an
hp2x pprof profile against the same run's CSV (hp2x -m0 -t0: every label a
column).  tests/e2e/test_pprof.sh runs it.

  pprof_check.py RAW CSV [STACKS]

RAW is `go tool pprof -raw` of the profile (UTF-8), CSV the run's CSV
(its labels' bytes as hp2x shows them).  Checks that
every sample has the same census_time, that a CSV row has that time, that
the samples' values add up to that row's total and are its non-zero values
(each stack's value is its label's), and, with STACKS:
  eventlog  each sample's frames, leaf first, joined by '/', are a column
            of that value (an eventlog -hc stack is its label, whole)
  hp        "(ccs_id)" (where the sample has one: not MAIN) and the
            frames joined by '/' are a column of that value (a .hp -hc
            label, split)
Prints one line of JSON: samples, total, census_time (ns), max_depth (the
deepest stack), located (locations with a file and a line > 0), cut
(samples labelled cut), comments; exits 1 with what differs.
"""
import codecs
import csv
import io
import json
import re
import sys

# A label's bytes as hp2x shows them (draw/render_text.c): UTF-8 where
# they are, else each byte as Latin-1; control characters U+FFFD.
codecs.register_error('hp2x_latin1',
                      lambda e: (chr(e.object[e.start]), e.start + 1))


def shown(b):
    t = b.decode('utf-8', errors='hp2x_latin1')
    return ''.join('\ufffd' if ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 else c
                   for c in t)

LOC = re.compile(r'^\s*(\d+): 0x[0-9a-f]+ M=\d+ (.*) (\S*):(\d+) s=(\d+)'
                 r'(?:\((.*)\))?$')
SAMPLE = re.compile(r'^\s+(-?\d+): ((?:\d+ )*)$')
LABEL = re.compile(r'(\w+):\[([^\]]*)\]')


def read_raw(path):
    comments, samples, locs, part = [], [], {}, None
    for line in open(path, encoding='utf-8'):  # must be UTF-8
        line = line.rstrip('\n')
        if line.startswith('Comment: '):
            comments.append(line[9:])
        elif line == 'Samples:':
            part = 'samples'
        elif line == 'Locations':
            part = 'locations'
        elif line == 'Mappings':
            part = 'mappings'
        elif part == 'samples':
            m = SAMPLE.match(line)
            if m:
                ids = [int(x) for x in m.group(2).split()]
                samples.append({'value': int(m.group(1)), 'locs': ids,
                                'labels': {}})
            elif samples and LABEL.search(line):
                for k, v in LABEL.findall(line):
                    samples[-1]['labels'][k] = v
        elif part == 'locations':
            m = LOC.match(line)
            if m:
                locs[int(m.group(1))] = (m.group(2), m.group(3),
                                         int(m.group(4)))
    return comments, samples, locs


def main(argv):
    raw, csv_path = argv[1], argv[2]
    stacks = argv[3] if len(argv) > 3 else ''
    comments, samples, locs = read_raw(raw)
    text = open(csv_path, 'rb').read().decode('latin-1')
    rows = list(csv.reader(io.StringIO(text, newline='')))
    names = [shown(n.encode('latin-1')) for n in rows[0][1:]]
    bad = []
    times = {s['labels'].get('census_time') for s in samples}
    if len(times) != 1 or None in times:
        bad.append('census_time labels: %s' % sorted(map(str, times)))
        print('\n'.join(bad))
        return 1
    ns = int(times.pop().split()[0])
    row = [r for r in rows[1:] if abs(float(r[0]) * 1e9 - ns) < 1000]
    if len(row) != 1:
        print('no CSV row at %d ns (%d found)' % (ns, len(row)))
        return 1
    values = [int(v) for v in row[0][1:]]
    total = sum(s['value'] for s in samples)
    if total != sum(values):
        bad.append('total %d, the CSV row %d' % (total, sum(values)))
    if sorted(s['value'] for s in samples) != sorted(v for v in values if v):
        bad.append('the samples are not the row\'s values')
    columns = {}  # stacks that print alike are columns of one name
    for n, v in zip(names, values):
        columns.setdefault(n, []).append(v)
    for s in samples:
        frames = [locs[i][0] for i in s['locs']]
        name = '/'.join(frames)
        if stacks == 'hp' and 'ccs_id' in s['labels']:  # not MAIN
            name = '(%s)%s' % (s['labels']['ccs_id'], name)
        if stacks and s['value'] not in columns.get(name, []):
            bad.append('stack %s: %d, its columns %s' %
                       (name[:200], s['value'], columns.get(name)))
        elif stacks:
            columns[name].remove(s['value'])
    if bad:
        print('\n'.join(bad[:10]))
        return 1
    print(json.dumps({
        'samples': len(samples), 'total': total, 'census_time': ns,
        'max_depth': max((len(s['locs']) for s in samples), default=0),
        'located': sum(1 for n, f, l in locs.values() if f and l > 0),
        'cut': sum(1 for s in samples if 'cut' in s['labels']),
        'comments': comments}))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
