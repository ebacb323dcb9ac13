#!/usr/bin/env python3
"""run.py -- `make bench`: hp2x against the real hp2ps and against `wc -l`
(one pass over the bytes: the floor) on large inputs built from samples/
by gen.py, all measured in this one run.  Prints Markdown tables:

  1. throughput: wall time (best of REPS), peak RSS, output size, ratios
  2. start-up on a 50 KB profile, and what loading cairo/pango costs alone
  3. many bands: -i, -d, -p and twice the bands (linear, not quadratic)
  4. ingest per byte: .hp against the eventlog of the same samples
  5. bounded output: PDF size against input size, points per band per
     600 dpi column, and the 600 dpi raster of the thinned picture against
     the one drawn from every sample (--all-samples)
  6. instruction counts (callgrind: stable on a noisy machine)
  14. reading on every core: wc -l, then hp2x to CSV, PDF and SVG on 1 and
     2 threads, interleaved, medians of CORE_REPS rounds (5) of the wall
     clock and of the CPU time (user + system), with the load average
     before and after each input, and the peak RSS of --jobs=1 against
     --jobs=2; where a picture's time goes (bench/phases.c);
     `run.py --cores` (make bench-cores) runs this section alone;
     `run.py --cores-ab BEFORE` reads its inputs to CSV with the build
     BEFORE and this one, interleaved (section 14b), and gives both
     builds' peak RSS to CSV and to PDF on 1 and 2 threads

Not a test.  Needs `make deps-dev` (hp2ps, valgrind, poppler-utils).
Environment: REPS (default 3), BENCH_SMALL=1 or BENCH_BIG=0 skips the
500 MB input and the 1.6 GB eventlog,
HP2X (binary), CC (for the start-up probe), MEMGEN and PHASES (section 14's
generator and phases programs), CORE_REPS.
"""
import os
import re
import shutil
import subprocess
import sys
import time
import zlib

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HP2X = os.environ.get("HP2X", os.path.join(TOP, "build", "hp2x"))
DIR = os.path.join(TOP, "build", "bench")
S = os.path.join(TOP, "samples", "profiles")
REPS = int(os.environ.get("REPS", "3"))
ENV = dict(os.environ, HP2X_FONTS_CONF=os.path.join(TOP, "fonts", "fonts.conf"),
           SOURCE_DATE_EPOCH="1700000000", LC_ALL="C")
HP2PS = shutil.which("hp2ps")


def gen(name, *args):
    path = os.path.join(DIR, name)
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        print("generating %s" % name, file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(TOP, "bench", "gen.py")]
                       + list(args) + [path + ".tmp"], check=True)
        os.rename(path + ".tmp", path)
    return path


