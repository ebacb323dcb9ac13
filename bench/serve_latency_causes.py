#!/usr/bin/env python3
"""serve_latency_causes.py OUT.json... -- the slowest censuses of the
serving benchmark's page runs and their causes (bench/serve_latency.sh
prints it after its tables).  Each OUT.json is one configuration's output
of serve_latency.js, whose "detail" holds per stream, per page, each
census's times (epoch ms), the reports the page swapped in (hp2x.liveLog:
census, why, at, got, decoded, ms, and whether the server pushed it, a
"report" event, the page fetched "/" again, or it drew a new band set
from the update itself, "update: bands") and its long tasks.  A
census shown late is put down to the first of: a report of the same page
in progress between the census's arrival and its drawing ("fetch: WHY" or
"pushed: WHY"), one of another page ("another page's fetch: WHY", ...), a
long task of the page ("long task"), or nothing the page saw ("-").  Then
how many censuses were over the goal (50 ms for one page, 250 ms for
more) in a stream's first five censuses and after, and the p99 after;
the censuses by their number in the stream (1-5, then the rest), with
census 1's parts (update heard, first report swapped in or drawn into the
warm-up from its update, its frame), how the first report came and how
many pages were still warming up when census 1 was sent; each
stream's first five censuses on its first page, with its first
report's times and when the page's load and warm-up ended."""
import json
import os
import sys


def overlaps(at, ms, t0, t1):
    return at is not None and at < t1 and at + (ms or 0) > t0


def how(e):
    """A log entry's reason, and how its report came."""
    return ("update: " if e.get("update") else "pushed: " if e.get("pushed") else "fetch: ") + e["why"]


def cause(d, p, k):
    t0, t1 = d["sent"][k], d["pages"][p]["picture"][k]
    if t1 is None:
        return "not shown"
    own = [how(e) for e in d["pages"][p]["log"] if overlaps(e.get("at"), e.get("ms"), t0, t1)]
    if own:
        return ",".join(sorted(set(own)))
    other = [how(e) for q, pg in enumerate(d["pages"]) if q != p
             for e in pg["log"] if overlaps(e.get("at"), e.get("ms"), t0, t1)]
    if other:
        return "another page's " + ",".join(sorted(set(other)))
    if any(overlaps(x["at"], x["ms"], t0, t1) for x in d["pages"][p]["tasks"]):
        return "long task"
    return "-"


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))] if xs else float("nan")


def report(name, r, top):
    rows, fetches = [], {}
    for d in r["detail"]:
        for p, pg in enumerate(d["pages"]):
            for e in pg["log"]:
                fetches.setdefault(how(e), []).append(e)
            for k, t in enumerate(pg["picture"]):
                if t is not None:
                    rows.append((t - d["sent"][k], d, p, k))
    if not rows:
        return
    print("### %s: reports swapped in, fetched from / again or pushed, by reason (all pages)" % name)
    print()
    print("| how: reason | reports | p50 ms | max ms | of which received (p50) | parsed, decoded (p50) | swapped, drawn (p50) |")
    print("|---|---|---|---|---|---|---|")
    for why, es in sorted(fetches.items()):
        done = [e["ms"] for e in es if e.get("ms") is not None]
        got = [e["got"] for e in es if e.get("got") is not None]
        dec = [e["decoded"] - e["got"] for e in es if e.get("decoded") is not None and e.get("got") is not None]
        drawn = [e["ms"] - e["decoded"] for e in es if e.get("ms") is not None and e.get("decoded") is not None]
        print("| %s | %d | %.0f | %.0f | %.0f | %.0f | %.0f |" % (
            why, len(es), pct(done, 50), max(done) if done else float("nan"), pct(got, 50), pct(dec, 50),
            pct(drawn, 50)))
    if not fetches:
        print("| (none) | 0 | - | - | - | - | - |")
    print()
    by = {}
    for lat, d, p, k in rows:
        by.setdefault(cause(d, p, k), []).append(lat)
    print("### %s: censuses drawn by cause (all pages)" % name)
    print()
    print("| cause | censuses | p50 ms | p99 ms | max ms |")
    print("|---|---|---|---|---|")
    for c, xs in sorted(by.items(), key=lambda x: -max(x[1])):
        print("| %s | %d | %.0f | %.0f | %.0f |" % (c, len(xs), pct(xs, 50), pct(xs, 99), max(xs)))
    print()
    goal = 50 if name.startswith("1page") else 250
    early = [lat for lat, d, p, k in rows if k < 5]
    late = [lat for lat, d, p, k in rows if k >= 5]
    print("%s: censuses over %d ms: %d in a stream's censuses 1-5, %d later, of %d; p99 from census 6: %.0f ms" % (
        name, goal, sum(1 for x in early if x > goal), sum(1 for x in late if x > goal), len(rows), pct(late, 99)))
    print()
    by_census(name, r, goal)
    first_censuses(name, r)
    print("### %s: the %d slowest censuses drawn" % (name, top))
    print()
    print("| stream | census | page | ms | cause |")
    print("|---|---|---|---|---|")
    for lat, d, p, k in sorted(rows, key=lambda x: -x[0])[:top]:
        print("| %s | %d | %s | %.0f | %s |" % (d["stream"], k + 1, d["pages"][p]["name"], lat, cause(d, p, k)))
    heard = r.get("heard", [])
    if heard:
        print()
        print("%s: the frame showing a change made -> node hearing of it (the observation's own delay, left out of the figures above): p50 %.1f, p99 %.1f, max %.1f ms (%d)" %
              (name, pct(heard, 50), pct(heard, 99), max(heard), len(heard)))
    print()


