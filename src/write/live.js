/* live.js -- the live page of hp2x --serve (embedded by mk/embed.sh after
 * the report's script): follows the server's /events (Server-Sent Events).  Each
 * "update" event's JSON sets the status line; when it names a newer
 * redraw ("picture") the page fetches "/" again, decodes the new picture
 * before showing anything (and waits out a drag the reader is making),
 * then swaps the report in at once and lets
 * the report's script draw it with the bands hidden, the time zoom and the
 * chart kind the reader had (hp2x.keep, from hp2x.state(): window.hp2x,
 * report_main.js): no reload, no flicker.  A page that has no
 * report yet (hp2x_write_live_waiting_html: no census had come) is loaded
 * again, once, when an update names a newer picture.  The pages of one
 * browser share one event stream (follow, below). */
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
  function swap(doc) {
    var keep = hp2x.state ? hp2x.state() : null;
    var main = document.getElementById("hp2x-report");
    var fresh = document.importNode(doc.getElementById("hp2x-report"), true);
    document.getElementById("hp2x-data").textContent =
      doc.getElementById("hp2x-data").textContent;
    main.parentNode.replaceChild(fresh, main);
    hp2x.keep = keep;
    hp2x.report();
  }
  function refresh() {
    if (busy || wanted <= shown) return;
    busy = true;
    var target = wanted;
    fetch("/", { cache: "no-store" }).then(function (r) {
      return r.text();
    }).then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      if (!doc.getElementById("hp2x-report")) return null;
      var img = new Image();
      img.src = doc.getElementById("hp2x-raster").getAttribute("src");
      return img.decode().catch(function () {}).then(whenIdle).then(function () {
        swap(doc);
        shown = Math.max(redraw(doc.documentElement), target);
        document.documentElement.setAttribute("data-hp2x-redraw", String(shown));
      });
    }).catch(function () {}).then(function () {
      busy = false;
      refresh();
    });
  }
  function update(data) {
    var st = JSON.parse(data);
    say(st);
    if (!document.getElementById("hp2x-report")) {
      /* No report yet: load the page, once, when the server has a newer
       * picture, having handed the stream on (each update would
       * otherwise start the load again, and a page being loaded must not
       * hold a connection the load waits for). */
      if (st.censuses > 0 && st.picture > shown && !reloading) {
        reloading = true;
        if (source) source.close();
        if (release) release();
        location.reload();
      }
      return;
    }
    if (st.censuses > 0 && st.picture > wanted) wanted = st.picture;
    refresh();
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
    source = new EventSource("/events");
    source.addEventListener("update", function (e) {
      last = e.data;
      update(e.data);
      if (share) share.postMessage(e.data);
    });
  }
  var last = null, leading = false, source = null, release = null,
    reloading = false;
  var share = window.BroadcastChannel && navigator.locks ?
    new BroadcastChannel("hp2x-live") : null;
  if (!share) { follow(null); return; }
  share.onmessage = function (m) {
    if (m.data === "hello") { if (leading && last !== null) share.postMessage(last); }
    else { last = m.data; update(m.data); }
  };
  share.postMessage("hello"); /* the leading page answers with its last */
  navigator.locks.request("hp2x-live-events", function () {
    follow(share);
    /* held while the page lives, or until it loads the report */
    return new Promise(function (done) { release = done; });
  });
})();