def timed_run(cmd, cwd=DIR):
    """Wall seconds, peak RSS (KB) and CPU seconds (user + system, every
    thread) of one run of cmd."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("failed: %s" % " ".join(cmd))
    return wall, ru.ru_maxrss, ru.ru_utime + ru.ru_stime


def one_run(cmd, cwd=DIR):
    """Wall seconds and peak RSS (KB) of one run of cmd."""
    wall, rss, _ = timed_run(cmd, cwd)
    return wall, rss


def run(cmd, cwd=DIR, reps=REPS):
    """Best wall time of reps runs, and the largest peak RSS (KB)."""
    best, rss = None, 0
    for _ in range(reps):
        wall, peak = one_run(cmd, cwd)
        best = wall if best is None else min(best, wall)
        rss = max(rss, peak)
    return best, rss


def mb(path):
    return os.path.getsize(path) / 1e6


def pdf_content(path):
    """The decompressed content streams of a PDF, concatenated."""
    data = open(path, "rb").read()
    out = b""
    for m in re.finditer(rb"stream\r?\n", data):
        end = data.find(b"endstream", m.end())
        try:
            out += zlib.decompress(data[m.end():end])
        except zlib.error:
            pass
    return out


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    print()


def throughput(inputs):
    print("## 1. Throughput (best of %d; hp2ps once)\n" % REPS)
    rows = []
    for name, path, hp2ps_ok in inputs:
        size = mb(path)
        wc, wc_rss = run(["wc", "-l", path])
        rows.append([name, "%.1f" % size, "wc -l", "%.3f" % wc, wc_rss // 1024,
                     "", "", "1.0"])
        ps_t = None
        if hp2ps_ok and HP2PS:
            shutil.copy(path, os.path.join(DIR, "in.hp"))
            ps_t, ps_rss = run([HP2PS, "in.hp"], reps=1)
            rows.append([name, "%.1f" % size, "hp2ps", "%.3f" % ps_t,
                         ps_rss // 1024,
                         os.path.getsize(os.path.join(DIR, "in.ps")) // 1024,
                         "1.0", "%.1f" % (ps_t / wc)])
        for fmt in ("pdf", "svg", "csv"):
            out = os.path.join(DIR, "out." + fmt)
            t, rss = run([HP2X, "-q", path, "-o", out])
            rows.append([name, "%.1f" % size, "hp2x → " + fmt, "%.3f" % t,
                         rss // 1024, os.path.getsize(out) // 1024,
                         ("%.2fx" if ps_t < 10 * t else "%.0fx") % (ps_t / t) if ps_t else "",
                         "%.1f" % (t / wc)])
    table(["input", "MB", "tool", "wall s", "peak RSS MB", "output KB",
           "hp2ps time / this", "this / wc -l"], rows)


def startup(small):
    print("## 2. Start-up: %s, %.0f KB (best and mean of 20)\n"
          % (os.path.basename(small), os.path.getsize(small) / 1e3))
    probe = os.path.join(DIR, "empty-linked")
    src = os.path.join(DIR, "empty.c")
    with open(src, "w") as f:
        f.write("int main(void) { return 0; }\n")
    libs = subprocess.run(["pkg-config", "--libs", "cairo", "pangocairo",
                           "pangoft2", "pango", "fontconfig"],
                          capture_output=True, text=True).stdout.split()
    subprocess.run([os.environ.get("CC", "cc"), "-O2", src, "-o", probe,
                    "-Wl,--no-as-needed"] + libs + ["-lm"], check=True)
    shutil.copy(small, os.path.join(DIR, "small-in.hp"))
    cmds = [("hp2ps", [HP2PS, "small-in.hp"] if HP2PS else None),
            ("hp2x → ps", [HP2X, "-q", "small-in.hp", "-o", "s.ps"]),
            ("hp2x → pdf", [HP2X, "-q", "small-in.hp", "-o", "s.pdf"]),
            ("hp2x → csv (no fonts)", [HP2X, "-q", "small-in.hp", "-o", "s.csv"]),
            ("empty program linked with cairo+pango", [probe])]
    rows, base = [], None
    for label, cmd in cmds:
        if not cmd:
            continue
        times = []
        for _ in range(20):
            times.append(run(cmd, reps=1)[0])
        best, mean = min(times), sum(times) / len(times)
        base = base or mean
        rows.append([label, "%.1f" % (best * 1e3), "%.1f" % (mean * 1e3),
                     "%.2f" % (mean / base)])
    table(["command", "best ms", "mean ms", "mean / hp2ps"], rows)


def many_bands(path, path2):
    print("## 3. Many bands: 20 samples x 50 000 and x 100 000 bands "
          "(→ PostScript, as hp2ps)\n")
    rows = []
    shutil.copy(path, os.path.join(DIR, "mb.hp"))
    shutil.copy(path2, os.path.join(DIR, "mb2.hp"))
    for f in ("mb.hp", "mb2.hp"):
        run([HP2X, "-q", f], reps=1)  # writes BASE.ps and BASE.aux for -p
        # As hp2ps: BASE.ps and BASE.aux in the current directory.
        for opts in ([], ["-i"], ["-d"], ["-p"], ["-m0"]):
            t, rss = run([HP2X, "-q"] + opts + [f])
            rows.append([f, " ".join(opts) or "(default)", "%.3f" % t,
                         rss // 1024])
        if HP2PS and f == "mb.hp":
            for opts in ([], ["-i"]):
                t, rss = run([HP2PS] + opts + [f], reps=1)
                rows.append([f, "hp2ps " + (" ".join(opts) or "(default)"),
                             "%.3f" % t, rss // 1024])
    table(["input", "options", "wall s", "peak RSS MB"], rows)


def ingest(pairs):
    print("## 4. Ingest per byte (→ CSV: parse and select, no drawing)\n")
    rows = []
    for name, hp, evl in pairs:
        for kind, path in ((".hp", hp), ("eventlog", evl)):
            t, _ = run([HP2X, "-q", path, "-o", os.path.join(DIR, "i.csv")])
            rows.append([name, kind, "%.1f" % mb(path), "%.3f" % t,
                         "%.0f" % (mb(path) / t)])
    table(["samples", "input", "MB", "wall s", "MB/s"], rows)


def raster_diff(a, b):
    """tests/tools/pdfstats.py's comparison of two greyscale rasters."""
    r = subprocess.run([sys.executable, os.path.join(TOP, "tests", "tools",
                                                     "pdfstats.py"),
                        "pgmdiff", a, b], capture_output=True, text=True,
                       check=True)
    return r.stdout.split()


