#!/usr/bin/env python3
"""seeds.py TOP OUT -- small seed corpora for the libFuzzer targets.

Writes OUT/hp_parse, OUT/eventlog_parse, OUT/pipeline, OUT/stream,
OUT/threads (and
OUT/serve_request, a few requests) from
the real GHC
profiles in TOP/samples/profiles and tests/data/ghc-modern (GHC 9.6 and
9.10: IPE events as they write them, -he, a file corrupt as written) and
the small cases in tests/data (the eventlog fixtures of every GHC layout
among them): every
seed is a few KB, so each execution is cheap and the fuzzer spends its time
mutating structure, not re-reading half a megabyte of samples.

.hp seeds: the header, the first K samples (at most ENTRIES lines each) and
the file's last sample (GHC's closing empty sample), plus copies cut inside
a sample.  Eventlog seeds: a real eventlog rewritten to the events hp2x
reads (RTS identity, program arguments, wall clock, HEAP_PROF_BEGIN, the
cost centres the kept samples use, the first K samples, a few markers and
heap-size events, two events hp2x skips), a header that declares only the
types those events use (descriptions dropped), one block marker sized to
the data, and the end-of-data marker; plus copies cut short (truncated
input is valid).  Pipeline seeds: 8 option bytes (see fuzz_pipeline.c) in
front of a selection of both, half of them with the rarer options on.
Stream seeds: every seed of both kinds behind 4 bytes (see fuzz_stream.c)
that vary the kind, the picture, how often it is drawn, the chunks
(1 byte to 64 KiB) and the profile's bound.  Threads seeds: the same, the
eventlogs cut again into blocks of 200 to 800 bytes, behind 4 bytes (see
fuzz_threads.c): the kind, the threads, the bound, parts and chunks.
"""

import glob
import gzip
import os
import struct
import sys

ENTRIES = 10          # entry lines (or events) kept per sample
HP_KEEP = (1, 4)      # samples kept from each .hp
EV_KEEP = (2, 5)      # samples kept from each eventlog
SMALL = 64 * 1024     # tests/data files up to this size are taken whole


def cut_hp(text, keep):
    lines = text.split(b"\n")
    header, samples, cur, marks = [], [], None, []
    for ln in lines:
        if cur is None:
            if ln.startswith(b"BEGIN_SAMPLE"):
                cur = [ln]
            elif ln.startswith(b"MARK"):
                marks.append(ln)
            elif not samples:
                header.append(ln)
        else:
            cur.append(ln)
            if ln.startswith(b"END_SAMPLE"):
                samples.append(cur)
                cur = None
    if len(samples) < 2:
        return None
    body = []
    for s in samples[:keep] + samples[-1:]:
        body += s[:1 + ENTRIES] + s[-1:] if len(s) > ENTRIES + 2 else s
    return b"\n".join(header + marks[:2] + body) + b"\n"


class Eventlog:
    """The container format only: header types, events with their offsets."""

    def __init__(self, data):
        if data[:8] != b"hdrbhetb":
            raise ValueError("not an eventlog")
        self.types = {}    # num -> (size, desc)
        pos = 8
        while data[pos:pos + 4] == b"etb\0":
            num, size, dlen = struct.unpack(">HhI", data[pos + 4:pos + 12])
            desc = data[pos + 12:pos + 12 + dlen]
            pos += 12 + dlen
            (elen,) = struct.unpack(">I", data[pos:pos + 4])
            pos += 4 + elen + 4          # extra info, "ete\0"
            self.types[num] = (size, desc)
        if data[pos:pos + 12] != b"hetehdredatb":
            raise ValueError("bad header end")
        pos += 12
        self.data_start = pos
        self.events = []   # (num, raw bytes of the whole event)
        self.fault = None  # offset of the first event that cannot be one
        while pos + 2 <= len(data):
            (num,) = struct.unpack(">H", data[pos:pos + 2])
            if num == 0xFFFF:
                break
            if num not in self.types:
                self.fault = pos
                break
            size = self.types[num][0]
            if size == -1:
                (plen,) = struct.unpack(">H", data[pos + 10:pos + 12])
                if num == 169:     # IPE: by content (GHC 9.6+ declare +1)
                    plen = ipe_length(data[pos + 12:pos + 12 + plen])
                elif num == 163 and plen > 1030:
                    self.fault = pos
                    break
                end = pos + 12 + plen
            else:
                end = pos + 10 + size
            if end > len(data):
                break
            self.events.append((num, data[pos:end]))
            pos = end


