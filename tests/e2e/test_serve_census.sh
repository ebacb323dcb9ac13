#!/usr/bin/env bash
# A live page of --serve draws each census itself, from the census its
# /events update carries (tests/browser/live_census_test.js, in Debian's
# chromium through playwright-core), and holds in the end what -o x.html of
# the same input holds.  Two inputs, through the real binary:
# - a real recorded stream (tests/data/socket, GHC 9.10.3, joined mid-run)
#   replayed over a Unix socket into hp2x --watch --tee;
# - a real run's .hp (GHC 9.6.6) written census by census to a growing
#   file, from census 250 with a band of a hostile name that enters the
#   top -m (a new band set: the page must fetch "/" again, and the label
#   stays text), with bands leaving OTHER as the run grows (-t: their
#   pasts change); the page is hidden (a tab in the background) for 100
#   censuses, more than an update's tail: it sees the gap and catches up.
#   The page draws census 1 into its warm-up from census 1's update (which
#   carries the first report's picture and data), and takes the new band
#   sets from the server's "report" events, fetching "/" for neither
#   (HP2X_PUSH=expect); in 1. it never hears them (HP2X_PUSH=drop): census 1
#   comes from its update when the warm-up was drawn, else from a fetch.
# - its first 330 censuses, a MARK after each of the first 220 (2m): the
#   marks ride in the updates made while one of the last 32 said others,
#   for a page in any of those states; the page hidden across more than
#   that fetches "/" once when shown, and for its marks no more;
# - the same run up to census 254, the new band set at its end: the page's
#   last report is a pushed one and it then matches hp2x's PNG; an SSE
#   client that waits as a page does (?shown=-1) sees each report event
#   well-formed, and census 1's update carrying its report's picture (the
#   glyphs the page then shows) and data;
# - its first 50 censuses, the band entering at census 31: every census in
#   an update's tail, so the page draws the new band set from its update
#   and key, no report pushed or fetched, its key and axes as hp2x's PNG;
# - a generated .hp of 3,800 censuses, more than the report holds one
#   each: the page thins as the report does, from each update's change of
#   the censuses held, fetching no page for it (its data equals -o
#   x.html's where the input pauses, the last pause well past a doubling
#   of the report's buckets, and at the end).
# Checks (besides the page's own, see live_census_test.js, which holds
# the page's drawing against hp2x's PNG of the whole input): the page's
# final data (censuses, times, values, the band table's cells, the axes,
# each chart kind's y ticks; and the header, the picture's geometry and
# what the profile says, which census 1 drawn into the warm-up must not
# keep from it) equals the report's of -o x.html of the tee'd stream or the
# whole file, and the update's bytes on /events.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
B=$TOP/tests/browser
if ! command -v node > /dev/null || [ ! -d "$B/node_modules/playwright-core" ]; then
  echo "SKIPPED: node or playwright-core missing (make deps installs them)"; exit 0
fi
if ! command -v chromium > /dev/null && [ -z "${HP2X_CHROMIUM:-}" ]; then
  echo "SKIPPED: no chromium (make deps installs it)"; exit 0
fi
cd "$T"

# grow SRC DST: appends SRC's header to DST, then its censuses one by
# one (each with the MARK lines after it), every 30 ms.
grow() {
  python3 - "$1" "$2" <<'PY'
import re, sys, time
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n(?:MARK[^\n]*\n)*", "BEGIN_SAMPLE" + rest, re.S)
with open(sys.argv[2], "a") as out:
    out.write(head)
    out.flush()
    for s in samples:
        out.write(s)
        out.flush()
        time.sleep(0.03)
PY
}

# grown NAME SRC DST WHAT: once the page (node, $BR) has loaded
# ($T/loadedNAME), grows DST from SRC, waits for the page
# (browserNAME.txt), stops the server and writes -o finalNAME.html of DST.
grown() {
  for _ in $(seq 600); do [ -e "$T/loaded$1" ] && break; sleep 0.1; done
  grow "$2" "$3"
  wait $BR; brc=$?
  cat "browser$1.txt"
  serve_stop
  [ $brc -eq 0 ] && ok || fail "the page following $4"
  cmp -s "$2" "$3" || fail "the growing file is not the whole run's"
  "$HP2X" -m4 "$3" -o "final$1.html" 2> /dev/null || fail "-o final$1.html of the .hp"
}

# report_data REPORT.html: the report's data (its hp2x-data script), as JSON
report_data() {
  python3 -c 'import re, sys; sys.stdout.write(re.search(r"<script type=\"application/json\" id=\"hp2x-data\">(.*?)</script>", open(sys.argv[1], encoding="utf-8").read(), re.S).group(1))' "$1"
}

# same_data PAGE.json REPORT.html NAME: the page's final data equals the
# report's, field by field (y tick positions to 1e-6 points).
same_data() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, re, sys
page = json.load(open(sys.argv[1]))["data"]
html = open(sys.argv[2], encoding="utf-8").read()
rep = json.loads(re.search(r'<script type="application/json" id="hp2x-data">(.*?)</script>', html, re.S).group(1))
name, bad = sys.argv[3], []
def same(what, a, b):
    if a != b:
        bad.append("%s: page %s, report %s" % (what, json.dumps(a)[:200], json.dumps(b)[:200]))
