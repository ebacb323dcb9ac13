// coverage.js -- which censuses reached a client of hp2x --serve, for the
// soak (tests/soak/serve_clients.js).  Each /events update tells the
// census count (`censuses`: how many the server has read); an update
// covers the censuses it carries, ending at that count.  Issue 42's
// updates carry the new censuses themselves (carriedOf below reads them);
// an update that carries none covers the one census it counts up to (so
// with updates that carry no census, every census is covered only when
// the server published one update per census).  The first update after
// an EventSource opens (a page load), and a page's fetch of "/" (how a
// live page catches up after a gap), cover 1..count: the page fetched the
// report holding them.  Coverage is kept as sorted, merged ranges.
'use strict';

// The censuses an update carries: issue 42's updates carry the newest
// censuses (`update.t`: their times, a tail of up to 64) after the status.
function carriedOf(st) {
  const u = st.update;
  return u && Array.isArray(u.t) ? u.t.length : 0;
}

class Coverage {
  constructor() {
    this.ranges = [];     // [lo, hi], sorted, disjoint, not adjacent
    this.updates = 0;
    this.opens = 0;
    this.fetches = 0;
    this.carrying = 0;    // updates that carried censuses
    this.fresh = false;   // the next update is the first of a stream
    this.last = 0;
  }

  // A tapped page's message: 'open' (a new EventSource), 'fetch' (the
  // page asked for "/" again) or an update's [count, censuses carried].
  event(what) {
    if (what === 'open') { this.opens++; this.fresh = true; return; }
    if (what === 'fetch') { this.fetches++; this.add(1, this.last); return; }
    if (Array.isArray(what)) this.counted(what[0], what[1]);
  }

  update(st) { this.counted(Number(st.censuses), carriedOf(st)); }

  counted(n, m) {
    if (!(n >= 0)) return;
    this.updates++;
    if (m > 0) this.carrying++;
    if (this.fresh) { this.add(1, n); this.fresh = false; }
    else if (m > 0) this.add(n - m + 1, n);
    else if (n > this.last) this.add(n, n);
    this.last = n;
  }

  add(lo, hi) {
    if (hi < lo) return;
    const r = this.ranges;
    const last = r[r.length - 1];
    if (last && lo > last[1] + 1) { r.push([lo, hi]); return; }
    if (last && lo >= last[0]) { last[1] = Math.max(last[1], hi); return; }
    r.push([lo, hi]);
    r.sort((a, b) => a[0] - b[0]);
    const out = [r[0]];
    for (const x of r.slice(1)) {
      const y = out[out.length - 1];
      if (x[0] <= y[1] + 1) y[1] = Math.max(y[1], x[1]); else out.push(x);
    }
    this.ranges = out;
  }

  // The censuses of 1..n not covered.
  missing(n) {
    let have = 0;
    for (const [lo, hi] of this.ranges) have += Math.max(0, Math.min(hi, n) - lo + 1);
    return n - have;
  }

  // The first few gaps of 1..n, as text (" (a-b, c-d, ...)"), or ''.
  gaps(n) {
    const g = [];
    let next = 1;
    for (const [lo, hi] of this.ranges) {
      if (lo > next) g.push(lo - 1 > next ? `${next}-${lo - 1}` : `${next}`);
      next = Math.max(next, hi + 1);
    }
    if (next <= n) g.push(n > next ? `${next}-${n}` : `${n}`);
    return g.length ? ` (${g.slice(0, 5).join(', ')}${g.length > 5 ? `, ... ${g.length} gaps` : ''})` : '';
  }

  report(n) {
    return { updates: this.updates, opens: this.opens, fetches: this.fetches, carrying: this.carrying,
      missing: this.missing(n), gaps: this.gaps(n) };
  }
}

// Runs in each page before its own scripts: every EventSource the page
// opens reports its opening and each 'update' event's data to node, and
// each fetch of "/" is reported.
function tapScript() {
  const ES = window.EventSource;
  if (!ES || ES.hp2xTapped) return;
  const tell = (what) => { try { window.hp2xTapped(what); } catch (e) { /* gone */ } };
  // An update's census count and the censuses it carries (carriedOf's
  // reading), read without parsing the whole event: the page does that.
  const counts = (data) => {
    const n = /"censuses":(\d+)/.exec(data);
    // (the tail's "t": the last before a "thin" change, whose own "t"
    // lists the held censuses the page lacks, not the censuses counted)
    const thin = data.indexOf('"thin":{');
    const at = data.lastIndexOf(',"t":[', thin >= 0 ? thin : data.length);
    let m = 0;
    if (at >= 0 && data.indexOf('"update":') >= 0 && data.indexOf('"update":') < at) {
      const end = data.indexOf(']', at);
      const list = data.slice(at + 6, end);
      m = list.length ? list.split(',').length : 0;
    }
    return [n ? Number(n[1]) : -1, m];
  };
  class Tapped extends ES {
    constructor(url, opts) {
      super(url, opts);
      tell('open');
      this.addEventListener('update', (e) => tell(counts(e.data)));
    }
  }
  Tapped.hp2xTapped = true;
  window.EventSource = Tapped;
  const fetch0 = window.fetch;
  window.fetch = function (what, init) {
    const u = typeof what === 'string' ? what : what && what.url;
    if (u && new URL(u, location.href).pathname === '/') tell('fetch');
    return fetch0.call(this, what, init);
  };
}

module.exports = { Coverage, carriedOf, tapScript };
