// sse_client.js -- a plain Server-Sent Events client of hp2x --serve's
// /events, for the serving benchmark (bench/serve_latency.js) and the soak
// (tests/soak/serve_clients.js): a raw HTTP/1.1 GET over a TCP socket, the
// chunked body decoded here, each "update" event's JSON handed to onUpdate
// with the time it came (performance.now(), ms).  No browser, no
// EventSource: what a script or a proxy reading the stream does.  With
// `reconnect`, a stream that ends is opened again after 1 s (as an
// EventSource does); `reconnects` counts them.
'use strict';
const net = require('net');
const { performance } = require('perf_hooks');

class SseClient {
  constructor(port, name, onUpdate, opts = {}) {
    this.port = port;
    this.name = name;
    this.onUpdate = onUpdate;
    this.reconnect = !!opts.reconnect;
    this.reconnects = 0;
    this.events = 0;
    this.last = null;      // the last update's JSON
    this.status = 0;       // the last response's HTTP status
    this.open = false;
    this.stopped = false;
    this.connect();
  }

  connect() {
    this.head = Buffer.alloc(0);
    this.inBody = false;
    this.chunked = false;
    this.chunkLeft = -1;   // bytes left in the chunk; -1: a size line is due
    this.pending = Buffer.alloc(0);
    this.text = '';
    const s = net.connect(this.port, '127.0.0.1');
    this.sock = s;
    s.setNoDelay(true);
    s.on('connect', () => {
      this.open = true;
      s.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n');
    });
    s.on('data', (b) => this.data(b));
    s.on('error', () => {});
    s.on('close', () => {
      this.open = false;
      if (this.stopped || !this.reconnect) return;
      this.reconnects++;
      setTimeout(() => { if (!this.stopped) this.connect(); }, 1000);
    });
  }

  data(b) {
    if (!this.inBody) {
      this.head = Buffer.concat([this.head, b]);
      const end = this.head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.head.subarray(0, end).toString('latin1');
      this.status = Number((/^HTTP\/1\.\d (\d+)/.exec(head) || [])[1] || 0);
      this.chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head);
      this.inBody = true;
      b = this.head.subarray(end + 4);
    }
    if (!this.chunked) return this.body(b);
    this.pending = Buffer.concat([this.pending, b]);
    for (;;) {
      if (this.chunkLeft < 0) {
        const nl = this.pending.indexOf('\r\n');
        if (nl < 0) return;
        this.chunkLeft = parseInt(this.pending.subarray(0, nl).toString('latin1'), 16);
        this.pending = this.pending.subarray(nl + 2);
        if (!(this.chunkLeft >= 0)) { this.sock.destroy(); return; }
      }
      if (this.pending.length < this.chunkLeft + 2) return;
      this.body(this.pending.subarray(0, this.chunkLeft));
      this.pending = this.pending.subarray(this.chunkLeft + 2);
      this.chunkLeft = -1;
    }
  }

  body(b) {
    const now = performance.now();
    this.text += b.toString('utf8');
    let end;
    while ((end = this.text.indexOf('\n\n')) >= 0) {
      const event = this.text.slice(0, end);
      this.text = this.text.slice(end + 2);
      let kind = 'message', data = null;
      for (const line of event.split('\n')) {
        if (line.startsWith('event: ')) kind = line.slice(7);
        else if (line.startsWith('data: ')) data = line.slice(6);
      }
      if (kind !== 'update' || data === null) continue;
      let st;
      try { st = JSON.parse(data); } catch (e) { continue; }
      this.events++;
      this.last = st;
      this.onUpdate(st, now, this);
    }
  }

  stop() { this.stopped = true; this.sock.destroy(); }
}

module.exports = { SseClient };