for f in ("censuses", "set", "x0", "xrange", "ymin", "yrange", "tickEnd", "topPeak", "topPeakAt", "t",
          "areaText"):
    same(f, page.get(f), rep.get(f))
# the title's area text the page drew (cut in the middle with an ellipsis
# only where it does not fit)
drawn, want = json.load(open(sys.argv[1])).get("areaDrawn"), rep.get("areaText")
if drawn != want and not (want and drawn and "\u2026" in drawn and
                          want.startswith(drawn.split("\u2026")[0]) and want.endswith(drawn.split("\u2026")[1])):
    bad.append("drawn area text: page %s, report %s" % (json.dumps(drawn), json.dumps(want)))
# the header, the picture's geometry and what the profile says, which a
# page drawn into its warm-up must not keep from it (not "budget": a lean
# page's is the least by design)
for f in ("job", "date", "valueUnit", "sampleUnit", "signed", "midRun", "chart", "pattern", "markCount", "markSum",
          "marks", "lines", "look"):
    same(f, page.get(f), rep.get(f))
for f in sorted(set(rep["page"]) | set(page["page"])):
    if f not in ("ticks", "tickLabels"):  # (the picture's x ticks: the page draws its own)
        same("page " + f, page["page"].get(f), rep["page"].get(f))
same("chart kinds", sorted(page["charts"]), sorted(rep["charts"]))
same("tx", page.get("tx") or [float(t) for t in page["t"]], rep.get("tx") or [float(t) for t in rep["t"]])
same("bands", [b["name"] for b in page["bands"]], [b["name"] for b in rep["bands"]])
for pb, rb in zip(page["bands"], rep["bands"]):
    for f in ("v", "total", "peak", "peakAt", "slope", "r2", "area", "suspect", "peakV"):
        same("band %s %s" % (rb["name"][:40], f), pb[f], rb[f])
for kind, rc in rep["charts"].items():
    pc = page["charts"][kind]
    same(kind + " ymin", pc["ymin"], rc["ymin"])
    same(kind + " yrange", pc["yrange"], rc["yrange"])
    for f in ("legend", "yRoom", "heap"):
        same(kind + " " + f, pc.get(f), rc.get(f))
    same(kind + " tick labels", [t[1] for t in pc["ticks"]], [t[1] for t in rc["ticks"]])
    if any(abs(a[0] - b[0]) > 1e-6 for a, b in zip(pc["ticks"], rc["ticks"])):
        bad.append(kind + " tick positions: page %s, report %s" % (pc["ticks"], rc["ticks"]))
for b in bad[:8]:
    print("%s: %s" % (name, b))
print("%s: the page's %d censuses and %d bands %s the report's" % (
    name, len(page["t"]), len(page["bands"]), "differ from" if bad else "equal"))
sys.exit(1 if bad else 0)
PY
}

# stream_to SOCK EVENTS: replays s1.eventlog into the server's socket SOCK
# while a plain client keeps /events in EVENTS (the update's bytes), then
# waits for the page's test ($BR: brc) and stops the server.
stream_to() {
  python3 "$TOP/tests/tools/serve_stream.py" "unix:$T/$1" s1.eventlog \
    --after 0.5 --min 20000 --max 40000 --delay 0.1 --seed 5 & SS=$!
  curl -sN -m 6 "http://127.0.0.1:$PORT/events" > "$2"
  wait $BR; brc=$?
  kill $SS 2> /dev/null; wait $SS
  serve_stop
}

# 1. A socket stream, joined mid-run, tee'd.
zcat "$TOP/tests/data/socket/ghc-9.10.3/longrun.hT.stream1.eventlog.gz" > s1.eventlog
"$HP2X" -m4 --dpi=96 s1.eventlog -o expect1.png 2> /dev/null || fail "-o expect1.png"
serve_start err1 --watch --interval=0.1 -m4 --tee="$T/tee.eventlog" "unix:$T/app.sock" --serve=0 ||
  fail "no serving line: $(cat err1)"
# (the page never hears the report event: census 1 drawn from its update,
# or, without a warm-up drawn, its report fetched)
HP2X_PUSH=drop HP2X_LOADED=$T/loaded1 node "$B/live_census_test.js" "http://127.0.0.1:$PORT/" page1.json 90 70 \
  expect1.png > browser1.txt 2>&1 & BR=$!
