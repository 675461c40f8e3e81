import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { TrustProxy } from '../config';

/**
 * The header that carries the client address the server resolved. Whatever a client sends under
 * this name is replaced, so every reader (rate limits, better-auth, security log) sees the same,
 * trustworthy address; x-forwarded-for itself is never read anywhere else.
 */
export const CLIENT_ADDRESS_HEADER = 'x-candlewise-client-address';

const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);

function trustedList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/**
 * The client's address from the socket's and the x-forwarded-for chain. Off: the socket, always.
 * A hop count: that many proxies stand in front, each appending the address it saw. An address
 * list: hops from those addresses are skipped from the right; the first other one is the client.
 * Entries a client wrote itself (left of what trusted proxies appended) are never used.
 */
export function resolveClientAddress(socketAddress: string | null, forwardedFor: string | null, trust: TrustProxy): string | null {
  const socket = socketAddress ? unmapped(socketAddress) : null;
  if (trust.kind === 'off' || !forwardedFor) return socket;
  const chain = [...forwardedFor.split(',').map((item) => unmapped(item.trim())), ...(socket ? [socket] : [])];
  if (trust.kind === 'hops') {
    const candidate = chain[Math.max(0, chain.length - 1 - trust.hops)];
    return candidate && isIP(candidate) ? candidate : socket;
  }
  const list = trustedList(trust.entries);
  const isTrusted = (address: string) => list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  if (socket && !isTrusted(socket)) return socket;
  let client = socket;
  for (let i = chain.length - (socket ? 2 : 1); i >= 0; i -= 1) {
    const hop = chain[i] ?? '';
    if (!isIP(hop)) break;
    client = hop;
    if (!isTrusted(hop)) break;
  }
  return client;
}

function socketAddressOf(c: Context): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null; // app.request() without connection info
  }
}

/**
 * Whether a request can reach a reader of the address: better-auth (its rate limits on every
 * /api/auth call, the IP it stores with a session it creates) and our own limits and security
 * log, which all sit on requests that change something. A read elsewhere has no reader, and
 * writing the header made the Node adapter copy every request header: a fifth of a /healthz.
 */
export function readsClientAddress(method: string, path: string): boolean {
  return (method !== 'GET' && method !== 'HEAD') || path.startsWith('/api/auth/');
}

/**
 * Resolves the client address of every request that can reach a reader (readsClientAddress) and
 * puts it on CLIENT_ADDRESS_HEADER. On any other request a client's own CLIENT_ADDRESS_HEADER is
 * removed, so nothing can ever read an address the client wrote.
 */
export function clientAddress(trust: TrustProxy) {
  return createMiddleware((c, next) => {
    // In place: copying the request would make the Node adapter build a full Request per request.
    const { headers } = c.req.raw;
    if (readsClientAddress(c.req.method, c.req.path)) {
      const address = resolveClientAddress(socketAddressOf(c), headers.get('x-forwarded-for'), trust);
      headers.delete(CLIENT_ADDRESS_HEADER);
      if (address) headers.set(CLIENT_ADDRESS_HEADER, address);
    } else if (headers.has(CLIENT_ADDRESS_HEADER)) {
      headers.delete(CLIENT_ADDRESS_HEADER);
    }
    return next();
  });
}

/** The address clientAddress() resolved for this request (see readsClientAddress), or null. */
export const clientAddressOf = (headers: Headers): string | null => headers.get(CLIENT_ADDRESS_HEADER);

/** The client's address of any request, GETs included (where clientAddress() leaves the header out). */
export function clientAddressOfRequest(c: Context, trust: TrustProxy): string | null {
  return resolveClientAddress(socketAddressOf(c), c.req.header('x-forwarded-for') ?? null, trust);
}
