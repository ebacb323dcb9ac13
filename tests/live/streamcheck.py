#!/usr/bin/env python3
"""streamcheck.py: what an eventlog client received, checked against the run's own .hp.

    streamcheck.py RUN.hp STREAM...

For each STREAM (the bytes one client received) it prints the facts the live check
records: size, where the header ends, whether HEAP_PROF_BEGIN (160) is there, the
censuses (HEAP_PROF_SAMPLE_BEGIN 162 / _STRING 164 / _END 165) and the first one's time,
and how the stream ends (the data-end marker 0xffff, an event boundary, or inside an
event).  Then it checks that every census of the stream equals one census of RUN.hp,
matched by content (band -> bytes), in order; times differ (the eventlog counts wall
time since the runtime started, the .hp counts mutator time).

Exit status: 0 all censuses match, 1 a census does not (or a stream has none, or is
not an eventlog), 2 usage.  Self-contained: the container format is walked here.
"""

import struct
import sys

DATA_END = 0xFFFF
VARIABLE = 0xFFFF
HEAP_PROF_BEGIN = 160
SAMPLE_BEGIN, SAMPLE_STRING, SAMPLE_END = 162, 164, 165


class Stream:
    def __init__(self, data):
        self.data = data
        self.header_end = None      # just past "datb"
        self.counts = {}            # event number -> count
        self.censuses = []          # (era, time_ns, {label: bytes}, offset)
        self.census_ends = []       # just past each census's _END event
        self.first_offset = {}      # event number -> offset of its first event
        self.data_end = None        # offset of the 0xffff marker
        self.whole_until = 0        # end of the last whole event
        self.problem = None


def _walk_header(s):
    d = s.data
    if d[:8] != b"hdrbhetb":
        raise ValueError("byte 0: no eventlog header")
    pos, sizes = 8, {}
    while d[pos:pos + 4] != b"hete":
        if d[pos:pos + 4] != b"etb\0":
            raise ValueError("byte %d: bad event-type table" % pos)
        num, size, dlen = struct.unpack_from(">HHI", d, pos + 4)
        pos += 12 + dlen
        (elen,) = struct.unpack_from(">I", d, pos)
        pos += 4 + elen + 4          # extra info, then "ete\0"
        sizes[num] = size
    if d[pos + 4:pos + 12] != b"hdredatb":
        raise ValueError("byte %d: header does not end in hdre datb" % (pos + 4))
    s.header_end = pos + 12
    return sizes


def parse_stream(data):
    s = Stream(data)
    try:
        sizes = _walk_header(s)
    except (ValueError, struct.error) as e:
        s.problem = str(e) if isinstance(e, ValueError) else "header cut short"
        return s
    d, pos = data, s.header_end
    open_census = None
    s.whole_until = pos
    while pos + 2 <= len(d):
        (num,) = struct.unpack_from(">H", d, pos)
        if num == DATA_END:
            s.data_end = pos
            s.whole_until = pos + 2
            break
        if num not in sizes:
            s.problem = "byte %d: event type %d not in the header" % (pos, num)
            break
        if pos + 10 > len(d):
            break
        (time,) = struct.unpack_from(">Q", d, pos + 2)
        body = pos + 10
        if sizes[num] == VARIABLE:
            if body + 2 > len(d):
                break
            (plen,) = struct.unpack_from(">H", d, body)
            body += 2
        else:
            plen = sizes[num]
        if body + plen > len(d):
            break
        payload = d[body:body + plen]
        s.counts[num] = s.counts.get(num, 0) + 1
        s.first_offset.setdefault(num, pos)
        if num == SAMPLE_BEGIN:
            open_census = (struct.unpack_from(">Q", payload)[0], time, {}, pos)
        elif num == SAMPLE_STRING and open_census is not None:
            (value,) = struct.unpack_from(">Q", payload, 1)
            label = payload[9:].split(b"\0", 1)[0]
            open_census[2][label] = open_census[2].get(label, 0) + value
        elif num == SAMPLE_END and open_census is not None:
            s.censuses.append(open_census)
            s.census_ends.append(body + plen)
            open_census = None
        pos = body + plen
        s.whole_until = pos
    return s