# (the stream once the waiting page has loaded: a slow browser's start
# would take the first report from its load, not from an event)
for _ in $(seq 600); do [ -e "$T/loaded1" ] && break; sleep 0.1; done
# The waiting page's warm-up (/?warm=1): a lean report of hp2x's own tiny
# profile, drawn with the run's options (-m4), nothing of the run in it.
curl -s "http://127.0.0.1:$PORT/?warm=1" > warm1.html
python3 - warm1.html <<'PY' && ok || fail "the warm-up page: $(head -c 300 warm1.html)"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
assert 'id="hp2x-report"' in page and 'data-hp2x-redraw="0"' in page, "not a live report"
assert re.search(r'<img id="hp2x-raster"[^>]* src="data:image/png;base64,"', page), "its PNG's bytes are in"
assert "hp2x-live-status" in page and page.count("<script") == 1, "scripts in a lean page"
d = json.loads(re.search(r'<script type="application/json" id="hp2x-data">(.*?)</script>', page, re.S).group(1))
assert d["job"] == "hp2x" and len(d["t"]) == 3 and sorted(b["name"] for b in d["bands"]) == ["a", "b"], (d["job"], d["t"], [b["name"] for b in d["bands"]])
PY
stream_to app.sock events1.txt
cat browser1.txt
if [ $brc -eq 3 ]; then finish; exit; fi
[ $brc -eq 0 ] && ok || fail "the page following the socket stream"
"$HP2X" -m4 tee.eventlog -o final1.html 2> /dev/null || fail "-o final1.html of the tee'd stream"
same_data page1.json final1.html socket > same1.txt && ok || fail "$(cat same1.txt)"
cat same1.txt
# Every update after the first census carries the census: the last event's
# tail ends at its last census, with a value per band.
python3 - events1.txt <<'PY' && ok || fail "the updates' bytes"
import json, sys
evs = [e for e in open(sys.argv[1], encoding="utf-8").read().split("\n\n") if e.startswith("event: update")]
ups = [json.loads(e.split("\ndata: ", 1)[1]) for e in evs]
with_census = [u for u in ups if u["censuses"] > 0]
assert with_census, "no update with a census"
for u in with_census:
    x = u["update"]
    assert x["t"][-1] == "%.6f" % u["last_census"], (x["t"][-1], u["last_census"])
    assert len(x["v"]) == len(x["cells"]) and all(len(v) == len(x["t"]) for v in x["v"]), "values per band"
    assert len(x["set"]) == 16 and x["samples"] >= len(x["t"]), x["set"]
    # (a plain client is no waiting page: no first report in a key)
    assert "first" not in u.get("key", {}), u["picture"]
print("%d updates, each carrying its newest census" % len(with_census))
PY

# 1h. The same stream with --heap: each update carries the heap lines
# whole, which the page takes in place of its own; it never fetches "/"
# for them (why "lines"), and ends with -o x.html's lines.
"$HP2X" -m4 --heap --dpi=96 s1.eventlog -o expect1h.png 2> /dev/null || fail "-o expect1h.png"
serve_start err1h --watch --interval=0.1 -m4 --heap --tee="$T/tee1h.eventlog" "unix:$T/app1h.sock" --serve=0 ||
  fail "no serving line: $(cat err1h)"
# (the PNG's dense heap lines: the report's own drawing of them, not live,
# differs from cairo's in 5.8 % of the graph's pixels, 13,034 of 224,660)
HP2X_DRAWN_SHARE=0.07 HP2X_PUSH=drop HP2X_LOADED=$T/loaded1h node "$B/live_census_test.js" "http://127.0.0.1:$PORT/" page1h.json 90 70 \
  expect1h.png > browser1h.txt 2>&1 & BR=$!
for _ in $(seq 600); do [ -e "$T/loaded1h" ] && break; sleep 0.1; done
stream_to app1h.sock events1h.txt
cat browser1h.txt
[ $brc -eq 0 ] && ok || fail "the page following the socket stream with --heap"
"$HP2X" -m4 --heap tee1h.eventlog -o final1h.html 2> /dev/null || fail "-o final1h.html of the tee'd stream"
same_data page1h.json final1h.html heap > same1h.txt && ok || fail "$(cat same1h.txt)"
cat same1h.txt
# (same_data held the page's lines, points and looks, to the report's)
python3 - page1h.json events1h.txt <<'PY' && ok || fail "the --heap lines"
import json, sys
page = json.load(open(sys.argv[1]))
lines = page["data"]["lines"]
assert [l["name"] for l in lines] == ["heap size", "blocks size", "live bytes"], [l["name"] for l in lines]
fetched = [e for e in page["log"] if e["why"] == "lines"]
assert not fetched, ("fetched for its lines", fetched)
ups = [json.loads(e.split("\ndata: ", 1)[1]) for e in open(sys.argv[2], encoding="utf-8").read().split("\n\n")
       if e.startswith("event: update")]
ups = [u["update"] for u in ups if u["censuses"] > 0]
assert ups and all([l["name"] for l in u["lines"]] == [l["name"] for l in lines] and
                   all(len(l["t"]) == len(l["y"]) > 0 for l in u["lines"]) for u in ups), "an update without its lines"
print("%d lines of %s points, as the report's; %d fetches, none for lines; %d updates carrying them, at most %d bytes" % (
    len(lines), [len(l["t"]) for l in lines], len(page["log"]), len(ups), max(len(json.dumps(u["lines"])) for u in ups)))
PY

# 2m. A growing .hp with a MARK after every census up to census 220, none
# after: an update made while one of the last 32 updates said other marks
# (HP2X_LIVE_MARK_WINDOW) carries them, after the fewest those said
# ("marksFrom", for a page whose markSum is one of "marksBase"), the others
# their count and fingerprint, markSum, alone.  A plain client on /events
# holds every update to that, and a page that takes one update in 1, 5 or
# 20 of those (as a page that fetched, a stream that fell behind or a
# thinning page does) to never lacking its marks; their sizes are printed.
# The page takes them in place of its own; hidden from census 35 to 175
# (past the window), it fetches "/" once when shown (for its marks, or the
# gap), and for its marks no more, though each fetch is answered 0.4 s late
# (HP2X_SLOW_FETCH: a few updates come meanwhile, the newest replayed):
# before, each fetch spanned new marks, which the update after it did not
# carry for the fetched report's, and the fetches chained.  It ends with -o x.html's marks.
zcat "$TOP/tests/data/socket/ghc-9.6.6/longrun.hT.hp.gz" > run2m.hp
python3 - run2m.hp marks.hp <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)[:330]
with open(sys.argv[2], "w") as out:
    out.write(head)
    for k, s in enumerate(samples):
        out.write(s)
        if k < 220:
            out.write("MARK %s\n" % s.split("\n", 1)[0].split()[1])