def by_census(name, r, goal):
    """Censuses by their number in the stream (all pages): 1-5 each, then
    the rest; how many over the goal and what the slow ones were put down
    to; for census 1, where its time went (the first report's log entry:
    the update heard, the report swapped in, the frame showing it); and
    how many pages' warm-ups ended after census 1 was sent (the stream
    started while a page was still warming up)."""
    rows, parts, late, how1 = {}, {"heard": [], "swap": [], "frame": []}, 0, {}
    for d in r["detail"]:
        for p, pg in enumerate(d["pages"]):
            warm = pg.get("warm") or {}
            if warm.get("dropped") is not None and warm["dropped"] > d["sent"][0]:
                late += 1
            for k, t in enumerate(pg["picture"]):
                if t is not None:
                    rows.setdefault(min(k, 5), []).append((t - d["sent"][k], cause(d, p, k)))
            first = [e for e in pg["log"] if e["why"] == "first" and e.get("at") and e.get("ms") is not None]
            if first and pg["picture"][0] is not None:
                # (drawn into the warm-up from its update, update: true,
                # the swap is its ms alike)
                e = first[0]
                how1[how(e)] = how1.get(how(e), 0) + 1
                parts["heard"].append(e["at"] - d["sent"][0])
                parts["swap"].append(e["ms"])
                parts["frame"].append(pg["picture"][0] - e["at"] - e["ms"])
    print("### %s: censuses by their number in the stream (all pages)" % name)
    print()
    print("| census | censuses | p50 ms | p99 ms | max ms | over %d ms | the slow ones' causes |" % goal)
    print("|---|---|---|---|---|---|---|")
    for k in sorted(rows):
        xs = [x for x, _ in rows[k]]
        slow = {}
        for x, c in rows[k]:
            if x > goal:
                slow[c] = slow.get(c, 0) + 1
        print("| %s | %d | %.0f | %.0f | %.0f | %d | %s |" % (
            k + 1 if k < 5 else "6 on", len(xs), pct(xs, 50), pct(xs, 99), max(xs), sum(1 for x in xs if x > goal),
            ", ".join("%s %d" % (c, n) for c, n in sorted(slow.items(), key=lambda x: -x[1])) or "-"))
    print()
    if parts["heard"]:
        print("%s: census 1 on each page (ms, p50 / max): update heard %s, first report swapped in %s, "
              "then its frame %s; pages whose warm-up was dropped after census 1 was sent: %d; "
              "the first report: %s" % (
                  name, *("%.0f / %.0f" % (pct(parts[x], 50), max(parts[x])) for x in ("heard", "swap", "frame")), late,
                  ", ".join("%s %d" % kv for kv in sorted(how1.items()))))
        print()


def first_censuses(name, r):
    """Each stream's first censuses on its first page: ms from the census
    to it drawn (with the first letter of the report's reason: f first,
    b bands...), the first report's times from its update (received,
    swapped), and where the page's load and warm-up ended, from census 1."""
    print("### %s: each stream's first censuses (the first page)" % name)
    print()
    print("| stream | censuses 1-5 ms | first report: update at, swapped at | page loaded, warm-up dropped |")
    print("|---|---|---|---|")
    for d in r["detail"]:
        if not d["pages"] or not d["sent"]:
            continue  # (a stream no page followed)
        pg, s = d["pages"][0], d["sent"][0]
        why = {e["census"]: e["why"][0] for e in pg["log"]}
        xs = " ".join("-" if t is None else "%.0f%s" % (t - s0, why.get(k + 1, ""))
                      for k, (t, s0) in enumerate(zip(pg["picture"][:5], d["sent"][:5])))
        first = [e for e in pg["log"] if e["why"] == "first"]
        rep = "-"
        if first and first[0].get("at") is not None:
            e = first[0]
            rep = "%+.0f, %s" % (e["at"] - s, "-" if e.get("ms") is None else "%+.0f" % (e["at"] + e["ms"] - s))
        warm = pg.get("warm") or {}
        f = lambda x: "-" if x is None else "%+.0f" % (x - s)
        print("| %s | %s | %s | %s, %s |" % (d["stream"], xs, rep, f(pg.get("loaded")), f(warm.get("dropped"))))
    print()


def main():
    top = int(os.environ.get("SERVE_SLOWEST", "12"))
    for f in sys.argv[1:]:
        r = json.load(open(f))
        if r.get("detail"):
            report(os.path.basename(f).replace(".out.json", ""), r, top)


if __name__ == "__main__":
    main()
