/* live.js -- the live page of hp2x --serve (embedded by mk/embed.sh after
 * the report's script): follows the server's /events (Server-Sent Events).
 * Each "update" event's JSON sets the status line and carries the newest
 * censuses ("update", hp2x_write_live_update): the page appends those it
 * lacks to its data, with the axes and the run's band figures the server
 * computed, and draws them itself (hp2x.grown, report_main.js: the chart
 * kinds, the moment table and a zoom's table follow from the data), so
 * that the server draws no picture for it.  Only when that cannot be done
 * does the page fetch "/" again: the band set changed (a new band in the
 * top -m, a new OTHER), a band's past changed (one joined or left OTHER:
 * the sums of its values differ from the server's), --heap
 * lines other than its own (each update carries the --heap lines whole,
 * whose points the page takes in place of its own: takeLines; the marks
 * come whole with each update that has any, and the page takes them too:
 * takeMarks), a gap
 * longer than the update's tail (the page missed events; a hidden page, a
 * tab in the background, draws nothing and catches up when shown).  Once the report thins its censuses (more than it holds a
 * column for, or past its byte budget), each update says which censuses
 * the report of its redraw holds, as a change from the previous update's
 * ("thin": runs of those kept and the censuses the page lacks,
 * hp2x_write_live_step): the page applies it when it holds that previous
 * update's censuses (heldAt), else (it missed an update) fetches as for a
 * gap; the count and each band's sum over what it then holds must be the
 * update's, else a band's past changed.  So the page holds, census by
 * census, what the report holds (what -o x.html would), fetching only
 * when the selection changes.  Where no change is said (times that do
 * not increase), it appends the tail and fetches the report each time
 * the run has grown by a sixty-fourth, and when the input closes.
 * The
 * censuses appended are drawn as their update comes, or, when the page
 * drew since its last frame, in the frame that follows (once for all the
 * updates that came before it: drawSoon), so that what the page holds
 * (hp2x.data) and what it shows differ until that frame at most, and
 * never when the reader points or a report is swapped in.  Each
 * fetch and its reason go to hp2x.liveLog.  Such a fetch decodes the new
 * picture before showing anything (and waits out a drag the reader is
 * making), then swaps the report in at once and lets the report's script
 * draw it with the bands hidden, the time zoom and the chart kind the
 * reader had (hp2x.keep, from hp2x.state(): window.hp2x, report_main.js):
 * no reload, no flicker.  It asks for the report without its PNG
 * ("/?lean=1") and draws the picture itself, the PNG it had kept hidden
 * for the picture's size.  A page that has no report yet
 * (hp2x_write_live_waiting_html: no census had come; it has the report's
 * script) fetches and swaps in the first the same way, keeping its event
 * stream (a reload would drop it, and the status line with it, for as
 * long as the page takes to load), and meanwhile warms up on the
 * server's tiny report of its own ("/?warm=1": warmUp); when census 1's
 * update carries that report's picture and data (the server drew it
 * already, and the update holds every census), the page draws census 1
 * into the warm-up instead (adopt: no page to parse, no report to wait
 * for).  A new band set, while the update
 * holds every census of the run, the page draws itself (newSet: the
 * update carries the set's key, hp2x_write_live_key).  For a later new
 * band set and the waiting page's
 * first report otherwise, every page would fetch at once: the server pushes that
 * redraw's page instead (a "report" event, sent with its update, in
 * either order: push.c), and
 * the page swaps it in as a fetched one, fetching only when it has not
 * come in PUSH_WAIT ms.  The pages of one browser
 * share one event stream (follow, below).  On <html>, data-hp2x-census is
 * the census count the page shows and data-hp2x-appended the censuses it
 * drew itself since its report. */