PY
"$HP2X" -m4 --dpi=96 marks.hp -o expect2m.png 2> /dev/null || fail "-o expect2m.png"
: > grow2m.hp
serve_start err2m --watch --interval=0.1 -m4 grow2m.hp --serve=0 || fail "no serving line: $(cat err2m)"
HP2X_SLEEP_WHY=any HP2X_SLOW_FETCH=400 HP2X_LOADED=$T/loaded2m node "$B/live_census_test.js" "http://127.0.0.1:$PORT/" page2m.json 90 330 \
  expect2m.png 35 175 > browser2m.txt 2>&1 & BR=$!
curl -sN -m 60 "http://127.0.0.1:$PORT/events" > events2m.txt & EV=$!
grown 2m marks.hp grow2m.hp "the growing .hp with marks"
wait $EV
same_data page2m.json final2m.html marks > same2m.txt && ok || fail "$(cat same2m.txt)"
cat same2m.txt
report_data final2m.html > final2m.json
python3 - page2m.json final2m.json marks.hp <<'PY' && ok || fail "the marks"
import json, sys
page, rep = (json.load(open(f, encoding="utf-8")) for f in sys.argv[1:3])
marks = page["data"]["marks"]
want = open(sys.argv[3]).read().count("\nMARK ")
assert len(marks) == want and marks == rep["marks"], (len(marks), len(rep["marks"]), want)
assert page["data"]["markSum"] == rep["markSum"], (page["data"]["markSum"], rep["markSum"])
first = next((i for i, e in enumerate(page["log"]) if e["why"] in ("first", "report")), -1)
fetched = [e for e in page["log"][first + 1:] if e["why"] == "marks"]
# (at most once: shown again, at census 175 or later, having missed more
# updates than the window)
assert len(fetched) <= 1 and all(e["census"] >= 175 for e in fetched), ("fetched for its marks", page["log"])
print("%d marks, as the report's; %d fetches %s, %d for marks" % (
    len(marks), len(page["log"]), [(e["census"], e["why"]) for e in page["log"]], len(fetched)))
PY
python3 - events2m.txt final2m.html <<'PY' && ok || fail "the updates' marks"
import json, re, sys
ups = [json.loads(e.split("\ndata: ", 1)[1]) for e in open(sys.argv[1], encoding="utf-8").read().split("\n\n")
       if e.startswith("event: update")]
ups = [u for u in ups if u["censuses"] > 0]
rep = json.loads(re.search(r'<script type="application/json" id="hp2x-data">(.*?)</script>',
                           open(sys.argv[2], encoding="utf-8").read(), re.S).group(1))
assert ups and ups[-1]["update"]["markSum"] == rep["markSum"], "the last update's markSum is not the report's"
sizes, appended, prev = {True: [], False: []}, 0, None
for u in ups:
    x = u["update"]
    assert re.fullmatch(r"[0-9a-f]{16}", x["markSum"]) and x["markCount"] >= 0, x.get("markSum")
    if prev is not None and u["picture"] > prev["picture"]:
        p = prev["update"]
        same = x["markSum"] == p["markSum"]
        # (the update before it is in the window: none only when it said these)
        assert same or "marks" in x, ("a change without its marks", u["picture"])
        if "marks" in x:
            assert len(x["marks"]) + x.get("marksFrom", 0) == x["markCount"], ("the marks' count", u["picture"])
        if x.get("marksFrom"):
            assert same or (p["markSum"] in x["marksBase"] and x["marksFrom"] <= p["markCount"]), (
                "marksFrom", u["picture"])
            appended += 1
    sizes["marks" in x].append(len(json.dumps(x, separators=(",", ":"))))
    prev = u
# a page that takes one update in `skip` (as takeMarks): never lacks its
# marks (it loads them from the first update that carries them whole)
for skip in (1, 5, 20):
    marks, count, mark_sum, lacked = None, None, None, 0
    for x in [u["update"] for u in ups[::skip]] + [ups[-1]["update"]]:
        if (x["markCount"], x["markSum"]) == (count, mark_sum):
            continue
        frm = x.get("marksFrom", 0)
        if marks is None and (frm or "marks" not in x):
            continue  # (not loaded yet)
        if "marks" not in x or (frm and (mark_sum not in x["marksBase"] or len(marks) < frm)):
            lacked += 1
            break
        marks = (marks[:frm] if frm else []) + x["marks"]
        count, mark_sum = x["markCount"], x["markSum"]
    assert lacked == 0 and marks == rep["marks"], ("a page taking one update in", skip, lacked)
assert appended >= 10 and sizes[True], (appended, len(sizes[True]))
print("%d updates: %d with marks (mean %d bytes, max %d), %d without (mean %d bytes, max %s); %d of them after "
      "marksFrom" % (len(ups), len(sizes[True]), sum(sizes[True]) // len(sizes[True]), max(sizes[True]),
                     len(sizes[False]), sum(sizes[False]) // max(1, len(sizes[False])), max(sizes[False] or ["-"]),
                     appended))
