/* live_follow.js -- the last part of the live page's script (after
 * live_apply.js; live_swap.js says how the parts join): each update taken
 * as it comes (update: the status line said, then the update applied or a
 * report awaited or fetched), the event stream followed, one per browser
 * (follow), and the function live_swap.js opens closed. */
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