def ipe_length(p):
    """An IPE payload's real length: the info pointer, six strings."""
    pos = 8
    for _ in range(6):
        z = p.find(b"\0", pos)
        if z < 0:
            return len(p)
        pos = z + 1
    return pos if len(p) - pos <= 1 else len(p)


def payload(ev, types):
    num, raw = ev
    return raw[12:] if types[num][0] == -1 else raw[10:]


def cut_eventlog(data, keep):
    el = Eventlog(data)
    t = el.types
    kept, samples, in_sample, entries = [], 0, False, 0
    skipped = extra = 0
    used_ccs = set()
    for ev in el.events:
        num = ev[0]
        if num in (162, 166):                    # sample begin
            if samples == keep:
                break
            samples += 1
            in_sample, entries = True, 0
            kept.append(ev)
        elif num == 165:
            in_sample = False
            kept.append(ev)
        elif num in (163, 164):
            if in_sample and entries < ENTRIES:
                entries += 1
                kept.append(ev)
                if num == 163:
                    p = payload(ev, t)
                    depth = p[9]
                    used_ccs.update(struct.unpack(">%dI" % depth,
                                                  p[10:10 + 4 * depth]))
        elif num in (29, 30, 43, 160, 161):
            kept.append(ev)
        elif num == 169:           # IPE, as written: those of kept bands
            kept.append(ev)
        elif num in (50, 51, 58, 91):
            if extra < 6:
                extra += 1
                kept.append(ev)
        elif num != 18 and skipped < 2 and samples:
            skipped += 1
            kept.append(ev)
    if not samples:
        return None
    kept = [ev for ev in kept if ev[0] != 161 or
            struct.unpack(">I", payload(ev, t)[:4])[0] in used_ccs]
    labels = {payload(ev, t)[9:].split(b"\0")[0] for ev in kept
              if ev[0] == 164}
    kept = [ev for ev in kept if ev[0] != 169 or b"0x%x" % struct.unpack(
        ">Q", payload(ev, t)[:8])[0] in labels]
    nums = sorted({ev[0] for ev in kept} |
                  ({18} if 18 in t else set()) |
                  {n for n in (162, 163, 164, 165) if n in t})
    out = bytearray(b"hdrbhetb")
    for n in nums:
        size = t[n][0]
        out += b"etb\0" + struct.pack(">HhI", n, size, 0)
        out += struct.pack(">I", 0) + b"ete\0"
    out += b"hetehdredatb"
    body = b"".join(raw for _, raw in kept)
    if 18 in t and t[18][0] >= 14:
        size = 10 + t[18][0]
        last = struct.unpack(">Q", kept[-1][1][2:10])[0]
        marker = struct.pack(">HQIQH", 18, 0, size + len(body), last, 0)
        out += marker + bytes(t[18][0] - 14)
    out += body + b"\xff\xff"
    return bytes(out)



def small_elf(e_type):
    """A small ELF64 executable (ET_EXEC 2 or ET_DYN 3) as GHC lays one
    out: info tables in .text 16 bytes before their code's symbols
    (fuzz_program.c's profile names their addresses)."""
    import struct
    text = bytearray(0x80)
    def table(at, ctype):   # layout word, closure type, srt
        struct.pack_into("<QII", text, at - 0x401000, 0, ctype, 0)
    table(0x401010, 4)      # CONSTR_2_0, code at 0x401020
    table(0x401030, 15)     # THUNK, no symbol of its own
    table(0x401058, 8)      # FUN, code at 0x401068
    names = [b"", b"ghczmprim_GHCziTypes_ZC_con_info",
             b"base_GHCziBase_map_info"]
    strtab = b"\0".join(names) + b"\0"
    offs = [0, 1, 1 + len(names[1]) + 1]
    sym = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)
    sym += struct.pack("<IBBHQQ", offs[1], 0x12, 0, 1, 0x401020, 8)
    sym += struct.pack("<IBBHQQ", offs[2], 0x12, 0, 1, 0x401068, 8)
    shstr = b"\0.text\0.symtab\0.strtab\0.shstrtab\0"
    body = bytes(text) + sym + strtab + shstr
    base = 64
    o_text, o_sym = base, base + len(text)
    o_str, o_shs = o_sym + len(sym), o_sym + len(sym) + len(strtab)
    shoff = (base + len(body) + 7) & ~7
    hdr = struct.pack("<4sBBBBB7sHHIQQQIHHHHHH", b"\x7fELF", 2, 1, 1, 0, 0,
                      b"\0" * 7, e_type, 62, 1, 0x401000, 0, shoff, 0, 64,
                      0, 0, 64, 5, 4)
    def sh(name, typ, flags, addr, off, size, link=0, info=0, ent=0):
        return struct.pack("<IIQQQQIIQQ", name, typ, flags, addr, off, size,
                           link, info, 1, ent)
    shdrs = sh(0, 0, 0, 0, 0, 0)
    shdrs += sh(1, 1, 6, 0x401000, o_text, len(text))
    shdrs += sh(7, 2, 0, 0, o_sym, len(sym), 3, 1, 24)
    shdrs += sh(15, 3, 0, 0, o_str, len(strtab))
    shdrs += sh(23, 3, 0, 0, o_shs, len(shstr))
    data = hdr + body
    return data + b"\0" * (shoff - len(data)) + shdrs

