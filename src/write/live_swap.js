/* live_swap.js -- the live page of hp2x --serve, in three parts that
 * mk/embed.sh joins, in the Makefile's LIVE_JS order, into one script
 * (hpx_live_js), embedded after the report's script: live_swap.js (this:
 * the status line, a report swapped in, the warm-up, a report fetched or
 * pushed), live_apply.js (what the page holds, and an update's parts
 * applied to it) and live_follow.js (each update taken, the event
 * stream).  The function this part opens live_follow.js closes: the three
 * are one scope, whose state (shown, busy, heldAt, the sums...) and
 * functions each part uses.  The page follows the server's /events
 * (Server-Sent Events).
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
 * whose points the page takes in place of its own: takeLines), marks
 * other than its own that the update does not carry (an update carries
 * the marks only while they changed within its last 32 updates, those
 * after the ones each of those said when they begin its own, and every
 * update their count and fingerprint, markSum: a page that missed more
 * updates than that sees it and fetches; takeMarks), a gap
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