PY

# 2. A growing .hp, a hostile band entering the top -m at census 250; the
# page hidden from census 120 to 220.
zcat "$TOP/tests/data/socket/ghc-9.6.6/longrun.hT.hp.gz" > run.hp
python3 - run.hp full.hp <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
hostile = '<img src=x onerror=alert(1)>"&\'</script>'
with open(sys.argv[2], "w") as out:
    out.write(head)
    for k, s in enumerate(samples):
        if k >= 250:
            s = s.replace("\nEND_SAMPLE", "\n%s\t%d\nEND_SAMPLE" % (hostile, 40000000 + 1000 * k), 1)
        out.write(s)
PY
"$HP2X" -m4 --dpi=96 full.hp -o expect2.png 2> /dev/null || fail "-o expect2.png"
: > grow.hp
serve_start err2 --watch --interval=0.1 -m4 grow.hp --serve=0 || fail "no serving line: $(cat err2)"
# (the first report and the new band set pushed, no fetch of "/" for them;
# the page kept busy at census 60: the updates that queued drawn together)
HP2X_PUSH=expect HP2X_BLOCK=60 HP2X_LOADED=$T/loaded2 node "$B/live_census_test.js" \
  "http://127.0.0.1:$PORT/" page2.json 120 \
  "$(grep -c '^BEGIN_SAMPLE' run.hp)" expect2.png 120 220 > browser2.txt 2>&1 & BR=$!
# (the stream once the waiting page has loaded, as in 1; census by
# census, every 30 ms)
grown 2 full.hp grow.hp "the growing .hp"
same_data page2.json final2.html file > same2.txt && ok || fail "$(cat same2.txt)"
cat same2.txt
python3 - page2.json <<'PY' && ok || fail "the new band set"
import json, sys
r = json.load(open(sys.argv[1]))
names = [b["name"] for b in r["data"]["bands"]]
assert any(n.startswith("<img src=x") for n in names), names
assert any(n.startswith("<img src=x") for n in r["last"]["labels"]), r["last"]["labels"]
assert any(e["why"] == "bands" for e in r["log"]), r["log"]
assert any(e["why"] == "past" for e in r["log"]), r["log"]
PY

# 2b. The same run up to census 254, the hostile band entering the top -m
# at its end: the page's last report is a pushed one (a new band set),
# and the page then matches hp2x's PNG of the whole input; an SSE client
# that waits (as a page does) sees each report event well-formed, with its
# redraw's band set, and census 1's update with its report (key.first).
python3 - full.hp part.hp <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
open(sys.argv[2], "w").write(head + "".join(samples[:254]))
PY
"$HP2X" -m4 --dpi=96 part.hp -o expect2b.png 2> /dev/null || fail "-o expect2b.png"
: > grow2b.hp
serve_start err2b --watch --interval=0.1 -m4 grow2b.hp --serve=0 || fail "no serving line: $(cat err2b)"
HP2X_PUSH=expect HP2X_LOADED=$T/loaded2b node "$B/live_census_test.js" \
  "http://127.0.0.1:$PORT/" page2b.json 90 254 expect2b.png > browser2b.txt 2>&1 & BR=$!
# (an SSE client that says it waits, as the waiting page does: census 1's
# update, when it is the first report's, carries that report's picture)
curl -sN -m 16 "http://127.0.0.1:$PORT/events?shown=-1" > events2b.txt & EV=$!
# (the stream once the page has loaded and the SSE client has its first
# event: both see the first census's report)
for _ in $(seq 600); do [ -e "$T/loaded2b" ] && [ -s events2b.txt ] && break; sleep 0.1; done
grow part.hp grow2b.hp
wait $BR; brc=$?
wait $EV
cat browser2b.txt
serve_stop
[ $brc -eq 0 ] && ok || fail "the page following a new band set at the run's end"
python3 - page2b.json <<'PY' && ok || fail "the page's last report was not pushed"
import json, sys
log = json.load(open(sys.argv[1]))["log"]
assert log and log[-1]["why"] == "bands" and log[-1]["pushed"], log
print("its last report: %s at census %d, pushed" % (log[-1]["why"], log[-1]["census"]))
PY
python3 - events2b.txt page2b.json <<'PY' && ok || fail "the report events' bytes"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
evs = [e for e in text.split("\n\n") if e.startswith("event: ")]
sets, reports, pages, firsts = {}, [], {}, []
for e in evs:
    kind, rest = e.split("\n", 1)
    lines = rest.split("\n")
    if kind == "event: report":
        # one data line of JSON: the page's newlines escaped
        assert len(lines) == 1 and lines[0].startswith("data: "), lines[:2]
        r = json.loads(lines[0][6:])
        assert set(r) == {"picture", "set", "lean", "page"}, sorted(r)
        page = r["page"]
        assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
        assert 'data-hp2x-redraw="%d"' % r["picture"] in page
        src = re.search(r'<img id="hp2x-raster"[^>]* src="data:image/png;base64,([^"]*)"', page).group(1)
        assert (src == "") == r["lean"], (r["lean"], len(src))
        assert "<script>" not in page and "<svg" in page, r["picture"]
        data = json.loads(re.search(r'<script type="application/json" id="hp2x-data">(.*?)</script>', page, re.S).group(1))
        assert data["set"] == r["set"], (r["picture"], data["set"], r["set"])
        reports.append((r["picture"], r["lean"], data["set"]))
        pages[r["picture"]] = page
    elif kind == "event: update":
        u = json.loads(lines[1][6:])
        if "update" in u:
            f = u.get("key", {}).get("first")
            if not sets:
                # (and whether its redraw's report came before it)
                firsts.append((u["picture"], u["update"], f, u["picture"] in pages))
            else:  # (a stream's first update only)
                assert f is None, ("a first report after census 1", u["picture"])
            sets[u["picture"]] = u["update"]["set"]