def bounded(inputs, raster):
    """inputs: (name, path) to measure; raster: the names among them whose
    600 dpi pictures are compared (slow)."""
    print("## 5. Bounded output\n")
    rows = []
    for name, path in inputs:
        csv = os.path.join(DIR, "b.csv")
        out = os.path.join(DIR, "b.pdf")
        run([HP2X, "-q", path, "-o", csv], reps=1)
        with open(csv) as f:
            nbands = len(f.readline().split(",")) - 1
            samples = sum(1 for _ in f)
        run([HP2X, "-q", path, "-o", out], reps=1)
        points = len(re.findall(rb"[0-9.] l\b", pdf_content(out)))
        rows.append([name, "%.1f" % mb(path), samples, nbands,
                     os.path.getsize(out) // 1024, points,
                     "%.0f" % (points / max(nbands, 1))])
    table(["input", "input MB", "samples", "bands", "PDF KB",
           "points drawn", "points per band"], rows)
    have = shutil.which("pdftoppm")
    if not have:
        print("(pdftoppm missing: no raster comparison)\n")
        return
    print("600 dpi greyscale rasters (pdftoppm) of the default picture against "
          "the one drawn from every sample:\n")
    rows = []
    for name, path in inputs:
        if name not in raster:
            continue
        thin = os.path.join(DIR, "thin.pdf")
        full = os.path.join(DIR, "full.pdf")
        run([HP2X, "-q", "-c", path, "-o", thin], reps=1)
        run([HP2X, "-q", "-c", "--all-samples", path, "-o", full], reps=1)
        for f in (thin, full):
            subprocess.run(["pdftoppm", "-r", "600", "-gray", "-singlefile",
                            f, f[:-4]], check=True)
        total, ndiff, big, mean, tops = raster_diff(thin[:-4] + ".pgm",
                                                    full[:-4] + ".pgm")
        rows.append([name, os.path.getsize(thin) // 1024,
                     os.path.getsize(full) // 1024, total, ndiff,
                     "%.3f%%" % (100.0 * int(ndiff) / int(total)), big, mean,
                     tops])
    table(["input", "thinned KB", "every sample KB", "pixels",
           "pixels differing", "share", "largest difference (of 255)",
           "mean difference", "largest shift of a column's top (px)"], rows)


def instructions(path):
    if not shutil.which("valgrind"):
        return
    print("## 6. Instruction counts (callgrind, %s, %.1f MB)\n"
          % (os.path.basename(path), mb(path)))
    rows = []
    for fmt in ("csv", "pdf"):
        r = subprocess.run(["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=/dev/null", HP2X, "-q", path,
                            "-o", os.path.join(DIR, "cg." + fmt)],
                           env=ENV, capture_output=True, text=True)
        m = re.search(r"Collected : (\d+)", r.stderr)
        if m:
            n = int(m.group(1))
            rows.append(["hp2x → " + fmt, "{:,}".format(n),
                         "%.1f" % (n / os.path.getsize(path))])
    table(["command", "instructions", "per input byte"], rows)


CORE_REPS = int(os.environ.get("CORE_REPS", "5"))
MEMGEN = os.path.abspath(os.environ.get("MEMGEN", os.path.join(TOP, "build", "bench", "memgen")))
PHASES = os.path.abspath(os.environ.get("PHASES", os.path.join(TOP, "build", "bench", "phases")))


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def load():
    return "%.2f %.2f %.2f" % os.getloadavg()


