#!/usr/bin/env python3
"""mkeventlog.py DIR -- writes the eventlog fixtures of tests/data/eventlogs:
for each, NAME.eventlog in the byte layout of one GHC runtime and
NAME.expected.hp, the censuses it holds as .hp text (what hp2x must read
from it; compare with tests/tools/hpcompare.py).  The same fixtures are
written every time (no clock, no randomness), so the committed files can be
checked against this script.

Layouts (event numbers and payloads as GHC's rts/eventlog/EventLog.c and
rts/include/rts/EventLogFormat.h write them):
  8.2   no HEAP_PROF_SAMPLE_END (165): a census ends at the next one or at
        the data end; the last block's size stops before the data end
  9.0   165 after every census; HEAP_BIO_PROF_SAMPLE_BEGIN (166) for -hb
  9.2   also IPE (169), BLOCKS_SIZE (91); the last block's size counts the
        2-byte data-end marker, as every runtime from 9.2 on writes it
  9.10  as 9.2, and breakdown 9 (-he, eras); IPE events declare one byte
        more than they hold, as GHC 9.6 and 9.10 write them (real files:
        tests/data/ghc-modern)
Every layout declares and emits event types hp2x does not read (a thread
event, GC events, a type numbered 250 that no GHC has) so that skipping is
exercised, and spreads events over blocks of several capabilities, heap
events in the global block (capability 0xFFFF) interleaved with them.
"""
import os
import struct
import sys

VAR = -1
TYPES = {  # id: (size, description)
    0: (4, "Create thread"), 9: (0, "Starting GC"), 10: (0, "Finished GC"),
    18: (14, "Block marker"), 29: (VAR, "RTS name and version"),
    30: (VAR, "Program arguments"), 43: (16, "Wall clock time"),
    50: (12, "Current heap size"), 51: (12, "Current heap live data"),
    58: (VAR, "User marker"), 91: (12, "Current heap blocks size"),
    160: (VAR, "Start of heap profile"),
    161: (VAR, "Cost-centre definition"),
    162: (8, "Start of heap profile sample"),
    163: (VAR, "Heap profile cost-centre sample"),
    164: (VAR, "Heap profile string sample"),
    165: (8, "End of heap profile sample"),
    166: (16, "Start of heap profile (biographical) sample"),
    169: (VAR, "IPE"), 250: (VAR, "A type no GHC has yet"),
}
LAYOUT_TYPES = {
    "8.2": [0, 9, 10, 18, 29, 30, 43, 50, 51, 58, 160, 161, 162, 163, 164, 250],
    "9.0": [0, 9, 10, 18, 29, 30, 43, 50, 51, 58, 160, 161, 162, 163, 164,
            165, 166, 250],
}
LAYOUT_TYPES["9.2"] = LAYOUT_TYPES["9.0"] + [91, 169]
LAYOUT_TYPES["9.10"] = LAYOUT_TYPES["9.2"]
GLOBAL = 0xFFFF
FLAGS = {1: "-hc", 2: "-hm", 3: "-hd", 4: "-hy", 5: "-hr", 6: "-hb",
         7: "-hT", 8: "-hi", 9: "-he"}


def ev(tag, t_ns, payload):
    size = TYPES[tag][0]
    head = struct.pack(">HQ", tag, t_ns)
    if size == VAR:
        return head + struct.pack(">H", len(payload)) + payload
    assert len(payload) == size, (tag, len(payload))
    return head + payload


def cstr(s):
    return s.encode() + b"\0"


def header(layout):
    out = [b"hdrb", b"hetb"]
    for tag in LAYOUT_TYPES[layout]:
        size, desc = TYPES[tag]
        d = desc.encode()
        out.append(b"etb\0" + struct.pack(">Hh", tag, size) +
                   struct.pack(">I", len(d)) + d + struct.pack(">I", 0) +
                   b"ete\0")
    out += [b"hete", b"hdre", b"datb"]
    return b"".join(out)


class Log:
    """Events per buffer (capability or global), written out as blocks."""

    def __init__(self, layout):
        self.layout = layout
        self.blocks = []          # (cap, [event bytes], end time)
        self.hp = []              # expected .hp lines

    def block(self, cap, events):
        end = max((struct.unpack(">Q", e[2:10])[0] for e in events),
                  default=0)
        self.blocks.append((cap, events, end))

    def data(self):
        """The data section and the offsets at which each block begins
        (relative to its start)."""
        out, starts, pos = [], [], 0
        for i, (cap, events, end) in enumerate(self.blocks):
            body = b"".join(events)
            size = 24 + len(body)
            if i == len(self.blocks) - 1 and self.layout in ("9.2", "9.10"):
                size += 2  # GHC >= 9.2: the data end counts in the block
            marker = ev(18, 0, struct.pack(">IQH", size, end, cap))
            starts.append(pos)
            out.append(marker + body)
            pos += len(marker) + len(body)
        return b"".join(out) + b"\xff\xff", starts


