/* live_apply.js -- the second part of the live page's script (after
 * live_swap.js, inside the function it opens; live_swap.js says how the
 * parts join): what the page holds (heldAt, the bands' sums, the censuses
 * appended), and an update's parts applied to it: the censuses it lacks
 * (append, appendTail, appendNew), a report's thinning as a change from
 * the previous update's (thin, applyThin, fallback), the --heap lines
 * (takeLines), the marks (takeMarks), the axes, the band figures and the
 * title's area text (takeFigures), a new band set (newSet), and their
 * drawing, once a frame at most (drawSoon, flush). */
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
    /* older than the report the page holds (the newest update heard,
     * taken again after a fetch brought a newer report): nothing in it,
     * censuses, marks or lines, is newer than the page's */
    if (st.picture < heldAt) return "";
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
  /* The marks of update u in place of D's.  Every update says the
   * marks' count and fingerprint (markCount, markSum: the report's data
   * has them too); one made while a page may hold other marks (one of the
   * last 32 updates said another markSum) carries them (marks, as the
   * report of its redraw writes them: at most 50 KB), or, when the marks
   * each of those said begin its own, the ones after the first marksFrom
   * alone, for a page whose markSum is one of marksBase's (it keeps its
   * first marksFrom).  1 when taken, 0 when D's are u's already, -1 when
   * they differ and u does not carry what D lacks (the page missed more
   * updates than that: the report has them). */
  function takeMarks(D, u) {
    if (u.markCount === D.markCount && u.markSum === D.markSum) return 0;
    if (!u.marks) return -1;
    var from = u.marksFrom || 0;
    if (from && ((u.marksBase || []).indexOf(D.markSum) < 0 || D.marks.length < from)) return -1;
    D.marks = from ? D.marks.slice(0, from).concat(u.marks) : u.marks;
    D.markCount = u.markCount;
    D.markSum = u.markSum;
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