def parse_hp(path):
    """The censuses of a .hp file, as {label: bytes}, in order."""
    censuses, current = [], None
    with open(path, "rb") as f:
        for line in f:
            line = line.rstrip(b"\n")
            if line.startswith(b"BEGIN_SAMPLE"):
                current = {}
            elif line.startswith(b"END_SAMPLE"):
                if current is not None:
                    censuses.append(current)
                current = None
            elif current is not None and b"\t" in line:
                label, value = line.rsplit(b"\t", 1)
                current[label] = current.get(label, 0) + int(value)
    return censuses


def match_in_order(stream_censuses, hp_censuses):
    """Index into hp_censuses of each stream census, in order; None where none matches."""
    out, at = [], 0
    for _, _, bands, _ in stream_censuses:
        found = None
        for i in range(at, len(hp_censuses)):
            if hp_censuses[i] == bands:
                found = i
                break
        out.append(found)
        if found is not None:
            at = found + 1
    return out


def describe_end(s):
    n = len(s.data)
    if s.data_end is not None:
        tail = n - (s.data_end + 2)
        return "data-end marker at byte %d%s" % (
            s.data_end, "" if tail == 0 else " then %d more bytes" % tail)
    if s.whole_until == n:
        return "no data-end marker; ends at an event boundary (byte %d)" % n
    return "no data-end marker; cut inside an event: last whole event ends at byte %d of %d" % (
        s.whole_until, n)


def check(hp_path, stream_paths):
    hp = parse_hp(hp_path)
    print("%s: %d censuses" % (hp_path, len(hp)))
    ok = True
    for path in stream_paths:
        with open(path, "rb") as f:
            s = parse_stream(f.read())
        print("%s: %d bytes" % (path, len(s.data)))
        if s.header_end is None:
            print("  NOT AN EVENTLOG: %s" % s.problem)
            ok = False
            continue
        print("  header ends at byte %d" % s.header_end)
        if HEAP_PROF_BEGIN in s.counts:
            print("  HEAP_PROF_BEGIN (160): yes, at byte %d" % s.first_offset[HEAP_PROF_BEGIN])
        else:
            print("  HEAP_PROF_BEGIN (160): no")
        init = [n for n in (29, 30, 32, 33, 43, 52) if n in s.counts]
        print("  init events present: %s" % " ".join(map(str, init)))
        print("  " + describe_end(s))
        if s.problem:
            print("  PROBLEM: %s" % s.problem)
            ok = False
        if not s.censuses:
            print("  NO CENSUS")
            ok = False
            continue
        _, t0, _, off = s.censuses[0]
        _, t1, _, off1 = s.censuses[-1]
        print("  censuses: %d; first at byte %d, time %.6f s; last at byte %d, time %.6f s"
              % (len(s.censuses), off, t0 / 1e9, off1, t1 / 1e9))
        matches = match_in_order(s.censuses, hp)
        missing = [i for i, m in enumerate(matches) if m is None]
        if missing:
            _, _, _, o = s.censuses[missing[0]]
            print("  MISMATCH: %d of %d censuses equal none of the .hp's (first at byte %d)"
                  % (len(missing), len(matches), o))
            ok = False
        else:
            skipped = matches[-1] - matches[0] + 1 - len(matches)
            print("  every census equals one of the .hp, in order: .hp censuses %d..%d"
                  " (0-based) of %d; %s"
                  % (matches[0], matches[-1], len(hp),
                     "none skipped" if skipped == 0 else "%d skipped" % skipped))
    return ok


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    return 0 if check(argv[1], argv[2:]) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