def run_info(t, breakdown, layout):
    flag = FLAGS[breakdown]
    args = ["./prog", "10", "+RTS", flag, "-l", "-i0.1", "-RTS"]
    return [
        ev(43, t, struct.pack(">IQI", 0, 1700000000, 0)),
        ev(29, t, struct.pack(">I", 0) + b"GHC-" + layout.encode() +
           b" rts_thr_p"),
        ev(30, t, struct.pack(">I", 0) + b"".join(cstr(a) for a in args)),
    ], "prog 10 +RTS %s -l -i0.1" % flag


def heap_begin(t, breakdown):
    return ev(160, t, struct.pack(">BQI", 0, 100000000, breakdown) +
              cstr("") * 7)  # the seven filters, all empty


# Cost centres of the -hc fixtures: id -> (label, module).
CCS = {1: ("main", "Main"), 2: ("build", "Main"), 3: ("go", "Data.Thing"),
       4: ("CAF", "Main")}
STACKS = {"main": [1], "build/main": [2, 1], "go/build/main": [3, 2, 1],
          "Main.CAF": [4], "MAIN": []}


def census_labels(breakdown, k):
    """The (label, bytes) entries of census k (0-based) of a breakdown."""
    names = {
        1: list(STACKS),
        2: ["Main", "Data.Map.Internal", "GHC.Base"],
        3: ["Node", "Tip", "(,)", "<Main.sat_s1>"],
        4: ["Map", "Int", "[]", "->"],
        5: ["(2)build", "(3)MAIN", "(4)SYSTEM"],
        6: ["LAG", "DRAG", "VOID", "USE", "INHERENT_USE"],
        7: ["ARR_WORDS", "Bin", "THUNK_1_0", "MUT_ARR_PTRS_CLEAN"],
        8: ["0x4c8e48", "0x4c8e70", "0x4d0000", "0x4d1130", "0x4d1158"],
        9: [str(e) for e in range(1, k + 2)],
    }[breakdown]
    return [(n, 1000 * (i + 1) * (k + 2) + 8 * k) for i, n in
            enumerate(names)]


# -hi: what the IPE events say; 0x4d0000 has none.  0x4d1130 and 0x4d1158
# have the same description, so both show their address.
IPES = {
    0x4c8e48: ("Just", "2", "Maybe", "", "GHC.Maybe",
               "libraries/base/GHC/Maybe.hs:29:5-8"),
    0x4c8e70: ("sat_s1ab_info", "15", "Int", "build", "Main",
               "prog.hs:12:3-40"),
    0x4d1130: ("Tip", "2", "Set", "", "Data.Set.Internal", ":"),
    0x4d1158: ("Tip", "2", "Set", "", "Data.Set.Internal", ":"),
}
IPE_NAMES = {  # the names hp2x gives them (eventlog_ipe.c)
    "0x4c8e48": "Just libraries/base/GHC/Maybe.hs:29:5-8",
    "0x4c8e70": "thunk in build prog.hs:12:3-40",
    "0x4d0000": "0x4d0000",
    "0x4d1130": "Tip in Data.Set.Internal 0x4d1130",
    "0x4d1158": "Tip in Data.Set.Internal 0x4d1158",
}


def ipe_event(layout, t, addr):
    """As real runtimes write it: the info pointer, then six NUL-terminated
    strings.  GHC 9.2 declares their length; GHC 9.6 and 9.10 (measured on
    their files) declare one byte more than they write, so the next event
    starts one byte before the declared end."""
    payload = struct.pack(">Q", addr) + b"".join(cstr(f) for f in IPES[addr])
    declared = len(payload) + (1 if layout == "9.10" else 0)
    return struct.pack(">HQH", 169, t, declared) + payload