def reblock(data, size):
    """The eventlog's events again, in blocks of at most `size` bytes of
    the global buffer (capability 0xffff) as GHC writes them, the data
    end counted in the last: the fuzzer of reading on several threads
    (fuzz_threads.c) cuts its parts at these.  None without a block
    marker type."""
    el = Eventlog(data)
    if 18 not in el.types or el.types[18][0] < 14:
        return None
    pad = bytes(el.types[18][0] - 14)
    out, block = bytearray(data[:el.data_start]), []

    def flush(tail=b""):
        body = b"".join(block)
        t0 = struct.unpack(">Q", block[0][2:10])[0] if block else 0
        t1 = struct.unpack(">Q", block[-1][2:10])[0] if block else 0
        out.extend(struct.pack(">HQIQH", 18, t0, 24 + len(pad) + len(body) +
                               len(tail), t1, 0xFFFF) + pad + body + tail)
        block.clear()

    for num, raw in el.events:
        if num == 18:
            continue
        if block and 24 + len(pad) + sum(map(len, block)) + len(raw) > size:
            flush()
        block.append(raw)
    flush(b"\xff\xff")
    return bytes(out)


def write(dirname, name, data):
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, name), "wb") as f:
        f.write(data)


def main():
    top, out = sys.argv[1], sys.argv[2]
    hp_dir = os.path.join(out, "hp_parse")
    ev_dir = os.path.join(out, "eventlog_parse")
    pipe_dir = os.path.join(out, "pipeline")
    stream_dir = os.path.join(out, "stream")
    program_dir = os.path.join(out, "program")
    write(program_dir, "static.elf", small_elf(2))
    write(program_dir, "pie.elf", small_elf(3))
    hp_seeds, ev_seeds = [], []
    for path in sorted(glob.glob(os.path.join(top, "samples/profiles/*.hp"))):
        base = os.path.basename(path)
        with open(path, "rb") as f:
            text = f.read()
        for k in HP_KEEP:
            s = cut_hp(text, k)
            if s:
                hp_seeds.append(("%s.%d" % (base, k), s))
        s = cut_hp(text, HP_KEEP[-1])
        if s:
            hp_seeds.append(("%s.cut" % base, s[:len(s) * 2 // 3]))
    for path in sorted(glob.glob(os.path.join(top,
                                              "samples/profiles/*.eventlog"))):
        base = os.path.basename(path)
        with open(path, "rb") as f:
            data = f.read()
        for k in EV_KEEP:
            s = cut_eventlog(data, k)
            if s:
                ev_seeds.append(("%s.%d" % (base, k), s))
        s = cut_eventlog(data, EV_KEEP[-1])
        if s:
            ev_seeds.append(("%s.cut" % base, s[:len(s) * 3 // 4]))
    # Real GHC 9.6 and 9.10 runs (IPE events declared a byte long, -he,
    # threaded headers, one corrupt as written): cut down like the others;
    # the corrupt one also as its header and the data around the fault.
    for path in sorted(glob.glob(os.path.join(top, "tests/data/ghc-modern",
                                              "*", "*.eventlog*"))):
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rb") as f:
            data = f.read()
        base = "%s.%s" % (os.path.basename(os.path.dirname(path)),
                          os.path.basename(path).replace(".gz", ""))
        for k in EV_KEEP:
            s = cut_eventlog(data, k)
            if s:
                ev_seeds.append(("%s.%d" % (base, k), s))
        el = Eventlog(data)
        if el.fault:   # the run's info, then from the census cut on
            offsets, pos = [], el.data_start
            for _, raw in el.events:
                offsets.append(pos)
                pos += len(raw)
            begin = max(o for o, ev in zip(offsets, el.events)
                        if ev[0] in (162, 166))
            ev_seeds.append((base + ".fault", data[:el.data_start] +
                             b"".join(raw for n, raw in el.events
                                      if n in (29, 30, 43, 160, 161)) +
                             data[begin:el.fault + 16000] + b"\xff\xff"))
    for d in ("tests/data/malformed", "tests/data/incomplete",
              "tests/data/found", "tests/data/eventlogs"):
        for path in sorted(glob.glob(os.path.join(top, d, "*"))):
            if os.path.getsize(path) > SMALL or path.endswith(
                    (".tsv", ".gz", ".blocks")):
                continue
            with open(path, "rb") as f:
                data = f.read()
            base = os.path.basename(path)
            if path.endswith(".eventlog"):
                try:
                    small = cut_eventlog(data, EV_KEEP[-1])
                except (ValueError, KeyError, IndexError, struct.error):
                    small = None
                ev_seeds.append((base, small or data))
            else:
                if len(data) > 8192:
                    data = cut_hp(data, HP_KEEP[-1]) or data[:8192]
                hp_seeds.append((base, data))
    for name, s in hp_seeds:
        write(hp_dir, name, s)
    for name, s in ev_seeds:
        write(ev_dir, name, s)
    # Pipeline: every fourth seed of each kind, options varied by position.
    for i, (name, s) in enumerate(hp_seeds[::4] + ev_seeds[::4]):
        # Half the seeds also take a view, filters, -p, heap lines or the
        # comparison (byte 6's high bits), every sample or PNG (byte 3's).
        extra = (i * 11) % 128 if i % 2 else 0
        opts = bytes([(20, 0, 25, 3)[i % 4], (10, 0, 50, 1)[i % 3],
                      i % 6, (i * 7) % 64 | ((i % 3) << 6 if i % 2 else 0),
                      (i * 5) % 32, (i * 13) % 256,
                      (1 if ".eventlog" in name else 0) | extra << 1,
                      i % 256])
        write(pipe_dir, name, opts + s)
    # Stream: the kind named or guessed, each picture format, drawn after
    # every 1 to 128 chunks, the largest chunk 1 B to 64 KiB, and for a
    # quarter of them a profile bounded by a picture, --last or both
    # (byte 1's high bits).
    for i, (name, s) in enumerate(hp_seeds + ev_seeds):
        kind = (1 if i < len(hp_seeds) else 2) if i % 3 else 0
        bound = (4, 6, 7, 5)[(i // 4) % 4] if i % 4 == 1 else 0
        head = bytes([kind | (i % 4) << 2 | (i * 3 % 8) << 4 |
                      (128 if i % 5 == 4 else 0),
                      (i * 7) % 17 | bound << 5, (i * 37) % 256,
                      (i * 101) % 256])
        write(stream_dir, name, head + s)
    # Threads: every seed of both kinds (eventlogs in blocks of 200 to 800
    # bytes) behind 4 bytes (see fuzz_threads.c) that vary the kind, the
    # threads, the bound, the part size (1 B to 4 KiB) and the chunks.
    threads_dir = os.path.join(out, "threads")
    for i, (name, s) in enumerate(hp_seeds + ev_seeds):
        if i >= len(hp_seeds):
            try:
                s = reblock(s, 200 + (i * 97) % 600) or s
            except (ValueError, KeyError, IndexError, struct.error):
                pass   # a malformed one as it is
        kind = (1 if i < len(hp_seeds) else 2) if i % 3 else 0
        bound = (4, 6, 7, 5)[(i // 4) % 4] if i % 4 == 1 else 0
        head = bytes([kind | (i % 8) << 2 | bound << 5,
                      (i * 5) % 13 | (128 if i % 6 == 5 else 0),
                      (i * 37) % 256, (i * 101) % 256])
        write(threads_dir, name, head + s)
    # --serve's requests: method, target, Host, address ('\n' apart).
    for i, seed in enumerate([b"GET\n/metrics\nlocalhost:8080\n8080",
                              b"HEAD\n/picture.svg?g=3\n127.0.0.1:80\n[::1]:0",
                              b"GET\n/events\n[::1]:8080\n127.0.0.1:0",
                              b"DELETE\n/\nexample.com\nlocalhost:99999"]):
        write(os.path.join(out, "serve_request"), "request-%d" % i, seed)


if __name__ == "__main__":
    main()
