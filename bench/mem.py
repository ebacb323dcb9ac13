#!/usr/bin/env python3
"""mem.py -- `make bench`, part 4: is hp2x's memory bounded by the picture,
not by the run (issue #23, item 3)?  Long profiles of 300 cost-centre bands
from bench/memgen.c (seeded; values drift, leak, saw-tooth and spike, bands
come and go), piped into hp2x so that the 20 GB one is never stored.
Prints Markdown tables:

  1. peak RSS and throughput of `memgen | hp2x --watch - -o out.pdf` for
     0.3, 1.2 and 20 GB of .hp text (20 000, 80 000 and 1 330 000
     censuses), of `memgen | hp2x - -o out.pdf` (one-shot from a pipe), of
     a one-shot render of a stored 1.2 GB file, and of eventlog streams of
     the same censuses; each row against its target (peak RSS <= 100 MB,
     1.2 GB within 10 % of 0.3 GB), PASS or FAIL.  hp2x runs under an
     address-space limit (BENCH_MEM_LIMIT_MB, default 4096) so that a
     store that grows with the run ends in "exceeded" rather than taking
     the machine down.
  2. what one watch update costs on top of a small and two large prefixes
     (1 MB, 0.25 GB, 1 GB of the stored 1.2 GB file) for two sizes of
     append, through the binary (CPU per update) and split into parse,
     select and draw inside one process (bench/update.c): the cost should
     follow the bytes appended, not the size of the profile.
  3. the stored 0.3 GB file drawn by hp2ps and by hp2x (both → PostScript,
     in this one run): times, their ratio, and the bands each selected
     (from the .aux files both write): "selection equal to hp2ps: yes/no".

Environment: BENCH_BIG=0 skips the 20 GB streams (the quick run);
BENCH_MEM_LIMIT_MB; BENCH_MEM_CENSUSES; BENCH_HP2PS_TIMEOUT (seconds,
default 1800); HP2X; MEMGEN (default build/bench/memgen); UPDATE
(build/bench/update).  Needs hp2ps and strace (make deps-dev); without
them their parts say so and are skipped.  Not a test.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HP2X = os.path.abspath(os.environ.get(
    "HP2X", os.path.join(TOP, "build", "hp2x")))
MEMGEN = os.path.abspath(os.environ.get(
    "MEMGEN", os.path.join(TOP, "build", "bench", "memgen")))
UPDATE = os.path.abspath(os.environ.get(
    "UPDATE", os.path.join(TOP, "build", "bench", "update")))
DIR = os.path.join(TOP, "build", "bench", "mem")
ENV = dict(os.environ, HP2X_FONTS_CONF=os.path.join(TOP, "fonts", "fonts.conf"),
           SOURCE_DATE_EPOCH="1700000000", LC_ALL="C")
HP2PS = shutil.which("hp2ps")
STRACE = shutil.which("strace")
BIG = os.environ.get("BENCH_BIG", "1") != "0"
LIMIT_MB = int(os.environ.get("BENCH_MEM_LIMIT_MB", "4096"))
HP2PS_TIMEOUT = float(os.environ.get("BENCH_HP2PS_TIMEOUT", "1800"))
BANDS, SEED = 300, 23
TARGET_MB = 100
# Censuses of the 0.3, 1.2 and 20 GB streams (BENCH_MEM_CENSUSES=S,L,H to try
# the script on small ones).
SMALL, LARGE, HUGE = (int(n) for n in os.environ.get(
    "BENCH_MEM_CENSUSES", "20000,80000,1330000").split(","))


def limit_memory():
    lim = LIMIT_MB * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (lim, lim))


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" if i == 0 else "---:"
                         for i in range(len(head))) + "|")
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    print()


def rate(size_bytes, wall_s):
    """MB/s, with a decimal when small."""
    r = size_bytes / 1e6 / wall_s
    return "%.1f" % r if r < 10 else "%.0f" % r


def memgen_cmd(censuses, eventlog=False):
    return ([MEMGEN] + (["--eventlog"] if eventlog else [])
            + [str(censuses), str(BANDS), str(SEED)])


def outcome(status, errfile):
    """'' when hp2x exited 0, else what happened, in a few words."""
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        return ""
    try:
        msg = open(errfile, errors="replace").read().strip().splitlines()
    except OSError:
        msg = []
    last = msg[-1][:120] if msg else ""
    if code < 0:
        return "killed by %s %s" % (signal.Signals(-code).name, last)
    if "memory" in last.lower() or "alloc" in last.lower():
        return "exceeded %d MB: %s" % (LIMIT_MB, last)
    return "exit %d: %s" % (code, last)


def measure(hp2x_args, censuses=None, eventlog=False, stdin_path=None):
    """Runs hp2x (under the memory limit), fed by memgen through a pipe or
    reading a stored file.  Returns (wall s, CPU s, peak RSS MB, input bytes,
    failure or '')."""
    errfile = os.path.join(DIR, "hp2x.err")
    gen = generr = None
    if censuses is not None:
        generr = open(os.path.join(DIR, "memgen.err"), "w+")
        gen = subprocess.Popen(memgen_cmd(censuses, eventlog),
                               stdout=subprocess.PIPE, stderr=generr)
    t0 = time.perf_counter()
    with open(errfile, "w") as err:
        p = subprocess.Popen([HP2X] + hp2x_args, cwd=DIR, env=ENV,
                             stdin=gen.stdout if gen else subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err,
                             preexec_fn=limit_memory)
        if gen:
            gen.stdout.close()  # hp2x holds the pipe's reading end now
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    size = os.path.getsize(stdin_path) if stdin_path else 0
    if gen:
        gen.wait()
        generr.seek(0)
        for line in generr.read().splitlines():
            if line.startswith("bytes "):
                size = int(line.split()[1])
        generr.close()
    return (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, size,
            outcome(status, errfile))


def memory_table(stored_big):
    print("## 1. Peak memory against the length of the run (%d bands; "
          "hp2x limited to %d MB of address space)\n" % (BANDS, LIMIT_MB))
    print("Streams are piped from bench/memgen.c (seed %d): GB is what the "
          "generator wrote, MB/s those bytes over hp2x's wall time, the "
          "generator running alongside (left out when hp2x failed).\n" % SEED)
    runs = [(".hp stream", SMALL, False, "watch"),
            (".hp stream", LARGE, False, "watch"),
            (".hp stream", SMALL, False, "one-shot"),
            (".hp stream", LARGE, False, "one-shot"),
            ("eventlog stream", SMALL, True, "watch"),
            ("eventlog stream", LARGE, True, "watch")]
    if BIG:
        runs += [(".hp stream", HUGE, False, "watch"),
                 (".hp stream", HUGE, False, "one-shot")]
    rows, rss_of = [], {}
    for kind, censuses, eventlog, how in runs:
        out = "out.pdf"
        args = (["--watch", "-q", "-", "-o", out] if how == "watch"
                else ["-q", "-", "-o", out])
        print("running: %s %d censuses, %s" % (kind, censuses, how),
              file=sys.stderr)
        wall, _, rss, size, fail = measure(args, censuses, eventlog)
        rss_of[(kind, censuses, how)] = (rss, fail)
        target = "≤ %d MB" % TARGET_MB
        ok = not fail and rss <= TARGET_MB
        if censuses == LARGE and how == "watch":
            small, small_fail = rss_of[(kind, SMALL, how)]
            target += "; ≤ 1.1 x %.0f MB (0.3 GB)" % small
            ok = ok and not small_fail and rss <= 1.1 * small
        cmd = ("memgen \\| hp2x --watch - -o out.pdf" if how == "watch"
               else "memgen \\| hp2x - -o out.pdf")
        rows.append([kind, cmd, "%.2f" % (size / 1e9), censuses,
                     "%.1f" % wall, "" if fail else rate(size, wall),
                     "%.0f" % rss + (" (%s)" % fail if fail else ""), target,
                     "PASS" if ok else "FAIL"])
    if stored_big:
        print("running: stored 1.2 GB file, one-shot", file=sys.stderr)
        wall, _, rss, size, fail = measure(["-q", stored_big, "-o", "out.pdf"],
                                           stdin_path=stored_big)
        ok = not fail and rss <= TARGET_MB
        rows.append([".hp file", "hp2x big.hp -o out.pdf",
                     "%.2f" % (size / 1e9), LARGE, "%.1f" % wall,
                     "" if fail else rate(size, wall),
                     "%.0f" % rss + (" (%s)" % fail if fail else ""),
                     "≤ %d MB" % TARGET_MB,
                     "PASS" if ok else "FAIL"])
    table(["input", "command", "GB", "censuses", "wall s", "MB/s",
           "peak RSS MB", "target", "met"], rows)
    if not BIG:
        print("(BENCH_BIG=0: the 20 GB streams were skipped)\n")


def hpx_aux_order(path):
    """The bands an .aux file lists, bottom first (hp2ps's ORDER lines)."""
    names = []
    for line in open(path, "rb"):
        if line.startswith(b"ORDER "):
            names.append(line[6:].rstrip(b"\n").rsplit(b" ", 1)[0].decode(
                "utf-8", "replace"))
    return names


def against_hp2ps(stored_small):
    print("## 3. The 0.3 GB file: hp2ps and hp2x (→ PostScript), "
          "and the bands they select\n")
    ps_dir, x_dir = os.path.join(DIR, "hp2ps"), os.path.join(DIR, "hp2x")
    for d in (ps_dir, x_dir):
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        os.symlink(stored_small, os.path.join(d, "in.hp"))
    size = os.path.getsize(stored_small)
    rows = []
    t0 = time.perf_counter()
    p = subprocess.Popen([HP2X, "-q", "in.hp"], cwd=x_dir, env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=limit_memory)
    _, status, ru = os.wait4(p.pid, 0)
    x_t = time.perf_counter() - t0
    x_fail = outcome(status, os.devnull)
    rows.append(["hp2x in.hp", "%.2f" % x_t, rate(size, x_t),
                 x_fail or "%.0f" % (ru.ru_maxrss / 1024), ""])
    ps_t = None
    if not HP2PS:
        print("(hp2ps not installed: `make deps-dev`)\n")
    else:
        print("running: hp2ps on the 0.3 GB file", file=sys.stderr)
        t0 = time.perf_counter()
        p = subprocess.Popen([HP2PS, "in.hp"], cwd=ps_dir,
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        ru = None
        while time.perf_counter() - t0 < HP2PS_TIMEOUT:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                ps_t = time.perf_counter() - t0
                break
            time.sleep(0.05)
        if ps_t is None:
            p.kill()
            p.wait()
            rows.append(["hp2ps in.hp", "> %g (stopped)" % HP2PS_TIMEOUT,
                         "", "", ""])
        else:
            rows.append(["hp2ps in.hp", "%.2f" % ps_t,
                         rate(size, ps_t),
                         "%.0f" % (ru.ru_maxrss / 1024),
                         "%.1fx" % (ps_t / x_t)])
    table(["command", "wall s", "MB/s", "peak RSS MB",
           "hp2ps time / hp2x time"], rows)
    x_aux = os.path.join(x_dir, "in.aux")
    mine = hpx_aux_order(x_aux) if os.path.exists(x_aux) else []
    print("hp2x's bands (bottom first): " + "; ".join(mine) + "\n")
    ps_aux = os.path.join(ps_dir, "in.aux")
    if ps_t is None or not os.path.exists(ps_aux):
        print("selection equal to hp2ps: not compared (no hp2ps .aux)\n")
        return
    theirs = hpx_aux_order(ps_aux)
    same = mine == theirs and bool(mine)
    print("selection equal to hp2ps: %s (%d bands)\n"
          % ("yes" if same else "no", len(theirs)))
    if not same:
        print("hp2ps's bands (bottom first): " + "; ".join(theirs) + "\n")


def watch_update(stored, prefix, step, steps):
    """The watcher's CPU seconds, its renders after the first and its peak
    RSS MB, following PREFIX bytes of STORED plus STEPS appends of STEP
    bytes, each one write(2), 0.3 s apart (one render each)."""
    live = os.path.join(DIR, "live.hp")
    renames = os.path.join(DIR, "renames")
    with open(stored, "rb") as src, open(live, "wb") as dst:
        left = prefix
        while left > 0:
            buf = src.read(min(left, 1 << 22))
            if not buf:
                break
            dst.write(buf)
            left -= len(buf)
    p = subprocess.Popen([STRACE, "-f", "--seccomp-bpf", "-qq", "-e",
                          "trace=rename,renameat,renameat2", "-o", renames,
                          HP2X, "--watch", "-q", "--interval=0.02",
                          "--idle-exit=2", live, "-o", "w.pdf"],
                         cwd=DIR, env=ENV, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    time.sleep(1)
    with open(stored, "rb") as src:
        src.seek(prefix)
        for _ in range(steps):
            chunk = src.read(step)
            fd = os.open(live, os.O_WRONLY | os.O_APPEND)
            os.write(fd, chunk)
            os.close(fd)
            time.sleep(0.3)
    _, status, ru = os.wait4(p.pid, 0)
    n = sum(1 for line in open(renames) if "rename" in line) - 1
    return ru.ru_utime + ru.ru_stime, n, ru.ru_maxrss / 1024


def update_cost(stored, prefixes):
    print("## 2. One watch update against the bytes appended and the "
          "profile's size\n")
    steps = 20
    size = os.path.getsize(stored)
    prefixes = [p for p in prefixes if p + steps * 2000000 < size]
    if not STRACE:
        print("(strace not installed: `make deps-dev`)\n")
    else:
        print("A watcher follows a prefix of the %.1f GB file, then %d "
              "appends (one write(2) each, 0.3 s apart, one render each, "
              "counted with strace).  A run on the prefix alone is "
              "subtracted; the rest over the renders after the first is one "
              "update.\n" % (size / 1e9, steps))
        rows = []
        for prefix in prefixes:
            print("running: watch updates on a %d MB prefix" % (prefix / 1e6),
                  file=sys.stderr)
            base, _, _ = watch_update(stored, prefix, 1, 0)
            for step in (250000, 2000000):
                cpu, n, rss = watch_update(stored, prefix, step, steps)
                per = (cpu - base) / max(n, 1)
                per_mb = per * 1e3 / (step * steps / max(n, 1) / 1e6)
                rows.append(["%.0f" % (prefix / 1e6), "%.2f" % (step / 1e6), n,
                             "%.2f" % base, "%.2f" % cpu,
                             "%.1f" % (per * 1e3), "%.1f" % per_mb,
                             "%.0f" % rss])
        table(["prefix MB", "appended per step MB", "renders after the first",
               "CPU s, no appends", "CPU s, with appends", "CPU per update ms",
               "ms per appended MB", "peak RSS MB"], rows)
        os.unlink(os.path.join(DIR, "live.hp"))
    if not os.access(UPDATE, os.X_OK):
        print("(%s missing: no in-process split)\n" % UPDATE)
        return
    print("The same updates inside one process (bench/update.c: the bands "
          "kept by a follower, as --watch does; PDF drawn into memory; mean "
          "of %d): parsing follows the bytes appended; drawing is bounded by "
          "the picture's columns once the profile has more censuses than "
          "they.\n" % steps)
    print("| prefix MB | bands | format | censuses at the end | parse ms | "
          "select ms | draw ms | update ms | output KB |\n"
          "|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for prefix in prefixes:
        for step in (250000, 2000000):
            r = subprocess.run([UPDATE, stored, str(prefix), str(step),
                                str(steps), "follower", "pdf"], env=ENV,
                               capture_output=True, text=True)
            row = r.stdout.strip() or "| %d | (update failed: %s) |" % (
                prefix / 1e6, r.stderr.strip()[:100])
            print(row.replace("| follower |",
                              "| follower, %.2f MB a step |" % (step / 1e6), 1))
    print()


def store(censuses, name, need_free_bytes):
    path = os.path.join(DIR, name)
    free = shutil.disk_usage(DIR).free
    if free < need_free_bytes:
        print("(only %.1f GB free in build/bench: %s not stored, its rows "
              "skipped)\n" % (free / 1e9, name))
        return None
    with open(path + ".tmp", "wb") as out:
        subprocess.run(memgen_cmd(censuses), stdout=out,
                       stderr=subprocess.DEVNULL, check=True)
    os.rename(path + ".tmp", path)
    return path


def main():
    os.makedirs(DIR, exist_ok=True)
    if not os.access(MEMGEN, os.X_OK):
        raise SystemExit("mem.py: %s missing: make %s" % (MEMGEN, MEMGEN))
    print("# hp2x memory benchmark\n")
    u = os.uname()
    print("Machine: %s %s, %d cores; hp2ps: %s; %s; BENCH_BIG=%d\n"
          % (u.sysname, u.machine, os.cpu_count(), HP2PS or "not installed",
             time.strftime("%Y-%m-%d %H:%M"), BIG))
    stored_big = store(LARGE, "big-1.2gb.hp", 3 * 10**9)
    try:
        memory_table(stored_big)
        if stored_big:
            update_cost(stored_big, (1000000, 250000000, 1000000000))
    finally:
        if stored_big:
            os.unlink(stored_big)
    stored_small = store(SMALL, "small-0.3gb.hp", 1 * 10**9)
    if stored_small:
        try:
            if not stored_big:
                update_cost(stored_small, (1000000, 50000000, 250000000))
            against_hp2ps(stored_small)
        finally:
            os.unlink(stored_small)


if __name__ == "__main__":
    main()