def sample_events(log, breakdown, k, t):
    """The events of census k at time t (ns), and its expected .hp lines."""
    layout = log.layout
    entries = census_labels(breakdown, k)
    out = []
    if breakdown == 6 and layout != "8.2":
        out.append(ev(166, t + 5000000000, struct.pack(">QQ", 4, t)))
    else:
        out.append(ev(162, t, struct.pack(">Q", 0)))
    for label, value in entries:
        if breakdown == 1:
            ids = STACKS[label]
            out.append(ev(163, t + 1, struct.pack(">BQB", 0, value, len(ids))
                          + b"".join(struct.pack(">I", i) for i in ids)))
        else:
            out.append(ev(164, t + 1, struct.pack(">BQ", 0, value) +
                          cstr(label)))
    if layout != "8.2":
        out.append(ev(165, t + 2, struct.pack(">Q", 0)))
    ts = "%.6f" % (t / 1e9)
    lines = ["BEGIN_SAMPLE " + ts]
    lines += ["%s\t%d" % (l, v) for l, v in entries]
    lines.append("END_SAMPLE " + ts)
    return out, lines


def cap_events(cap, t0, n):
    """Events of capability `cap`: threads, GCs, heap sizes, a marker, the
    unknown type 250; timestamps from t0 on."""
    out = []
    for i in range(n):
        t = t0 + i * 1000000
        out.append(ev(0, t, struct.pack(">I", cap * 100 + i)))
        out.append(ev(9, t + 10, b""))
        out.append(ev(50, t + 20, struct.pack(">IQ", 0, 1 << 20 + i % 4)))
        out.append(ev(250, t + 30, bytes(range(i % 7))))
        out.append(ev(10, t + 40, b""))
    return out


def build(layout, breakdown, censuses=4, ipe_after=False, profile=True,
          late_begin=False):
    log = Log(layout)
    info, job = run_info(1000, breakdown, layout)
    if not profile:  # a plain -l run: no heap profile, capabilities only
        log.block(GLOBAL, info)
        for k in range(censuses):
            log.block(k % 2, cap_events(k % 2, 100000000 * (k + 1), 3))
        return log, []
    if late_begin:  # a live eventlog's first flushes, before the profile
        log.block(GLOBAL, info)
        log.block(0, cap_events(0, 10000, 2))
        info = []
    glob = info + [heap_begin(2000, breakdown)]
    if breakdown == 1:
        glob += [ev(161, 3000, struct.pack(">I", i) + cstr(l) + cstr(m) +
                    cstr("prog.hs:1:1") + bytes([99 if l == "CAF" else 0]))
                 for i, (l, m) in CCS.items()]
    if breakdown == 8 and not ipe_after:
        glob += [ipe_event(layout, 3000, a) for a in IPES]
    log.block(GLOBAL, glob)
    expected = ['JOB "%s"' % job, 'DATE ""', 'SAMPLE_UNIT "seconds"',
                'VALUE_UNIT "bytes"']
    for k in range(censuses):
        t = 100000000 * (k + 1)
        # capabilities' blocks interleave with the global one's
        log.block(k % 2, cap_events(k % 2, t - 50000000, 3))
        evs, lines = sample_events(log, breakdown, k, t)
        if breakdown == 8 and ipe_after and k == censuses - 1:
            evs += [ipe_event(layout, t + 3, a) for a in IPES]
        log.block(GLOBAL, evs)
        expected += lines
    return log, expected


FIXTURES = {}
for _b in range(1, 10):
    FIXTURES["ghc92-%s" % FLAGS[_b][1:]] = ("9.2" if _b != 9 else "9.10",
                                            _b, {})
FIXTURES["ghc92-hi-ipe-after"] = ("9.2", 8, {"ipe_after": True})
FIXTURES["ghc910-hi"] = ("9.10", 8, {})
FIXTURES["ghc910-hi-ipe-after"] = ("9.10", 8, {"ipe_after": True})
FIXTURES["ghc90-hc"] = ("9.0", 1, {})
FIXTURES["ghc82-hd"] = ("8.2", 3, {})
FIXTURES["ghc92-live"] = ("9.2", 7, {"censuses": 12, "late_begin": True})
FIXTURES["ghc92-no-heap-profile"] = ("9.2", 7, {"profile": False})


def write_fixture(d, name):
    layout, breakdown, kw = FIXTURES[name]
    log, expected = build(layout, breakdown, **kw)
    data, starts = log.data()
    head = header(layout)
    with open(os.path.join(d, name + ".eventlog"), "wb") as f:
        f.write(head + data)
    if expected:
        with open(os.path.join(d, name + ".expected.hp"), "w") as f:
            f.write("\n".join(expected) + "\n")
    with open(os.path.join(d, name + ".blocks"), "w") as f:
        f.write("".join("%d\n" % (len(head) + s) for s in starts))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    for name in FIXTURES:
        write_fixture(d, name)


if __name__ == "__main__":
    main()
