// How the server stops taking requests without dropping one (SIGTERM in main.ts: a rolling
// deploy, `podman stop`, a platform's restart). Node's server.close() alone stops accepting and
// closes the connections idle at that moment, but a request in flight on a keep-alive connection
// was answered "keep-alive" and its connection then stayed open until the keep-alive timeout
// (65 s), so close() never called back within any grace period.
import type { Server, ServerResponse } from 'node:http';

export type Drain = {
  /** Requests being answered now. */
  inFlight: () => number;
  /**
   * Stops accepting connections, answers the requests in flight with `Connection: close` and
   * closes each connection once its answer is sent; a request still unanswered after `graceMs`
   * has its connection cut. Resolves with how many were cut (0: every request was answered).
   */
  close: (graceMs: number) => Promise<{ cut: number }>;
};

export function drainable(server: Server): Drain {
  const active = new Set<ServerResponse>();
  let closing = false;
  // a response's socket becomes idle just after its 'finish': closed on the next turn
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());
  server.on('request', (_request, response: ServerResponse) => {
    active.add(response);
    // one arriving during the drain on a connection already open is answered, then its connection closes
    if (closing) response.shouldKeepAlive = false;
    response.once('close', () => {
      active.delete(response);
      if (closing) closeIdleSoon();
    });
  });
  return {
    inFlight: () => active.size,
    close(graceMs) {
      closing = true;
      for (const response of active) if (!response.headersSent) response.shouldKeepAlive = false;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          const cut = active.size;
          server.closeAllConnections();
          resolve({ cut });
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve({ cut: 0 });
        });
        server.closeIdleConnections();
      });
    },
  };
}