def cores_runs(path):
    """wc -l and hp2x to CSV, PDF and SVG on 1 and 2 threads, interleaved:
    each round runs every command once, in the same order, CORE_REPS
    rounds.  Returns {label: ([walls], max rss KB, [CPU seconds])}."""
    cmds = [("wc -l", ["wc", "-l", path])]
    for fmt in ("csv", "pdf", "svg"):
        for jobs in (1, 2):
            cmds.append(("→ %s, --jobs=%d" % (fmt, jobs),
                         [HP2X, "-q", "--jobs=%d" % jobs, path, "-o",
                          os.path.join(DIR, "cores." + fmt)]))
    runs = {label: ([], 0, []) for label, _ in cmds}
    one_run(["cat", path])  # cached
    for _ in range(CORE_REPS):
        for label, cmd in cmds:
            w, rss, cpu = timed_run(cmd)
            walls, most, cpus = runs[label]
            walls.append(w)
            cpus.append(cpu)
            runs[label] = (walls, max(most, rss), cpus)
    return [label for label, _ in cmds], runs


def phases(path, fmt, jobs):
    """Medians of 3 of bench/phases: fonts, read, select, write (ms)."""
    rows = []
    for _ in range(3):
        r = subprocess.run([PHASES, path, fmt, str(jobs)], cwd=DIR, env=ENV,
                           capture_output=True, text=True, check=True)
        rows.append([float(x) for x in r.stdout.split()[:4]])
    return [median([r[i] for r in rows]) for i in range(4)]


