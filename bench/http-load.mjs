// The load generator of `npm run bench`, run as its own process (`node bench/http-load.mjs
// '<target as JSON>'`) so that it shares no event loop with the bench's bookkeeping, and on raw
// sockets so that it costs the 2-core machine as little as it can: each request is the same
// bytes written again, and a response is read only as far as its status and its length: Node's
// http client builds objects per request, and on a 2-core machine its CPU is the server's loss.
//
// Prints one JSON line: { timings: [ms, ...], errors, seconds }.
import { connect } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

/** The bytes of one keep-alive GET, built once. */
function requestBytes(url, headers) {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`, 'connection: keep-alive', 'accept-encoding: gzip'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
}

/**
 * Reads HTTP/1.1 responses off one connection: calls `done(status)` at the end of each. Bodies
 * are skipped by content-length or by chunk sizes; nothing is decoded.
 */
function responseReader(done) {
  let buffer = Buffer.alloc(0);
  let state = null; // { status, remaining } for a sized body, { status, chunked: true } for chunks
  return (data) => {
    buffer = buffer.length ? Buffer.concat([buffer, data]) : data;
    for (;;) {
      if (!state) {
        const end = buffer.indexOf(HEADER_END);
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + 4);
        const status = Number(head.slice(9, 12));
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) state = { status, chunked: true };
        else state = { status, remaining: length ? Number(length[1]) : 0 };
      }
      if (state.chunked) {
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) return;
        const size = Number.parseInt(buffer.subarray(0, lineEnd).toString('latin1'), 16);
        // a chunk, its CRLF; the last (size 0) is followed by an empty trailer line
        const needed = lineEnd + 2 + size + 2;
        if (buffer.length < needed) return;
        buffer = buffer.subarray(needed);
        if (size !== 0) continue;
      } else {
        if (buffer.length < state.remaining) return;
        buffer = buffer.subarray(state.remaining);
      }
      const { status } = state;
      state = null;
      done(status);
    }
  };
}

/** Keeps one connection busy until the deadline; resolves when its last response is in. */
function runConnection(url, bytes, deadline, timings, counts) {
  return new Promise((finish) => {
    const socket = connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    let started = 0;
    const send = () => {
      if (performance.now() >= deadline) {
        socket.end();
        finish();
        return;
      }
      started = performance.now();
      socket.write(bytes);
    };
    socket.on(
      'data',
      responseReader((status) => {
        if (status >= 200 && status < 400) timings.push(performance.now() - started);
        else counts.errors += 1;
        send();
      }),
    );
    socket.on('error', () => {
      counts.errors += 1;
      finish();
    });
    socket.once('connect', send);
  });
}

const { url, headers = {}, connections, seconds } = JSON.parse(process.argv[2]);
const target = new URL(url);
const bytes = requestBytes(target, headers);
const timings = [];
const counts = { errors: 0 };
const started = performance.now();
await Promise.all(Array.from({ length: connections }, () => runConnection(target, bytes, started + seconds * 1000, timings, counts)));
process.stdout.write(`${JSON.stringify({ timings, errors: counts.errors, seconds: (performance.now() - started) / 1000 })}\n`);
