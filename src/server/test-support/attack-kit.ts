import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { TEST_ORIGIN } from './test-app';

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * An app on a real socket (port 0): requests pass the Node adapter and the body limit, and carry
 * the socket's address as a visitor's do, so a forged x-forwarded-for is just a header.
 */
export async function listen(fetchApp: Fetch): Promise<{ url: string; close: () => Promise<void> }> {
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: fetchApp, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A JSON POST from the shop's own origin; a string body is sent as it is. */
export const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A public IPv4 address, different (almost always) on every call. */
export const randomAddress = () =>
  `${1 + Math.floor(Math.random() * 222)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** How many times each status came back. */
export const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