# each with the band set of its redraw's update, where the client had that
# update (it may come just after its report: the update waits for the
# pushing thread; or not at all: a stream sends the newest update)
for pic, lean, s in reports:
    assert sets.get(pic, s) == s, (pic, s, sets.get(pic))
# every one lean, the first too: no PNG, no script (the page has them)
assert reports and all(r[1] for r in reports), reports
# the band sets among the updates seen, and the pushes: one for each change
order = [sets[k] for k in sorted(sets)]
changes = 1 + sum(1 for a, b in zip(order, order[1:]) if a != b)
# a report only for a changed band set
assert all(a[2] != b[2] for a, b in zip(reports, reports[1:])), reports
assert reports[-1][2] == order[-1], "the last band set was not pushed"
# the first report event is the first redraw's, pushed with it (a waiting
# page has nothing to draw a census into), not a later band set's; its own
# update may be skipped by a stream behind (it sends the newest), so the
# first update seen is that redraw's or a later one's
assert reports[0][0] <= min(sets), ("first report", reports[0][0], "first update", min(sets))
print("%d report events (lean), %d band sets among %d updates" % (len(reports), changes, len(sets)))
# Census 1's update to a waiting stream, when it is the first report's
# redraw (a stream that missed it gets a newer one, whose report is not
# drawn), carries that report's picture (its SVG) and data, as its page has
# them, when that page was drawn before it: the report event came first
# (push.c holds the update at most HOLD_MS for it, then sends it without);
# the page that drew census 1 into its warm-up shows the glyphs of that
# picture (their places and symbols).
uses = lambda svg: [[re.search(r'%s="([^"]*)"' % a, u).group(1) for a in ("xlink:href", "x", "y")]
                    for u in re.findall(r"<use ([^>]*)/>", svg)]
pic, up, first, drawn = firsts[0]
svg = lambda page: re.search(r'<svg id="hp2x-picture".*?</svg>', page, re.S).group(0)
if pic == reports[0][0] and not first and not drawn:
    print("census 1's update (redraw %d) came before its report, the report not drawn yet: no first report" % pic)
elif pic == reports[0][0]:
    assert first, "census 1's update to a waiting stream carried no first report, its report pushed before it"
    page = pages[pic]
    assert first["picture"] == svg(page), "the first report's picture differs from its page's"
    assert first["data"] == json.loads(re.search(r'<script type="application/json" id="hp2x-data">(.*?)</script>', page, re.S).group(1))
    assert first["data"]["set"] == up["set"] and up["samples"] == len(up["t"])
    print("census 1's update (redraw %d) carried its report: a picture of %d glyphs, %d censuses" % (
        pic, len(uses(first["picture"])), len(first["data"]["t"])))
else:
    print("the waiting stream's first update (redraw %d) is not the first report's (%d): no first report" % (pic, reports[0][0]))
    assert not first
glyphs = json.load(open(sys.argv[2]))["glyphs"]
if glyphs and glyphs["redraw"] not in pages:
    # the page's own stream began at a later redraw than this stream's,
    # whose report events are all this test holds
    print("the page drew census 1 of redraw %d, not among this stream's reports %s: its glyphs not compared" % (
        glyphs["redraw"], sorted(pages)))
elif glyphs:
    want = uses(svg(pages[glyphs["redraw"]]))
    assert glyphs["uses"] == want, ("the page's glyphs", glyphs["uses"][:5], "its report's", want[:5], len(glyphs["uses"]), len(want))
    print("the page drew census 1 into its warm-up: its %d glyphs are the report's" % len(want))
PY

# 2c. A short run, every census in an update's tail: the hostile band
# enters the top -m at census 31 of 50.  The page draws the new band set
# from its update (its key: the bands' names and colours, where the graph
# and key lie), without a report pushed or fetched; its key and axes match
# hp2x's PNG (HP2X_KEY_CHECK), its data the report's, key included.
python3 - run.hp short.hp <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)[:50]
hostile = '<img src=x onerror=alert(1)>"&\'</script>'
for k in range(30, 50):
    samples[k] = samples[k].replace("\nEND_SAMPLE", "\n%s\t%d\nEND_SAMPLE" % (hostile, 40000000 + 1000 * k), 1)