(function () {
  "use strict";
  var status = document.getElementById("hp2x-live-status");
  var redraw = function (root) {
    var r = root.getAttribute("data-hp2x-redraw");
    return r === null ? -1 : Number(r);
  };
  var shown = redraw(document.documentElement), wanted = shown, busy = false;
  var words = { waiting: "waiting for the service", connected: "connected",
    closed: "input closed" };

  function say(st) {
    var t = (words[st.input] || st.input) + " \u2014 " + st.censuses +
      (st.censuses === 1 ? " census" : " censuses") + " so far";
    if (st.last_census !== null) t += ", the last at " + st.last_census + " s";
    status.textContent = t;
    status.setAttribute("data-input", st.input);
    status.setAttribute("data-censuses", String(st.censuses));
  }
  /* No swap while the reader drags a zoom: the drag would be lost. */
  var pressed = false;
  document.addEventListener("mousedown", function () { pressed = true; }, true);
  window.addEventListener("mouseup", function () {
    setTimeout(function () { pressed = false; }, 0); /* after the zoom */
  }, true);
  function whenIdle() {
    return new Promise(function (done) {
      (function wait() { if (pressed) setTimeout(wait, 50); else done(); })();
    });
  }
  var hp2x = window.hp2x = window.hp2x || {};
  /* The report of doc in place of the page's; the waiting page's first
   * (it has the report's script, not its report) after the status line. */
  function swap(doc) {
    install(document.importNode(doc.getElementById("hp2x-report"), true),
      doc.getElementById("hp2x-data").textContent, doc.title);
  }
  /* The report `fresh` (a node of this document) in place of the page's,
   * with data (its JSON text) and title. */
  function install(fresh, text, title) {
    flush(); /* hp2x.state() reads what is drawn */
    unwarm();
    var keep = hp2x.state ? hp2x.state() : null;
    var main = document.getElementById("hp2x-report");
    var had = document.getElementById("hp2x-raster"), got = fresh.querySelector("#hp2x-raster");
    if (had && got && !got.hasAttribute("src")) { /* a lean page: the PNG the page has, for its size */
      had.setAttribute("data-hp2x-stale", "1");
      got.parentNode.replaceChild(had, got);
    } else if (got && !got.hasAttribute("src")) { /* a lean first report: the picture's size */
      var svg = fresh.querySelector("#hp2x-picture");
      got.setAttribute("data-hp2x-stale", "1");
      if (svg) { got.width = parseFloat(svg.getAttribute("width")); got.height = parseFloat(svg.getAttribute("height")); }
    }
    var data = document.getElementById("hp2x-data");
    if (!data) {
      data = document.createElement("script");
      data.type = "application/json";
      data.id = "hp2x-data";
      document.body.appendChild(data);
      document.title = title;
    }
    data.textContent = text;
    if (main) main.parentNode.replaceChild(fresh, main);
    else status.parentNode.insertBefore(fresh, status.nextSibling);
    hp2x.keep = keep;
    hp2x.report();
  }
  /* A waiting page warms up (the server's "/?warm=1": a tiny report of
   * its own, drawn with the run's options, warm.c): the report laid out,
   * hidden, and drawn by the report's script, and kept until the first
   * census, so that the stream's first report is drawn into a page whose
   * script is compiled and whose kind of report has been laid out once (a
   * cold page took about twice as long: RESULTS 12.5l).  Census 1's update
   * carries that report's picture and data (key.first, events.c) when the
   * server drew it already: the warm-up becomes the report in place
   * (adopt); else it is dropped and the report pushed or fetched swapped
   * in.  Either way nothing of it stays: no state, no data, no attribute. */
  /* when the warm-up was drawn, dropped or adopted (ms since the epoch): a test's */
  var warm = hp2x.liveWarm = { drawn: null, dropped: null, adopted: null };
  function warmUp() {
    if (document.getElementById("hp2x-report") || !hp2x.report) return;
    fetch("/?warm=1", { cache: "no-store" }).then(function (res) {
      return res.ok ? res.text() : null;
    }).then(function (text) {
      if (!text || document.getElementById("hp2x-report") || busy) return;
      var doc = new DOMParser().parseFromString(text, "text/html");
      var fresh = doc.getElementById("hp2x-report"), data = doc.getElementById("hp2x-data");
      if (!fresh || !data) return;
      fresh = document.importNode(fresh, true);
      fresh.setAttribute("data-hp2x-warm", "1");
      fresh.setAttribute("aria-hidden", "true");
      fresh.style.cssText = "visibility:hidden;position:absolute;left:0;top:0";
      var d = document.createElement("script");
      d.type = "application/json";
      d.id = "hp2x-data";
      d.textContent = data.textContent;
      d.setAttribute("data-hp2x-warm", "1");
      document.body.appendChild(d);
      status.parentNode.insertBefore(fresh, status.nextSibling);
      try { hp2x.report(); } catch (e) { /* a warm-up only */ }
      warm.drawn = performance.timeOrigin + performance.now();
    }).catch(function () {});
  }
  function unwarm() {
    var w = document.querySelectorAll("[data-hp2x-warm]");
    if (!w.length) return;
    for (var i = 0; i < w.length; i++) w[i].parentNode.removeChild(w[i]);
    warm.dropped = performance.timeOrigin + performance.now();
    hp2x.state = hp2x.data = hp2x.pristine = hp2x.grown = null;
    hp2x.keep = null;
    document.documentElement.removeAttribute("data-hp2x-ready");
  }
  /* Census 1 drawn into the warm-up, from its update (status st) whose key
   * carries the first report's picture and data (key.first: the lean
   * page's SVG and JSON, events.c), when the update holds every census of
   * the run and is of that report's band set: no page parsed, no report
   * waited for.  The warm-up's node becomes the report: its warm marks
   * gone, the picture hp2x drew (parsed as SVG, never as HTML: cairo's
   * glyphs, no label), its PNG stale and sized as the picture, the tables
   * and the chart switch emptied and the buttons' listeners dropped (the
   * report's script makes them again), then the report drawn.  0 when it
   * cannot be: the report pushed or fetched will do. */
  function adopt(st) {
    var u = st.update, first = st.key && st.key.first, main = document.getElementById("hp2x-report"),
      data = document.getElementById("hp2x-data"), at = performance.timeOrigin + performance.now();
    if (!u || !first || !first.data || first.data.set !== u.set || u.samples !== u.t.length || !main ||
        !data || !main.hasAttribute("data-hp2x-warm")) return 0;
    var svg = new DOMParser().parseFromString(first.picture, "image/svg+xml").documentElement;
    var old = main.querySelector("#hp2x-picture"), raster = main.querySelector("#hp2x-raster");
    if (svg.getAttribute("id") !== "hp2x-picture" || svg.getElementsByTagName("parsererror").length ||
        !old || !raster) return 0;
    [main, data].forEach(function (e) { e.removeAttribute("data-hp2x-warm"); });
    main.removeAttribute("aria-hidden");
    main.removeAttribute("style");
    old.parentNode.replaceChild(document.importNode(svg, true), old);
    raster.removeAttribute("src");
    raster.setAttribute("data-hp2x-stale", "1");
    raster.width = parseFloat(svg.getAttribute("width"));
    raster.height = parseFloat(svg.getAttribute("height"));
    raster.alt = first.data.job;
    ["hp2x-table", "hp2x-moment-table"].forEach(function (id) { document.getElementById(id).textContent = ""; });
    var charts = document.getElementById("hp2x-charts");
    if (charts) charts.parentNode.removeChild(charts);
    ["hp2x-reset", "hp2x-filter"].forEach(function (id) {
      var e = document.getElementById(id);
      e.parentNode.replaceChild(e.cloneNode(true), e);
    });
    data.textContent = JSON.stringify(first.data);
    document.title = first.data.job + " - hp2x";
    hp2x.keep = null;
    hp2x.report();
    warm.adopted = performance.timeOrigin + performance.now();
    return drewItself(st, "first", null, at);
  }
  /* The report of redraw `wanted` swapped in: from the report event r
   * the server pushed (its page's text), or fetched. */
  function refresh(r) {
    if (busy || wanted <= shown) return;
    busy = true;
    /* a pushed report may be older than the newest update: the page shows
     * its redraw, and waits again for the next */
    var target = r ? r.picture : wanted, entry = log[log.length - 1] || {};
    entry.pushed = !!r;
    /* the log entry's times, ms from its start: the page received, the
     * picture decoded, the report shown */
    function lap(k) { if (entry.at && entry[k] === null) entry[k] = performance.timeOrigin + performance.now() - entry.at; }
    /* A page that shows a report asks for one without its PNG ("lean":
     * about half of the bytes), and keeps its own PNG, hidden, for the
     * picture's size: the report's script draws the picture. */
    var lean = !!document.getElementById("hp2x-raster");
    (r ? Promise.resolve(r.page) : fetch(lean ? "/?lean=1" : "/", { cache: "no-store" }).then(function (res) {
      return res.text();
    })).then(function (text) {
      lap("got");
      var doc = new DOMParser().parseFromString(text, "text/html");
      if (!doc.getElementById("hp2x-report")) { /* no report drawn: at the next picture */
        shown = Math.max(redraw(doc.documentElement), shown);
        return null;
      }
      var img = new Image(), raster = doc.getElementById("hp2x-raster"), src = raster.getAttribute("src");
      if (/,$/.test(src)) raster.removeAttribute("src"); /* no PNG in it (lean) */
      else img.src = src;
      return (img.src ? img.decode() : Promise.resolve()).catch(function () {}).then(whenIdle).then(function () {
        lap("decoded");
        swap(doc);
        heldAt = redraw(doc.documentElement);
        offBase = false;
        shown = Math.max(heldAt, target);
        appended = 0;
        sums = null;
        loadedAt = -1; /* the next update's count */
        root.setAttribute("data-hp2x-appended", "0");
        document.documentElement.setAttribute("data-hp2x-redraw", String(shown));
        lap("ms");
      });
    }).catch(function () {}).then(function () {
      busy = false;
      /* what came meanwhile: appended to the new report, or fetched */
      if (latest) update(JSON.stringify(latest));
    });
  }
  /* A band set change, or the waiting page's first report: the server
   * pushes that redraw's page (a "report" event, before or after the
   * update), so
   * the page waits for it rather than fetch "/" (as every page would at
   * once); when it does not come within PUSH_WAIT ms (a page that
   * followed /events only after it went, a lost event), "/" is fetched.
   * pushed: the newest report event ({picture, set, lean, page}). */
  var PUSH_WAIT = 3000, pushed = null, awaiting = null;
  /* r can be swapped in: newer than the page's report.  Its band set may
   * be older than the newest update's (while the set changes at each
   * census, a report arrives a census or two late): swapped in all the
   * same, it shows the censuses up to it, and the page waits for the
   * next. */
  function usable(r) { return !!r && r.picture > shown; }
  function awaitReport() {
    if (busy || wanted <= shown) return;
    if (usable(pushed)) { refresh(pushed); return; }
    busy = true;
    awaiting = setTimeout(function () { awaiting = null; busy = false; refresh(); },
      hp2x.pushWait || PUSH_WAIT); /* hp2x.pushWait: a test's */
  }
  var reports = hp2x.liveReports = []; /* the report events heard, the newest 20 */
  function report(data) {
    var r = JSON.parse(data);
    reports.push({ picture: r.picture, set: r.set, lean: r.lean, at: performance.timeOrigin + performance.now(),
      awaited: awaiting !== null });
    if (reports.length > 20) reports.shift();
    if (pushed && r.picture <= pushed.picture) return;
    pushed = r;
    if (awaiting === null || !usable(r)) return; /* else fetched when the wait ends */
    clearTimeout(awaiting);
    awaiting = null;
    busy = false;
    refresh(r);
  }
  var root = document.documentElement, appended = 0, loadedAt = -1, latest = null;
  /* The redraw whose censuses the page holds (its report's, or the update
   * it took last): a "thin" update applies to it alone. */
  var heldAt = shown;
  /* Each band's values' sum modulo 2^64 over the censuses held: the
   * update's, over the report's, differ when a band's past changed (it
   * joined or left OTHER) or the page holds other censuses. */
  var sums = null;
  function add(a, x, sign) { return BigInt.asUintN(64, a + BigInt(sign) * BigInt(x)); }
  function sumsOf(D) {
    return D.bands.map(function (b) { return b.v.reduce(function (a, x) { return add(a, x, 1); }, 0n); });
  }
  /* The censuses and sums held are the report's of update u. */
  function same(D, u) {
    return D.t.length === u.held && u.cells.every(function (c, k) { return BigInt(c.sum) === sums[k]; });
  }
  /* Why the page swapped a report in, each time, and whether it was
   * pushed or fetched: hp2x.liveLog (for a script, a test), the newest
   * 100. */
  var log = hp2x.liveLog = [];
  function exact(T, X, i) { return X ? Number(X[i]) : Number(T[i]); }
  /* Appends to the report's data D the censuses of update u it lacks
   * (those after its last), dropping those before a --window's start. */
  function appendTail(D, u, j) {
    if (!sums) sums = sumsOf(D);
    if (u.tx && !D.tx) D.tx = D.t.map(Number);
    for (var c = j + 1; c < u.t.length; c++) {
      D.t.push(u.t[c]);
      if (D.tx) D.tx.push(u.tx ? u.tx[c] : Number(u.t[c]));
      D.bands.forEach(function (b, k) { b.v.push(u.v[k][c]); sums[k] = add(sums[k], u.v[k][c], 1); });
      appended++;
    }
    var dropped = 0;
    while (dropped < D.t.length - 1 && exact(D.t, D.tx, dropped) < u.x0) dropped++;
    for (var d = 0; d < dropped; d++) {
      for (var k = 0; k < D.bands.length; k++) sums[k] = add(sums[k], D.bands[k].v[d], -1);
    }
    D.t.splice(0, dropped);
    if (D.tx) D.tx.splice(0, dropped);
    D.bands.forEach(function (b) { b.v.splice(0, dropped); });
    return dropped;
  }
  /* The run's axes and figures of update u, as the server computed them;
   * each chart kind's y ticks by the picture's rule. */
  function takeFigures(D, u) {
    ["x0", "xrange", "ymin", "yrange", "tickEnd", "topPeak", "topPeakAt", "areaText"].forEach(function (f) { D[f] = u[f]; });
    D.censuses = u.samples;
    D.columns = u.columns;
    Object.keys(D.charts).forEach(function (kind) {
      var c = D.charts[kind];
      c.ymin = u.axes[kind][0];
      c.yrange = u.axes[kind][1];
      c.ticks = hp2x.yTicks(D, kind);
    });
    D.bands.forEach(function (b, k) { for (var f in u.cells[k]) b[f] = u.cells[k][f]; });
  }
  /* The censuses appended are drawn (hp2x.grown) at once, unless the
   * page drew since its last frame: then in the next animation frame,
   * before it is made, so that updates that come faster than the page
   * makes frames (ten pages' renderers on two cores) cost one drawing
   * more, not one each.  Whatever reads what is drawn first draws what
   * is pending (flush): the reader's pointer and keys (caught before the
   * report's handlers) and a report swapped in.  The census is shown
   * (data-hp2x-census) as it is appended: the frame that follows draws it
   * before anything else asked for in it. */
  var pending = null, frame = 0, drewSinceFrame = false, remake = false;
  /* how many updates appended censuses, and how many drawings drew them */
  var drawn = hp2x.liveDrawn = { appends: 0, draws: 0 };
  function drawSoon(dropped) {
    drawn.appends++;
    if (pending === null && !drewSinceFrame) { /* the page keeps up */
      drewSinceFrame = true;
      requestAnimationFrame(function () { drewSinceFrame = false; });
      drawn.draws++;
      hp2x.grown(dropped);
      return;
    }
    if (pending === null) {
      pending = 0;
      frame = requestAnimationFrame(flush);
    }
    if (dropped === null) remake = true; /* the censuses held changed: made again */
    else pending += dropped;
  }
  function flush() {
    if (pending === null) return;
    var dropped = remake ? null : pending;
    pending = null;
    remake = false;
    cancelAnimationFrame(frame);
    drawn.draws++;
    hp2x.grown(dropped);
  }
  ["pointerdown", "pointermove", "click", "keydown", "wheel"].forEach(function (type) {
    document.addEventListener(type, flush, { capture: true, passive: true });
  });
  /* A new band set drawn from update u (status st) and its key (st.key:
   * the bands' names and colours, where the graph and key lie), when the
   * update holds every census of the run: the report's data made from
   * them, the report as it came (hp2x.pristine: what hp2x drew does not
   * depend on the band set) drawn again with it, the reader's choices
   * kept.  0 when it cannot be: a report pushed or fetched will do. */
  var lastKey = null; /* the newest key heard: a busy page takes a newer update */
  /* The newest update taken again once the reader's drag ends (a new
   * report would lose it): "" meanwhile. */
  var deferred = false;
  function later() {
    if (!deferred) {
      deferred = true;
      whenIdle().then(function () {
        deferred = false;
        if (latest) update(JSON.stringify(latest));
      });
    }
    return "";
  }
  function newSet(st, u) {
    var D = hp2x.data, key = st.key || lastKey, N = {}, f;
    if (!key || key.set !== u.set || u.samples !== u.t.length || !hp2x.pristine ||
        key.bands.length !== u.v.length) return 0;
    var at = performance.timeOrigin + performance.now();
    for (f in D) N[f] = D[f];
    if (takeMarks(N, u) < 0 || takeLines(N, u) < 0) return 0;
    N.page = {};
    for (f in D.page) if (f !== "ticks" && f !== "tickLabels") N.page[f] = D.page[f]; /* the picture's */
    for (f in key.page) N.page[f] = key.page[f];
    N.set = u.set;
    N.t = u.t.slice();
    if (u.tx) N.tx = u.tx.slice(); else delete N.tx;
    N.bands = key.bands.map(function (b, k) {
      var o = { v: u.v[k].slice() };
      for (var g in b) o[g] = b[g];
      return o;
    });
    takeFigures(N, u);
    var fresh = hp2x.pristine.cloneNode(true), raster = fresh.querySelector("#hp2x-raster");
    if (raster) raster.removeAttribute("src"); /* the page's own, kept hidden */
    install(fresh, JSON.stringify(N), document.title);
    return drewItself(st, "bands", D.set, at);
  }
  /* The page drew the report of update st itself (newSet, adopt), from
   * band set `set` (null: none), begun at `at`: it shows its redraw and
   * census, and logs it. */
  function drewItself(st, why, set, at) {
    shown = Math.max(shown, st.picture);
    wanted = Math.max(wanted, shown);
    appended = 0, sums = null, loadedAt = -1, heldAt = st.picture, offBase = false;
    root.setAttribute("data-hp2x-appended", "0");
    root.setAttribute("data-hp2x-redraw", String(shown));
    root.setAttribute("data-hp2x-census", String(st.censuses));
    log.push({ census: st.censuses, why: why, set: set, want: st.update.set, to: hp2x.data.set, update: true,
      at: at, got: null, decoded: null, ms: performance.timeOrigin + performance.now() - at, pushed: false });
    if (log.length > 100) log.shift();
    return 1;
  }
  /* Draws the censuses of update u (status st) the report lacks: "" when
   * done, else why only "/" will do. */
  function append(st, u) {
    var D = hp2x.data;
    if (!D || !hp2x.grown) return "report";
    if (u.set !== D.set && pressed) return later(); /* not under a drag */
    if (u.set !== D.set) return newSet(st, u) ? "" : "bands"; /* the selection changed */
    var marks = takeMarks(D, u);
    if (marks < 0) return "marks";
    var lines = takeLines(D, u);
    if (lines < 0) return "lines"; /* --heap lines other than the page's */
    if (D.t.length === 0) return "report";
    var before = drawn.appends, why = u.thin ? thin(st, u) : appendNew(st, u, D);
    if (!why && (lines || marks) && drawn.appends === before) drawSoon(0); /* only the lines or marks moved */
    return why;
  }
  /* The marks of update u (whole, as the report of its redraw writes
   * them: at most ~50 KB) in place of D's: 1 when their count changed, 0
   * when not, -1 when u carries a count other than D's and no marks. */
  function takeMarks(D, u) {
    if (u.markCount === D.markCount) {
      if (u.marks) D.marks = u.marks;
      return 0;
    }
    if (!u.marks) return -1;
    D.marks = u.marks;
    D.markCount = u.markCount;
    return 1;
  }
  /* The --heap lines of update u (each whole, as the report of its redraw
   * writes them: a few KB to ~150 KB; power-of-two time buckets as the
   * censuses use would shrink it) in place of D's points, their names and
   * looks kept: 1 when taken, 0 when D has none and u none, -1 when they
   * are not D's lines (another count or name: the report has them). */
  function takeLines(D, u) {
    var L = u.lines || [];
    if (L.length !== D.lines.length) return -1;
    for (var i = 0; i < L.length; i++) if (L[i].name !== D.lines[i].name) return -1;
    D.lines = D.lines.map(function (line, i) {
      var o = {};
      for (var f in line) o[f] = line[f];
      o.t = L[i].t;
      o.y = L[i].y;
      return o;
    });
    return L.length ? 1 : 0;
  }
  /* The censuses of update u (status st) after D's last appended: "" when
   * done, else why only "/" will do. */
  function appendNew(st, u, D) {
    var m = u.t.length, lastT = exact(D.t, D.tx, D.t.length - 1), j;
    for (j = m - 1; j >= 0 && exact(u.t, u.tx, j) > lastT; j--);
    if (j < 0) return "gap"; /* its last census is older than the tail */
    if (j < m - 1) {
      var dropped = appendTail(D, u, j);
      if (!same(D, u)) return "past"; /* a band's past changed */
      takeFigures(D, u);
      drawSoon(dropped);
      root.setAttribute("data-hp2x-appended", String(appended));
    }
    heldAt = Math.max(heldAt, st.picture);
    root.setAttribute("data-hp2x-census", String(st.censuses));
    return "";
  }
  /* The updates heard while the page could not take them (busy, hidden),
   * newest last: a "thin" update is taken after the one it is written
   * against, so those that came during a fetch are taken after it. */
  var heard = [];
  function hear(st) {
    if (!st.update || !st.update.thin) return;
    heard.push(st);
    if (heard.length > 32) heard.shift();
  }
  /* Update u (status st) of a report that thins: its change applied to
   * what the page holds, after those heard before it that lead there. */
  function thin(st, u) {
    var D = hp2x.data;
    if (loadedAt < 0) loadedAt = st.censuses;
    while (st.picture > heldAt) {
      var next = offBase ? null : u.thin.base === heldAt ? st : heard.filter(function (h) {
        return h.picture < st.picture && h.update.thin.base === heldAt && h.update.set === D.set;
      })[0];
      if (!next && (offBase || u.thin.why)) return fallback(st, u);
      if (!next && u.thin.base < 0) return "thinning"; /* no update before it: the report */
      if (!next) return "gap"; /* the page missed the update it needs */
      var why = applyThin(D, next);
      if (why) return why;
    }
    heard = heard.filter(function (h) { return h.picture > heldAt; });
    root.setAttribute("data-hp2x-census", String(st.censuses));
    return "";
  }
  /* No change said that the page can apply (times that do not increase:
   * thin.why; or the page appended without one since its report: offBase): the tail
   * appended as it comes, and the report fetched each time the run has
   * grown by a sixty-fourth since the page's report, and when the input
   * closes. */
  var offBase = false;
  function fallback(st, u) {
    if (st.input === "closed" || st.censuses * 64 >= loadedAt * 65) return "thinning";
    var D = hp2x.data, m = u.t.length, lastT = exact(D.t, D.tx, D.t.length - 1), j;
    for (j = m - 1; j >= 0 && exact(u.t, u.tx, j) > lastT; j--);
    if (j < 0) return "gap";
    offBase = true;
    if (j < m - 1) {
      var dropped = appendTail(D, u, j);
      takeFigures(D, u);
      drawSoon(dropped);
      root.setAttribute("data-hp2x-appended", String(appended));
    }
    root.setAttribute("data-hp2x-census", String(st.censuses));
    return "";
  }
  /* The runs of update s's "thin" applied to D: the censuses kept, those
   * added; drawn as appended when they are D's last ones from some on and
   * new ones after, else made again. */
  function applyThin(D, s) {
    var u = s.update, th = u.thin, nb = D.t.length, X = D.tx || th.tx ? [] : null, a = 0, prev = 0;
    if (th.of !== nb) return "gap";
    if (!sums) sums = sumsOf(D);
    var T = [], V = D.bands.map(function () { return []; });
    function drop(i0, i1) {
      for (var i = i0; i < i1; i++) for (var k = 0; k < V.length; k++) sums[k] = add(sums[k], D.bands[k].v[i], -1);
    }
    for (var r = 0; r < th.runs.length; r++) {
      var from = th.runs[r][0], keep = th.runs[r][1], more = th.runs[r][2], i, k;
      if (keep && (from < prev || from + keep > nb)) return "gap";
      if (keep) { drop(prev, from); prev = from + keep; }
      for (i = from; i < from + keep; i++) {
        T.push(D.t[i]);
        if (X) X.push(D.tx ? D.tx[i] : Number(D.t[i]));
        for (k = 0; k < V.length; k++) V[k].push(D.bands[k].v[i]);
      }
      for (i = a; i < a + more; i++) {
        T.push(th.t[i]);
        if (X) X.push(th.tx ? th.tx[i] : Number(th.t[i]));
        for (k = 0; k < V.length; k++) { V[k].push(th.v[k][i]); sums[k] = add(sums[k], th.v[k][i], 1); }
      }
      a += more;
      appended += more;
    }
    drop(prev, nb);
    var simple = th.runs.length === 1 && th.runs[0][0] + th.runs[0][1] === nb ? th.runs[0][0] : null;
    D.t = T;
    if (X) D.tx = X;
    D.bands.forEach(function (b, k) { b.v = V[k]; });
    if (!same(D, u)) return "past"; /* a band's past changed */
    takeFigures(D, u);
    drawSoon(simple);
    heldAt = s.picture;
    root.setAttribute("data-hp2x-appended", String(appended));
    return "";
  }
  /* A hidden page (a tab in the background) draws nothing; shown again,
   * it takes the newest update: the censuses it missed from its tail, or
   * the page again when more than the tail went by. */
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && latest) update(JSON.stringify(latest));
  });
  function update(data) {
    var st = JSON.parse(data);
    say(st);
    latest = st;
    if (st.key) lastKey = st.key;
    hear(st);
    if (busy || st.censuses <= 0 || document.hidden) return; /* later */
    /* No report yet (the waiting page, or its warm-up): drawn from the
     * update into the warm-up, or pushed or fetched and swapped in as
     * any newer one, the event stream kept. */
    var main = document.getElementById("hp2x-report"), waiting = !main || main.hasAttribute("data-hp2x-warm");
    if (waiting && adopt(st)) return;
    unwarm(); /* a census came: the warm-up is done with */
    var why = waiting ? "first" : st.update ? append(st, st.update) : "report";
    if (!why) return;
    if (st.picture > wanted) wanted = st.picture;
    if (wanted > shown && !busy) {
      log.push({ census: st.censuses, why: why, set: hp2x.data ? hp2x.data.set : null,
        want: st.update ? st.update.set : null,
        at: performance.timeOrigin + performance.now(), got: null, decoded: null, ms: null, pushed: null });
      if (log.length > 100) log.shift();
    }
    if (why === "first" || why === "bands") awaitReport();
    else refresh();
  }
  /* One event stream per browser, not per page: a browser keeps about six
   * connections to a server, and a page holding one for good would leave
   * a seventh page of this server unable to load.  The page holding the
   * lock follows /events and passes each update to the others; when it
   * closes, the next page waiting takes the lock.  Without locks (an
   * address that is not a secure context) each page follows its own. */
  function follow(share) {
    leading = true;
    document.documentElement.setAttribute("data-hp2x-follows", "events");
    /* the redraw it shows: a report pushed before this stream came, and
     * newer, is sent to it (a page that takes the lead from another) */
    var events = new EventSource("/events?shown=" + shown);
    events.addEventListener("update", function (e) {
      last = e.data;
      update(e.data);
      if (share) share.postMessage(e.data);
    });
    events.addEventListener("report", function (e) {
      report(e.data);
      if (share) share.postMessage({ report: e.data });
    });
  }
  var last = null, leading = false;
  warmUp();
  var share = window.BroadcastChannel && navigator.locks ?
    new BroadcastChannel("hp2x-live") : null;
  if (!share) { follow(null); return; }
  share.onmessage = function (m) {
    if (m.data === "hello") { if (leading && last !== null) share.postMessage(last); }
    else if (typeof m.data === "object" && m.data.report) report(m.data.report);
    else { last = m.data; update(m.data); }
  };
  share.postMessage("hello"); /* the leading page answers with its last */
  navigator.locks.request("hp2x-live-events", function () {
    follow(share);
    return new Promise(function () {}); /* held while the page lives */
  });
})();
