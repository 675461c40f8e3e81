import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drainable } from './drain';

// The server as main.ts runs it: keep-alive connections held longer than a proxy's (65 s).
let server: Server | null = null;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = null;
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

async function listen(handler: (path: string) => Promise<string>) {
  server = createServer((incoming, outgoing) => {
    void handler(incoming.url ?? '').then((body) => outgoing.end(body));
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as AddressInfo).port };
}

function get(port: number, path: string, agent: Agent): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('draining the server on SIGTERM', () => {
  it('answers the request in flight on a keep-alive connection, closes its connection, and takes no new one', async () => {
    const arrived = deferred();
    const release = deferred();
    const { server, port } = await listen(async (path) => {
      if (path === '/slow') {
        arrived.resolve();
        await release.promise;
      }
      return `answer to ${path}`;
    });
    const drain = drainable(server);
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    // one connection left idle by an answered request, one with a request in flight
    expect((await get(port, '/first', agent)).connection).toBe('keep-alive');
    const slow = get(port, '/slow', agent);
    await arrived.promise;
    expect(drain.inFlight()).toBe(1);
    const closed = drain.close(10_000);
    await expect(get(port, '/new', new Agent())).rejects.toThrow(/ECONNREFUSED/);
    release.resolve();
    expect(await slow).toEqual({ status: 200, connection: 'close', body: 'answer to /slow' });
    // close() calls back once every connection is gone, long before the keep-alive timeout
    expect(await closed).toEqual({ cut: 0 });
    expect(drain.inFlight()).toBe(0);
    agent.destroy();
  });

  it('cuts a request still unanswered when the grace period ends', async () => {
    const arrived = deferred();
    const { server, port } = await listen(async () => {
      arrived.resolve();
      return new Promise<string>(() => undefined);
    });
    const drain = drainable(server);
    const hung = get(port, '/hung', new Agent({ keepAlive: true }));
    await arrived.promise;
    expect(await drain.close(50)).toEqual({ cut: 1 });
    await expect(hung).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