open(sys.argv[2], "w").write(head + "".join(samples))
PY
"$HP2X" -m4 --dpi=96 short.hp -o expect2c.png 2> /dev/null || fail "-o expect2c.png"
# (two censuses first; the rest every 30 ms once the page shows its
# report, so that a slow browser's start misses none of the changes)
python3 - short.hp grow2c.hp 2 <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
open(sys.argv[2], "w").write(head + "".join(samples[:int(sys.argv[3])]))
PY
serve_start err2c --watch --interval=0.1 -m4 grow2c.hp --serve=0 || fail "no serving line: $(cat err2c)"
HP2X_SETS=update HP2X_KEY_CHECK=1 HP2X_READY=$T/ready2c node "$B/live_census_test.js" \
  "http://127.0.0.1:$PORT/" page2c.json 90 50 expect2c.png > browser2c.txt 2>&1 & BR=$!
curl -sN -m 70 "http://127.0.0.1:$PORT/events" > events2c.txt & EV=$!
python3 - short.hp grow2c.hp "$T/ready2c" <<'PY'
import os, re, sys, time
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
start = time.time()
while not os.path.exists(sys.argv[3]) and time.time() - start < 60:
    time.sleep(0.1)
with open(sys.argv[2], "a") as out:
    for s in samples[2:]:
        out.write(s)
        out.flush()
        time.sleep(0.03)
PY
wait $BR; brc=$?
kill $EV 2> /dev/null
wait $EV
cat browser2c.txt
serve_stop
[ $brc -eq 0 ] && ok || fail "the page drawing a new band set from its update"
"$HP2X" -m4 short.hp -o final2c.html 2> /dev/null || fail "-o final2c.html"
same_data page2c.json final2c.html short > same2c.txt && ok || fail "$(cat same2c.txt)"
cat same2c.txt
report_data final2c.html > final2c.json
python3 - page2c.json final2c.json events2c.txt <<'PY' && ok || fail "the new band set's key"
import json, sys
page, rep = (json.load(open(f, encoding="utf-8")) for f in sys.argv[1:3])
D = page["data"]
# the key as hp2x lays it out: names shortened, colours, places
for f in ("graph", "xRoom", "keyX", "keyW", "keyC", "keyNames"):
    assert D["page"][f] == rep["page"][f], (f, D["page"][f], rep["page"][f])
assert [b["colour"] for b in D["bands"]] == [b["colour"] for b in rep["bands"]]
assert any(n.startswith("<img src=x") for n in D["page"]["keyNames"]), D["page"]["keyNames"]
log = [e for e in page["log"] if e["why"] == "bands"]
assert log and all(e.get("update") for e in log), page["log"]
# the events: a key with each changed band set's update, none with the
# others, and no report but the first
text = open(sys.argv[3], encoding="utf-8").read()
sets, keys, reports = [], 0, 0
for e in text.split("\n\n"):
    if e.startswith("event: report"):
        reports += 1
    elif e.startswith("event: update"):
        u = json.loads(e.split("\n")[2][6:])
        if "update" not in u:
            continue
        changed = not sets or sets[-1] != u["update"]["set"]
        assert ("key" in u) == changed or not sets, (u["picture"], changed, "key" in u)
        if "key" in u:
            keys += 1
            assert u["key"]["set"] == u["update"]["set"] and "first" not in u["key"]
            assert len(u["key"]["bands"]) == len(u["update"]["v"])
        sets.append(u["update"]["set"])
assert keys >= 2 and reports == 1, (keys, reports)
print("new band sets drawn from their updates at censuses %s; %d keys, %d report among %d updates" % (
    [e["census"] for e in log], keys, reports, len(sets)))
PY