def cores(inputs):
    print("## 14. Reading on every core: --jobs=1 and --jobs=2 against "
          "`wc -l` (medians of %d interleaved rounds)\n" % CORE_REPS)
    print("Load average (1, 5, 15 min) before: %s\n" % load())
    rows, goal = [], []
    for name, path in inputs:
        before = os.getloadavg()[0]
        labels, runs = cores_runs(path)
        wc, wc_cpu = (median(runs["wc -l"][i]) for i in (0, 2))
        for label in labels:
            walls, rss, cpus = runs[label]
            m, c = median(walls), median(cpus)
            rows.append([name, "%.1f" % mb(path), label, "%.3f" % m,
                         "%.3f" % min(walls), "%.2f" % (m / wc),
                         "%.3f" % c, "%.2f" % (c / wc_cpu), rss // 1024])
        one, two = (median(runs["→ csv, --jobs=%d" % j][0]) for j in (1, 2))
        cpu1, cpu2 = (median(runs["→ csv, --jobs=%d" % j][2]) for j in (1, 2))
        rss = ["%d / %d" % tuple(runs["→ %s, --jobs=%d" % (fmt, j)][1] // 1024
                                 for j in (1, 2)) for fmt in ("csv", "pdf")]
        goal.append([name, "%.1f" % mb(path), "%.2f" % (one / wc),
                     "%.2f" % (two / wc), "%.2f" % (one / two),
                     "%.0f" % (mb(path) / two), "%.2f" % (cpu1 / wc_cpu),
                     "%.2f" % (cpu2 / wc_cpu)] + rss +
                    ["%.2f / %.2f" % (before, os.getloadavg()[0])])
    table(["input", "MB", "command", "median s", "best s",
           "median / wc -l", "median CPU s", "CPU / wc -l's",
           "peak RSS MB"], rows)
    print("Reading to CSV against the goal (at most 3 times `wc -l`); CPU "
          "is user + system seconds of every thread, which a loaded "
          "machine changes less than the wall clock:\n")
    table(["input", "MB", "--jobs=1 / wc -l", "--jobs=2 / wc -l",
           "speed-up", "MB/s (--jobs=2)", "CPU --jobs=1 / wc -l",
           "CPU --jobs=2 / wc -l", "peak RSS MB → csv, --jobs=1 / 2",
           "→ pdf, --jobs=1 / 2", "load before / after"], goal)
    print("Where a picture's time goes, inside one process "
          "(bench/phases.c, medians of 3, ms):\n")
    rows = []
    for name, path in inputs:
        for fmt in ("pdf", "svg"):
            for jobs in (1, 2):
                f, r, sel, w = phases(path, fmt, jobs)
                total = f + r + sel + w
                rows.append([name, fmt, jobs, "%.0f" % f, "%.0f" % r,
                             "%.0f" % sel, "%.0f" % w,
                             "%.0f%%" % (100 * w / total)])
    table(["input", "format", "--jobs", "fonts", "read", "select",
           "draw", "drawing's share"], rows)
    print("Load average after: %s\n" % load())


def cores_ab(inputs, before):
    """Reading to CSV with an earlier build (`before`) and this one, on 1
    and 2 threads, interleaved with wc -l in each of CORE_REPS rounds:
    their medians' ratios to wc -l, wall clock and CPU; then the peak RSS
    of both to CSV and to PDF on 1 and 2 threads (the largest of the
    rounds: CSV's from the same runs, PDF's from runs of their own)."""
    print("## 14b. Reading to CSV: %s (before) against %s (after), "
          "medians of %d interleaved rounds\n" % (before, HP2X, CORE_REPS))
    rows, mem = [], []
    for name, path in inputs:
        load0 = os.getloadavg()[0]
        cmds = [("wc", ["wc", "-l", path])]
        for fmt in ("csv", "pdf"):
            for tag, exe in (("before", before), ("after", HP2X)):
                for jobs in (1, 2):
                    cmds.append(((fmt, tag, jobs),
                                 [exe, "-q", "--jobs=%d" % jobs, path, "-o",
                                  os.path.join(DIR, "ab." + fmt)]))
        got = {label: ([], [], 0) for label, _ in cmds}
        one_run(["cat", path])  # cached
        for _ in range(CORE_REPS):
            for label, cmd in cmds:
                w, rss, cpu = timed_run(cmd)
                walls, cpus, most = got[label]
                walls.append(w)
                cpus.append(cpu)
                got[label] = (walls, cpus, max(most, rss))
        wc, wc_cpu = (median(x) for x in got["wc"][:2])
        row = [name, "%.1f" % mb(path)]
        for tag in ("before", "after"):
            for jobs in (1, 2):
                w, c = (median(x) for x in got[("csv", tag, jobs)][:2])
                row.append("%.2f / %.2f" % (w / wc, c / wc_cpu))
        row.append("%.2f / %.2f" % (load0, os.getloadavg()[0]))
        rows.append(row)
        mem.append([name, "%.1f" % mb(path)] + [
            "%d / %d" % tuple(got[(fmt, tag, j)][2] // 1024 for j in (1, 2))
            for fmt in ("csv", "pdf") for tag in ("before", "after")])
    table(["input", "MB", "before, --jobs=1", "before, --jobs=2",
           "after, --jobs=1", "after, --jobs=2", "load before / after"], rows)
    print("Each cell: wall-clock median / wc -l's, then CPU (user + system) "
          "median / wc -l's.\n")
    table(["input", "MB", "peak RSS MB → csv before, --jobs=1 / 2",
           "→ csv after", "→ pdf before", "→ pdf after"], mem)


def big_eventlog():
    """bench/memgen's 80,000 censuses of 300 bands: 1.6 GB, in GHC's 2 MiB
    blocks (shared with bench/report.sh)."""
    path = os.path.join(DIR, "mem-80000.eventlog")
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        print("generating %s (1.6 GB)" % path, file=sys.stderr)
        with open(path + ".tmp", "wb") as f:
            subprocess.run([MEMGEN, "--eventlog", "80000", "300", "23"],
                           stdout=f, stderr=subprocess.DEVNULL, check=True)
        os.rename(path + ".tmp", path)
    return path


def cores_inputs(big):
    wide = gen("many-samples-60000x60.hp", "shape",
               os.path.join(S, "manycc.hc.hp"), "60000", "60")
    wide_ev = gen("many-samples-60000x60.eventlog", "eventlog", wide)
    inputs = [("60 000 x 60", wide)]
    for size in ("10", "100") + (("500",) if big else ()):
        inputs.append(("stretch %s MB" % size,
                       gen("stretch-%smb.hp" % size, "stretch",
                           os.path.join(S, "longrun.hc.hp"), size)))
    inputs.append(("60 000 x 60 eventlog", wide_ev))
    if big:
        inputs.append(("1.6 GB eventlog (memgen)", big_eventlog()))
    # A real run, where it was made (bench/RESULTS.md, section 14, says
    # how): GHC 9.10.3's own .hp and eventlog of one run.
    for ext in ("hp", "eventlog"):
        real = os.path.join(DIR, "ghc910-manycc." + ext)
        if os.path.exists(real):
            inputs.append(("GHC 9.10.3 run, ." + ext, real))
        else:
            print("(no %s: the real run is left out)" % real, file=sys.stderr)
    return inputs


def main():
    os.makedirs(DIR, exist_ok=True)
    big = (not os.environ.get("BENCH_SMALL")
           and os.environ.get("BENCH_BIG", "1") != "0")
    if sys.argv[1:] == ["--cores"]:
        u = os.uname()
        print("# hp2x benchmark: reading on every core\n")
        print("Machine: %s %s, %d cores; %s\n"
              % (u.sysname, u.machine, os.cpu_count(),
                 time.strftime("%Y-%m-%d")))
        cores(cores_inputs(big))
        return
    if sys.argv[1:2] == ["--cores-ab"] and len(sys.argv) == 3:
        print("Machine: %s, %d cores; %s; load %s\n"
              % (os.uname().machine, os.cpu_count(),
                 time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load()))
        cores_ab(cores_inputs(big), sys.argv[2])
        return
    small = gen("small.hp", "stretch", os.path.join(S, "leak.hc.hp"), "0.05")
    s10 = gen("stretch-10mb.hp", "stretch", os.path.join(S, "longrun.hc.hp"), "10")
    s100 = gen("stretch-100mb.hp", "stretch", os.path.join(S, "longrun.hc.hp"), "100")
    s500 = gen("stretch-500mb.hp", "stretch", os.path.join(S, "longrun.hc.hp"),
               "500") if big else None
    wide = gen("many-samples-60000x60.hp", "shape",
               os.path.join(S, "manycc.hc.hp"), "60000", "60")
    varied = gen("varied-60000x60.hp", "varied",
                 os.path.join(S, "manycc.hc.hp"), "60000", "60")
    bands = gen("many-bands-20x50000.hp", "shape",
                os.path.join(S, "manycc.hc.hp"), "20", "50000")
    bands2 = gen("many-bands-20x100000.hp", "shape",
                 os.path.join(S, "manycc.hc.hp"), "20", "100000")
    wide_ev = gen("many-samples-60000x60.eventlog", "eventlog", wide)
    varied_ev = gen("varied-60000x60.eventlog", "eventlog", varied)
    s100_ev = gen("stretch-100mb.eventlog", "eventlog", s100)

    print("# hp2x benchmark\n")
    u = os.uname()
    print("Machine: %s %s, %d cores; hp2ps: %s; %s\n"
          % (u.sysname, u.machine, os.cpu_count(), HP2PS or "not installed",
             time.strftime("%Y-%m-%d")))
    inputs = [("small (leak.hc)", small, True),
              ("stretch 10 MB", s10, True),
              ("stretch 100 MB", s100, False),
              ("60 000 x 60", wide, True),
              ("60 000 x 60, bands come and go", varied, True),
              ("20 x 50 000", bands, True),
              ("60 000 x 60 eventlog", wide_ev, False),
              ("stretch 100 MB eventlog", s100_ev, False)]
    if s500:
        inputs.insert(3, ("stretch 500 MB", s500, False))
    throughput(inputs)
    startup(os.path.join(S, "leak.hT.hp"))
    many_bands(bands, bands2)
    ingest([("60 000 x 60", wide, wide_ev),
            ("60 000 x 60, bands come and go", varied, varied_ev),
            ("stretch 100 MB", s100, s100_ev)])
    bounded([("60 000 x 60", wide), ("60 000 x 60, bands come and go", varied),
             ("stretch 100 MB", s100)]
            + ([("stretch 500 MB", s500)] if s500 else []),
            raster=("60 000 x 60", "60 000 x 60, bands come and go",
                    "stretch 100 MB"))
    instructions(s10)
    cores(cores_inputs(big))


if __name__ == "__main__":
    main()
