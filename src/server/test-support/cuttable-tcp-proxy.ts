// Test helper: a TCP proxy in front of a database server whose connections a test can cut, as a
// restart or a failover does, without touching the server that other suites (and engineers) use.
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type CuttableProxy = {
  port: number;
  /** Cuts every open connection and refuses new ones until restore(). */
  cut: () => void;
  /** Listens again on the same port. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startCuttableProxy(target: { host: string; port: number }): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const drop = () => {
      for (const socket of [client, upstream]) {
        socket.destroy();
        open.delete(socket);
      }
    };
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', drop).on('close', drop);
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const cut = () => {
    // nobody listens any more: new connections are refused, as by a server that is down
    if (server.listening) server.close();
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    port,
    cut,
    restore: () => listen(port),
    close: async () => {
      cut();
      await new Promise<void>((done) => (server.listening ? server.close(() => done()) : done()));
    },
  };
}