# 3. Past the point where the report thins (3,200 censuses: one per time
# bucket after, 1/64 s wide; 1/32 s from census 3,573 on, the run 50 s
# long): 3,150 censuses at once, then, once the page shows its report,
# 650 more 5 at a time, the input pausing at censuses 3,250, 3,330 and
# 3,700 until the page's data there is written; the input closes (--idle-exit),
# and the page holds what -o x.html holds, there and at the end, having
# fetched "/" for none of it: each update says what changed in the
# censuses the report holds.
python3 - big.hp <<'PY'
import math
with open("big.hp", "w") as out:
    out.write('JOB "thin"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
    for k in range(3800):
        out.write("BEGIN_SAMPLE %.3f\n" % (k * 0.014))
        for b, name in enumerate(("alpha", "beta", "gamma")):
            out.write("%s\t%d\n" % (name, 1000 * (b + 1) + int(900 * (1 + math.sin(k / (37.0 + b))))))
        out.write("END_SAMPLE %.3f\n" % (k * 0.014))
PY
"$HP2X" --dpi=96 big.hp -o expect3.png 2> /dev/null || fail "-o expect3.png"
# the first 3,150 censuses before the watch starts (--idle-exit counts
# from its start: a grower slow to begin on a loaded machine must not end
# it on an empty file)
python3 - big.hp grow3.hp <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
open(sys.argv[2], "w").write(head + "".join(samples[:3150]))
PY
serve_start err3 --watch --interval=0.1 --idle-exit=8 grow3.hp --serve=0 || fail "no serving line: $(cat err3)"
mkdir dumps3
HP2X_WAIT_CLOSED=1 HP2X_READY=$T/ready3 HP2X_DUMPS=$T/dumps3 node "$B/live_census_test.js" \
  "http://127.0.0.1:$PORT/" page3.json 120 3800 expect3.png > browser3.txt 2>&1 & BR=$!
# the rest once the page shows its report (at most 60 s; meanwhile a
# census at once and every 0.5 s, so that --idle-exit does not end the
# input), pausing at 3,250, 3,330 and 3,700 until the page's data there is
# written (at most 6 s: --idle-exit is 8)
python3 - big.hp grow3.hp "$T/ready3" "$T/dumps3" <<'PY'
import os, re, sys, time
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
k, start, dumps = 3150, time.time(), sys.argv[4]
with open(sys.argv[2], "a") as out:
    while not os.path.exists(sys.argv[3]) and time.time() - start < 60:
        if time.time() - start >= 0.5 * (k - 3150):
            out.write(samples[k])
            out.flush()
            k += 1
        time.sleep(0.1)
    while k < len(samples):
        stop = min([p for p in (3250, 3330, 3700) if p > k] + [k + 5])
        out.write("".join(samples[k:stop]))
        out.flush()
        k = stop
        if k in (3250, 3330, 3700):
            open(os.path.join(dumps, "pause-%d" % k), "w").close()
            wait = time.time()
            while not os.path.exists(os.path.join(dumps, "dumped-%d" % k)) and time.time() - wait < 6:
                time.sleep(0.05)
            print("paused at census %d for %.1f s" % (k, time.time() - wait))
        time.sleep(0.1)
PY
wait $BR; brc=$?
cat browser3.txt
serve_stop
[ $brc -eq 0 ] && ok || fail "the page following past thinning"
"$HP2X" grow3.hp -o final3.html 2> /dev/null || fail "-o final3.html"
same_data page3.json final3.html thinned > same3.txt && ok || fail "$(cat same3.txt)"
cat same3.txt
# the page's data where the input paused equals -o x.html's of the input
# so far (its first K censuses)
for k in 3250 3330 3700; do
  python3 - grow3.hp "$k" at$k.hp <<'PY'
import re, sys
text = open(sys.argv[1]).read()
head, rest = text.split("BEGIN_SAMPLE", 1)
samples = re.findall(r"BEGIN_SAMPLE.*?END_SAMPLE[^\n]*\n", "BEGIN_SAMPLE" + rest, re.S)
open(sys.argv[3], "w").write(head + "".join(samples[:int(sys.argv[2])]))
PY
  "$HP2X" at$k.hp -o at$k.html 2> /dev/null || fail "-o at$k.html"
  if [ -s dumps3/page-$k.json ]; then
    same_data dumps3/page-$k.json at$k.html "census $k" > same3-$k.txt && ok || fail "$(cat same3-$k.txt)"
    cat same3-$k.txt
  else
    fail "the page's data at census $k was not written"
  fi
done
python3 - page3.json <<'PY' && ok || fail "the page did not thin as the report does"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["data"]["t"]) <= 3200 < r["data"]["censuses"], (len(r["data"]["t"]), r["data"]["censuses"])
# it thinned as the report does without fetching it: once past its first
# report, no fetch of "/" but for a new band set (none here) or a missed
# update (a gap: at most two, on a loaded machine)
whys = [e["why"] for e in r["log"][1:]]
print("the page's reports after its first: %s" % (whys or "none"))
assert not [w for w in whys if w not in ("gap", "bands")], r["log"]
assert whys.count("gap") <= 2, r["log"]
PY
# 4. --last: the served page's report holds what -o x.html holds under
# --last (its buckets counted from time 0, also in the server's copy of
# the profile, which is what the page, the lean report and the updates
# are drawn from): 5,000 censuses 13.7 ms apart from 0.37 s, the last
# 60 s of them, past 3,200.
python3 - big4.hp <<'PY'
import math
with open("big4.hp", "w") as out:
    out.write('JOB "last"\nDATE "d"\nSAMPLE_UNIT "seconds"\nVALUE_UNIT "bytes"\n')
    for k in range(5000):
        t = 0.37 + 0.0137 * k
        out.write("BEGIN_SAMPLE %.4f\n" % t)
        for b, name in enumerate(("alpha", "beta", "gamma")):
            out.write("%s\t%d\n" % (name, 1000 * (b + 1) + int(900 * (1 + math.sin(k / (37.0 + b))))))
        out.write("END_SAMPLE %.4f\n" % t)
PY
"$HP2X" --last=60 big4.hp -o last4.html 2> /dev/null || fail "--last=60 -o last4.html"
serve_start err4 --watch --interval=0.1 --last=60 big4.hp --serve=0 || fail "no serving line: $(cat err4)"
for _ in $(seq 200); do
  curl -s -m 5 "http://127.0.0.1:$PORT/" > served4.html
  grep -q '"68.856300"\]' served4.html && break
  sleep 0.1
done
serve_stop
python3 - served4.html last4.html <<'PY' && ok || fail "--last's served report holds other censuses than -o x.html"
import json, re, sys
def data(f):
    html = open(f, encoding="utf-8").read()
    return json.loads(re.search(r'<script type="application/json" id="hp2x-data">(.*?)</script>', html, re.S).group(1))
a, b = data(sys.argv[1]), data(sys.argv[2])
assert 1600 <= len(b["t"]) <= 3200, len(b["t"])
assert a["t"] == b["t"], (len(a["t"]), len(b["t"]), len(set(a["t"]) ^ set(b["t"])))
print("--last=60: the served report and -o x.html hold the same %d censuses" % len(b["t"]))
PY
finish
